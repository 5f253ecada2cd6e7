"""The French catalogue: every message of every page (the photo's included), of the views and
of the core's errors is extracted as `make messages` does and must have its French, with the
same fields; every error class renders in French with its values."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po
from babel.support import Translations

from scorer.boards import BOARD_NAMES, load_board
from scorer.errors import (
    BoardDataError,
    IllegalMove,
    InvalidGame,
    ScorerError,
    UnknownCity,
    UnknownName,
    UnknownPlayer,
    UnknownRoute,
    UnknownVariant,
)
from scorer.messages import Message, Names
from scorer.rules import PIECE_COLORS, VARIANTS
from scorer.vision.errors import BoardNotFound, BoardOutOfFrame, ImageRejected
from scorer.web import i18n

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"
PO = TRANSLATIONS / "fr" / "LC_MESSAGES" / "messages.po"


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> dict[str | tuple[str, ...], object]:  # type: ignore[no-untyped-def]
    """Every message of the code and the templates, extracted with babel.cfg as `make
    messages` does."""
    pot = tmp_path_factory.mktemp("catalogue") / "messages.pot"
    CommandLineInterface().run(["pybabel", "--quiet", "extract", "-F", str(ROOT / "babel.cfg"),
                                "--no-location", "-o", str(pot), str(ROOT)])
    with pot.open("rb") as file:
        return {m.id: m for m in read_po(file) if m.id}


@pytest.fixture(scope="module")
def french():  # type: ignore[no-untyped-def]
    with PO.open("rb") as file:
        return read_po(file)


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_message_of_every_page_has_a_french_translation(extracted, french):
    assert len(extracted) > 350
    # the photo's pages and errors, the results, the core's errors and tie-break are in it
    for sample in ("Check the photo", "The photo is too dark: add light or avoid shadows on the "
                   "board.", "Winner", "{lane} is already claimed by {owner}.",
                   "{names} tie on {points} points"):
        assert any(sample in (key if isinstance(key, tuple) else (key,)) for key in extracted)
    missing = []
    for key in extracted:
        translated = french.get(key)
        strings = translated.string if translated else ""
        forms = strings if isinstance(strings, tuple) else (strings,)
        if not translated or not all(forms) or translated.fuzzy:
            missing.append(key)
    assert not missing, f"without French (or fuzzy) in {PO.name}: {missing}; see i18n.py"


def test_french_messages_keep_the_same_fields(french):
    for message in french:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        translated = message.string if isinstance(message.string, tuple) else (message.string,)
        expected = set().union(*map(fields, english))
        for text in translated:
            assert fields(text) == expected, message.id


def test_the_compiled_catalogue_is_the_one_in_the_po(french):
    compiled = Translations.load(str(TRANSLATIONS), ["fr"])
    assert isinstance(compiled, Translations), "no .mo: run make (it compiles the .po)"
    for message in french:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            got = (compiled.ngettext(*message.id, 1), compiled.ngettext(*message.id, 2))
        else:
            got = compiled.gettext(message.id)
        assert got == message.string, f"{message.id!r}: the .mo is older than the .po, run make"


def test_every_colour_and_bonus_name_of_the_boards_and_rules_is_in_the_catalogue():
    words = {r.color for name in BOARD_NAMES for r in load_board(name).routes.values()}
    words |= set(PIECE_COLORS) | {v.bonus_name for v in VARIANTS.values()}
    words |= {name for v in VARIANTS.values() for _, name in v.bonuses}  # every bonus's name
    words |= {v.title for v in VARIANTS.values()}
    words |= {load_board(name).title for name in BOARD_NAMES}  # the photo's refusal names it
    assert words <= set(i18n.DATA_WORDS)


# One error of each class, raised as the code raises it; a new error class must come here.
ERRORS = {
    ScorerError: ScorerError("Unknown piece colour {color!r}: use {colors}.", color="mauve",
                             colors="red, blue"),
    BoardDataError: BoardDataError("Unknown board {name!r}. Boards: {boards}.", name="mars",
                                   boards="usa, europe"),
    UnknownName: UnknownName("Zed", Message("in this game")),
    UnknownCity: UnknownCity("Pariss", Message("on the {board} board", {"board": "Europe"}),
                             ("Paris", "Parma")),
    UnknownRoute: UnknownRoute("denver--mars", Message("on the {board} board",
                                                       {"board": "USA"})),
    UnknownPlayer: UnknownPlayer("Jery", Message("in this game"), ("Tom and Jerry",)),
    UnknownVariant: UnknownVariant("mars", Message("(choose {variants})",
                                                       {"variants": "usa or europe"})),
    IllegalMove: IllegalMove("{player} already holds the ticket {a}–{b}.", player="Tom and Jerry",
                             a="Denver", b="El Paso"),
    InvalidGame: InvalidGame("{a} and {b} both play {color}: each colour once.", a="Ann",
                             b="Tom and Jerry", color=Message("red")),
    BoardNotFound: BoardNotFound("The photo is too dark: add light or avoid shadows on the "
                                 "board."),
    ImageRejected: ImageRejected("The file is too large ({size:.0f} MB, at most {limit:.0f} MB).",
                                 size=31.4, limit=25),
    BoardOutOfFrame: BoardOutOfFrame(("right", "bottom"), [[10, 10], [900, 12], [910, 700],
                                                           [8, 690]], (800, 600)),
}


def every_error_class(cls: type = ScorerError) -> set[type]:
    return {cls}.union(*(every_error_class(sub) for sub in cls.__subclasses__()))


def test_every_error_class_is_in_the_french_table():
    assert every_error_class() == set(ERRORS)


@pytest.mark.parametrize("error", ERRORS.values(), ids=lambda e: type(e).__name__)
def test_every_error_class_renders_in_french_with_its_values(app, error):
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        french = i18n.translate(error.message)
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert i18n.translate(error.message) == str(error)
    assert french != str(error)
    for value in error.message.params.values():
        for name in value.names if isinstance(value, Names) else (value,):
            if isinstance(name, str):
                assert name in french  # names as typed: "Tom and Jerry" stays so
