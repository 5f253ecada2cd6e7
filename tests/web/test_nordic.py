"""Nordic Countries on the web: the new-game form, taps on its portrait map (doubles by player
count, lanes of different lengths), its deck in the ticket search, the Globetrotter +10 on the
results (English and French), BG Stats, the API, import and export, the share page, and the
photo button that says the photo does not read this board."""

from __future__ import annotations

import html
import io
import json
import re

from tests.core.test_nordic import HAND_COUNT, WORKED
from tests.web.conftest import players
from tests.web.test_games import new_game_form
from tests.web.test_scan import sample
from tests.web.test_usa_1910 import card, search

THREE = players("Ann:red", "Bob:blue", "Cat:green")


def nordic(client, *names_colors: str) -> str:
    return client.api_game({"variant": "nordic", "players": players(*names_colors)})


def test_a_new_game_from_the_form_opens_the_portrait_board(client):
    form = client.get("/games/new").text
    assert 'name="variant" value="nordic"' in form and "<b>Nordic Countries</b>" in form
    assert 'value="nordic" data-variant="nordic" data-max-players="3"' in form
    answer = client.post("/games", new_game_form(variant="nordic", name_2="Cat",
                                                 color_2="green"))
    assert answer.status_code == 303
    game_id = answer.headers["Location"].rsplit("/", 1)[1]
    page = client.get(answer.headers["Location"]).text
    assert page.count("data-route-id=") == 81 and 'data-city="København"' in page
    width, height = map(float, re.search(r'class="map-svg map-nordic" viewBox="[-\d.]+ [-\d.]+ '
                                         r'([\d.]+) ([\d.]+)"', page).groups())
    assert height > width  # portrait
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["variant"] == "nordic" and len(exported["players"]) == 3


def test_four_players_are_refused_by_the_form_naming_the_limit(client):
    answer = client.post("/games", new_game_form(variant="nordic", name_2="Cat", color_2="green",
                                                 name_3="Dan", color_3="yellow"))
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/games/new")
    again = client.get("/games/new")
    assert again.status_code == 422
    assert "Nordic Countries is played by 2 to 3 players, not 4." in html.unescape(again.text)
    assert len(re.findall(r'<div class="player-row" hidden>', again.text)) == 2  # rows 4 and 5


def test_with_three_players_a_tap_claims_the_other_lane_of_another_length(client):
    game_id = nordic(client, "Ann:red", "Bob:blue", "Cat:green")
    first = client.hx(f"/games/{game_id}/routes/kristiansand--stavanger", {"player": "Ann"})
    second = client.hx(f"/games/{game_id}/routes/kristiansand--stavanger--2", {"player": "Bob"})
    assert first.status_code == second.status_code == 200
    nine = client.hx(f"/games/{game_id}/routes/lieksa--murmansk", {"player": "Cat"})
    assert nine.status_code == 200
    sheet = client.get(f"/api/games/{game_id}/score").get_json()
    assert [(p["route_points"], p["trains_left"]) for p in sheet["players"]] == [
        (2, 38), (4, 37), (27, 31)]


def test_with_two_players_the_other_lane_is_closed(client):
    game_id = nordic(client, "Ann:red", "Bob:blue")
    client.hx(f"/games/{game_id}/routes/kristiansand--stavanger", {"player": "Ann"})
    refused = client.hx(f"/games/{game_id}/routes/kristiansand--stavanger--2", {"player": "Bob"})
    assert refused.status_code == 422
    assert "2 players" in html.unescape(refused.text)


def test_the_ticket_search_offers_the_nordic_deck_under_any_spelling(client):
    game_id = nordic(client, "Ann:red", "Bob:blue")
    found = search(client, game_id, "kobenhavn")
    assert any('data-deck-ticket="København–Murmansk"' in item for item in found), found
    for other_name in ("copenhagen", "Copenhague"):  # English, French
        found = search(client, game_id, other_name)
        assert any('data-deck-ticket="Oslo–København"' in item for item in found), other_name


def test_the_worked_example_through_the_api_scores_as_counted_by_hand(client):
    game_id = client.api_game(WORKED)
    sheet = client.get(f"/api/games/{game_id}/score").get_json()
    assert sheet["variant"] == "nordic" and sheet["winners"] == ["Bob"]
    assert {p["name"]: (p["route_points"], p["trains_left"], p["ticket_points"],
                        p["tickets_completed"], p["globetrotter_bonus"],
                        p["longest_path"]["length"], p["total"])
            for p in sheet["players"]} == HAND_COUNT
    assert all(p["longest_bonus"] == 0 for p in sheet["players"])


def test_the_results_show_the_globetrotter_10_and_no_longest_path_bonus(client):
    game_id = client.api_game(WORKED)
    page = client.get(f"/games/{game_id}/results").text
    for name, (*_, globetrotter, _path, total) in HAND_COUNT.items():
        block = card(page, name)
        assert f'data-total="{total}"' in block
        if globetrotter:
            assert f"data-globetrotter-bonus>{globetrotter}<" in block
    assert "Globetrotter bonus (3 tickets completed; most: 3)" in card(page, "Bob")
    assert "data-longest-bonus>" not in page
    summary = re.search(r"<textarea[^>]*data-summary[^>]*>(.*?)</textarea>", page, re.S).group(1)
    assert "Globetrotter +10" in html.unescape(summary) and "Nordic Countries" in html.unescape(
        summary)


def test_in_french_the_set_is_pays_nordiques_and_the_cities_keep_their_printed_names(client):
    game_id = client.api_game(WORKED)
    fr = {"Accept-Language": "fr"}
    results = html.unescape(client.get(f"/games/{game_id}/results", headers=fr).text)
    assert "Pays Nordiques" in results and "Globe-trotter" in results
    board = html.unescape(client.get(f"/games/{game_id}", headers=fr).text)
    assert "Pays Nordiques" in board
    for city in ("København", "Göteborg", "Tromsø", "Århus", "Mo I Rana"):
        assert f'data-city="{city}"' in board
    assert "Copenhague" not in board and "Copenhague" not in results
    form = html.unescape(client.get("/games/new", headers=fr).text)
    assert "<b>Pays Nordiques</b>" in form and "40 wagons · 2 à 3 joueurs" in form


def finished(client) -> str:
    """Ann ends with 2 trains: the final round is on, so the results offer BG Stats."""
    routes = ["lieksa--murmansk", "kirkenes--rovaniemi", "andalsnes--bergen",
              "mo-i-rana--trondheim--2", "honningsvag--tromso", "bergen--oslo",
              "helsinki--stockholm", "alborg--arhus"]  # 9+5+5+6+4+4+4+1 = 38 trains
    return client.api_game({"variant": "nordic", "players": players("Ann:red", "Bob:blue"),
                            "claims": [{"player": "Ann", "route": r} for r in routes]})


def test_a_finished_game_goes_to_bg_stats_as_nordic_countries(client):
    from tests.web.test_bgstats import play_of

    game_id = finished(client)
    page = client.get(f"/games/{game_id}/results")
    assert page.status_code == 200
    data = play_of(page.text)
    assert (data["game"]["bggId"], data["game"]["name"]) == (
        31627, "Ticket to Ride: Nordic Countries")
    assert data["board"] == "Nordic Countries"
    assert [(p["name"], p["score"], p["winner"]) for p in data["players"]] == [
        ("Ann", 27 + 10 + 10 + 15 + 7 + 7 + 7 + 1, True), ("Bob", 0, False)]


def test_export_and_import_keep_the_set(client):
    game_id = client.api_game(WORKED)
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["variant"] == "nordic"
    answer = client.post("/games/import", {"file": (io.BytesIO(json.dumps(exported).encode()),
                                                    "nordic.json")},
                         content_type="multipart/form-data")
    assert answer.status_code == 303
    again = answer.headers["Location"].rsplit("/", 1)[1]
    assert (client.get(f"/api/games/{again}/score").get_json()
            == client.get(f"/api/games/{game_id}/score").get_json())


def test_the_share_page_draws_the_nordic_board_and_its_results(client):
    game_id = client.api_game(WORKED)
    share = client.get(f"/games/{game_id}/share").text
    watch = re.search(r'(/watch/[^"/]+)', share).group(1)
    page = client.get(watch).text
    assert "map-nordic" in page and page.count("data-route-id=") == 81
    assert 'data-total="79"' in card(client.get(f"{watch}/results").text, "Bob")


def test_the_photo_button_says_the_photo_does_not_read_this_board(client):
    game_id = nordic(client, "Ann:red", "Bob:blue")
    reason = ("The photo reads the USA and Europe boards only: on Nordic Countries, tap the "
              "claimed lanes on the map.")
    page = html.unescape(client.get(f"/games/{game_id}").text)
    button = re.search(r"<a [^>]*data-scan-link[^>]*>", page).group(0)
    assert "data-no-photo" in button and f'title="{reason}"' in button
    scan = client.get(f"/games/{game_id}/scan")
    assert scan.status_code == 200
    assert reason in html.unescape(scan.text) and 'type="file"' not in scan.text
    french = html.unescape(client.get(f"/games/{game_id}/scan",
                                      headers={"Accept-Language": "fr"}).text)
    assert ("La photo ne lit que les plateaux USA et Europe : sur Pays Nordiques, touchez les "
            "routes prises sur la carte.") in french


def test_a_photo_sent_anyway_is_refused_before_anything_is_read(client):
    game_id = nordic(client, "Ann:red", "Bob:blue")
    data, _truth = sample("usa-01")
    answer = client.post(f"/games/{game_id}/scan", {"photo": (io.BytesIO(data), "board.jpg")},
                         content_type="multipart/form-data")
    assert answer.status_code == 400
    assert "reads the USA and Europe boards only" in html.unescape(answer.text)


def test_the_photo_button_of_a_usa_or_europe_game_is_unchanged(client, usa, europe):
    for game_id in (usa, europe):
        page = client.get(f"/games/{game_id}").text
        assert "data-no-photo" not in page
        assert 'type="file"' in client.get(f"/games/{game_id}/scan").text
