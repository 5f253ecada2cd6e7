"""A board cut by the photo's frame: which edges of the photo it reaches beyond, and outlines
of the whole board made from an outline of the part in the photo.

A photo taken too close cuts the board at one or two of its edges. The part in the photo
still outlines as a quad (a mask's blob, the photo's own frame), whose side along the cut is
the photo's edge, not the board's: moved out across that edge until the quad has the board's
shape, it is a whole board the aligner can pull onto the printed spaces it sees.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

import numpy as np

EDGES = ("top", "right", "bottom", "left")


def outside_edges(corners: np.ndarray, width: int, height: int, tolerance: float,
                  ) -> tuple[str, ...]:
    """The photo's edges (in ``EDGES`` order) that any of the board's corners lies beyond by
    more than ``tolerance`` px."""
    x, y = corners[:, 0], corners[:, 1]
    beyond = (y.min() < -tolerance, x.max() > width - 1 + tolerance,
              y.max() > height - 1 + tolerance, x.min() < -tolerance)
    return tuple(edge for edge, out in zip(EDGES, beyond, strict=True) if out)


def touched_edges(quad: np.ndarray, width: int, height: int, tolerance: float,
                  ) -> dict[str, int]:
    """The photo's edges along which a side of ``quad`` lies (both its ends within
    ``tolerance`` px of the edge or beyond it): edge -> the index ``i`` of that side
    (corners ``i`` and ``i + 1``)."""
    near = {"top": quad[:, 1] <= tolerance, "right": quad[:, 0] >= width - 1 - tolerance,
            "bottom": quad[:, 1] >= height - 1 - tolerance, "left": quad[:, 0] <= tolerance}
    out = {}
    for edge in EDGES:
        for i in range(4):
            if near[edge][i] and near[edge][(i + 1) % 4]:
                out[edge] = i
                break
    return out


def extended(quad: np.ndarray, width: int, height: int, aspect: float, tolerance: float,
             most: float = 2.2) -> Iterator[np.ndarray]:
    """Outlines of a whole board of ``aspect`` (long side / short side) of which ``quad``
    (clockwise) outlines the part inside a ``width`` x ``height`` photo: ``quad`` moved out
    across each side that lies along the photo's edge. Across one side, as far as makes the
    board's shape with the side opposite (uncut) lying either way round; across two
    neighbouring sides (a corner cut off), a few sizes that keep the shape. At most ``most``
    times as deep as the part in the photo."""
    sides = touched_edges(quad, width, height, tolerance)
    cut = sorted(set(sides.values()))
    for i in cut:
        for ratio in (1 / aspect, aspect):
            k = ratio * _length(quad, i + 2) / _depth(quad, i)
            # perspective and a rough outline make the shape a few % off: a little shorter and
            # longer too, where the aligner would not reach
            for step in (1.0, 0.93, 1.07):
                if 1.03 < k * step <= most:
                    yield _across(quad, i, k * step)
    for i, j in ((i, j) for i in cut for j in cut if j == (i + 1) % 4):
        for ki, kj in product((1.15, 1.35, 1.6), repeat=2):
            whole = _across(_across(quad, i, ki), j, kj)
            shape = (_length(whole, 0) + _length(whole, 2)) / (
                _length(whole, 1) + _length(whole, 3))
            if min(abs(np.log(shape / aspect)), abs(np.log(shape * aspect))) < 0.2:
                yield whole


def _length(quad: np.ndarray, i: int) -> float:
    """The length of side ``i`` (corners ``i`` and ``i + 1``)."""
    return float(np.linalg.norm(quad[(i + 1) % 4] - quad[i % 4]))


def _depth(quad: np.ndarray, i: int) -> float:
    """How far side ``i`` lies from the side opposite it: the mean length of the two sides
    between them."""
    return (_length(quad, i + 1) + _length(quad, i + 3)) / 2


def _across(quad: np.ndarray, i: int, k: float) -> np.ndarray:
    """``quad`` with side ``i`` moved out along the two sides beside it, ``k`` times as far
    from the side opposite it."""
    out = quad.copy()
    a, b = i % 4, (i + 1) % 4
    out[a] = quad[(i + 3) % 4] + k * (quad[a] - quad[(i + 3) % 4])
    out[b] = quad[(i + 2) % 4] + k * (quad[b] - quad[(i + 2) % 4])
    return out
