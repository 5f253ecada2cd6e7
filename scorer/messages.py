"""Sentences for players kept as an English template and its values, translated at the edge.

The core speaks English (the CLI, the API and the score JSON print ``str(message)``); the web
app renders the same ``Message`` with its catalogue (``scorer.web.i18n.translate``). Names and
cities are values, never part of a template, so no translation can alter them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def _english(message: str) -> str:
    return message


def _english_plural(one: str, many: str, count: int) -> str:
    return one if count == 1 else many


@dataclass(frozen=True)
class Message:
    """A template with ``{field}``s (``str.format``) and its values; ``many`` is the plural
    template, chosen by ``params["count"]``. A value may be a Message itself (a colour, a
    bonus's name), rendered in the same language."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)
    many: str = ""

    def render(self, gettext: Gettext = _english, ngettext: Ngettext = _english_plural) -> str:
        """The sentence in the language of ``gettext``/``ngettext`` (English by default)."""
        text = (ngettext(self.template, self.many, self.params["count"]) if self.many
                else gettext(self.template))
        if not self.params:  # a sentence without fields may hold braces of its own
            return text
        values = {key: value.render(gettext, ngettext) if isinstance(value, Renderable)
                  else value for key, value in self.params.items()}
        return text.format(**values)

    def __str__(self) -> str:
        return self.render()

    def to_json(self) -> dict[str, Any]:
        """The message as JSON values (nested messages as objects), for ``from_json``."""
        data: dict[str, Any] = {"template": self.template, "params": {
            key: value.to_json() if isinstance(value, Renderable) else value
            for key, value in self.params.items()}}
        if self.many:
            data["many"] = self.many
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        """The message ``to_json`` wrote."""
        params = {key: _value_from_json(value) for key, value in data["params"].items()}
        return cls(data["template"], params, data.get("many", ""))


def plural(count: int, one: str, many: str, **params: Any) -> Message:
    """The message for ``count`` of something (given to the templates as ``{count}``)."""
    return Message(one, {"count": count, **params}, many)


@dataclass(frozen=True)
class Names:
    """Names as typed, joined as a list: "A, B and C", or "A or B" (``conjunction="or"``)."""

    names: tuple[str, ...]
    conjunction: str = "and"

    def render(self, gettext: Gettext = _english, ngettext: Ngettext = _english_plural) -> str:
        """The list in the language of ``gettext`` (the names themselves never change)."""
        *head, last = self.names
        if not head:
            return last
        if self.conjunction == "or":
            return gettext("{names} or {name}").format(names=", ".join(head), name=last)
        return gettext("{names} and {name}").format(names=", ".join(head), name=last)

    def __str__(self) -> str:
        return self.render()

    def to_json(self) -> dict[str, Any]:
        return {"names": list(self.names), "conjunction": self.conjunction}


@dataclass(frozen=True)
class Clause:
    """A sentence used after a label, its first letter lowered ("Ticket 3: field 'to' ...")."""

    message: Message

    def render(self, gettext: Gettext = _english, ngettext: Ngettext = _english_plural) -> str:
        text = self.message.render(gettext, ngettext)
        return text[:1].lower() + text[1:]

    def __str__(self) -> str:
        return self.render()

    def to_json(self) -> dict[str, Any]:
        return {"clause": self.message.to_json()}


Renderable = Message | Names | Clause


def _value_from_json(value: Any) -> Any:
    if not isinstance(value, Mapping):
        return value
    if "names" in value:
        return Names(tuple(value["names"]), value["conjunction"])
    if "clause" in value:
        return Clause(Message.from_json(value["clause"]))
    return Message.from_json(value)


def N_(template: str) -> str:  # gettext's own name for it
    """Mark a message kept in a constant, to translate later, so that extraction finds it."""
    return template
