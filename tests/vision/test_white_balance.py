"""The light's colour taken off the rectified board by one gain per channel."""

import dataclasses

import numpy as np
import pytest

from scorer.boards import load_board
from scorer.vision.classify import board_lab
from scorer.vision.config import DEFAULT
from scorer.vision.sample import space_table, white_balance
from tests.vision.samples import SAMPLES, labelled

USA = load_board("usa")
ART_WIDTH, ART_HEIGHT = USA.art_frame["width"], USA.art_frame["height"]
COOL = (1.15, 1.0, 0.8)  # BGR gains: a blue north window
WARM = (0.72, 0.93, 1.12)  # a tungsten lamp
pytestmark = pytest.mark.skipif(not (SAMPLES / "usa-01.jpg").is_file(),
                                reason="no sample_photos/")


def cast(image: np.ndarray, gains) -> np.ndarray:
    return np.clip(image * np.asarray(gains, np.float32), 0, 255).astype(np.uint8)


def at_the_spaces(lab: np.ndarray) -> np.ndarray:
    _, spaces, _ = space_table(USA)
    x, y = spaces[:, 0].astype(int), spaces[:, 1].astype(int)
    return lab[y, x].astype(float)


@pytest.mark.parametrize("gains", [COOL, WARM])
def test_a_colour_cast_is_taken_off_the_pieces_and_print(gains):
    """Every space's colour under a cast comes out near its colour without one: three times
    nearer than with the paper's colour only subtracted in Lab."""
    _, image, corners = labelled("usa-02")
    plain = at_the_spaces(board_lab(image, USA, corners))
    balanced = at_the_spaces(board_lab(cast(image, gains), USA, corners))
    shifted = at_the_spaces(board_lab(cast(image, gains), USA, corners,
                                      dataclasses.replace(DEFAULT, white_balance=False)))
    off_balanced = np.linalg.norm(balanced[:, 1:] - plain[:, 1:], axis=1).mean()
    off_shifted = np.linalg.norm(shifted[:, 1:] - plain[:, 1:], axis=1).mean()
    assert off_balanced < off_shifted / 3


def test_white_balance_makes_the_paper_grey_and_keeps_a_grey_photo():
    image = np.full((ART_HEIGHT, ART_WIDTH, 3), (150, 190, 210), np.uint8)  # beige paper, BGR
    balanced = white_balance(image, USA).astype(float)
    assert np.ptp(balanced[500, 800]) <= 1
    grey = np.full((ART_HEIGHT, ART_WIDTH, 3), 180, np.uint8)
    assert np.array_equal(white_balance(grey, USA), grey)
