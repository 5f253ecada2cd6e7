"""Candidate outlines from the photo's long straight lines (the board's edges stay long
straight lines on any table), for when the masks find nothing sure."""

from __future__ import annotations

import cv2
import numpy as np

from scorer.boards import Board
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.geometry import order_clockwise
from scorer.vision.locate.quads import convex_quads, cross_z, distinct, in_photo, intersect


def line_quads(small: np.ndarray, board: Board, keep: int = 6,
               config: VisionConfig = DEFAULT) -> list[np.ndarray]:
    """Quads bounded by the photo's long straight lines: the board's edges (and its map's
    frame) stay long straight lines on any table, where a cloth's checks break into short
    ones and a table's colour may match the board's. Two roughly parallel, well separated
    lines and two more across them make a quad; the best supported few are kept, from the
    detector's segments as they are and from the same joined along their lines (a hand, a
    glare spot or a piece over the edge cuts an edge into pieces none long enough alone)."""
    h, w = small.shape[:2]
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    try:
        found = cv2.createLineSegmentDetector().detect(gray)[0]
    except (AttributeError, cv2.error):  # some OpenCV builds leave the detector out
        return []
    if found is None:
        return []
    seg = found.reshape(-1, 4).astype(np.float64)
    length = np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1])
    joined = _quads_from_lines(*_joined_lines(seg, length, max(h, w), config.line_gap),
                               w, h, keep, board.aspect, config)
    return distinct([*joined, *_quads_from_lines(seg, length, w, h, keep, board.aspect, config)])


def _joined_lines(seg: np.ndarray, length: np.ndarray, size: int, gap_share: float,
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Segments lying on one straight line (within a couple of pixels and degrees, gaps up
    to ``gap_share`` of the photo) joined: each line's span as a segment, and its support
    (the summed length of its pieces, so a dashed line is not worth a whole one)."""
    keep = length > 0.02 * size  # shorter ones are texture
    order = np.argsort(-length[keep])[:300]
    seg, length = seg[keep][order], length[keep][order]
    tolerance, gap = max(1.5, 0.004 * size), gap_share * size
    parallel = np.cos(np.deg2rad(2.5))
    # each line: its direction and normal, where the origin projects on them, its span along
    # it and its support (room for as many lines as segments, ``count`` of them in use)
    direction, normal = np.empty((len(seg), 2)), np.empty((len(seg), 2))
    origin, span = np.empty((len(seg), 2)), np.empty((len(seg), 2))
    support, count = np.empty(len(seg)), 0
    for ends, n in zip(seg.reshape(-1, 2, 2), length, strict=True):
        d = (ends[1] - ends[0]) / n
        along = direction[:count] @ ends.T - origin[:count, :1]
        off = normal[:count] @ ends.T - origin[:count, 1:]
        lo, hi = along.min(axis=1), along.max(axis=1)
        same = ((np.abs(direction[:count] @ d) > parallel)
                & (np.abs(off).max(axis=1) < tolerance)
                & (lo < span[:count, 1] + gap) & (hi > span[:count, 0] - gap))
        hits = np.flatnonzero(same)
        if len(hits):
            k = hits[0]
            span[k] = min(span[k, 0], lo[k]), max(span[k, 1], hi[k])
            support[k] += n
        else:
            direction[count], normal[count] = d, (d[1], -d[0])
            origin[count] = direction[count] @ ends[0], normal[count] @ ends[0]
            span[count], support[count] = (0.0, n), n
            count += 1
    direction, normal, origin = direction[:count], normal[:count], origin[:count]
    # the point ``t`` along a line from its first piece's start
    base = origin[:, :1] * direction + origin[:, 1:] * normal
    ends = np.hstack([base + span[:count, :1] * direction, base + span[:count, 1:] * direction])
    support = support[:count]
    return ends, support


def _quads_from_lines(seg: np.ndarray, length: np.ndarray, w: int, h: int, keep: int,
                      aspect: float, config: VisionConfig) -> list[np.ndarray]:
    """The best supported ``keep`` board-like quads bounded by the segments ``seg``, each
    worth ``length``, for a board of ``aspect``."""
    order = np.argsort(-length)[:16]
    seg, length = seg[order], length[order]
    seg, length = seg[length > 0.1 * max(h, w)], length[length > 0.1 * max(h, w)]
    if len(seg) < 4:
        return []
    angle = np.arctan2(seg[:, 3] - seg[:, 1], seg[:, 2] - seg[:, 0]) % np.pi
    mid = (seg[:, :2] + seg[:, 2:]) / 2
    normal = np.c_[-np.sin(angle), np.cos(angle)]
    opposite_turn = np.deg2rad(config.opposite_turn_degrees)
    pairs = []
    for i in range(len(seg)):
        for j in range(i + 1, len(seg)):
            turn = abs(angle[i] - angle[j])
            if min(turn, np.pi - turn) > opposite_turn:
                continue
            if abs((mid[j] - mid[i]) @ normal[i]) > 0.2 * min(h, w):
                pairs.append((i, j))
    quads: list[tuple[float, np.ndarray]] = []
    if len(pairs) > 1:  # every two pairs across each other, all at once
        first, second = np.triu_indices(len(pairs), 1)
        (i, j), (k, m) = np.array(pairs)[first].T, np.array(pairs)[second].T
        turn = np.abs(angle[i] - angle[k])
        across = ((i != k) & (i != m) & (j != k) & (j != m)
                  & (np.minimum(turn, np.pi - turn) >= np.deg2rad(40)))
        sides = np.stack([i, k, j, m], axis=1)[across]  # in turn round the quad
        direction = np.c_[np.cos(angle), np.sin(angle)]
        p, d = mid[sides], direction[sides]
        q, e = np.roll(p, -1, axis=1), np.roll(d, -1, axis=1)
        cross = cross_z(d, e)
        met = np.all(np.abs(cross) >= 1e-6, axis=1)  # as intersect: no parallel sides
        corners = p + (cross_z(q - p, e) / np.where(met[:, None], cross, 1.0))[..., None] * d
        plausible = met & _plausible_quads(corners, w, h)
        # sides meeting out of turn (a bow tie) still give four corners: ordered, tried alone
        crossed = met & ~plausible & ~convex_quads(corners)
        for n in np.flatnonzero(plausible | crossed):
            quad = order_clockwise(corners[n])
            if plausible[n] or _plausible(quad, w, h):
                quads.append((float(length[sides[n]].sum()), quad))
    if len(quads) < keep:  # a side hidden or off the photo: complete it by the board's shape
        for i, j in pairs:  # two whole opposite edges: their ends are the corners
            quad = order_clockwise(np.vstack([seg[i].reshape(2, 2), seg[j].reshape(2, 2)]))
            if _plausible(quad, w, h):
                quads.append((float(length[[i, j]].sum()), quad))
        for i, j in pairs:
            along = np.array([np.cos(angle[i]), np.sin(angle[i])])
            for k in set(range(len(seg))) - {i, j}:
                turn = abs(angle[i] - angle[k])
                if min(turn, np.pi - turn) < np.deg2rad(40):
                    continue
                side = (mid[k], np.array([np.cos(angle[k]), np.sin(angle[k])]))
                a = intersect((mid[i], along), side)
                b = intersect((mid[j], along), side)
                if a is None or b is None:
                    continue
                for ratio in (aspect, 1 / aspect):
                    for sign in (1, -1):
                        shift = sign * ratio * np.linalg.norm(b - a) * along
                        quad = order_clockwise(np.array([a, b, b + shift, a + shift]))
                        if _plausible(quad, w, h):
                            quads.append((float(length[[i, j, k]].sum()), quad))
    quads.sort(key=lambda q: -q[0])
    return distinct((q for _, q in quads), count=keep)


def _plausible(quad: np.ndarray, w: int, h: int) -> bool:
    """A board-sized, board-shaped convex quad, its corners near the photo."""
    return bool(_plausible_quads(quad[None], w, h)[0])


def _plausible_quads(quads: np.ndarray, w: int, h: int) -> np.ndarray:
    """``_plausible`` of each of the (N, 4, 2) corners in one go."""
    edge = np.roll(quads, -1, axis=1) - quads
    x, y = quads[..., 0], quads[..., 1]
    area = 0.5 * np.abs(np.sum(x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y, axis=1))
    inside = in_photo(quads, w, h)
    side = np.linalg.norm(edge, axis=2)
    ratio = (side[:, 0] + side[:, 2]) / np.maximum(side[:, 1] + side[:, 3], 1e-9)
    return (convex_quads(quads) & (area >= 0.08 * w * h) & inside & (1.0 / 2.6 < ratio)
            & (ratio < 2.6) & (side.min(axis=1) > 0.25 * side.max(axis=1)))
