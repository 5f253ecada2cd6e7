"""Stage 2, locating the board: the search for each side's straight edge (snap_to_edges)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.boards import load_board
from scorer.vision.decode import decode_scaled
from scorer.vision.geometry import corner_error, diagonal
from scorer.vision.locate import locate
from scorer.vision.locate.edges import _side_line

SAMPLES = Path(__file__).resolve().parents[2] / "sample_photos"
needs_samples = pytest.mark.skipif(not SAMPLES.is_dir(), reason="no sample_photos/")

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


def board_on_a_table_as_dark_as_its_track_under_a_lamp(name: str) -> tuple[np.ndarray, np.ndarray]:
    """The sample photo ``name`` with its table painted the colour of the board's score track,
    seen 35 degrees off vertical, in a room at half the light with a lamp's bright spot over
    the board's near edge and the table before it: neither the board's colour nor its outline
    stands out (the far-from-table masks take in the lit table, the track is the table's
    colour), only its routes and cities do. Returns the photo and the board's corners."""
    truth = json.loads((SAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    image, scale = decode_scaled((SAMPLES / truth["photo"]).read_bytes(), 1200)
    corners = np.array(truth["corners"]) * scale
    h, w = image.shape[:2]
    inside = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(inside, np.round(corners).astype(np.int32), 255)
    rim = cv2.subtract(inside, cv2.erode(inside, np.ones((7, 7), np.uint8)))
    track = np.median(image[rim > 0], axis=0)
    image[inside == 0] = track
    seen = np.array([[0.075, 0.2], [0.925, 0.223], [0.738, 0.8], [0.198, 0.668]]) * (w, h)
    warp = cv2.getPerspectiveTransform(corners.astype(np.float32), seen.astype(np.float32))
    photo = cv2.warpPerspective(image, warp, (w, h), borderValue=track.tolist())
    spot_at = seen.mean(axis=0) + (0.0, 0.3 * np.ptp(seen[:, 1]))
    yy, xx = np.ogrid[0:h, 0:w]
    sigma = 0.2 * diagonal(seen)
    spot = 0.7 * np.exp(-((xx - spot_at[0]) ** 2 + (yy - spot_at[1]) ** 2) / (2 * sigma ** 2))
    lit = photo * 0.5 * (1 - spot[..., None]) + 250 * spot[..., None]
    lit += np.random.default_rng(0).normal(0, 2.5, lit.shape)
    return np.clip(lit, 0, 255).astype(np.uint8), seen


@needs_samples
def test_a_board_as_dark_as_its_table_under_a_lamp_is_outlined_by_its_routes():
    photo, corners = board_on_a_table_as_dark_as_its_track_under_a_lamp("usa-01")
    found = locate(photo, load_board("usa"))
    assert corner_error(found.corners, corners) < 0.01
