"""A photo already cropped to the board (a scan, a deskewed crop) is read where the measured
board frame puts the map, not where the coarse search's fit does."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.boards import load_board
from scorer.vision.decode import decode_scaled
from scorer.vision.geometry import corner_error
from scorer.vision.locate import locate

SAMPLE = Path(__file__).resolve().parents[2] / "sample_photos" / "usa-01"
SIZE = (1500, 990)  # a board's shape, as the deskewed real photos


def deskewed(margin: float) -> tuple[np.ndarray, np.ndarray]:
    """usa-01 warped so the board fills the image but for ``margin`` (share of its size) of
    table on every side; and the board's corners in it."""
    truth = json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))
    image, scale = decode_scaled(SAMPLE.with_suffix(".jpg").read_bytes(), 2000)
    w, h = SIZE
    mx, my = margin * w, margin * h
    board = np.array([[mx, my], [w - 1 - mx, my], [w - 1 - mx, h - 1 - my], [mx, h - 1 - my]])
    warp = cv2.getPerspectiveTransform(
        (np.asarray(truth["corners"]) * scale).astype(np.float32), board.astype(np.float32))
    return cv2.warpPerspective(image, warp, SIZE, flags=cv2.INTER_AREA), board


@pytest.mark.skipif(not SAMPLE.with_suffix(".jpg").is_file(), reason="no sample_photos/")
def test_a_board_cropped_to_its_edges_is_read_in_the_frame_the_measured_board_data_gives():
    image, frame = deskewed(0.0)
    found = locate(image, load_board("usa"))
    assert corner_error(found.corners, frame) < 0.002
    assert corner_error(found.art_corners, frame) < 1e-6


@pytest.mark.skipif(not SAMPLE.with_suffix(".jpg").is_file(), reason="no sample_photos/")
def test_a_loose_crop_with_table_around_the_board_keeps_the_searched_fit():
    image, board = deskewed(0.01)
    h, w = image.shape[:2]
    frame = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float64)
    found = locate(image, load_board("usa"))
    assert corner_error(found.art_corners, frame) > 0.004
    assert corner_error(found.art_corners, board) < 0.01
