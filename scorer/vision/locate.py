"""Stage 2: find the board's four outer corners in a photo, upright, with a confidence.

Candidates come from several cheap segmentations (the whole frame, "far from the table
colour", edges). Each is read in its four rotations and scored by the board content: at the
printed train spaces the photo must differ from the paper and agree along each route. The
best candidate is then polished by the same score and snapped to the board's outer edges.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scorer.boards import Board
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.errors import BoardNotFound
from scorer.vision.geometry import (
    art_to_photo,
    diagonal,
    is_convex_quad,
    order_clockwise,
    project,
    rotations,
)
from scorer.vision.sample import background_points, space_table

# a board whose content score is below this is not a board (a right board scores 40-90)
_MIN_SCORE = 18.0
_BOARD_ASPECT = 79.5 / 52.5


@dataclass(frozen=True)
class Located:
    corners: np.ndarray  # (4, 2) in the pixels of the image given to ``locate``
    # the corners that put the printed spaces best onto the photo (what lanes are read with)
    art_corners: np.ndarray
    confidence: float
    score: float


def resize_long(image: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
    scale = min(1.0, long_side / max(image.shape[:2]))
    if scale == 1.0:
        return image, 1.0
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return small, scale


def blurred_lab(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_BGR2Lab).astype(np.float32)


class ContentScore:
    """How well a corner hypothesis puts the printed spaces onto route-like pixels."""

    def __init__(self, lab: np.ndarray, board: Board):
        self.lab, self.board = lab, board
        self.routes, spaces, self.owner = space_table(board)
        angle = np.deg2rad(spaces[:, 2])
        along = np.c_[np.cos(angle), np.sin(angle)]
        self.points = np.vstack([spaces[:, :2] + k * along for k in (-12, 0, 12)])
        self.paper = background_points(board)[::2]
        self.counts = np.bincount(self.owner, minlength=len(self.routes))[:, None]

    def _sample(self, h: np.ndarray, pts: np.ndarray) -> np.ndarray:
        p = project(h, pts).astype(np.float32)
        return cv2.remap(self.lab, p[:, :1], p[:, 1:], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))[:, 0]

    def __call__(self, corners: np.ndarray) -> float:
        if not is_convex_quad(corners):
            return -1e9
        h = art_to_photo(self.board, corners)
        s = self._sample(h, self.points).reshape(3, -1, 3).mean(axis=0)
        paper_samples = self._sample(h, self.paper)
        paper = np.median(paper_samples, axis=0)
        # the paper between routes is one plain colour: a quad reaching onto the table is not
        paper_spread = np.median(np.linalg.norm(paper_samples - paper, axis=1))
        contrast = np.median(np.linalg.norm(s - paper, axis=1))
        route_mean = np.zeros((len(self.routes), 3))
        np.add.at(route_mean, self.owner, s)
        route_mean /= self.counts
        spread = np.mean(np.linalg.norm(s - route_mean[self.owner], axis=1))
        # routes differ in colour (pieces, printed colours): a uniform table does not
        between = np.median(np.linalg.norm(route_mean - np.median(route_mean, axis=0), axis=1))
        return float(contrast - spread - paper_spread) * min(1.0, between / 25.0)


def locate(image: np.ndarray, board: Board, config: VisionConfig = DEFAULT) -> Located:
    """The board's corners (TL, TR, BR, BL upright) in ``image`` pixels; BoardNotFound if none."""
    small, scale = resize_long(image, config.locate_long_side)
    lab = blurred_lab(small)
    score = ContentScore(lab, board)
    best, best_score = None, -1e9
    for quad in candidates(small, lab):
        for corners in rotations(quad):
            s = score(corners)
            if s > best_score:
                best, best_score = corners, s
    if best is None or best_score < _MIN_SCORE * 0.6:
        raise BoardNotFound("No board found in the photo: take it from above, the whole board "
                            "in the frame.")
    best, best_score = polish(score, best, best_score, diagonal(best))
    if best_score < _MIN_SCORE:
        raise BoardNotFound("No board found in the photo: take it from above, the whole board "
                            "in the frame.")
    fitted = best / scale
    corners = snap_to_edges(image, fitted, config, score, scale)
    confidence = float(np.clip((best_score - _MIN_SCORE) / 40.0, 0.0, 1.0))
    return Located(corners, fitted, confidence, best_score)


def polish(score: ContentScore, corners: np.ndarray, value: float, diag: float,
           ) -> tuple[np.ndarray, float]:
    """Coordinate ascent of the content score over the 8 corner coordinates, coarse to fine."""
    best = corners.copy()
    step = 0.02 * diag
    while step >= 0.7:
        improved = True
        while improved:
            improved = False
            for i in range(4):
                for axis in range(2):
                    for sign in (1, -1):
                        trial = best.copy()
                        trial[i, axis] += sign * step
                        s = score(trial)
                        if s > value:
                            best, value, improved = trial, s, True
        step /= 2
    return best, value


def candidates(small: np.ndarray, lab: np.ndarray) -> list[np.ndarray]:
    """Plausible board quads (clockwise, any start) from several segmentations."""
    h, w = small.shape[:2]
    quads = []
    aspect = max(w, h) / min(w, h)
    if abs(aspect / _BOARD_ASPECT - 1) < 0.06:  # an image already cropped to the board
        quads.append(np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float64))
    for mask in (*far_from_table_masks(lab), border_mask(small), edge_mask(small)):
        quad = quad_from_mask(mask)
        if quad is not None:
            quads.append(quad)
    return quads


def far_from_table_masks(lab: np.ndarray) -> list[np.ndarray]:
    """Pixels unlike the photo's edges (the table), at a few thresholds."""
    h, w = lab.shape[:2]
    m = max(2, int(0.03 * min(h, w)))
    border = np.vstack([lab[:m].reshape(-1, 3), lab[-m:].reshape(-1, 3),
                        lab[:, :m].reshape(-1, 3), lab[:, -m:].reshape(-1, 3)])
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    _, _, centres = cv2.kmeans(border.astype(np.float32), 3, None, criteria, 2,
                               cv2.KMEANS_PP_CENTERS)
    flat = lab.reshape(-1, 3)
    dist = np.min(np.linalg.norm(flat[:, None, :] - centres[None], axis=2), axis=1)
    dist = dist.reshape(h, w)
    masks = []
    for threshold in (12.0, 22.0, 35.0):
        masks.append((dist > threshold).astype(np.uint8) * 255)
    return masks


def border_mask(small: np.ndarray) -> np.ndarray:
    """The score track around the map: a ring of saturated red-brown, filled in."""
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    red = ((hue < 12) | (hue > 165)) & (sat > 70) & (val > 40)
    mask = red.astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    if contours:
        cv2.drawContours(filled, [max(contours, key=cv2.contourArea)], -1, 255, -1)
    return filled


def edge_mask(small: np.ndarray) -> np.ndarray:
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(gray, (5, 5), 0), 30, 90)
    return cv2.dilate(edges, np.ones((5, 5), np.uint8))


def quad_from_mask(mask: np.ndarray) -> np.ndarray | None:
    """The biggest blob's outline simplified to four corners (None if it is no big quad)."""
    h, w = mask.shape
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    if cv2.contourArea(contour) < 0.12 * h * w:
        return None
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            return order_clockwise(approx.reshape(4, 2).astype(np.float64))
    rect = cv2.boxPoints(cv2.minAreaRect(hull))
    return order_clockwise(rect.astype(np.float64))


def snap_to_edges(image: np.ndarray, corners: np.ndarray, config: VisionConfig,
                  score: ContentScore | None = None, score_scale: float = 1.0) -> np.ndarray:
    """Move the sides onto the board's outer edge: the long straight colour edge nearest
    each side. The content fit is pulled a little by the height of the pieces (parallax); the
    physical edge is not. Outside the photo counts as black, so a board filling the whole
    frame snaps to the frame. With ``score``, a side moves only if the board content still
    fits (a table pattern can look like an edge)."""
    small, scale = resize_long(image, config.refine_long_side)
    lab = blurred_lab(small)
    c = corners * scale
    band = max(4.0, config.refine_band * diagonal(c))
    fitted = [(c[i], (c[(i + 1) % 4] - c[i]) / np.linalg.norm(c[(i + 1) % 4] - c[i]))
              for i in range(4)]
    found = [_side_line(lab, c[i], c[(i + 1) % 4], band) for i in range(4)]
    best, best_key = c, None
    reference = score(c * score_scale / scale) if score else 0.0
    for subset in range(16):
        if any(subset >> i & 1 and found[i] is None for i in range(4)):
            continue
        lines = [found[i] if subset >> i & 1 else fitted[i] for i in range(4)]
        quad = np.array([_intersect(lines[(i - 1) % 4], lines[i]) for i in range(4)])
        if any(q is None for q in quad) or np.max(np.linalg.norm(quad - c, axis=1)) > 1.5 * band:
            continue
        value = score(quad * score_scale / scale) if score else 0.0
        if score and value < reference - 0.15 * abs(reference):
            continue
        key = (bin(subset).count("1"), value)
        if best_key is None or key > best_key:
            best, best_key = quad, key
    return best / scale


def _side_line(lab: np.ndarray, a: np.ndarray, b: np.ndarray, band: float):
    """The strong straight edge nearest the side a->b within ``band`` px, or None."""
    length = float(np.linalg.norm(b - a))
    direction = (b - a) / length
    normal = np.array([direction[1], -direction[0]])  # outwards for a clockwise quad
    t = np.linspace(0.06, 0.94, 80)
    offsets = np.arange(-band, band + 1.0, 1.0)
    base = a[None] + t[:, None] * (b - a)[None]
    pts = base[:, None, :] + offsets[None, :, None] * normal[None, None, :]
    profile = cv2.remap(lab, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32),
                        cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                        borderValue=(0, 128, 128))
    edge = np.zeros(profile.shape[:2], dtype=np.float32)
    edge[:, 1:-1] = np.linalg.norm(profile[:, 2:] - profile[:, :-2], axis=2)
    # candidate edge points: strong local maxima of each row across the side
    strong = edge >= np.maximum(6.0, 0.5 * edge.max(axis=1, keepdims=True))
    peak = strong.copy()
    peak[:, 1:-1] &= (edge[:, 1:-1] >= edge[:, :-2]) & (edge[:, 1:-1] >= edge[:, 2:])
    rows, cols = np.nonzero(peak)
    if len(rows) < 10:
        return None
    tt, oo = t[rows], offsets[cols]
    # RANSAC for the straight edge supported by most rows (nearest the fit on a tie)
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
        key = (support, -abs(np.mean(oo[inlier])))
        if best_key is None or key > best_key:
            best, best_key = inlier, key
    if best is None or best_key[0] < 0.5 * len(t):
        return None
    slope, intercept = np.polyfit(tt[best], oo[best], 1)
    p0 = a + intercept * normal
    p1 = b + (intercept + slope) * normal
    return p0, (p1 - p0) / np.linalg.norm(p1 - p0)


def _intersect(l1, l2) -> np.ndarray | None:
    (p1, d1), (p2, d2) = l1, l2
    m = np.array([d1, -d2]).T
    if abs(np.linalg.det(m)) < 1e-6:
        return None
    s = np.linalg.solve(m, p2 - p1)
    return p1 + s[0] * d1
