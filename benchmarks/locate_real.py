"""Board locator on the real dev photos under the conditions issue 4 promises.

    .venv/bin/python benchmarks/locate_real.py [--photos DIR] [--only TEXT] [--save DIR] [--cut]

From each labelled real photo in ../shared/dev_photos/ (not in the repository: the script
says so and exits 0 without it) a fixed, seeded set of variants is made in memory: turned by
90/180/270 degrees and by small angles, seen by a camera 20 and 35 degrees off vertical from
several sides, the board smaller in the frame on a table (the photo's own table where it
shows one, a wood-like or a light texture otherwise, never plain black), darker x0.5 and x0.4
with and without a soft glare spot (and x0.7 and x0.85 under one; and two fainter spots at
x0.85), under a lamp's reflection burnt out to white (two places), warm and cool white
balance, downscaled to 1200 px at JPEG quality 70, a few of these combined, a shadow over
part of the board (four, sharp to soft, two of them bluer in the shade), light falling off
to 0.35 across the board, a shaken camera, and other phones' processing of one light
(brighter x1.35, more and less saturated, tone curves of gamma 0.6 and 1.6, an HDR look,
oversharpened, night mode, a tungsten cast, a messaging app's 1600 px copy at quality 40).
The label
corners go through the same warp, so they stay in board order (TL of the board's artwork
first, as ``locate`` reports them).

Each variant is JPEG-encoded and read as ``scorer.vision.pipeline.detect`` reads a photo
(decode_scaled to ``work_long_side``, check_exposure, locate). Printed per variant: found or
not, the corner error (largest of the four, % of the board diagonal), the locator's
confidence and the time (decode + locate); then the totals. ``--save`` writes the variant
photos and labels to a folder (for a look, or for ``benchmarks/detect.py DIR`` to read their
lanes; keep them out of git).

``--cut`` measures instead the board cut by the frame: each photo as it is and placed on a
table (80 % of the frame), cut 10, 20 and 30 % off each edge (that share of the board's
extent across the edge lies beyond it). Printed per variant: the detector's answer
(``pipeline.missing_edges``: the edges said to be outside the photo; "whole" for a board read
as it is, "whole, all lanes" where the cut hides no printed space, only the border; or not
found), whether that is right (the cut edge named and no other, or read whole where no lane
is hidden), the corner error of the four corners (those outside the photo included, as
estimated) and the time (wall and CPU); then the totals per amount.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer.boards import load_board  # noqa: E402
from scorer.vision import BoardNotFound  # noqa: E402
from scorer.vision.config import DEFAULT  # noqa: E402
from scorer.vision.decode import decode_scaled  # noqa: E402
from scorer.vision.geometry import corner_error, diagonal, project  # noqa: E402
from scorer.vision.locate import locate  # noqa: E402
from scorer.vision.pipeline import check_exposure, missing_edges, seen_spaces  # noqa: E402
from tests.vision.samples import cut  # noqa: E402

DEV_PHOTOS = ROOT.parent / "shared" / "dev_photos"
# a phone's main camera sees ~65 degrees across its long side
_PHONE_FOV = np.deg2rad(65.0)


@dataclass
class Photo:
    name: str
    image: np.ndarray  # BGR
    corners: np.ndarray  # (4, 2) TL, TR, BR, BL of the board's artwork
    map: str
    pieces: dict  # the label's "routes", "spaces" and "stations", which no warp changes


@dataclass
class Variant:
    name: str
    data: bytes  # the JPEG file
    corners: np.ndarray  # in its pixels


# ---------------------------------------------------------------------------- the tables


def wood(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A wood-like table top (grain along x, knots of darker colour), ``size`` = (w, h)."""
    w, h = size
    sw, sh = max(8, w // 4), max(8, h // 4)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    warp = cv2.GaussianBlur(rng.normal(0, 1, (sh, sw)).astype(np.float32), (0, 0), sh / 12)
    warp *= sh / 6 / max(1e-6, float(np.abs(warp).max()))
    grain = np.sin((yy + warp) * 2 * np.pi / rng.uniform(5, 9))
    fine = cv2.GaussianBlur(rng.normal(0, 1, (sh, sw)).astype(np.float32), (0, 0), 0.8)
    shade = 0.82 + 0.1 * grain + 0.04 * fine
    base = np.array(rng.choice([(70, 110, 160), (45, 80, 125), (95, 140, 190)]), np.float32)
    small = np.clip(shade[..., None] * base, 0, 255).astype(np.uint8)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def light(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A light laminate or cloth: near white, a little uneven and grainy."""
    w, h = size
    sw, sh = max(8, w // 4), max(8, h // 4)
    blotch = cv2.GaussianBlur(rng.normal(0, 1, (sh, sw)).astype(np.float32), (0, 0), sh / 8)
    blotch /= max(1e-6, float(np.abs(blotch).max()))
    grain = rng.normal(0, 3, (sh, sw, 1)).astype(np.float32)
    base = np.array(rng.choice([(215, 225, 230), (190, 205, 215), (225, 225, 225)]), np.float32)
    small = np.clip(base * (0.93 + 0.05 * blotch[..., None]) + grain, 0, 255).astype(np.uint8)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def own_table(photo: Photo) -> Callable[[tuple[int, int], np.random.Generator], np.ndarray]:
    """The photo's own table (its widest strip beside the board), mirror-tiled; None when
    the board fills the photo."""
    h, w = photo.image.shape[:2]
    margin = 0.01 * diagonal(photo.corners)
    x0, y0 = photo.corners.min(axis=0) - margin
    x1, y1 = photo.corners.max(axis=0) + margin
    strips = [photo.image[:max(0, int(y0))], photo.image[min(h, int(y1) + 1):],
              photo.image[:, :max(0, int(x0))], photo.image[:, min(w, int(x1) + 1):]]
    strip = max(strips, key=lambda s: min(s.shape[:2]))
    if min(strip.shape[:2]) < 0.05 * min(h, w):
        return None

    def tile(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
        out_w, out_h = size
        block = np.vstack([strip, strip[::-1]])
        block = np.hstack([block, block[:, ::-1]])
        reps = (out_h // block.shape[0] + 2, out_w // block.shape[1] + 2, 1)
        big = np.tile(block, reps)
        oy, ox = (int(rng.integers(0, block.shape[i])) for i in range(2))
        return np.ascontiguousarray(big[oy:oy + out_h, ox:ox + out_w])

    return tile


# ---------------------------------------------------------------------------- geometry


def camera_tilt(corners: np.ndarray, tilt: float, azimuth: float) -> np.ndarray:
    """The homography from a photo taken from above to the same board seen by a camera
    ``tilt`` degrees off vertical, from the side at ``azimuth`` degrees (0: from below the
    board's bottom edge in the photo, 90: from its right), at the distance where the board
    fills ~85 % of a phone's view, aimed at the board's centre."""
    centre = corners.mean(axis=0)
    width = float(np.linalg.norm(corners[1] - corners[0]))
    distance = width / 0.85 / 2 / np.tan(_PHONE_FOV / 2)
    t, a = np.deg2rad(tilt), np.deg2rad(azimuth)
    # world: the table is z = 0, x and y as in the photo, the camera at z < 0
    position = distance * np.array([np.sin(t) * np.sin(a), np.sin(t) * np.cos(a), -np.cos(t)])
    forward = -position / distance
    up = np.array([0.0, 1.0, 0.0]) - forward[1] * forward  # no roll: the photo's y stays down
    y_axis = up / np.linalg.norm(up)
    x_axis = np.cross(y_axis, forward)
    r = np.vstack([x_axis, y_axis, forward])
    to_world = np.array([[1.0, 0.0, -centre[0]], [0.0, 1.0, -centre[1]], [0.0, 0.0, 1.0]])
    # a point (x, y, 0) in the camera: R (X - P) = x R e1 + y R e2 - R P
    plane = np.c_[r[:, 0], r[:, 1], -r @ position]
    return plane @ to_world


def rotation(angle: float, centre: np.ndarray) -> np.ndarray:
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle, 1.0)
    return np.vstack([m, [0.0, 0.0, 1.0]])


def framed(h: np.ndarray, corners: np.ndarray, size: tuple[int, int], fill: float,
           ) -> np.ndarray:
    """``h`` followed by the scale and shift that centre the board in a ``size`` frame, its
    outline's bounding box spanning ``fill`` of the frame (in the tighter direction)."""
    quad = project(h, corners)
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    s = fill * min(size[0] / (hi[0] - lo[0]), size[1] / (hi[1] - lo[1]))
    c = (lo + hi) / 2
    fit = np.array([[s, 0, size[0] / 2 - s * c[0]], [0, s, size[1] / 2 - s * c[1]], [0, 0, 1]])
    return fit @ h


def place(photo: Photo, h: np.ndarray, size: tuple[int, int], table, rng) -> np.ndarray:
    """The photo warped by ``h`` into a ``size`` frame on ``table``. The photo's own table
    goes along where it is the table used; on any other the board is cut out (with a thin
    margin of its own surroundings, so its real edge stays in the photo)."""
    w, h_ = photo.image.shape[:2][::-1]
    mask = np.zeros((h_, w), np.uint8)
    if table is None:
        mask[:] = 255
    else:
        cv2.fillConvexPoly(mask, np.round(photo.corners).astype(np.int32), 255)
        # as far out as the labels may be off the edge (a few px): a wider strip of the
        # photo's dark table round the board is a dark frame the real board does not have,
        # and its outer edge, not the board's, is then the strong straight edge
        grow = 2 * round(0.0015 * diagonal(photo.corners)) + 1
        mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow)))
    warped = cv2.warpPerspective(photo.image, h, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(mask, h, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.GaussianBlur(alpha, (0, 0), 1.0).astype(np.float32)[..., None] / 255.0
    background = (table or own_table(photo) or wood)(size, rng)
    return (warped * alpha + background * (1 - alpha)).astype(np.uint8)


# ---------------------------------------------------------------------------- light


def lit(image: np.ndarray, corners: np.ndarray, exposure: float, glare: bool,
        rng: np.random.Generator, strength: tuple[float, float] = (0.55, 0.75)) -> np.ndarray:
    """A dimmer room (with sensor noise) and, with ``glare``, a lamp's soft bright spot on
    the board somewhere in its middle part, mixing in a share of white drawn from
    ``strength`` at its centre."""
    h, w = image.shape[:2]
    out = image.astype(np.float32) * exposure
    if glare:
        centre = corners.mean(axis=0)
        spot_at = centre + rng.uniform(-0.3, 0.3, 2) * (corners.max(axis=0) - corners.min(0))
        sigma = rng.uniform(0.1, 0.2) * diagonal(corners)
        yy, xx = np.ogrid[0:h, 0:w]
        spot = np.exp(-((xx - spot_at[0]) ** 2 + (yy - spot_at[1]) ** 2)
                      / (2 * sigma ** 2)).astype(np.float32)
        spot = (rng.uniform(*strength) * spot)[..., None]
        out = out * (1 - spot) + 250 * spot
    out += rng.normal(0, 2.5, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def burnt(image: np.ndarray, corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A lamp's reflection burnt out to white somewhere on the board (1.3-2 times white at its
    centre, clipped), fading over 4-8 % of the board's diagonal."""
    h, w = image.shape[:2]
    centre = corners.mean(axis=0)
    at = centre + rng.uniform(-0.3, 0.3, 2) * (corners.max(axis=0) - corners.min(0))
    sigma = rng.uniform(0.04, 0.08) * diagonal(corners)
    yy, xx = np.ogrid[0:h, 0:w]
    share = (rng.uniform(1.3, 2.0) * np.exp(-((xx - at[0]) ** 2 + (yy - at[1]) ** 2)
                                            / (2 * sigma ** 2))).astype(np.float32)[..., None]
    out = image.astype(np.float32) * (1 - 0.3 * np.minimum(share, 1)) + 255 * share
    return np.clip(out + rng.normal(0, 2.5, out.shape), 0, 255).astype(np.uint8)


# shadows: (share of the board, light left in the shade, edge's softness as a share of the
# board's diagonal, bluer shade)
SHADOWS = ((0.35, 0.5, 0.004, False), (0.5, 0.6, 0.01, True), (0.25, 0.4, 0.002, False),
           (0.6, 0.55, 0.02, True))


def shadowed(image: np.ndarray, corners: np.ndarray, share: float, dim: float, soft: float,
             bluer: bool, rng: np.random.Generator) -> np.ndarray:
    """A shadow over about ``share`` of the board on a side drawn at random, its edge wavy
    (an arm, a head) and blurred over ``soft`` of the board's diagonal, ``dim`` of the light
    left in it; ``bluer``: the shade lit by the room's cooler light."""
    h, w = image.shape[:2]
    centre, diag = corners.mean(axis=0), diagonal(corners)
    angle = rng.uniform(0, 2 * np.pi)
    n = np.array([np.cos(angle), np.sin(angle)])
    across = (corners - centre) @ n
    cut = across.max() - share * (across.max() - across.min())
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    beyond = (xx - centre[0]) * n[0] + (yy - centre[1]) * n[1] - cut
    along = (xx - centre[0]) * -n[1] + (yy - centre[1]) * n[0]
    beyond += 0.04 * diag * np.sin(along / (0.12 * diag) + rng.uniform(0, 6))
    inside = cv2.GaussianBlur((beyond > 0).astype(np.float32), (0, 0), max(soft * diag, 1.0))
    light = np.float32(dim) * (np.float32([1.12, 1.0, 0.85]) if bluer else np.ones(3, np.float32))
    out = image * (1 - inside[..., None] * (1 - light))
    return np.clip(out + rng.normal(0, 2.0, out.shape), 0, 255).astype(np.uint8)


def falling(image: np.ndarray, corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The light falling from full on one side of the board to 0.35 of it on the other."""
    h, w = image.shape[:2]
    angle = rng.uniform(0, 2 * np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    centre = corners.mean(axis=0)
    along = (xx - centre[0]) * np.cos(angle) + (yy - centre[1]) * np.sin(angle)
    t = np.clip(along / diagonal(corners) + 0.5, 0, 1)
    return np.clip(image * (1 - 0.65 * t)[..., None], 0, 255).astype(np.uint8)


def shaken(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The camera moved while it took the photo: a 9 px streak in some direction."""
    streak = np.zeros((9, 9), np.float32)
    streak[4, :] = 1.0
    streak = cv2.warpAffine(streak, cv2.getRotationMatrix2D((4, 4), rng.uniform(0, 180), 1.0),
                            (9, 9))
    return cv2.filter2D(image, -1, streak / streak.sum())


def cast(image: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    return np.clip(image.astype(np.float32) * np.array(gains, np.float32), 0, 255).astype(
        np.uint8)


def saturated(image: np.ndarray, k: float) -> np.ndarray:
    """More (k > 1) or less saturated colours, as another phone's processing makes them."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 1] = np.clip(hsv[..., 1] * k, 0, 255)
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)


def toned(image: np.ndarray, gamma: float) -> np.ndarray:
    """Another tone curve: the mid-tones lifted (gamma < 1) or pressed down (> 1)."""
    return np.clip(255 * (image / 255.0) ** gamma, 0, 255).astype(np.uint8)


def equalised(image: np.ndarray) -> np.ndarray:
    """A phone's HDR look: the lightness equalised tile by tile (CLAHE, 8 x 8 tiles)."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    lab[..., 0] = cv2.createCLAHE(3.0, (8, 8)).apply(lab[..., 0])
    return cv2.cvtColor(lab, cv2.COLOR_Lab2BGR)


def oversharpened(image: np.ndarray) -> np.ndarray:
    """A strong unsharp mask, halos along every edge."""
    return cv2.addWeighted(image, 2.2, cv2.GaussianBlur(image, (0, 0), 2.0), -1.2, 0)


def night_mode(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A dim room brightened by the phone: 0.3 of the light with sensor noise, smoothed a
    little and raised 3 times."""
    dim = image.astype(np.float32) * 0.3 + rng.normal(0, 5, image.shape).astype(np.float32)
    return np.clip(cv2.GaussianBlur(dim, (0, 0), 0.8) * 3.0, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------- variants


def jpeg(image: np.ndarray, quality: int = 90) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return data.tobytes()


def variants(photo: Photo, seed: int) -> Iterator[Variant]:
    """The fixed set of variants of one photo (the same bytes on every run)."""
    rng = np.random.default_rng(seed)
    image, corners = photo.image, photo.corners
    h, w = image.shape[:2]
    # frames as big as the photo, or as a phone's when the photo is a crop of the board
    size = (w, h) if own_table(photo) else (2000, 1500)

    def geometric(name, hom, fill, table=None, frame=size):
        hom = framed(hom, corners, frame, fill)
        return name, place(photo, hom, frame, table, rng), project(hom, corners)

    yield Variant("as is", jpeg(image), corners)
    for turn, code in ((90, cv2.ROTATE_90_CLOCKWISE), (180, cv2.ROTATE_180),
                       (270, cv2.ROTATE_90_COUNTERCLOCKWISE)):
        rotated = cv2.rotate(image, code)
        x, y = corners[:, 0], corners[:, 1]
        turned = {90: np.c_[h - 1 - y, x], 180: np.c_[w - 1 - x, h - 1 - y],
                  270: np.c_[y, w - 1 - x]}[turn]
        yield Variant(f"turned {turn}", jpeg(rotated), turned)
    centre = corners.mean(axis=0)
    made = [
        geometric("turned 10", rotation(10, centre), 0.85),
        geometric("turned -25", rotation(-25, centre), 0.85),
        geometric("turned 155 on wood", rotation(155, centre), 0.8, wood),
    ]
    for tilt, azimuth in ((20, 0), (20, 135), (35, 0), (35, 90), (35, 200), (35, 300)):
        made.append(geometric(f"tilt {tilt} from {azimuth}", camera_tilt(corners, tilt, azimuth),
                              0.85))
    made += [
        geometric("tilt 35 from 45 on wood", camera_tilt(corners, 35, 45), 0.8, wood),
        geometric("tilt 25 from 250 on light", camera_tilt(corners, 25, 250), 0.8, light),
        geometric("small 55% on table", np.eye(3), 0.55),
        geometric("small 40% on wood", np.eye(3), 0.4, wood),
        geometric("small 50% turned 30 on light", rotation(30, centre), 0.5, light),
    ]
    for name, out, c in made:
        yield Variant(name, jpeg(out), c)
    for exposure in (0.5, 0.4):
        for glare in (False, True):
            name = f"dark x{exposure}" + (" + glare" if glare else "")
            yield Variant(name, jpeg(lit(image, corners, exposure, glare, rng)), corners)
    yield Variant("warm cast", jpeg(cast(image, (0.72, 0.93, 1.12))), corners)
    yield Variant("cool cast", jpeg(cast(image, (1.15, 1.0, 0.8))), corners)
    s = 1200 / max(h, w)
    small = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    yield Variant("1200 px q70", jpeg(small, 70), corners * s)
    # a few of the conditions at once
    name, out, c = geometric("tilt 35 from 160", camera_tilt(corners, 35, 160), 0.85)
    yield Variant("tilt 35 from 160, dark x0.5 + glare", jpeg(lit(out, c, 0.5, True, rng)), c)
    name, out, c = geometric("turned 200", rotation(200, centre), 0.7, wood)
    yield Variant("turned 200 on wood, dark x0.4 + glare",
                  jpeg(lit(out, c, 0.4, True, rng)), c)
    name, out, c = geometric("tilt 20 from 270", camera_tilt(corners, 20, 270), 0.6, light)
    out = cv2.resize(cast(out, (0.75, 0.95, 1.1)), None, fx=1200 / max(out.shape[:2]),
                     fy=1200 / max(out.shape[:2]), interpolation=cv2.INTER_AREA)
    yield Variant("tilt 20 from 270, small on light, warm, 1200 px q70", jpeg(out, 70),
                  c * 1200 / max(size))
    # a glare spot in a lit room, at a few places (their own draws: the variants above stay)
    spots = np.random.default_rng(1000 + seed)
    for exposure in (0.7, 0.85):
        for k in (1, 2):
            yield Variant(f"x{exposure} + glare spot {k}",
                          jpeg(lit(image, corners, exposure, True, spots)), corners)
    # a fainter spot: a lamp further away, a board less glossy (their own draws too)
    faint = np.random.default_rng(5000 + seed)
    for k in (1, 2):
        yield Variant(f"faint glare {k}",
                      jpeg(lit(image, corners, 0.85, True, faint, (0.2, 0.4))), corners)
    # a lamp's reflection burnt out to white (its own draws too)
    burns = np.random.default_rng(2000 + seed)
    for k in (1, 2):
        yield Variant(f"burnt glare {k}", jpeg(burnt(image, corners, burns)), corners)
    # a shadow over part of the board (a phone, a head, an arm), its edge sharp to soft, the
    # shade lit by the room (bluer) or not; light falling off steeply to one side; a shaken
    # camera (their own draws too)
    shade = np.random.default_rng(3000 + seed)
    for k, (share, dim, soft, bluer) in enumerate(SHADOWS):
        yield Variant(f"shadow {k}", jpeg(shadowed(image, corners, share, dim, soft, bluer,
                                                   shade)), corners)
    yield Variant("falling light", jpeg(falling(image, corners, shade)), corners)
    yield Variant("shaken", jpeg(shaken(image, shade)), corners)
    # what other phones make of the same light: their own tone curve, saturation, local tone
    # mapping (HDR), sharpening, night mode, a tungsten lamp's cast, a messaging app's copy
    night = np.random.default_rng(4000 + seed)
    yield Variant("bright x1.35", jpeg(cast(image, (1.35, 1.35, 1.35))), corners)
    yield Variant("vivid", jpeg(saturated(image, 1.45)), corners)
    yield Variant("dull", jpeg(saturated(image, 0.6)), corners)
    yield Variant("gamma 0.6", jpeg(toned(image, 0.6)), corners)
    yield Variant("gamma 1.6", jpeg(toned(image, 1.6)), corners)
    yield Variant("hdr", jpeg(equalised(image)), corners)
    yield Variant("oversharpened", jpeg(oversharpened(image)), corners)
    yield Variant("night mode", jpeg(night_mode(image, night)), corners)
    yield Variant("tungsten", jpeg(cast(image, (0.6, 0.88, 1.25))), corners)
    s = 1600 / max(h, w)
    yield Variant("messaging app", jpeg(cv2.resize(image, None, fx=s, fy=s,
                                                   interpolation=cv2.INTER_AREA), 40), corners * s)


# ---------------------------------------------------------------------------- cut by the frame

EDGES = ("top", "right", "bottom", "left")
CUT_SHARES = (0.1, 0.2, 0.3)


def cut_variants(photo: Photo, seed: int) -> Iterator[tuple[str, float, Variant]]:
    """The photo as it is and placed on a table (80 % of the frame), each cut 10, 20 and 30 %
    off each edge: (edge, share, variant)."""
    rng = np.random.default_rng(seed)
    h, w = photo.image.shape[:2]
    size = (w, h) if own_table(photo) else (2000, 1500)
    on_table = framed(np.eye(3), photo.corners, size, 0.8)
    settings = [("as shot", photo.image, photo.corners),
                ("on a table", place(photo, on_table, size, None if own_table(photo) else wood,
                                     rng), project(on_table, photo.corners))]
    for setting, image, corners in settings:
        for edge in EDGES:
            for share in CUT_SHARES:
                out, c = cut(image, corners, edge, share)
                yield edge, share, Variant(f"{setting}, {share:.0%} off the {edge}",
                                                    jpeg(np.ascontiguousarray(out)), c)


def measure_cut(variant: Variant, board) -> dict:
    """Read the cut variant as ``pipeline.detect`` does, up to the located corners and the
    edges its answer says are outside the photo (``pipeline.missing_edges``)."""
    start, cpu = time.perf_counter(), time.process_time()
    try:
        image, scale = decode_scaled(variant.data, DEFAULT.work_long_side, DEFAULT)
        check_exposure(image, DEFAULT)
        found = locate(image, board, DEFAULT)
    except BoardNotFound:
        found = None
    ms = (time.perf_counter() - start) * 1000
    cpu_ms = (time.process_time() - cpu) * 1000
    if found is None:
        return {"outside": None, "ms": ms, "cpu_ms": cpu_ms, "hides": True}
    height, width = image.shape[:2]
    return {"outside": missing_edges(found, board, width, height), "ms": ms, "cpu_ms": cpu_ms,
            "hides": hides_lanes(variant, board, scale, width, height),
            "corner_error": corner_error(found.corners / scale, variant.corners),
            "confidence": found.confidence}


def hides_lanes(variant: Variant, board, scale: float, width: int, height: int) -> bool:
    """Whether the cut hides a printed space (the labels' corners taken as the art frame's:
    a board cut no further than its border shows every lane and is rightly read whole)."""
    return not seen_spaces(board, variant.corners * scale, width, height).all()


def report_cut(photos: list[Photo], only: str | None) -> None:
    """``--cut``: the cut variants of every photo, then the totals per amount cut."""
    rows = []
    print(f"{'photo':28} {'variant':32} {'answer':>16} {'edge':>5} {'error':>7} {'conf':>5} "
          f"{'ms':>6} {'cpu ms':>6}")
    for seed, photo in enumerate(photos):
        board = load_board(photo.map)
        for edge, share, variant in cut_variants(photo, seed):
            if only and only not in variant.name:
                continue
            r = measure_cut(variant, board)
            r.update(share=share, named=r["outside"] == (edge,)
                     or (r["outside"] == () and not r["hides"]))
            rows.append(r)
            whole = "whole" if r["hides"] else "whole, all lanes"
            answer = "not found" if r["outside"] is None else "+".join(r["outside"]) or whole
            error = f"{100 * r['corner_error']:6.2f}%" if "corner_error" in r else ""
            conf = f"{r['confidence']:5.2f}" if "confidence" in r else ""
            print(f"{photo.name:28} {variant.name:32} {answer:>16} "
                  f"{'yes' if r['named'] else 'no':>5} {error:>7} {conf:>5} {r['ms']:6.0f} "
                  f"{r['cpu_ms']:6.0f}", flush=True)
    print()
    for share in CUT_SHARES:
        of = [r for r in rows if r["share"] == share]
        if not of:
            continue
        found = [r for r in of if r["outside"] is not None]
        named = [r for r in of if r["named"]]
        within = [r for r in named if r["corner_error"] < 0.02]
        errors = sorted(100 * r["corner_error"] for r in named)
        print(f"{share:.0%} off an edge: found {len(found)}/{len(of)}, the cut edge named "
              f"(and no other; or read whole where the cut hides no lane, "
              f"{sum(not r['hides'] for r in of)}) {len(named)}/{len(of)}, of which corners "
              f"within 2 % {len(within)}"
              + (f" (median {statistics.median(errors):.2f} %, worst {errors[-1]:.2f} %)"
                 if errors else "")
              + f"; time median {statistics.median(r['ms'] for r in of):.0f} ms, "
              f"slowest {max(r['ms'] for r in of):.0f} ms (CPU median "
              f"{statistics.median(r['cpu_ms'] for r in of):.0f} ms, most "
              f"{max(r['cpu_ms'] for r in of):.0f} ms)")


# ---------------------------------------------------------------------------- measuring


def measure(variant: Variant, board) -> dict:
    """Read the variant as ``pipeline.detect`` does, up to the located corners."""
    start = time.perf_counter()
    try:
        image, scale = decode_scaled(variant.data, DEFAULT.work_long_side, DEFAULT)
        check_exposure(image, DEFAULT)
        found = locate(image, board, DEFAULT)
    except BoardNotFound as exc:
        return {"error": str(exc), "ms": (time.perf_counter() - start) * 1000}
    ms = (time.perf_counter() - start) * 1000
    height, width = image.shape[:2]
    return {"corner_error": corner_error(found.corners / scale, variant.corners),
            "confidence": found.confidence, "ms": ms,
            "outside": missing_edges(found, board, width, height)}


def load_photos(folder: Path) -> list[Photo]:
    photos = []
    for label in sorted(folder.glob("*.json")):
        truth = json.loads(label.read_text(encoding="utf-8"))
        path = folder / truth.get("photo", label.stem + ".jpg")
        if "corners" not in truth or not path.is_file():
            continue
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        photos.append(Photo(label.stem, image, np.array(truth["corners"], np.float64),
                            truth.get("map", "usa"),
                            {k: truth[k] for k in ("routes", "spaces", "stations") if k in truth}))
    return photos


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=Path, default=DEV_PHOTOS,
                        help="folder of labelled real photos (default ../shared/dev_photos)")
    parser.add_argument("--only", help="only the variants whose name contains this")
    parser.add_argument("--save", type=Path, help="also write each variant photo and label here")
    parser.add_argument("--cut", action="store_true",
                        help="the board cut by the frame 10/20/30 %% off each edge instead")
    args = parser.parse_args()
    photos = load_photos(args.photos) if args.photos.is_dir() else []
    if not photos:
        print(f"No labelled real photos in {args.photos}: nothing to measure (skipped).")
        return 0
    if args.cut:
        report_cut(photos, args.only)
        return 0
    rows = []
    print(f"{'photo':24} {'variant':50} {'result':>10} {'conf':>5} {'ms':>6}")
    for seed, photo in enumerate(photos):
        board = load_board(photo.map)
        for variant in variants(photo, seed):
            if args.only and args.only not in variant.name:
                continue
            if args.save:
                args.save.mkdir(parents=True, exist_ok=True)
                stem = f"{photo.name}-{variant.name}".replace(" ", "_").replace(",", "")
                (args.save / f"{stem}.jpg").write_bytes(variant.data)
                (args.save / f"{stem}.json").write_text(json.dumps(
                    {"photo": f"{stem}.jpg", "map": photo.map,
                     "corners": variant.corners.tolist(), **photo.pieces}))
            r = measure(variant, board)
            rows.append(r)
            if "error" in r:
                print(f"{photo.name:24} {variant.name:50} {'NOT FOUND':>10} {'':5} "
                      f"{r['ms']:6.0f}  {r['error']}", flush=True)
                continue
            mark = "" if r["corner_error"] < 0.01 else "  <-- over 1 %"
            if r["outside"]:  # the whole board is in every one of these photos
                mark += f"  <-- answered as cut at the {' and '.join(r['outside'])}"
            print(f"{photo.name:24} {variant.name:50} {100 * r['corner_error']:9.2f}% "
                  f"{r['confidence']:5.2f} {r['ms']:6.0f}{mark}", flush=True)
    found = [r for r in rows if "error" not in r]
    within = [r for r in found if r["corner_error"] < 0.01]
    print(f"\nfound {len(found)}/{len(rows)}, within 1 % of the diagonal {len(within)}/{len(rows)}"
          f"; median {statistics.median(r['ms'] for r in rows):.0f} ms, "
          f"slowest {max(r['ms'] for r in rows):.0f} ms")
    wrong = [r["confidence"] for r in found if r["corner_error"] >= 0.01]
    print(f"answered as cut by the frame: {sum(bool(r['outside']) for r in found)}")
    if within:
        print(f"confidence: within 1 % {min(r['confidence'] for r in within):.2f}-"
              f"{max(r['confidence'] for r in within):.2f}; over 1 % "
              f"{', '.join(f'{c:.2f}' for c in wrong) or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
