"""Stage 2, locating the board: the search for each side's straight edge (snap_to_edges)."""

from __future__ import annotations

import cv2
import numpy as np

from scorer.vision.locate import _side_line

RIM, WHITE, PAPER = (35, 45, 120), (235, 240, 240), (200, 215, 220)


def checked_cloth_above_the_rim() -> np.ndarray:
    """A board's edge along y = 60 (its red rim below, then paper) on a red and white checked
    cloth: the cloth's red checks are the rim's colour, so the board's edge shows only beside
    the white ones (10 rows of every 16), and the cloth's own line along y = 44 (red over
    white, white over red) shows all along."""
    image = np.zeros((140, 240, 3), np.uint8)
    image[:] = PAPER
    image[60:80] = RIM
    for x in range(0, 240, 16):
        image[:44, x:x + 6], image[44:60, x:x + 6] = WHITE, RIM
        image[:44, x + 6:x + 16], image[44:60, x + 6:x + 16] = RIM, WHITE
    return cv2.GaussianBlur(image, (5, 5), 0)


def test_a_side_snaps_to_the_boards_edge_not_to_a_longer_line_of_the_checked_cloth():
    # the fit's side at y = 56 (outwards is up), searched 16 px either way: both lines are
    # within reach, and the cloth's has the more rows
    found = _side_line(checked_cloth_above_the_rim(), np.array([20.0, 56.0]),
                       np.array([220.0, 56.0]), 16.0)
    assert found is not None
    point, direction = found
    assert abs(direction[1]) < 0.01
    assert abs(point[1] - 60.0) < 1.0


def test_a_side_still_snaps_to_a_plain_edge_beside_uneven_colours_on_both_sides():
    # the same cloth with the board's rim gone: the cloth's line is the only straight edge
    # there, and with no even side beside it it is still found
    image = checked_cloth_above_the_rim()
    image[52:] = image[52]  # the white and red checks run on down: no edge at y = 60
    found = _side_line(image, np.array([20.0, 48.0]), np.array([220.0, 48.0]), 16.0)
    assert found is not None
    assert abs(found[0][1] - 44.0) < 1.0
