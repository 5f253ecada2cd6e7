"""Why a photo gives no detection: every reason is one a player can act on.

Raised like every ``ScorerError``: an English template and its values, translated at the edge.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorer.errors import ScorerError
from scorer.messages import N_


class BoardNotFound(ScorerError):
    """No board could be read from the photo; the message says why in a few words."""


class ImageRejected(BoardNotFound):
    """The upload is not a usable image (not an image, truncated, too large, animated)."""


# the photo's edges the board reaches beyond (in ``locate.cut.EDGES`` order) -> the sentence
_OUTSIDE = {
    ("top",): N_("The top of the board is outside the photo: take it again with the whole "
                 "board in the frame."),
    ("right",): N_("The right side of the board is outside the photo: take it again with the "
                   "whole board in the frame."),
    ("bottom",): N_("The bottom of the board is outside the photo: take it again with the "
                    "whole board in the frame."),
    ("left",): N_("The left side of the board is outside the photo: take it again with the "
                  "whole board in the frame."),
    ("top", "right"): N_("The top and the right side of the board are outside the photo: "
                         "take it again with the whole board in the frame."),
    ("right", "bottom"): N_("The bottom and the right side of the board are outside the "
                            "photo: take it again with the whole board in the frame."),
    ("bottom", "left"): N_("The bottom and the left side of the board are outside the photo: "
                           "take it again with the whole board in the frame."),
    ("top", "left"): N_("The top and the left side of the board are outside the photo: take "
                        "it again with the whole board in the frame."),
}
_LARGER = N_("The board is larger than the photo on several sides: step back and take it "
             "again with the whole board in the frame.")


class BoardOutOfFrame(BoardNotFound):
    """The board was found reaching past the photo's edges (a photo taken too close): the
    message names those edges; ``corners`` are where the board's corners were found, in the
    photo's pixels (those beyond ``edges`` outside it), ``photo_size`` its width and height."""

    def __init__(self, edges: Sequence[str], corners: Sequence[Sequence[float]],
                 photo_size: tuple[int, int]):
        self.edges = tuple(edges)
        self.corners = [[float(x), float(y)] for x, y in corners]
        self.photo_size = photo_size
        super().__init__(_OUTSIDE.get(self.edges, _LARGER))
