"""Switzerland on the web: the new-game form, taps on its map (doubles by player count, routes
into the neighbouring countries), tickets with a value per destination in the search, by two
taps and on the results (English and French), the longest path +10 and its tie-break, BG Stats,
the API, import and export, records, and the photo button that says the photo does not read
this board."""

from __future__ import annotations

import html
import re

from tests.core.test_switzerland import HAND_COUNT, WORKED
from tests.web.conftest import players, reimported
from tests.web.test_games import new_game_form
from tests.web.test_usa_1910 import card, search


def swiss(client, *names_colors: str) -> str:
    return client.api_game({"variant": "switzerland", "players": players(*names_colors)})


def test_a_new_game_from_the_form_opens_the_swiss_board(client):
    form = client.get("/games/new").text
    assert 'name="variant" value="switzerland"' in form and "<b>Switzerland</b>" in form
    assert 'value="switzerland" data-variant="switzerland" data-max-players="3"' in form
    answer = client.post("/games", new_game_form(variant="switzerland"))
    assert answer.status_code == 303
    page = client.get(answer.headers["Location"]).text
    assert page.count("data-route-id=") == 88 and 'data-city="Zürich"' in page
    # a border point is drawn with its country's name
    assert re.search(r'data-city="France 2">.*?<text class="label"[^>]*>France</text>', page)


def test_four_players_are_refused_naming_the_limit(client):
    answer = client.post("/games", new_game_form(variant="switzerland", name_2="Cat",
                                                 color_2="green", name_3="Dan",
                                                 color_3="yellow"))
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/games/new")
    again = client.get("/games/new")
    assert "Switzerland is played by 2 to 3 players, not 4." in html.unescape(again.text)


def test_taps_claim_lanes_and_the_second_lane_follows_the_player_count(client):
    two = swiss(client, "Ann:red", "Bob:blue")
    assert client.hx(f"/games/{two}/routes/zug--zurich", {"player": "Ann"}).status_code == 200
    refused = client.hx(f"/games/{two}/routes/zug--zurich--2", {"player": "Bob"})
    assert refused.status_code == 422 and "2 players" in html.unescape(refused.text)
    three = swiss(client, "Ann:red", "Bob:blue", "Cat:green")
    client.hx(f"/games/{three}/routes/zug--zurich", {"player": "Ann"})
    assert client.hx(f"/games/{three}/routes/zug--zurich--2",
                     {"player": "Bob"}).status_code == 200
    assert client.hx(f"/games/{three}/routes/osterreich-1--st-gallen",
                     {"player": "Cat"}).status_code == 200
    sheet = client.get(f"/api/games/{three}/score").get_json()
    assert [(p["route_points"], p["trains_left"]) for p in sheet["players"]] == [
        (1, 39), (1, 39), (7, 36)]


def test_the_search_shows_a_value_per_destination_and_adds_the_ticket(client):
    game_id = swiss(client, "Ann:red", "Bob:blue")
    found = search(client, game_id, "allemagne")  # French for Deutschland
    assert any('data-deck-ticket="Bern–France / Deutschland / Österreich / Italia"' in item
               and '<span class="tpts">5/6/11/8</span>' in item for item in found), found
    assert any('data-deck-ticket="France–Deutschland / Österreich / Italia"' in item
               for item in found)
    added = client.hx(f"/games/{game_id}/tickets", {
        "player": "Ann", "a": "Lugano", "b": "France / Deutschland / Österreich / Italia"})
    assert added.status_code == 200
    assert client.get(f"/games/{game_id}/export.json").get_json()["tickets"] == [
        {"player": "Ann", "from": "Lugano", "to": "France / Deutschland / Österreich / Italia",
         "points": 14}]


def test_two_taps_on_a_city_and_a_flag_take_its_country_ticket(client):
    game_id = swiss(client, "Ann:red", "Bob:blue")
    first = client.hx(f"/games/{game_id}/cities/Bern", {"player": "Ann", "mode": "ticket"})
    assert first.status_code == 200
    second = client.hx(f"/games/{game_id}/cities/Italia%205",
                       {"player": "Ann", "mode": "ticket", "first_city": "Bern"})
    assert second.status_code == 200
    assert "Ann takes the ticket Bern–France / Deutschland / Österreich / Italia." in (
        html.unescape(second.text))
    flags = client.hx(f"/games/{game_id}/cities/France%201",
                      {"player": "Bob", "mode": "ticket"})
    assert flags.status_code == 200
    again = client.hx(f"/games/{game_id}/cities/Deutschland%203",
                      {"player": "Bob", "mode": "ticket", "first_city": "France 1"})
    assert again.status_code == 200
    tickets = client.get(f"/games/{game_id}/export.json").get_json()["tickets"]
    assert [(t["player"], t["from"], t["to"]) for t in tickets] == [
        ("Ann", "Bern", "France / Deutschland / Österreich / Italia"),
        ("Bob", "France", "Deutschland / Österreich / Italia")]


def test_the_worked_example_through_the_api_scores_as_counted_by_hand(client):
    game_id = client.api_game(WORKED)
    sheet = client.get(f"/api/games/{game_id}/score").get_json()
    assert sheet["variant"] == "switzerland" and sheet["winners"] == ["Ann"]
    assert {p["name"]: (p["route_points"], p["trains_left"], p["ticket_points"],
                        p["tickets_completed"], p["longest_path"]["length"], p["longest_bonus"],
                        p["total"]) for p in sheet["players"]} == HAND_COUNT


def test_the_results_explain_each_ticket_and_the_longest_path(client):
    game_id = client.api_game(WORKED)
    page = html.unescape(client.get(f"/games/{game_id}/results").text)
    for name, (*_, total) in HAND_COUNT.items():
        assert f'data-total="{total}"' in card(page, name)
    ann = card(page, "Ann")
    assert "✓ Bern – France / Deutschland / Österreich / Italia (→ France)" in ann
    assert "✗ France – Deutschland / Österreich / Italia" in ann
    assert "data-longest-bonus>10<" in ann
    summary = re.search(r"<textarea[^>]*data-summary[^>]*>(.*?)</textarea>", page, re.S).group(1)
    assert "Bern–France +5" in summary and "France–Deutschland / Österreich / Italia -5" in (
        summary.replace("−", "-")) and "Switzerland" in summary


def test_a_tie_on_points_is_broken_by_the_tickets_completed(client):
    game_id = client.api_game({
        "variant": "switzerland", "players": players("Ann:red", "Bob:blue"),
        "claims": [{"player": "Ann", "route": "geneve--yverdon"},  # 6: 15, path 6: +10
                   {"player": "Bob", "route": "bern--luzern"},  # 4: 7
                   {"player": "Bob", "route": "luzern--zug"},  # 1: 1
                   {"player": "Bob", "route": "zug--zurich"}],  # 1: 1, path 6: +10
        "tickets": [{"player": "Bob", "from": "Bern", "to": "Zürich"}]})  # 6: +6
    sheet = client.get(f"/api/games/{game_id}/score").get_json()
    assert [(p["total"], p["longest_bonus"]) for p in sheet["players"]] == [(25, 10), (25, 10)]
    assert sheet["winners"] == ["Bob"]
    assert sheet["tiebreak"] == ("Bob and Ann tie on 25 points; Bob completed the most tickets "
                                 "(Bob 1, Ann 0): Bob wins.")
    page = html.unescape(client.get(f"/games/{game_id}/results").text)
    assert "Bob completed the most tickets (Bob 1, Ann 0): Bob wins." in page


def test_in_french_the_set_is_suisse_and_places_keep_their_printed_names(client):
    game_id = client.api_game(WORKED)
    fr = {"Accept-Language": "fr"}
    results = html.unescape(client.get(f"/games/{game_id}/results", headers=fr).text)
    assert "Suisse" in results and "Österreich" in results
    form = html.unescape(client.get("/games/new", headers=fr).text)
    assert "<b>Suisse</b>" in form and "40 wagons · 2 à 3 joueurs" in form
    refused = client.post(f"/games/{game_id}/tickets", {"player": "Bob", "a": "Bern",
                                                       "b": "France", "points": "7"},
                          headers={**fr, "HX-Request": "true"})
    assert refused.status_code == 422
    assert "Bern–France / Deutschland / Österreich / Italia vaut 5/6/11/8 selon la " \
           "destination" in html.unescape(refused.text)


def finished(client) -> str:
    """Ann ends with 2 trains: the final round is on, so the results offer BG Stats."""
    routes = ["brig--locarno", "geneve--yverdon", "brusio--chur", "chur--wassen",
              "bellinzona--wassen", "bern--luzern", "france-1--martigny", "brig--wassen",
              "martigny--sion"]  # 6+6+5+5+4+4+2+4+2 = 38 trains
    return client.api_game({"variant": "switzerland", "players": players("Ann:red", "Bob:blue"),
                            "claims": [{"player": "Ann", "route": r} for r in routes]})


def test_a_finished_game_goes_to_bg_stats_as_ticket_to_ride_on_the_swiss_board(client):
    from tests.web.test_bgstats import play_of

    game_id = finished(client)
    page = client.get(f"/games/{game_id}/results")
    assert page.status_code == 200
    data = play_of(page.text)
    assert (data["game"]["bggId"], data["game"]["name"]) == (9209, "Ticket to Ride")
    assert data["board"] == "Switzerland"
    assert [(p["name"], p["winner"]) for p in data["players"]] == [("Ann", True), ("Bob", False)]


def test_export_import_and_records_keep_the_set(client):
    game_id = finished(client)
    assert client.get(f"/api/games/{reimported(client, game_id)}/score").get_json()[
        "variant"] == "switzerland"
    assert "Switzerland" in html.unescape(client.get("/records").text)


def test_the_photo_button_says_the_photo_does_not_read_this_board(client):
    game_id = swiss(client, "Ann:red", "Bob:blue")
    reason = ("The photo reads the USA and Europe boards only: on Switzerland, tap the "
              "claimed lanes on the map.")
    page = html.unescape(client.get(f"/games/{game_id}").text)
    button = re.search(r"<a [^>]*data-scan-link[^>]*>", page).group(0)
    assert "data-no-photo" in button and f'title="{reason}"' in button
    french = html.unescape(client.get(f"/games/{game_id}/scan",
                                      headers={"Accept-Language": "fr"}).text)
    assert "sur Suisse, touchez les routes prises sur la carte." in french


def test_a_ticket_the_deck_holds_twice_can_be_taken_twice_by_one_player(client):
    game_id = swiss(client, "Ann:red", "Bob:blue")
    france = "France–Deutschland / Österreich / Italia"

    def button(query: str = "France") -> str:
        item = next(i for i in search(client, game_id, query)
                    if f'data-deck-ticket="{france}"' in i)
        return re.search(r"<button[^>]*data-add-ticket[^>]*>", item).group(0)

    assert 'data-copies="2"' in button() and "disabled" not in button()
    for held in (1, 2):
        answer = client.hx(f"/games/{game_id}/tickets", {
            "player": "Ann", "a": "France", "b": "Deutschland / Österreich / Italia"})
        assert answer.status_code == 200
        assert ("disabled" in button()) == (held == 2)  # the second card too, then no third
    ann = client.get(f"/api/games/{game_id}").json
    assert [(t["from"], t["player"]) for t in ann["tickets"]] == [("France", "Ann")] * 2


def test_border_points_side_by_side_print_their_country_once(client):
    """Deutschland 2 and 3 lie 73 px apart on the top edge: two 'Deutschland' labels would
    print over each other on a phone; the second point is drawn without it."""
    page = client.get(f"/games/{swiss(client, 'Ann:red', 'Bob:blue')}").text

    def label(city: str) -> str | None:
        found = re.search(rf'data-city="{city}">(.*?)</(?:a|g)>', page, re.S).group(1)
        text = re.search(r'<text class="label"[^>]*>([^<]*)</text>', found)
        return text and text.group(1)

    assert [label(f"Deutschland {n}") for n in range(1, 6)] == [
        "Deutschland", "Deutschland", None, "Deutschland", "Deutschland"]
    assert label("France 2") == "France" and label("Zürich") == "Zürich"
