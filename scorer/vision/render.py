"""What the photo review shows of a photo: the photo upright as JPEG, the board rectified
under the review's map, and an annotated copy (the outline and every lane in its colour)."""

from __future__ import annotations

import cv2
import numpy as np

from scorer.boards import Board
from scorer.vision.decode import decode_scaled
from scorer.vision.geometry import project
from scorer.vision.pipeline import Detection
from scorer.vision.sample import space_table

_BGR = {"red": (40, 40, 220), "blue": (220, 90, 20), "green": (60, 160, 40),
        "yellow": (20, 220, 240), "black": (30, 30, 30)}
_DOUBT = (200, 0, 200)


def render_overlay(image_bgr: np.ndarray, detection: Detection, board: Board) -> np.ndarray:
    """The photo (full size, upright) with the outline, claimed lanes and doubtful lanes drawn."""
    out = image_bgr.copy()
    scale = out.shape[1] / max(1.0, _photo_width(detection, out))
    h = np.diag([scale, scale, 1.0]) @ np.array(detection.homography).reshape(3, 3)
    thick = max(2, round(out.shape[1] / 600))
    corners = np.array(detection.corners) * scale
    cv2.polylines(out, [corners.astype(np.int32)], True, (0, 255, 0), thick)
    cv2.circle(out, tuple(int(v) for v in corners[0]), 4 * thick, (0, 255, 0), -1)
    routes, spaces, owner = space_table(board)
    index = {r.id: i for i, r in enumerate(routes)}
    for lane in detection.routes:
        doubtful = lane.owner is None and lane.confidence < 0.5
        if lane.owner is None and not doubtful:
            continue
        colour = _BGR.get(lane.owner, _DOUBT) if lane.owner else _DOUBT
        for x, y, angle in spaces[owner == index[lane.route]]:
            a = np.deg2rad(angle)
            d = np.array([np.cos(a), np.sin(a)]) * 22
            ends = project(h, np.array([[x, y] - d, [x, y] + d]))
            p, q = (tuple(int(v) for v in e) for e in ends)
            cv2.line(out, p, q, (255, 255, 255), 3 * thick)
            cv2.line(out, p, q, colour, 2 * thick)
    for station in detection.stations:
        city = board.cities[station.city]
        c = project(h, np.array([[city.x, city.y]]))[0]
        cv2.circle(out, (int(c[0]), int(c[1])), 6 * thick, _BGR[station.owner], 2 * thick)
    return out


def overlay_jpeg(image_bgr: np.ndarray, detection: Detection, board: Board,
                 long_side: int = 1600, quality: int = 85) -> bytes:
    """The overlay as JPEG bytes, scaled down to ``long_side`` for the web."""
    image = image_bgr
    factor = long_side / max(image.shape[:2])
    if factor < 1:
        image = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return _jpeg(render_overlay(image, detection, board), quality)


def upright_jpeg(data: bytes, long_side: int, quality: int, exact: bool = False,
                 ) -> tuple[bytes, float]:
    """The photo's bytes as an upright JPEG decoded to at least ``long_side`` px on its long
    side (JPEG's quick reduced decode: up to twice that) or, with ``exact``, scaled to at
    most that; and its pixels per pixel of the photo. ImageRejected if it is no photo."""
    image, scale = decode_scaled(data, long_side)
    shrink = min(1.0, long_side / max(image.shape[:2]))
    if exact and shrink < 1:
        size = (round(image.shape[1] * shrink), round(image.shape[0] * shrink))
        image, scale = cv2.resize(image, size, interpolation=cv2.INTER_AREA), scale * shrink
    return _jpeg(image, quality), scale


def rectified_jpeg(data: bytes, detection: Detection, board: Board, width: int,
                   quality: int = 80) -> bytes:
    """The photo warped onto the board's art frame, ``width`` px wide, as JPEG: the review
    map's background."""
    image, scale = decode_scaled(data, 2000)
    art_to_photo = np.array(detection.homography, dtype=np.float64).reshape(3, 3)
    art_width, art_height = int(board.art_frame["width"]), int(board.art_frame["height"])
    factor = width / art_width
    to_output = np.diag([factor, factor, 1.0])
    warp = to_output @ np.linalg.inv(np.diag([scale, scale, 1.0]) @ art_to_photo)
    size = (width, round(art_height * factor))
    return _jpeg(cv2.warpPerspective(image, warp, size, flags=cv2.INTER_AREA), quality)


def _jpeg(image: np.ndarray, quality: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - encoding a valid array does not fail
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()


def _photo_width(detection: Detection, image: np.ndarray) -> float:
    """Width of the photo the detection's pixels refer to (stored via the corners' frame)."""
    return detection.photo_size[0] if detection.photo_size else image.shape[1]
