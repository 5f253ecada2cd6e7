"""The board SVG is drawn from the board data: every space at its position and angle."""

from __future__ import annotations

import math
import re

import pytest

from scorer.boards import BOARD_NAMES, load_board
from scorer.web import svg


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_every_lane_draws_one_space_per_train_at_its_position_and_angle(name):
    board = load_board(name)
    shapes = {lane.id: lane for lane in svg.board_shapes(name).lanes}
    assert set(shapes) == set(board.routes)
    for route in board.routes.values():
        rects = re.findall(r'<rect class="sp[^"]*" x="-27" y="-8" width="54" height="16" '
                           r'rx="3" transform="translate\(([-\d.]+) ([-\d.]+)\) '
                           r'rotate\(([-\d.]+)\)"/>', shapes[route.id].markup)
        assert len(rects) == route.length
        for (x, y, angle), space in zip(rects, route.spaces, strict=True):
            assert (float(x), float(y), float(angle)) == pytest.approx(
                (space.x, space.y, space.angle), abs=0.05)
        assert shapes[route.id].markup.count("loco-mark") == route.ferry_locomotives


def _distance_to_polyline(point, points):
    best = math.inf
    for (ax, ay), (bx, by) in zip(points, points[1:], strict=False):
        dx, dy = bx - ax, by - ay
        t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((point[0] - ax) * dx + (
            point[1] - ay) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.dist(point, (ax + t * dx, ay + t * dy)))
    return best


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_the_centre_of_every_lanes_box_lies_on_the_lane(name):
    """Browser automation taps the centre of an element's box: it must hit the lane."""
    for lane in svg.board_shapes(name).lanes:
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", lane.markup.split(
            'points="')[1].split('"')[0])]
        points = list(zip(numbers[::2], numbers[1::2], strict=True))
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        marks = re.findall(r'class="mark" x="([-\d.]+)" y="([-\d.]+)"', lane.markup)
        route = load_board(name).routes[lane.id]
        corners = svg._corners(route)
        xs = [c[0] for c in corners] + [float(m[0]) for m in marks]
        ys = [c[1] for c in corners] + [float(m[1]) for m in marks]
        centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
        assert _distance_to_polyline(centre, points) < 8, lane.id


def test_the_board_svg_marks_owners_stations_and_links(app):
    with app.test_request_context():
        markup = svg.board_svg("europe", language="en", base="/games/abc",
                               classes={"paris--zurich": "own own-red"},
                               stations={"Zürich": "blue"}, first_city="Wien")
    assert markup.count("data-route-id=") == 101 and markup.count("data-city=") == 47
    assert re.search(r'hx-vals=\'{"do": "unclaim"}\' class="lane [^"]*own own-red" '
                     r'data-route-id="paris--zurich"', markup)
    assert 'href="/games/abc/cities/Z%C3%BCrich"' in markup
    assert 'class="station pc-blue"' in markup
    assert 'class="city picked" data-city="Wien"' in markup
    with app.test_request_context():
        read_only = svg.board_svg("usa", language="en", classes={}, stations={})
    assert "href=" not in read_only and "hx-post" not in read_only
