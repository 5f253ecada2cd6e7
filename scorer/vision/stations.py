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
    r = int(config.station_radius * s)
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    disk = (xx**2 + yy**2) <= r * r
    found = []
    h, w = lab.shape[:2]
    for city in board.cities.values():
        cx, cy = int(city.x * s), int(city.y * s)
        ys, xs = np.clip(cy + yy[disk], 0, h - 1), np.clip(cx + xx[disk], 0, w - 1)
        pixels = lab[ys, xs]
        # a station is shaded on its sides: compare chroma fully, lightness loosely
        dist = np.linalg.norm((pixels[:, None, :] - centres[None]) * _WEIGHT, axis=2)
        nearest = dist.argmin(axis=1)
        close = dist.min(axis=1) < 28.0
        shares = np.bincount(nearest[close], minlength=len(names)) / len(pixels)
        best = int(shares.argmax())
        if shares[best] > 0.45:
            found.append(StationResult(city.name, names[best]))
    return tuple(found)
