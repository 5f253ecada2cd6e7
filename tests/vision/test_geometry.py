import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.boards import load_board
from scorer.vision.geometry import (
    art_corners,
    art_to_photo,
    corner_error,
    is_convex_quad,
    order_clockwise,
    project,
    rectify,
    rotations,
)

BOARD = load_board("usa")
PHOTO_CORNERS = np.array([[410.0, 220.0], [3700.0, 300.0], [3900.0, 2700.0], [150.0, 2500.0]])


def test_art_points_survive_a_trip_to_the_photo_and_back():
    h = art_to_photo(BOARD, PHOTO_CORNERS)
    pts = np.array([[c.x, c.y] for c in BOARD.cities.values()])
    back = project(np.linalg.inv(h), project(h, pts))
    assert np.allclose(back, pts, atol=1e-6)


def test_the_board_outline_maps_onto_the_given_corners():
    h = art_to_photo(BOARD, PHOTO_CORNERS)
    assert np.allclose(project(h, art_corners(BOARD)), PHOTO_CORNERS, atol=1e-6)


def test_board_frame_places_the_map_inside_the_border():
    outline = art_corners(BOARD)
    assert outline[0, 0] < 0 and outline[0, 1] < 0
    assert outline[2, 0] > BOARD.art_frame["width"] and outline[2, 1] > BOARD.art_frame["height"]


def test_rectify_puts_a_photo_pixel_where_the_art_says():
    h = art_to_photo(BOARD, PHOTO_CORNERS / 4)
    photo = np.zeros((760, 1010, 3), np.uint8)
    city = BOARD.cities["Denver"]
    x, y = project(h, np.array([[city.x, city.y]]))[0]
    photo[int(y) - 3:int(y) + 4, int(x) - 3:int(x) + 4] = 255
    flat = rectify(photo, BOARD, PHOTO_CORNERS / 4, scale=0.5)
    ys, xs = np.nonzero(flat[..., 0] > 100)
    assert abs(xs.mean() - city.x * 0.5) < 3 and abs(ys.mean() - city.y * 0.5) < 3


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 3), st.permutations(range(4)), st.floats(-40, 40))
def test_corner_order_is_clockwise_from_top_left_whatever_the_input_order(k, perm, tilt):
    a = np.deg2rad(tilt)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    quad = (PHOTO_CORNERS - 2000) @ rot.T + 2000
    ordered = order_clockwise(quad[list(perm)])
    assert is_convex_quad(ordered)
    # the same cyclic order as the original, whatever the start
    start = int(np.argmin(np.linalg.norm(quad - ordered[0], axis=1)))
    assert np.allclose(ordered, np.roll(quad, -start, axis=0))
    assert np.allclose(rotations(ordered)[k][0], ordered[k])


def test_corner_error_is_a_share_of_the_diagonal():
    moved = PHOTO_CORNERS + [[30.0, 40.0], [0, 0], [0, 0], [0, 0]]
    diag = np.linalg.norm(PHOTO_CORNERS[0] - PHOTO_CORNERS[2])
    assert corner_error(moved, PHOTO_CORNERS) == pytest.approx(50.0 / diag)


def test_a_crossed_quad_is_not_convex():
    assert not is_convex_quad(PHOTO_CORNERS[[0, 2, 1, 3]])
