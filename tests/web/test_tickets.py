"""Tickets (deck search, two cities on the map, custom, remove, live state) and Express order."""

from __future__ import annotations

import re

from tests.web.conftest import message, players


def ticket_items(html: str, player: str) -> dict[str, str]:
    """Ticket name -> data-completed, for one player's block of the tickets section."""
    block = re.search(rf'data-player="{player}">(.*?)</div>', html, re.S).group(1)
    return dict(re.findall(r'data-ticket="([^"]+)" data-completed="(\w+)"', block))


def test_searching_den_finds_the_denver_tickets(client, usa):
    answer = client.get(f"/games/{usa}/tickets/search?q=den", headers={"HX-Request": "true"})
    assert answer.status_code == 200
    found = re.findall(r'data-add-ticket="([^"]+)"', answer.text)
    assert found and all("Denver" in t for t in found)
    assert "Denver–El Paso" in found
    assert answer.text.lstrip().startswith('<div id="ticket-results"')


def test_search_without_javascript_is_a_page_and_accents_do_not_matter(client, europe):
    page = client.get(f"/games/{europe}/tickets/search?q=zurich")
    assert page.status_code == 200 and "<html" in page.text
    assert "Zürich" in page.text
    none = client.get(f"/games/{europe}/tickets/search?q=gotham", headers={"HX-Request": "true"})
    assert "No deck ticket matches" in none.text


def add_button(html: str, ticket: str) -> str:
    found = re.search(rf'<li class="[^"]*" data-deck-ticket="{ticket}">(.*?)</li>', html, re.S)
    assert found, f"no search result {ticket}"
    return found.group(1)


def test_the_deck_search_marks_held_tickets_and_does_not_offer_them_twice(client, usa):
    added = client.hx(f"/games/{usa}/tickets",
                      {"player": "Ann", "a": "Denver", "b": "El Paso", "q": "den"})
    # Added from the search results: the answer updates them.
    assert 'id="ticket-results" class="ticket-results" hx-swap-oob="true"' in added.text
    assert "held by Ann" in add_button(added.text, "Denver–El Paso")
    for player, offered in (("Ann", False), ("Bob", True)):
        found = client.get(f"/games/{usa}/tickets/search?q=den&player={player}",
                           headers={"HX-Request": "true"}).text
        item = add_button(found, "Denver–El Paso")
        assert "held by Ann" in item
        assert ("disabled" not in item) == offered, player
        assert "held by" not in add_button(found, "Denver–Pittsburgh")
        assert "disabled" not in add_button(found, "Denver–Pittsburgh")


def test_a_deck_ticket_is_added_and_shows_whether_it_is_completed(client, usa):
    for route in ("denver--santa-fe", "el-paso--santa-fe"):
        assert client.hx(f"/games/{usa}/routes/{route}", {"player": "Ann"}).status_code == 200
    answer = client.hx(f"/games/{usa}/tickets", {"player": "Ann", "a": "el paso", "b": "DENVER"})
    assert answer.status_code == 200
    assert ticket_items(answer.text, "Ann") == {"Denver–El Paso": "true"}
    assert "+4" in answer.text
    removed = client.hx(f"/games/{usa}/routes/denver--santa-fe", {"player": "Ann"})
    assert ticket_items(removed.text, "Ann") == {"Denver–El Paso": "false"}


def test_a_station_that_completes_a_ticket_is_named(client):
    game = client.api_game({
        "variant": "europe", "players": players("Ann:red", "Bob:blue"),
        "claims": [{"player": "Ann", "route": "paris--zurich"},
                   {"player": "Bob", "route": "munchen--zurich"},
                   {"player": "Ann", "route": "munchen--wien"}],
        "stations": [{"player": "Ann", "city": "Zürich"}]})
    answer = client.hx(f"/games/{game}/tickets", {"player": "Ann", "a": "Paris", "b": "Wien"})
    assert ticket_items(answer.text, "Ann") == {"Paris–Wien": "true"}
    assert "with the station in Zürich" in answer.text


def test_a_custom_ticket_needs_points_and_accepts_them(client, usa):
    refused = client.hx(f"/games/{usa}/tickets", {"player": "Bob", "a": "Boston", "b": "Seattle"})
    assert refused.status_code == 422
    assert "not a ticket of the USA deck" in message(refused.text)
    added = client.hx(f"/games/{usa}/tickets",
                      {"player": "Bob", "a": "Boston", "b": "Seattle", "points": "13"})
    assert ticket_items(added.text, "Bob") == {"Boston–Seattle": "false"}
    assert "−13" in added.text


def test_bad_ticket_input_is_refused_and_changes_nothing(client, usa):
    cases = [
        ({"a": "Boston", "b": "Seattle", "points": "many"}, "whole number"),
        ({"a": "Boston", "b": "Seattle", "points": "0"}, "at least 1 point"),
        ({"a": "Boston", "b": "", "points": "3"}, "both cities"),
        ({"a": "Boston", "b": "Boston", "points": "3"}, "two different cities"),
        ({"a": "Gotham", "b": "Boston", "points": "3"}, "Unknown city 'Gotham'"),
    ]
    for fields, text in cases:
        answer = client.hx(f"/games/{usa}/tickets", {"player": "Ann", **fields})
        assert answer.status_code == 422, text
        assert text in message(answer.text), (text, message(answer.text))
    client.hx(f"/games/{usa}/tickets", {"player": "Ann", "a": "Denver", "b": "El Paso"})
    again = client.hx(f"/games/{usa}/tickets", {"player": "Ann", "a": "Denver", "b": "El Paso"})
    assert "already holds" in message(again.text)
    assert client.get(f"/api/games/{usa}/score").get_json()["players"][0]["tickets"] == [
        {"from": "Denver", "to": "El Paso", "points": 4, "completed": False}]


def test_a_ticket_is_removed_and_undo_brings_it_back(client, usa):
    client.hx(f"/games/{usa}/tickets", {"player": "Ann", "a": "Denver", "b": "El Paso"})
    removed = client.hx(f"/games/{usa}/tickets/remove",
                        {"player": "Ann", "a": "Denver", "b": "El Paso"})
    assert ticket_items(removed.text, "Ann") == {}
    assert ticket_items(client.hx(f"/games/{usa}/undo").text, "Ann") == {
        "Denver–El Paso": "false"}
    gone = client.hx(f"/games/{usa}/tickets/remove", {"player": "Bob", "a": "Denver",
                                                       "b": "El Paso"})
    assert gone.status_code == 422 and "holds no ticket" in message(gone.text)


def test_two_cities_tapped_in_ticket_mode_add_the_deck_ticket(client, usa):
    first = client.hx(f"/games/{usa}/cities/Denver", {"player": "Bob", "mode": "ticket"})
    assert message(first.text) == "Denver: now tap the ticket's other city."
    assert 'id="first-city" value="Denver"' in first.text
    assert re.search(r'class="city picked" data-city="Denver"', first.text)
    second = client.hx(f"/games/{usa}/cities/El%20Paso",
                       {"player": "Bob", "mode": "ticket", "first_city": "Denver"})
    assert message(second.text) == "Bob takes the ticket Denver–El Paso."
    assert ticket_items(second.text, "Bob") == {"Denver–El Paso": "false"}
    assert 'id="first-city" value=""' in second.text


def test_two_cities_outside_the_deck_prefill_the_custom_ticket(client, usa):
    answer = client.hx(f"/games/{usa}/cities/Boston",
                       {"player": "Bob", "mode": "ticket", "first_city": "Seattle"})
    assert answer.status_code == 422
    assert "not in the deck" in message(answer.text)
    assert 'id="custom-ticket"' in answer.text
    assert 'value="Seattle"' in answer.text and 'value="Boston"' in answer.text
    plain = client.post(f"/games/{usa}/cities/Boston",
                        {"player": "Bob", "mode": "ticket", "first_city": "Seattle"})
    assert plain.status_code == 303 and "a=Seattle" in plain.headers["Location"]
    assert 'value="Seattle"' in client.get(plain.headers["Location"]).text


def test_tapping_the_same_city_twice_cancels_the_ticket(client, usa):
    answer = client.hx(f"/games/{usa}/cities/Denver",
                       {"player": "Bob", "mode": "ticket", "first_city": "Denver"})
    assert message(answer.text) == "Ticket cancelled."


def path_claims(player: str, *cities: str) -> list[dict[str, str]]:
    return [{"player": player, "from": a, "to": b}
            for a, b in zip(cities, cities[1:], strict=False)]


def express_game(client) -> str:
    game_file = {
        "variant": "express", "players": players("Ann:red", "Bob:blue", "Cleo:green"),
        "express_bonus_values": [20, 15, 10, 5],
        "claims": path_claims("Bob", "London", "Amsterdam", "Frankfurt", "München", "Wien",
                              "Budapest", "Bucuresti", "Constantinople")
        + path_claims("Ann", "London", "Dieppe", "Paris", "Zürich", "Venezia", "Zagrab",
                      "Sarajevo", "Sofia", "Constantinople"),
    }
    return client.api_game(game_file)


def test_the_express_order_comes_from_the_claims_and_can_be_reordered(client):
    game = express_game(client)
    score = client.get(f"/api/games/{game}/score").get_json()
    assert score["express_order"] == ["Bob", "Ann"]
    page = client.get(f"/games/{game}").text
    assert re.findall(r'data-express="(\w+)"', page) == ["Bob", "Ann"]
    assert "Order taken from the claims." in page
    moved = client.hx(f"/games/{game}/express", {"move": "Ann", "dir": "up"})
    assert re.findall(r'data-express="(\w+)"', moved.text) == ["Ann", "Bob"]
    assert "Order set by hand." in moved.text
    bonus = {p["name"]: p["express_bonus"]
             for p in client.get(f"/api/games/{game}/score").get_json()["players"]}
    assert bonus == {"Ann": 20, "Bob": 15, "Cleo": 0}
    refused = client.hx(f"/games/{game}/express", {"move": "Ann", "dir": "up"})
    assert refused.status_code == 422
    reset = client.hx(f"/games/{game}/express", {"reset": "1"})
    assert re.findall(r'data-express="(\w+)"', reset.text) == ["Bob", "Ann"]


def test_the_city_page_marks_held_tickets_and_does_not_offer_them_twice(client, usa):
    client.hx(f"/games/{usa}/tickets", {"player": "Ann", "a": "Denver", "b": "El Paso"})
    page = client.get(f"/games/{usa}/cities/Denver").text
    held, free = add_button(page, "Denver–El Paso"), add_button(page, "Denver–Pittsburgh")
    assert "held by Ann" in held and "held by" not in free
    # Only a player without the ticket is offered it: Bob, even on Ann's phone.
    assert ">Ann</option>" not in held and ">Bob</option>" in held
    assert ">Ann</option>" in free and ">Bob</option>" in free
    client.hx(f"/games/{usa}/tickets", {"player": "Bob", "a": "Denver", "b": "El Paso"})
    french = client.get(f"/games/{usa}/cities/Denver", headers={"Accept-Language": "fr"}).text
    held = add_button(french, "Denver–El Paso")
    assert "déjà chez Ann, Bob" in held and "<form" not in held


def test_a_custom_ticket_typed_without_accents_is_said_and_kept_as_the_board_spells_it(client):
    game = client.api_game({"variant": "europe", "players": [
        {"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}]})
    added = client.hx(f"/games/{game}/tickets",
                      {"player": "Ann", "a": "zurich", "b": "munchen", "points": "4"})
    assert message(added.text) == "Ann takes the ticket Zürich–München."
    assert ticket_items(added.text, "Ann") == {"Zürich–München": "false"}
