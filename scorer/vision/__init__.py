"""The board-photo detector: photo bytes to the owner of every lane (and Europe stations).

Stages, each a pure function on arrays: ``decode`` -> ``locate`` -> ``rectify`` ->
``classify`` (spaces, then lanes) -> ``Detection`` -> ``to_claims`` (colours to players).
Tunables live in ``VisionConfig``.
"""

from scorer.vision.classify import LaneResult
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.decode import decode
from scorer.vision.errors import BoardNotFound, ImageRejected
from scorer.vision.pipeline import Claims, Detection, LaneClaim, detect, to_claims
from scorer.vision.render import overlay_jpeg, rectified_jpeg, render_overlay, upright_jpeg
from scorer.vision.stations import StationResult

__all__ = [
    "DEFAULT",
    "BoardNotFound",
    "Claims",
    "Detection",
    "ImageRejected",
    "LaneClaim",
    "LaneResult",
    "StationResult",
    "VisionConfig",
    "decode",
    "detect",
    "overlay_jpeg",
    "rectified_jpeg",
    "render_overlay",
    "to_claims",
    "upright_jpeg",
]
