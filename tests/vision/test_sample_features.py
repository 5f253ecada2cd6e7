"""The batched feature rows of ``shifted_features`` against the plain per-shift computation.

The shipped classifier was trained on the features as the reference below computes them (one
shift at a time, ``np.median``/``np.percentile`` over the patch points): the faster code must
give the same rows at every offset, on every labelled photo.
"""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.boards import load_board
from scorer.vision.classify import board_lab
from scorer.vision.config import DEFAULT
from scorer.vision.decode import decode_scaled
from scorer.vision.sample import (
    _CORE,
    _FLANK_A,
    _FLANK_B,
    _UU,
    _VV,
    PRINTED_COLORS,
    light_profile,
    shifted_features,
    space_features,
    space_table,
)
from tests.vision.samples import DEV_PHOTOS

ROOT = Path(__file__).resolve().parents[2]
LABELS = sorted((ROOT / "sample_photos").glob("*.json")) + sorted(DEV_PHOTOS.glob("*.json"))
# cv2.magnitude rounds the last bit differently from call to call (the same code gives two
# results), so the gradient columns never repeat exactly; all others come out bit for bit
ATOL = 1e-4


def reference_shifted_features(lab, board, scale, shifts, offset=None):
    """The features as the shipped model was trained on them: one shift at a time."""
    light = lab[..., 0]
    grad = cv2.magnitude(cv2.Sobel(light, cv2.CV_32F, 1, 0), cv2.Sobel(light, cv2.CV_32F, 0, 1))
    stack = np.dstack([lab, grad / max(scale, 1e-6)])
    _, spaces, _ = space_table(board)
    angle = np.deg2rad(spaces[:, 2])
    normal = np.c_[-np.sin(angle), np.cos(angle)]
    base = np.zeros_like(normal) if offset is None else offset
    return [reference_features(reference_patches(stack, spaces, scale, base + normal * shift),
                               board) for shift in shifts]


def reference_patches(image, spaces, scale, offset):
    x, y = spaces[:, 0:1] + offset[:, 0:1], spaces[:, 1:2] + offset[:, 1:2]
    angle = np.deg2rad(spaces[:, 2:3])
    c, s = np.cos(angle), np.sin(angle)
    px = (x + _UU * c - _VV * s) * scale
    py = (y + _UU * s + _VV * c) * scale
    return cv2.remap(image, px.astype(np.float32), py.astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


def reference_features(patch, board):
    routes, _, owner = space_table(board)
    core, colour = patch[:, _CORE], patch[..., :3]
    core_med = np.median(core[..., :3], axis=1)
    wide_med = np.median(colour, axis=1)
    flank_a = np.median(patch[:, _FLANK_A, :3], axis=1)
    flank_b = np.median(patch[:, _FLANK_B, :3], axis=1)
    dist_a = np.linalg.norm(flank_a - core_med, axis=1)
    near_a = dist_a <= np.linalg.norm(flank_b - core_med, axis=1)
    near = np.where(near_a[:, None], flank_a, flank_b)
    far = np.where(near_a[:, None], flank_b, flank_a)
    profile = np.median(light_profile(patch[..., 0]), axis=1)
    lane_mean = np.zeros((len(routes), 3), dtype=np.float32)
    np.add.at(lane_mean, owner, core_med)
    lane_mean /= np.bincount(owner, minlength=len(routes))[:, None]
    lane_spread = np.linalg.norm(core_med - lane_mean[owner], axis=1)
    printed = np.zeros((len(owner), len(PRINTED_COLORS)), dtype=np.float32)
    for i, r in enumerate(owner):
        if routes[r].color in PRINTED_COLORS:
            printed[i, PRINTED_COLORS.index(routes[r].color)] = 1.0
    return np.hstack([
        core_med,
        np.percentile(core[..., 0], [10, 90], axis=1).T,
        core[..., :3].std(axis=1),
        wide_med,
        np.percentile(colour[..., 0], [10, 90], axis=1).T,
        colour[..., 0].std(axis=1, keepdims=True),
        near, far,
        core[..., 3].mean(axis=1, keepdims=True),
        patch[..., 3].mean(axis=1, keepdims=True),
        profile.std(axis=1, keepdims=True),
        profile.min(axis=1, keepdims=True),
        profile.max(axis=1, keepdims=True),
        lane_mean[owner],
        lane_spread[:, None],
        printed,
    ]).astype(np.float32)


def assert_same_rows(got, expected):
    assert len(got) == len(expected)
    for shift, (g, e) in enumerate(zip(got, expected, strict=True)):
        assert g.shape == e.shape and g.dtype == e.dtype
        off = np.flatnonzero(~np.isclose(g, e, rtol=0, atol=ATOL).all(axis=0))
        assert not len(off), f"shift #{shift}: feature columns {off.tolist()} differ"


def labelled_lab(label: Path):
    truth = json.loads(label.read_text(encoding="utf-8"))
    board = load_board(truth["map"])
    photo = label.parent / truth.get("photo", label.stem + ".jpg")
    image, scale = decode_scaled(photo.read_bytes(), DEFAULT.work_long_side)
    return board, board_lab(image, board, np.asarray(truth["corners"]) * scale)


@pytest.mark.parametrize("label", LABELS, ids=[p.stem for p in LABELS])
def test_features_at_every_lane_offset_match_the_per_shift_computation(label):
    board, lab = labelled_lab(label)
    shifts = DEFAULT.lane_offsets
    assert_same_rows(shifted_features(lab, board, DEFAULT.rectify_scale, shifts),
                     reference_shifted_features(lab, board, DEFAULT.rectify_scale, shifts))


def test_features_at_given_offsets_a_smaller_scale_and_no_shift_match_too():
    board, lab = labelled_lab(ROOT / "sample_photos" / "usa-01.json")
    shifts = (-6.0, 0.0, 6.0)
    offset = np.random.default_rng(1).normal(0, 3, (len(space_table(board)[1]), 2))
    assert_same_rows(shifted_features(lab, board, 1.0, shifts, offset),
                     reference_shifted_features(lab, board, 1.0, shifts, offset))
    half = np.ascontiguousarray(lab[::2, ::2])
    assert_same_rows(shifted_features(half, board, 0.5, shifts),
                     reference_shifted_features(half, board, 0.5, shifts))
    assert_same_rows([space_features(lab, board)],
                     reference_shifted_features(lab, board, 1.0, (0.0,)))
