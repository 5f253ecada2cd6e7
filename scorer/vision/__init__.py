"""The board-photo detector: photo bytes to the owner of every lane (and Europe stations).

Stages, each a pure function on arrays: ``decode`` -> ``locate`` -> ``rectify`` ->
``classify`` (spaces, then lanes) -> ``Detection``. Tunables live in ``VisionConfig``.
"""

from scorer.vision.classify import LaneResult
from scorer.vision.config import DEFAULT, VisionConfig
from scorer.vision.decode import decode
from scorer.vision.errors import BoardNotFound, ImageRejected
from scorer.vision.pipeline import Detection, detect
from scorer.vision.render import overlay_jpeg, render_overlay
from scorer.vision.stations import StationResult

__all__ = [
    "DEFAULT",
    "BoardNotFound",
    "Detection",
    "ImageRejected",
    "LaneResult",
    "StationResult",
    "VisionConfig",
    "decode",
    "detect",
    "overlay_jpeg",
    "render_overlay",
]
