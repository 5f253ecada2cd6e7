"""The narrow errors of the core, each with a message a player can act on.

Every error a player can cause is a ``ScorerError``: the CLI turns it into exit status 2
and ``{"error": message}``, the web app into a 4xx answer with the same message.
"""

from __future__ import annotations


class ScorerError(ValueError):
    """Base of every error caused by bad input (never by a bug)."""


class BoardDataError(ScorerError):
    """A board file is inconsistent (a route to an unknown city, a wrong length, ...)."""


class UnknownName(ScorerError):
    """A name that matches nothing; the message suggests the nearest names."""

    kind = "name"

    def __init__(self, name: str, where: str, suggestions: tuple[str, ...] = ()):
        self.name = name
        self.where = where
        self.suggestions = suggestions
        message = f"Unknown {self.kind} {name!r} {where}."
        if suggestions:
            message += " Did you mean " + " or ".join(suggestions) + "?"
        super().__init__(message)


class UnknownCity(UnknownName):
    kind = "city"


class UnknownRoute(UnknownName):
    kind = "route"


class UnknownPlayer(UnknownName):
    kind = "player"


class UnknownVariant(UnknownName):
    kind = "variant"


class IllegalMove(ScorerError):
    """A claim, station or ticket that the rules forbid in this game."""


class InvalidGame(ScorerError):
    """A game file or setup that is malformed (wrong player count, duplicate colour, ...)."""
