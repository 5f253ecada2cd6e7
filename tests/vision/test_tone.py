"""A phone's tone curve: the mid-tones of a photo that presses them down lifted back."""

import dataclasses

import numpy as np
import pytest

from scorer.boards import load_board
from scorer.vision.classify import read_board
from scorer.vision.config import DEFAULT
from scorer.vision.sample import PAPER_LAB, _print_points, print_tone
from tests.vision.samples import SAMPLES, labelled

USA = load_board("usa")
SCALE = 0.25
LIGHT, DEADBAND, LOWEST = DEFAULT.tone_print_light, DEFAULT.tone_deadband, DEFAULT.tone_lowest


def printed(low: float, high: float) -> tuple[np.ndarray, np.ndarray]:
    """A drawn Lab board (a quarter of the art's size): paper everywhere, and the print between
    the routes at lightnesses spread evenly from ``low`` to ``high`` of the paper's."""
    h, w = int(USA.art_frame["height"] * SCALE), int(USA.art_frame["width"] * SCALE)
    lab = np.empty((h, w, 3), np.float32)
    lab[...] = PAPER_LAB
    at = _print_points(USA, (h, w), SCALE)
    light = lab[..., 0].copy()
    light.ravel()[at] = PAPER_LAB[0] * np.linspace(low, high, len(at))
    lab[..., 0] = light
    return lab, at


def quartile(lab: np.ndarray, at: np.ndarray) -> float:
    return float(np.percentile(lab[..., 0].ravel()[at], 25)) / float(PAPER_LAB[0])


def test_print_read_darker_than_the_real_photos_is_lifted_back_and_the_paper_stays():
    lab, at = printed(0.65, 1.0)  # its lower quartile at 0.74 of the paper
    out = print_tone(lab, USA, SCALE, LIGHT, DEADBAND, LOWEST)
    assert quartile(lab, at) < 0.75
    assert quartile(out, at) == pytest.approx(LIGHT, abs=0.005)
    assert np.allclose(out[0, 0], PAPER_LAB)  # the paper keeps its colour
    light = out[..., 0].ravel()[at]
    assert np.all(np.diff(light) >= 0)  # darker stays darker


def test_print_as_the_real_photos_read_it_or_lighter_is_left_as_it_is():
    for low in (0.76, 0.9):  # within the dead band of the real photos' look; lifted (a veil)
        lab, _ = printed(low, 1.0)
        assert np.array_equal(print_tone(lab, USA, SCALE, LIGHT, DEADBAND, LOWEST), lab)


def test_the_lift_goes_no_further_than_its_lowest_power():
    lab, at = printed(0.2, 0.6)
    out = print_tone(lab, USA, SCALE, LIGHT, DEADBAND, LOWEST)
    assert quartile(out, at) == pytest.approx(quartile(lab, at) ** LOWEST, abs=0.005)


@pytest.mark.skipif(not (SAMPLES / "usa-01.jpg").is_file(), reason="no sample_photos/")
def test_a_photo_whose_tone_curve_darkens_the_print_is_read_with_it_lifted():
    """usa-01 through a tone curve of gamma 3 (its print's lower quartile at 0.78 of the paper
    instead of 0.93) is read with that quartile at tone_print_light; the photo as it is, and
    with the lift off, as they are."""
    _, image, corners = labelled("usa-01")
    steep = np.clip(255 * (image / 255.0) ** 3.0, 0, 255).astype(np.uint8)
    off = dataclasses.replace(DEFAULT, tone_deadband=1.0)
    lab = read_board(steep, USA, corners).lab
    at = _print_points(USA, lab.shape[:2], DEFAULT.rectify_scale)
    assert quartile(read_board(steep, USA, corners, off).lab, at) < 0.79
    assert quartile(lab, at) == pytest.approx(LIGHT, abs=0.01)
    assert np.array_equal(read_board(image, USA, corners).lab,
                          read_board(image, USA, corners, off).lab)
