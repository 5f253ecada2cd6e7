"""Where the board's print lies in a rectified photo: the cities' printed dots found near the
board's data, and the print's offset from the data anywhere on the map (``print_offsets``).
A board's print lies a few millimetres off its data and the rectification (a board warped,
the corners found a few px off): lanes are read, and stations looked for, where it lies."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scorer.boards import Board
from scorer.vision.config import DEFAULT, VisionConfig

# a dot or a piece is shaded on its sides: Lab compared with the lightness weighed loosely
SHADED = np.array([0.35, 1.0, 1.0], dtype=np.float32)


@dataclass(frozen=True)
class CityDots:
    """Where each city's printed dot lies in a photo (board order, rectified px) and whether it
    shows plainly there (a station standing on the city hides it)."""

    centres: np.ndarray  # city x (x, y)
    match: np.ndarray  # city: the dot's likeness to the photo's own empty dot, -1..1
    seen: np.ndarray  # city: bool
    showing: np.ndarray  # city: the share of the dot's core that still looks like the dot
    # the print's offset from the board's data as an affine map of a point (x, y, 1), (3, 2):
    # what the plainly seen dots agree on (None: too few seen)
    fit: np.ndarray | None = None


def print_offsets(dots: CityDots, points: np.ndarray) -> np.ndarray:
    """How far the print lies off the board's data at each of ``points`` ((N, 2) rectified
    px, as the data put them): the affine offset the plainly seen dots agree on (``dots``,
    ``city_dots``); none where too few are seen."""
    if dots.fit is None:
        return np.zeros_like(points, dtype=np.float64)
    return np.column_stack([points, np.ones(len(points))]) @ dots.fit


def city_dots(lab: np.ndarray, board: Board, config: VisionConfig = DEFAULT) -> CityDots:
    """``_city_dots``; where too few dots are seen to fit the print's offset, looked for again
    from the offset all their windows agree on (``_shared_shift``): the dots' look is learnt
    from the photo's own dots, and a print lying a few px off everywhere (a photo in a deep
    shade: 0-1 of 47 dots seen) leaves that look a blur no window matches."""
    dots = _city_dots(lab, board, config)
    if dots.fit is not None:
        return dots
    again = _city_dots(lab, board, config, shared=True)
    return again if again.fit is not None else dots


def _city_dots(lab: np.ndarray, board: Board, config: VisionConfig = DEFAULT,
               shared: bool = False) -> CityDots:
    """Find every city's printed dot near where the board's data put it.

    The print is a few millimetres off the board's data and the rectification (Madrid's dot
    lies 10 px west of its data, and a train piece beside it then fills the city's disk). The
    look of an empty dot is learned from this photo (most cities carry no station): the median
    of the patches round the cities, realigned on where each matches best. Where a city's dot
    is hidden, its place follows from the others': the print's offset is an affine map.
    """
    s = config.rectify_scale
    r, reach = int(config.station_dot_radius * s), int(config.station_dot_search * s)
    image = np.ascontiguousarray(lab, dtype=np.float32)
    ref = reference_centres(board, s)
    at = np.rint(ref)
    windows = [cv2.getRectSubPix(image, (2 * (r + reach) + 1,) * 2, (x, y)) for x, y in at]
    shift = np.zeros_like(at, dtype=int)
    if shared:
        shift += _shared_shift(np.stack(windows), r, reach)
    match = np.empty(len(at))
    side = 2 * r + 1
    for round_ in range(config.station_dot_rounds):
        template = np.median(np.stack([w[reach + dy:reach + dy + side, reach + dx:reach + dx + side]
                                       for w, (dx, dy) in zip(windows, shift, strict=True)]),
                             axis=0)
        if round_ == 0:
            # the first round searches all the way, at half the resolution; the others only
            # round what the round before found
            half = np.ascontiguousarray(template[::2, ::2])
            for i, window in enumerate(windows):
                _, match[i], _, (dx, dy) = cv2.minMaxLoc(_likeness(window[::2, ::2], half))
                shift[i] = 2 * dx - reach, 2 * dy - reach
            continue
        step = min(reach, int(config.station_dot_refine * s))
        for i, window in enumerate(windows):
            cx, cy = np.clip(shift[i], step - reach, reach - step)
            near = window[reach + cy - step:reach + cy + step + side,
                          reach + cx - step:reach + cx + step + side]
            _, match[i], _, (dx, dy) = cv2.minMaxLoc(_likeness(near, template))
            shift[i] = cx + dx - step, cy + dy - step
    seen = match >= config.station_dot_match
    # the dot's whole print, ring and paper round it, shows where its centre is
    whole = np.median(np.stack([cv2.getRectSubPix(image, (4 * r + 1,) * 2, (x, y))
                                for x, y in at + shift]), axis=0)
    found = shift + _off_centre(whole, r // 2)
    fit = _print_fit(ref, found, seen, config.station_dot_residual * s)
    centres = ref + (np.zeros_like(ref) if fit is None
                     else np.column_stack([ref, np.ones(len(ref))]) @ fit)
    centres[seen] = ref[seen] + found[seen]
    # a train lying over a city leaves part of its dot in sight, a station hides all of it
    core = whole[r:3 * r + 1, r:3 * r + 1]
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    inside = np.hypot(xx, yy) <= config.station_dot_core * r
    patches = np.stack([cv2.getRectSubPix(image, (side,) * 2, (x, y)) for x, y in centres])
    near = np.linalg.norm((patches - core) * SHADED, axis=3) < config.station_dot_near
    showing = near[:, inside].mean(axis=1)
    return CityDots(centres, match, seen, showing, fit)


def _shared_shift(windows: np.ndarray, r: int, reach: int) -> np.ndarray:
    """The offset (x, y) at which the windows' patches look most like their own median (every
    4 px at half the resolution, then every px round the best): where the dots of every
    window lie alike."""
    side = 2 * r + 1

    def agree(dx: int, dy: int, every: int = 1) -> float:
        patches = windows[:, reach + dy:reach + dy + side:every, reach + dx:reach + dx + side:every]
        flat = patches.reshape(len(patches), -1)
        flat = flat - flat.mean(axis=1, keepdims=True)
        flat /= np.linalg.norm(flat, axis=1, keepdims=True) + 1e-6
        median = np.median(flat, axis=0)
        return float(np.mean(flat @ median)) / (float(np.linalg.norm(median)) + 1e-6)

    coarse = [(dx, dy) for dy in range(-reach, reach + 1, 4) for dx in range(-reach, reach + 1, 4)]
    cx, cy = max(coarse, key=lambda d: agree(*d, every=2))
    fine = [(dx, dy) for dy in range(max(cy - 2, -reach), min(cy + 2, reach) + 1)
            for dx in range(max(cx - 2, -reach), min(cx + 2, reach) + 1)]
    return np.array(max(fine, key=lambda d: agree(*d)))


def _likeness(window: np.ndarray, template: np.ndarray) -> np.ndarray:
    """The template's normalised correlation at each place in the window (0 where flat)."""
    window = np.ascontiguousarray(window)
    return np.nan_to_num(cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED))


def _off_centre(template: np.ndarray, reach: int) -> np.ndarray:
    """How far the dot lies off the template's centre (x, y): the template is learned round the
    board's data, so it carries the photo's median offset; a dot is symmetric about its centre,
    and the template matches itself turned half a turn where that centre is."""
    turned = np.ascontiguousarray(template[::-1, ::-1][reach:-reach, reach:-reach])
    _, _, _, best = cv2.minMaxLoc(_likeness(template, turned))
    return (np.array(best) - reach) / 2


def _print_fit(ref: np.ndarray, shift: np.ndarray, seen: np.ndarray,
               residual: float) -> np.ndarray | None:
    """The affine offset of the print that the plainly seen dots agree on, (3, 2) (None if
    too few), fitted again without the dots more than ``residual`` off it."""
    if seen.sum() < 6:
        return None
    points = np.column_stack([ref, np.ones(len(ref))])
    keep = seen
    for _ in range(2):
        fit, *_ = np.linalg.lstsq(points[keep], shift[keep], rcond=None)
        keep = seen & (np.linalg.norm(points @ fit - shift, axis=1) < residual)
        if keep.sum() < 6:
            break
    return fit


def reference_centres(board: Board, scale: float) -> np.ndarray:
    """Every city's centre where the board's data put it (board order, rectified px)."""
    return np.array([(c.x, c.y) for c in board.cities.values()], dtype=np.float64) * scale
