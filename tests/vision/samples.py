"""The committed sample photos, loaded as the detector loads a photo, for the tests."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from scorer.vision.decode import decode_scaled

SAMPLES = Path(__file__).resolve().parents[2] / "sample_photos"


def labelled(name: str) -> tuple[dict, np.ndarray, np.ndarray]:
    """A sample's labels, its photo (decoded as the detector does) and its board corners."""
    truth = json.loads((SAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    image, scale = decode_scaled((SAMPLES / f"{name}.jpg").read_bytes(), 2000)
    return truth, image, np.asarray(truth["corners"]) * scale
