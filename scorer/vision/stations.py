"""Stage 6 (Europe): station pieces standing on cities, found by their colour."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scorer.boards import Board
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.model import CLASSES
from scorer.vision.sample import space_table

_WEIGHT = np.array([0.35, 1.0, 1.0], dtype=np.float32)

# Tunables of the station search (module constants, not in VisionConfig: only this stage uses them).
# A pixel counts for a colour when it is this close to its prototype (weighted Lab) ...
NEAR_PROTOTYPE = 28.0
# ... unless it is closer still to the printed city marker and within this of it: an empty
# city's own dot (brownish red) otherwise reads as a red or dark station under a warm cast.
NEAR_MARKER = 16.0
# A train piece is 60 art px long on a 54 px space, and it leans and slips: its pixels are not
# station pixels for this much past the space's length (art px)...
TRAIN_HALF_LENGTH, TRAIN_HALF_WIDTH = 38.0, 10.5
# ... on spaces read as that colour at least this surely.
TRAIN_SURE = 0.5
# The share of the disk a station's colour must cover, once marker and trains are left out.
STATION_SHARE = 0.40


@dataclass(frozen=True, slots=True)
class StationResult:
    city: str
    owner: str

    def to_json(self) -> dict:
        return {"city": self.city, "owner": self.owner}


def piece_prototypes(lab: np.ndarray, probs: np.ndarray, board: Board,
                     scale: float = 1.0) -> dict[str, np.ndarray]:
    """Each piece colour as it looks in this photo: the mean of the spaces surely covered by it."""
    _, spaces, _ = space_table(board)
    xy = (spaces[:, :2] * scale).astype(int)
    colours = lab[xy[:, 1], xy[:, 0]]
    protos = {}
    for k, name in enumerate(CLASSES[1:], start=1):
        sure = probs[:, k] > 0.9
        if sure.sum() >= 2:
            protos[name] = np.median(colours[sure], axis=0)
    return protos


def find_stations(
    lab: np.ndarray, probs: np.ndarray, board: Board, colors: Sequence[str] | None = None,
    config: VisionConfig = DEFAULT,
) -> tuple[StationResult, ...]:
    """Cities with a blob of one piece colour on them, at most one station per city."""
    protos = piece_prototypes(lab, probs, board, config.rectify_scale)
    if colors:
        protos = {k: v for k, v in protos.items() if k in colors}
    if not protos:
        return ()
    names = list(protos)
    centres = np.array([protos[n] for n in names])
    s = config.rectify_scale
    h, w = lab.shape[:2]
    marker = city_marker(lab, board, s)
    _, spaces, _ = space_table(board)
    read = probs.argmax(axis=1)
    r = int(config.station_radius * s)
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    disk = (xx**2 + yy**2) <= r * r
    dx, dy = xx[disk] / s, yy[disk] / s  # offsets from the city, art px
    found = []
    for city in board.cities.values():
        cx, cy = int(city.x * s), int(city.y * s)
        ys, xs = np.clip(cy + yy[disk], 0, h - 1), np.clip(cx + xx[disk], 0, w - 1)
        pixels = lab[ys, xs]
        # a station is shaded on its sides: compare chroma fully, lightness loosely
        dist = np.linalg.norm((pixels[:, None, :] - centres[None]) * _WEIGHT, axis=2)
        nearest, near = dist.argmin(axis=1), dist.min(axis=1)
        to_marker = np.linalg.norm((pixels - marker) * _WEIGHT, axis=1)
        counts = (near < NEAR_PROTOTYPE) & ~((to_marker < NEAR_MARKER) & (to_marker < near))
        for i in _spaces_near(board, city.name, config.station_radius):
            k = read[i]
            if k == 0 or probs[i, k] < TRAIN_SURE or CLASSES[k] not in protos:
                continue
            on_train = _on_space(dx + city.x, dy + city.y, spaces[i])
            counts &= ~(on_train & (nearest == names.index(CLASSES[k])))
        shares = np.bincount(nearest[counts], minlength=len(names)) / len(pixels)
        best = int(shares.argmax())
        if shares[best] > STATION_SHARE:
            found.append(StationResult(city.name, names[best]))
    return tuple(found)


def city_marker(lab: np.ndarray, board: Board, scale: float = 1.0) -> np.ndarray:
    """The printed city dot as it looks in this photo: the median colour at every city's centre.

    Few cities carry a station, so the median is the empty dot.
    """
    xy = np.array([(c.x, c.y) for c in board.cities.values()]) * scale
    xy = xy.astype(int)
    return np.median(lab[xy[:, 1], xy[:, 0]], axis=0)


def _spaces_near(board: Board, city: str, radius: float) -> np.ndarray:
    """Indices (in space_table order) of the spaces whose train could reach into the city disk."""
    _, spaces, _ = space_table(board)
    c = board.cities[city]
    reach = TRAIN_HALF_LENGTH + radius + TRAIN_HALF_WIDTH
    return np.flatnonzero(np.hypot(spaces[:, 0] - c.x, spaces[:, 1] - c.y) < reach)


def _on_space(x: np.ndarray, y: np.ndarray, space: np.ndarray) -> np.ndarray:
    """Which art points lie under a train piece standing (a little askew) on ``space``."""
    a = np.radians(space[2])
    dx, dy = x - space[0], y - space[1]
    along = np.abs(dx * np.cos(a) + dy * np.sin(a))
    across = np.abs(dy * np.cos(a) - dx * np.sin(a))
    return (along < TRAIN_HALF_LENGTH) & (across < TRAIN_HALF_WIDTH)
