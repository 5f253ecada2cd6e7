"""Candidate outlines from cheap segmentations of the photo: far from the table's colour, the
score track's red, edges, unlike their surroundings; each mask's biggest blob as a quad."""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

from scorer.boards import Board
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.geometry import order_clockwise
from scorer.vision.locate.images import local_median, squared_norm
from scorer.vision.locate.quads import cropped_frame


def candidates(small: np.ndarray, lab: np.ndarray, board: Board,
               config: VisionConfig = DEFAULT) -> Iterator[np.ndarray]:
    """Plausible board quads (clockwise, any start) from several segmentations, cheapest and
    likeliest first (made on demand: the search stops when one is plainly the board).

    Besides the plain masks: the same on a blurred copy, where a checked cloth or wood grain
    averages to one colour (the board's outline moves a little, the aligner pulls it back),
    the far-from-table masks without what reaches over the board's edge, the area of pixels
    unlike their surroundings (its routes and cities, when neither the board's colour nor its
    outline stands out from the table), and the board as a photo usually frames it (centred,
    most of the frame)."""
    h, w = small.shape[:2]
    frame = cropped_frame(small, board)
    if frame is not None:
        yield frame
    far = far_from_table_masks(lab)

    def masks() -> Iterator[np.ndarray]:  # each made only when the search gets to it
        yield from far
        yield border_mask(small)
        yield edge_mask(small)

    for mask in masks():
        quad = quad_from_mask(mask)
        if quad is not None:
            yield quad
    # blurred at a quarter size: it holds no detail worth the time
    tiny = cv2.resize(lab, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    smooth = cv2.GaussianBlur(tiny, (0, 0), 0.025 * min(h, w) / 4)
    smooth_masks = far_from_table_masks(smooth)
    for mask in smooth_masks:
        quad = quad_from_mask(mask, kernel_size=3)
        if quad is not None:
            yield quad * (w / tiny.shape[1])
    # hands, cards or an arm over the board's edge join its blob and bend its outline: cut
    # them off (after the far masks' holes are filled: a board the colour of the table
    # shows as a ring of track and routes)
    shrunk = [cv2.resize(m, tiny.shape[1::-1], interpolation=cv2.INTER_AREA)
              for m in far]
    for mask in (*shrunk, *smooth_masks):
        quad = quad_from_mask(_without_protrusions(mask), kernel_size=3)
        if quad is not None:
            yield quad * (w / tiny.shape[1])
    quad = quad_from_mask(unlike_around_mask(lab, config))
    if quad is not None:
        yield quad
    yield _framed(w, h, board.aspect)


def unlike_around_mask(lab: np.ndarray, config: VisionConfig = DEFAULT) -> np.ndarray:
    """Pixels unlike the colour around them (routes, cities, the track's edges), joined into
    one area: the board where neither its colour nor its outline stands out from the table
    (a dark table as dark as the track, lit by a glare spot that makes it as light as the
    paper nearby). The colour around a pixel is the median of a window wider than a route
    and narrower than the map's gaps, so on a plain table or paper nothing is unlike it."""
    h, w = lab.shape[:2]
    around = local_median(lab, config.around_window * max(h, w))
    unlike = (squared_norm(cv2.subtract(lab, around)) > config.unlike_around ** 2).astype(np.uint8)
    size = int(config.around_join * min(h, w)) | 1
    return cv2.morphologyEx(unlike * 255, cv2.MORPH_CLOSE,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))


def _without_protrusions(mask: np.ndarray) -> np.ndarray:
    """The biggest blob of ``mask`` filled, less what is thinner than a fifth of its size."""
    contours, _ = cv2.findContours((mask > 127).astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros(mask.shape, np.uint8)
    if not contours:
        return filled
    biggest = max(contours, key=cv2.contourArea)
    cv2.drawContours(filled, [biggest], -1, 255, -1)
    size = 2 * int(0.1 * np.sqrt(cv2.contourArea(biggest))) + 1
    return cv2.morphologyEx(filled, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))


def _framed(w: int, h: int, aspect: float, fill: float = 0.8) -> np.ndarray:
    """A board of ``aspect`` centred, long side along the photo's, spanning ``fill`` of the
    frame."""
    long, short = max(w, h), min(w, h)
    bl = fill * min(long, short * aspect)
    bw, bh = (bl, bl / aspect) if w >= h else (bl / aspect, bl)
    x0, y0 = (w - bw) / 2, (h - bh) / 2
    return np.array([[x0, y0], [x0 + bw, y0], [x0 + bw, y0 + bh], [x0, y0 + bh]])


def far_from_table_masks(lab: np.ndarray) -> list[np.ndarray]:
    """Pixels unlike the photo's edges (the table), at a few thresholds."""
    h, w = lab.shape[:2]
    m = max(2, int(0.03 * min(h, w)))
    border = np.vstack([lab[:m].reshape(-1, 3), lab[-m:].reshape(-1, 3),
                        lab[:, :m].reshape(-1, 3), lab[:, -m:].reshape(-1, 3)])
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(0)  # k-means++ draws: the same photo must give the same answer every time
    # a few thousand border pixels give the table's colours as well as all of them
    border = border[::max(1, len(border) // 8000)].astype(np.float32)
    _, _, centres = cv2.kmeans(border, 3, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    # squared distance to the nearest centre, |x|^2 + min over c of (|c|^2 - 2 x.c), in
    # OpenCV's per-pixel transforms (three times faster than numpy's broadcasting)
    to_centres = np.hstack([-2.0 * centres, np.einsum("ij,ij->i", centres, centres)[:, None]])
    cross = cv2.split(cv2.transform(lab, to_centres.astype(np.float32)))
    nearest = cv2.add(cv2.min(cv2.min(cross[0], cross[1]), cross[2]), squared_norm(lab))
    return [(nearest > threshold ** 2).astype(np.uint8) * 255 for threshold in (12.0, 22.0, 35.0)]


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
    """Canny edges, thickened so the board's outline closes into one blob."""
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(gray, (5, 5), 0), 30, 90)
    return cv2.dilate(edges, np.ones((5, 5), np.uint8))


def quad_from_mask(mask: np.ndarray, kernel_size: int = 7) -> np.ndarray | None:
    """The biggest blob's outline simplified to four corners (None if it is no big quad)."""
    h, w = mask.shape
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kernel_size, kernel_size))
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
