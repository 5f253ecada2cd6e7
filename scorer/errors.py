"""The narrow errors of the core, each with a message a player can act on.

Every error a player can cause is a ``ScorerError``: the CLI turns it into exit status 2
and ``{"error": message}``, the web app into a 4xx answer with the same message, translated.
An error is raised with an English template and its values (``IllegalMove("{city} is full.",
city=city)``): ``str(error)`` is the English sentence, ``error.message`` the ``Message`` the
web renders in the reader's language. Every template is extracted into the catalogue
(``make messages``): the error classes are keywords in ``babel.cfg``.
"""

from __future__ import annotations

from typing import Any

from scorer.messages import N_, Message, Names


class ScorerError(ValueError):
    """Base of every error caused by bad input (never by a bug)."""

    def __init__(self, template: str | Message, /, **params: Any):
        self.message = template if isinstance(template, Message) else Message(template, params)
        super().__init__(str(self.message))


class BoardDataError(ScorerError):
    """A board file is inconsistent (a route to an unknown city, a wrong length, ...)."""


class UnknownName(ScorerError):
    """A name that matches nothing; the message suggests the nearest names.

    ``where`` is the rest of the sentence, itself a message ("on the {board} board.")."""

    template = N_("Unknown name {name!r} {where}.")
    suggesting = N_("Unknown name {name!r} {where}. Did you mean {suggestions}?")

    def __init__(self, name: str, where: Message, suggestions: tuple[str, ...] = ()):
        self.name = name
        self.where = where
        self.suggestions = suggestions
        params: dict[str, Any] = {"name": name, "where": where}
        if suggestions:
            params["suggestions"] = Names(tuple(suggestions), "or")
        super().__init__(Message(self.suggesting if suggestions else self.template, params))


class UnknownCity(UnknownName):
    template = N_("Unknown city {name!r} {where}.")
    suggesting = N_("Unknown city {name!r} {where}. Did you mean {suggestions}?")


class UnknownRoute(UnknownName):
    template = N_("Unknown route {name!r} {where}.")
    suggesting = N_("Unknown route {name!r} {where}. Did you mean {suggestions}?")


class UnknownPlayer(UnknownName):
    template = N_("Unknown player {name!r} {where}.")
    suggesting = N_("Unknown player {name!r} {where}. Did you mean {suggestions}?")


class UnknownVariant(UnknownName):
    template = N_("Unknown variant {name!r} {where}.")
    suggesting = N_("Unknown variant {name!r} {where}. Did you mean {suggestions}?")


class IllegalMove(ScorerError):
    """A claim, station or ticket that the rules forbid in this game."""


class InvalidGame(ScorerError):
    """A game file or setup that is malformed (wrong player count, duplicate colour, ...)."""
