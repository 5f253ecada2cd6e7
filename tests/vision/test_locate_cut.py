"""A board the photo cuts (a photo taken too close): found reaching past the photo's edges,
the edges named, and the lanes the photo does not show asked, never read from its border."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scorer.boards import load_board
from scorer.vision import detect
from scorer.vision.classify import LaneResult
from scorer.vision.config import DEFAULT
from scorer.vision.errors import BoardOutOfFrame
from scorer.vision.geometry import corner_error, diagonal
from scorer.vision.locate import locate
from scorer.vision.locate.cut import extended, outside_edges, touched_edges
from scorer.vision.pipeline import seen_spaces, unseen_lanes_doubtful
from scorer.vision.sample import space_table
from tests.vision.samples import SAMPLES, cut, labelled

needs_samples = pytest.mark.skipif(not (SAMPLES / "usa-01.jpg").is_file(),
                                   reason="no sample_photos/")


def jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", np.ascontiguousarray(image), [cv2.IMWRITE_JPEG_QUALITY, 90])[1]\
        .tobytes()


# --- geometry ---------------------------------------------------------------------------------


def test_the_edges_named_are_those_the_corners_lie_beyond():
    corners = np.array([[10.0, -40.0], [700.0, 5.0], [820.0, 590.0], [-3.0, 650.0]])
    assert outside_edges(corners, 800, 600, 5.0) == ("top", "right", "bottom")
    assert outside_edges(corners, 800, 600, 45.0) == ("bottom",)
    assert outside_edges(corners[[1]].repeat(4, axis=0), 800, 600, 5.0) == ()


def test_the_side_along_the_photos_bottom_is_found_and_moved_out_to_the_boards_shape():
    board = np.array([[100.0, 100.0], [700.0, 100.0], [700.0, 500.0], [100.0, 500.0]])  # 1.5:1
    part = board.copy()
    part[2:, 1] = 399.0  # the photo (800 x 400) cuts it at its bottom edge
    assert touched_edges(part, 800, 400, 2.0) == {"bottom": 2}
    outlines = list(extended(part, 800, 400, 1.5, 2.0))
    assert min(corner_error(q, board) for q in outlines) < 0.002
    assert all(q[:, 1].max() > 399.0 for q in outlines)


def test_an_outline_inside_the_photo_is_not_extended():
    inside = np.array([[100.0, 100.0], [700.0, 100.0], [700.0, 500.0], [100.0, 500.0]])
    assert touched_edges(inside, 800, 600, 5.0) == {}
    assert list(extended(inside, 800, 600, 1.5, 5.0)) == []


# --- the locator ------------------------------------------------------------------------------


@needs_samples
@pytest.mark.parametrize(("name", "edge"), [("usa-01", "bottom"), ("europe-01", "top"),
                                            ("usa-01", "left"), ("europe-01", "right")])
def test_a_board_cut_by_the_frame_is_found_reaching_past_the_edge_it_is_cut_at(name, edge):
    truth, image, corners = labelled(name)
    photo, board = cut(image, corners, edge, 0.2)
    found = locate(photo, load_board(truth["map"]))
    assert found.outside == (edge,)
    assert corner_error(found.corners, board) < 0.015


@needs_samples
@pytest.mark.parametrize("edge", ["bottom", "right"])
def test_a_whole_board_just_inside_the_frame_is_not_said_to_reach_past_it(edge):
    truth, image, corners = labelled("usa-01")
    photo, board = cut(image, corners, edge, -0.004)
    found = locate(photo, load_board(truth["map"]))
    assert found.outside == ()
    assert corner_error(found.corners, board) < 0.01


# --- the detector's answer --------------------------------------------------------------------


@needs_samples
def test_a_photo_cut_at_the_bottom_answers_that_the_bottom_is_outside_with_the_corners():
    truth, image, corners = labelled("usa-01")
    photo, board = cut(image, corners, "bottom", 0.25)
    with pytest.raises(BoardOutOfFrame) as raised:
        detect(jpeg(photo), load_board("usa"))
    error = raised.value
    assert error.edges == ("bottom",)
    assert str(error).startswith("The bottom of the board is outside the photo")
    assert error.photo_size == (photo.shape[1], photo.shape[0])
    assert corner_error(np.array(error.corners), board) < 0.015
    assert np.array(error.corners)[2:, 1].min() > photo.shape[0]  # BR, BL beyond the bottom


@needs_samples
def test_corners_placed_beyond_the_photo_read_the_lanes_it_shows_and_ask_the_rest():
    truth, image, corners = labelled("usa-01")
    photo, board = cut(image, corners, "bottom", 0.25)
    detection = detect(jpeg(photo), load_board("usa"), truth["players"], corners=board)
    read = {lane.route: lane for lane in detection.routes}
    seen = seen_spaces(load_board("usa"), board, photo.shape[1], photo.shape[0])
    routes, _, owner_of = space_table(load_board("usa"))
    hidden = {routes[i].id for i in set(owner_of[~seen])}
    assert 15 < len(hidden) < 50
    assert set(detection.unseen) == hidden
    assert "Miami" in detection.unseen_cities and "Seattle" not in detection.unseen_cities
    assert all(read[r].confidence <= DEFAULT.unseen_confidence for r in hidden)
    shown = [r for r in read if r not in hidden]
    right = sum(read[r].owner == truth["routes"].get(r) for r in shown)
    assert right >= 0.97 * len(shown)


def test_a_lane_half_outside_the_photo_is_not_read_and_one_partly_outside_is_doubtful():
    board = load_board("usa")
    routes, spaces, owner_of = space_table(board)
    seen = np.ones(len(spaces), dtype=bool)
    half = next(i for i in range(len(routes)) if routes[i].length == 2)
    part = next(i for i in range(len(routes)) if routes[i].length == 4)
    seen[np.flatnonzero(owner_of == half)[:1]] = False
    seen[np.flatnonzero(owner_of == part)[:1]] = False
    lanes = [LaneResult(r.id, "red", 0.98, "red", "empty") for r in routes]
    out = {lane.route: lane for lane in unseen_lanes_doubtful(lanes, board, seen, DEFAULT)}
    assert out[routes[half].id] == LaneResult(routes[half].id, None, 0.0, "empty", "empty")
    assert out[routes[part].id] == LaneResult(routes[part].id, "red", DEFAULT.unseen_confidence,
                                              "red", "empty")
    others = [lane for i, lane in enumerate(lanes) if i not in (half, part)]
    assert all(out[lane.route] == lane for lane in others)


def test_a_board_at_the_photos_edges_has_every_space_seen():
    board = load_board("usa")
    w, h = 1500, 1000
    inside = np.array([[0.0, 0.0], [w - 1.0, 0.0], [w - 1.0, h - 1.0], [0.0, h - 1.0]])
    assert seen_spaces(board, inside, w, h).all()
    beyond = inside.copy()
    beyond[2:, 1] += 0.3 * diagonal(inside)
    assert not seen_spaces(board, beyond, w, h).all()
