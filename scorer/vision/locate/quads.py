"""Outlines as (4, 2) corner arrays: the geometry the locator's stages share."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from scorer.boards import Board
from scorer.vision.geometry import art_to_photo, project, rotations
from scorer.vision.sample import space_table


def cropped_frame(image: np.ndarray, board: Board) -> np.ndarray | None:
    """The image's own corners when it has the board's shape (a scan or a deskewed crop)."""
    h, w = image.shape[:2]
    if abs(max(w, h) / min(w, h) / board.aspect - 1) >= 0.06:
        return None
    return np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float64)


def distinct(quads: Iterable[np.ndarray], tolerance: float = 0.02, count: int | None = None,
             ) -> list[np.ndarray]:
    """The first ``count`` (default all) quads without near copies (same corners within
    ``tolerance`` of the diagonal)."""
    out: list[np.ndarray] = []
    for quad in quads:
        if len(out) == count:
            break
        if is_new(quad, out, tolerance):
            out.append(quad)
    return out


def is_new(quad: np.ndarray, kept: list[np.ndarray], tolerance: float = 0.02) -> bool:
    """Whether ``quad`` is no near copy of any of ``kept`` in any of its rotations (the
    ``corner_error`` of each rotation against each kept quad, all at once)."""
    if not kept:
        return True
    others = np.asarray(kept, dtype=np.float64)  # (n, 4, 2)
    turns = np.stack(rotations(np.asarray(quad, dtype=np.float64)))  # (4, 4, 2)
    far = np.linalg.norm(turns[:, None] - others[None], axis=3).max(axis=2)  # (4, n)
    size = np.maximum(np.linalg.norm(others[:, 0] - others[:, 2], axis=1),
                      np.linalg.norm(others[:, 1] - others[:, 3], axis=1))
    return bool(np.all((far / size).min(axis=0) > tolerance))


def in_photo(quads: np.ndarray, w: int, h: int) -> np.ndarray:
    """Whether each of the (N, 4, 2) corners lies in the photo or just beyond its edges."""
    margin = 0.1 * max(w, h)
    return ((quads.min(axis=(1, 2)) >= -margin) & (quads[..., 0].max(axis=1) <= w + margin)
            & (quads[..., 1].max(axis=1) <= h + margin))


def seen_share(board: Board, corners: np.ndarray, w: int, h: int) -> float:
    """The share of the board's printed spaces whose centres the board at ``corners`` puts
    inside a ``w`` x ``h`` photo."""
    _, spaces, _ = space_table(board)
    p = project(art_to_photo(board, corners), spaces[:, :2])
    return float(np.mean((p[:, 0] >= 0) & (p[:, 0] <= w - 1) & (p[:, 1] >= 0)
                         & (p[:, 1] <= h - 1)))


def convex_quads(quads: np.ndarray) -> np.ndarray:
    """``is_convex_quad`` of each of the (N, 4, 2) corners."""
    edge = np.roll(quads, -1, axis=1) - quads
    turns = cross_z(edge, np.roll(edge, -1, axis=1))
    return np.all(turns > 0, axis=1) | np.all(turns < 0, axis=1)


def cross_z(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The z of the cross product of 2-vectors along the last axis."""
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def intersect(l1, l2) -> np.ndarray | None:
    """Where two lines (point, direction) meet; None when they are parallel."""
    (p1, d1), (p2, d2) = l1, l2
    m = np.array([d1, -d2]).T
    if abs(np.linalg.det(m)) < 1e-6:
        return None
    s = np.linalg.solve(m, p2 - p1)
    return p1 + s[0] * d1
