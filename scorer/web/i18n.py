"""French and English: gettext catalogues (Flask-Babel) and ``_()`` for templates and views.

Messages are written in English in the code; ``translations/fr/LC_MESSAGES/messages.po`` holds
their French. The language comes from the ``lang`` cookie (the switch) or else the browser's
Accept-Language. Templates use ``{name}`` fields filled by ``str.format``, never ``%``.

To add a message:

1. Write it in English where it is said: ``_("... {name} ...", name=x)`` in a view or a
   template, ``plural(n, "{count} lane", "{count} lanes")`` for a count, or an error of the
   core raised with its template and values (``IllegalMove("{city} is full.", city=city)``:
   the error classes and ``Message`` are extraction keywords, see ``babel.cfg``). A message
   kept in a constant is marked ``N_("...")`` (``scorer.messages``) so that extraction finds
   it. Names and cities are always values, never part of the English.
2. ``make messages``: extracts every message into ``translations/messages.pot`` and adds the
   new ones to the French ``.po``.
3. Write the French in the ``.po`` (``msgstr``; ``msgstr[0]``/``msgstr[1]`` for a plural,
   French takes the singular for 0 and 1), keeping the same ``{fields}``; remove any
   ``#, fuzzy`` line once checked. ``make run``/``make test`` compile the ``.mo``.

``tests/web/test_catalogue.py`` fails on a message without French, a fuzzy one, or fields
that differ from the English.
"""

from __future__ import annotations

from typing import Any

import flask_babel
from babel.support import NullTranslations
from flask import Flask, current_app, g, has_request_context, request

from scorer.messages import N_, Message

LANGUAGES = {"en": "English", "fr": "Français"}
DEFAULT_LANGUAGE = "en"
COOKIE = "lang"
_ENGLISH = NullTranslations()  # the messages as written

# The words that come from the board files and the rule sets (lane colours, the bonuses'
# names): named here so that extraction puts them in the catalogue. A test checks the list
# against every board and variant.
DATA_WORDS = (
    N_("red"), N_("blue"), N_("green"), N_("yellow"), N_("black"), N_("white"), N_("orange"),
    N_("pink"), N_("gray"), N_("Longest path"), N_("European Express"), N_("Europe Express"),
    N_("Globetrotter"), N_("Indian Express"), N_("Grand Tour"),
    # the rule sets' titles (scorer.rules.VARIANTS)
    N_("USA"), N_("Europe"), N_("Express"), N_("USA 1910"), N_("USA 1910 Mega Game"),
    N_("USA 1910 Big Cities"), N_("Europe 1912 Extended"), N_("Europe 1912 Mega"),
    N_("Europe 1912 Big Cities"), N_("Nordic Countries"), N_("Switzerland"),
    N_("India"),
)


def current_language() -> str:
    """The page's language: the ``lang`` cookie, else the browser's best match, else English."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    if "lang" not in g:
        chosen = request.cookies.get(COOKIE)
        if chosen not in LANGUAGES:
            chosen = request.accept_languages.best_match(list(LANGUAGES), DEFAULT_LANGUAGE)
        g.lang = chosen
    return g.lang


def _translations() -> Any:
    # Outside a request (a thread, a test) there is no reader: English, the messages as written.
    if not has_request_context():
        return _ENGLISH
    # Kept for the request: Flask-Babel finds the catalogue through several lookups of the
    # request's context each time, and a tap's answer asks for it dozens of times (every
    # counter's plural).
    found = g.get("translations")
    if found is None:
        found = g.translations = _catalogue(current_language())
    return found


def _catalogue(language: str) -> Any:
    """The language's catalogue, as Flask-Babel finds it: asked of Flask-Babel once per app
    and language (on every request it parses the locale again to build its key)."""
    kept = current_app.extensions["terminus.catalogues"]
    found = kept.get(language)
    if found is None:
        found = kept[language] = flask_babel.get_translations()
    return found


def gettext(message: str, **values: object) -> str:
    """The message in the current language, with ``{name}`` fields filled in."""
    text = _translations().gettext(message)
    return text.format(**values) if values else text


_ = gettext


def plural(count: int, one: str, many: str, **values: object) -> str:
    """The singular or plural message for ``count`` (given to it as ``{count}``), by the
    language's rule: English takes the singular for 1 only, French for 0 and 1 too."""
    return _translations().ngettext(one, many, count).format(count=count, **values)


def translate(message: Message | None) -> str | None:
    """A message of the core (an error, the tie-break) in the current language; the names in
    it stay as typed."""
    if message is None:
        return None
    translations = _translations()
    return message.render(translations.gettext, translations.ngettext)


def signed(points: int) -> str:
    """Points with their sign, a real minus sign, and a bare 0."""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def color_name(color: str) -> str:
    """A colour's name (``red``, as the board files and game files write it) for the reader."""
    return gettext(color)


def init_app(app: Flask) -> None:
    """Read the catalogues (``BABEL_TRANSLATION_DIRECTORIES``, set by ``create_app``) and give
    the templates the helpers."""
    # Our own ``_`` and ``plural`` (``{field}`` formatting) stay the templates' functions.
    flask_babel.Babel(app, locale_selector=current_language, configure_jinja=False)
    app.extensions["terminus.catalogues"] = {}
    app.jinja_env.globals.update(
        _=gettext, plural=plural, signed=signed, current_language=current_language,
        LANGUAGES=LANGUAGES, color_name=color_name, translate=translate,
    )

