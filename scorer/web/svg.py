"""Board geometry for the inline SVG: every printed space at its position and angle.

The shapes of a board never change, so each lane's spaces are rendered to markup once; a
page only adds per-game classes (owner colour, closed, on a longest path) around them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from markupsafe import Markup

from scorer.boards import Route, load_board

SPACE_W, SPACE_H = 54, 16  # a printed space in art pixels
PADDING = 40  # room around the art for labels of cities at the edge


@dataclass(frozen=True)
class LaneShape:
    id: str
    a: str
    b: str
    length: int
    color: str
    tunnel: bool
    ferry: int
    markup: Markup  # the spaces (and the hit line) of the lane


@dataclass(frozen=True)
class CityShape:
    name: str
    x: float
    y: float
    label_y: float


@dataclass(frozen=True)
class BoardShapes:
    name: str
    view_box: str
    width: int
    height: int
    lanes: tuple[LaneShape, ...]
    cities: tuple[CityShape, ...]


def _f(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def hit_line(route: Route) -> str:
    """Points of a polyline through the lane, from the outer end of its first space to the
    outer end of its last, so a tap anywhere on the printed spaces lands on it."""
    first, last = route.spaces[0], route.spaces[-1]
    half = SPACE_W / 2
    start = (first.x - half * math.cos(math.radians(first.angle)),
             first.y - half * math.sin(math.radians(first.angle)))
    end = (last.x + half * math.cos(math.radians(last.angle)),
           last.y + half * math.sin(math.radians(last.angle)))
    # Spaces may be listed from either end: orient the end caps along the row.
    if len(route.spaces) > 1:
        second = route.spaces[1]
        if math.dist(start, (second.x, second.y)) < math.dist((first.x, first.y),
                                                              (second.x, second.y)):
            start = (2 * first.x - start[0], 2 * first.y - start[1])
            end = (2 * last.x - end[0], 2 * last.y - end[1])
    points = [start, *((s.x, s.y) for s in route.spaces), end]
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


def _lane_markup(route: Route) -> Markup:
    parts = [f'<polyline class="hit" points="{hit_line(route)}"/>']
    for index, space in enumerate(route.spaces):
        classes = "sp loco" if index < route.ferry_locomotives else "sp"
        parts.append(
            f'<rect class="{classes}" x="{-SPACE_W / 2:g}" y="{-SPACE_H / 2:g}" '
            f'width="{SPACE_W}" height="{SPACE_H}" rx="3" '
            f'transform="translate({_f(space.x)} {_f(space.y)}) rotate({_f(space.angle)})"/>'
        )
        if index < route.ferry_locomotives:
            parts.append(
                f'<circle class="loco-mark" cx="{_f(space.x)}" cy="{_f(space.y)}" r="5"/>'
            )
    return Markup("".join(parts))


@cache
def board_shapes(board_name: str) -> BoardShapes:
    """The drawable shapes of a packaged board, computed once per process."""
    board = load_board(board_name)
    width, height = int(board.art_frame["width"]), int(board.art_frame["height"])
    lanes = tuple(
        LaneShape(r.id, r.a, r.b, r.length, r.color, r.tunnel, r.ferry_locomotives,
                  _lane_markup(r))
        for r in sorted(board.routes.values(), key=lambda r: r.id)
    )
    cities = tuple(
        CityShape(c.name, c.x, c.y, c.y + 38 if c.y < height - 50 else c.y - 24)
        for c in sorted(board.cities.values(), key=lambda c: c.name)
    )
    view_box = f"{-PADDING} {-PADDING} {width + 2 * PADDING} {height + 2 * PADDING}"
    return BoardShapes(board.name, view_box, width, height, lanes, cities)
