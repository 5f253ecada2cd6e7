"""The Europe 1912 rule sets on the web: the new-game form (and its "no longest-path bonus"
choice), the set's deck in the ticket search, a whole Mega game played by taps and its results
(English and French), the API, import and export, records and BG Stats."""

from __future__ import annotations

import html
import io
import json
import re

import pytest

from scorer.rules import VARIANTS
from tests.core import europe_1912_game as mega_game
from tests.web.conftest import message, players
from tests.web.test_bgstats import play_of
from tests.web.test_games import new_game_form
from tests.web.test_usa_1910 import card, search

SETS = ["europe-1912-extended", "europe-1912-mega", "europe-1912-big-cities"]
TITLES = {"europe-1912-extended": ("Europe 1912 Extended", "Europe 1912 Europe élargie"),
          "europe-1912-mega": ("Europe 1912 Mega", "Europe 1912 Méga Europe"),
          "europe-1912-big-cities": ("Europe 1912 Big Cities", "Europe 1912 Grandes villes")}


def game_id_of(answer) -> str:
    assert answer.status_code == 303, answer.text
    return answer.headers["Location"].rsplit("/", 1)[1]


@pytest.fixture
def mega(client) -> str:
    return client.api_game(mega_game.GAME)


# --- the new-game form -------------------------------------------------------------------------


@pytest.mark.parametrize("variant", SETS)
def test_a_new_game_of_each_set_is_made_from_the_form_on_the_europe_board(client, variant):
    answer = client.post("/games", new_game_form(variant=variant))
    game_id = game_id_of(answer)
    page = client.get(answer.headers["Location"]).text
    assert page.count("data-route-id=") == 101 and 'data-city="Zürich"' in page
    assert 'name="mode" value="stations"' in page  # the sets keep Europe's stations
    assert re.search(r'id="game-facts"[^>]*>' + TITLES[variant][0] + " · 2 players", page)
    assert client.get(f"/games/{game_id}/export.json").get_json()["variant"] == variant


def test_the_form_offers_no_longest_path_bonus_with_every_set_that_has_the_card(client):
    page = client.get("/games/new").text
    for key in SETS:
        label = re.search(rf'value="{key}"[^>]*>\s*<span><b>([^<]+)</b> <small>([^<]+)</small>',
                          page)
        assert label and label.group(1) == TITLES[key][0]
        assert "3 stations" in label.group(2) and "2–5 players" in label.group(2)
    with_card = re.findall(r'name="variant" value="([^"]+)"[^>]*data-longest-bonus', page)
    assert with_card == [name for name, v in VARIANTS.items() if v.longest_bonus]
    assert set(SETS) <= set(with_card) and "usa-1910" not in with_card
    assert re.search(r'<input type="checkbox" name="no_longest_bonus" value="1"(?! checked)',
                     page)
    french = client.get("/games/new", headers={"Accept-Language": "fr"}).text
    assert "Sans bonus du plus long chemin" in french
    for key in SETS:
        assert f"<b>{TITLES[key][1]}</b>" in french
    # The box, hidden for a set without the card, may still be ticked: it changes nothing there.
    game_id = game_id_of(client.post("/games", new_game_form(variant="usa-1910",
                                                             no_longest_bonus="1")))
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["variant"] == "usa-1910" and "longest_path_bonus" not in exported


@pytest.mark.parametrize("variant", ["europe-1912-big-cities", "europe", "usa", "usa-mega"])
def test_a_game_made_without_the_longest_path_bonus_keeps_the_choice(client, variant):
    game_id = game_id_of(client.post("/games", new_game_form(variant=variant,
                                                             no_longest_bonus="1")))
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["variant"] == variant and exported["longest_path_bonus"] is False
    route = "denver--santa-fe" if variant.startswith("usa") else "paris--zurich"
    client.hx(f"/games/{game_id}/routes/{route}", {"player": "Ann"})
    sheet = client.get(f"/api/games/{game_id}/score").get_json()
    assert sheet["longest_path_bonus"] is False
    assert [p["longest_bonus"] for p in sheet["players"]] == [0, 0]
    assert sheet["players"][0]["longest_path"]["length"] > 0
    bonus = VARIANTS[variant].bonus_name
    page = client.get(f"/games/{game_id}").text
    assert f"{VARIANTS[variant].title}, no {bonus} bonus · 2 players" in page
    results = client.get(f"/games/{game_id}/results").text
    assert "data-longest-bonus" not in results
    assert re.search(r"Longest path: [23] trains", results)


def test_a_refused_form_keeps_the_box_ticked(client):
    answer = client.post("/games", new_game_form(variant="europe-1912-mega", name_1="",
                                                 no_longest_bonus="1"), follow_redirects=True)
    assert answer.status_code == 422
    assert re.search(r'name="no_longest_bonus" value="1" checked', answer.text)
    assert re.search(r'value="europe-1912-mega" checked', answer.text)


# --- the deck ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "offered", "not_offered"),
    [
        ("europe-1912-extended", [("Pamplona–Palermo", "12")], ["Pamplona–Kyiv"]),
        ("europe-1912-mega", [("Pamplona–Kyiv", "18"), ("Pamplona–Palermo", "12")], []),
        ("europe-1912-big-cities", [("Paris–Madrid", "7")], ["Pamplona–Palermo",
                                                             "Pamplona–Kyiv"]),
    ],
)
def test_the_ticket_search_offers_the_set_deck_with_its_values(
    client, variant, offered, not_offered
):
    game_id = client.api_game({"variant": variant, "players": players("Ann:red", "Bob:blue")})
    found = search(client, game_id, "pa")
    for ticket, points in offered:
        pair = set(ticket.split("–"))
        item = next((i for i in found if set(re.search(r'data-deck-ticket="([^"]+)"', i)
                                             .group(1).split("–")) == pair), None)
        assert item is not None, (ticket, found)
        assert re.search(rf"\b{points}\b", re.sub(r"<[^>]+>", " ", item)), item
    for ticket in not_offered:
        pair = set(ticket.split("–"))
        assert not any(set(re.search(r'data-deck-ticket="([^"]+)"', i).group(1).split("–"))
                       == pair for i in found)


def test_a_ticket_of_another_deck_tapped_in_big_cities_is_refused(client):
    game_id = client.api_game({"variant": "europe-1912-big-cities",
                               "players": players("Ann:red", "Bob:blue")})
    answer = client.hx(f"/games/{game_id}/tickets", {"player": "Ann", "a": "Brest",
                                                      "b": "Petrograd"})
    assert answer.status_code == 422
    assert "not a ticket of the Europe 1912 Big Cities deck" in message(answer.text)
    taken = client.hx(f"/games/{game_id}/tickets", {"player": "Ann", "a": "Madrid",
                                                     "b": "Moskva"})
    assert taken.status_code == 200
    assert client.get(f"/games/{game_id}/export.json").get_json()["tickets"] == [
        {"player": "Ann", "from": "Madrid", "to": "Moskva", "points": 25}]


# --- the whole Mega game, tap by tap ------------------------------------------------------------


def play_by_taps(client) -> str:
    """The Mega game of tests/core/europe_1912_game as a table enters it: the form, then a tap
    per lane in turn order, a tap per station, and each ticket picked by its two cities (no
    points typed: the deck gives them)."""
    form = new_game_form(variant="europe-1912-mega", game_name="Mega Europe night")
    for index, (name, color) in enumerate(mega_game.COLORS.items()):
        form |= {f"name_{index}": name, f"color_{index}": color}
    game_id = game_id_of(client.post("/games", form))
    for player, route in mega_game.CLAIMS:
        answer = client.hx(f"/games/{game_id}/routes/{route}", {"player": player})
        assert answer.status_code == 200, message(answer.text)
        assert message(answer.text).startswith(f"{player} claims"), message(answer.text)
    for player, city in mega_game.STATIONS:
        answer = client.hx(f"/games/{game_id}/cities/{city}", {"player": player,
                                                                "mode": "stations"})
        assert message(answer.text) == f"{player} places a station in {city}."
    for player, a, b, _points, _done in mega_game.TICKETS:
        answer = client.hx(f"/games/{game_id}/tickets", {"player": player, "a": a, "b": b})
        assert answer.status_code == 200, message(answer.text)
    return game_id


def test_a_whole_mega_game_played_by_taps_scores_as_counted_by_hand(client):
    game_id = play_by_taps(client)
    page = client.get(f"/games/{game_id}/results").text
    assert [m for m in re.findall(r'data-player="([^"]+)"', page.split('id="scores"')[1])
            ][:4] == mega_game.RANKING
    for name, figures in mega_game.EXPECTED.items():
        route_points, trains_left, ticket_points, done, placed, stations, length, bonus, total = (
            figures)
        block = card(page, name)
        assert f'data-total="{total}"' in block
        assert f"data-route-points>{route_points}<" in block
        assert f"data-station-points>{stations}<" in block
        assert f"data-longest-bonus>{bonus}<" in block
        assert f"path of {length} trains" in block
        plus = sum(p for n, _a, _b, p, ok in mega_game.TICKETS if n == name and ok)
        minus = sum(p for n, _a, _b, p, ok in mega_game.TICKETS if n == name and not ok)
        assert plus - minus == ticket_points
        assert f"data-tickets-plus>+{plus}<" in block
        assert f"data-tickets-minus>−{minus}<" in block
    assert "Station in Smolensk: borrows Kyiv–Smolensk" in card(page, "Ann")
    assert "Station in Sochi: borrows nothing" in card(page, "Dan")
    assert "Carl wins!" in page and html.escape(mega_game.TIEBREAK, quote=False) in page
    assert "Final round triggered by Ann." in page
    # The same figures through the API, and the same game as the game file would make it.
    sheet = client.get(f"/api/games/{game_id}/score").get_json()
    assert {p["name"]: p["total"] for p in sheet["players"]} == {
        name: figures[-1] for name, figures in mega_game.EXPECTED.items()}
    direct = client.get(f"/api/games/{client.api_game(mega_game.GAME)}/score").get_json()
    assert sheet == direct


def test_the_results_summary_and_french_tie_break_of_the_mega_game(client, mega):
    page = client.get(f"/games/{mega}/results").text
    summary = html.unescape(re.search(r"<textarea[^>]*data-summary[^>]*>(.*?)</textarea>", page,
                                      re.S).group(1))
    assert "· Europe 1912 Mega\nCarl wins!" in summary
    assert "European Express +10" in summary and "Smolensk → Kyiv–Smolensk" in summary
    french = html.unescape(client.get(f"/games/{mega}/results",
                                      headers={"Accept-Language": "fr"}).text)
    assert ("Carl et Ann sont à égalité avec 126 points ; tous les deux ont réalisé 5 billets ; "
            "Carl a posé le moins de gares (Carl 0, Ann 1) : Carl gagne.") in french
    assert "Europe 1912 Méga Europe" in french


def test_the_api_scores_the_mega_game_as_counted_by_hand(client, mega):
    sheet = client.get(f"/api/games/{mega}/score").get_json()
    assert sheet["variant"] == "europe-1912-mega" and sheet["winners"] == ["Carl"]
    assert sheet["tiebreak"] == mega_game.TIEBREAK
    assert "longest_path_bonus" not in sheet
    assert {p["name"]: (p["stations_placed"], p["longest_bonus"], p["total"])
            for p in sheet["players"]} == {
        name: (f[4], f[7], f[8]) for name, f in mega_game.EXPECTED.items()}


def test_the_api_plays_the_mega_game_without_the_longest_path_bonus(client):
    game_id = client.api_game({**mega_game.GAME, "longest_path_bonus": False})
    sheet = client.get(f"/api/games/{game_id}/score").get_json()
    assert sheet["longest_path_bonus"] is False
    assert {p["name"]: p["total"] for p in sheet["players"]} == mega_game.TOTALS_WITHOUT_BONUS
    assert sheet["winners"] == ["Carl"] and sheet["tiebreak"] is None
    page = html.unescape(client.get(f"/games/{game_id}/results",
                                    headers={"Accept-Language": "fr"}).text)
    assert "Europe 1912 Méga Europe, sans le bonus European Express" in page
    refused = client.raw.post("/api/games", json={**mega_game.GAME, "variant": "usa-1910",
                                                  "longest_path_bonus": True})
    assert refused.status_code in (400, 422)
    assert "without a longest-path bonus" in refused.get_json()["error"]


def test_export_and_import_keep_the_set_its_deck_values_and_the_choice(client):
    game_id = client.api_game({**mega_game.GAME, "longest_path_bonus": False})
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["variant"] == "europe-1912-mega"
    assert exported["longest_path_bonus"] is False
    assert {(t["from"], t["to"]): t["points"] for t in exported["tickets"]}[
        ("Paris", "Angora")] == 17
    answer = client.post("/games/import", {"file": (io.BytesIO(json.dumps(exported).encode()),
                                                    "mega.json")},
                         content_type="multipart/form-data")
    again = game_id_of(answer)
    assert (client.get(f"/api/games/{again}/score").get_json()
            == client.get(f"/api/games/{game_id}/score").get_json())
    # Undo and redo replay the stored setup: the choice survives them.
    client.hx(f"/games/{again}/undo")
    client.hx(f"/games/{again}/redo")
    assert client.get(f"/api/games/{again}/score").get_json()["longest_path_bonus"] is False


def test_a_finished_1912_game_counts_in_the_records_and_goes_to_bg_stats(client, mega):
    page = client.get(f"/games/{mega}/results").text
    play = play_of(page)
    assert (play["game"]["bggId"], play["game"]["name"]) == (14996, "Ticket to Ride: Europe")
    assert play["board"] == "Europe 1912 Mega"
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in play["players"]] == [
        ("Carl", 126, 1, True), ("Ann", 126, 2, False), ("Dan", 69, 3, False),
        ("Bob", 64, 4, False)]
    records = client.get("/records").text
    assert re.search(r'data-high-score="europe-1912-mega" data-score="126" '
                     r'data-names="Ann,Carl"', records)
    assert '<th scope="row">Europe 1912 Mega</th>' in records
