"""Stages 4-5: every train space to a piece colour, then every lane to an owner or none."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from scorer.boards import Board, Route
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.geometry import photo_area, rectify
from scorer.vision.model import CLASSES, Mlp, load_model
from scorer.vision.register import city_dots, print_offsets
from scorer.vision.sample import (
    blown_spaces,
    burnt_by_glare,
    fine_light,
    normalise,
    paper_light,
    paper_map,
    print_chroma,
    shifted_features,
    space_axes,
    space_table,
    to_lab,
    tone_curve,
    tone_power,
    unveil,
    veil_map,
    white_balance,
)

PIECE_COLORS = CLASSES[1:]


@dataclass(frozen=True, slots=True)
class LaneResult:
    """One lane: the colour of the pieces on it (None: empty or doubtful) and how sure, and
    what the crop most likely shows and next most likely (a piece colour or "empty"), also
    when the lane is doubtful: the review's card leads with them."""

    route: str
    owner: str | None
    confidence: float
    likely: str = "empty"
    second: str = "empty"

    def to_json(self) -> dict:
        return {"id": self.route, "owner": self.owner, "confidence": round(self.confidence, 3)}


def board_lab(
    image: np.ndarray, board: Board, corners: np.ndarray, config: VisionConfig = DEFAULT
) -> np.ndarray:
    """The rectified map area in Lab, normalised by the photo's own paper colour around
    each point."""
    return read_board(image, board, corners, config).lab


@dataclass(frozen=True)
class BoardReading:
    """What ``read_board`` makes of a photo's board: its Lab (``board_lab``); the share of a
    glare's white veil found over each space (``space_table`` order; none when
    ``config.unveil`` is off), which the veil's removal only partly undoes: the lanes under it
    are read less surely; whether a glare spot burnt each space out to white
    (``blown_spaces``): nothing on it can be read; and the Lab to find stations in."""

    lab: np.ndarray
    veil: np.ndarray
    burnt: np.ndarray
    station_lab: np.ndarray
    # the spaces round a burnt one (``config.burnt_rim``), washed out beyond what the veil's
    # removal gives back: their lanes are asked
    rim: np.ndarray | None = None
    # the light on each space: its paper's lightness over the photo's paper (``paper_light``)
    light: np.ndarray | None = None


def read_board(
    image: np.ndarray, board: Board, corners: np.ndarray, config: VisionConfig = DEFAULT,
    stations: bool = False,
) -> BoardReading:
    """The board of a photo read into Lab, its veil taken off (``BoardReading``). A photo
    found partly under a glare spot is measured again for a broad spot (``veil_map``'s
    ``broad``, with ``config.broad_veil``): its lanes are read with that veil taken off, and,
    with ``stations``, its stations with the first one's (taking off the broad one lost 3 of
    the 26 stations of the rendered samples, all under a glare spot)."""
    rectified = rectify(image, board, corners, config.rectify_scale)
    inside = photo_area(image, board, corners, config.rectify_scale)
    _, spaces, _ = space_table(board)
    burnt = blown_spaces(rectified, board, config.rectify_scale,
                         config.burnt_level) >= config.burnt_share
    if config.burnt_pale:
        burnt = burnt_by_glare(burnt, board)
    veil = np.zeros(len(spaces), dtype=np.float32)
    # a glare spot dulls the print's colours as much as the pieces': on a photo that may lie
    # under one (its veil not measured, or found) they are left as they are (print_chroma)
    as_they_are = replace(config, print_spread=())
    if not config.unveil:
        lab, station_lab, light = _normalised_lab(rectified, board, as_they_are, stations,
                                                  inside)
        return BoardReading(lab, veil, burnt, station_lab, light=light)
    at = np.round(spaces[:, :2] * config.rectify_scale).astype(int)
    share = veil_map(rectified, config.rectify_scale, paper=config.veil_paper)
    veil = _at_spaces(share, at)
    spot = burnt.any() or veiled_share(veil, config) > config.broad_veil_from
    if glared(veil, config) or spot:
        config = as_they_are
    if not (config.broad_veil and spot):
        lab, station_lab, light = _normalised_lab(unveil(rectified, share), board, config,
                                                  stations, inside)
        return BoardReading(lab, veil, burnt, station_lab, light=light)
    broad = veil_map(rectified, config.rectify_scale, broad=True, paper=config.veil_paper)
    lab, _, light = _normalised_lab(unveil(rectified, broad), board, config, inside=inside)
    station_lab = _squares_lab(unveil(rectified, share), board, config) if stations else lab
    rim = None
    if burnt.any():
        gap = np.linalg.norm(spaces[:, None, :2] - spaces[None, burnt, :2], axis=2).min(axis=1)
        rim = ~burnt & (gap <= config.burnt_rim)
    return BoardReading(lab, _at_spaces(broad, at), burnt, station_lab, rim, light)


def _normalised_lab(rectified: np.ndarray, board: Board, config: VisionConfig,
                    stations: bool = False, inside: np.ndarray | None = None,
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The board in Lab normalised by its paper for its lanes (``paper_map``, its lightness
    measured again finer, ``fine_light``); for its stations by the squares' paper alone
    (``_squares_lab``): station colours are matched against the pieces' across the photo,
    which the finer paper measured them without (with it the variants' stations read 352 ->
    346 of 360 right), and with their colours as they are (``print_chroma``: station pixels
    are matched within fixed distances, which stretched colours outgrow: the stress renders'
    stations 96 -> 85 of 109 right), and so without a tone curve undone (``_lab_and_paper``:
    on the channels it moves the cities' orange dots towards the yellow pieces, a shadowed
    photo whose print read dark had 5 stations invented); without ``stations`` the first
    again. Then the light on each space (``paper_light``). ``inside``: the part the photo
    shows (``_coloured``)."""
    (lab, paper), as_measured = _lab_and_paper(rectified, board, config, inside)
    squares = normalise(*as_measured) if stations else None
    if config.paper_fine > 0:
        paper[..., 0] *= fine_light(lab[..., 0], board, config.rectify_scale,
                                    config.paper_cell, config.paper_fine)
    out = _coloured(normalise(lab, paper), board, config, inside)
    return out, squares if stations else out, paper_light(paper[..., 0], board,
                                                          config.rectify_scale)


def _squares_lab(rectified: np.ndarray, board: Board, config: VisionConfig) -> np.ndarray:
    """The board in Lab normalised by the squares' paper alone (``paper_map``), for its
    stations (colours and tone as they are, ``_normalised_lab``)."""
    return normalise(*_measured(rectified, board, config))


def _coloured(lab: np.ndarray, board: Board, config: VisionConfig,
              inside: np.ndarray | None = None) -> np.ndarray:
    """``print_chroma`` with the config's settings (no ``config.print_spread`` for the board:
    none), the print measured where the photo shows it (``inside``, ``geometry.photo_area``:
    beyond its edges ``rectify`` draws the edge pixels out)."""
    return print_chroma(lab, board, config.rectify_scale,
                        dict(config.print_spread).get(board.name), config.chroma_deadband,
                        config.chroma_most, inside)


def _lab_and_paper(rectified: np.ndarray, board: Board, config: VisionConfig,
                   inside: np.ndarray | None = None) -> tuple[tuple[np.ndarray, np.ndarray],
                                                              tuple[np.ndarray, np.ndarray]]:
    """The board's Lab and its paper's (``paper_map``), white-balanced (``config``), a phone's
    tone curve undone (``tone_power``, ``tone_curve``; ``config.tone_deadband`` 1: never),
    its print measured where the photo shows it (``inside``); and as measured, without the
    tone undone (the same when there is none to undo)."""
    measured = _measured(rectified, board, config)
    if config.tone_deadband < 1.0:
        lab, paper = measured
        power = tone_power(lab, board, config.rectify_scale, config.tone_print_light,
                           config.tone_deadband, config.tone_lowest, inside, paper)
        if power < 1.0:
            return _measured(tone_curve(rectified, power), board, config), measured
    return measured, measured


def _measured(rectified: np.ndarray, board: Board,
              config: VisionConfig) -> tuple[np.ndarray, np.ndarray]:
    if config.white_balance:
        rectified = white_balance(rectified, board, config.rectify_scale)
    lab = to_lab(rectified)
    return lab, paper_map(lab, board, config.rectify_scale, config.paper_cell,
                          config.paper_smooth, config.paper_ratio)


def _at_spaces(share: np.ndarray, at: np.ndarray) -> np.ndarray:
    h, w = share.shape
    return share[np.clip(at[:, 1], 0, h - 1), np.clip(at[:, 0], 0, w - 1)]


@dataclass(frozen=True)
class SpaceReading:
    """What ``read_spaces`` makes of a board's spaces: their class probabilities
    (``space_table`` order) and, per lane, the most that one piece colour covers it at any
    offset it may be read at (``beside``: pieces lying off its print show there)."""

    probs: np.ndarray
    beside: np.ndarray


def space_probabilities(
    lab: np.ndarray, board: Board, colors: Sequence[str] | None = None,
    config: VisionConfig = DEFAULT, model: Mlp | None = None,
) -> np.ndarray:
    """(N spaces, len(CLASSES)) probabilities, in ``space_table`` order (``read_spaces``)."""
    return read_spaces(lab, board, colors, config, model).probs


def read_spaces(
    lab: np.ndarray, board: Board, colors: Sequence[str] | None = None,
    config: VisionConfig = DEFAULT, model: Mlp | None = None,
) -> SpaceReading:
    """Every space's class probabilities, and how much a piece colour shows beside each lane.

    Every space is read at each of ``config.lane_offsets`` across its lane, averaged with the
    neighbouring offsets; each lane then takes the offset where one piece colour covers it
    best. Pieces often sit beside their printed spaces, a whole lane alike (placed in a row,
    and a piece's top moves away from the camera's foot in a tilted photo).
    """
    model = model or load_model()
    rows = shifted_features(lab, board, config.rectify_scale, config.lane_offsets,
                            _print_registered(lab, board, config))
    per_offset = np.stack([model.probabilities(r) for r in rows])
    if colors:
        allowed = np.array([c == "empty" or c in colors for c in CLASSES])
        per_offset = per_offset * allowed
        per_offset /= per_offset.sum(axis=2, keepdims=True) + 1e-12
    half = config.lane_offset_window
    window = np.stack([per_offset[max(k - half, 0):k + half + 1].mean(axis=0)
                       for k in range(len(per_offset))])
    routes, _, owner_of = space_table(board)
    lanes = int(owner_of.max()) + 1
    colour_mean = np.zeros((len(window), lanes, len(CLASSES) - 1))
    for k, probs in enumerate(window):
        np.add.at(colour_mean[k], owner_of, probs[:, 1:])
    colour_mean /= np.bincount(owner_of, minlength=lanes)[None, :, None]
    offsets = np.asarray(config.lane_offsets)
    # a small pull towards the printed position settles near ties
    pull = np.abs(offsets) / max(float(np.abs(offsets).max()), 1e-9)
    score = colour_mean.max(axis=2) - 0.02 * pull[:, None]
    # a lane of a double is not read towards its sibling, where the sibling's pieces are,
    # unless the sibling's pieces lie that far away from it: a few px of error in the frame
    # moves both lanes' pieces alike
    side, sibling = sibling_side(board), sibling_index(board)
    toward = offsets[:, None] * side[None, :]  # how far each offset reads towards the sibling
    free = np.where(toward > 0, -np.inf, score)
    top = free.max(axis=0)
    beside = np.where(toward > 0, 0.0, colour_mean.max(axis=2)).max(axis=0)
    # how far a lane's pieces lie away from its sibling: the offset nearest its printed lane
    # that reads nearly as well as its best, none on a lane that shows no colour
    near = np.where(free >= top - config.double_shift_slack, -np.abs(offsets)[:, None], -np.inf)
    away = np.where(top >= config.lane_colour_min, -offsets[near.argmax(axis=0)] * side, 0.0)
    reach = np.where(sibling >= 0, away[sibling], np.inf)
    best = np.where(toward <= reach[None, :], score, -np.inf).argmax(axis=0)
    _read_doubles_apart(best, colour_mean, pull, board, offsets, config)
    # a lane that no offset shows a piece colour on is read at its printed spaces: how empty
    # it looks there, not beside it on the paper or a neighbour, says how sure "empty" is
    # ... and so is one where that colour covers only some of its spaces there: a neighbour's
    # piece beside one space, not the lane's own pieces moved alike
    at, each = np.arange(lanes), np.arange(len(owner_of))
    colour = colour_mean[best, at].argmax(axis=1) + 1
    read = window[best[owner_of], each].argmax(axis=1) == colour[owner_of]
    share = np.bincount(owner_of, read, lanes) / np.bincount(owner_of, minlength=lanes)
    weak = (score[best, at] < config.lane_colour_min) | (share < config.lane_agree)
    best[weak] = int(np.abs(offsets).argmin())
    probs = window[best[owner_of], each]
    if config.photo_weight > 0:
        seen = np.stack(rows)[best[owner_of], each]
        printed = np.array([routes[i].color for i in owner_of])
        probs = photo_look(probs, (seen - model.mean) / model.std, printed, config)
    if config.photo_prior > 0:
        probs = photo_priors(probs, config.photo_prior, config.photo_prior_floor)
    return SpaceReading(probs, beside)


def _print_registered(lab: np.ndarray, board: Board, config: VisionConfig) -> np.ndarray | None:
    """How far each space's print lies off the board's data (art px, (N, 2)), from the cities'
    dots (``register.print_offsets``): None when ``config.print_registered`` is off or too
    few dots show (the data's places as they are)."""
    if not config.print_registered:
        return None
    dots = city_dots(lab, board, config)
    if dots.fit is None:
        return None
    _, spaces, _ = space_table(board)
    scale = config.rectify_scale
    return print_offsets(dots, spaces[:, :2] * scale) / scale


def photo_priors(probs: np.ndarray, weight: float, floor: float, rounds: int = 30) -> np.ndarray:
    """The spaces' probabilities with the classes this photo hardly shows weighed down.

    The model was trained with every class alike; a photo's own share of each class is
    estimated from the probabilities themselves, each round reweighting by the shares of the
    round before (Saerens, Latinne and Decaestecker 2002, "Adjusting the outputs of a classifier
    to new a priori probabilities"). Only a class with less than ``floor`` of the spaces loses
    weight, in proportion, to the power ``weight`` (0: off): a player at the end of a game has
    far more pieces on the board than that, while the print of bare routes, read half as pieces
    of its colour, adds up to less. On an empty board its yellow print was read as yellow
    pieces; a colour with pieces all over the board keeps its reads as they are."""
    share = probs.mean(axis=0)
    out = probs
    for _ in range(rounds):
        out = probs * np.minimum(share / floor, 1.0) ** weight
        out /= out.sum(axis=1, keepdims=True) + 1e-12
        share = out.mean(axis=0)
    return out


def photo_look(
    probs: np.ndarray, features: np.ndarray, printed: np.ndarray, config: VisionConfig
) -> np.ndarray:
    """The spaces read less surely than ``config.photo_unsure`` read again against the photo's
    own sure spaces: per class, the mean distance (standardised features) to its
    ``photo_neighbours`` nearest sure spaces of that class (for empty, of the same printed
    colour: bare print looks like pieces of its colour), turned into a likelihood on the scale
    of the sure spaces' own distances to their nearest of a kind, and multiplied in with
    ``photo_weight`` among the classes that have such neighbours. A camera or a light the
    model never saw moves every piece of a colour alike: the sure ones say where this photo's
    dark green lies."""
    top = probs.max(axis=1)
    sure, unsure = top >= config.photo_sure, np.flatnonzero(top < config.photo_unsure)
    if len(unsure) == 0:
        return probs
    kind = probs.argmax(axis=1)
    k = config.photo_neighbours
    near = np.full((len(unsure), probs.shape[1]), np.nan)
    spread = []
    for c in range(probs.shape[1]):
        mine = sure & (kind == c)
        if np.count_nonzero(mine) <= k:
            continue
        own = features[mine]
        d = _distances(features[unsure], own)
        if c == 0:
            d = np.where(printed[unsure][:, None] == printed[mine][None, :], d, np.inf)
        nearest = np.sort(d, axis=1)[:, :k].mean(axis=1)
        near[:, c] = np.where(np.isfinite(nearest), nearest, np.nan)
        inner = _distances(own, own)
        spread.append(np.median(np.sort(inner, axis=1)[:, 1:k + 1].mean(axis=1)))
    seen = ~np.isnan(near)
    if not seen.any():  # no class with sure spaces to compare with (spread is empty then too)
        return probs
    scale = float(np.median(spread)) + 1e-6
    lowest = np.min(np.where(seen, near, np.inf), axis=1, keepdims=True)
    gap = np.where(seen, near - lowest, 0.0) / scale
    look = np.exp(-0.5 * gap ** 2) ** config.photo_weight
    # the classes with neighbours share out what the model gave them together; the others
    # keep their probability (no evidence either way)
    given = np.where(seen, probs[unsure], 0.0)
    mixed = given * look
    moved = mixed * given.sum(axis=1, keepdims=True) / (mixed.sum(axis=1, keepdims=True) + 1e-12)
    out = probs.copy()
    out[unsure] = np.where(seen, moved, probs[unsure])
    return out


def _read_doubles_apart(best: np.ndarray, colour_mean: np.ndarray, pull: np.ndarray,
                        board: Board, offsets: np.ndarray, config: VisionConfig) -> None:
    """Both lanes of a double read as claimed by one colour (at least
    ``config.double_joint_from`` of each lane) are read again together: the pair of offsets, at
    least ``config.double_min_gap`` art px apart, and of colours, not one for both (one player
    never holds both lanes), that cover the two best, each at least as surely. Pieces lying
    over the other lane's print are read for one lane only, and the lane whose pieces lie
    aside is read where they are (usa-img-4076 small or tilted: New York - Washington's red
    pieces over the black lane's print, the black ones a lane's width aside). ``best`` is
    updated in place."""
    _, spaces, owner_of = space_table(board)
    side, sibling = sibling_side(board), sibling_index(board)
    lanes = np.arange(len(sibling))
    read = colour_mean[best, lanes]
    claimed = read.max(axis=1) >= config.double_joint_from
    colour = read.argmax(axis=1)
    for i in np.flatnonzero((sibling > lanes) & claimed):
        j = sibling[i]
        if not claimed[j] or colour[i] != colour[j]:
            continue
        gap = float(np.linalg.norm(spaces[owner_of == i, :2].mean(axis=0)
                                   - spaces[owner_of == j, :2].mean(axis=0)))
        apart = gap - offsets[:, None] * side[i] - offsets[None, :] * side[j]
        a, b = colour_mean[:, i], colour_mean[:, j]  # offset x colour
        both = a[:, None, :, None] + b[None, :, None, :]  # offset i, offset j, colour i, colour j
        both -= 0.02 * (pull[:, None] + pull[None, :])[:, :, None, None]
        both[:, :, np.eye(a.shape[1], dtype=bool)] = -np.inf
        both[apart < config.double_min_gap] = -np.inf
        k, m, ci, cj = np.unravel_index(int(both.argmax()), both.shape)
        # ... when each lane shows its own colour as surely (else one lane is empty, and what
        # it would read beside its sibling's pieces is a neighbour's or the print)
        if min(a[k, ci], b[m, cj]) >= config.double_joint_from:
            best[i], best[j] = k, m


def sibling_side(board: Board) -> np.ndarray:
    """Per lane (``space_table`` order): +1 or -1, the side across the lane where its double's
    other lane lies (the sign of the sideways shift of ``shifted_features``), 0 for none."""
    _, spaces, owner_of = space_table(board)
    _, normal = space_axes(board)
    sibling = sibling_index(board)
    side = np.zeros(len(sibling))
    for i in np.flatnonzero(sibling >= 0):
        mine, theirs = owner_of == i, owner_of == sibling[i]
        towards = spaces[theirs, :2].mean(axis=0) - spaces[mine, :2].mean(axis=0)
        side[i] = np.sign(normal[mine].mean(axis=0) @ towards)
    return side


def sibling_index(board: Board) -> np.ndarray:
    """Per lane (``space_table`` order): the index of its double's other lane, -1 for none."""
    routes, _, _ = space_table(board)
    index = {route.id: i for i, route in enumerate(routes)}
    return np.array([next((index[s.id] for s in board.siblings(route)), -1)
                     for route in routes])


def lane_results(
    probs: np.ndarray, board: Board, config: VisionConfig = DEFAULT,
    veil: np.ndarray | None = None, light: np.ndarray | None = None,
    beside: np.ndarray | None = None,
) -> tuple[LaneResult, ...]:
    """Decide each lane from its spaces: all on one colour is an owner, half covered is doubt.

    One player never holds both lanes of a double route, and pieces placed between the two
    lanes of a double are seen on both: when both lanes come out the same colour, the lane
    that colour covers less is decided again without it, and where it covers both nearly
    alike (``config.double_tie``) the other lane is asked too. ``veil``: the glare over each space
    (``read_board``); a lane read empty is surer where no glare lies (``clear_of_glare``).
    ``light``: the light on each space (``read_board``); a colour read in a deep shade is
    asked unless very sure (``_in_the_shade``). ``beside``: per lane, the most one piece
    colour covers it at an offset it may be read at (``read_spaces``); an empty reading with
    pieces beside it is asked unless very sure (``_pieces_beside``).
    """
    routes, _, owner_of = space_table(board)
    lanes = [probs[owner_of == i] for i in range(len(routes))]
    knees = empty_knees(veil, owner_of, len(routes), config, light, beside)
    results = [_decide(route.id, p, config, knee)
               for route, p, knee in zip(routes, lanes, knees, strict=True)]
    index = {route.id: i for i, route in enumerate(routes)}
    for i, route in enumerate(routes):
        colour = results[i].owner
        for sibling in board.siblings(route):
            j = index[sibling.id]
            if j <= i or colour is None or results[j].owner != colour:
                continue
            k = CLASSES.index(colour)
            cover = lanes[i][:, k].mean(), lanes[j][:, k].mean()
            weak, strong = (i, j) if cover[0] < cover[1] else (j, i)
            if min(cover) >= config.double_tie * max(cover):
                # the colour covers both lanes nearly alike: which one holds it is in doubt
                results[strong] = replace(results[strong],
                                          confidence=0.5 * results[strong].confidence)
            without = lanes[weak].copy()
            without[:, k] = 0.0
            without /= without.sum(axis=1, keepdims=True) + 1e-12
            again = _decide(routes[weak].id, without, config)
            # the colour taken away is its sibling's reading: the runner-up when not the first
            second = colour if again.likely != colour else again.second
            results[weak] = replace(again, confidence=0.5 * again.confidence, second=second)
    results = [_doubt_own_colour(r, route, config, knee) for r, route, knee
               in zip(results, routes, knees, strict=True)]
    results = _bare_print(results, routes, lanes, knees, config)
    results = _in_the_shade(_within_the_box(results, routes, config), owner_of, light, config)
    return _pieces_beside(results, beside, config)


def _pieces_beside(
    results: tuple[LaneResult, ...], beside: np.ndarray | None, config: VisionConfig,
) -> tuple[LaneResult, ...]:
    """A lane read empty while one piece colour covers ``config.empty_beside`` of it or more at
    some offset (``beside``, ``read_spaces``) is asked below ``config.empty_beside_sure``: its
    pieces may lie further off its print than the offsets reach, or it is bare beside a
    neighbour's. On the real photos' variants without glare (240, LSO models) such empties
    0.75-0.85 sure were pieces 14 times in 111, from 0.85 never (636); with less colour
    beside them, pieces 5 times in 7,455 from 0.75. Asking them: wrong and not asked 54 -> 40
    (photos with more than one 9 -> 5), asked 6.0 -> 6.5 % (before ``print_registered``)."""
    if beside is None:
        return results
    doubt, sure = config.doubt_below, config.empty_beside_sure
    return tuple(
        replace(r, confidence=doubt * r.confidence / sure)
        if r.owner is None and r.likely == "empty" and doubt <= r.confidence < sure
        and near >= config.empty_beside else r
        for r, near in zip(results, beside, strict=True))


def _in_the_shade(
    results: Sequence[LaneResult], owner_of: np.ndarray, light: np.ndarray | None,
    config: VisionConfig,
) -> tuple[LaneResult, ...]:
    """A colour read on a lane in a deep shade (a space under ``config.shade_light`` of the
    photo's light) is asked below ``config.shade_sure_from``: there the sensor's noise and
    the JPEG's blocks are as strong as the colours (variants under a sharp shadow read the
    empty board's grey print black 0.8-0.97 sure; such reads were wrong 19 times in 96, on
    lanes in the light 26 in 2,250). Its colour stays the likely reading."""
    if light is None:
        return tuple(results)
    darkest = np.full(len(results), np.inf)
    np.minimum.at(darkest, owner_of, light)
    doubt, sure = config.doubt_below, config.shade_sure_from
    return tuple(
        replace(r, confidence=doubt * r.confidence / sure)
        if r.owner and doubt <= r.confidence < sure and dark < config.shade_light else r
        for r, dark in zip(results, darkest, strict=True))


def _bare_print(
    results: list[LaneResult], routes: Sequence[Route], lanes: Sequence[np.ndarray],
    knees: Sequence[float | None], config: VisionConfig,
) -> list[LaneResult]:
    """The routes printed in a colour this photo shows nowhere else (``absent_colours``) are
    bare print: each is decided again with what its spaces read of that colour read as empty
    (bare print, not another colour: bare blue print is no more red than it was)."""
    absent = absent_colours(results, routes, config)
    out = list(results)
    for i, route in enumerate(routes):
        gone = [CLASSES.index(c) for c in absent if route.color in _LOOKALIKE[c]
                and c in (results[i].likely, results[i].second)]
        if not gone:  # not read as that colour: its reading stands (a double's among them)
            continue
        p = lanes[i].copy()
        p[:, 0] += p[:, gone].sum(axis=1)
        p[:, gone] = 0.0
        out[i] = _doubt_own_colour(_decide(route.id, p, config, knees[i]), route, config,
                                   knees[i])
    return out


def absent_colours(
    results: Sequence[LaneResult], routes: Sequence[Route], config: VisionConfig = DEFAULT
) -> list[str]:
    """The piece colours this photo shows nowhere but on routes printed in them (or like them):
    never read surely (``config.absent_sure``) on another route, and read likeliest on at most
    ``config.absent_lanes`` others. Bare print of a colour reads as pieces of it (on an empty
    board the blue routes' print as blue pieces, 0.85 sure), while a player's pieces lie on
    routes of every printed colour, and a camera that reads one colour badly still reads it
    likeliest on many."""
    def elsewhere(colour: str | None, route: Route) -> bool:
        return colour in _LOOKALIKE and route.color not in _LOOKALIKE[colour]
    pairs = list(zip(results, routes, strict=True))
    shown = {r.owner for r, route in pairs
             if elsewhere(r.owner, route) and r.confidence >= config.absent_sure}
    likely = Counter(r.likely for r, route in pairs if elsewhere(r.likely, route))
    return [c for c in PIECE_COLORS if c not in shown and likely[c] <= config.absent_lanes]


def _within_the_box(
    results: list[LaneResult], routes: Sequence[Route], config: VisionConfig,
) -> tuple[LaneResult, ...]:
    """No colour covers more spaces than the box has pieces of it: when the reads of one colour
    add up to more, its least sure lanes are made doubtful empties until the rest fit, and its
    reads kept in the route's own printed colour (an empty route printed red looks like red
    pieces) are doubted once more, by ``same_colour_margin``: some read of that colour is
    wrong, and such reads are the commonest wrong ones.

    By confidence, where the own-colour reads used to go first whatever their confidence: on
    the crowded real photos a sure blue lane on blue print was dropped for a weak blue read of
    a white route. Read by models that never saw their board, lanes right on the real photos
    98.8 -> 99.2 % (blue 97.8 -> 98.7 %), on their variants without glare 98.1 -> 98.4 %
    (blue 96.9 -> 98.3 %), wrong and not asked 35 -> 33."""
    results = list(results)
    for colour in PIECE_COLORS:
        mine = [i for i, r in enumerate(results) if r.owner == colour]
        total = sum(routes[i].length for i in mine)
        if total <= config.pieces_per_colour:
            continue
        for i in sorted(mine, key=lambda i: results[i].confidence):
            if total <= config.pieces_per_colour:
                break
            total -= routes[i].length
            results[i] = _doubted_empty(results[i], config)
        for i in mine:
            if results[i].owner and routes[i].color in _LOOKALIKE[colour]:
                results[i] = replace(results[i], confidence=max(
                    results[i].confidence - config.same_colour_margin, 0.0))
    return tuple(results)


# printed route colours that pieces of a colour can be mistaken for when the route is empty
# (a real USA board's pink lane was read red, 0.99 sure; in warm or dim light orange print
# read red 0.78-0.82 on the real photos' variants, LSO models)
_LOOKALIKE = {"red": {"red", "pink", "orange"}, "blue": {"blue"}, "green": {"green"},
              "black": {"black"}, "yellow": {"yellow", "orange"}}


def _doubt_own_colour(
    result: LaneResult, route: Route, config: VisionConfig, knee: float | None = None
) -> LaneResult:
    """An empty route printed in a piece colour looks claimed by that colour: such a read must
    be surer than others to go unchecked, and a weak one is bare print more often than pieces
    (on the real dev photos, every such read below 0.7 was an empty route): it is read as no
    owner, doubtful, so the review asks. Clear of glare (``knee``, ``empty_knees``: the lane's
    is ``config.empty_sure_from``), one below ``config.bare_print_below`` is read as bare
    print, not asked: the weaker, the surer."""
    if not result.owner or route.color not in _LOOKALIKE.get(result.owner, ()):
        return result
    if knee == config.empty_sure_from and result.confidence < config.bare_print_below:
        sure = config.doubt_below
        return replace(result, owner=None, likely="empty", second=result.owner,
                       confidence=sure + (1 - sure) * (1 - result.confidence
                                                       / config.bare_print_below))
    if result.confidence < config.same_colour_min:
        return _doubted_empty(result, config)
    return replace(result, confidence=max(result.confidence - config.same_colour_margin, 0.0))


def _doubted_empty(result: LaneResult, config: VisionConfig) -> LaneResult:
    """A lane read in a colour that a rule says is more likely bare print (or a spare piece):
    no owner, doubtful; empty is its likely reading, the colour read its second."""
    return replace(result, owner=None, confidence=config.over_the_box_confidence,
                   likely="empty", second=result.owner or result.second)


def clear_of_glare(
    veil: np.ndarray | None, owner_of: np.ndarray, lanes: int, config: VisionConfig
) -> np.ndarray:
    """Per lane, whether no glare lies over it nor over much of the photo (``veil``: the
    share of white veil found over each space; None, not measured: no lane is clear). A veil
    washes pieces out towards the paper, and its removal is partial, the more so as a broad
    spot is measured weaker than it is: on the real photos' harder variants under a glare
    spot, lanes read empty were wrong on 13 % of them, on the others on none. A faint veil
    (below ``config.glare_doubt_veil``) on a photo otherwise clear is the photo's own uneven
    light: on the variants without a glare spot, the 233 lanes read empty under one were all
    right (LSO models), 77 of them asked when it counted as glare."""
    if veil is None or glared(veil, config):
        return np.zeros(lanes, dtype=bool)
    return np.bincount(owner_of, veil >= config.glare_doubt_veil, lanes) == 0


def glared(veil: np.ndarray, config: VisionConfig) -> bool:
    """Whether the photo lies partly under a glare spot: over ``config.glare_photo_share`` of
    its spaces under a veil (``glared_share``)."""
    return glared_share(veil, config) > config.glare_photo_share


def glared_share(veil: np.ndarray, config: VisionConfig) -> float:
    """The share of the photo's spaces under a veil of ``config.glare_photo_veil`` or more
    (``veil``: the share of white found over each space, ``read_board``): over
    ``config.glare_photo_share`` the photo lies partly under a glare spot. A fainter veil over
    many spaces is the photo's own light and blur: a small or tilted photo of a crowded board
    gives up to 0.17 of its spaces a veil of 0.05, 0.09 of them one of 0.08."""
    return float(np.mean(veil >= config.glare_photo_veil))


def veiled_share(veil: np.ndarray, config: VisionConfig) -> float:
    """The share of the photo's spaces under a veil of ``config.glare_veil`` or more (``veil``:
    the share of white found over each space, ``read_board``): over ``broad_veil_from`` the
    veil is measured again for a broad spot."""
    return float(np.mean(veil >= config.glare_veil))


def empty_knees(
    veil: np.ndarray | None, owner_of: np.ndarray, lanes: int, config: VisionConfig,
    light: np.ndarray | None = None, beside: np.ndarray | None = None,
) -> list[float | None]:
    """Per lane, the probability of empty from which its empty reading is not asked
    (``_empty_confidence``): ``config.empty_sure_from`` clear of glare (``clear_of_glare``),
    ``config.glare_empty_sure_from`` under a veil of ``config.glare_doubt_veil`` or more on
    one of its spaces (pieces washed out towards the paper read empty: on the real photos'
    variants under a glare spot, such readings between 0.75 and 0.95 were wrong 69 times in
    247, from 0.99 4 in 296; under a fainter veil, at the spot's fringe, the probability as
    it is: there, on the glare variants, those between 0.75 and 0.95 were right 121 times in
    123),
    ``config.glare_strong_empty_sure_from`` under one of ``config.glare_strong_veil`` or
    more, elsewhere None: the probability as it is. On a glared photo a lane whose paper is
    lit ``config.glare_lit`` times the photo's or more (``light``, ``paper_light``) lies under
    the glare too, however weakly its veil was measured (a dim photo under a strong spot:
    empties read there 0.75-0.9 sure were all pieces, 3 of 3). Under a veil below the strong
    one, on paper lit less, a lane that shows no piece colour at any offset (``beside``,
    ``read_spaces``: under ``config.glare_bare_beside``) is bare paper from
    ``config.glare_bare_sure_from``: washed-out pieces still show some colour across it."""
    if veil is None:
        return [None] * lanes
    clear = clear_of_glare(veil, owner_of, lanes, config)
    veiled = np.zeros(lanes)
    np.maximum.at(veiled, owner_of, veil)
    lit = np.zeros(lanes)
    if light is not None:
        np.maximum.at(lit, owner_of, light)
    bare = np.zeros(lanes, dtype=bool) if beside is None else beside < config.glare_bare_beside
    return [config.empty_sure_from if c else
            config.glare_strong_empty_sure_from if v >= config.glare_strong_veil else
            config.glare_bare_sure_from if paper and v >= config.glare_doubt_veil
            and b < config.glare_lit else
            config.glare_empty_sure_from if v >= config.glare_doubt_veil or b >= config.glare_lit
            else None
            for c, v, b, paper in zip(clear, veiled, lit, bare, strict=True)]


def _distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Euclidean distances between the rows of ``a`` and of ``b``, by one matrix product (no
    (len(a), len(b), features) array in memory)."""
    squared = (a * a).sum(axis=1)[:, None] + (b * b).sum(axis=1)[None, :] - 2.0 * a @ b.T
    return np.sqrt(np.maximum(squared, 0.0))


def _decide(
    route: str, p: np.ndarray, config: VisionConfig, knee: float | None = None
) -> LaneResult:
    """One lane from the class probabilities of its spaces; its likeliest reading is the
    decision (its owner, else empty), the second the likeliest other whole-lane reading.
    ``knee``: the probability of empty from which an empty reading of this lane is sure enough
    not to be asked (``empty_knees``; None: its probability as it is)."""
    votes = p.argmax(axis=1)
    covered = float(np.mean(votes != 0))
    colour_p = p[:, 1:].mean(axis=0)
    best = int(colour_p.argmax())
    agree = float(np.mean(votes == best + 1))
    # a claim covers every space: one space that is surely empty makes the lane doubtful
    all_covered = float(p[:, 0].max()) < config.space_empty_max
    if covered >= config.lane_agree and agree >= config.lane_agree and all_covered:
        owner = PIECE_COLORS[best]
        return LaneResult(route, owner, float(p[:, best + 1].mean()), owner,
                          _runner_up(p, owner))
    second = _runner_up(p, "empty")
    if covered <= config.lane_doubt:
        empty = float(p[:, 0].mean())
        return LaneResult(route, None, empty if knee is None else _empty_confidence(
            empty, knee, config), "empty", second)
    # partly covered or mixed colours: a person should look
    return LaneResult(route, None, 0.5 * abs(2 * covered - 1), "empty", second)


def _empty_confidence(p_empty: float, knee: float, config: VisionConfig) -> float:
    """How sure a lane read empty on most of its spaces is, from its spaces' mean probability
    of empty: the classifier's probability is not calibrated there (clear of glare the rest of
    it is mostly the route's own printed colour, which bare print shares; under a veil, pieces
    washed out towards the paper read empty), while such a reading was right on nearly every
    lane from ``knee`` up (``empty_knees``). The scale is stretched so that ``knee`` maps to
    ``doubt_below`` and 1 stays 1."""
    sure = config.doubt_below
    if p_empty >= knee:
        return sure + (1.0 - sure) * (p_empty - knee) / (1.0 - knee)
    return sure * p_empty / knee


def _runner_up(p: np.ndarray, first: str) -> str:
    """The likeliest whole-lane reading other than ``first`` (a piece colour on every space,
    or every space empty), by the mean log-probability of the lane's spaces: a lane is
    claimed whole, so two spaces surely yellow and one bare rank yellow above red.

    A doubtful lane's own reading stays first: on the 92 lanes asked on the sample and dev
    photos, ranking every reading this way put the right one first on 67, the decision 86."""
    score = np.log(np.clip(p, 1e-4, 1.0)).mean(axis=0)
    score[CLASSES.index(first)] = -np.inf
    return CLASSES[int(score.argmax())]
