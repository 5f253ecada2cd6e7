"""Stage 2: find the board's four outer corners in a photo, upright, with a confidence.

Candidates come from several cheap segmentations (``masks``: the whole frame, "far from the
table colour", edges) and, when none is sure, from long straight lines (``lines``). The
search (``search``) reads each in its four rotations, pulls it onto the printed spaces
(``aligner``) and scores it by the board content (``content``): at the printed train spaces
the photo must differ from the paper and agree along each route. The best candidate is then
polished by the same score and snapped to the board's outer edges (``edges``). Tunables
live in ``VisionConfig``.
"""

from scorer.vision.locate.aligner import Aligner
from scorer.vision.locate.content import ContentScore, polish
from scorer.vision.locate.images import blurred_lab, resize_long
from scorer.vision.locate.lines import line_quads
from scorer.vision.locate.masks import candidates, quad_from_mask
from scorer.vision.locate.search import Located, locate

__all__ = [
    "Aligner",
    "ContentScore",
    "Located",
    "blurred_lab",
    "candidates",
    "line_quads",
    "locate",
    "polish",
    "quad_from_mask",
    "resize_long",
]
