"""Edge snapping: each side of the content fit moved onto the board's outer edge, the long
straight colour edge nearest it, where the board content still fits."""

from __future__ import annotations

import cv2
import numpy as np

from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.geometry import diagonal
from scorer.vision.locate.content import ContentScore, best_frame_shift
from scorer.vision.locate.quads import intersect


def snap_to_edges(mid: np.ndarray, mid_scale: float, corners: np.ndarray, config: VisionConfig,
                  score: ContentScore, score_scale: float) -> tuple[np.ndarray, int]:
    """Move the sides onto the board's outer edge: the long straight colour edge nearest
    each side, searched in ``mid`` (the photo scaled by ``mid_scale``). The content fit is
    pulled a little by the height of the pieces (parallax); the physical edge is not.
    Outside the photo counts as black, so a board filling the whole frame snaps to the frame.
    A side moves only if the board content still fits (a table pattern can look like an
    edge). Returns the corners in photo pixels and how many sides were snapped."""
    blurred = cv2.GaussianBlur(mid, (5, 5), 0)
    c = corners * mid_scale
    band = max(4.0, config.refine_band * diagonal(c))
    fitted = [(c[i], (c[(i + 1) % 4] - c[i]) / np.linalg.norm(c[(i + 1) % 4] - c[i]))
              for i in range(4)]
    found = [_side_line(blurred, c[i], c[(i + 1) % 4], band, config) for i in range(4)]
    reference = score(c * score_scale / mid_scale)
    # the most sides that can snap together, the board content still fitting (with the map
    # free to move within the frame's slack: a frame a few mm off must not keep the sides
    # off the edges); among as many sides, the best fit
    quads: list[tuple[int, np.ndarray]] = []
    for subset in range(1, 16):
        if any(subset >> i & 1 and found[i] is None for i in range(4)):
            continue
        lines = [found[i] if subset >> i & 1 else fitted[i] for i in range(4)]
        quad = np.array([intersect(lines[(i - 1) % 4], lines[i]) for i in range(4)])
        if any(q is None for q in quad) or np.max(np.linalg.norm(quad - c, axis=1)) > 1.5 * band:
            continue
        quads.append((bin(subset).count("1"), quad))
    floor = reference - 0.15 * abs(reference)

    def fit(quad: np.ndarray) -> float:
        at = quad * score_scale / mid_scale
        value = score(at)
        return value if value >= floor else best_frame_shift(score, at, value)

    for count in (4, 3, 2, 1):
        fits = [(value, quad) for value, quad in ((fit(q), q) for n, q in quads if n == count)
                if value >= floor]
        if fits:
            return max(fits, key=lambda f: f[0])[1] / mid_scale, count
    return c / mid_scale, 0


def _side_line(blurred: np.ndarray, a: np.ndarray, b: np.ndarray, band: float,
               config: VisionConfig = DEFAULT):
    """The strong straight edge nearest the side a->b within ``band`` px of the blurred BGR
    image, or None. Of the straight edges most rows support, the board's: its rim runs along
    one side of it in one colour, where a line through a checked cloth, wood grain or the
    track's numbered squares has the colour beside it changing along both sides (such a line
    can gather more rows than a board edge that is faint where a check or the grain matches
    the rim)."""
    length = float(np.linalg.norm(b - a))
    direction = (b - a) / length
    normal = np.array([direction[1], -direction[0]])  # outwards for a clockwise quad
    t = np.linspace(0.06, 0.94, 80)
    # sampled a few px beyond the band on both sides, for the colour beside an edge at its end
    beside = config.edge_beside
    offsets = np.arange(-band - beside, band + beside + 1.0, 1.0)
    base = a[None] + t[:, None] * (b - a)[None]
    pts = base[:, None, :] + offsets[None, :, None] * normal[None, None, :]
    # only the band is turned into Lab (not the whole image)
    bgr = cv2.remap(blurred, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32),
                    cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    wide = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).astype(np.float32)
    profile, inner = wide[:, beside:-beside], offsets[beside:-beside]
    edge = np.zeros(profile.shape[:2], dtype=np.float32)
    edge[:, 1:-1] = np.linalg.norm(profile[:, 2:] - profile[:, :-2], axis=2)
    # candidate edge points: strong local maxima of each row across the side
    strong = edge >= np.maximum(6.0, 0.5 * edge.max(axis=1, keepdims=True))
    peak = strong.copy()
    peak[:, 1:-1] &= (edge[:, 1:-1] >= edge[:, :-2]) & (edge[:, 1:-1] >= edge[:, 2:])
    rows, cols = np.nonzero(peak)
    if len(rows) < 10:
        return None
    tt, oo = t[rows], inner[cols]
    enough = 0.5 * len(t)
    # RANSAC for the straight edge supported by most rows, less for a changing colour on
    # both sides of it (nearest the fit on a tie)
    rng = np.random.default_rng(0)
    best, best_key = None, None
    for _ in range(150):
        i, j = rng.integers(0, len(rows), 2)
        if abs(tt[i] - tt[j]) < 0.3:
            continue
        slope = (oo[j] - oo[i]) / (tt[j] - tt[i])
        if abs(slope) > band:
            continue
        inlier = np.abs(oo - (oo[i] + slope * (tt - tt[i]))) < 1.5
        support = len(np.unique(rows[inlier]))
        value = support / len(t)
        # (the cost only lowers the value: none is worked out for a line already behind)
        if support >= enough and (best_key is None or not best_key[0] or value >= best_key[1]):
            spread = _spread_beside(wide, offsets, oo[i] + slope * (t - tt[i]))
            value -= config.edge_spread_cost * max(0.0, spread - config.edge_spread_free)
        key = (support >= enough, value, -abs(np.mean(oo[inlier])))
        if best_key is None or key > best_key:
            best, best_key = inlier, key
    if best is None or not best_key[0]:
        return None
    slope, intercept = np.polyfit(tt[best], oo[best], 1)
    p0 = a + intercept * normal
    p1 = b + (intercept + slope) * normal
    return p0, (p1 - p0) / np.linalg.norm(p1 - p0)


def _spread_beside(wide: np.ndarray, offsets: np.ndarray, line: np.ndarray) -> float:
    """How much the colour beside an edge changes along it, on its more even side: the median
    distance from the median colour of a strip 1.5-3.5 px beside the edge (``line``: its
    offset in each row of the Lab ``wide``, sampled at ``offsets``)."""
    # both strips at once, linear between the sampled offsets
    x = np.clip(line[:, None] + _BESIDE_AT - offsets[0], 0.0, len(offsets) - 1.001)
    k = x.astype(int)
    f = (x - k)[..., None]
    row = np.arange(len(line))[:, None]
    values = wide[row, k] * (1.0 - f) + wide[row, k + 1] * f
    strips = values.reshape(len(line), 2, -1, 3).mean(axis=2)  # (rows, side, Lab)
    spread = np.linalg.norm(strips - np.median(strips, axis=0), axis=2)
    return float(np.median(spread, axis=0).min())


# the strips beside an edge, px either side of it: beyond the blur, within ``edge_beside``
_BESIDE_AT = np.array([-3.5, -2.5, -1.5, 1.5, 2.5, 3.5])
