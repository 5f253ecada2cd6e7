"""Why a photo gives no detection: every reason is one a player can act on.

Raised like every ``ScorerError``: an English template and its values, translated at the edge.
"""

from __future__ import annotations

from scorer.errors import ScorerError


class BoardNotFound(ScorerError):
    """No board could be read from the photo; the message says why in a few words."""


class ImageRejected(BoardNotFound):
    """The upload is not a usable image (not an image, truncated, too large, animated)."""
