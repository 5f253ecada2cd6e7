"""The whole detector: photo bytes to a ``Detection`` (decode, locate, rectify, classify),
then to the game's ``Claims`` (each piece colour read as the player who has it)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from scorer.boards import Board
from scorer.errors import ScorerError
from scorer.rules import board_has_stations
from scorer.vision.classify import (
    PIECE_COLORS,
    LaneResult,
    lane_results,
    read_board,
    space_probabilities,
)
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.decode import decode_scaled
from scorer.vision.errors import BoardNotFound
from scorer.vision.geometry import art_to_photo, diagonal, is_convex_quad
from scorer.vision.locate import ContentScore, blurred_lab, locate, polish, resize_long
from scorer.vision.model import Mlp
from scorer.vision.stations import StationResult, find_stations


@dataclass(frozen=True)
class Detection:
    """What the detector read from one photo; corners in pixels of the full upright photo."""

    map: str
    corners: tuple[tuple[float, float], ...]
    routes: tuple[LaneResult, ...]
    stations: tuple[StationResult, ...]
    elapsed_ms: int
    confidence: float = 1.0
    # art px -> full photo px, row-major 3x3 (what the lanes were read with)
    homography: tuple[float, ...] = ()
    photo_size: tuple[int, int] = ()  # width, height of the upright photo

    def owner(self, route_id: str) -> str | None:
        return next((r.owner for r in self.routes if r.route == route_id), None)

    def to_json(self) -> dict:
        """Exactly the ``scorer detect`` JSON of the spec."""
        return {
            "map": self.map,
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "routes": [r.to_json() for r in self.routes],
            "stations": [s.to_json() for s in self.stations],
            "elapsed_ms": self.elapsed_ms,
        }

    def scaled(self, factor: float) -> Detection:
        """The same detection in the pixels of the photo ``factor`` times as large (read on a
        reduced copy, told in the pixels of the photo as it came)."""
        if factor == 1.0:
            return self
        homography = np.diag([factor, factor, 1.0]) @ np.array(
            self.homography, dtype=np.float64).reshape(3, 3)
        width, height = self.photo_size
        return replace(
            self, corners=tuple((x * factor, y * factor) for x, y in self.corners),
            homography=tuple(float(v) for v in homography.ravel()),
            photo_size=(round(width * factor), round(height * factor)),
        )


@dataclass(frozen=True)
class LaneClaim:
    """One lane as the game sees it: the player whose pieces lie on it (None: empty,
    doubtful, or a colour no player has), the piece colour seen, how sure, and the crop's
    likeliest and next likeliest readings (a piece colour or "empty", as ``LaneResult``)."""

    owner: str | None
    color: str | None
    confidence: float
    likely: str = "empty"
    second: str = "empty"

    def to_json(self) -> dict:
        return {"owner": self.owner, "color": self.color,
                "confidence": round(self.confidence, 3), "likely": self.likely,
                "second": self.second}


@dataclass(frozen=True)
class Claims:
    """A detection told in the game's players: each lane's claim, each station's owner."""

    lanes: Mapping[str, LaneClaim]
    stations: Mapping[str, str]  # city -> player

    def to_json(self) -> dict:
        return {"lanes": {route: lane.to_json() for route, lane in self.lanes.items()},
                "stations": dict(self.stations)}


def to_claims(detection: Detection, players: Mapping[str, str]) -> Claims:
    """The detector's last stage: each piece colour read as the player who has it
    (``players``: colour -> name). A lane of a colour no player has keeps the colour seen
    and no owner; a station of such a colour is left out."""
    return claims_of(detection.routes, detection.stations, players)


def claims_of(routes: Sequence[LaneResult], stations: Sequence[StationResult],
              players: Mapping[str, str]) -> Claims:
    """``to_claims`` of lane and station readings (one photo's, or several combined)."""
    lanes = {r.route: LaneClaim(players.get(r.owner) if r.owner else None, r.owner,
                                r.confidence, r.likely, r.second)
             for r in routes}
    return Claims(lanes, {s.city: players[s.owner] for s in stations if s.owner in players})


def parse_colors(colors: Sequence[str] | None) -> tuple[str, ...] | None:
    if not colors:
        return None
    out = tuple(c.strip().lower() for c in colors if c.strip())
    unknown = [c for c in out if c not in PIECE_COLORS]
    if unknown:
        raise ScorerError("Unknown piece colour {color!r}: use {colors}.", color=unknown[0],
                          colors=", ".join(PIECE_COLORS))
    return out or None


def parse_corners(corners: Sequence[Sequence[float]] | Sequence[float]) -> np.ndarray:
    flat = np.asarray(corners, dtype=np.float64).ravel()
    if flat.size != 8 or not np.all(np.isfinite(flat)):
        raise BoardNotFound("Corners must be four x,y points: top-left, top-right, "
                            "bottom-right, bottom-left.")
    quad = flat.reshape(4, 2)
    if not is_convex_quad(quad):
        raise BoardNotFound("The four corners given do not outline a board (not a convex "
                            "quadrilateral in the order top-left, top-right, bottom-right, "
                            "bottom-left).")
    return quad


def detect(
    data: bytes, board: Board, colors: Sequence[str] | None = None,
    corners: Sequence[Sequence[float]] | None = None, config: VisionConfig = DEFAULT,
    model: Mlp | None = None,
) -> Detection:
    """Read every lane (and Europe station) of ``board`` from a photo's bytes.

    ``model`` replaces the shipped space classifier (the benchmark's leave-one-out runs).
    """
    start = time.perf_counter()
    wanted = parse_colors(colors)
    given = parse_corners(corners) if corners is not None else None
    image, scale = decode_scaled(data, config.work_long_side, config)
    check_exposure(image, config)
    if given is None:
        found = locate(image, board, config)
        work_corners, confidence, art_corners = found.corners, found.confidence, found.art_corners
    else:
        work_corners, confidence = given * scale, 1.0
        art_corners = fit_art_frame(image, board, work_corners, config)
    lab, veil = read_board(image, board, art_corners, config)
    check_sharpness(lab, config)
    probs = space_probabilities(lab, board, wanted, config, model)
    routes = lane_results(probs, board, config, veil)
    stations = (find_stations(lab, probs, board, wanted, config)
                if board_has_stations(board.name) else ())
    h = np.diag([1 / scale, 1 / scale, 1.0]) @ art_to_photo(board, art_corners)
    return Detection(
        map=board.name,
        corners=tuple((float(x), float(y)) for x, y in work_corners / scale),
        routes=routes,
        stations=stations,
        elapsed_ms=round((time.perf_counter() - start) * 1000),
        confidence=confidence,
        homography=tuple(float(v) for v in (h / h[2, 2]).ravel()),
        photo_size=(round(image.shape[1] / scale), round(image.shape[0] / scale)),
    )


def fit_art_frame(image: np.ndarray, board: Board, corners: np.ndarray,
                  config: VisionConfig) -> np.ndarray:
    """Given corners, nudge the frame a few mm so the printed spaces sit on the photo's."""
    small, scale = resize_long(image, config.locate_long_side)
    score = ContentScore(blurred_lab(small), board, config)
    start = corners * scale
    polished, value = polish(score, start, score(start), 0.25 * diagonal(start))
    return polished / scale if value > score(start) else corners


def check_exposure(image: np.ndarray, config: VisionConfig) -> None:
    small, _ = resize_long(image, 256)
    if float(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).mean()) < config.min_brightness:
        raise BoardNotFound("The photo is too dark: add light or avoid shadows on the board.")


def check_sharpness(lab: np.ndarray, config: VisionConfig) -> None:
    light = lab[..., 0]
    if float(cv2.Laplacian(light, cv2.CV_32F).var()) < config.min_sharpness:
        raise BoardNotFound("The photo is too blurred: hold still and let the camera focus.")
