"""Stage 4a: measurements of every train space on the rectified board.

Colours are CIE Lab, normalised by the map background of the same photo, square by square
(white balance, exposure and uneven light calibrated from the photo itself), so features
compare across lighting.
"""

from __future__ import annotations

from collections.abc import Hashable

import cv2
import numpy as np

# numpy loads these on first use (np.median, the locator's random generator), ~30 ms: when the
# detector is imported, not inside the first photo's time, like the Lab tables below
import numpy.ma  # noqa: F401
import numpy.random  # noqa: F401

from scorer.boards import Board, Route

PRINTED_COLORS = ("red", "blue", "green", "yellow", "black", "white", "orange", "pink", "gray")
# the paper's Lab after ``normalise``: a light neutral paper
PAPER_LAB = np.array([185.0, 128.0, 134.0], dtype=np.float32)

# the sampled patch around a space, in art px along (u) and across (v) the space
_U = np.arange(-24, 25, 3, dtype=np.float32)
_V = np.arange(-12, 13, 2, dtype=np.float32)
_UU, _VV = (g.ravel() for g in np.meshgrid(_U, _V))
_CORE = (np.abs(_UU) <= 20) & (np.abs(_VV) <= 6)
_FLANK_A = _VV >= 8
_FLANK_B = _VV <= -8


_CACHE: dict[tuple, object] = {}


def _cached(kind: Hashable, board: Board, make):
    key = (kind, board.name, id(board))  # boards are frozen and loaded once per name
    if key not in _CACHE:
        _CACHE[key] = make()
    return _CACHE[key]


def space_table(board: Board) -> tuple[tuple[Route, ...], np.ndarray, np.ndarray]:
    """Routes in a fixed order, each space's (x, y, angle) and the index of its route."""
    return _cached("spaces", board, lambda: _space_table(board))


def _space_table(board: Board) -> tuple[tuple[Route, ...], np.ndarray, np.ndarray]:
    routes = tuple(sorted(board.routes.values(), key=lambda r: r.id))
    rows, owner = [], []
    for i, route in enumerate(routes):
        for space in route.spaces:
            rows.append((space.x, space.y, space.angle))
            owner.append(i)
    return routes, np.array(rows, dtype=np.float32), np.array(owner, dtype=np.int32)


def space_axes(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """Each space's unit vectors along and across it, (N, 2) each in ``space_table`` order:
    a patch shifted by ``s`` across its space moves by ``s`` times the second."""
    return _cached("axes", board, lambda: _space_axes(board))


def _space_axes(board: Board) -> tuple[np.ndarray, np.ndarray]:
    _, spaces, _ = space_table(board)
    angle = np.deg2rad(spaces[:, 2])
    return np.c_[np.cos(angle), np.sin(angle)], np.c_[-np.sin(angle), np.cos(angle)]


# background points lie on a grid of this many art px, from this one
_GRID, _GRID_FROM = 12, 20


def background_points(board: Board) -> np.ndarray:
    """Points of the map far from every route and city: plain paper to calibrate colours."""
    return _cached("background", board, lambda: _background_points(board))


def _background_points(board: Board) -> np.ndarray:
    _, spaces, _ = space_table(board)
    w, h = int(board.art_frame["width"]), int(board.art_frame["height"])
    free = np.full((h, w), 255, dtype=np.uint8)
    for x, y, _angle in spaces:
        cv2.circle(free, (int(x), int(y)), 35, 0, -1)
    for city in board.cities.values():
        cv2.circle(free, (int(city.x), int(city.y)), 40, 0, -1)
    gx, gy = np.meshgrid(np.arange(_GRID_FROM, w - 20, _GRID), np.arange(_GRID_FROM, h - 20, _GRID))
    keep = free[gy, gx] > 0
    return np.c_[gx[keep], gy[keep]].astype(np.float32)


# OpenCV builds its 8-bit Lab tables on the first conversion (~0.2 s): once, when the detector
# is imported (a server does it at start), not inside the first photo's time
cv2.cvtColor(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2Lab)


def veil_map(
    bgr: np.ndarray, scale: float = 1.0, cell: float = 140.0, dark_share: float = 0.02,
    light_share: float = 0.9, deadband: float = 10.0, white: float = 250.0, most: float = 0.8,
    broad: bool = False, paper: float = 0.0,
) -> np.ndarray:
    """How much of a glare's white veil lies over each pixel of a rectified board, (H, W) in
    0..``most``: a glare spot mixes a share ``s`` of white into the photo, ``(1 - s) * colour +
    s * white``, which lifts the dark pieces and print as much as it lifts the paper.

    Each ``cell`` art px square has a black level (its darkest ``dark_share``) and a light
    one (``light_share``). Uneven light scales both alike, so the photo's own ratio of the two
    is taken from its least veiled squares; what lifts a square's black level above that
    ratio (by more than ``deadband``) is the veil. A square may hold nothing dark of its own,
    which reads as a veil: the least of each square's neighbours is taken, spread by a
    Gaussian of one square. A broad spot comes out weaker than it is (a spot of 0.6 at its
    centre as ~0.2-0.35), never a plain photo's falling light. ``broad`` then takes the most of
    each square's neighbours' least (an opening), and where more, the spot as one round bump
    under the squares' lifts (``_spot_fit``): a spot's top nearly whole (on the real photos'
    variants under spots of 0.2-0.75, 0.05 too weak on average under the spot, against 0.08
    with the opening alone and 0.15 with the least), but a plain photo's squares without dark
    print read as a veil of up to 0.15 in small patches: only for a photo where the first
    measure found a spot (``classify.read_board``).

    A photo exposed brighter lifts every square's dark level with its light, and that lift
    is measured as a veil: with ``paper`` (0: off) the photo is measured as if its squares'
    median light were no more than ``paper``.
    """
    h, w = bgr.shape[:2]
    step = 4  # a low percentile needs no more than every 4th pixel
    grey = bgr[::step, ::step].mean(axis=2, dtype=np.float32)
    size = max(int(round(cell * scale / step)), 2)
    rows, cols = -(-grey.shape[0] // size), -(-grey.shape[1] // size)
    padded = np.pad(grey, ((0, rows * size - grey.shape[0]), (0, cols * size - grey.shape[1])),
                    mode="edge")
    blocks = padded.reshape(rows, size, cols, size).transpose(0, 2, 1, 3).reshape(rows, cols, -1)
    n = blocks.shape[-1]
    k, top = int(dark_share * n), int(light_share * n)
    part = np.partition(blocks, (k, top), axis=-1)
    dark, light = part[..., k], part[..., top]
    if paper > 0:
        gain = max(float(np.median(light)) / paper, 1.0)
        dark, light = dark / gain, light / gain
    # light falls unevenly too (a lamp to one side), which scales dark and light alike: a veil
    # is what lifts the dark above the photo's own ratio of dark to light
    ratio = float(np.percentile(dark / np.maximum(light, 1.0), 5))
    lifts = ((dark - ratio * light - deadband) / max(white * (1 - ratio), 1.0)).astype(np.float32)
    square = np.ones((3, 3), np.uint8)
    share = cv2.erode(lifts, square, borderType=cv2.BORDER_REPLICATE)
    if broad:
        opened = cv2.dilate(share, square, borderType=cv2.BORDER_REPLICATE)
        share = np.maximum(cv2.GaussianBlur(opened, (0, 0), 1.0,
                                            borderType=cv2.BORDER_REPLICATE),
                           _spot_fit(lifts, share))
    else:
        share = cv2.GaussianBlur(share, (0, 0), 1.0, borderType=cv2.BORDER_REPLICATE)
    return _over_the_map(np.clip(share, 0.0, most), size * step, h, w)


def _spot_fit(lifts: np.ndarray, least: np.ndarray, below: float = 0.3,
              rounds: int = 8) -> np.ndarray:
    """A glare spot as one round Gaussian bump under the squares' lifts (``veil_map``'s, one
    per square): centred within a square of the neighbours' least's top (``least``), its width
    from 1 to 6 squares, its height by least squares weighing the lifts above it ``below``
    and those under it ``1 - below`` (squares without dark print lift more than the veil:
    the bump runs under most of them). Nowhere more than a square's own lift: a square's dark
    print bounds the veil over it, whatever the spot's shape (the renders' spots are
    elliptical, up to three on a board: there, lanes right 98.58 -> 98.72 % against the
    opening alone, asked 6.6 -> 6.8 %; 98.70 % and 7.0 % with 0.05 of slack over the lift)."""
    rows, cols = lifts.shape
    top = cv2.GaussianBlur(least, (0, 0), 1.0, borderType=cv2.BORDER_REPLICATE)
    cy, cx = np.unravel_index(int(np.argmax(top)), top.shape)
    yy, xx = np.mgrid[0:rows, 0:cols].astype(np.float32)
    best, best_cost = np.zeros_like(lifts), np.inf
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            squared = (xx - cx - dx) ** 2 + (yy - cy - dy) ** 2
            for sigma in np.arange(1.0, 6.01, 0.5):
                bump = np.exp(-squared / (2 * sigma**2))
                weight = np.ones_like(lifts)
                for _ in range(rounds):
                    height = float((weight * bump * lifts).sum()
                                   / max(float((weight * bump * bump).sum()), 1e-9))
                    fit = height * bump
                    weight = np.where(lifts > fit, below, 1 - below)
                cost = float((weight * (lifts - fit) ** 2).sum())
                if cost < best_cost:
                    best, best_cost = fit, cost
    return np.minimum(best, lifts)


def blown_spaces(
    bgr: np.ndarray, board: Board, scale: float = 1.0, level: int = 248, half: float = 12.0,
) -> np.ndarray:
    """Per space (``space_table`` order), the share of the square of ``half`` art px around
    its centre that a glare spot has burnt out to white (every channel at ``level`` or more):
    there no veil can be taken off, the photo shows nothing of what lies on the space."""
    burnt = (bgr.min(axis=2) >= level).astype(np.float32)
    total = cv2.integral(burnt)
    _, spaces, _ = space_table(board)
    h, w = burnt.shape
    r = max(int(round(half * scale)), 1)
    x = np.round(spaces[:, 0] * scale).astype(int)
    y = np.round(spaces[:, 1] * scale).astype(int)
    x0, x1 = np.clip(x - r, 0, w), np.clip(x + r + 1, 0, w)
    y0, y1 = np.clip(y - r, 0, h), np.clip(y + r + 1, 0, h)
    inside = total[y1, x1] - total[y0, x1] - total[y1, x0] + total[y0, x0]
    return inside / np.maximum((x1 - x0) * (y1 - y0), 1)


def burnt_by_glare(burnt: np.ndarray, board: Board) -> np.ndarray:
    """``burnt`` (per space in ``space_table`` order, burnt out to white: ``blown_spaces``)
    kept where a glare spot may have burnt it: a photo exposed brighter than its paper can
    take clips the print of the white routes, never a piece nor coloured print (the real
    photos brightened x1.35 burn 2-7 spaces, all of white routes; a glare spot burnt coloured
    print on each of the 12 variants under one, 10-37 spaces): spaces burnt on white print
    alone are read as they are."""
    routes, _, owner_of = space_table(board)
    pale = np.array([routes[i].color == "white" for i in owner_of])
    return burnt if (burnt & ~pale).any() else np.zeros_like(burnt)


def unveil(bgr: np.ndarray, share: np.ndarray, white: float = 250.0) -> np.ndarray:
    """The photo without the white veil of ``veil_map``: ``(observed - s * white) / (1 - s)``."""
    s = share[..., None]
    return np.clip((bgr - s * white) / (1.0 - s), 0, 255).astype(np.uint8)


def white_balance(bgr: np.ndarray, board: Board, scale: float = 1.0) -> np.ndarray:
    """The rectified board with its paper made grey by one gain per channel: a lamp's or a
    window's colour multiplies each channel (and the camera's gamma keeps it a product), so
    the gains that make the paper grey undo it on the pieces too, dark or light. The board's
    own tints (a bluish sea, a yellowish land) stay, as the paper around each point is
    measured afterwards (``paper_map``)."""
    pts = (background_points(board) * scale).astype(int)
    values = bgr[pts[:, 1], pts[:, 0]].astype(np.float32)
    paper = _paper_colour(values, values.mean(axis=1))
    gains = (paper.mean() / np.maximum(paper, 1.0)).astype(np.float32)
    # one table per channel: ten times faster than the product over the whole board
    table = np.clip(np.arange(256, dtype=np.float32)[:, None] * gains, 0, 255).astype(np.uint8)
    return cv2.LUT(bgr, table.reshape(256, 1, 3))


def to_lab(rectified_bgr: np.ndarray) -> np.ndarray:
    """Float Lab (OpenCV 8-bit ranges) of a rectified board."""
    return cv2.cvtColor(rectified_bgr, cv2.COLOR_BGR2Lab).astype(np.float32)


def _paper_colour(values: np.ndarray, lightness: np.ndarray | None = None) -> np.ndarray:
    """The paper's colour from some of its points (Lab, or BGR with their ``lightness``): the
    median of the lighter half (the darker half holds printed lines and relief)."""
    light = values[:, 0] if lightness is None else lightness
    return np.median(values[light >= np.median(light)], axis=0)


def paper_map(
    lab: np.ndarray, board: Board, scale: float = 1.0, cell: float = 140.0,
    smooth: float = 1.0, ratio: tuple[float, float] = (0.6, 1.6),
) -> np.ndarray:
    """The paper's Lab at every pixel of the map, (H, W, 3): light falls unevenly on a board
    (a lamp to one side, a shadow over one corner), so one colour for the whole photo leaves
    a shaded yellow piece looking orange and a lit black one grey.

    Each ``cell`` art px square takes the median of its light background points (as the
    whole photo's paper is measured over all of them); the squares are spread over the map by a
    normalised Gaussian of ``smooth`` squares, so one without paper (dense routes) takes its
    neighbours' colour, and the photo's own where none is near. Lightness stays within
    ``ratio`` of the photo's paper: a square covered by pieces or cards is not paper.
    """
    h, w = lab.shape[:2]
    pts = (background_points(board) * scale).astype(int)
    values = lab[pts[:, 1], pts[:, 0]]
    photo_paper = _paper_colour(values)
    step = cell * scale
    cols, rows = int(np.ceil(w / step)), int(np.ceil(h / step))
    square = (np.minimum(pts[:, 1] // step, rows - 1) * cols
              + np.minimum(pts[:, 0] // step, cols - 1)).astype(int)
    colour = np.zeros((rows * cols, 3), np.float32)
    weight = np.zeros(rows * cols, np.float32)
    for k in np.unique(square):
        v = values[square == k]
        if len(v) >= 8:  # a few points are a printed line or a city name, not the paper
            colour[k] = _paper_colour(v)
            weight[k] = 1.0
    colour, weight = colour.reshape(rows, cols, 3), weight.reshape(rows, cols)
    spread = cv2.GaussianBlur(colour * weight[..., None], (0, 0), smooth,
                              borderType=cv2.BORDER_REPLICATE)
    near = cv2.GaussianBlur(weight, (0, 0), smooth, borderType=cv2.BORDER_REPLICATE)
    grid = np.where(near[..., None] > 1e-3, spread / np.maximum(near, 1e-3)[..., None],
                    photo_paper)
    grid[..., 0] = np.clip(grid[..., 0], ratio[0] * photo_paper[0], ratio[1] * photo_paper[0])
    return _over_the_map(grid, round(step), h, w)


def fine_light(light: np.ndarray, board: Board, scale: float, cell: float,
               fine: float) -> np.ndarray:
    """The paper's lightness at a finer scale than ``paper_map``'s squares, as a ratio to it,
    (H, W): a shadow's edge (a phone, an arm, a lamp's edge) crosses a square, whose one
    colour leaves the shaded side's pieces too dark and the lit side's washed out.

    On the grid of background points, each point's paper is the lightest of its 3 x 3
    neighbours (a printed line or a city name is thinner than that); that paper measured over
    ``fine`` art px, as a ratio to the same spread over the squares' ``cell``, is what the
    squares missed."""
    h, w = light.shape
    coarse, fine = cell / _GRID, fine / _GRID
    pts = background_points(board)
    at = np.round((pts - _GRID_FROM) / _GRID).astype(int)
    cols, rows = at[:, 0].max() + 1, at[:, 1].max() + 1
    grid = np.zeros((rows, cols), np.float32)
    px = np.clip((pts * scale).astype(int), 0, [w - 1, h - 1])
    grid[at[:, 1], at[:, 0]] = light[px[:, 1], px[:, 0]]
    square = np.ones((3, 3), np.uint8)
    paper = cv2.dilate(grid, square)
    seen = cv2.dilate((grid > 0).astype(np.float32), square)

    def spread(sigma: float) -> np.ndarray:
        near = cv2.GaussianBlur(seen, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)
        return cv2.GaussianBlur(paper * seen, (0, 0), sigma,
                                borderType=cv2.BORDER_REPLICATE) / np.maximum(near, 1e-3)

    ratio = np.clip(spread(fine) / np.maximum(spread(coarse), 1.0), 0.5, 2.0)
    # the grid's point (i, j) lies at art px _GRID_FROM + _GRID * (i, j)
    m = np.float32([[1 / (_GRID * scale), 0, -_GRID_FROM / _GRID],
                    [0, 1 / (_GRID * scale), -_GRID_FROM / _GRID]])
    inverse = cv2.invertAffineTransform(m)
    return cv2.warpAffine(ratio, inverse, (w, h), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def paper_light(paper_lightness: np.ndarray, board: Board, scale: float = 1.0) -> np.ndarray:
    """The light on each space (``space_table`` order): the paper's lightness there
    (``paper_map``'s) over the photo's paper's, the median over its background points. A
    photo's own light falls to 0.64-0.7 of it in its corners; a shadow leaving 0.4 of the
    light lies at ~0.68 of a lit board's, where the shadow covers most of it lower still."""
    _, spaces, _ = space_table(board)
    h, w = paper_lightness.shape
    at = np.clip(np.round(spaces[:, :2] * scale).astype(int), 0, [w - 1, h - 1])
    pts = np.clip((background_points(board) * scale).astype(int), 0, [w - 1, h - 1])
    whole = float(np.median(paper_lightness[pts[:, 1], pts[:, 0]]))
    return paper_lightness[at[:, 1], at[:, 0]] / max(whole, 1.0)


def _over_the_map(grid: np.ndarray, size: int, h: int, w: int) -> np.ndarray:
    """A value per square of ``size`` px (rows, cols[, channels]) at every pixel of an
    (``h``, ``w``) map: each square's value at its centre, stretched linearly over whole
    squares, then cut to the map."""
    rows, cols = grid.shape[:2]
    full = cv2.resize(grid.astype(np.float32), (cols * size, rows * size),
                      interpolation=cv2.INTER_LINEAR)
    return full[:h, :w]


def normalise(lab: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """Scale lightness and chroma so that the paper has the same colour in every photo and
    across the board: ``paper`` is one Lab colour, or one per pixel (``paper_map``).

    Less light scales L*, a* and b* alike (each goes with the cube root of the light), so a
    colour's chroma, measured from the paper's, is scaled by the same ratio as its lightness:
    a dim photo's red pieces are as red as a bright one's, not greyer.
    """
    out = lab.copy()
    ratio = PAPER_LAB[0] / np.maximum(paper[..., 0], 1.0)
    out[..., 0] *= ratio
    out[..., 1] = (lab[..., 1] - paper[..., 1]) * ratio + PAPER_LAB[1]
    out[..., 2] = (lab[..., 2] - paper[..., 2]) * ratio + PAPER_LAB[2]
    return out


def tone_power(lab: np.ndarray, board: Board, scale: float, light: float, deadband: float,
               lowest: float, inside: np.ndarray | None = None,
               paper: np.ndarray | None = None) -> float:
    """The power that lifts back the mid-tones of a photo that presses them down (1: none),
    from its normalised board (``normalise``): a phone's tone curve (a steeper gamma, an HDR
    look) makes grey print read as black pieces and dark green as black. The print between
    the routes and cities (``_print_points``) is the same on every copy of a board: its lower
    quartile of lightness lies at ``light`` of the paper's on the real photos (0.81-0.85 of
    it, USA and Europe). Lower, the power brings it back there, not below ``lowest``; within
    ``deadband`` of 1, none. ``inside``: the pixels the photo shows (``geometry.photo_area``;
    None: all), the print measured there only. ``paper``: the board's paper (``paper_map``)
    when ``lab`` is not normalised yet: its lightness is normalised at the print alone, as
    ``normalise`` would, not over the whole board (~70 ms a photo)."""
    at = _print_points(board, lab.shape[:2], scale, inside)
    if len(at) < _ENOUGH_PRINT:
        return 1.0
    lightness = lab[..., 0].ravel()[at]
    if paper is not None:
        lightness *= PAPER_LAB[0] / np.maximum(paper[..., 0].ravel()[at], 1.0)
    seen = float(np.percentile(lightness, 25)) / PAPER_LAB[0]
    power = max(float(np.log(light) / np.log(np.clip(seen, 0.3, 0.98))), lowest)
    return 1.0 if power > 1.0 - deadband else power


def tone_curve(bgr: np.ndarray, power: float) -> np.ndarray:
    """The photo with each channel raised to ``power`` (``tone_power``): a phone's tone curve
    is one curve on every channel, so it is undone on the channels, not on the lightness
    alone (which leaves the colours it saturated as they are: the real photos' copies through
    a gamma of 1.6 read 93.0 % of lanes right lifted on the lightness, 98.3 % on the
    channels)."""
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** power + 0.5, 0, 255).astype(np.uint8)
    return cv2.LUT(bgr, lut)


def print_chroma(lab: np.ndarray, board: Board, scale: float, reference: float | None,
                 deadband: float, most: float, inside: np.ndarray | None = None) -> np.ndarray:
    """The normalised board (``normalise``) with the colours of a photo that dulls them
    brought back: a phone's saturation, or its noise reduction in a dim room, greys red and
    yellow pieces towards empty. The print between the routes and cities (``_print_points``)
    spreads its colours as far on every copy of a board: the upper quartile of their distance
    from the print's median colour is ``reference`` on the real photos of the board (None:
    not measured, nothing changes). Lower by more than ``deadband`` times, every colour's
    distance from the paper's is stretched by the ratio, at most ``most`` times; a photo
    spreading it wider is left as it is (a cast the white balance left over widens it too).
    ``inside`` as for ``tone_power``."""
    at = _print_points(board, lab.shape[:2], scale, inside)
    if reference is None or len(at) < _ENOUGH_PRINT:
        return lab
    ab = lab.reshape(-1, 3)[at, 1:]
    spread = float(np.percentile(np.linalg.norm(ab - np.median(ab, axis=0), axis=1), 75))
    gain = min(reference / max(spread, 1e-6), most)
    if gain < 1.0 + deadband:
        return lab
    out = lab.copy()
    out[..., 1:] = PAPER_LAB[1:] + (lab[..., 1:] - PAPER_LAB[1:]) * gain
    return out


# fewer print points than this in the photo (a board mostly outside it): no tone nor colours
_ENOUGH_PRINT = 2000


def _print_points(board: Board, shape: tuple[int, int], scale: float,
                  inside: np.ndarray | None = None) -> np.ndarray:
    """Flat indices of every 7th pixel of a rectified board of ``shape`` that shows print
    alone: away from every space (a piece's footprint and more), city and the frame; with
    ``inside``, only those it holds."""
    at = _board_print_points(board, shape, scale)
    return at if inside is None else at[inside.ravel()[at]]


def _board_print_points(board: Board, shape: tuple[int, int], scale: float) -> np.ndarray:
    def make() -> np.ndarray:
        keep = np.ones(shape, np.uint8)
        for x, y, angle in space_table(board)[1]:
            box = cv2.boxPoints(((x * scale, y * scale), (60 * scale, 30 * scale), angle))
            cv2.fillPoly(keep, [box.astype(np.int32)], 0)
        for city in board.cities.values():
            cv2.circle(keep, (int(city.x * scale), int(city.y * scale)), int(30 * scale), 0, -1)
        rim = int(40 * scale)
        keep[:rim], keep[-rim:], keep[:, :rim], keep[:, -rim:] = 0, 0, 0, 0
        return np.flatnonzero(keep.ravel())[::7]
    return _cached(("print", shape, scale), board, make)


def sample_patches(
    image: np.ndarray, board: Board, scale: float = 1.0, offset: np.ndarray | None = None
) -> np.ndarray:
    """The oriented patch of every space: an (N spaces, P points, C) array.

    ``offset`` may also be a stack of (S, N, 2) offsets: then the patches of every space at
    each offset in turn, (S * N, P, C).
    """
    return _remap(image, *_patch_maps(board, scale, offset))


def _patch_maps(
    board: Board, scale: float, offset: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """Where ``sample_patches`` reads: x and y maps of (rows of spaces, P points)."""
    _, spaces, _ = space_table(board)
    x, y = spaces[:, 0:1], spaces[:, 1:2]
    if offset is not None:
        x, y = x + offset[..., 0:1], y + offset[..., 1:2]
    angle = np.deg2rad(spaces[:, 2:3])
    c, s = np.cos(angle), np.sin(angle)
    px = ((x + _UU * c - _VV * s) * scale).reshape(-1, len(_UU))
    py = ((y + _UU * s + _VV * c) * scale).reshape(-1, len(_UU))
    return px.astype(np.float32), py.astype(np.float32)


def _remap(image: np.ndarray, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    return cv2.remap(image, px, py, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def space_features(
    lab: np.ndarray, board: Board, scale: float = 1.0, offset: np.ndarray | None = None
) -> np.ndarray:
    """One feature row per space (in ``space_table`` order) from a normalised Lab image."""
    return shifted_features(lab, board, scale, (0.0,), offset)[0]


def shifted_features(
    lab: np.ndarray, board: Board, scale: float, shifts: tuple[float, ...],
    offset: np.ndarray | None = None,
) -> list[np.ndarray]:
    """``space_features`` with every patch moved ``shift`` art px across its space, per shift.

    Averaging a model over a few sideways shifts makes it tolerant of pieces placed off
    their spaces and of a few px of error in the printed positions.
    """
    light = np.ascontiguousarray(lab[..., 0])  # once, not a copy inside each Sobel
    grad = cv2.magnitude(cv2.Sobel(light, cv2.CV_32F, 1, 0), cv2.Sobel(light, cv2.CV_32F, 0, 1))
    grad /= max(scale, 1e-6)
    _, spaces, _ = space_table(board)
    _, normal = space_axes(board)
    base = np.zeros_like(normal) if offset is None else offset
    # every shift in one batch of S * N rows: one remap and one set of sorts, not one per shift
    moved = np.stack([base + normal * shift for shift in shifts])
    if offset is None:  # the detector's case: the same maps for every photo
        # by repr: a float and a numpy float of one value round the maps differently
        key = ("maps", repr(scale), repr(tuple(shifts)))
        px, py = _cached(key, board, lambda: _patch_maps(board, scale, moved))
    else:
        px, py = _patch_maps(board, scale, moved)
    # Lab and gradient sampled apart (the same maps, so the same values) spare stacking a
    # 4-channel copy of the whole board
    rows = _features(_remap(lab, px, py), _remap(grad, px, py), board, len(shifts))
    return list(rows.reshape(len(shifts), len(spaces), -1))


_CORE_AT = np.flatnonzero(_CORE)
_FLANKS_AT = np.stack([np.flatnonzero(_FLANK_A), np.flatnonzero(_FLANK_B)])


def _features(colour: np.ndarray, edges: np.ndarray, board: Board, shifts: int) -> np.ndarray:
    """Feature rows from the sampled (S * N, P, 3) Lab and (S * N, P) gradient patches.

    Every median and percentile here falls on a whole rank (the middle of 91, 51, 221 and 13
    points, 10 and 90 % of 91 and 221), so each is one element of the sorted values: one
    vectorised sort of contiguous rows per block, several times faster than ``np.median`` and
    ``np.percentile`` across the middle axis. The sums (std, mean) are taken in the order the
    shipped model's training features were, so they round alike.
    """
    routes, _, owner = space_table(board)
    by_channel = np.ascontiguousarray(colour.transpose(2, 0, 1))  # (3, S * N, P)
    core_points = by_channel[:, :, _CORE_AT]
    core = np.sort(core_points, axis=-1)
    flanks = by_channel[:, :, _FLANKS_AT]
    flanks.sort(axis=-1)
    profile = light_profile(by_channel[0]).transpose(0, 2, 1).copy()  # (S * N, U, V)
    profile.sort(axis=-1)
    profile = np.ascontiguousarray(profile[..., _rank(len(_V), 50)])
    wide_std = by_channel[0].std(axis=1, keepdims=True)
    by_channel.sort(axis=-1)
    core_n, wide_n, flank_n = core.shape[-1], by_channel.shape[-1], flanks.shape[-1]
    core_med = core[:, :, _rank(core_n, 50)].T
    wide_med = by_channel[:, :, _rank(wide_n, 50)].T
    flank_a, flank_b = (flanks[:, :, side, _rank(flank_n, 50)].T for side in (0, 1))
    dist_a = np.linalg.norm(flank_a - core_med, axis=1)
    near_a = dist_a <= np.linalg.norm(flank_b - core_med, axis=1)
    near = np.where(near_a[:, None], flank_a, flank_b)
    far = np.where(near_a[:, None], flank_b, flank_a)
    shift_of = np.repeat(np.arange(shifts), len(owner))
    owner_of = np.tile(owner, shifts)
    lane_mean = np.zeros((shifts, len(routes), 3), dtype=np.float32)
    np.add.at(lane_mean, (shift_of, owner_of), core_med)
    lane_mean /= np.bincount(owner, minlength=len(routes))[:, None]  # as one shift at a time
    lane_mean = lane_mean[shift_of, owner_of]
    lane_spread = np.linalg.norm(core_med - lane_mean, axis=1)
    # np.std over the middle axis (as the training features had it) sums point after point,
    # not pairwise as along a contiguous row: the same order here, so the same rounding
    core_std = np.ascontiguousarray(core_points.transpose(0, 2, 1)).std(axis=1).T
    return np.hstack([
        core_med,
        core[0, :, [_rank(core_n, 10), _rank(core_n, 90)]].T,
        core_std,
        wide_med,
        by_channel[0, :, [_rank(wide_n, 10), _rank(wide_n, 90)]].T,
        wide_std,
        near, far,
        edges[:, _CORE_AT].mean(axis=1, keepdims=True),
        edges.mean(axis=1, keepdims=True),
        profile.std(axis=1, keepdims=True),
        profile.min(axis=1, keepdims=True),
        profile.max(axis=1, keepdims=True),
        lane_mean,
        lane_spread[:, None],
        np.tile(_cached("printed", board, lambda: _printed_colours(board)), (shifts, 1)),
    ], dtype=np.float32)


def _rank(count: int, percent: int) -> int:
    """The sorted position that ``np.percentile(values, percent)`` of ``count`` values is."""
    rank, rest = divmod(percent * (count - 1), 100)
    if rest:  # a patch shape whose percentile interpolates: not one element
        raise ValueError(f"{percent} % of {count} values falls between two of them")
    return rank


def _printed_colours(board: Board) -> np.ndarray:
    """One-hot printed colour of each space's route (none for a colour not in PRINTED_COLORS)."""
    routes, _, owner = space_table(board)
    printed = np.zeros((len(owner), len(PRINTED_COLORS)), dtype=np.float32)
    index = {c: i for i, c in enumerate(PRINTED_COLORS)}
    for i, r in enumerate(owner):
        col = index.get(routes[r].color)
        if col is not None:
            printed[i, col] = 1.0
    return printed


def light_profile(light_patch: np.ndarray) -> np.ndarray:
    """Lightness by position along the space: (N, V rows, U columns) of the patch."""
    return light_patch.reshape(len(light_patch), len(_V), len(_U))
