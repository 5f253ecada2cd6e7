"""The search: every candidate outline, in each plausible orientation, aligned and judged;
the best snapped to the board's edges, with a confidence."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from scorer.boards import Board
from scorer.messages import N_
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.errors import BoardNotFound
from scorer.vision.geometry import corner_error, diagonal, rotations
from scorer.vision.locate.aligner import Aligner
from scorer.vision.locate.content import ContentScore, polish
from scorer.vision.locate.cut import extended, outside_edges, touched_edges
from scorer.vision.locate.edges import snap_to_edges
from scorer.vision.locate.images import blurred_lab, resize_long
from scorer.vision.locate.lines import line_quads
from scorer.vision.locate.masks import candidates
from scorer.vision.locate.quads import cropped_frame, distinct, is_new

_NOT_FOUND = N_(
    "No board found in the photo: take it from above, the whole board in the frame.")


@dataclass(frozen=True)
class Located:
    """Where ``locate`` found the board, and how sure it is."""

    corners: np.ndarray  # (4, 2) in the pixels of the image given to ``locate``
    # the corners that put the printed spaces best onto the photo (what lanes are read with)
    art_corners: np.ndarray
    confidence: float
    score: float
    # the photo's edges (``cut.EDGES``) the board reaches beyond: a photo taken too close
    outside: tuple[str, ...] = ()


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
    few outlines picked by the pattern of spaces.

    A photo taken too close cuts the board at its edges: when nothing passes, or the board
    found lies along an edge of the photo, it is looked for once more reaching past the
    photo's edges (``_cut_fit``); ``Located.outside`` names the edges it reaches beyond."""
    small, scale = resize_long(image, config.locate_long_side)
    # the edge search's image is blurred before use, so a plain linear resize does for it
    # (and is five times cheaper than by area)
    mid, mid_scale = resize_long(image, config.refine_long_side, cv2.INTER_LINEAR)
    lab = blurred_lab(small)
    search = _Search(lab, board, config)
    outlines = search.outlines
    found = _best_fit(search, small, lab)
    if found is None or not _plain_fit(found, config):
        search = _Search(lab, board, config, local_paper=True, score=search.score)
        found = _best_fit(search, small, lab) if found is None else _refit(search, found)
        outlines = outlines + search.outlines
    frame = cropped_frame(image, board)
    if _may_be_cut(found, small, frame, scale, config):
        beyond = _Search(lab, board, config, beyond=True)
        cut = _cut_fit(beyond, small, outlines, found)
        # kept when it reaches past the photo, or when the fit found did (measured with the
        # black beyond the photo as board) and the part in the photo says it does not
        if cut is not None and (_reaches_past(cut, small, config)
                                or _reaches_past(found, small, config)):
            search, found = beyond, cut
    if found is None:
        raise BoardNotFound(_NOT_FOUND)
    best, best_score, best_corr, rival = found
    value = best_score * _pattern(best_corr)
    fitted = best / scale
    corners, sides = snap_to_edges(mid, mid_scale, fitted, config, search.score, scale)
    off_frame = corner_error(corners, frame) if frame is not None else np.inf
    if off_frame < 0.015:
        if board.board_frame.get("measured") and off_frame < config.at_the_frame:
            # the board's edges are the photo's, and where the map is printed within them is
            # measured: the frame places the spaces better than the search's fit, which works
            # at a few art px per pixel (1 % of the diagonal off on a deskewed real photo)
            fitted = frame
        corners, sides = frame, 4  # a photo cropped to the board: its edges are the board's
    confidence = _confidence(value, best_corr, rival, sides, config)
    height, width = image.shape[:2]
    outside = outside_edges(corners, width, height, config.outside_tolerance * diagonal(corners))
    return Located(corners, fitted, confidence, best_score, outside)


Fit = tuple[np.ndarray, float, float, float]  # outline, content score, correlation, rival


def _may_be_cut(found: Fit | None, small: np.ndarray, frame: np.ndarray | None, scale: float,
                config: VisionConfig) -> bool:
    """Whether the board may reach past the photo's edges: nothing was found, or what was
    found reaches past them (measured with the black beyond the photo as part of the board)
    or lies along one (a board cut by the frame is then squeezed into the photo), and the
    photo is no crop of the board."""
    if found is None:
        return True
    best = found[0]
    h, w = small.shape[:2]
    if frame is not None and corner_error(best / scale, frame) < 0.015:
        return False
    return _reaches_past(found, small, config) or bool(
        touched_edges(best, w, h, config.cut_touch * max(w, h)))


def _reaches_past(found: Fit | None, small: np.ndarray, config: VisionConfig) -> bool:
    """Whether the fit's corners lie beyond the edges of the photo ``small``."""
    if found is None:
        return False
    h, w = small.shape[:2]
    return bool(outside_edges(found[0], w, h, config.outside_tolerance * diagonal(found[0])))


def _cut_fit(search: _Search, small: np.ndarray, outlines: list[np.ndarray],
             found: Fit | None) -> Fit | None:
    """The board measured by the part of it in the photo (``search`` measures so): every
    outline the search was given (and the photo's own frame, the part of a board that fills
    it) moved out across its sides along the photo's edges to the board's shape, against
    the fit ``found`` and the photo's frame as they are; None when no board is found so."""
    config = search.config
    h, w = small.shape[:2]
    frame = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float64)
    sources = [frame, *outlines, *([found[0]] if found is not None else [])]
    touch = config.cut_touch * max(w, h)
    whole = distinct(q for outline in sources
                     for q in extended(outline, w, h, search.board.aspect, touch))
    if not whole:
        return None
    wide = (*config.align_wide_first, *config.align_coarse)
    as_found = [frame, *([found[0]] if found is not None else [])]
    return _pick(search, search.rank([*whole, *as_found], by_pattern=True, levels=wide))


def _best_fit(search: _Search, small: np.ndarray, lab: np.ndarray) -> Fit | None:
    """The best outline in ``small`` pixels, polished, with its content score, its pattern
    correlation and the best value of a different outline; None if it is no board."""
    # against the paper around each pixel, the few are picked by the pattern of spaces: the
    # content score measures from one paper colour, and under a lamp's bright spot a wrong
    # outline reaching into the light can score 20 where the board scores 4
    config = search.config
    ranked = search.rank(candidates(small, lab, search.board, config),
                         by_pattern=search.align.local_paper)
    if not ranked or ranked[0][0][2] < config.sure_correlation:
        # long-line quads are rougher than the masks' outlines: aligned from further away
        wide = (*config.align_wide_first, *config.align_coarse)
        lines = search.rank(line_quads(small, search.board, config=config), by_pattern=True,
                            levels=wide)
        ranked = sorted(ranked + lines, key=lambda h: -h[0][0])
    return _pick(search, ranked)


def _pick(search: _Search, ranked: list[tuple[tuple[float, float, float], np.ndarray]],
          ) -> Fit | None:
    """The best of ``ranked`` hypotheses (``_Search.rank``), finer aligned and polished, or
    None if it is no board."""
    config = search.config
    if not ranked:
        return None
    best, (best_value, best_score, best_corr) = ranked[0][1], ranked[0][0]
    for i, ((value, _, _), corners) in enumerate(ranked[:2]):
        if i and value < 0.5 * best_value:
            continue  # far behind: a finer fit would not make it the best
        fitted = search.align(corners, config.align_fine)
        if fitted is not None:
            v = search.value(fitted)
            if v[0] > best_value:
                best, (best_value, best_score, best_corr) = fitted, v
    # the content score measures from one paper colour too: on a photo that needed the paper
    # around each pixel its peak is as likely noise, and would pull the aligner's fit off
    if not search.align.local_paper:
        best, best_score = polish(search.score, best, best_score, 0.5 * diagonal(best))
    if (best_score * _pattern(best_corr) < config.min_content_score
            and best_corr < config.sure_correlation):
        return None
    rival = max((v[0] for v, c in ranked if corner_error(c, best) > 0.05), default=0.0)
    return best, best_score, best_corr, rival


def _plain_fit(found: Fit, config: VisionConfig) -> bool:
    """Whether a search's answer is plainly the board (see ``_Search._plain``)."""
    _, score, correlation, _ = found
    return score >= config.plain_score and correlation >= config.plain_correlation


def _refit(search: _Search, found: Fit) -> Fit:
    """``found`` (the answer of a search against one paper colour) aligned again against
    the paper around each pixel (``search`` measures so), kept if the pattern of spaces
    fits better so than it did against one colour. Under a glare spot the one colour hides
    the routes in its bright part: the search still finds the board, but the fit slides a
    few % towards the routes it sees (and the content score's polish follows it there)."""
    best, _, correlation, rival = found
    fitted = search.align(best, search.config.align_fine)
    if fitted is None:
        return found
    local = search.align.correlation(fitted)
    if local < correlation + search.config.refit_gain:
        return found
    return fitted, search.score(fitted), local, rival


class _Search:
    """Candidate outlines to ranked hypotheses: each plausible orientation coarsely aligned,
    the best few by content score then judged by content and pattern correlation."""

    def __init__(self, lab: np.ndarray, board: Board, config: VisionConfig,
                 local_paper: bool = False, score: ContentScore | None = None,
                 beyond: bool = False):
        self.board, self.config = board, config
        self.score = score or ContentScore(lab, board, config, beyond)
        self.align = Aligner(lab, board, local_paper, config, beyond)
        self.outlines: list[np.ndarray] = []  # every outline given to ``rank``

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
        aligner's pyramid for every outline (``align_coarse`` unless said)."""
        judge = self.align.correlation if by_pattern else self.score
        hypotheses: list[tuple[float, np.ndarray]] = []
        seen: list[np.ndarray] = []
        for quad in quads:
            if not is_new(quad, seen):
                continue
            seen.append(quad)
            self.outlines.append(quad)
            for corners in rotations(quad):
                if not _lies_long_side_up(corners):
                    continue
                hypotheses.append((judge(corners), corners))
                fitted = self.align(corners, levels or self.config.align_coarse)
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
        return (score >= self.config.plain_score
                and self.align.correlation(corners) >= self.config.plain_correlation)


def _confidence(value: float, correlation: float, rival: float, sides: int,
                config: VisionConfig) -> float:
    """High when the content fits well, the pattern of spaces is plainly there, no different
    outline fits nearly as well, and the board's edges were seen: each of these falls on a
    photo we may have read wrong."""
    fit = np.clip((value - config.min_content_score) / 30.0, 0.0, 1.0)
    pattern = np.clip((correlation - 0.25) / 0.25, 0.0, 1.0)
    margin = np.clip((value - max(rival, 0.0)) / (0.3 * max(value, 1e-6)), 0.0, 1.0)
    return float(max(fit, 0.5 * pattern) * pattern * margin * (0.7 + 0.075 * sides))


def _pattern(correlation: float) -> float:
    """1 when the photo shows the board's pattern of spaces (a right fit correlates 0.5-0.7),
    falling to 0 at a chance correlation."""
    return float(np.clip((correlation - 0.1) / 0.3, 0.0, 1.0))


def _lies_long_side_up(corners: np.ndarray) -> bool:
    """The board is 1.5 times wider than tall; perspective up to ~35 degrees never makes
    the long sides look shorter than the short ones by much."""
    side = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    return bool(side[0] + side[2] > 0.8 * (side[1] + side[3]))


def _different(hypotheses: list[tuple[float, np.ndarray]], count: int):
    """The best ``count`` hypotheses that are not the same outline as a better one."""
    kept: list[tuple[float, np.ndarray]] = []
    for value, corners in hypotheses:
        if all(corner_error(corners, c) > 0.02 for _, c in kept):
            kept.append((value, corners))
            if len(kept) == count:
                break
    return kept
