"""French and English: every message has its French, core errors and tie-breaks translate."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from scorer.web import i18n
from tests.web.conftest import message

ROOT = Path(__file__).resolve().parents[2]
# The pages and modules of the table app (the scan pages keep their own catalogue checks).
TEMPLATES = [p for p in (ROOT / "templates").rglob("*.html") if "scan" not in p.name]
MODULES = [p for p in (ROOT / "scorer" / "web").glob("*.py") if p.stem != "scan"]
CALL = re.compile(r"""\b(?:_|plural)\(\s*(?:[\w.]+\s*,\s*)?'((?:[^'\\]|\\.)*)'"""
                  r"""(?:\s*,\s*'((?:[^'\\]|\\.)*)')?""")


def template_messages() -> set[str]:
    found = set()
    for path in TEMPLATES:
        for match in CALL.finditer(path.read_text()):
            found.update(m for m in match.groups() if m)
    return found


def module_messages() -> set[str]:
    found = set()
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("_", "gettext") and node.args
                    and isinstance(node.args[0], ast.Constant)):
                found.add(node.args[0].value)
    return found


def test_every_message_of_the_pages_and_views_has_a_french_translation():
    messages = template_messages() | module_messages()
    assert len(messages) > 100
    missing = sorted(m for m in messages if m not in i18n.FR)
    assert not missing


def test_french_messages_keep_the_same_fields():
    for english, french in i18n.FR.items():
        assert set(re.findall(r"{(\w+)}", english)) == set(re.findall(r"{(\w+)}", french)), english


@pytest.mark.parametrize(("english", "french"), [
    ("Paris–Zürich is already claimed by Ann.",
     "Paris–Zürich est déjà prise par Ann."),
    ("Frankfurt–Paris (white) is already claimed by Ann.",
     "Frankfurt–Paris (blanc) est déjà prise par Ann."),
    ("Ann has 3 trains left and cannot claim Atlanta–Miami (length 5).",
     "Il reste 3 wagons à Ann : pas assez pour Atlanta–Miami (longueur 5)."),
    ("Unknown city 'Pariss' on the Europe board. Did you mean Paris?",
     "Ville inconnue « Pariss » sur le plateau Europe. Vouliez-vous dire Paris ?"),
    ("Ann and Bob both play red: each colour once.",
     "Ann et Bob jouent tous deux rouge : chaque couleur une seule fois."),
    ("Something the catalogue does not know.", "Something the catalogue does not know."),
])
def test_core_errors_are_translated_into_french(app, english, french):
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert i18n.translate_error(english) == french
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert i18n.translate_error(english) == english


def test_tiebreak_sentences_are_translated(app):
    sentence = ("Ann and Bob tie on 40 points; Ann and Bob completed the most tickets "
                "(Ann 3, Bob 3, Cy 1); none holds the Longest path bonus: they share the win.")
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert i18n.translate_tiebreak(sentence) == (
            "Ann et Bob sont à égalité avec 40 points ; Ann et Bob ont réalisé le plus de "
            "billets (Ann 3, Bob 3, Cy 1) ; personne n'a le bonus Plus long chemin : ils se "
            "partagent la victoire.")
        assert i18n.translate_tiebreak(None) is None


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["0 trains", "1 train", "2 trains"]),
    ("fr", ["0 wagon", "1 wagon", "2 wagons"]),  # French: 0 and 1 take the singular
])
def test_plurals_follow_the_rule_of_each_language(app, lang, expected):
    with app.test_request_context(headers={"Accept-Language": lang}):
        assert [i18n.plural(n, "{count} train", "{count} trains") for n in (0, 1, 2)] == expected


def test_one_of_anything_is_singular_on_the_pages(client, usa):
    answer = client.hx(f"/games/{usa}/routes/atlanta--nashville", {"player": "Ann"})
    assert message(answer.text) == "Ann claims Atlanta–Nashville: +1 point, 44 trains left."
    bar = re.search(r'data-player="Ann".*?</button>', answer.text, re.S).group(0)
    assert re.search(r"<b data-route-points>1</b> pt<", bar), bar
    route = client.get(f"/games/{usa}/routes/dallas--houston").text
    assert "1 space, 1 point" in route and "1 spaces" not in route
    double = client.hx(f"/games/{usa}/routes/dallas--houston--2", {"player": "Bob"})
    assert message(double.text).startswith("Bob claims Dallas–Houston (gray): +1 point")
    french = client.get(f"/games/{usa}/routes/dallas--houston",
                        headers={"Accept-Language": "fr"}).text
    assert "1 case, 1 point" in french


def test_the_europe_stations_tiebreak_and_two_player_sentences_are_translated(app):
    sentence = ("Ann and Bob tie on 40 points; both completed 1 ticket; Ann placed the fewest "
                "stations (Ann 1, Bob 2): Ann wins.")
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert i18n.translate_tiebreak(sentence) == (
            "Ann et Bob sont à égalité avec 40 points ; tous les deux ont réalisé 1 billet ; "
            "Ann a posé le moins de gares (Ann 1, Bob 2) : Ann gagne.")
        assert i18n.translate_tiebreak(
            "Ann and Bob tie on 4 points; both completed 0 tickets; both placed 2 stations; "
            "neither holds the European Express bonus: they share the win.") == (
            "Ann et Bob sont à égalité avec 4 points ; tous les deux ont réalisé 0 billet ; "
            "tous les deux ont posé 2 gares ; personne n'a le bonus European Express : ils se "
            "partagent la victoire.")
