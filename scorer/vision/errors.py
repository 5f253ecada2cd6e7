"""Why a photo gives no detection: every reason is one a player can act on."""

from __future__ import annotations

from scorer.errors import ScorerError


class BoardNotFound(ScorerError):
    """No board could be read from the photo; ``reason`` says why in a few words."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class ImageRejected(BoardNotFound):
    """The upload is not a usable image (not an image, truncated, too large, animated)."""
