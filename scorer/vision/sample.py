"""Stage 4a: measurements of every train space on the rectified board.

Colours are CIE Lab, normalised by the map background of the same photo (white balance and
exposure calibrated from the photo itself), so features compare across lighting.
"""

from __future__ import annotations

import cv2
import numpy as np

from scorer.boards import Board, Route

PRINTED_COLORS = ("red", "blue", "green", "yellow", "black", "white", "orange", "pink", "gray")
# Background after normalisation: a light neutral paper
_BG_TARGET = np.array([185.0, 128.0, 134.0], dtype=np.float32)

# the sampled patch around a space, in art px along (u) and across (v) the space
_U = np.arange(-24, 25, 3, dtype=np.float32)
_V = np.arange(-12, 13, 2, dtype=np.float32)
_UU, _VV = (g.ravel() for g in np.meshgrid(_U, _V))
_CORE = (np.abs(_UU) <= 20) & (np.abs(_VV) <= 6)
_FLANK_A = _VV >= 8
_FLANK_B = _VV <= -8


_CACHE: dict[tuple[str, str, int], object] = {}


def _cached(kind: str, board: Board, make):
    key = (kind, board.name, id(board))  # boards are frozen and loaded once per name
    if key not in _CACHE:
        _CACHE[key] = make()
    return _CACHE[key]


def space_table(board: Board) -> tuple[tuple[Route, ...], np.ndarray, np.ndarray]:
    """Routes in a fixed order, each space's (x, y, angle) and the index of its route."""
    return _cached("spaces", board, lambda: _space_table(board))


def _space_table(board: Board) -> tuple[tuple[Route, ...], np.ndarray, np.ndarray]:
    routes = tuple(sorted(board.routes.values(), key=lambda r: r.id))
    rows, owner = [], []
    for i, route in enumerate(routes):
        for space in route.spaces:
            rows.append((space.x, space.y, space.angle))
            owner.append(i)
    return routes, np.array(rows, dtype=np.float32), np.array(owner, dtype=np.int32)


def background_points(board: Board) -> np.ndarray:
    """Points of the map far from every route and city: plain paper to calibrate colours."""
    return _cached("background", board, lambda: _background_points(board))


def _background_points(board: Board) -> np.ndarray:
    _, spaces, _ = space_table(board)
    w, h = int(board.art_frame["width"]), int(board.art_frame["height"])
    free = np.full((h, w), 255, dtype=np.uint8)
    for x, y, _angle in spaces:
        cv2.circle(free, (int(x), int(y)), 35, 0, -1)
    for city in board.cities.values():
        cv2.circle(free, (int(city.x), int(city.y)), 40, 0, -1)
    gx, gy = np.meshgrid(np.arange(20, w - 20, 12), np.arange(20, h - 20, 12))
    keep = free[gy, gx] > 0
    return np.c_[gx[keep], gy[keep]].astype(np.float32)


# OpenCV builds its 8-bit Lab tables on the first conversion (~0.2 s): once, when the detector
# is imported (a server does it at start), not inside the first photo's time
cv2.cvtColor(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2Lab)


def to_lab(rectified_bgr: np.ndarray) -> np.ndarray:
    """Float Lab (OpenCV 8-bit ranges) of a rectified board."""
    return cv2.cvtColor(rectified_bgr, cv2.COLOR_BGR2Lab).astype(np.float32)


def background_color(lab: np.ndarray, board: Board, scale: float = 1.0) -> np.ndarray:
    """Median Lab of the plain map paper, ignoring the darkest half (printed lines, relief)."""
    pts = (background_points(board) * scale).astype(int)
    values = lab[pts[:, 1], pts[:, 0]]
    light = values[values[:, 0] >= np.median(values[:, 0])]
    return np.median(light, axis=0)


def normalise(lab: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Scale lightness and shift chroma so that the paper has the same colour in every photo."""
    out = lab.copy()
    out[..., 0] *= _BG_TARGET[0] / max(float(background[0]), 1.0)
    out[..., 1] += _BG_TARGET[1] - background[1]
    out[..., 2] += _BG_TARGET[2] - background[2]
    return out


def sample_patches(
    image: np.ndarray, board: Board, scale: float = 1.0, offset: np.ndarray | None = None
) -> np.ndarray:
    """The oriented patch of every space: an (N spaces, P points, C) array."""
    _, spaces, _ = space_table(board)
    x, y = spaces[:, 0:1], spaces[:, 1:2]
    if offset is not None:
        x, y = x + offset[:, 0:1], y + offset[:, 1:2]
    angle = np.deg2rad(spaces[:, 2:3])
    c, s = np.cos(angle), np.sin(angle)
    px = (x + _UU * c - _VV * s) * scale
    py = (y + _UU * s + _VV * c) * scale
    return cv2.remap(image, px.astype(np.float32), py.astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


def space_features(
    lab: np.ndarray, board: Board, scale: float = 1.0, offset: np.ndarray | None = None
) -> np.ndarray:
    """One feature row per space (in ``space_table`` order) from a normalised Lab image."""
    return shifted_features(lab, board, scale, (0.0,), offset)[0]


def shifted_features(
    lab: np.ndarray, board: Board, scale: float, shifts: tuple[float, ...],
    offset: np.ndarray | None = None,
) -> list[np.ndarray]:
    """``space_features`` with every patch moved ``shift`` art px across its space, per shift.

    Averaging a model over a few sideways shifts makes it tolerant of pieces placed off
    their spaces and of a few px of error in the printed positions.
    """
    light = lab[..., 0]
    grad = cv2.magnitude(cv2.Sobel(light, cv2.CV_32F, 1, 0), cv2.Sobel(light, cv2.CV_32F, 0, 1))
    stack = np.dstack([lab, grad / max(scale, 1e-6)])
    _, spaces, _ = space_table(board)
    angle = np.deg2rad(spaces[:, 2])
    normal = np.c_[-np.sin(angle), np.cos(angle)]
    base = np.zeros_like(normal) if offset is None else offset
    return [_features(sample_patches(stack, board, scale, base + normal * shift), board)
            for shift in shifts]


def _features(patch: np.ndarray, board: Board) -> np.ndarray:
    """Feature rows from the sampled (N, P, 4) patches: Lab and gradient magnitude."""
    routes, _, owner = space_table(board)
    core, colour = patch[:, _CORE], patch[..., :3]
    core_med = np.median(core[..., :3], axis=1)
    wide_med = np.median(colour, axis=1)
    flank_a = np.median(patch[:, _FLANK_A, :3], axis=1)
    flank_b = np.median(patch[:, _FLANK_B, :3], axis=1)
    dist_a = np.linalg.norm(flank_a - core_med, axis=1)
    near_a = dist_a <= np.linalg.norm(flank_b - core_med, axis=1)
    near = np.where(near_a[:, None], flank_a, flank_b)
    far = np.where(near_a[:, None], flank_b, flank_a)
    profile = np.median(light_profile(patch[..., 0]), axis=1)
    lane_mean = np.zeros((len(routes), 3), dtype=np.float32)
    np.add.at(lane_mean, owner, core_med)
    lane_mean /= np.bincount(owner, minlength=len(routes))[:, None]
    lane_spread = np.linalg.norm(core_med - lane_mean[owner], axis=1)
    printed = np.zeros((len(owner), len(PRINTED_COLORS)), dtype=np.float32)
    index = {c: i for i, c in enumerate(PRINTED_COLORS)}
    for i, r in enumerate(owner):
        col = index.get(routes[r].color)
        if col is not None:
            printed[i, col] = 1.0
    return np.hstack([
        core_med,
        np.percentile(core[..., 0], [10, 90], axis=1).T,
        core[..., :3].std(axis=1),
        wide_med,
        np.percentile(colour[..., 0], [10, 90], axis=1).T,
        colour[..., 0].std(axis=1, keepdims=True),
        near, far,
        core[..., 3].mean(axis=1, keepdims=True),
        patch[..., 3].mean(axis=1, keepdims=True),
        profile.std(axis=1, keepdims=True),
        profile.min(axis=1, keepdims=True),
        profile.max(axis=1, keepdims=True),
        lane_mean[owner],
        lane_spread[:, None],
        printed,
    ]).astype(np.float32)


def light_profile(light_patch: np.ndarray) -> np.ndarray:
    """Lightness by position along the space: (N, V rows, U columns) of the patch."""
    return light_patch.reshape(len(light_patch), len(_V), len(_U))
