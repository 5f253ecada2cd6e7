"""The USA 1910 rule sets on the web: new game, the set's deck in the ticket search, the
Globetrotter on the results (English and French), the API, import and export, the photo."""

from __future__ import annotations

import html
import io
import json
import re

import pytest

from scorer.errors import ScorerError
from scorer.rules import VARIANTS, find_variant
from scorer.web import i18n
from tests.core import mega_game
from tests.web.conftest import players
from tests.web.test_games import new_game_form
from tests.web.test_scan import sample, scan_url, upload

SETS = ["usa-1910", "usa-mega", "usa-big-cities"]


@pytest.fixture
def mega(client) -> str:
    return client.api_game(mega_game.GAME)


@pytest.mark.parametrize("variant", SETS)
def test_a_new_game_of_each_set_is_made_from_the_form_on_the_usa_board(client, variant):
    answer = client.post("/games", new_game_form(variant=variant))
    assert answer.status_code == 303
    game_id = answer.headers["Location"].rsplit("/", 1)[1]
    page = client.get(answer.headers["Location"]).text
    assert page.count("data-route-id=") == 100 and 'data-city="Denver"' in page
    assert client.get(f"/games/{game_id}/export.json").get_json()["variant"] == variant


def search(client, game_id: str, query: str) -> list[str]:
    answer = client.get(f"/games/{game_id}/tickets/search?q={query}",
                        headers={"HX-Request": "true"})
    assert answer.status_code == 200
    return [html.unescape(item) for item in re.findall(r"<li[^>]*data-deck-ticket[^>]*>.*?</li>",
                                                       answer.text, re.S)]


@pytest.mark.parametrize(
    ("variant", "offered", "not_offered"),
    [
        ("usa", ["Seattle–New York", "22"], ["Seattle–Las Vegas"]),
        ("usa-1910", ["Seattle–Las Vegas", "10"], ["Seattle–New York"]),
        ("usa-mega", ["Seattle–New York", "20"], []),
        ("usa-big-cities", ["Seattle–New York", "20"], ["Seattle–Portland"]),
    ],
)
def test_the_ticket_search_offers_the_set_deck_with_its_values(
    client, variant, offered, not_offered
):
    game_id = client.api_game({"variant": variant, "players": players("Ann:red", "Bob:blue")})
    found = search(client, game_id, "seattle")
    ticket, points = offered
    item = next((i for i in found if f'data-deck-ticket="{ticket}"' in i), None)
    assert item is not None, found
    assert re.search(rf"\b{points}\b", re.sub(r"<[^>]+>", " ", item)), item
    for ticket in not_offered:
        assert not any(f'data-deck-ticket="{ticket}"' in i for i in found)


def test_a_base_ticket_tapped_in_a_1910_game_is_refused_as_not_in_the_deck(client):
    game_id = client.api_game({"variant": "usa-1910", "players": players("Ann:red", "Bob:blue")})
    answer = client.hx(f"/games/{game_id}/tickets", {"player": "Ann", "a": "Seattle",
                                                      "b": "New York"})
    assert answer.status_code == 422
    assert "not a ticket of the USA 1910 deck" in html.unescape(answer.text)
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["tickets"] == []


def card(page: str, name: str) -> str:
    return re.search(rf'<article class="score-card[^"]*" data-player="{name}">(.*?)</article>',
                     page, re.S).group(1)


def test_the_results_show_and_explain_the_globetrotter(client, mega):
    page = client.get(f"/games/{mega}/results").text
    for name, figures in mega_game.EXPECTED.items():
        *_, longest_bonus, globetrotter, total = figures
        block = card(page, name)
        assert f'data-total="{total}"' in block
        assert f"data-longest-bonus>{longest_bonus}<" in block
        assert f"data-globetrotter-bonus>{globetrotter}<" in block
    ann = card(page, "Ann")
    assert "Globetrotter bonus (7 tickets completed; most: 7)" in ann
    assert "Ann wins!" in page and html.escape(mega_game.TIEBREAK, quote=False) in page
    summary = re.search(r"<textarea[^>]*data-summary[^>]*>(.*?)</textarea>", page, re.S).group(1)
    assert "Globetrotter +15" in html.unescape(summary)


def test_big_cities_results_show_no_bonus_card(client):
    game_id = client.api_game({"variant": "usa-big-cities",
                               "players": players("Ann:red", "Bob:blue"),
                               "claims": [{"player": "Ann", "route": "calgary--helena"}],
                               "tickets": [{"player": "Ann", "from": "Calgary",
                                            "to": "Helena", "points": 4}]})
    page = client.get(f"/games/{game_id}/results").text
    assert "data-longest-bonus" not in page and "data-globetrotter-bonus" not in page
    assert "data-express-bonus" not in page
    assert 'data-total="11"' in card(page, "Ann")


def test_the_tiebreak_sentences_of_the_1910_sets_are_in_french(client, mega):
    page = client.get(f"/games/{mega}/results", headers={"Accept-Language": "fr"}).text
    assert ("Ann et Bob sont à égalité avec 86 points ; tous les deux ont réalisé 7 billets ; "
            "Ann détient le bonus Plus long chemin : Ann gagne.") in html.unescape(page)
    shared = client.api_game({
        "variant": "usa-1910", "players": players("Ann:red", "Bob:blue"),
        "claims": [{"player": "Ann", "route": "denver--santa-fe"},
                   {"player": "Bob", "route": "atlanta--charleston"}],
        "tickets": [{"player": "Ann", "from": "Denver", "to": "Santa Fe", "points": 3},
                    {"player": "Bob", "from": "Atlanta", "to": "Charleston", "points": 3}]})
    page = html.unescape(client.get(f"/games/{shared}/results",
                                    headers={"Accept-Language": "fr"}).text)
    assert ("Ann et Bob sont à égalité avec 20 points ; tous les deux ont réalisé 1 billet ; "
            "tous les deux ont le bonus Globe-trotter : ils se partagent la victoire.") in page
    assert "Bonus Globe-trotter" in page or "bonus Globe-trotter" in page


def test_the_api_scores_the_mega_game_as_counted_by_hand(client, mega):
    sheet = client.get(f"/api/games/{mega}/score").get_json()
    assert sheet["variant"] == "usa-mega" and sheet["winners"] == ["Ann"]
    assert sheet["tiebreak"] == mega_game.TIEBREAK
    assert {p["name"]: (p["globetrotter_bonus"], p["total"]) for p in sheet["players"]} == {
        name: (figures[6], figures[7]) for name, figures in mega_game.EXPECTED.items()}


def test_export_and_import_keep_the_set_and_its_deck_values(client, mega):
    exported = client.get(f"/games/{mega}/export.json").get_json()
    assert exported["variant"] == "usa-mega"
    assert {(t["from"], t["to"]): t["points"] for t in exported["tickets"]}[
        ("Seattle", "New York")] == 20
    answer = client.post("/games/import", {"file": (io.BytesIO(json.dumps(exported).encode()),
                                                    "mega.json")},
                         content_type="multipart/form-data")
    assert answer.status_code == 303
    again = answer.headers["Location"].rsplit("/", 1)[1]
    assert (client.get(f"/api/games/{again}/score").get_json()
            == client.get(f"/api/games/{mega}/score").get_json())


def test_the_photo_of_a_1910_game_is_read_on_the_usa_board(client):
    data, truth = sample("usa-01")
    names = ["Ann", "Bob", "Cleo", "Dan", "Eve"]
    game_id = client.api_game({"variant": "usa-1910", "players": players(
        *(f"{n}:{c}" for n, c in zip(names, truth["players"], strict=False)))})
    assert client.get(f"/games/{game_id}/scan").status_code == 200
    review = client.get(scan_url(upload(client, game_id, data)))
    assert review.status_code == 200
    shown = dict(re.findall(r'data-route-id="([^"]+)" data-owner="([^"]*)"', review.text))
    claimed = {rid for rid, color in truth["routes"].items() if color}
    assert len({rid for rid, owner in shown.items() if owner} & claimed) >= 0.75 * len(claimed)


def test_the_unknown_variant_message_lists_every_set_in_french(app):
    with pytest.raises(ScorerError) as refused:
        find_variant("usa-1911")
    *first, last = VARIANTS
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert i18n.translate(refused.value.message) == (
            f"Variante inconnue « usa-1911 » (choisissez {', '.join(first)} ou {last}).")
    assert {"usa-1910", "usa-mega", "usa-big-cities"} <= set(first)
