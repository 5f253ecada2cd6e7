"""Board geometry for the inline SVG: every printed space at its position and angle.

The shapes of a board never change, so each lane's spaces are rendered to markup once; a
page only adds per-game classes (owner colour, closed, on a longest path) around them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from urllib.parse import quote

from markupsafe import Markup, escape

from scorer.boards import SPACE_SIZE, Route, load_board
from scorer.web.i18n import _, color_name

SPACE_W, SPACE_H = SPACE_SIZE
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
    label: str  # what the map prints there: the city, or a border point's country


@dataclass(frozen=True)
class BoardShapes:
    name: str
    view_box: str
    width: int
    height: int
    lanes: tuple[LaneShape, ...]
    cities: tuple[CityShape, ...]

    @property
    def aspect(self) -> str:
        """The drawn board's width / height (with its margin), as CSS's aspect-ratio takes it:
        the map's box is sized before the drawing is in (a portrait board is taller)."""
        return f"{self.width + 2 * PADDING} / {self.height + 2 * PADDING}"

    @property
    def portrait(self) -> bool:
        """Taller than wide (Nordic Countries): a phone on its side lays it out otherwise."""
        return self.height > self.width


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


def _corners(route: Route) -> list[tuple[float, float]]:
    corners = []
    for s in route.spaces:
        c, n = math.cos(math.radians(s.angle)), math.sin(math.radians(s.angle))
        for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            x, y = dx * SPACE_W / 2, dy * SPACE_H / 2
            corners.append((s.x + x * c - y * n, s.y + x * n + y * c))
    return corners


def middle(route: Route) -> tuple[float, float]:
    """The point halfway along the row of spaces (on the lane, even when it curves)."""
    centres = [(s.x, s.y) for s in route.spaces]
    if len(centres) == 1:
        return centres[0]
    steps = [math.dist(p, q) for p, q in zip(centres, centres[1:], strict=False)]
    half = sum(steps) / 2
    for (p, q), step in zip(zip(centres, centres[1:], strict=False), steps, strict=True):
        if half <= step:
            t = half / step if step else 0
            return p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])
        half -= step
    return centres[-1]


def _centring_marks(route: Route) -> str:
    """Invisible points that widen the lane's bounding box so that its centre falls on the
    lane: a tap at the centre of the element (what browser automation does) then hits it."""
    xs, ys = zip(*_corners(route), strict=True)
    mx, my = middle(route)
    x = 2 * mx - min(xs) if mx > (min(xs) + max(xs)) / 2 else 2 * mx - max(xs)
    y = 2 * my - min(ys) if my > (min(ys) + max(ys)) / 2 else 2 * my - max(ys)
    if abs(x - mx) < 1 and abs(y - my) < 1:
        return ""
    return f'<rect class="mark" x="{_f(x)}" y="{_f(y)}" width="0.1" height="0.1"/>'


def _lane_markup(route: Route) -> Markup:
    parts = [f'<polyline class="hit" points="{hit_line(route)}"/>', _centring_marks(route)]
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


# A city label's size in art px per letter across and its height (app.css: .city .label, 23 px
# bold): two labels nearer than that overlap.
_LABEL_WIDTH, _LABEL_HEIGHT = 14, 28


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
    cities: list[CityShape] = []
    for c in sorted(board.cities.values(), key=lambda c: c.name):
        label_y = c.y + 38 if c.y < height - 50 else c.y - 24
        label = board.place_of(c.name)
        # a country's border points side by side (Switzerland's Deutschland 2 and 3): its name
        # once, the other points drawn without it rather than over it
        if label != c.name and any(
                o.label == label and abs(o.x - c.x) < _LABEL_WIDTH * len(label)
                and abs(o.label_y - label_y) < _LABEL_HEIGHT for o in cities):
            label = ""
        cities.append(CityShape(c.name, c.x, c.y, label_y, label))
    view_box = f"{-PADDING} {-PADDING} {width + 2 * PADDING} {height + 2 * PADDING}"
    return BoardShapes(board.name, view_box, width, height, lanes, tuple(cities))


def _title(lane: LaneShape) -> str:
    parts = [f"{lane.a}–{lane.b}", str(lane.length), color_name(lane.color)]
    if lane.tunnel:
        parts.append(_("tunnel"))
    if lane.ferry:
        parts.append(_("ferry"))
    return str(escape(" · ".join(parts)))


@dataclass(frozen=True)
class _CityParts:
    """A city's markup that no game changes, made once: drawing a whole board (every tap from
    a page behind the game) formatted each city's coordinates and quoted its name again."""

    circles: str
    label: str  # the name under (or over) the dot
    station_at: str  # where a station's outline starts
    name: str  # escaped, for the attribute
    path: str  # quoted, for the id and the URL


@cache
def _static_parts(
    board_name: str, language: str
) -> tuple[dict[str, str], dict[str, _CityParts]]:
    """Per board and language: each lane's title and spaces, each city's circles and label."""
    shapes = board_shapes(board_name)
    lanes = {lane.id: f"<title>{_title(lane)}</title>{lane.markup}" for lane in shapes.lanes}
    cities = {
        c.name: _CityParts(
            circles=f'<circle class="hit" cx="{_f(c.x)}" cy="{_f(c.y)}" r="26"/>'
                    f'<circle class="dot" cx="{_f(c.x)}" cy="{_f(c.y)}" r="12"/>',
            label=f'<text class="label" x="{_f(c.x)}" y="{_f(c.label_y)}">{escape(c.label)}'
                  "</text>" if c.label else "",
            station_at=f"M{_f(c.x - 13)} {_f(c.y + 11)}",
            name=str(escape(c.name)), path=quote(c.name))
        for c in shapes.cities
    }
    return lanes, cities


# Each piece colour's pattern, for players who tell colours apart badly (the page's
# "patterns" switch fills owned lanes and stations with them): the colour under white marks
# of a shape of its own (black stays plain: it differs from the others by its darkness).
PATTERNS = Markup(
    '<defs>'
    '<pattern id="pat-red" width="12" height="12" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="12" height="12" style="fill:var(--p-red)"/>'
    '<rect width="4" height="12" fill="#fff"/></pattern>'
    '<pattern id="pat-blue" width="12" height="12" patternUnits="userSpaceOnUse">'
    '<rect width="12" height="12" style="fill:var(--p-blue)"/>'
    '<circle cx="6" cy="6" r="3" fill="#fff"/></pattern>'
    '<pattern id="pat-green" width="14" height="14" patternUnits="userSpaceOnUse">'
    '<rect width="14" height="14" style="fill:var(--p-green)"/>'
    '<rect x="5" width="4" height="14" fill="#fff"/><rect y="5" width="14" height="4" '
    'fill="#fff"/></pattern>'
    '<pattern id="pat-yellow" width="12" height="12" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(-45)"><rect width="12" height="12" style="fill:var(--p-yellow)"/>'
    '<rect width="3" height="12" fill="#1f2328"/><rect x="6" width="3" height="12" '
    'fill="#1f2328" fill-opacity=".35"/></pattern>'
    '</defs>'
    '<style>'
    + "".join(f".patterns .lane.own-{c} .sp, .patterns .station.pc-{c} {{ fill: url(#pat-{c}); }}"
              for c in ("red", "blue", "green", "yellow"))
    + '</style>'
)


_OOB = ' hx-swap-oob="true"'


def _lane_element(lane: LaneShape, inner: str, extra: str, base: str, oob: str = "") -> str:
    kind = f"lane c-{lane.color}{' tunnel' if lane.tunnel else ''}"
    kind += f"{' ferry' if lane.ferry else ''} {extra}".rstrip()
    if base:
        url = f"{base}/routes/{lane.id}"
        verb = "unclaim" if "own" in extra.split() else "claim"
        # The id lets a tap's answer swap this lane alone (out of band).
        return (f'<a{oob} id="lane-{lane.id}" href="{url}" hx-post="{url}" '
                f'hx-vals=\'{{"do": "{verb}"}}\' class="{kind}" data-route-id="{lane.id}">'
                f"{inner}</a>")
    # a read-only page's lane: drawn, not a link; its id lets a poll swap it alone too
    return f'<g{oob} id="lane-{lane.id}" class="{kind}" data-route-id="{lane.id}">{inner}</g>'


def _city_element(
    parts: _CityParts, station: str | None, picked: bool, base: str, oob: str = ""
) -> str:
    kind = "city"
    if station is not None:
        kind += " has-station"
    if picked:
        kind += " picked"
    body = parts.circles
    if station is not None:
        body += (f'<path class="station pc-{escape(station)}" '
                 f'd="{parts.station_at}v-14l13-11 13 11v14z"/>')
    body += parts.label
    name, path = parts.name, parts.path
    if base:
        url = f"{base}/cities/{path}"
        return (f'<a{oob} id="city-{path}" href="{url}" hx-post="{url}" class="{kind}" '
                f'data-city="{name}">{body}</a>')
    return f'<g{oob} id="city-{path}" class="{kind}" data-city="{name}">{body}</g>'


def board_svg(
    board_name: str, *, language: str, classes: dict[str, str], stations: dict[str, str],
    first_city: str = "", base: str = "", label: str = "",
) -> Markup:
    """The whole board SVG for one game state.

    ``classes``: extra classes per lane id (owner colour, closed, on a path); ``stations``:
    city -> owner colour; ``base``: the game's URL when the board can be tapped (lanes and
    cities become links that htmx posts to), empty for a read-only board. Rendered in Python
    rather than Jinja because the poll re-renders it whole.
    """
    shapes = board_shapes(board_name)
    lane_parts, city_parts = _static_parts(board_name, language)
    base = str(escape(base))
    out = [
        f'<svg class="map-svg map-{shapes.name}" viewBox="{shapes.view_box}" '
        f'xmlns="http://www.w3.org/2000/svg" role="group" aria-label="{escape(label)}">'
        f'<rect class="sea" x="{-PADDING}" y="{-PADDING}" width="{shapes.width + 2 * PADDING}" '
        f'height="{shapes.height + 2 * PADDING}" rx="24"/>{PATTERNS}<g class="lanes">'
    ]
    out.extend(_lane_element(lane, lane_parts[lane.id], classes.get(lane.id, ""), base)
               for lane in shapes.lanes)
    out.append('</g><g class="cities">')
    out.extend(_city_element(city_parts[city.name], stations.get(city.name),
                             city.name == first_city, base)
               for city in shapes.cities)
    out.append("</g></svg>")
    return Markup("".join(out))


def board_changes(
    board_name: str, *, language: str, classes: dict[str, str], stations: dict[str, str],
    first_city: str, base: str, lanes: frozenset[str], cities: frozenset[str],
) -> Markup:
    """Only the ``lanes`` and ``cities`` of a board (the rest as ``board_svg`` takes them),
    each to be swapped out of band by its id: what a tap, or a poll, changed.

    Wrapped in a hidden ``svg`` so that the browser parses them as SVG elements.
    """
    if not lanes and not cities:
        return Markup("")
    shapes = board_shapes(board_name)
    lane_parts, city_parts = _static_parts(board_name, language)
    base = str(escape(base))
    out = ['<svg hidden xmlns="http://www.w3.org/2000/svg">']
    out.extend(_lane_element(lane, lane_parts[lane.id], classes.get(lane.id, ""), base, _OOB)
               for lane in shapes.lanes if lane.id in lanes)
    out.extend(_city_element(city_parts[city.name], stations.get(city.name),
                             city.name == first_city, base, _OOB)
               for city in shapes.cities if city.name in cities)
    out.append("</svg>")
    return Markup("".join(out))
