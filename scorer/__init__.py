"""Terminus: the end-of-game scoring assistant for Ticket to Ride.

The pure core (board data, rules, the game model, scoring, longest path) lives here; the web
app (``scorer.web``) and the photo detector (``scorer.vision``) are its clients. The public
names below are loaded on first use, so ``import scorer.boards`` stays light.
"""

from importlib import import_module
from typing import Any

_EXPORTS = {
    "Board": "scorer.boards",
    "load_board": "scorer.boards",
    "ScorerError": "scorer.errors",
    "Game": "scorer.game",
    "Player": "scorer.game",
    "LongestPath": "scorer.longest",
    "longest_path": "scorer.longest",
    "find_variant": "scorer.rules",
    "Scoresheet": "scorer.scoring",
    "score": "scorer.scoring",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'scorer' has no attribute {name!r}")
