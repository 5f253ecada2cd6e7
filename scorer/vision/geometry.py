"""Pure geometry between the photo, the physical board (cm) and the artwork (art px)."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from scorer.boards import Board

Corners = np.ndarray  # float64 (4, 2): TL, TR, BR, BL of the board held upright


def art_to_cm_matrix(board: Board) -> np.ndarray:
    """The 3x3 affine map from art pixels to board centimetres."""
    f = board.board_frame
    return np.array([[f["ax"], 0.0, f["bx"]], [0.0, f["ay"], f["by"]], [0.0, 0.0, 1.0]])


def cm_corners(board: Board) -> np.ndarray:
    w, h = board.size_cm
    return np.array([[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]])


def art_corners(board: Board) -> np.ndarray:
    """The physical board's outer corners expressed in art pixels (outside the art frame)."""
    inv = np.linalg.inv(art_to_cm_matrix(board))
    return project(inv, cm_corners(board))


def project(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to an (N, 2) array of points."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    homog = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    return homog[:, :2] / homog[:, 2:3]


def art_to_photo(board: Board, corners: Sequence[Sequence[float]]) -> np.ndarray:
    """Homography from art pixels to photo pixels, given the board's corners in the photo."""
    cm_to_photo = cv2.getPerspectiveTransform(
        cm_corners(board).astype(np.float32), np.asarray(corners, dtype=np.float32)
    )
    return cm_to_photo @ art_to_cm_matrix(board)


def rectified_to_photo(
    board: Board, corners: Sequence[Sequence[float]], scale: float
) -> np.ndarray:
    """Homography from the rectified image (art px times ``scale``) to photo pixels."""
    return art_to_photo(board, corners) @ np.diag([1.0 / scale, 1.0 / scale, 1.0])


def rectify(
    image: np.ndarray, board: Board, corners: Sequence[Sequence[float]], scale: float = 1.0
) -> np.ndarray:
    """Warp the photo onto the art frame (map area) at ``scale`` rectified px per art px."""
    h = rectified_to_photo(board, corners, scale)
    width = round(board.art_frame["width"] * scale)
    height = round(board.art_frame["height"] * scale)
    return cv2.warpPerspective(
        image, h, (width, height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def photo_area(
    image: np.ndarray, board: Board, corners: Sequence[Sequence[float]], scale: float = 1.0
) -> np.ndarray | None:
    """Which pixels of ``rectify``'s board lie in the photo, (H, W) bool; None when the whole
    board does (beyond the photo's edges ``rectify`` draws its edge pixels out)."""
    h, w = image.shape[:2]
    inside = [0 <= x <= w - 1 and 0 <= y <= h - 1 for x, y in np.asarray(corners, float)]
    if all(inside):
        return None
    mask = cv2.warpPerspective(
        np.full((h, w), 255, np.uint8), rectified_to_photo(board, corners, scale),
        (round(board.art_frame["width"] * scale), round(board.art_frame["height"] * scale)),
        flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT,
        borderValue=0)
    return mask > 0


def order_clockwise(points: np.ndarray) -> Corners:
    """Four points ordered clockwise on screen, starting with the one nearest the top left."""
    pts = np.asarray(points, dtype=np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # y grows downwards, so increasing angle is clockwise
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)


def rotations(corners: Corners) -> list[Corners]:
    """The four ways to read a clockwise quad as TL, TR, BR, BL (board turned by 0/90/180/270)."""
    return [np.roll(corners, -k, axis=0) for k in range(4)]


def diagonal(corners: Corners) -> float:
    c = np.asarray(corners, dtype=np.float64)
    return float(max(np.linalg.norm(c[0] - c[2]), np.linalg.norm(c[1] - c[3])))


def corner_error(found: Corners, truth: Corners) -> float:
    """Largest corner distance as a share of the true board diagonal."""
    f, t = np.asarray(found, float), np.asarray(truth, float)
    return float(np.max(np.linalg.norm(f - t, axis=1)) / diagonal(t))


def is_convex_quad(corners: Corners) -> bool:
    c = np.asarray(corners, dtype=np.float64)
    signs = []
    for i in range(4):
        a, b, d = c[i], c[(i + 1) % 4], c[(i + 2) % 4]
        u, v = b - a, d - b
        signs.append(u[0] * v[1] - u[1] * v[0])
    return all(s > 0 for s in signs) or all(s < 0 for s in signs)
