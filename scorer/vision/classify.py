"""Stages 4-5: every train space to a piece colour, then every lane to an owner or none."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scorer.boards import Board
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.geometry import rectify
from scorer.vision.model import CLASSES, Mlp, load_model
from scorer.vision.sample import (
    background_color,
    normalise,
    shifted_features,
    space_table,
    to_lab,
)

PIECE_COLORS = CLASSES[1:]


@dataclass(frozen=True, slots=True)
class LaneResult:
    """One lane: the colour of the pieces on it (None: empty or doubtful) and how sure."""

    route: str
    owner: str | None
    confidence: float

    def to_json(self) -> dict:
        return {"id": self.route, "owner": self.owner, "confidence": round(self.confidence, 3)}


def board_lab(
    image: np.ndarray, board: Board, corners: np.ndarray, config: VisionConfig = DEFAULT
) -> np.ndarray:
    """The rectified map area in Lab, normalised by the photo's own paper colour."""
    lab = to_lab(rectify(image, board, corners, config.rectify_scale))
    return normalise(lab, background_color(lab, board, config.rectify_scale))


def space_probabilities(
    lab: np.ndarray, board: Board, colors: Sequence[str] | None = None,
    config: VisionConfig = DEFAULT, model: Mlp | None = None,
) -> np.ndarray:
    """(N spaces, len(CLASSES)) probabilities, in ``space_table`` order."""
    model = model or load_model()
    rows = shifted_features(lab, board, config.rectify_scale, config.space_shifts)
    probs = np.mean([model.probabilities(r) for r in rows], axis=0)
    if colors:
        allowed = np.array([c == "empty" or c in colors for c in CLASSES])
        probs = probs * allowed
        probs /= probs.sum(axis=1, keepdims=True) + 1e-12
    return probs


def lane_results(
    probs: np.ndarray, board: Board, config: VisionConfig = DEFAULT
) -> tuple[LaneResult, ...]:
    """Decide each lane from its spaces: all on one colour is an owner, half covered is doubt."""
    routes, _, owner_of = space_table(board)
    results = []
    for i, route in enumerate(routes):
        p = probs[owner_of == i]
        votes = p.argmax(axis=1)
        covered = float(np.mean(votes != 0))
        colour_p = p[:, 1:].mean(axis=0)
        best = int(colour_p.argmax())
        agree = float(np.mean(votes == best + 1))
        # a claim covers every space: one space that is surely empty makes the lane doubtful
        all_covered = float(p[:, 0].max()) < config.space_empty_max
        if covered >= config.lane_agree and agree >= config.lane_agree and all_covered:
            conf = float(p[:, best + 1].mean())
            results.append(LaneResult(route.id, PIECE_COLORS[best], conf))
        elif covered <= config.lane_doubt:
            results.append(LaneResult(route.id, None, float(p[:, 0].mean())))
        else:  # partly covered or mixed colours: a person should look
            results.append(LaneResult(route.id, None, 0.5 * abs(2 * covered - 1)))
    return tuple(results)
