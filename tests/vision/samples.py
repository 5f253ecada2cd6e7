"""The committed sample photos, loaded as the detector loads a photo, for the tests."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from scorer.vision.decode import decode_scaled

SAMPLES = Path(__file__).resolve().parents[2] / "sample_photos"
# the real dev photos beside the repository (never committed: tests using them skip without)
DEV_PHOTOS = SAMPLES.parents[1] / "shared" / "dev_photos"


def labelled(name: str, folder: Path = SAMPLES) -> tuple[dict, np.ndarray, np.ndarray]:
    """A sample's (or a photo of ``folder``'s) labels, its photo (decoded as the detector
    does) and its board corners."""
    truth = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    image, scale = decode_scaled((folder / f"{name}.jpg").read_bytes(), 2000)
    return truth, image, np.asarray(truth["corners"]) * scale


def cut(image: np.ndarray, corners: np.ndarray, edge: str, share: float,
        ) -> tuple[np.ndarray, np.ndarray]:
    """The photo cut so that ``share`` of the board's extent across ``edge`` lies beyond
    that edge (a negative share leaves that much of the table in), and its corners."""
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    span = hi - lo
    if edge == "top":
        y = int(round(lo[1] + share * span[1]))
        return image[y:], corners - (0, y)
    if edge == "bottom":
        return image[:int(round(hi[1] - share * span[1]))], corners
    if edge == "left":
        x = int(round(lo[0] + share * span[0]))
        return image[:, x:], corners - (x, 0)
    return image[:, :int(round(hi[0] - share * span[0]))], corners
