"""Stage 2: find the board's four outer corners in a photo, upright, with a confidence.

Candidates come from several cheap segmentations (the whole frame, "far from the table
colour", edges). Each is read in its four rotations and scored by the board content: at the
printed train spaces the photo must differ from the paper and agree along each route. The
best candidate is then polished by the same score and snapped to the board's outer edges.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from scorer.boards import Board
from scorer.messages import N_
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.errors import BoardNotFound
from scorer.vision.geometry import (
    art_corners,
    art_to_photo,
    corner_error,
    diagonal,
    is_convex_quad,
    order_clockwise,
    project,
    rotations,
)
from scorer.vision.sample import background_points, space_axes, space_table

# a board whose content score is below this is not a board (a right board scores 40-90)
_MIN_SCORE = 18.0
_BOARD_ASPECT = 79.5 / 52.5


@dataclass(frozen=True)
class Located:
    corners: np.ndarray  # (4, 2) in the pixels of the image given to ``locate``
    # the corners that put the printed spaces best onto the photo (what lanes are read with)
    art_corners: np.ndarray
    confidence: float
    score: float


def resize_long(image: np.ndarray, long_side: int, interpolation: int = cv2.INTER_AREA,
                ) -> tuple[np.ndarray, float]:
    scale = min(1.0, long_side / max(image.shape[:2]))
    if scale == 1.0:
        return image, 1.0
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=interpolation)
    return small, scale


def blurred_lab(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_BGR2Lab).astype(np.float32)


class ContentScore:
    """How well a corner hypothesis puts the printed spaces onto route-like pixels."""

    def __init__(self, lab: np.ndarray, board: Board):
        self.lab, self.board = lab, board
        # how far the map may be printed off the board_frame, in art px
        slack_cm = (_MEASURED_FRAME_SLACK_CM if board.board_frame.get("measured")
                    else _ASSUMED_FRAME_SLACK_CM)
        self.frame_slack = slack_cm / board.board_frame["ax"]
        self.routes, spaces, self.owner = space_table(board)
        along, _ = space_axes(board)
        self.n_points = len(spaces)
        # a few hundred paper points measure the paper as well as thousands, much faster
        points = np.vstack([*(spaces[:, :2] + k * along for k in (-12, 0, 12)),
                            background_points(board)[::7]])
        self.points = np.c_[points, np.ones(len(points))]  # homogeneous: one product per call
        # the mean of each route's spaces as one matrix product
        member = np.zeros((len(self.routes), len(spaces)))
        member[self.owner, np.arange(len(spaces))] = 1.0
        self.route_average = (member / member.sum(axis=1, keepdims=True)).astype(np.float32)

    def __call__(self, corners: np.ndarray, shift: tuple[float, float] = (0.0, 0.0)) -> float:
        """The score of the board at ``corners`` with its map printed ``shift`` art px off
        the board_frame."""
        if not is_convex_quad(corners):
            return -1e9
        moved = np.array([[1.0, 0.0, shift[0]], [0.0, 1.0, shift[1]], [0.0, 0.0, 1.0]])
        p = self.points @ (art_to_photo(self.board, corners) @ moved).T
        p = (p[:, :2] / p[:, 2:]).astype(np.float32)
        samples = cv2.remap(self.lab, p[:, :1], p[:, 1:], cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))[:, 0]
        n = self.n_points
        s = (samples[:n] + samples[n:2 * n] + samples[2 * n:3 * n]) / 3.0
        paper_samples = samples[3 * n:]
        paper = _median(paper_samples)
        # the paper between routes is one plain colour: a quad reaching onto the table is not
        paper_spread = _median(_norms(paper_samples - paper))
        contrast = _median(_norms(s - paper))
        route_mean = self.route_average @ s
        spread = float(np.mean(_norms(s - route_mean[self.owner])))
        # routes differ in colour (pieces, printed colours): a uniform table does not
        between = _median(_norms(route_mean - _median(route_mean)))
        return float(contrast - spread - paper_spread) * min(1.0, float(between) / 25.0)


def _best_frame_shift(score: ContentScore, corners: np.ndarray, best: float) -> float:
    """The content score at ``corners`` (``best`` as printed) with the map moved within the
    frame's slack to where it fits best (the outline is then judged by the board's edges,
    not by the print)."""
    shift = np.zeros(2)
    step = score.frame_slack / 2
    while step >= 0.2 * score.frame_slack > 0:
        improved = True
        while improved:
            improved = False
            for move in ((step, 0), (-step, 0), (0, step), (0, -step)):
                trial = shift + move
                if np.max(np.abs(trial)) > score.frame_slack:
                    continue
                value = score(corners, tuple(trial))
                if value > best:
                    best, shift, improved = value, trial, True
        step /= 2
    return best


def _median(a: np.ndarray):
    """``np.median(a, axis=0)`` without its overhead (it is called thousands of times)."""
    n = len(a)
    k = n // 2
    if n % 2:
        return np.partition(a, k, axis=0)[k]
    part = np.partition(a, (k - 1, k), axis=0)
    return (part[k - 1] + part[k]) / 2


def _norms(rows: np.ndarray) -> np.ndarray:
    return np.sqrt(np.einsum("ij,ij->i", rows, rows))


def locate(image: np.ndarray, board: Board, config: VisionConfig = DEFAULT) -> Located:
    """The board's corners (TL, TR, BR, BL upright) in ``image`` pixels; BoardNotFound if none.

    Every candidate outline, in each plausible orientation, is pulled onto the printed spaces
    by the aligner (which converges from a few % of the diagonal away); the content score and
    the correlation with the pattern of spaces pick the winner, and its margin over a
    different answer makes the confidence. Outlines from long straight lines are only tried
    when the cheap segmentations found nothing sure (busy or board-coloured tables). When
    nothing passes, the search runs once more with the aligner measuring the paper around
    each pixel rather than one paper colour (a glare spot or a lamp in a dim room light the
    paper unevenly, and the one colour then hides the routes in the bright part), its best
    few outlines picked by the pattern of spaces."""
    small, scale = resize_long(image, config.locate_long_side)
    # the edge search's image is blurred before use, so a plain linear resize does for it
    # (and is five times cheaper than by area)
    mid, mid_scale = resize_long(image, config.refine_long_side, cv2.INTER_LINEAR)
    lab = blurred_lab(small)
    search = _Search(lab, board)
    found = _best_fit(search, small, lab)
    if found is None or not _plain_fit(found):
        search = _Search(lab, board, local_paper=True, score=search.score)
        found = _best_fit(search, small, lab) if found is None else _refit(search, found)
    if found is None:
        raise BoardNotFound(_NOT_FOUND)
    best, best_score, best_corr, rival = found
    value = best_score * _pattern(best_corr)
    fitted = best / scale
    corners, sides = snap_to_edges(mid, mid_scale, fitted, config, search.score, scale)
    frame = _cropped_frame(image)
    off_frame = corner_error(corners, frame) if frame is not None else np.inf
    if off_frame < 0.015:
        if board.board_frame.get("measured") and off_frame < _AT_THE_FRAME:
            # the board's edges are the photo's, and where the map is printed within them is
            # measured: the frame places the spaces better than the search's fit, which works
            # at a few art px per pixel (1 % of the diagonal off on a deskewed real photo)
            fitted = frame
        corners, sides = frame, 4  # a photo cropped to the board: its edges are the board's
    confidence = _confidence(value, best_corr, rival, sides)
    return Located(corners, fitted, confidence, best_score)


def _best_fit(search: _Search, small: np.ndarray, lab: np.ndarray,
              ) -> tuple[np.ndarray, float, float, float] | None:
    """The best outline in ``small`` pixels, polished, with its content score, its pattern
    correlation and the best value of a different outline; None if it is no board."""
    # against the paper around each pixel, the few are picked by the pattern of spaces: the
    # content score measures from one paper colour, and under a lamp's bright spot a wrong
    # outline reaching into the light can score 20 where the board scores 4
    ranked = search.rank(candidates(small, lab), by_pattern=search.align.local_paper)
    if not ranked or ranked[0][0][2] < _SURE_CORRELATION:
        # long-line quads are rougher than the masks' outlines: aligned from further away
        ranked = sorted(ranked + search.rank(line_quads(small), by_pattern=True, levels=_WIDE),
                        key=lambda h: -h[0][0])
    if not ranked:
        return None
    best, (best_value, best_score, best_corr) = ranked[0][1], ranked[0][0]
    for i, ((value, _, _), corners) in enumerate(ranked[:2]):
        if i and value < 0.5 * best_value:
            continue  # far behind: a finer fit would not make it the best
        fitted = search.align(corners, _FINE)
        if fitted is not None:
            v = search.value(fitted)
            if v[0] > best_value:
                best, (best_value, best_score, best_corr) = fitted, v
    # the content score measures from one paper colour too: on a photo that needed the paper
    # around each pixel its peak is as likely noise, and would pull the aligner's fit off
    if not search.align.local_paper:
        best, best_score = polish(search.score, best, best_score, 0.5 * diagonal(best))
    if best_score * _pattern(best_corr) < _MIN_SCORE and best_corr < _SURE_CORRELATION:
        return None
    rival = max((v[0] for v, c in ranked if corner_error(c, best) > 0.05), default=0.0)
    return best, best_score, best_corr, rival


def _plain_fit(found: tuple[np.ndarray, float, float, float]) -> bool:
    """Whether a search's answer is plainly the board (see ``_Search._plain``)."""
    _, score, correlation, _ = found
    return score >= _PLAIN_SCORE and correlation >= _PLAIN_CORRELATION


def _refit(search: _Search, found: tuple[np.ndarray, float, float, float],
           ) -> tuple[np.ndarray, float, float, float]:
    """``found`` (the answer of a search against one paper colour) aligned again against
    the paper around each pixel (``search`` measures so), kept if the pattern of spaces
    fits better so than it did against one colour. Under a glare spot the one colour hides
    the routes in its bright part: the search still finds the board, but the fit slides a
    few % towards the routes it sees (and the content score's polish follows it there)."""
    best, _, correlation, rival = found
    fitted = search.align(best, _FINE)
    if fitted is None:
        return found
    local = search.align.correlation(fitted)
    if local < correlation + _REFIT_GAIN:
        return found
    return fitted, search.score(fitted), local, rival


class _Search:
    """Candidate outlines to ranked hypotheses: each plausible orientation coarsely aligned,
    the best few by content score then judged by content and pattern correlation."""

    def __init__(self, lab: np.ndarray, board: Board, local_paper: bool = False,
                 score: ContentScore | None = None):
        self.score = score or ContentScore(lab, board)
        self.align = Aligner(lab, board, local_paper)

    def value(self, corners: np.ndarray) -> tuple[float, float, float]:
        """The content score, discounted when the pattern of spaces is not there (a quad
        on a textured table can score on colour alone; correlation is not fooled so)."""
        content, correlation = self.score(corners), self.align.correlation(corners)
        return content * _pattern(correlation), content, correlation

    def rank(self, quads: Iterable[np.ndarray], by_pattern: bool = False,
             levels: tuple | None = None,
             ) -> list[tuple[tuple[float, float, float], np.ndarray]]:
        """The best few hypotheses, each with its ``value``. The few are picked by content
        score, or with ``by_pattern`` by the pattern correlation (slower, but it does not
        need the outline within a percent, and the content score does). ``levels``: the
        aligner's pyramid for every outline (``_COARSE`` unless said)."""
        judge = self.align.correlation if by_pattern else self.score
        hypotheses: list[tuple[float, np.ndarray]] = []
        seen: list[np.ndarray] = []
        for quad in quads:
            if not _is_new(quad, seen):
                continue
            seen.append(quad)
            for corners in rotations(quad):
                if not _lies_long_side_up(corners):
                    continue
                hypotheses.append((judge(corners), corners))
                fitted = self.align(corners, levels or _COARSE)
                if fitted is not None:
                    hypotheses.append((judge(fitted), fitted))
            if not by_pattern and self._plain(hypotheses):
                break  # the later candidates (slower masks) would only be rivals it beats
        hypotheses.sort(key=lambda h: -h[0])
        ranked = [(self.value(c), c) for _, c in _different(hypotheses, 5)]
        return sorted(ranked, key=lambda h: -h[0][0])

    def _plain(self, hypotheses: list[tuple[float, np.ndarray]]) -> bool:
        """Whether the best content fit so far is plainly the board: a content score and a
        pattern correlation that no wrong outline reached on the rendered or real photos."""
        score, corners = max(hypotheses, key=lambda h: h[0], default=(-1e9, None))
        return score >= _PLAIN_SCORE and self.align.correlation(corners) >= _PLAIN_CORRELATION


# a right fit correlates 0.45-0.7 with the pattern of spaces, a wrong one below 0.15
_SURE_CORRELATION = 0.35
# the search stops at the first outline this sure (wrong ones reach 41 / 0.37, never both)
_PLAIN_SCORE, _PLAIN_CORRELATION = 30.0, 0.45
# a fit against the paper around each pixel replaces one against one paper colour when it
# correlates this much better with the pattern of spaces, each measured its own way (a fit
# slid off under a glare spot is 0.05-0.2 behind; on an evenly lit photo the one colour's
# fit correlates as well or better)
_REFIT_GAIN = 0.02
# how far the board_frame may put the map off the board: a measured one (USA) by its median
# error on real photos (3 px of 1500), an assumed one (Europe) by several mm
_MEASURED_FRAME_SLACK_CM, _ASSUMED_FRAME_SLACK_CM = 0.15, 0.7
# the edges found this near a cropped photo's own (share of the diagonal) are its edges
_AT_THE_FRAME = 0.004


def _confidence(value: float, correlation: float, rival: float, sides: int) -> float:
    """High when the content fits well, the pattern of spaces is plainly there, no different
    outline fits nearly as well, and the board's edges were seen: each of these falls on a
    photo we may have read wrong."""
    fit = np.clip((value - _MIN_SCORE) / 30.0, 0.0, 1.0)
    pattern = np.clip((correlation - 0.25) / 0.25, 0.0, 1.0)
    margin = np.clip((value - max(rival, 0.0)) / (0.3 * max(value, 1e-6)), 0.0, 1.0)
    return float(max(fit, 0.5 * pattern) * pattern * margin * (0.7 + 0.075 * sides))


def _cropped_frame(image: np.ndarray) -> np.ndarray | None:
    """The image's own corners when it has the board's shape (a scan or a deskewed crop)."""
    h, w = image.shape[:2]
    if abs(max(w, h) / min(w, h) / _BOARD_ASPECT - 1) >= 0.06:
        return None
    return np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float64)


def _pattern(correlation: float) -> float:
    """1 when the photo shows the board's pattern of spaces (a right fit correlates 0.5-0.7),
    falling to 0 at a chance correlation."""
    return float(np.clip((correlation - 0.1) / 0.3, 0.0, 1.0))


def _lies_long_side_up(corners: np.ndarray) -> bool:
    """The board is 1.5 times wider than tall; perspective up to ~35 degrees never makes
    the long sides look shorter than the short ones by much."""
    side = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    return bool(side[0] + side[2] > 0.8 * (side[1] + side[3]))


def distinct(quads: Iterable[np.ndarray], tolerance: float = 0.02, count: int | None = None,
             ) -> list[np.ndarray]:
    """The first ``count`` (default all) quads without near copies (same corners within
    ``tolerance`` of the diagonal)."""
    out: list[np.ndarray] = []
    for quad in quads:
        if len(out) == count:
            break
        if _is_new(quad, out, tolerance):
            out.append(quad)
    return out


def _is_new(quad: np.ndarray, kept: list[np.ndarray], tolerance: float = 0.02) -> bool:
    return all(min(corner_error(r, q) for r in rotations(quad)) > tolerance for q in kept)


def _different(hypotheses: list[tuple[float, np.ndarray]], count: int):
    """The best ``count`` hypotheses that are not the same outline as a better one."""
    kept: list[tuple[float, np.ndarray]] = []
    for value, corners in hypotheses:
        if all(corner_error(corners, c) > 0.02 for _, c in kept):
            kept.append((value, corners))
            if len(kept) == count:
                break
    return kept


_NOT_FOUND = N_(
    "No board found in the photo: take it from above, the whole board in the frame.")
# aligner pyramid: (template px per art px, ECC smoothing kernel, iterations); coarse for every
# candidate, fine for the best two (the content score's polish takes it from there)
_COARSE = ((1 / 16, 5, 20),)
_FINE = ((1 / 8, 5, 30),)
# from further away (~10 %), through a coarser level first
_WIDE = ((1 / 32, 5, 20), *_COARSE)


class Aligner:
    """Pulls a rough outline onto the board by ECC (enhanced correlation) between a drawing
    of the printed spaces and cities and the photo's "not paper" image, band-passed so big
    areas (sea, table) do not pull. It converges from ~5 % of the diagonal away, where the
    content score's own polish needs < 1 %.

    "Not paper" is the distance from the paper colour under the outline, or with
    ``local_paper`` from the paper around each pixel: under a glare spot or a lamp in a dim
    room the paper is far brighter in one place than in another, and a route in the bright
    place is then nearer the one paper colour than the bright paper beside it is (the routes
    there vanish from the image)."""

    _HIGH_PASS = 40.0  # art px: structures wider than this (sea, shadows) are removed
    # art px: with ``local_paper``, the paper around a pixel is the median of a window this
    # wide: paper outnumbers routes and cities in it, and it follows a glare spot
    _LOCAL_PAPER = 100.0

    def __init__(self, lab: np.ndarray, board: Board, local_paper: bool = False):
        self.board, self.local_paper = board, local_paper
        self.paper = background_points(board)[::7]
        self._features: dict[tuple, np.ndarray] = {}
        self.pyramid = [lab]  # halved until a template pixel spans a couple of photo pixels
        while min(self.pyramid[-1].shape[:2]) > 120:
            self.pyramid.append(cv2.pyrDown(self.pyramid[-1]))

    def __call__(self, corners: np.ndarray, levels) -> np.ndarray | None:
        h = art_to_photo(self.board, corners)
        moved = False
        for k, smoothing, iterations in levels:
            template = _template(self.board, k)
            down, feature = self._view(h, k)
            art_per_template = np.diag([1 / k, 1 / k, 1.0])
            warp = (down @ h @ art_per_template).astype(np.float32)
            warp /= warp[2, 2]
            try:
                _, warp = cv2.findTransformECC(
                    template, feature, warp, cv2.MOTION_HOMOGRAPHY,
                    (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, iterations, 1e-4), None,
                    smoothing)
            except cv2.error:  # diverged: this level keeps the outline it was given
                continue
            h = np.linalg.inv(down) @ warp.astype(np.float64) @ np.linalg.inv(art_per_template)
            moved = True
        if not moved:
            return None
        out = project(h, art_corners(self.board))
        # a diverged alignment can leave a convex outline mostly off the photo, where the
        # content score reads the black beyond the edges as routes on paper (it scored 150,
        # a right board 40-90, and won on a plain photo with a glare spot)
        height, width = self.pyramid[0].shape[:2]
        return out if is_convex_quad(out) and _in_photo(out[None], width, height)[0] else None

    def _view(self, h: np.ndarray, k: float) -> tuple[np.ndarray, np.ndarray]:
        """The pyramid level where a template pixel (1/k art px) spans a couple of photo
        pixels under the art-to-photo homography h: its scaling from the photo, and its
        feature image."""
        # photo px per art px near the middle of the board
        px = float(np.sqrt(abs(np.linalg.det(h[:2, :2] / h[2, 2]))))
        level = 0
        while level + 1 < len(self.pyramid) and px / k / 2 ** (level + 1) >= 1.5:
            level += 1
        down = np.diag([0.5 ** level, 0.5 ** level, 1.0])
        return down, self._feature(self.pyramid[level], down @ h, px * 0.5 ** level, k)

    def correlation(self, corners: np.ndarray, k: float = 1 / 8) -> float:
        """Correlation of the drawing of the spaces and cities with the photo's band-passed
        "not paper" image under these corners: near 0 where the spaces are not."""
        h = art_to_photo(self.board, corners)
        template = _template(self.board, k)
        down, feature = self._view(h, k)
        warp = down @ h @ np.diag([1 / k, 1 / k, 1.0])
        seen = cv2.warpPerspective(feature, warp, template.shape[::-1],
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
        a, b = seen.ravel() - seen.mean(), template.ravel() - template.mean()
        norm = float(np.linalg.norm(a) * np.linalg.norm(b))
        return float(a @ b) / norm if norm > 1e-9 else 0.0  # a blank view: nothing there

    def _feature(self, lab: np.ndarray, h: np.ndarray, px: float, k: float) -> np.ndarray:
        """How far each pixel is from the paper, minus its wide surroundings."""
        if self.local_paper:
            paper = None  # the same image for every hypothesis of this size
            key: tuple = (lab.shape, round(np.log(px) * 5), k)
        else:
            p = project(h, self.paper).astype(np.float32)
            values = cv2.remap(lab, p[:, :1], p[:, 1:], cv2.INTER_LINEAR)[:, 0]
            paper = np.median(values, axis=0).astype(np.float32)
            # hypotheses about one board agree on its paper and size: compute each image once
            key = (lab.shape, *np.round(paper / 6.0).astype(int), round(np.log(px) * 5), k)
        if key not in self._features:
            around = (_local_median(lab, self._LOCAL_PAPER * px) if paper is None
                      else (*paper.tolist(), 0.0))
            far = np.minimum(cv2.sqrt(_squared_norm(cv2.subtract(lab, around))) / 40.0, 1.5)
            far = np.maximum(0.0, far - _wide_blur(far, self._HIGH_PASS * px))
            if 0.5 * px / k > 0.7:  # no finer than the template's pixels
                far = cv2.GaussianBlur(far, (0, 0), 0.5 * px / k)
            self._features[key] = far.astype(np.float32)
        return self._features[key]


def _local_median(lab: np.ndarray, window: float) -> np.ndarray:
    """Each channel's median over a ``window`` px wide square around each pixel (at least
    5 px). A median this wide is smooth: it is taken on 5 x 5 samples spread over the window
    and scaled back up (a wide median filter of the whole image costs more than the rest of
    the search, and OpenCV's is quick up to 5 px only)."""
    h, w = lab.shape[:2]
    step = max(1, round(window / 5))
    samples = np.ascontiguousarray(np.clip(lab[step // 2::step, step // 2::step], 0, 255))
    median = cv2.medianBlur(samples.astype(np.uint8), 5).astype(np.float32)
    return cv2.resize(median, (w, h), interpolation=cv2.INTER_LINEAR)


def _squared_norm(image: np.ndarray) -> np.ndarray:
    """Per pixel squared length of a 3-channel float image, as a 1-channel image."""
    return cv2.transform(cv2.multiply(image, image), np.ones((1, 3), np.float32))


def _wide_blur(image: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur of large ``sigma`` done at a quarter size (the same, several times
    faster)."""
    h, w = image.shape[:2]
    if sigma < 8 or min(h, w) < 64:
        return cv2.GaussianBlur(image, (0, 0), sigma)
    small = cv2.resize(image, (w // 4, h // 4), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), sigma / 4), (w, h),
                      interpolation=cv2.INTER_LINEAR)


_TEMPLATES: dict[tuple[str, float], np.ndarray] = {}


def _template(board: Board, k: float) -> np.ndarray:
    """The printed spaces and city circles, white on black, at ``k`` px per art px."""
    key = (board.name, k)
    if key not in _TEMPLATES:
        w, h = round(board.art_frame["width"] * k), round(board.art_frame["height"] * k)
        out = np.zeros((h, w), np.float32)
        _, spaces, _ = space_table(board)
        for x, y, angle in spaces:
            box = cv2.boxPoints(((x * k, y * k), (54 * k, 16 * k), float(angle)))
            cv2.fillConvexPoly(out, np.round(box * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
        for city in board.cities.values():
            cv2.circle(out, (round(city.x * k * 16), round(city.y * k * 16)), round(9 * k * 16),
                       1.0, -1, cv2.LINE_AA, 4)
        _TEMPLATES[key] = out
    return _TEMPLATES[key]


def polish(score: ContentScore, corners: np.ndarray, value: float, diag: float,
           ) -> tuple[np.ndarray, float]:
    """Coordinate ascent of the content score over the 8 corner coordinates, coarse to fine."""
    best = corners.copy()
    step = 0.02 * diag
    while step >= 0.7:
        improved = True
        while improved:
            improved = False
            for i in range(4):
                for axis in range(2):
                    for sign in (1, -1):
                        trial = best.copy()
                        trial[i, axis] += sign * step
                        s = score(trial)
                        if s > value:
                            best, value, improved = trial, s, True
        step /= 2
    return best, value


def candidates(small: np.ndarray, lab: np.ndarray) -> Iterator[np.ndarray]:
    """Plausible board quads (clockwise, any start) from several segmentations, cheapest and
    likeliest first (made on demand: the search stops when one is plainly the board).

    Besides the plain masks: the same on a blurred copy, where a checked cloth or wood grain
    averages to one colour (the board's outline moves a little, the aligner pulls it back),
    the far-from-table masks without what reaches over the board's edge, the area of pixels
    unlike their surroundings (its routes and cities, when neither the board's colour nor its
    outline stands out from the table), and the board as a photo usually frames it (centred,
    most of the frame)."""
    h, w = small.shape[:2]
    frame = _cropped_frame(small)
    if frame is not None:
        yield frame
    far = far_from_table_masks(lab)

    def masks() -> Iterator[np.ndarray]:  # each made only when the search gets to it
        yield from far
        yield border_mask(small)
        yield edge_mask(small)

    for mask in masks():
        quad = quad_from_mask(mask)
        if quad is not None:
            yield quad
    # blurred at a quarter size: it holds no detail worth the time
    tiny = cv2.resize(lab, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    smooth = cv2.GaussianBlur(tiny, (0, 0), 0.025 * min(h, w) / 4)
    smooth_masks = far_from_table_masks(smooth)
    for mask in smooth_masks:
        quad = quad_from_mask(mask, kernel_size=3)
        if quad is not None:
            yield quad * (w / tiny.shape[1])
    # hands, cards or an arm over the board's edge join its blob and bend its outline: cut
    # them off (after the far masks' holes are filled: a board the colour of the table
    # shows as a ring of track and routes)
    shrunk = [cv2.resize(m, tiny.shape[1::-1], interpolation=cv2.INTER_AREA)
              for m in far]
    for mask in (*shrunk, *smooth_masks):
        quad = quad_from_mask(_without_protrusions(mask), kernel_size=3)
        if quad is not None:
            yield quad * (w / tiny.shape[1])
    quad = quad_from_mask(unlike_around_mask(lab))
    if quad is not None:
        yield quad
    yield _framed(w, h)


def unlike_around_mask(lab: np.ndarray) -> np.ndarray:
    """Pixels unlike the colour around them (routes, cities, the track's edges), joined into
    one area: the board where neither its colour nor its outline stands out from the table
    (a dark table as dark as the track, lit by a glare spot that makes it as light as the
    paper nearby). The colour around a pixel is the median of a window wider than a route
    and narrower than the map's gaps, so on a plain table or paper nothing is unlike it."""
    h, w = lab.shape[:2]
    around = _local_median(lab, _AROUND_WINDOW * max(h, w))
    unlike = (_squared_norm(cv2.subtract(lab, around)) > _UNLIKE_AROUND ** 2).astype(np.uint8)
    size = int(_AROUND_JOIN * min(h, w)) | 1
    return cv2.morphologyEx(unlike * 255, cv2.MORPH_CLOSE,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))


# the window around a pixel (share of the photo's long side), how far (Lab) a pixel must be
# from its median to count, and the gaps (share of the short side) closed between such pixels
_AROUND_WINDOW, _UNLIKE_AROUND, _AROUND_JOIN = 0.06, 10.0, 0.06


def _without_protrusions(mask: np.ndarray) -> np.ndarray:
    """The biggest blob of ``mask`` filled, less what is thinner than a fifth of its size."""
    contours, _ = cv2.findContours((mask > 127).astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros(mask.shape, np.uint8)
    if not contours:
        return filled
    biggest = max(contours, key=cv2.contourArea)
    cv2.drawContours(filled, [biggest], -1, 255, -1)
    size = 2 * int(0.1 * np.sqrt(cv2.contourArea(biggest))) + 1
    return cv2.morphologyEx(filled, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))


def line_quads(small: np.ndarray, keep: int = 6) -> list[np.ndarray]:
    """Quads bounded by the photo's long straight lines: the board's edges (and its map's
    frame) stay long straight lines on any table, where a cloth's checks break into short
    ones and a table's colour may match the board's. Two roughly parallel, well separated
    lines and two more across them make a quad; the best supported few are kept, from the
    detector's segments as they are and from the same joined along their lines (a hand, a
    glare spot or a piece over the edge cuts an edge into pieces none long enough alone)."""
    h, w = small.shape[:2]
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    try:
        found = cv2.createLineSegmentDetector().detect(gray)[0]
    except (AttributeError, cv2.error):  # some OpenCV builds leave the detector out
        return []
    if found is None:
        return []
    seg = found.reshape(-1, 4).astype(np.float64)
    length = np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1])
    joined = _quads_from_lines(*_joined_lines(seg, length, max(h, w)), w, h, keep)
    return distinct([*joined, *_quads_from_lines(seg, length, w, h, keep)])


def _joined_lines(seg: np.ndarray, length: np.ndarray, size: int,
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Segments lying on one straight line (within a couple of pixels and degrees, gaps up
    to ``_LINE_GAP`` of the photo) joined: each line's span as a segment, and its support
    (the summed length of its pieces, so a dashed line is not worth a whole one)."""
    keep = length > 0.02 * size  # shorter ones are texture
    order = np.argsort(-length[keep])[:300]
    seg, length = seg[keep][order], length[keep][order]
    tolerance, gap = max(1.5, 0.004 * size), _LINE_GAP * size
    parallel = np.cos(np.deg2rad(2.5))
    # each line: its direction and normal, where the origin projects on them, its span along
    # it and its support (room for as many lines as segments, ``count`` of them in use)
    direction, normal = np.empty((len(seg), 2)), np.empty((len(seg), 2))
    origin, span = np.empty((len(seg), 2)), np.empty((len(seg), 2))
    support, count = np.empty(len(seg)), 0
    for ends, n in zip(seg.reshape(-1, 2, 2), length, strict=True):
        d = (ends[1] - ends[0]) / n
        along = direction[:count] @ ends.T - origin[:count, :1]
        off = normal[:count] @ ends.T - origin[:count, 1:]
        lo, hi = along.min(axis=1), along.max(axis=1)
        same = ((np.abs(direction[:count] @ d) > parallel)
                & (np.abs(off).max(axis=1) < tolerance)
                & (lo < span[:count, 1] + gap) & (hi > span[:count, 0] - gap))
        hits = np.flatnonzero(same)
        if len(hits):
            k = hits[0]
            span[k] = min(span[k, 0], lo[k]), max(span[k, 1], hi[k])
            support[k] += n
        else:
            direction[count], normal[count] = d, (d[1], -d[0])
            origin[count] = direction[count] @ ends[0], normal[count] @ ends[0]
            span[count], support[count] = (0.0, n), n
            count += 1
    direction, normal, origin = direction[:count], normal[:count], origin[:count]
    # the point ``t`` along a line from its first piece's start
    base = origin[:, :1] * direction + origin[:, 1:] * normal
    ends = np.hstack([base + span[:count, :1] * direction, base + span[:count, 1:] * direction])
    support = support[:count]
    return ends, support


def _quads_from_lines(seg: np.ndarray, length: np.ndarray, w: int, h: int, keep: int,
                      ) -> list[np.ndarray]:
    """The best supported ``keep`` board-like quads bounded by the segments ``seg``, each
    worth ``length``."""
    order = np.argsort(-length)[:16]
    seg, length = seg[order], length[order]
    seg, length = seg[length > 0.1 * max(h, w)], length[length > 0.1 * max(h, w)]
    if len(seg) < 4:
        return []
    angle = np.arctan2(seg[:, 3] - seg[:, 1], seg[:, 2] - seg[:, 0]) % np.pi
    mid = (seg[:, :2] + seg[:, 2:]) / 2
    normal = np.c_[-np.sin(angle), np.cos(angle)]
    pairs = []
    for i in range(len(seg)):
        for j in range(i + 1, len(seg)):
            turn = abs(angle[i] - angle[j])
            if min(turn, np.pi - turn) > _OPPOSITE_TURN:
                continue
            if abs((mid[j] - mid[i]) @ normal[i]) > 0.2 * min(h, w):
                pairs.append((i, j))
    quads: list[tuple[float, np.ndarray]] = []
    if len(pairs) > 1:  # every two pairs across each other, all at once
        first, second = np.triu_indices(len(pairs), 1)
        (i, j), (k, m) = np.array(pairs)[first].T, np.array(pairs)[second].T
        turn = np.abs(angle[i] - angle[k])
        across = ((i != k) & (i != m) & (j != k) & (j != m)
                  & (np.minimum(turn, np.pi - turn) >= np.deg2rad(40)))
        sides = np.stack([i, k, j, m], axis=1)[across]  # in turn round the quad
        direction = np.c_[np.cos(angle), np.sin(angle)]
        p, d = mid[sides], direction[sides]
        q, e = np.roll(p, -1, axis=1), np.roll(d, -1, axis=1)
        cross = _cross(d, e)
        met = np.all(np.abs(cross) >= 1e-6, axis=1)  # as _intersect: no parallel sides
        corners = p + (_cross(q - p, e) / np.where(met[:, None], cross, 1.0))[..., None] * d
        plausible = met & _plausible_quads(corners, w, h)
        # sides meeting out of turn (a bow tie) still give four corners: ordered, tried alone
        crossed = met & ~plausible & ~_convex(corners)
        for n in np.flatnonzero(plausible | crossed):
            quad = order_clockwise(corners[n])
            if plausible[n] or _plausible(quad, w, h):
                quads.append((float(length[sides[n]].sum()), quad))
    if len(quads) < keep:  # a side hidden or off the photo: complete it by the board's shape
        for i, j in pairs:  # two whole opposite edges: their ends are the corners
            quad = order_clockwise(np.vstack([seg[i].reshape(2, 2), seg[j].reshape(2, 2)]))
            if _plausible(quad, w, h):
                quads.append((float(length[[i, j]].sum()), quad))
        for i, j in pairs:
            along = np.array([np.cos(angle[i]), np.sin(angle[i])])
            for k in set(range(len(seg))) - {i, j}:
                turn = abs(angle[i] - angle[k])
                if min(turn, np.pi - turn) < np.deg2rad(40):
                    continue
                side = (mid[k], np.array([np.cos(angle[k]), np.sin(angle[k])]))
                a = _intersect((mid[i], along), side)
                b = _intersect((mid[j], along), side)
                if a is None or b is None:
                    continue
                for ratio in (_BOARD_ASPECT, 1 / _BOARD_ASPECT):
                    for sign in (1, -1):
                        shift = sign * ratio * np.linalg.norm(b - a) * along
                        quad = order_clockwise(np.array([a, b, b + shift, a + shift]))
                        if _plausible(quad, w, h):
                            quads.append((float(length[[i, j, k]].sum()), quad))
    quads.sort(key=lambda q: -q[0])
    return distinct((q for _, q in quads), count=keep)


# how far a board's opposite sides may turn from parallel in a photo (perspective: 40
# degrees between them on a board 37 degrees off vertical)
_OPPOSITE_TURN = np.deg2rad(45)
# collinear pieces further apart than this (share of the photo's long side) are not joined
_LINE_GAP = 0.12


def _plausible(quad: np.ndarray, w: int, h: int) -> bool:
    """A board-sized, board-shaped convex quad, its corners near the photo."""
    return bool(_plausible_quads(quad[None], w, h)[0])


def _plausible_quads(quads: np.ndarray, w: int, h: int) -> np.ndarray:
    """``_plausible`` of each of the (N, 4, 2) corners in one go."""
    edge = np.roll(quads, -1, axis=1) - quads
    x, y = quads[..., 0], quads[..., 1]
    area = 0.5 * np.abs(np.sum(x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y, axis=1))
    inside = _in_photo(quads, w, h)
    side = np.linalg.norm(edge, axis=2)
    ratio = (side[:, 0] + side[:, 2]) / np.maximum(side[:, 1] + side[:, 3], 1e-9)
    return (_convex(quads) & (area >= 0.08 * w * h) & inside & (1.0 / 2.6 < ratio) & (ratio < 2.6)
            & (side.min(axis=1) > 0.25 * side.max(axis=1)))


def _in_photo(quads: np.ndarray, w: int, h: int) -> np.ndarray:
    """Whether each of the (N, 4, 2) corners lies in the photo or just beyond its edges."""
    margin = 0.1 * max(w, h)
    return ((quads.min(axis=(1, 2)) >= -margin) & (quads[..., 0].max(axis=1) <= w + margin)
            & (quads[..., 1].max(axis=1) <= h + margin))


def _convex(quads: np.ndarray) -> np.ndarray:
    """``is_convex_quad`` of each of the (N, 4, 2) corners."""
    edge = np.roll(quads, -1, axis=1) - quads
    turns = _cross(edge, np.roll(edge, -1, axis=1))
    return np.all(turns > 0, axis=1) | np.all(turns < 0, axis=1)


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The z of the cross product of 2-vectors along the last axis."""
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _framed(w: int, h: int, fill: float = 0.8) -> np.ndarray:
    """The board centred, long side along the photo's, spanning ``fill`` of the frame."""
    long, short = max(w, h), min(w, h)
    bl = fill * min(long, short * _BOARD_ASPECT)
    bw, bh = (bl, bl / _BOARD_ASPECT) if w >= h else (bl / _BOARD_ASPECT, bl)
    x0, y0 = (w - bw) / 2, (h - bh) / 2
    return np.array([[x0, y0], [x0 + bw, y0], [x0 + bw, y0 + bh], [x0, y0 + bh]])


def far_from_table_masks(lab: np.ndarray) -> list[np.ndarray]:
    """Pixels unlike the photo's edges (the table), at a few thresholds."""
    h, w = lab.shape[:2]
    m = max(2, int(0.03 * min(h, w)))
    border = np.vstack([lab[:m].reshape(-1, 3), lab[-m:].reshape(-1, 3),
                        lab[:, :m].reshape(-1, 3), lab[:, -m:].reshape(-1, 3)])
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(0)  # k-means++ draws: the same photo must give the same answer every time
    # a few thousand border pixels give the table's colours as well as all of them
    border = border[::max(1, len(border) // 8000)].astype(np.float32)
    _, _, centres = cv2.kmeans(border, 3, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    # squared distance to the nearest centre, |x|^2 + min over c of (|c|^2 - 2 x.c), in
    # OpenCV's per-pixel transforms (three times faster than numpy's broadcasting)
    to_centres = np.hstack([-2.0 * centres, np.einsum("ij,ij->i", centres, centres)[:, None]])
    cross = cv2.split(cv2.transform(lab, to_centres.astype(np.float32)))
    nearest = cv2.add(cv2.min(cv2.min(cross[0], cross[1]), cross[2]), _squared_norm(lab))
    return [(nearest > threshold ** 2).astype(np.uint8) * 255 for threshold in (12.0, 22.0, 35.0)]


def border_mask(small: np.ndarray) -> np.ndarray:
    """The score track around the map: a ring of saturated red-brown, filled in."""
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    red = ((hue < 12) | (hue > 165)) & (sat > 70) & (val > 40)
    mask = red.astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    if contours:
        cv2.drawContours(filled, [max(contours, key=cv2.contourArea)], -1, 255, -1)
    return filled


def edge_mask(small: np.ndarray) -> np.ndarray:
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(gray, (5, 5), 0), 30, 90)
    return cv2.dilate(edges, np.ones((5, 5), np.uint8))


def quad_from_mask(mask: np.ndarray, kernel_size: int = 7) -> np.ndarray | None:
    """The biggest blob's outline simplified to four corners (None if it is no big quad)."""
    h, w = mask.shape
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kernel_size, kernel_size))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    if cv2.contourArea(contour) < 0.12 * h * w:
        return None
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            return order_clockwise(approx.reshape(4, 2).astype(np.float64))
    rect = cv2.boxPoints(cv2.minAreaRect(hull))
    return order_clockwise(rect.astype(np.float64))


def snap_to_edges(mid: np.ndarray, mid_scale: float, corners: np.ndarray, config: VisionConfig,
                  score: ContentScore, score_scale: float) -> tuple[np.ndarray, int]:
    """Move the sides onto the board's outer edge: the long straight colour edge nearest
    each side, searched in ``mid`` (the photo scaled by ``mid_scale``). The content fit is
    pulled a little by the height of the pieces (parallax); the physical edge is not.
    Outside the photo counts as black, so a board filling the whole frame snaps to the frame.
    A side moves only if the board content still fits (a table pattern can look like an
    edge). Returns the corners in photo pixels and how many sides were snapped."""
    blurred = cv2.GaussianBlur(mid, (5, 5), 0)
    c = corners * mid_scale
    band = max(4.0, config.refine_band * diagonal(c))
    fitted = [(c[i], (c[(i + 1) % 4] - c[i]) / np.linalg.norm(c[(i + 1) % 4] - c[i]))
              for i in range(4)]
    found = [_side_line(blurred, c[i], c[(i + 1) % 4], band) for i in range(4)]
    reference = score(c * score_scale / mid_scale)
    # the most sides that can snap together, the board content still fitting (with the map
    # free to move within the frame's slack: a frame a few mm off must not keep the sides
    # off the edges); among as many sides, the best fit
    quads: list[tuple[int, np.ndarray]] = []
    for subset in range(1, 16):
        if any(subset >> i & 1 and found[i] is None for i in range(4)):
            continue
        lines = [found[i] if subset >> i & 1 else fitted[i] for i in range(4)]
        quad = np.array([_intersect(lines[(i - 1) % 4], lines[i]) for i in range(4)])
        if any(q is None for q in quad) or np.max(np.linalg.norm(quad - c, axis=1)) > 1.5 * band:
            continue
        quads.append((bin(subset).count("1"), quad))
    floor = reference - 0.15 * abs(reference)

    def fit(quad: np.ndarray) -> float:
        at = quad * score_scale / mid_scale
        value = score(at)
        return value if value >= floor else _best_frame_shift(score, at, value)

    for count in (4, 3, 2, 1):
        fits = [(value, quad) for value, quad in ((fit(q), q) for n, q in quads if n == count)
                if value >= floor]
        if fits:
            return max(fits, key=lambda f: f[0])[1] / mid_scale, count
    return c / mid_scale, 0


def _side_line(blurred: np.ndarray, a: np.ndarray, b: np.ndarray, band: float):
    """The strong straight edge nearest the side a->b within ``band`` px of the blurred BGR
    image, or None. Of the straight edges most rows support, the board's: its rim runs along
    one side of it in one colour, where a line through a checked cloth, wood grain or the
    track's numbered squares has the colour beside it changing along both sides (such a line
    can gather more rows than a board edge that is faint where a check or the grain matches
    the rim)."""
    length = float(np.linalg.norm(b - a))
    direction = (b - a) / length
    normal = np.array([direction[1], -direction[0]])  # outwards for a clockwise quad
    t = np.linspace(0.06, 0.94, 80)
    # sampled a few px beyond the band on both sides, for the colour beside an edge at its end
    offsets = np.arange(-band - _BESIDE, band + _BESIDE + 1.0, 1.0)
    base = a[None] + t[:, None] * (b - a)[None]
    pts = base[:, None, :] + offsets[None, :, None] * normal[None, None, :]
    # only the band is turned into Lab (not the whole image)
    bgr = cv2.remap(blurred, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32),
                    cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    wide = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).astype(np.float32)
    profile, inner = wide[:, _BESIDE:-_BESIDE], offsets[_BESIDE:-_BESIDE]
    edge = np.zeros(profile.shape[:2], dtype=np.float32)
    edge[:, 1:-1] = np.linalg.norm(profile[:, 2:] - profile[:, :-2], axis=2)
    # candidate edge points: strong local maxima of each row across the side
    strong = edge >= np.maximum(6.0, 0.5 * edge.max(axis=1, keepdims=True))
    peak = strong.copy()
    peak[:, 1:-1] &= (edge[:, 1:-1] >= edge[:, :-2]) & (edge[:, 1:-1] >= edge[:, 2:])
    rows, cols = np.nonzero(peak)
    if len(rows) < 10:
        return None
    tt, oo = t[rows], inner[cols]
    enough = 0.5 * len(t)
    # RANSAC for the straight edge supported by most rows, less for a changing colour on
    # both sides of it (nearest the fit on a tie)
    rng = np.random.default_rng(0)
    best, best_key = None, None
    for _ in range(150):
        i, j = rng.integers(0, len(rows), 2)
        if abs(tt[i] - tt[j]) < 0.3:
            continue
        slope = (oo[j] - oo[i]) / (tt[j] - tt[i])
        if abs(slope) > band:
            continue
        inlier = np.abs(oo - (oo[i] + slope * (tt - tt[i]))) < 1.5
        support = len(np.unique(rows[inlier]))
        value = support / len(t)
        # (the cost only lowers the value: none is worked out for a line already behind)
        if support >= enough and (best_key is None or not best_key[0] or value >= best_key[1]):
            spread = _spread_beside(wide, offsets, oo[i] + slope * (t - tt[i]))
            value -= _SPREAD_COST * max(0.0, spread - _SPREAD_FREE)
        key = (support >= enough, value, -abs(np.mean(oo[inlier])))
        if best_key is None or key > best_key:
            best, best_key = inlier, key
    if best is None or not best_key[0]:
        return None
    slope, intercept = np.polyfit(tt[best], oo[best], 1)
    p0 = a + intercept * normal
    p1 = b + (intercept + slope) * normal
    return p0, (p1 - p0) / np.linalg.norm(p1 - p0)


# the colour beside an edge is read this many px (at the edge search's scale) either side of
# it, from 1.5 px (the blur) ...
_BESIDE = 4
# an edge loses this share of the rows for each Lab unit by which the colour along its more
# even side spreads beyond the free amount (the rim beside a board's edge spreads 0-9, the
# colour beside a line through a checked cloth or the numbered squares of the track 5-30)
_SPREAD_COST, _SPREAD_FREE = 0.03, 4.0


def _spread_beside(wide: np.ndarray, offsets: np.ndarray, line: np.ndarray) -> float:
    """How much the colour beside an edge changes along it, on its more even side: the median
    distance from the median colour of a strip 1.5-3.5 px beside the edge (``line``: its
    offset in each row of the Lab ``wide``, sampled at ``offsets``)."""
    # both strips at once, linear between the sampled offsets
    x = np.clip(line[:, None] + _BESIDE_AT - offsets[0], 0.0, len(offsets) - 1.001)
    k = x.astype(int)
    f = (x - k)[..., None]
    row = np.arange(len(line))[:, None]
    values = wide[row, k] * (1.0 - f) + wide[row, k + 1] * f
    strips = values.reshape(len(line), 2, -1, 3).mean(axis=2)  # (rows, side, Lab)
    spread = np.linalg.norm(strips - np.median(strips, axis=0), axis=2)
    return float(np.median(spread, axis=0).min())


_BESIDE_AT = np.array([-3.5, -2.5, -1.5, 1.5, 2.5, 3.5])


def _intersect(l1, l2) -> np.ndarray | None:
    (p1, d1), (p2, d2) = l1, l2
    m = np.array([d1, -d2]).T
    if abs(np.linalg.det(m)) < 1e-6:
        return None
    s = np.linalg.solve(m, p2 - p1)
    return p1 + s[0] * d1
