"""Stage 6 (Europe): station pieces standing on cities, found by their colour."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scorer.boards import Board
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.model import CLASSES
from scorer.vision.register import SHADED, city_dots, reference_centres
from scorer.vision.sample import PAPER_LAB, space_table

_WEIGHT = SHADED


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
    discs = _city_discs(board, config, s)
    dots = city_dots(lab, board, config)
    shift = np.rint(dots.centres - reference_centres(board, s)).astype(int)
    ys, xs = discs.ys + shift[:, 1:], discs.xs + shift[:, :1]
    pixels = lab[np.clip(ys, 0, h - 1), np.clip(xs, 0, w - 1)]  # city x pixel x Lab
    # a station is shaded on its sides: compare chroma fully, lightness loosely
    dist = np.linalg.norm((pixels[:, :, None, :] - centres) * _WEIGHT, axis=3)
    nearest, near = dist.argmin(axis=2), dist.min(axis=2)
    to_marker = np.linalg.norm((pixels - city_marker(lab, board, s)) * _WEIGHT, axis=2)
    on_dot = (to_marker < config.station_near_dot) & (to_marker < near)
    # nor the paper: in a dim photo a washed-out piece colour (a grey green) lies within
    # station_near_piece of the bare paper round every city
    on_paper = np.linalg.norm((pixels - PAPER_LAB) * _WEIGHT, axis=2) < near
    counts = (near < config.station_near_piece) & ~on_dot & ~on_paper
    # a train's own colour under its footprint is the train, not a station
    read = probs.argmax(axis=1)
    colour = np.array([names.index(CLASSES[k]) if CLASSES[k] in protos else -1 for k in read])
    surely = probs[np.arange(len(read)), read] >= config.station_train_sure
    sure = (read > 0) & surely & (colour >= 0)
    rows = np.flatnonzero(sure[discs.space])
    city, space = discs.city[rows], discs.space[rows]
    train = discs.footprint[rows] & (nearest[city] == colour[space][:, None])
    on_train = np.zeros_like(counts)
    np.logical_or.at(on_train, city, train)
    counts &= ~on_train
    shares = np.stack([(counts & (nearest == k)).sum(axis=1) for k in range(len(names))], axis=1)
    shares[(to_marker < config.station_dot_near).mean(axis=1) > config.station_dot_seen] = 0
    shares[dots.seen | (dots.showing > config.station_dot_showing)] = 0
    best = shares.argmax(axis=1)
    if "black" in names:
        # a coloured station's shaded sides read black, a black one's never read coloured: a
        # colour covering nearly as much of the disk as black is the station's colour
        black = names.index("black")
        colour = np.where(np.arange(len(names)) == black, -1, shares).argmax(axis=1)
        shaded = (best == black) & (shares[np.arange(len(best)), colour]
                                    >= config.station_shaded_ratio * shares[:, black])
        best = np.where(shaded, colour, best)
    cities = list(board.cities.values())
    enough = shares.max(axis=1) > config.station_share * pixels.shape[1]
    return tuple(StationResult(cities[i].name, names[best[i]]) for i in np.flatnonzero(enough))


def city_marker(lab: np.ndarray, board: Board, scale: float = 1.0) -> np.ndarray:
    """The printed city dot as it looks in this photo: the median colour at every city's centre.

    Few cities carry a station, so the median is the empty dot.
    """
    xy = np.array([(c.x, c.y) for c in board.cities.values()]) * scale
    xy = xy.astype(int)
    return np.median(lab[xy[:, 1], xy[:, 0]], axis=0)


@dataclass(frozen=True)
class _Discs:
    """Every city's search disk on the rectified board, and the train footprints reaching in."""

    ys: np.ndarray  # city x pixel: rows of the disk's pixels
    xs: np.ndarray
    city: np.ndarray  # footprint row -> city index
    space: np.ndarray  # footprint row -> space index (space_table order)
    footprint: np.ndarray  # footprint row x pixel: under a train on that space


_DISCS: dict[tuple, _Discs] = {}


def _city_discs(board: Board, config: VisionConfig, scale: float) -> _Discs:
    size = (config.station_radius, config.station_train_half_length,
            config.station_train_half_width)
    key = (board.name, scale, size)
    if key not in _DISCS:
        _DISCS[key] = _make_discs(board, scale, *size)
    return _DISCS[key]


def _make_discs(board: Board, scale: float, radius: float, half_length: float,
                half_width: float) -> _Discs:
    _, spaces, _ = space_table(board)
    r = int(radius * scale)
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    disk = (xx**2 + yy**2) <= r * r
    centres = np.array([(c.x, c.y) for c in board.cities.values()])
    px = centres[:, :1] + xx[disk] / scale  # city x pixel, art px
    py = centres[:, 1:] + yy[disk] / scale
    reach = half_length + radius + half_width
    near = np.hypot(centres[:, None, 0] - spaces[:, 0], centres[:, None, 1] - spaces[:, 1]) < reach
    city, space = np.nonzero(near)
    return _Discs(
        ys=(centres[:, 1:] * scale).astype(int) + yy[disk],
        xs=(centres[:, :1] * scale).astype(int) + xx[disk],
        city=city, space=space,
        footprint=_on_space(px[city], py[city], spaces[space], half_length, half_width),
    )


def _on_space(x: np.ndarray, y: np.ndarray, space: np.ndarray, half_length: float,
              half_width: float) -> np.ndarray:
    """Which art points (rows of ``x``, ``y``) lie under a train piece on each row's space."""
    a = np.radians(space[:, 2:3])
    dx, dy = x - space[:, :1], y - space[:, 1:2]
    along = np.abs(dx * np.cos(a) + dy * np.sin(a))
    across = np.abs(dy * np.cos(a) - dx * np.sin(a))
    return (along < half_length) & (across < half_width)
