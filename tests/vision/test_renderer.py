"""The sample-photo renderer (scripts/render_samples.py) and the committed sample photos."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from scorer.boards import load_board
from scorer.rules import PIECE_COLORS, find_variant
from scorer.vision.geometry import cm_corners
from tests.vision.renderer import load_renderer

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_photos"


render = load_renderer()
BOARD_CM = cm_corners(load_board("usa"))


@pytest.fixture(scope="module")
def small_usa():
    scene = render.make_scene("usa", 11, (1024, 768), players=["red", "blue", "yellow"],
                              table="speckled", tilt=25, roll=30, glare=0, cast="neutral",
                              half=2)
    img, truth = render.render_photo(scene)
    return scene, img, truth


def test_rendering_a_small_photo_is_deterministic_for_a_seed():
    def photo(seed):
        return render.render_photo(render.make_scene("europe", seed, (400, 300)))

    a, truth_a = photo(5)
    b, truth_b = photo(5)
    c, _ = photo(6)
    assert a.shape == (300, 400, 3)
    assert np.array_equal(a, b)
    assert truth_a == truth_b
    assert not np.array_equal(a, c)


def test_ground_truth_corners_are_the_camera_projection_of_the_board_frame(small_usa):
    scene, _, truth = small_usa
    cam = render.make_camera(scene, np.random.default_rng(scene.seed))
    projected = cam.project(np.column_stack([BOARD_CM, np.zeros(4)]))
    assert np.allclose(truth["corners"], projected, atol=0.1)


def test_ground_truth_corners_put_the_cities_on_their_printed_circles(small_usa):
    # Through the labelled corners only: catches a wrong corner order or a mirrored board.
    scene, img, truth = small_usa
    H = cv2.getPerspectiveTransform(BOARD_CM.astype(np.float32),
                                    np.array(truth["corners"], np.float32))
    board = scene.board
    cm = np.array([board.art_to_cm(c.x, c.y) for c in board.cities.values()])
    px = cv2.perspectiveTransform(cm[None], H)[0]
    orange = 0
    for x, y in px:
        b, g, r = img[round(y), round(x)].astype(int)
        orange += r - b > 60 and r > g
    assert orange >= 0.9 * len(px)


def test_ground_truth_corners_separate_the_board_border_from_the_table(small_usa):
    _, img, truth = small_usa
    H = cv2.getPerspectiveTransform(BOARD_CM.astype(np.float32),
                                    np.array(truth["corners"], np.float32))
    inside = [(39.75, 0.7), (78.8, 26.25), (39.75, 51.8), (0.7, 26.25)]
    outside = [(39.75, -3), (82.5, 26.25), (39.75, 55.5), (-3, 26.25)]
    for points, is_border in ((inside, True), (outside, False)):
        px = cv2.perspectiveTransform(np.array([points], np.float64), H)[0]
        for x, y in px:
            b, g, r = img[round(y), round(x)].astype(int)
            assert (r - b > 35) == is_border, (x, y, (r, g, b))


def test_claimed_spaces_show_the_piece_colour_in_the_photo(small_usa):
    scene, img, truth = small_usa
    H = cv2.getPerspectiveTransform(BOARD_CM.astype(np.float32),
                                    np.array(truth["corners"], np.float32))
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV_FULL)
    hue_of = {"red": 5, "yellow": 40, "blue": 150}
    board = scene.board
    right = total = 0
    for rid, colours in truth["spaces"].items():
        for sp, colour in zip(board.routes[rid].spaces, colours, strict=True):
            if colour is None:
                continue
            x, y = cv2.perspectiveTransform(np.array([[board.art_to_cm(sp.x, sp.y)]]), H)[0, 0]
            h, s, _ = hsv[round(y), round(x)].astype(int)
            dist = min(abs(h - hue_of[colour]), 256 - abs(h - hue_of[colour]))
            right += dist < 25 and s > 90
            total += 1
    assert total > 40
    assert right >= 0.85 * total


@pytest.mark.parametrize("board_name", ["usa", "europe"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_route_is_in_the_ground_truth_of_a_plausible_game(board_name, seed):
    board = load_board(board_name)
    scene = render.make_scene(board_name, seed, (320, 240), half=2)
    truth = render.ground_truth(scene, "x.jpg", np.zeros((4, 2)))
    assert set(truth["routes"]) == set(board.routes) == set(truth["spaces"])
    _check_labels(truth, board)
    variant = find_variant(board_name)
    for colour in truth["players"]:
        trains = sum(board.routes[r].length for r, c in truth["routes"].items() if c == colour)
        assert trains <= variant.trains
        for rid, c in truth["routes"].items():
            if c == colour:
                siblings = board.siblings(board.routes[rid])
                assert all(truth["routes"][s.id] != colour for s in siblings)
    assert len(truth["doubtful"]) == 2


def _check_labels(truth, board):
    for rid, owner in truth["routes"].items():
        spaces = truth["spaces"][rid]
        assert len(spaces) == board.routes[rid].length, rid
        assert all(c is None or c in PIECE_COLORS for c in spaces), rid
        if rid in truth["doubtful"]:
            assert owner is None and any(spaces) and not all(spaces), rid
        else:
            assert spaces == [owner] * len(spaces), rid
    assert set(truth["players"]) <= set(PIECE_COLORS)
    assert {c for c in truth["routes"].values() if c} <= set(truth["players"])
    for station in truth["stations"]:
        assert station["city"] in board.cities and station["owner"] in truth["players"]
    if not board.name == "europe":
        assert truth["stations"] == []


SAMPLE_LABELS = sorted(SAMPLES.glob("*.json"))


def test_the_sample_set_covers_both_boards_and_the_hard_cases():
    labels = [json.loads(p.read_text()) for p in SAMPLE_LABELS]
    assert {lab["map"] for lab in labels} == {"usa", "europe"}
    assert len(labels) >= 12
    same = ("red on red", "black on black", "yellow on orange", "half-covered")
    for needle in same:
        assert any(needle in f for lab in labels for f in lab["features"]), needle


@pytest.mark.parametrize("path", SAMPLE_LABELS, ids=lambda p: p.stem)
def test_committed_sample_labels_match_the_board_data(path):
    truth = json.loads(path.read_text())
    board = load_board(truth["map"])
    assert truth["photo"] == path.with_suffix(".jpg").name
    assert set(truth["routes"]) == set(board.routes) == set(truth["spaces"])
    _check_labels(truth, board)
    with Image.open(path.with_suffix(".jpg")) as im:
        w, h = im.size
    assert 0.6e6 <= path.with_suffix(".jpg").stat().st_size <= 3.2e6
    corners = np.array(truth["corners"])
    assert corners.shape == (4, 2)
    assert (corners >= 0).all() and (corners[:, 0] <= w).all() and (corners[:, 1] <= h).all()
    # top-left, top-right, bottom-right, bottom-left: a positively oriented quad in the image
    x, y = corners[:, 0], corners[:, 1]
    area = 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
    assert area > 0.15 * w * h


def test_stress_scenes_hide_part_of_the_edge_but_not_the_labelled_corners():
    base = dict(players=["red", "blue"], table="gingham", tilt=30, roll=40, glare=0,
                cast="neutral", half=0, lens=0.55, exposure=0.5, clutter=6)
    plain, plain_truth = render.render_photo(render.make_scene("usa", 5, (640, 480), **base))
    hands, hands_truth = render.render_photo(
        render.make_scene("usa", 5, (640, 480), over=3, **base))
    assert hands_truth["corners"] == plain_truth["corners"]
    changed = np.any(np.abs(hands.astype(int) - plain.astype(int)) > 40, axis=2)
    assert changed.mean() > 0.002
    assert plain.mean() < 110  # a dim room
    # nothing lands on a corner: the corner pixels are untouched
    for x, y in np.round(plain_truth["corners"]).astype(int):
        if 3 <= x < 637 and 3 <= y < 477:
            assert not changed[y - 3:y + 4, x - 3:x + 4].any()


def test_the_stress_plan_draws_every_hard_table_and_stays_in_range():
    specs = [render.stress_spec(seed) for seed in range(60)]
    assert {s["table"] for s in specs} == set(render.STRESS_TABLES)
    assert all(10 <= s["tilt"] <= 38 and 0.5 <= s["lens"] <= 0.85 for s in specs)
    assert any(s["exposure"] < 0.7 for s in specs) and any(s["over"] for s in specs)
