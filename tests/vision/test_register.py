"""Where the print lies: the cities' dots found off the board's data, the print's offset
from them at every space, and the lanes read there."""

from dataclasses import replace

import numpy as np
import pytest

from scorer.vision.classify import _print_registered, lane_results, read_spaces
from scorer.vision.config import DEFAULT
from scorer.vision.register import CityDots, city_dots, print_offsets
from scorer.vision.sample import space_table
from tests.vision.samples import DEV_PHOTOS
from tests.vision.test_classify import read_lanes
from tests.vision.test_stations import ART_HEIGHT, ART_WIDTH, EUROPE, GREY_DOT, board_with


def test_without_enough_dots_the_print_lies_where_the_data_put_it():
    points = np.array([[10.0, 20.0], [300.0, 400.0]])
    none = CityDots(np.zeros((2, 2)), np.zeros(2), np.zeros(2, bool), np.zeros(2))
    assert (print_offsets(none, points) == 0).all()
    shifted = replace(none, fit=np.array([[0.01, 0.0], [0.0, 0.0], [3.0, -2.0]]))
    assert np.allclose(print_offsets(shifted, points), [[3.1, -2.0], [6.0, -2.0]])


def test_every_space_s_print_offset_follows_from_the_cities_dots():
    """Dots printed 1.2 % larger than the board's data about the map's centre (up to ~10 px
    off at its edges): every space lies that much off too, and is read there."""
    lab, _ = board_with([], dot=GREY_DOT, spread=0.012)
    _, spaces, _ = space_table(EUROPE)
    want = 0.012 * (spaces[:, :2] - (ART_WIDTH / 2, ART_HEIGHT / 2))
    got = print_offsets(city_dots(lab, EUROPE), spaces[:, :2])
    assert np.abs(want).max() > 9
    assert np.abs(got - want).max() <= 1.0
    assert np.allclose(_print_registered(lab, EUROPE, DEFAULT), got)
    assert _print_registered(lab, EUROPE, replace(DEFAULT, print_registered=False)) is None


@pytest.mark.skipif(not DEV_PHOTOS.is_dir(), reason="no real dev photos on this machine")
def test_a_real_board_s_print_lies_off_its_data_and_its_lanes_are_read_there():
    """On a crowded real photo read at its labelled corners the print lies several px off the
    board's data in places (the seen dots agree with the fit within 4 px), and every lane is
    read as well or better where it lies."""
    truth, board, lab = read_lanes(DEV_PHOTOS / "europe-all-pieces-1.jpg")
    dots = city_dots(lab, board)
    _, spaces, _ = space_table(board)
    offsets = print_offsets(dots, spaces[:, :2])
    assert np.linalg.norm(offsets, axis=1).max() > 6
    cities = np.array([(c.x, c.y) for c in board.cities.values()])
    fitted = print_offsets(dots, cities)[dots.seen]
    assert np.mean(np.linalg.norm(dots.centres[dots.seen] - cities[dots.seen] - fitted,
                                  axis=1) < 4) > 0.9
    right = []
    for registered in (False, True):
        config = replace(DEFAULT, print_registered=registered)
        results = lane_results(read_spaces(lab, board, None, config).probs, board, config)
        right.append(sum(r.owner == truth["routes"].get(r.route) for r in results))
    assert right[1] >= right[0]


def test_the_offset_every_window_s_dot_shares_is_found():
    """Windows round 40 cities, each with the paper's grain, a printed line or name crossing
    it somewhere else, and its dot 6 px right of and 4 px above the centre: the offset where
    the windows look most alike lies within 4 px of the dots' (``register._shared_shift``,
    tried where too few dots are seen to fit the print's offset: each window's own search
    then finds its dot from there), where the board's data put them 7 px off."""
    import cv2

    from scorer.vision.register import _shared_shift

    rng = np.random.default_rng(3)
    r, reach = 9, 16
    size = 2 * (r + reach) + 1
    windows = rng.normal(200, 4, (40, size, size, 3)).astype(np.float32)
    centre = size // 2
    for w in windows:
        y = int(rng.integers(0, size))
        w[y:y + 3] -= 60  # a printed line somewhere across the window
        cv2.circle(w, (centre + 6, centre - 4), r, (120.0, 150.0, 170.0), -1)
    assert np.abs(_shared_shift(windows, r, reach) - (6, -4)).max() <= 4
