"""The content score: how well an outline puts the board's printed spaces onto the photo's
routes (the photo differs from the paper there and agrees along each route), and the polish
that climbs it."""

from __future__ import annotations

import cv2
import numpy as np

from scorer.boards import Board
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.geometry import art_to_photo, is_convex_quad
from scorer.vision.sample import background_points, space_axes, space_table


class ContentScore:
    """How well a corner hypothesis puts the printed spaces onto route-like pixels.

    With ``beyond`` the board may reach past the photo's edges (a photo taken too close): the
    score is then that of the spaces and paper in the photo only, and an outline that leaves
    less than ``config.cut_min_seen`` of the spaces in it is no board."""

    def __init__(self, lab: np.ndarray, board: Board, config: VisionConfig = DEFAULT,
                 beyond: bool = False):
        self.lab, self.board, self.beyond = lab, board, beyond
        self.min_seen = config.cut_min_seen
        # how far the map may be printed off the board_frame, in art px
        slack_cm = (config.measured_frame_slack_cm if board.board_frame.get("measured")
                    else config.assumed_frame_slack_cm)
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
        self.member = member.astype(np.float32)

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
        owner, route_average = self.owner, self.route_average
        if self.beyond:
            h, w = self.lab.shape[:2]
            inside = (p[:, 0] >= 0) & (p[:, 0] <= w - 1) & (p[:, 1] >= 0) & (p[:, 1] <= h - 1)
            seen = inside[:n] & inside[n:2 * n] & inside[2 * n:3 * n]
            if seen.mean() < self.min_seen or not inside[3 * n:].any():
                return -1e9
            s, owner, paper_samples = s[seen], owner[seen], paper_samples[inside[3 * n:]]
            member = self.member[:, seen]
            counts = member.sum(axis=1, keepdims=True)
            shown = counts[:, 0] > 0  # routes with a space in the photo
            route_average = member[shown] / counts[shown]
            owner = np.cumsum(shown)[owner] - 1  # each space's route among those shown
        paper = _median(paper_samples)
        # the paper between routes is one plain colour: a quad reaching onto the table is not
        paper_spread = _median(_norms(paper_samples - paper))
        contrast = _median(_norms(s - paper))
        route_mean = route_average @ s
        spread = float(np.mean(_norms(s - route_mean[owner])))
        # routes differ in colour (pieces, printed colours): a uniform table does not
        between = _median(_norms(route_mean - _median(route_mean)))
        return float(contrast - spread - paper_spread) * min(1.0, float(between) / 25.0)


def best_frame_shift(score: ContentScore, corners: np.ndarray, best: float) -> float:
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
