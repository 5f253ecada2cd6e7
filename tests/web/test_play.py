"""The game page: taps on lanes and cities, the player bar, undo/redo, and their errors."""

from __future__ import annotations

import re

from scorer.web import create_app
from tests.web.conftest import Client, lane_class, message, players


def game_url(game_id: str) -> str:
    return f"/games/{game_id}"


def test_game_page_draws_every_lane_and_city_with_the_hooks(client, europe):
    page = client.get(game_url(europe))
    assert page.status_code == 200
    assert page.text.count("data-route-id=") == 101
    assert page.text.count("data-city=") == 47
    for name in ("Ann", "Bob", "Cleo"):
        assert f'<button type="submit" name="player" value="{name}"' in page.text
        assert f'data-player="{name}"' in page.text


def test_a_tap_claims_the_lane_for_the_selected_player(client, europe):
    answer = client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Bob", "do": "claim"})
    assert answer.status_code == 200
    assert "own-blue" in lane_class(answer.text, "paris--zurich")
    assert message(answer.text).startswith("Bob claims Paris–Zürich")
    assert 'hx-swap-oob="true"' in answer.text
    score = client.get(f"/api/games/{europe}/score").get_json()
    assert score["players"][1]["routes"] == ["paris--zurich"]


def test_a_tap_without_player_uses_the_one_selected_in_the_session(client, europe):
    client.hx(f"/games/{europe}/player", {"player": "Cleo"})
    answer = client.hx(f"/games/{europe}/routes/paris--zurich")
    assert "own-green" in lane_class(answer.text, "paris--zurich")
    assert 'data-player="Cleo" aria-pressed="true"' in client.get(game_url(europe)).text


def test_tapping_an_owned_lane_again_releases_it_and_undo_brings_it_back(client, europe):
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann"})
    released = client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann"})
    assert "own" not in lane_class(released.text, "paris--zurich")
    assert "released" in message(released.text)
    undone = client.hx(f"/games/{europe}/undo")
    assert "own-red" in lane_class(undone.text, "paris--zurich")
    assert message(undone.text) == "Undone: Paris–Zürich released."
    redone = client.hx(f"/games/{europe}/redo")
    assert "own" not in lane_class(redone.text, "paris--zurich")
    assert message(redone.text) == "Redone: Paris–Zürich released."


def test_a_lane_taken_instead_of_the_one_a_tap_claimed_is_one_step(client, europe):
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann"})
    answer = client.hx(f"/games/{europe}/routes/marseille--zurich",
                       {"player": "Ann", "do": "claim", "instead": "paris--zurich"})
    assert "own" not in lane_class(answer.text, "paris--zurich")
    assert "own-red" in lane_class(answer.text, "marseille--zurich")
    assert message(answer.text) == (
        "Ann claims Marseille–Zürich instead of Paris–Zürich: +2 points, 43 trains left.")
    assert client.get(f"/api/games/{europe}/score").get_json()["players"][0]["routes"] == [
        "marseille--zurich"]
    undone = client.hx(f"/games/{europe}/undo")
    assert "own-red" in lane_class(undone.text, "paris--zurich")
    assert "own" not in lane_class(undone.text, "marseille--zurich")
    assert message(undone.text) == (
        "Undone: Ann claims Marseille–Zürich instead of Paris–Zürich.")


def test_instead_of_a_lane_the_player_does_not_own_is_a_plain_claim(client, europe):
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Bob"})
    answer = client.hx(f"/games/{europe}/routes/marseille--zurich",
                       {"player": "Ann", "do": "claim", "instead": "paris--zurich"})
    assert "own-blue" in lane_class(answer.text, "paris--zurich")
    assert "own-red" in lane_class(answer.text, "marseille--zurich")
    assert message(answer.text).startswith("Ann claims Marseille–Zürich:")


def test_releasing_another_players_lane_is_refused_with_a_message(client, europe):
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann"})
    answer = client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Bob"})
    assert answer.status_code == 422
    assert message(answer.text) == "Paris–Zürich belongs to Ann: select Ann to release it."
    assert answer.headers["HX-Reswap"] == "none"
    owner = client.get(f"/api/games/{europe}/score").get_json()["players"][0]["routes"]
    assert owner == ["paris--zurich"]


def test_a_stale_phone_refused_a_lane_gets_the_current_board_and_counters(app, europe):
    ann_phone, bob_phone = Client(app.test_client()), Client(app.test_client())
    bob_phone.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Bob", "do": "claim"})
    # Ann's phone still shows Paris–Zürich free and taps it.
    answer = ann_phone.hx(f"/games/{europe}/routes/paris--zurich",
                          {"player": "Ann", "do": "claim"})
    assert answer.status_code == 422
    assert "already claimed by Bob" in message(answer.text)
    assert "own-blue" in lane_class(answer.text, "paris--zurich")
    bob = re.search(r'data-player="Bob".*?data-trains-left>(\d+)<', answer.text, re.S)
    assert bob and bob.group(1) == "42"  # Paris–Zürich is 3 long
    assert 'id="players"' in answer.text and 'id="status"' in answer.text


def test_a_double_click_claims_once_and_explains_the_second(client, europe):
    first = client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann", "do": "claim"})
    second = client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann", "do": "claim"})
    assert first.status_code == 200 and second.status_code == 422
    assert "already claimed by Ann" in message(second.text)
    page = client.get(game_url(europe)).text
    assert "1 action" in page and "2 actions" not in page


def test_both_lanes_of_a_double_are_refused_to_one_player(client):
    game = client.api_game({"variant": "europe", "players": [
        {"name": n, "color": c} for n, c in
        (("Ann", "red"), ("Bob", "blue"), ("Cleo", "green"), ("Dan", "black"))]})
    client.hx(f"/games/{game}/routes/bruxelles--paris", {"player": "Ann"})
    answer = client.hx(f"/games/{game}/routes/bruxelles--paris--2", {"player": "Ann"})
    assert answer.status_code == 422
    assert "both lanes" in message(answer.text)


def test_in_a_two_player_game_the_other_lane_closes(client, usa):
    answer = client.hx(f"/games/{usa}/routes/denver--salt-lake-city", {"player": "Ann"})
    assert "closed" in lane_class(answer.text, "denver--salt-lake-city--2")
    refused = client.hx(f"/games/{usa}/routes/denver--salt-lake-city--2", {"player": "Bob"})
    assert refused.status_code == 422
    assert "only one lane" in message(refused.text)


def test_a_lane_longer_than_the_trains_left_is_refused(client):
    claims = [{"player": "Ann", "route": r} for r in (
        "calgary--winnipeg", "duluth--helena", "duluth--toronto", "el-paso--houston",
        "el-paso--los-angeles", "helena--seattle", "miami--new-orleans")]
    game = client.api_game({"variant": "usa", "players": [
        {"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}], "claims": claims})
    left = client.get(f"/api/games/{game}/score").get_json()["players"][0]["trains_left"]
    assert left < 6
    answer = client.hx(f"/games/{game}/routes/atlanta--miami", {"player": "Ann"})
    assert answer.status_code == 422
    assert message(answer.text) == (
        "Ann has 3 trains left and cannot claim Atlanta–Miami (length 5).")


def test_an_unknown_route_or_city_is_refused_with_suggestions(client, europe):
    answer = client.hx(f"/games/{europe}/routes/paris--zurch", {"player": "Ann"})
    assert answer.status_code == 422
    assert "Unknown route" in message(answer.text)
    city = client.hx(f"/games/{europe}/cities/Pariss", {"player": "Ann", "mode": "stations"})
    assert city.status_code == 422
    assert "Did you mean Paris" in message(city.text)


def test_without_javascript_a_claim_redirects_and_the_page_shows_the_message(client, europe):
    answer = client.post(f"/games/{europe}/routes/paris--zurich", {"player": "Ann", "do": "claim"})
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith(game_url(europe))
    page = client.get(game_url(europe)).text
    assert "Ann claims Paris–Zürich" in page
    assert "own-red" in lane_class(page, "paris--zurich")


def test_without_javascript_a_refused_claim_redirects_with_the_error(client, europe):
    client.post(f"/games/{europe}/routes/paris--zurich", {"player": "Ann", "do": "claim"})
    client.post(f"/games/{europe}/routes/paris--zurich", {"player": "Bob", "do": "claim"})
    page = client.get(game_url(europe)).text
    assert "already claimed by Ann" in page and "data-error" in page


def test_every_lane_and_city_links_to_a_page_with_plain_forms(client, europe):
    page = client.get(game_url(europe)).text
    assert f'href="/games/{europe}/routes/paris--zurich"' in page
    route = client.get(f"/games/{europe}/routes/paris--zurich")
    assert route.status_code == 200
    assert 'method="post"' in route.text and "Claim for Ann" in route.text
    city = client.get(f"/games/{europe}/cities/Z%C3%BCrich")
    assert city.status_code == 200
    assert "Station for Bob" in city.text and "Zürich" in city.text
    assert client.get(f"/games/{europe}/routes/nowhere--else").status_code == 404
    assert client.get(f"/games/{europe}/cities/Gotham").status_code == 404


def test_the_route_page_says_why_a_player_cannot_claim(client, usa):
    client.hx(f"/games/{usa}/routes/denver--salt-lake-city", {"player": "Ann"})
    page = client.get(f"/games/{usa}/routes/denver--salt-lake-city--2").text
    assert "only one lane" in page


def test_station_mode_places_and_removes_a_station(client, europe):
    placed = client.hx(f"/games/{europe}/cities/Zurich", {"player": "Ann", "mode": "stations"})
    assert placed.status_code == 200
    assert message(placed.text) == "Ann places a station in Zürich."
    assert re.search(r'class="city has-station[^"]*" data-city="Zürich"', placed.text)
    assert 'class="station pc-red"' in placed.text
    removed = client.hx(f"/games/{europe}/cities/Zürich", {"player": "Ann", "mode": "stations"})
    assert "Station in Zürich removed" in message(removed.text)
    assert 'class="station' not in removed.text


def test_another_players_station_is_not_removed_by_a_tap(client, europe):
    client.hx(f"/games/{europe}/cities/Wien", {"player": "Ann", "mode": "stations"})
    answer = client.hx(f"/games/{europe}/cities/Wien", {"player": "Bob", "mode": "stations"})
    assert answer.status_code == 422
    assert message(answer.text) == "Wien has Ann's station: select Ann to remove it."


def test_a_fourth_station_and_stations_on_usa_are_refused(client, europe, usa):
    for city in ("Wien", "Paris", "Berlin"):
        client.hx(f"/games/{europe}/cities/{city}", {"player": "Ann", "mode": "stations"})
    answer = client.hx(f"/games/{europe}/cities/Roma", {"player": "Ann", "mode": "stations"})
    assert answer.status_code == 422 and "all 3 stations" in message(answer.text)
    usa_answer = client.hx(f"/games/{usa}/cities/Denver", {"player": "Ann", "do": "station"})
    assert usa_answer.status_code == 422
    assert "a rule set without stations" in message(usa_answer.text)


def test_in_routes_mode_two_city_taps_claim_the_route_between_them(client, europe):
    first = client.hx(f"/games/{europe}/cities/Wien", {"player": "Ann", "mode": "routes"})
    assert first.status_code == 200
    assert message(first.text) == "Wien: now tap the route's other city."
    assert 'id="first-city" value="Wien"' in first.text
    claimed = client.hx(f"/games/{europe}/cities/München",
                        {"player": "Ann", "mode": "routes", "first_city": "Wien"})
    assert message(claimed.text).startswith("Ann claims München–Wien")
    assert 'id="first-city" value=""' in claimed.text
    assert "own-red" in lane_class(claimed.text, "munchen--wien")
    # the same two cities again release it, as a second tap on the lane does
    client.hx(f"/games/{europe}/cities/Wien", {"player": "Ann", "mode": "routes"})
    released = client.hx(f"/games/{europe}/cities/Munchen",
                         {"player": "Ann", "mode": "routes", "first_city": "Wien"})
    assert "released" in message(released.text)


def test_a_lane_tapped_after_a_routes_first_city_claims_it_and_drops_the_city(client, europe):
    # The page offers the lanes the finger may have meant beside the city picked: one of
    # them tapped is the route meant, and a tap after it must not name the city's other end.
    answer = client.hx(f"/games/{europe}/routes/wien--zagrab",
                       {"player": "Ann", "mode": "routes", "first_city": "Wien"})
    assert message(answer.text).startswith("Ann claims Wien–Zagrab")
    assert 'id="first-city" value=""' in answer.text
    wien = re.search(r'<a [^>]*data-city="Wien"[^>]*>', answer.text)
    assert wien and "picked" not in wien.group(0)
    # a ticket's first city stays picked (ticket mode)
    ticket = client.hx(f"/games/{europe}/routes/paris--zurich",
                       {"player": "Ann", "mode": "ticket", "first_city": "Wien"})
    assert 'id="first-city" value="Wien"' in ticket.text


def test_two_cities_of_a_double_offer_both_lanes_and_no_route_is_refused(client, europe):
    offer = client.hx(f"/games/{europe}/cities/Frankfurt",
                      {"player": "Ann", "mode": "routes", "first_city": "Paris"})
    assert message(offer.text) == "Frankfurt–Paris has two lanes: which one?"
    assert 'data-offer-routes="frankfurt--paris frankfurt--paris--2"' in offer.text
    assert client.get(f"/api/games/{europe}/score").get_json()["players"][0]["routes"] == []
    # one lane taken: the other is asked for at once (closed with three players: said why)
    client.hx(f"/games/{europe}/routes/frankfurt--paris", {"player": "Bob", "do": "claim"})
    closed = client.hx(f"/games/{europe}/cities/Frankfurt",
                       {"player": "Ann", "mode": "routes", "first_city": "Paris"})
    assert closed.status_code == 422
    assert "Frankfurt–Paris" in message(closed.text)
    none = client.hx(f"/games/{europe}/cities/Wien",
                     {"player": "Ann", "mode": "routes", "first_city": "Paris"})
    assert none.status_code == 422
    assert message(none.text) == "No route joins Paris and Wien: tap two neighbouring cities."
    cancelled = client.hx(f"/games/{europe}/cities/Paris",
                          {"player": "Ann", "mode": "routes", "first_city": "Paris"})
    assert message(cancelled.text) == "Route cancelled."


def test_the_route_finder_names_a_route_by_the_start_of_its_cities(client, europe):
    page = client.get(f"/games/{europe}/routes/find?q=par+fra")
    assert page.status_code == 200
    assert page.text.count("data-found-route=") == 1
    assert 'data-found-route="Frankfurt–Paris"' in page.text
    for lane in ("frankfurt--paris", "frankfurt--paris--2"):
        assert f'action="/games/{europe}/routes/{lane}"' in page.text
    # either order, accents and several words of a name; one word lists its routes
    found = client.get(f"/games/{europe}/routes/find?q=mun zur", headers={"HX-Request": "true"})
    assert re.findall(r'data-found-route="([^"]+)"', found.text) == ["München–Zürich"]
    assert len(re.findall(r"data-found-route=", client.get(
        f"/games/{europe}/routes/find?q=zur").text)) == 4
    assert "No route matches" in client.get(f"/games/{europe}/routes/find?q=xyz abc").text


def test_the_route_finder_lists_the_best_match_first_and_taken_routes_last(
    client, europe, usa
):
    def found(query: str, game: str = europe) -> list[str]:
        page = client.get(f"/games/{game}/routes/find?q={query}")
        return re.findall(r'data-found-route="([^"]+)"', page.text)

    # the more of the names typed first: "pa" is more of Paris than of Pamplona
    assert found("mars pa") == ["Marseille–Paris", "Marseille–Pamplona"]
    # a word that begins a name before one that begins a later word of it ("la": Lake)
    assert found("sa la", usa) == ["Las Vegas–Salt Lake City", "Salt Lake City–San Francisco"]
    client.hx(f"/games/{europe}/routes/marseille--paris", {"player": "Bob"})
    assert found("mars pa") == ["Marseille–Pamplona", "Marseille–Paris"]


def test_without_javascript_two_cities_of_a_double_lead_to_the_route_finder(client, europe):
    answer = client.post(f"/games/{europe}/cities/Paris",
                         data={"player": "Ann", "mode": "routes", "first_city": "Frankfurt"})
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith("/routes/find?q=Frankfurt+Paris")


def test_final_round_banner_appears_at_two_trains_or_fewer(client):
    game = client.api_game({"variant": "express", "players": [
        {"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}]})
    # 25 of Ann's 27 trains: 6 + 8 + 4 + 4 + 3 spaces.
    for route in ("budapest--kyiv", "petrograd--stockholm", "athina--brindisi",
                  "berlin--danzig", "paris--zurich"):
        assert "data-final-round" not in client.get(game_url(game)).text
        client.hx(f"/games/{game}/routes/{route}", {"player": "Ann"})
    left = client.get(f"/api/games/{game}/score").get_json()["players"][0]["trains_left"]
    assert left == 2
    page = client.get(game_url(game)).text
    assert "data-final-round" in page and "Final round! Ann has 2 trains or fewer" in page


def test_undo_and_redo_with_nothing_to_do_say_so(client, europe):
    undo = client.hx(f"/games/{europe}/undo")
    assert undo.status_code == 409 and message(undo.text) == "Nothing to undo."
    redo = client.hx(f"/games/{europe}/redo")
    assert redo.status_code == 409 and message(redo.text) == "Nothing to redo."


def test_a_double_click_on_undo_undoes_only_once(client, europe):
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann"})
    client.hx(f"/games/{europe}/routes/berlin--wien", {"player": "Ann"})
    first = client.hx(f"/games/{europe}/undo", {"cursor": "2"})
    second = client.hx(f"/games/{europe}/undo", {"cursor": "2"})
    assert first.status_code == 200 and second.status_code == 409
    assert "Already done" in message(second.text)
    routes = client.get(f"/api/games/{europe}/score").get_json()["players"][0]["routes"]
    assert routes == ["paris--zurich"]


def test_an_undo_that_loses_the_race_to_another_phone_says_already_done(
        client, europe, monkeypatch):
    """The other phone's undo lands between this request's arrival and its turn at the lock:
    the answer must judge the cursor found under the lock, not the one at arrival."""
    from scorer.web import store
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann"})
    client.hx(f"/games/{europe}/routes/berlin--wien", {"player": "Ann"})
    real = store.move_cursor

    def other_phone_first(db, game_id, step, expect=None):  # type: ignore[no-untyped-def]
        monkeypatch.setattr(store, "move_cursor", real)
        real(db, game_id, step, expect)
        return real(db, game_id, step, expect)

    monkeypatch.setattr(store, "move_cursor", other_phone_first)
    late = client.hx(f"/games/{europe}/undo", {"cursor": "2"})
    assert late.status_code == 409
    assert message(late.text) == "Already done: the game had changed."
    routes = client.get(f"/api/games/{europe}/score").get_json()["players"][0]["routes"]
    assert routes == ["paris--zurich"]


def test_a_claim_that_loses_the_race_shows_the_winner_s_lane(client, europe, monkeypatch):
    """The other phone claims the lane between this tap's arrival and its turn at the lock:
    the refusal must draw the board as it is now, the lane in the winner's colour."""
    from scorer.game import ClaimRoute
    from scorer.web import store
    real = store.record

    def other_phone_first(db, game_id, action):  # type: ignore[no-untyped-def]
        monkeypatch.setattr(store, "record", real)
        real(db, game_id, ClaimRoute("Bob", "paris--zurich"))
        return real(db, game_id, action)

    monkeypatch.setattr(store, "record", other_phone_first)
    late = client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann", "do": "claim"})
    assert late.status_code == 422
    assert "own-blue" in lane_class(late.text, "paris--zurich")


def test_a_new_action_after_undo_drops_the_redo(client, europe):
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann"})
    client.hx(f"/games/{europe}/undo")
    client.hx(f"/games/{europe}/routes/berlin--wien", {"player": "Ann"})
    assert client.hx(f"/games/{europe}/redo").status_code == 409


def test_polling_answers_204_until_the_game_changes(client, europe):
    page = client.get(game_url(europe)).text
    version = re.search(r'/live\?v=(\d+)', page).group(1)
    headers = {"HX-Request": "true"}
    same = client.get(f"/games/{europe}/live?v={version}", headers=headers)
    assert same.status_code == 204
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann"})
    changed = client.get(f"/games/{europe}/live?v={version}", headers=headers)
    assert changed.status_code == 200
    assert "own-red" in lane_class(changed.text, "paris--zurich")
    assert client.get(f"/games/{europe}/live?v={version}").status_code == 303


def test_a_poll_answer_leaves_the_message_of_a_tap_alone(client, europe):
    """A poll sent just before a tap and answered after it must not wipe the tap's message
    ("Ann claims ...") from the bar: the poll carries the board, not the message."""
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann"})
    poll = client.get(f"/games/{europe}/live?v=0", headers={"HX-Request": "true"})
    assert poll.status_code == 200
    assert "own-red" in lane_class(poll.text, "paris--zurich")
    assert 'id="message"' not in poll.text


def test_a_restart_loses_nothing_confirmed(app, client, europe):
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann"})
    client.hx(f"/games/{europe}/cities/Wien", {"player": "Bob", "mode": "stations"})
    client.hx(f"/games/{europe}/undo")
    again = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"],
                        "DATABASE_URL": app.config["DATABASE_URL"], "SECRET_KEY": "other"})
    page = again.test_client().get(game_url(europe)).text
    assert "own-red" in lane_class(page, "paris--zurich")
    assert "has-station" not in page
    assert "Redo" in page and "data-redo disabled" not in page


def test_an_unknown_game_is_a_404_page(client):
    page = client.get("/games/not-a-game")
    assert page.status_code == 404
    assert "Nothing here" in page.text
    assert client.hx("/games/not-a-game/routes/paris--zurich").status_code == 404


def test_the_player_bar_cookie_selects_the_player_before_its_request_arrives(client, europe):
    client.raw.set_cookie(f"player_{europe}", "Cleo")
    page = client.get(game_url(europe)).text
    assert 'data-player="Cleo" aria-pressed="true"' in page
    client.raw.set_cookie(f"player_{europe}", "Nobody")  # not a player: the session's choice
    assert 'data-player="Cleo" aria-pressed="true"' in client.get(game_url(europe)).text


def test_selecting_a_player_without_javascript_redirects_back(client, europe):
    answer = client.post(f"/games/{europe}/player", {"player": "Bob"})
    assert answer.status_code == 303
    assert 'data-player="Bob" aria-pressed="true"' in client.get(game_url(europe)).text


def test_a_wrong_method_gets_a_clear_page(client, europe):
    answer = client.get(f"/games/{europe}/undo")
    assert answer.status_code == 405
    assert "does not take this kind of request" in answer.text


def test_the_hint_says_what_a_tap_does_in_each_mode(client, europe, usa):
    page = client.get(game_url(europe)).text
    hints = dict(re.findall(r'data-hint="(\w+)">(.*?)</span>', page))
    assert set(hints) == {"routes", "stations", "ticket"}
    assert "claim it for <b data-active-name>Ann</b>" in hints["routes"]
    assert "place a station for <b data-active-name>Ann</b>" in hints["stations"]
    assert "two cities of a ticket to give it to <b data-active-name>Ann</b>" in hints["ticket"]
    no_stations = client.get(game_url(usa)).text
    assert 'data-hint="stations"' not in no_stations


ANN_LONDON_ISTANBUL = ("dieppe--london", "dieppe--paris", "marseille--paris", "marseille--roma",
                       "brindisi--roma", "athina--brindisi", "athina--smyrna",
                       "constantinople--smyrna")
BOB_LONDON_ISTANBUL = ("amsterdam--london", "amsterdam--frankfurt", "frankfurt--munchen",
                       "munchen--wien", "budapest--wien", "bucuresti--budapest",
                       "bucuresti--constantinople")


def test_a_lane_released_and_claimed_again_keeps_the_express_order_and_changes_are_said(client):
    game = client.api_game({"variant": "express",
                            "players": players("Ann:red", "Bob:blue", "Cleo:green")})
    for route in ANN_LONDON_ISTANBUL:
        answer = client.hx(f"/games/{game}/routes/{route}", {"player": "Ann", "do": "claim"})
    assert "Europe Express order: Ann (was: nobody)." in message(answer.text)
    for route in BOB_LONDON_ISTANBUL:
        answer = client.hx(f"/games/{game}/routes/{route}", {"player": "Bob", "do": "claim"})
    assert "Europe Express order: Ann, Bob (was: Ann)." in message(answer.text)
    # Ann taps one of her lanes by mistake, then again: a correction.
    released = client.hx(f"/games/{game}/routes/marseille--roma", {"player": "Ann"})
    assert "Europe Express order: Bob (was: Ann, Bob)." in message(released.text)
    claimed = client.hx(f"/games/{game}/routes/marseille--roma", {"player": "Ann"})
    assert "Europe Express order: Ann, Bob (was: Bob)." in message(claimed.text)
    score = client.get(f"/api/games/{game}/score").get_json()
    assert score["express_order"] == ["Ann", "Bob"]
    assert [p["express_bonus"] for p in score["players"]] == [20, 15, 0]
    quiet = client.hx(f"/games/{game}/routes/berlin--essen", {"player": "Cleo"})
    assert "Express" not in message(quiet.text)


def test_the_claim_that_sets_off_the_final_round_says_so_and_a_release_calls_it_off(client):
    game = client.api_game({"variant": "express", "players": players("Ann:red", "Bob:blue")})
    for route in ("budapest--kyiv", "petrograd--stockholm", "athina--brindisi",
                  "berlin--danzig"):
        answer = client.hx(f"/games/{game}/routes/{route}", {"player": "Ann"})
        assert "Final round" not in message(answer.text)
    answer = client.hx(f"/games/{game}/routes/paris--zurich", {"player": "Ann"})
    assert message(answer.text) == (
        "Ann claims Paris–Zürich: +4 points, 2 trains left. Final round! Ann has 2 trains or "
        "fewer: everyone plays one last turn.")
    released = client.hx(f"/games/{game}/routes/paris--zurich", {"player": "Ann"})
    assert message(released.text).endswith(
        "No final round any more: every player has 3 trains or more.")


def test_a_conflict_names_the_lane_as_players_see_it_never_its_id(client):
    game = client.api_game({"variant": "europe", "players": players(
        "Ann:red", "Bob:blue", "Cleo:green", "Dan:black")})
    client.hx(f"/games/{game}/routes/essen--frankfurt", {"player": "Ann", "do": "claim"})
    single = client.hx(f"/games/{game}/routes/essen--frankfurt", {"player": "Bob", "do": "claim"})
    assert message(single.text) == "Essen–Frankfurt is already claimed by Ann."
    client.hx(f"/games/{game}/routes/frankfurt--paris", {"player": "Ann", "do": "claim"})
    double = client.hx(f"/games/{game}/routes/frankfurt--paris", {"player": "Bob", "do": "claim"})
    assert message(double.text) == "Frankfurt–Paris (orange) is already claimed by Ann."


def test_the_game_box_counts_the_actions_after_every_tap(client, europe):
    assert "0 actions" in client.get(game_url(europe)).text
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann"})
    answer = client.hx(f"/games/{europe}/routes/munchen--wien", {"player": "Ann"})
    facts = re.search(r'<p id="game-facts"[^>]*hx-swap-oob="true"[^>]*>([^<]*)</p>', answer.text)
    assert facts and "2 actions" in facts.group(1)


def test_without_javascript_the_zoom_buttons_are_hidden_until_the_script_shows_them(
    client, europe
):
    page = client.get(game_url(europe)).text
    assert '<div class="zoom" hidden role="group"' in page


def test_the_express_panel_names_the_ends_and_the_bonus_of_its_rule_set(client, monkeypatch):
    """The panel says what the set's cards are for, from the set: not London and
    Constantinople typed into the page."""
    from dataclasses import replace

    from scorer import rules

    game = client.api_game({"variant": "express", "players": players("Ann:red", "Bob:blue")})
    page = client.get(f"/games/{game}").text
    assert "Nobody has joined London and Constantinople yet." in page
    assert "Europe Express cards" in page
    other = replace(rules.EXPRESS, express_ends=("Paris", "Wien"))
    monkeypatch.setattr(rules, "VARIANTS", {**rules.VARIANTS, "express": other})
    game = client.api_game({"variant": "express", "players": players("Ann:red", "Bob:blue")})
    page = client.get(f"/games/{game}").text
    assert "Paris – Wien. Card values: 20, 15, 10, 5." in page
    assert "Nobody has joined Paris and Wien yet." in page
    client.hx(f"/games/{game}/routes/paris--zurich", {"player": "Ann"})
    client.hx(f"/games/{game}/routes/munchen--zurich", {"player": "Ann"})
    client.hx(f"/games/{game}/routes/munchen--wien", {"player": "Ann"})
    page = client.get(f"/games/{game}").text
    assert 'data-express="Ann"' in page
