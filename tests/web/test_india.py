"""India on the web: the new-game form (2 to 4 players), taps on its portrait map (doubles
open with 4 players only), its deck under today's names, the Indian Express and the Grand Tour
on the results (English and French) and in the chat summary, the tie-break, BG Stats, the API,
import and export, records, and the photo button that says the photo does not read this
board."""

from __future__ import annotations

import html
import re

from tests.core.test_india import HAND_COUNT, WORKED
from tests.web.conftest import players, reimported
from tests.web.test_games import new_game_form
from tests.web.test_usa_1910 import card, search


def india(client, *names_colors: str) -> str:
    return client.api_game({"variant": "india", "players": players(*names_colors)})


def test_a_new_game_from_the_form_opens_the_portrait_board(client):
    form = client.get("/games/new").text
    assert 'name="variant" value="india"' in form and "<b>India</b>" in form
    assert 'value="india" data-variant="india" data-max-players="4"' in form
    answer = client.post("/games", new_game_form(variant="india", name_2="Cat",
                                                 color_2="green", name_3="Dan",
                                                 color_3="yellow"))
    assert answer.status_code == 303
    page = client.get(answer.headers["Location"]).text
    assert page.count("data-route-id=") == 108 and 'data-city="Waltain"' in page
    width, height = map(float, re.search(r'class="map-svg map-india" viewBox="[-\d.]+ [-\d.]+ '
                                         r'([\d.]+) ([\d.]+)"', page).groups())
    assert height > width  # portrait


def test_five_players_are_refused_naming_the_limit(client):
    answer = client.post("/games", new_game_form(variant="india", name_2="Cat",
                                                 color_2="green", name_3="Dan",
                                                 color_3="yellow", name_4="Eve",
                                                 color_4="black"))
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/games/new")
    again = client.get("/games/new")
    assert "India is played by 2 to 4 players, not 5." in html.unescape(again.text)


def test_the_second_lane_of_a_double_opens_with_four_players_only(client):
    three = india(client, "Ann:red", "Bob:blue", "Cat:green")
    client.hx(f"/games/{three}/routes/agra--jaipur", {"player": "Ann"})
    refused = client.hx(f"/games/{three}/routes/agra--jaipur--2", {"player": "Bob"})
    assert refused.status_code == 422 and "3 players" in html.unescape(refused.text)
    four = india(client, "Ann:red", "Bob:blue", "Cat:green", "Dan:yellow")
    client.hx(f"/games/{four}/routes/agra--jaipur", {"player": "Ann"})
    assert client.hx(f"/games/{four}/routes/agra--jaipur--2",
                     {"player": "Bob"}).status_code == 200
    assert client.hx(f"/games/{four}/routes/calcutta--madras",
                     {"player": "Cat"}).status_code == 200
    sheet = client.get(f"/api/games/{four}/score").get_json()
    assert [(p["route_points"], p["trains_left"]) for p in sheet["players"]] == [
        (1, 44), (1, 44), (21, 37), (0, 45)]


def test_the_ticket_search_finds_the_deck_under_printed_and_todays_names(client):
    game_id = india(client, "Ann:red", "Bob:blue")
    for query in ("waltain", "Visakhapatnam", "waltair"):
        found = search(client, game_id, query)
        assert any('data-deck-ticket="Ambala–Waltain"' in item for item in found), query
    found = search(client, game_id, "mumbai")
    assert any('data-deck-ticket="Jarhat–Bombay"' in item for item in found)


def test_the_worked_example_through_the_api_scores_as_counted_by_hand(client):
    game_id = client.api_game(WORKED)
    sheet = client.get(f"/api/games/{game_id}/score").get_json()
    assert sheet["variant"] == "india" and sheet["winners"] == ["Bob"]
    assert {p["name"]: (p["route_points"], p["trains_left"], p["ticket_points"],
                        p["tickets_completed"], sum(t.get("twice", False) for t in p["tickets"]),
                        p["longest_path"]["length"], p["longest_bonus"], p["grand_tour_bonus"],
                        p["total"]) for p in sheet["players"]} == HAND_COUNT


def test_the_results_show_the_indian_express_and_the_grand_tour(client):
    game_id = client.api_game(WORKED)
    page = html.unescape(client.get(f"/games/{game_id}/results").text)
    for name, (*_, longest, grand_tour, total) in HAND_COUNT.items():
        block = card(page, name)
        assert f'data-total="{total}"' in block
        assert f"data-longest-bonus>{longest}<" in block
        assert f"data-grand-tour-bonus>{grand_tour}<" in block
    cat = card(page, "Cat")
    assert "Grand Tour bonus (2 tickets joined twice)" in cat
    assert "✓ Madras – Quilon <span class=\"muted\" data-twice>(joined twice)</span>" in cat
    assert "Indian Express bonus (path of 17 trains)" in card(page, "Ann")
    summary = re.search(r"<textarea[^>]*data-summary[^>]*>(.*?)</textarea>", page, re.S).group(1)
    assert "Grand Tour +10" in summary and "Indian Express +10" in summary


def test_in_french_the_set_is_inde_with_its_bonuses(client):
    game_id = client.api_game(WORKED)
    fr = {"Accept-Language": "fr"}
    results = html.unescape(client.get(f"/games/{game_id}/results", headers=fr).text)
    assert "Inde" in results and "Express des Indes" in results
    assert "Grand Tour de l'Inde" in results and "2 billets reliés deux fois" in results
    board = html.unescape(client.get(f"/games/{game_id}", headers=fr).text)
    assert 'data-city="Waltain"' in board and 'data-city="Bombay"' in board
    form = html.unescape(client.get("/games/new", headers=fr).text)
    assert "<b>Inde</b>" in form and "45 wagons · 2 à 4 joueurs" in form


def test_a_tie_on_points_is_broken_by_the_tickets_completed(client):
    game_id = client.api_game({
        "variant": "india", "players": players("Ann:red", "Bob:blue"),
        "claims": [{"player": "Ann", "route": "bombay--calicut"},  # 6: 15, path 6: +10
                   {"player": "Bob", "route": "khandwa--raipur"},  # 4: 7
                   {"player": "Bob", "route": "bilaspur--raipur"},  # 1: 1
                   {"player": "Bob", "route": "bilaspur--katni"}],  # 1: 1, path 6: +10
        "tickets": [{"player": "Ann", "from": "Bombay", "to": "Calicut", "points": 3},
                    {"player": "Bob", "from": "Katni", "to": "Khandwa"},  # 5
                    {"player": "Bob", "from": "Katni", "to": "Raipur", "points": 4}]})
    sheet = client.get(f"/api/games/{game_id}/score").get_json()
    # Ann 15 + 3 + 10; Bob 9 + 5 + 4 + 10, no Grand Tour for either (no ticket on a cycle)
    assert [(p["total"], p["longest_bonus"], p["grand_tour_bonus"])
            for p in sheet["players"]] == [(28, 10, 0), (28, 10, 0)]
    assert sheet["winners"] == ["Bob"]
    assert sheet["tiebreak"] == ("Bob and Ann tie on 28 points; Bob completed the most tickets "
                                 "(Bob 2, Ann 1): Bob wins.")


def finished(client) -> str:
    """Ann ends with 2 trains: the final round is on, so the results offer BG Stats."""
    routes = ["calcutta--madras", "bombay--calicut", "bombay--karachi", "ambala--lahore",
              "bilaspur--calcutta", "calcutta--raipur", "bareilly--patna", "erode--quilon",
              "ahmadabad--bombay", "agra--jaipur"]  # 8+6+6+4+4+4+4+4+3+1 = 44 trains
    return client.api_game({"variant": "india", "players": players("Ann:red", "Bob:blue"),
                            "claims": [{"player": "Ann", "route": r} for r in routes]})


def test_a_finished_game_goes_to_bg_stats_as_ticket_to_ride_on_the_india_board(client):
    from tests.web.test_bgstats import play_of

    game_id = finished(client)
    assert client.get(f"/api/games/{game_id}/score").get_json()["players"][0][
        "trains_left"] == 1
    page = client.get(f"/games/{game_id}/results")
    assert page.status_code == 200
    data = play_of(page.text)
    assert (data["game"]["bggId"], data["game"]["name"]) == (9209, "Ticket to Ride")
    assert data["board"] == "India"


def test_export_import_and_records_keep_the_set(client):
    game_id = finished(client)
    assert client.get(f"/api/games/{reimported(client, game_id)}/score").get_json()[
        "variant"] == "india"
    assert "India" in html.unescape(client.get("/records").text)


def test_the_photo_button_says_the_photo_does_not_read_this_board(client):
    game_id = india(client, "Ann:red", "Bob:blue")
    reason = ("The photo reads the USA and Europe boards only: on India, tap the claimed "
              "lanes on the map.")
    page = html.unescape(client.get(f"/games/{game_id}").text)
    button = re.search(r"<a [^>]*data-scan-link[^>]*>", page).group(0)
    assert "data-no-photo" in button and f'title="{reason}"' in button
