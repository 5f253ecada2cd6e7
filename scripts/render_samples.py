"""Render synthetic photos of Ticket to Ride boards with known claims, for the detector.

Everything is drawn here from the board data (no publisher artwork): a map-like board
with a score-track border, city circles and names, every printed train space in its
colour (Europe tunnels and ferries marked), plastic trains as shaded 3-D blocks with
soft shadows on the claimed spaces, Europe stations, then a photo of it: a textured
table with clutter, a perspective phone camera (up to ~35 degrees off vertical, any
rotation), uneven light, colour cast, glare, blur, noise and JPEG artefacts.

Each photo comes with ground truth in the dev-photo label format (``photo``, ``map``,
``corners`` = the four outer board corners in photo pixels, top-left, top-right,
bottom-right, bottom-left of the upright board, ``routes``, ``spaces``) plus
``stations``, ``players``, ``doubtful`` (half-covered lanes: pieces on only some
spaces, route value null) and ``features`` (what makes the photo hard).

Regenerate the committed set (12 photos, 6 per board)::

    .venv/bin/python scripts/render_samples.py --out sample_photos --seed 2026

Render one photo::

    .venv/bin/python scripts/render_samples.py --out /tmp/photos --seed 7 \\
        --board europe --size 1600x1200 --name try
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorer.boards import Board, Route, load_board  # noqa: E402
from scorer.rules import EUROPE, PIECE_COLORS, USA  # noqa: E402

BOARD_W_CM, BOARD_H_CM = load_board("usa").size_cm  # both boards are printed this size

# RGB tones, 0..255, picked from the real dev photos (printed spaces and plastic pieces).
PRINTED_RGB = {
    "red": (196, 62, 38),
    "blue": (52, 112, 172),
    "green": (132, 160, 42),
    "yellow": (243, 212, 74),
    "black": (52, 48, 46),
    "white": (228, 220, 200),
    "orange": (221, 124, 36),
    "pink": (204, 118, 152),
    "gray": (178, 176, 170),
}
PIECE_RGB = {
    "red": (176, 38, 30),
    "blue": (18, 86, 156),
    "green": (32, 100, 62),
    "yellow": (236, 198, 28),
    "black": (34, 34, 36),
}

# A printed space with its light rim, art px (SPACE_SIZE is the coloured field); lanes
# of a double are 22.6 px apart, so a train's footprint is a little narrower than that.
SPACE_LEN, SPACE_WID = 58.0, 19.0
TRAIN_LEN, TRAIN_WID, TRAIN_H_CM = 60.0, 21.0, 0.75  # plastic train footprint (art px), height
STATION_LEN, STATION_WID, STATION_H_CM = 27.0, 21.0, 1.1


# ---------------------------------------------------------------------------- the game

@dataclass
class Scene:
    """What is on the table: the board, its pieces, and how the photo is taken."""

    board: Board
    players: list[str]
    claims: dict[str, str]  # route id -> piece colour (fully claimed lanes)
    partial: dict[str, list[str | None]]  # half-covered lanes: colour or None per space
    stations: list[tuple[str, str]]  # (city, owner colour)
    width: int
    height: int
    seed: int
    table: str = "wood"
    tilt_deg: float = 15.0
    roll_deg: float = 0.0
    fill: float = 0.85
    glare: int = 1
    blur: float = 0.8
    noise: float = 0.012
    cast: str = "neutral"
    # harder photos (the stress set); the defaults leave the committed samples unchanged
    lens: float = 0.78  # focal length / long side: smaller is wider, stronger perspective
    exposure: float = 1.0  # below 1: a dim room
    clutter: int | None = None  # objects on the table (None: 2 to 5)
    over: int = 0  # hands and cards lying over the board's edge
    features: list[str] = field(default_factory=list)


def _weights(board: Board, routes: list[Route], color: str, hard: bool) -> np.ndarray:
    """Players favour routes printed in their colour (cards match): gives the hard cases."""
    w = []
    for r in routes:
        x = 1.0
        if hard and (r.color == color or (color == "yellow" and r.color == "orange")):
            x = 5.0
        w.append(x * (1.0 + 0.15 * r.length))
    a = np.array(w)
    return a / a.sum()


def plan_game(
    board: Board, rng: np.random.Generator, colors: list[str], hard: bool = True,
    half_covered: int = 1,
) -> tuple[dict[str, str], dict[str, list[str | None]], list[tuple[str, str]]]:
    """A plausible end position: each colour a connected-ish network of up to 45 trains."""
    variant = USA if board.name == "usa" else EUROPE
    doubles_open = variant.doubles_open(len(colors))
    claims: dict[str, str] = {}
    left = {c: int(rng.integers(24, variant.trains + 1)) for c in colors}
    cities: dict[str, set[str]] = {c: set() for c in colors}
    active = list(colors)
    while active:
        for color in list(active):
            free = []
            for r in board.routes.values():
                if r.id in claims or r.length > left[color]:
                    continue
                sib = [claims.get(s.id) for s in board.siblings(r)]
                if any(sib) and (not doubles_open or color in sib):
                    continue
                free.append(r)
            if not free:
                active.remove(color)
                continue
            near = [r for r in free if r.a in cities[color] or r.b in cities[color]]
            pool = near if near and rng.random() < 0.85 else free
            r = pool[rng.choice(len(pool), p=_weights(board, pool, color, hard))]
            claims[r.id] = color
            cities[color] |= {r.a, r.b}
            left[color] -= r.length
            if left[color] < 1 or (left[color] < 6 and rng.random() < 0.5):
                active.remove(color)
    partial: dict[str, list[str | None]] = {}
    spare = [r for r in board.routes.values() if r.id not in claims and r.length >= 2]
    for i in rng.permutation(len(spare))[:half_covered]:
        r = spare[i]
        color = colors[int(rng.integers(len(colors)))]
        n = int(rng.integers(1, r.length))
        if rng.random() < 0.6:  # pieces pushed from one end
            covered = set(range(n)) if rng.random() < 0.5 else set(range(r.length - n, r.length))
        else:
            covered = {int(k) for k in rng.choice(r.length, size=n, replace=False)}
        partial[r.id] = [color if k in covered else None for k in range(r.length)]
    stations: list[tuple[str, str]] = []
    if variant.stations:
        names = sorted(board.cities)
        used: set[str] = set()
        for color in colors:
            for _ in range(int(rng.integers(0, variant.stations + 1))):
                city = names[int(rng.integers(len(names)))]
                if city not in used:
                    used.add(city)
                    stations.append((city, color))
    return claims, partial, stations


def ground_truth(scene: Scene, photo: str, corners: np.ndarray) -> dict[str, Any]:
    """The label file: same format as the dev photo labels, plus stations/players/doubtful."""
    board = scene.board
    routes: dict[str, str | None] = {}
    spaces: dict[str, list[str | None]] = {}
    for rid, r in board.routes.items():
        owner = scene.claims.get(rid)
        routes[rid] = owner
        spaces[rid] = list(scene.partial.get(rid, [owner] * r.length))
    return {
        "photo": photo,
        "map": board.name,
        "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in corners],
        "routes": routes,
        "spaces": spaces,
        "stations": [{"city": c, "owner": o} for c, o in scene.stations],
        "players": list(scene.players),
        "doubtful": sorted(scene.partial),
        "features": list(scene.features),
    }


# ---------------------------------------------------------------------------- camera

@dataclass(frozen=True)
class Camera:
    K: np.ndarray
    R: np.ndarray  # rows: image right, image down, forward
    C: np.ndarray  # centre in board cm, z up towards the camera

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points (N, 3) in cm to image pixels (N, 2)."""
        cam = (pts - self.C) @ self.R.T
        uv = cam @ self.K.T
        return uv[:, :2] / uv[:, 2:3]

    def plane_homography(self) -> np.ndarray:
        """Board plane (x, y cm, z = 0) to image pixels."""
        t = -self.R @ self.C
        return self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], t])


def make_camera(scene: Scene, rng: np.random.Generator) -> Camera:
    """A phone camera looking at the board from tilt_deg off vertical, rolled by roll_deg."""
    w, h = scene.width, scene.height
    f = scene.lens * max(w, h)
    theta = math.radians(scene.tilt_deg)
    phi = rng.uniform(0, 2 * math.pi)
    psi = math.radians(scene.roll_deg)
    target = np.array([BOARD_W_CM / 2, BOARD_H_CM / 2, 0.0])
    up = np.array([math.sin(theta) * math.cos(phi), math.sin(theta) * math.sin(phi),
                   math.cos(theta)])
    fwd = -up
    down0 = np.array([-math.sin(psi), math.cos(psi), 0.0])
    down = down0 - (down0 @ fwd) * fwd
    down /= np.linalg.norm(down)
    right = np.cross(fwd, down)
    R = np.vstack([right, down, fwd])
    corners = np.array([[0, 0, 0], [BOARD_W_CM, 0, 0], [BOARD_W_CM, BOARD_H_CM, 0],
                        [0, BOARD_H_CM, 0]], float)

    def camera(dist: float, cx: float, cy: float) -> Camera:
        K = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
        return Camera(K, R, target + dist * up)

    lo, hi = 20.0, 2000.0
    for _ in range(60):  # the distance at which the board spans `fill` of the frame
        mid = (lo + hi) / 2
        p = camera(mid, 0, 0).project(corners)
        span = max((p[:, 0].max() - p[:, 0].min()) / w, (p[:, 1].max() - p[:, 1].min()) / h)
        lo, hi = (mid, hi) if span > scene.fill else (lo, mid)
    p = camera(hi, 0, 0).project(corners)
    mx = w - (p[:, 0].max() - p[:, 0].min())
    my = h - (p[:, 1].max() - p[:, 1].min())
    cx = -p[:, 0].min() + mx * rng.uniform(0.3, 0.7)
    cy = -p[:, 1].min() + my * rng.uniform(0.3, 0.7)
    return camera(hi, cx, cy)


# ---------------------------------------------------------------------------- drawing helpers

def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    """Low-frequency noise in [-1, 1] of the given shape, about `cells` blobs across."""
    h, w = shape
    gh, gw = max(2, round(cells * h / max(h, w))) + 1, max(2, round(cells * w / max(h, w))) + 1
    small = rng.uniform(-1, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(-1, 1)


def rounded_rect(cx: float, cy: float, length: float, width: float, angle_deg: float,
                 radius: float) -> np.ndarray:
    """Polygon (N, 2) of a rounded rectangle centred at (cx, cy), long side along angle."""
    hl, hw = length / 2, width / 2
    r = min(radius, hw, hl)
    pts = []
    for (sx, sy), start in (((1, 1), 0), ((-1, 1), 90), ((-1, -1), 180), ((1, -1), 270)):
        ox, oy = sx * (hl - r), sy * (hw - r)
        for t in np.linspace(start, start + 90, 5):
            pts.append((ox + r * math.cos(math.radians(t)), oy + r * math.sin(math.radians(t))))
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return np.array(pts) @ rot.T + (cx, cy)


def fill(img: np.ndarray, poly: np.ndarray, color: Any) -> None:
    cv2.fillPoly(img, [np.round(poly * 16).astype(np.int32)], color, cv2.LINE_AA, shift=4)


def outline(img: np.ndarray, poly: np.ndarray, color: Any, thick: int) -> None:
    cv2.polylines(img, [np.round(poly * 16).astype(np.int32)], True, color, max(1, thick),
                  cv2.LINE_AA, shift=4)


def ascii_name(name: str) -> str:
    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().upper()


def bgr(rgb: tuple[int, int, int], k: float = 1.0) -> tuple[float, float, float]:
    return tuple(float(min(255, c * k)) for c in rgb[::-1])  # type: ignore[return-value]


# ---------------------------------------------------------------------------- the board

def render_board(scene: Scene, cam: Camera, scale: float, rng: np.random.Generator
                 ) -> np.ndarray:
    """The board seen straight down at `scale` px/cm, pieces drawn with the camera's parallax."""
    board = scene.board
    bf = board.board_frame
    W, H = round(BOARD_W_CM * scale), round(BOARD_H_CM * scale)
    k = bf["ax"] * scale  # texture px per art px

    def art(x: float, y: float) -> tuple[float, float]:
        return (bf["ax"] * x + bf["bx"]) * scale, (bf["ay"] * y + bf["by"]) * scale

    # border with the score track; drawing happens on uint8 (OpenCV's text and anti-aliasing)
    img = (np.array(bgr((112, 42, 26)), np.float32)
           + smooth_noise(rng, (H, W), 40)[..., None] * 10).clip(0, 255).astype(np.uint8)
    x0, y0 = art(0, 0)
    x1, y1 = art(board.art_frame["width"], board.art_frame["height"])
    _score_track(img, x0, y0, x1, y1, W, H, scale)
    # map area: paper, land and sea
    mh, mw = round(y1 - y0), round(x1 - x0)
    land = np.zeros((mh, mw), np.float32)
    for c in board.cities.values():
        cx, cy = art(c.x, c.y)
        cv2.circle(land, (round(cx - x0), round(cy - y0)), round(150 * k), 1.0, -1)
    land = cv2.GaussianBlur(land, (0, 0), 40 * k) + 0.35 * smooth_noise(rng, (mh, mw), 14)
    land = ((land > 0.45).astype(np.float32))
    land = cv2.GaussianBlur(land, (0, 0), 1.5 * k)
    paper = np.array(bgr((200, 198, 190)), np.float32)
    sea = np.array(bgr((166, 182, 190)), np.float32)
    area = land[..., None] * paper + (1 - land[..., None]) * sea
    # mottled relief print: fine bright/dark speckle, stronger in "mountain" blobs
    hills = (smooth_noise(rng, (mh, mw), 10) > 0.2).astype(np.float32)
    hills = cv2.GaussianBlur(hills, (0, 0), 20 * k)
    grain = (smooth_noise(rng, (mh, mw), 400) * (8 + 14 * hills) + smooth_noise(rng, (mh, mw), 25)
             * 8 + smooth_noise(rng, (mh, mw), 150) * 10 * hills)
    area += grain[..., None] + rng.normal(0, 3, (mh, mw, 1)).astype(np.float32)
    relief = (np.abs(smooth_noise(rng, (mh, mw), 70)) < 0.04) * (smooth_noise(rng, (mh, mw), 6) > 0)
    area -= (cv2.GaussianBlur(relief.astype(np.float32), (0, 0), 0.6 * k) * 28)[..., None]
    coast = np.abs(cv2.Laplacian(land, cv2.CV_32F, ksize=3))
    area -= (cv2.GaussianBlur(coast, (0, 0), 1.2 * k) * 400).clip(0, 70)[..., None]
    for _ in range(int(rng.integers(18, 30))):  # rivers
        pts = np.cumsum(rng.normal(0, 18 * k, (12, 2)), 0) + rng.uniform((0, 0), (mw, mh))
        cv2.polylines(area, [pts.astype(np.int32)], False, bgr((150, 146, 138)),
                      max(1, round(1.2 * k)), cv2.LINE_AA)
    for _ in range(int(rng.integers(14, 24))):  # state borders: long, nearly straight
        start = rng.uniform((0, 0), (mw, mh))
        heading = rng.uniform(0, 2 * math.pi)
        steps = [(math.cos(heading + rng.normal(0, 0.15)), math.sin(heading + rng.normal(0, 0.15)))
                 for _ in range(int(rng.integers(2, 6)))]
        pts = start + np.cumsum(np.array(steps) * rng.uniform(60, 200) * k, 0)
        pts = np.vstack([start, pts])
        cv2.polylines(area, [pts.astype(np.int32)], False, bgr((112, 110, 106)),
                      max(1, round(1.0 * k)), cv2.LINE_AA)
    img[round(y0):round(y0) + mh, round(x0):round(x0) + mw] = area.clip(0, 255)
    cv2.rectangle(img, (round(x0), round(y0)), (round(x1), round(y1)), bgr((70, 40, 25)),
                  max(1, round(3 * k)), cv2.LINE_AA)
    # printed train spaces
    for r in board.routes.values():
        for i, sp in enumerate(r.spaces):
            cx, cy = art(sp.x, sp.y)
            poly = rounded_rect(cx, cy, SPACE_LEN * k, SPACE_WID * k, sp.angle, 3 * k)
            base = PRINTED_RGB[r.color]
            fill(img, poly, bgr((226, 222, 212)))
            outline(img, poly, bgr((70, 62, 56)), round(0.7 * k))
            field_ = rounded_rect(cx, cy, (SPACE_LEN - 4) * k, (SPACE_WID - 4) * k, sp.angle,
                                  2 * k)
            fill(img, field_, bgr(base, 1 + 0.04 * rng.standard_normal()))
            cv2.circle(img, (round(cx), round(cy)), max(1, round(3.5 * k)), bgr(base, 1.2),
                       max(1, round(1.1 * k)), cv2.LINE_AA)
            if r.tunnel:
                _tunnel_marks(img, cx, cy, sp.angle, k)
            if i < r.ferry_locomotives:
                _locomotive(img, cx, cy, sp.angle, k)
    # cities
    for c in board.cities.values():
        cx, cy = art(c.x, c.y)
        cv2.circle(img, (round(cx), round(cy)), round(12 * k), bgr((236, 224, 196)), -1,
                   cv2.LINE_AA)
        cv2.circle(img, (round(cx), round(cy)), round(8.5 * k), bgr((160, 62, 34)), -1,
                   cv2.LINE_AA)
        cv2.circle(img, (round(cx - 1 * k), round(cy - 1 * k)), round(5.5 * k),
                   bgr((205, 95, 45)), -1, cv2.LINE_AA)
        cv2.circle(img, (round(cx), round(cy)), round(8.5 * k), bgr((90, 40, 20)),
                   max(1, round(1.5 * k)), cv2.LINE_AA)
        cv2.circle(img, (round(cx - 3 * k), round(cy - 3 * k)), max(1, round(2.5 * k)),
                   bgr((250, 200, 150)), -1, cv2.LINE_AA)
    _city_names(img, board, art, k)
    _pieces(img, scene, cam, scale, art, k, rng)
    return img


def _score_track(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, W: int, H: int,
                 scale: float) -> None:
    """Numbered boxes 0-99 around the map, as on the real board."""
    def box(cx: float, cy: float, w: float, h: float, n: int) -> None:
        cv2.rectangle(img, (round(cx - w / 2), round(cy - h / 2)),
                      (round(cx + w / 2), round(cy + h / 2)), bgr((150, 48, 36)), -1)
        cv2.rectangle(img, (round(cx - w / 2), round(cy - h / 2)),
                      (round(cx + w / 2), round(cy + h / 2)), bgr((226, 190, 150)),
                      max(1, round(0.05 * scale)), cv2.LINE_AA)
        text = str(n)
        fs = 0.6 * min(w, h) / 22
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_COMPLEX, fs, 1)
        color = bgr((236, 200, 80)) if n % 5 == 0 else bgr((240, 230, 210))
        cv2.putText(img, text, (round(cx - tw / 2), round(cy + th / 2)),
                    cv2.FONT_HERSHEY_COMPLEX, fs, color, max(1, round(fs * 1.6)), cv2.LINE_AA)

    bw_top, bw_side = y0 * 0.82, x0 * 0.82
    cw = (W - 2 * x0) / 29
    for i in range(29):
        box(x0 + cw * (i + 0.5), y0 / 2, cw * 0.9, bw_top, 21 + i)
        box(W - x0 - cw * (i + 0.5), H - (H - y1) / 2, cw * 0.9, bw_top, 71 + i)
    ch = (H - 2 * y0) / 19
    for i in range(19):
        box(W - (W - x1) / 2, y0 + ch * (i + 0.5), bw_side, ch * 0.9, 51 + i)
        box(x0 / 2, H - y0 - ch * (i + 0.5), bw_side, ch * 0.9, 1 + i)
    for (cx, cy), n in zip(((x0 / 2, y0 / 2), (W - x0 / 2, y0 / 2), (W - x0 / 2, H - y0 / 2),
                            (x0 / 2, H - y0 / 2)), (20, 50, 70, 0), strict=True):
        cv2.circle(img, (round(cx), round(cy)), round(x0 * 0.42), bgr((200, 210, 214)), -1,
                   cv2.LINE_AA)
        fs = x0 * 0.35 / 22
        (tw, th), _ = cv2.getTextSize(str(n), cv2.FONT_HERSHEY_COMPLEX, fs, 1)
        cv2.putText(img, str(n), (round(cx - tw / 2), round(cy + th / 2)),
                    cv2.FONT_HERSHEY_COMPLEX, fs, bgr((120, 40, 30)), max(1, round(fs * 1.6)),
                    cv2.LINE_AA)


def _tunnel_marks(img: np.ndarray, cx: float, cy: float, angle: float, k: float) -> None:
    """Europe tunnels: dark bars along both long edges of the space."""
    a = math.radians(angle)
    u, n = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    for side in (-1, 1):
        for t in np.linspace(-20, 20, 5):
            p = np.array([cx, cy]) + u * t * k + n * side * (SPACE_WID / 2 + 1) * k
            q = p + n * side * 4 * k
            cv2.line(img, tuple(np.round(p).astype(int)), tuple(np.round(q).astype(int)),
                     bgr((25, 22, 20)), max(1, round(2.5 * k)), cv2.LINE_AA)


def _locomotive(img: np.ndarray, cx: float, cy: float, angle: float, k: float) -> None:
    """Europe ferries: a locomotive mark inside the space."""
    fill(img, rounded_rect(cx, cy, 26 * k, 11 * k, angle, 2 * k), bgr((245, 245, 240)))
    fill(img, rounded_rect(cx, cy, 18 * k, 6 * k, angle, 1 * k), bgr((30, 30, 30)))
    a = math.radians(angle)
    for t in (-7, 0, 7):
        p = (cx + math.cos(a) * t * k, cy + math.sin(a) * t * k)
        cv2.circle(img, (round(p[0]), round(p[1])), max(1, round(1.6 * k)), bgr((245, 245, 240)),
                   -1, cv2.LINE_AA)


def _city_names(img: np.ndarray, board: Board, art: Any, k: float) -> None:
    """Names next to their city, on the side where they cover the fewest train spaces."""
    centres = np.array([art(sp.x, sp.y) for r in board.routes.values() for sp in r.spaces])
    fs = 13 * k / 22
    th_ = max(1, round(1.6 * k))
    for c in board.cities.values():
        text = ascii_name(c.name)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_COMPLEX, fs, th_)
        cx, cy = art(c.x, c.y)
        best = None
        for dx, dy in ((-tw / 2, 26 * k + th), (-tw / 2, -18 * k), (14 * k, th / 2),
                       (-14 * k - tw, th / 2), (8 * k, 22 * k + th), (-tw - 8 * k, -14 * k)):
            ox, oy = cx + dx, cy + dy
            mid = np.array([ox + tw / 2, oy - th / 2])
            d = np.abs(centres - mid)
            hits = np.sum((d[:, 0] < tw / 2 + 12 * k) & (d[:, 1] < th / 2 + 8 * k))
            if best is None or hits < best[0]:
                best = (hits, ox, oy)
        _, ox, oy = best  # type: ignore[misc]
        org = (round(ox), round(oy))
        cv2.putText(img, text, org, cv2.FONT_HERSHEY_COMPLEX, fs, bgr((238, 232, 214)),
                    th_ + max(2, round(3 * k)), cv2.LINE_AA)
        cv2.putText(img, text, org, cv2.FONT_HERSHEY_COMPLEX, fs, bgr((62, 40, 28)), th_,
                    cv2.LINE_AA)


def _pieces(img: np.ndarray, scene: Scene, cam: Camera, scale: float, art: Any, k: float,
            rng: np.random.Generator) -> None:
    """Trains and stations as 3-D blocks: shadows first, then bodies far-to-near."""
    board = scene.board
    items: list[tuple[float, float, float, float, float, float, str]] = []
    spaces: dict[str, list[str | None]] = {rid: [c] * board.routes[rid].length
                                           for rid, c in scene.claims.items()}
    spaces.update(scene.partial)
    for rid, cols in spaces.items():
        for sp, color in zip(board.routes[rid].spaces, cols, strict=True):
            if color is None:
                continue
            sloppy = rng.random() < 0.06  # now and then a piece sits well off its space
            jit = rng.normal(0, 5.0 if sloppy else 1.8, 2)
            cx, cy = art(sp.x + jit[0], sp.y + jit[1])
            ang = sp.angle + rng.normal(0, 8.0 if sloppy else 3.0)
            items.append((cx, cy, ang, TRAIN_LEN * k, TRAIN_WID * k, TRAIN_H_CM * scale, color))
    for city, color in scene.stations:
        c = board.cities[city]
        cx, cy = art(c.x + rng.normal(0, 2), c.y + rng.normal(0, 2))
        items.append((cx, cy, rng.uniform(0, 180), STATION_LEN * k, STATION_WID * k,
                      STATION_H_CM * scale, color))
    cam_xy = cam.C[:2] * scale
    cam_z = cam.C[2] * scale
    light_az = rng.uniform(0, 2 * math.pi)
    light = np.array([math.cos(light_az), math.sin(light_az)])
    shadow_len = math.tan(math.radians(rng.uniform(10, 35)))  # lamps are mostly overhead
    H, W = img.shape[:2]
    shade = np.zeros((H, W), np.float32)
    occl = np.zeros((H, W), np.float32)
    for cx, cy, ang, ln, wd, h, _ in items:
        foot = rounded_rect(cx, cy, ln, wd, ang, 2 * k)
        cast = foot + light * h * shadow_len
        fill(shade, cv2.convexHull(np.vstack([foot, cast]).astype(np.float32))[:, 0], 1.0)
        fill(occl, rounded_rect(cx, cy, ln + 4 * k, wd + 4 * k, ang, 4 * k), 1.0)
    shade = cv2.GaussianBlur(shade, (0, 0), 0.12 * scale)
    occl = cv2.GaussianBlur(occl, (0, 0), 0.06 * scale)
    img[:] = (img * (1 - 0.3 * shade - 0.15 * occl)[..., None]).clip(0, 255)
    items.sort(key=lambda it: -math.hypot(it[0] - cam_xy[0], it[1] - cam_xy[1]))
    for cx, cy, ang, ln, wd, h, color in items:
        _block(img, cx, cy, ang, ln, wd, h, PIECE_RGB[color], cam_xy, cam_z, light, k,
               station=ln < TRAIN_LEN * k * 0.6)


def _block(img: np.ndarray, cx: float, cy: float, ang: float, ln: float, wd: float, h: float,
           rgb: tuple[int, int, int], cam_xy: np.ndarray, cam_z: float, light: np.ndarray,
           k: float, station: bool) -> None:
    """One plastic piece: visible side faces and the top, projected onto the board plane."""
    def lift(pts: np.ndarray, z: float) -> np.ndarray:
        return pts + (pts - cam_xy) * z / (cam_z - z)

    a = math.radians(ang)
    u, n = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    c = np.array([cx, cy])
    hl, hw = ln / 2, wd / 2
    base = np.array([c + u * hl + n * hw, c - u * hl + n * hw, c - u * hl - n * hw,
                     c + u * hl - n * hw])
    inset = 0.12 * wd
    top_flat = np.array([c + u * (hl - inset) + n * (hw - inset),
                         c - u * (hl - inset) + n * (hw - inset),
                         c - u * (hl - inset) - n * (hw - inset),
                         c + u * (hl - inset) - n * (hw - inset)])
    top = lift(top_flat, h)
    mid = lift(base, h * 0.75)
    dark = bgr(rgb, 0.45)
    fill(img, cv2.convexHull(np.vstack([base, top]).astype(np.float32))[:, 0], dark)
    normals = [n, -u, -n, u]
    for i in range(4):
        j = (i + 1) % 4
        nrm = normals[i]
        edge_mid = (base[i] + base[j]) / 2
        if (cam_xy - edge_mid) @ nrm <= 0:
            continue
        lit = 0.55 + 0.3 * max(0.0, float(-nrm @ light))
        fill(img, np.array([base[i], base[j], mid[j], mid[i]]), bgr(rgb, lit))
        fill(img, np.array([mid[i], mid[j], top[j], top[i]]), bgr(rgb, lit + 0.15))
    fill(img, top, bgr(rgb, 1.0))
    c_top = top.mean(0)
    roof = c_top + (top - c_top) * 0.92
    roof = roof + ((top[0] + top[1]) / 2 - (top[2] + top[3]) / 2) * np.array(
        [[-0.2], [-0.2], [0.2], [0.2]])
    fill(img, roof, bgr(rgb, 1.12))
    # a glossy highlight along the lit edge of the top, and the grooves between wagons
    hi = max(range(4), key=lambda i: float(-normals[i] @ light))
    j = (hi + 1) % 4
    gloss = 90 if sum(rgb) < 200 else 45
    cv2.line(img, tuple(np.round(top[hi] * 0.85 + top[j] * 0.15).astype(int)),
             tuple(np.round(top[hi] * 0.15 + top[j] * 0.85).astype(int)),
             tuple(min(255.0, v + gloss) for v in bgr(rgb)), max(1, round(2 * k)), cv2.LINE_AA)
    if not station:
        for t in (-1 / 6, 1 / 6):
            p = (top[0] + top[3]) / 2 * (0.5 + t) + (top[1] + top[2]) / 2 * (0.5 - t)
            across = (top[0] - top[3]) / 2 * 0.9
            cv2.line(img, tuple(np.round(p - across).astype(int)),
                     tuple(np.round(p + across).astype(int)),
                     bgr(rgb, 0.6), max(1, round(1.2 * k)), cv2.LINE_AA)
    else:  # station roof ridge
        ridge = (top[0] + top[3]) / 2, (top[1] + top[2]) / 2
        cv2.line(img, tuple(np.round(ridge[0]).astype(int)), tuple(np.round(ridge[1]).astype(int)),
                 bgr(rgb, 0.55), max(1, round(2 * k)), cv2.LINE_AA)


# ---------------------------------------------------------------------------- the table

def table_texture(kind: str, rng: np.random.Generator, xs: np.ndarray, ys: np.ndarray
                  ) -> np.ndarray:
    """A table surface sampled at world positions (cm), BGR float 0..255."""
    h, w = xs.shape
    n1 = smooth_noise(rng, (h, w), 8)
    n2 = smooth_noise(rng, (h, w), 60)
    if kind == "wood":
        base = np.array(bgr(tuple(int(v) for v in rng.integers((120, 72, 36), (175, 115, 70)))))
        ang = rng.uniform(0, math.pi)
        along = xs * math.cos(ang) + ys * math.sin(ang)
        across = -xs * math.sin(ang) + ys * math.cos(ang)
        warp = n1 * 4 + np.sin(along * 0.07) * 0.8
        grain = np.sin((across + warp) * 9.0) * 0.5 + np.sin((across + warp * 1.3) * 3.1) * 0.5
        width = rng.uniform(11, 16)
        plank = np.mod(across, width)
        tone = np.sin(np.floor(across / width) * 12.9898) * 0.08  # each plank its own shade
        tex = base * (1 + 0.07 * grain[..., None] + 0.06 * n2[..., None] + tone[..., None])
        tex *= np.where(plank < 0.18, 0.55, 1.0)[..., None]
    elif kind == "cloth":
        c1 = np.array(bgr(((190, 40, 40), (40, 70, 150), (40, 120, 70))[int(rng.integers(3))]))
        c2 = np.array(bgr((235, 232, 225)))
        sq = rng.uniform(2.5, 4.5)
        wx, wy = xs + n1 * 1.5, ys + n1 * 1.5
        a = (np.floor(wx / sq) % 2).astype(np.float32)
        b = (np.floor(wy / sq) % 2).astype(np.float32)
        mix = ((a + b) / 2)[..., None]  # gingham: full colour where both stripes cross
        tex = c2 * (1 - mix) + c1 * mix
        weave = np.sin(xs * 40) * np.sin(ys * 40)
        tex = tex * (1 + 0.05 * weave[..., None] + 0.06 * n2[..., None])
    elif kind == "speckled":
        tex = np.full((h, w, 3), 38.0) * (1 + 0.25 * n2[..., None])
        specks = (rng.random((h, w)) < 0.004).astype(np.float32)
        specks = cv2.GaussianBlur(specks, (0, 0), 0.8) * 600
        tex = tex + specks.clip(0, 150)[..., None]
    elif kind == "gingham":  # any colour, any check size, including the border's red-brown
        palette = ((150, 48, 36), (200, 50, 45), (30, 40, 90), (20, 20, 24), (40, 110, 60),
                   (230, 130, 30), (120, 60, 140), (196, 62, 38))
        c1 = np.array(bgr(palette[int(rng.integers(len(palette)))]))
        c2 = np.array(bgr(tuple(int(v) for v in rng.integers(215, 245, 3))))
        sq = rng.uniform(0.8, 6.0)
        ang = rng.uniform(0, math.pi / 2)
        u = xs * math.cos(ang) + ys * math.sin(ang) + n1 * 1.5
        v = -xs * math.sin(ang) + ys * math.cos(ang) + n1 * 1.5
        mix = (((np.floor(u / sq) % 2) + (np.floor(v / sq) % 2)) / 2)[..., None]
        tex = (c2 * (1 - mix) + c1 * mix) * (1 + 0.06 * n2[..., None])
    elif kind == "plaid":  # tartan: crossing stripes of several widths and colours
        tex = np.zeros((h, w, 3), np.float32) + np.array(bgr((60, 70, 60)))
        for _ in range(6):
            color = np.array(bgr(tuple(int(v) for v in rng.integers(20, 240, 3))))
            period, width = rng.uniform(6, 20), rng.uniform(0.4, 3.0)
            for coord in (xs, ys):
                band = (np.mod(coord + n1 * 0.8, period) < width).astype(np.float32)[..., None]
                tex = tex * (1 - 0.5 * band) + color * 0.5 * band
    elif kind == "busy":  # a printed cloth: many coloured shapes of many sizes
        tex = np.zeros((h, w, 3), np.float32) + np.array(
            bgr(tuple(int(v) for v in rng.integers(60, 230, 3))))
        for _ in range(int(h * w / 900)):
            x, y = float(rng.uniform(0, w)), float(rng.uniform(0, h))
            r = float(rng.uniform(4, 40))
            color = bgr(tuple(int(v) for v in rng.integers(0, 256, 3)))
            if rng.random() < 0.5:
                cv2.circle(tex, (round(x), round(y)), round(r), color, -1, cv2.LINE_AA)
            else:
                fill(tex, rounded_rect(x, y, 2 * r, r, rng.uniform(0, 180), r / 3), color)
    elif kind == "light":  # a white table, about as light as the board's paper
        tex = np.full((h, w, 3), 1.0, np.float32) * np.array(
            bgr(tuple(int(v) for v in rng.integers(205, 240, 3))))
        tex = tex * (1 + 0.03 * n2[..., None] + 0.03 * n1[..., None])
    elif kind == "marble":
        veins = np.abs(np.sin((xs + ys * 0.6) * 0.15 + n1 * 6 + n2 * 1.5))
        tex = np.full((h, w, 3), 225.0) * (1 - 0.35 * np.exp(-veins * 12))[..., None]
    else:  # felt
        base = np.array(bgr(((60, 90, 70), (95, 95, 100), (110, 60, 50))[int(rng.integers(3))]))
        tex = base * (1 + 0.08 * n2[..., None] + 0.05 * n1[..., None])
    tex = tex + rng.normal(0, 4, (h, w, 1))
    return tex.clip(0, 255).astype(np.uint8)


def draw_clutter(tex: np.ndarray, to_tex: Any, rng: np.random.Generator, count: int,
                 keep_out: tuple[float, float, float, float], extent: tuple[float, ...]
                 ) -> None:
    """Cards, a card box, a mug and a pencil on the table, never on the board."""
    kx0, ky0, kx1, ky1 = keep_out
    ex0, ey0, ex1, ey1 = extent
    shadow = np.zeros(tex.shape[:2], np.float32)
    layers: list[tuple[np.ndarray, tuple[float, float, float], str]] = []
    for _ in range(count * 12):
        if len(layers) >= count:
            break
        kind = ["card", "card", "card", "box", "mug", "pencil", "pad"][int(rng.integers(7))]
        size = {"card": (8.9, 5.7), "box": (30.0, 22.0), "mug": (9.0, 9.0),
                "pencil": (17.0, 0.8), "pad": (14.0, 20.0)}[kind]
        x, y = rng.uniform(ex0, ex1), rng.uniform(ey0, ey1)
        reach = max(size) / 2 + 1
        if kx0 - reach < x < kx1 + reach and ky0 - reach < y < ky1 + reach:
            continue
        ang = rng.uniform(0, 180)
        poly = rounded_rect(x, y, size[0], size[1], ang, 0.4 if kind != "mug" else 4.5)
        color = {"card": bgr(tuple(int(v) for v in rng.integers(40, 230, 3))),
                 "box": bgr((200, 160, 80)), "mug": bgr((230, 230, 225)),
                 "pencil": bgr((230, 190, 40)), "pad": bgr((245, 243, 236))}[kind]
        layers.append((to_tex(poly), color, kind))
    for poly, _, _ in layers:
        fill(shadow, poly + 4, 1.0)
    tex[:] = (tex * (1 - 0.35 * cv2.GaussianBlur(shadow, (0, 0), 3))[..., None]).clip(0, 255)
    for poly, color, kind in layers:
        fill(tex, poly, color)
        c = poly.mean(0)
        if kind == "card":
            fill(tex, c + (poly - c) * 0.8, tuple(v * 0.8 for v in color))
        elif kind == "mug":
            fill(tex, c + (poly - c) * 0.8, (40, 60, 90))
        elif kind == "pad":
            for t in np.linspace(-0.4, 0.4, 9):
                p = poly[0] * (0.5 + t) + poly[5] * (0.5 - t)
                q = poly[10] * (0.5 - t) + poly[15] * (0.5 + t)
                cv2.line(tex, tuple(np.round(p).astype(int)), tuple(np.round(q).astype(int)),
                         (200, 170, 150), 1, cv2.LINE_AA)
        elif kind == "box":
            fill(tex, c + (poly - c) * 0.85, (40, 90, 170))


SKIN = ((224, 172, 140), (198, 134, 96), (141, 85, 56), (240, 200, 170))  # RGB


def draw_over_edge(photo: np.ndarray, Hp: np.ndarray, rng: np.random.Generator, count: int
                   ) -> None:
    """Hands reaching over the board's edge and cards lying across it (never on a corner):
    the outline is hidden there, the corners must come from the rest of it."""
    for _ in range(count):
        side = int(rng.integers(4))
        t = rng.uniform(0.25, 0.75)
        a, b = ((0, 0), (BOARD_W_CM, 0), (BOARD_W_CM, BOARD_H_CM), (0, BOARD_H_CM),
                (0, 0))[side:side + 2]
        at = np.array(a) + t * (np.array(b) - np.array(a))
        inward = np.array([[0, 1], [-1, 0], [0, -1], [1, 0]][side], np.float64)
        along = np.array([inward[1], -inward[0]])
        parts: list[tuple[np.ndarray, tuple[float, float, float]]] = []
        if rng.random() < 0.5:  # a hand: fingers up to 4 cm onto the board, the arm outside
            color = bgr(SKIN[int(rng.integers(len(SKIN)))])
            reach = rng.uniform(1.0, 4.0)
            palm = at + inward * (reach - 9.0)
            angle = math.degrees(math.atan2(inward[1], inward[0]))
            parts.append((rounded_rect(*palm, 10.0, 9.0, angle, 3.5), color))
            parts.append((rounded_rect(*(palm - inward * 20), 30.0, 7.5, angle, 3.5), color))
            for k in (-3.3, -1.1, 1.1, 3.3):
                tip = palm + along * k * rng.uniform(0.9, 1.1) + inward * 5.5
                parts.append((rounded_rect(*tip, 7.5, 1.9, angle + rng.normal(0, 6), 0.9),
                              color))
        else:  # a card across the edge
            color = bgr(tuple(int(v) for v in rng.integers(40, 230, 3)))
            centre = at + inward * rng.uniform(-3.0, 1.5)
            parts.append((rounded_rect(*centre, 8.9, 5.7, rng.uniform(0, 180), 0.4), color))
        shade = np.zeros(photo.shape[:2], np.float32)
        for poly, _ in parts:
            fill(shade, cv2.perspectiveTransform((poly + 0.8)[None], Hp)[0], 1.0)
        size = 0.004 * max(photo.shape[:2])
        photo *= (1 - 0.4 * cv2.GaussianBlur(shade, (0, 0), size))[..., None]
        for poly, color in parts:
            fill(photo, cv2.perspectiveTransform(poly[None], Hp)[0], color)


# ---------------------------------------------------------------------------- the photo

CASTS = {"neutral": (1.0, 1.0, 1.0), "warm": (0.86, 0.97, 1.08), "cool": (1.08, 1.0, 0.9),
         "green": (0.95, 1.06, 0.93)}  # BGR gains


def render_photo(scene: Scene) -> tuple[np.ndarray, dict[str, Any]]:
    """The photo (BGR uint8) and its ground truth (without the file name)."""
    rng = np.random.default_rng(scene.seed)
    w, h = scene.width, scene.height
    cam = make_camera(scene, rng)
    Hp = cam.plane_homography()
    corners_cm = np.array([[0, 0], [BOARD_W_CM, 0], [BOARD_W_CM, BOARD_H_CM], [0, BOARD_H_CM]],
                          np.float64)
    corners = cv2.perspectiveTransform(corners_cm[None], Hp)[0]
    # the table: sample the visible part of the plane, coarser for far-away parts
    img_corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    world = cv2.perspectiveTransform(img_corners[None], np.linalg.inv(Hp))[0]
    ex0, ey0 = world.min(0) - 5
    ex1, ey1 = world.max(0) + 5
    extent = max(ex1 - ex0, ey1 - ey0)
    ts = min(14.0, 2600 / extent, 1.2 * max(w, h) / extent)
    tw, th = int((ex1 - ex0) * ts) + 1, int((ey1 - ey0) * ts) + 1
    xs, ys = np.meshgrid(ex0 + np.arange(tw) / ts, ey0 + np.arange(th) / ts)
    tex = table_texture(scene.table, rng, xs.astype(np.float32), ys.astype(np.float32))

    def to_tex(p: np.ndarray) -> np.ndarray:
        return (p - (ex0, ey0)) * ts

    count = int(rng.integers(2, 6))
    draw_clutter(tex, to_tex, rng, count if scene.clutter is None else scene.clutter,
                 (0, 0, BOARD_W_CM, BOARD_H_CM), (ex0, ey0, ex1, ey1))
    light_dir = rng.normal(0, 1, 2)
    light_dir /= np.linalg.norm(light_dir)
    bshadow = np.zeros((th, tw), np.float32)
    fill(bshadow, to_tex(corners_cm + light_dir * 0.5), 1.0)
    tex = tex * (1 - 0.35 * cv2.GaussianBlur(bshadow, (0, 0), 0.6 * ts))[..., None]
    T = np.array([[ts, 0, -ts * ex0], [0, ts, -ts * ey0], [0, 0, 1]])
    photo = cv2.warpPerspective(tex, Hp @ np.linalg.inv(T), (w, h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT)
    # the board, drawn at about the photo's resolution
    px_per_cm = np.linalg.norm(corners[1] - corners[0]) / BOARD_W_CM
    scale = float(np.clip(px_per_cm * 1.15, 6, 48))
    board_img = render_board(scene, cam, scale, rng)
    S = np.diag([scale, scale, 1.0])
    Hb = Hp @ np.linalg.inv(S)
    warped = cv2.warpPerspective(board_img.astype(np.float32), Hb, (w, h), flags=cv2.INTER_AREA
                                 if scale > px_per_cm * 1.5 else cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.ones(board_img.shape[:2], np.float32), Hb, (w, h),
                               flags=cv2.INTER_LINEAR)[..., None]
    photo = photo * (1 - mask) + warped * mask
    del warped, mask, board_img
    if scene.over:
        draw_over_edge(photo, Hp, np.random.default_rng([scene.seed, 7]), scene.over)
    # light: a gradient across the scene, blotches, vignette, colour cast
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ga = rng.uniform(0, 2 * math.pi)
    ramp = ((xx - w / 2) * math.cos(ga) + (yy - h / 2) * math.sin(ga)) / max(w, h)
    strength = rng.uniform(0.15, 0.45)
    light = 1 + strength * ramp + 0.06 * smooth_noise(rng, (h, w), 4)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    light *= 1 - rng.uniform(0.1, 0.3) * r2
    photo *= (light * rng.uniform(0.9, 1.1))[..., None]
    photo *= np.array(CASTS[scene.cast], np.float32) * scene.exposure
    # glare: soft bright spots on the glossy board
    inv = np.linalg.inv(Hp)
    del ramp, light, r2
    for _ in range(scene.glare):
        c = cv2.perspectiveTransform(
            np.array([[[rng.uniform(8, 72), rng.uniform(8, 45)]]]), Hp)[0, 0]
        sx, sy = rng.uniform(0.03, 0.09) * w, rng.uniform(0.02, 0.06) * w
        a = rng.uniform(0, math.pi)
        dx, dy = xx - c[0], yy - c[1]
        u = (dx * math.cos(a) + dy * math.sin(a)) / sx
        v = (-dx * math.sin(a) + dy * math.cos(a)) / sy
        blob = np.exp(-(u * u + v * v) / 2) * rng.uniform(0.35, 0.7)
        photo = photo * (1 - blob[..., None]) + 250 * blob[..., None]
    del xx, yy, inv
    # optics and sensor
    if scene.blur > 0:
        photo = cv2.GaussianBlur(photo, (0, 0), scene.blur * max(w, h) / 4032)
    photo += rng.normal(0, scene.noise * 255, (h, w, 1)).astype(np.float32)
    photo += rng.normal(0, scene.noise * 90, (h, w, 3)).astype(np.float32)
    out = np.clip(255 * (np.clip(photo, 0, 255) / 255) ** 0.95, 0, 255).astype(np.uint8)
    return out, ground_truth(scene, "", corners)


def encode_jpeg(img: np.ndarray, max_bytes: int = 2_400_000) -> bytes:
    """JPEG at the best quality (<= 92) that keeps the file under max_bytes."""
    for q in range(92, 50, -4):
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        if ok and len(buf) <= max_bytes:
            return buf.tobytes()
    return buf.tobytes()


# ---------------------------------------------------------------------------- the sample set

# board, size, players, table, tilt, roll, fill, glare, blur, noise, cast, half-covered lanes
PLAN: list[dict[str, Any]] = [
    dict(board="usa", size=(4032, 3024), players=["red", "blue", "yellow"], table="wood",
         tilt=6, roll=1, fill=0.92, glare=1, blur=0.7, noise=0.01, cast="warm", half=1),
    dict(board="usa", size=(4032, 3024), players=["black", "green", "red", "yellow", "blue"],
         table="cloth", tilt=22, roll=181, fill=0.85, glare=1, blur=0.9, noise=0.012,
         cast="neutral", half=2),
    dict(board="usa", size=(3024, 4032), players=["yellow", "black"], table="speckled",
         tilt=30, roll=92, fill=0.9, glare=2, blur=0.8, noise=0.012, cast="cool", half=1),
    dict(board="usa", size=(4032, 3024), players=["red", "black", "green", "yellow"],
         table="speckled", tilt=14, roll=-17, fill=0.8, glare=3, blur=1.0, noise=0.014,
         cast="green", half=2),
    dict(board="usa", size=(2016, 1512), players=["blue", "red", "black"], table="felt",
         tilt=28, roll=4, fill=0.88, glare=1, blur=1.4, noise=0.02, cast="warm", half=1),
    dict(board="usa", size=(4032, 3024), players=["yellow", "red", "black", "blue", "green"],
         table="wood", tilt=35, roll=-150, fill=0.75, glare=2, blur=1.1, noise=0.015,
         cast="neutral", half=3),
    dict(board="europe", size=(4032, 3024), players=["red", "green", "black"], table="wood",
         tilt=5, roll=-2, fill=0.92, glare=1, blur=0.7, noise=0.01, cast="neutral", half=1),
    dict(board="europe", size=(4032, 3024), players=["yellow", "blue", "red", "black"],
         table="cloth", tilt=25, roll=178, fill=0.84, glare=2, blur=0.9, noise=0.012,
         cast="warm", half=2),
    dict(board="europe", size=(3024, 4032), players=["black", "red"], table="felt",
         tilt=20, roll=-88, fill=0.9, glare=1, blur=1.0, noise=0.014, cast="cool", half=1),
    dict(board="europe", size=(4032, 3024), players=["green", "yellow", "red", "blue", "black"],
         table="speckled", tilt=33, roll=12, fill=0.8, glare=3, blur=1.0, noise=0.015,
         cast="green", half=2),
    dict(board="europe", size=(1600, 1200), players=["blue", "yellow", "black"], table="wood",
         tilt=18, roll=-35, fill=0.86, glare=1, blur=1.5, noise=0.022, cast="neutral", half=1),
    dict(board="europe", size=(4032, 3024), players=["red", "yellow", "blue", "green"],
         table="cloth", tilt=35, roll=200, fill=0.72, glare=2, blur=1.2, noise=0.016,
         cast="warm", half=3),
]


STRESS_TABLES = ("gingham", "gingham", "plaid", "busy", "light", "marble", "cloth", "wood",
                 "speckled", "felt")


def stress_spec(seed: int) -> dict[str, Any]:
    """Settings for one photo of the stress set: harder than the committed samples on
    purpose (tables like the board's colours, clutter over its edge, wide lenses, dim rooms)."""
    rng = np.random.default_rng([seed, 99])
    size = [(2016, 1512), (2016, 1512), (1512, 2016), (4032, 3024), (1600, 1200)][
        int(rng.integers(5))]
    dim = rng.random() < 0.3
    return dict(
        board=["usa", "europe"][int(rng.integers(2))], size=size,
        table=STRESS_TABLES[int(rng.integers(len(STRESS_TABLES)))],
        tilt=float(rng.uniform(10, 38)), roll=float(rng.uniform(0, 360)),
        fill=float(rng.uniform(0.6, 0.97)), glare=int(rng.integers(0, 4)),
        blur=float(rng.uniform(0.6, 1.8)),
        noise=float(rng.uniform(0.02, 0.035) if dim else rng.uniform(0.008, 0.02)),
        lens=float(rng.uniform(0.5, 0.85)),
        exposure=float(rng.uniform(0.45, 0.65) if dim else rng.uniform(0.85, 1.1)),
        clutter=int(rng.integers(3, 11)), over=int(rng.integers(0, 4)),
    )


def describe(scene: Scene) -> list[str]:
    """What makes this photo hard, for the README and the label file."""
    board = scene.board
    feats = [f"{len(scene.players)} players", f"table {scene.table}",
             f"tilt {scene.tilt_deg:.0f} deg", f"rotation {scene.roll_deg % 360:.0f} deg",
             f"{scene.glare} glare spot(s)", f"cast {scene.cast}"]
    pairs = (("red", "red"), ("black", "black"), ("yellow", "orange"), ("yellow", "yellow"),
             ("green", "green"), ("blue", "blue"))
    for piece, printed in pairs:
        n = sum(1 for rid, c in scene.claims.items()
                if c == piece and board.routes[rid].color == printed)
        if n:
            feats.append(f"{n} {piece} on {printed}")
    if scene.partial:
        feats.append(f"{len(scene.partial)} half-covered lane(s)")
    if scene.stations:
        feats.append(f"{len(scene.stations)} station(s)")
    if scene.lens != 0.78:
        feats.append(f"lens {scene.lens:.2f}")
    if scene.exposure != 1.0:
        feats.append(f"exposure {scene.exposure:.2f}")
    if scene.clutter is not None:
        feats.append(f"{scene.clutter} objects on the table")
    if scene.over:
        feats.append(f"{scene.over} hand(s)/card(s) over the edge")
    return feats


def make_scene(board_name: str, seed: int, size: tuple[int, int], players: list[str] | None = None,
               table: str | None = None, tilt: float | None = None, roll: float | None = None,
               fill: float | None = None, glare: int | None = None, blur: float | None = None,
               noise: float | None = None, cast: str | None = None, half: int | None = None,
               **harder: Any) -> Scene:
    """A scene from explicit settings; anything left out is drawn from the seed."""
    rng = np.random.default_rng([seed, 1])
    board = load_board(board_name)
    if players is None:
        n = int(rng.integers(2, 6))
        players = [PIECE_COLORS[i] for i in rng.permutation(len(PIECE_COLORS))[:n]]
    if half is None:
        half = int(rng.integers(0, 3))
    claims, partial, stations = plan_game(board, rng, players, True, half)
    scene = Scene(
        board=board, players=players, claims=claims, partial=partial, stations=stations,
        width=size[0], height=size[1], seed=seed,
        table=table or ["wood", "cloth", "speckled", "felt"][int(rng.integers(4))],
        tilt_deg=rng.uniform(0, 35) if tilt is None else tilt,
        roll_deg=rng.uniform(0, 360) if roll is None else roll,
        fill=rng.uniform(0.72, 0.92) if fill is None else fill,
        glare=int(rng.integers(0, 3)) if glare is None else glare,
        blur=rng.uniform(0.5, 1.5) if blur is None else blur,
        noise=rng.uniform(0.008, 0.02) if noise is None else noise,
        cast=cast or ["neutral", "warm", "cool", "green"][int(rng.integers(4))],
        **harder,
    )
    scene.features = describe(scene)
    return scene


def write_photo(scene: Scene, out: Path, name: str) -> dict[str, Any]:
    img, truth = render_photo(scene)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.jpg").write_bytes(encode_jpeg(img))
    truth["photo"] = f"{name}.jpg"
    (out / f"{name}.json").write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")
    return truth


def write_readme(out: Path, rows: list[tuple[str, dict[str, Any]]], seed: int,
                 how: str = "") -> None:
    lines = [
        "# Rendered sample photos",
        "",
        "Synthetic photos made by `scripts/render_samples.py` (our own drawing of the boards,",
        "no publisher artwork), each with ground truth `<name>.json` in the dev-photo label",
        "format: `photo`, `map`, `corners` (outer board corners in photo pixels: top-left,",
        "top-right, bottom-right, bottom-left of the upright board), `routes` (route id ->",
        "piece colour or null, every route), `spaces` (colour or null per space), plus",
        "`stations`, `players`, `doubtful` (half-covered lanes: pieces on only some spaces,",
        "route value null) and `features`.",
        "",
        how or "Regenerate: `.venv/bin/python scripts/render_samples.py --out sample_photos"
        f" --seed {seed}`",
        "",
        "| photo | size | what it exercises |",
        "|---|---|---|",
    ]
    for name, truth in rows:
        lines.append(f"| {name}.jpg | {truth['size']} | {', '.join(truth['features'])} |")
    (out / "README.md").write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("sample_photos"))
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--board", choices=["usa", "europe"], help="render one photo of this board")
    ap.add_argument("--size", default="4032x3024", help="one photo: WIDTHxHEIGHT")
    ap.add_argument("--name", default=None, help="one photo: file name without extension")
    ap.add_argument("--only", type=int, nargs="*", help="plan entries to render (1-based)")
    ap.add_argument("--stress", type=int, metavar="N",
                    help="render N harder photos (stress-01 ...) instead of the sample plan; "
                         "into a git-ignored folder such as test-output/stress")
    args = ap.parse_args(argv)
    if args.stress:
        rows = []
        for i in range(1, args.stress + 1):
            spec = stress_spec(args.seed * 1000 + i)
            board, size = spec.pop("board"), spec.pop("size")
            scene = make_scene(board, args.seed * 1000 + i, size, **spec)
            name = f"stress-{i:02d}"
            truth = write_photo(scene, args.out, name)
            print(f"{name}: {board}, {', '.join(scene.features)}", flush=True)
            truth["size"] = f"{scene.width}x{scene.height}"
            rows.append((name, truth))
        write_readme(args.out, rows, args.seed, "Regenerate: `.venv/bin/python "
                     f"scripts/render_samples.py --out {args.out} --seed {args.seed} "
                     f"--stress {args.stress}`")
        return 0
    if args.board:
        w, h = (int(v) for v in args.size.lower().split("x"))
        scene = make_scene(args.board, args.seed, (w, h))
        name = args.name or f"{args.board}-seed{args.seed}"
        write_photo(scene, args.out, name)
        print(f"{name}: {', '.join(scene.features)}")
        return 0
    rows = []
    counters = {"usa": 0, "europe": 0}
    for i, spec in enumerate(PLAN, 1):
        spec = dict(spec)
        board = spec.pop("board")
        counters[board] += 1
        name = f"{board}-{counters[board]:02d}"
        scene = make_scene(board, args.seed * 100 + i, spec.pop("size"), **spec)
        if args.only and i not in args.only:
            if not (args.out / f"{name}.json").exists():
                continue
            truth = json.loads((args.out / f"{name}.json").read_text())
        else:
            truth = write_photo(scene, args.out, name)
            print(f"{name}: {', '.join(scene.features)}", flush=True)
        truth["size"] = f"{scene.width}x{scene.height}"
        rows.append((name, truth))
    write_readme(args.out, rows, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
