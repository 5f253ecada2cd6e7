"""The whole detector: photo bytes to a ``Detection`` (decode, locate, rectify, classify),
then to the game's ``Claims`` (each piece colour read as the player who has it)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from scorer.boards import PHOTO_BOARDS, SPACE_SIZE, Board, load_board
from scorer.errors import ScorerError
from scorer.messages import Message
from scorer.rules import board_has_stations
from scorer.vision.classify import (
    PIECE_COLORS,
    LaneResult,
    glared_share,
    lane_results,
    read_board,
    read_spaces,
)
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.decode import decode_scaled
from scorer.vision.errors import BoardNotFound, BoardOutOfFrame, ImageRejected
from scorer.vision.geometry import art_to_photo, diagonal, is_convex_quad, project
from scorer.vision.locate import (
    ContentScore,
    Located,
    blurred_lab,
    locate,
    polish,
    resize_long,
)
from scorer.vision.locate.cut import outside_edges
from scorer.vision.model import Mlp
from scorer.vision.sample import space_axes, space_table
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
    # the lanes with a printed space outside the photo (read doubtful or not at all), and the
    # cities outside it (no station read there)
    unseen: tuple[str, ...] = ()
    unseen_cities: tuple[str, ...] = ()
    # the share of the map's spaces under a glare spot's white veil (``classify.glared_share``);
    # over ``config.glare_photo_share`` the photo is a glared one, where lanes are asked more and
    # pieces washed out may still read empty (the review says so: ``web.scan_photos.glared``)
    glare: float = 0.0
    # the lanes with a space a glare spot burnt out to white (``classify.read_board``): read as
    # a lane outside the photo is, and the review says so too
    burnt: tuple[str, ...] = ()

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


def refuse_other_boards(board: Board) -> None:
    """ImageRejected for a board the detector was never trained on (``PHOTO_BOARDS``): its
    reading would be wrong, and nothing would say so."""
    if board.name in PHOTO_BOARDS:
        return
    *head, last = [load_board(name).title for name in PHOTO_BOARDS]
    boards = " and ".join([", ".join(head), last]) if head else last
    raise ImageRejected(Message("The photo reads the {boards} boards only, not {board}.",
                                {"boards": boards, "board": board.title}))


def detect(
    data: bytes, board: Board, colors: Sequence[str] | None = None,
    corners: Sequence[Sequence[float]] | None = None, config: VisionConfig = DEFAULT,
    model: Mlp | None = None,
) -> Detection:
    """Read every lane (and Europe station) of ``board`` from a photo's bytes.

    ``model`` replaces the shipped space classifier (the benchmark's leave-one-out runs).
    """
    start = time.perf_counter()
    refuse_other_boards(board)
    wanted = parse_colors(colors)
    given = parse_corners(corners) if corners is not None else None
    image, scale = decode_scaled(data, config.work_long_side, config)
    check_exposure(image, config)
    height, width = image.shape[:2]
    if given is None:
        found = locate(image, board, config)
        if missing_edges(found, board, width, height):
            # the players take another photo, or place the corners beyond this one
            raise BoardOutOfFrame(found.outside, found.corners / scale,
                                  (round(width / scale), round(height / scale)))
        work_corners, confidence, art_corners = found.corners, found.confidence, found.art_corners
    else:
        work_corners, confidence = given * scale, 1.0
        art_corners = fit_art_frame(image, board, work_corners, config)
    with_stations = board_has_stations(board.name)
    reading = read_board(image, board, art_corners, config, stations=with_stations)
    lab, veil, burnt, light = reading.lab, reading.veil, reading.burnt, reading.light
    check_sharpness(lab, config)
    spaces = read_spaces(lab, board, wanted, config, model)
    probs = spaces.probs
    seen = seen_spaces(board, art_corners, width, height)
    # a space a glare spot burnt out to white is as unseen as one outside the photo
    routes = unseen_lanes_doubtful(lane_results(probs, board, config, veil, light,
                                                spaces.beside),
                                   board, seen & ~burnt, config, reading.rim)
    lanes, _, owner_of = space_table(board)
    unseen = tuple(sorted({lanes[i].id for i in owner_of[~seen]}))
    shown = cities_in_photo(board, art_corners, width, height)
    stations = (tuple(s for s in find_stations(reading.station_lab, probs, board, wanted, config)
                      if s.city in shown)
                if with_stations else ())
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
        unseen=unseen,
        unseen_cities=tuple(sorted(set(board.cities) - shown)),
        glare=glared_share(np.where(burnt, 1.0, veil), config),
        burnt=tuple(sorted({lanes[i].id for i in owner_of[burnt]})),
    )


def missing_edges(found: Located, board: Board, width: int, height: int) -> tuple[str, ...]:
    """The photo's edges the board ``found`` in a ``width`` x ``height`` photo reaches beyond,
    when that hides printed spaces (a board cut no further than its border shows every
    lane: nothing is missing then)."""
    if not found.outside or seen_spaces(board, found.art_corners, width, height).all():
        return ()
    return found.outside


def seen_spaces(board: Board, art_corners: np.ndarray, width: int, height: int) -> np.ndarray:
    """Whether each printed space (``space_table`` order) lies wholly in the ``width`` x
    ``height`` photo, both its ends, for the board at ``art_corners``: beyond its edges the
    rectified board holds the photo's edge pixels drawn out, not the lane."""
    _, spaces, _ = space_table(board)
    along, _ = space_axes(board)
    h = art_to_photo(board, art_corners)
    seen = np.ones(len(spaces), dtype=bool)
    for end in (-0.5, 0.5):
        p = project(h, spaces[:, :2] + end * SPACE_SIZE[0] * along)
        seen &= (p[:, 0] >= 0) & (p[:, 0] <= width - 1) & (p[:, 1] >= 0) & (p[:, 1] <= height - 1)
    return seen


def unseen_lanes_doubtful(routes: Sequence[LaneResult], board: Board, seen: np.ndarray,
                          config: VisionConfig, unsure: np.ndarray | None = None,
                          ) -> tuple[LaneResult, ...]:
    """``routes`` with the lanes the photo does not show whole made doubtful (the review
    asks them): one with a space outside the photo is read at most
    ``config.unseen_confidence`` surely, one with half of its spaces or more outside is not
    read at all (no owner, confidence 0). A lane with a space in ``unsure`` (shown, but not
    to be trusted: the rim of a burnt-out glare spot, ``BoardReading.rim``) is read at most
    as surely, its reading kept."""
    unsure = np.zeros_like(seen) if unsure is None else unsure
    if seen.all() and not unsure.any():
        return tuple(routes)
    lanes, _, owner_of = space_table(board)
    unseen = np.bincount(owner_of, ~seen, len(lanes)) / np.bincount(owner_of, minlength=len(lanes))
    share = {lane.id: float(u) for lane, u in zip(lanes, unseen, strict=True)}
    doubted = {lanes[i].id for i in owner_of[unsure]}
    out = []
    for lane in routes:
        part = share.get(lane.route, 0.0)
        if part >= 0.5:
            lane = replace(lane, owner=None, confidence=0.0, likely="empty", second="empty")
        elif part > 0 or lane.route in doubted:
            lane = replace(lane, confidence=min(lane.confidence, config.unseen_confidence))
        out.append(lane)
    return tuple(out)


def cities_in_photo(board: Board, art_corners: np.ndarray, width: int, height: int,
                    ) -> set[str]:
    """The cities the board at ``art_corners`` puts in the ``width`` x ``height`` photo
    (beyond its edges no station is read)."""
    names = list(board.cities)
    p = project(art_to_photo(board, art_corners),
                np.array([[board.cities[n].x, board.cities[n].y] for n in names]))
    inside = (p[:, 0] >= 0) & (p[:, 0] <= width - 1) & (p[:, 1] >= 0) & (p[:, 1] <= height - 1)
    return {n for n, i in zip(names, inside, strict=True) if i}


def fit_art_frame(image: np.ndarray, board: Board, corners: np.ndarray,
                  config: VisionConfig) -> np.ndarray:
    """Given corners, nudge the frame a few mm so the printed spaces sit on the photo's (on
    the part in the photo when they reach beyond it)."""
    small, scale = resize_long(image, config.locate_long_side)
    height, width = image.shape[:2]
    beyond = bool(outside_edges(corners, width, height, 0.0))
    score = ContentScore(blurred_lab(small), board, config, beyond)
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
