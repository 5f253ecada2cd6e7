"""Results: every figure per player, ranking, winners, tie-break, longest paths on the map."""

from __future__ import annotations

import html
import re

from scorer.game import Game
from scorer.scoring import score
from tests.web.conftest import players

FIGURE_EIGHT = [{"player": "Ann", "route": r} for r in (
    "helena--seattle", "portland--seattle", "portland--salt-lake-city",
    "helena--salt-lake-city", "denver--helena", "denver--salt-lake-city")]


def cards(html: str) -> dict[str, int]:
    return {name: int(total) for name, total in re.findall(
        r'<article class="score-card[^"]*" data-player="([^"]+)">.*?data-total="(-?\d+)"',
        html, re.S)}


def test_results_list_every_player_with_the_total_of_the_core(client):
    game_file = {"variant": "europe", "players": players("Ann:red", "Bob:blue"),
                 "claims": [{"player": "Ann", "route": "paris--zurich"},
                            {"player": "Bob", "route": "munchen--zurich"},
                            {"player": "Ann", "route": "munchen--wien"}],
                 "stations": [{"player": "Ann", "city": "Zürich"}],
                 "tickets": [{"player": "Ann", "from": "Paris", "to": "Wien"},
                             {"player": "Bob", "from": "Berlin", "to": "Roma"}]}
    game = client.api_game(game_file)
    page = client.get(f"/games/{game}/results")
    assert page.status_code == 200
    sheet = score(Game.from_json(game_file))
    assert cards(page.text) == {p.name: p.total for p in sheet.players}
    ann = re.search(r'data-player="Ann">(.*?)</article>', page.text, re.S).group(1)
    for hook, value in (("data-route-points", "8"), ("data-tickets-plus", "+8"),
                        ("data-tickets-minus", "0"), ("data-station-points", "8"),
                        ("data-longest-bonus", "10")):
        assert f"{hook}>{value}<" in ann, hook
    assert "Station in Zürich: borrows München–Zürich" in ann
    assert "Ann wins!" in page.text


def test_the_ranking_puts_the_winner_first(client):
    game = client.api_game({"variant": "usa", "players": players("Ann:red", "Bob:blue"),
                            "claims": [{"player": "Bob", "route": "helena--seattle"}]})
    page = client.get(f"/games/{game}/results").text
    assert list(cards(page)) == ["Bob", "Ann"]
    assert 'data-winners="Bob"' in page


def test_a_tie_shows_the_tiebreak_sentence(client):
    game = client.api_game({"variant": "usa", "players": players("Ann:red", "Bob:blue"),
                            "claims": [{"player": "Ann", "route": "portland--seattle"},
                                       {"player": "Bob", "route": "seattle--vancouver"}]})
    page = client.get(f"/games/{game}/results").text
    sheet = client.get(f"/api/games/{game}/score").get_json()
    assert sheet["tiebreak"] and sheet["winners"] == ["Ann", "Bob"]
    assert "Shared win: Ann, Bob." in page
    assert "they share the win" in page
    french = client.get(f"/games/{game}/results", headers={"Accept-Language": "fr"}).text
    assert "Victoire partagée" in french and "ils se partagent la victoire" in french


def test_a_players_longest_path_is_drawn_and_listed(client):
    game = client.api_game({"variant": "usa", "players": players("Ann:red", "Bob:blue"),
                            "claims": FIGURE_EIGHT})
    page = client.get(f"/games/{game}/results?player=Ann").text
    path = re.search(r'data-path-player="Ann" data-length="(\d+)">(.*?)</div>', page, re.S)
    assert path and path.group(1) == "23"
    cities = re.findall(r"<li>([^<]+)</li>", path.group(2))
    assert len(cities) == 7 and {cities[0], cities[-1]} == {"Helena", "Salt Lake City"}
    on_path = re.findall(r'class="[^"]*on-path[^"]*" data-route-id="([^"]+)"', page)
    assert sorted(on_path) == sorted(c["route"] for c in FIGURE_EIGHT)
    assert 'class="map paths"' in page


def test_tied_longest_paths_are_all_shown(client):
    game = client.api_game({"variant": "usa", "players": players("Ann:red", "Bob:blue"),
                            "claims": [{"player": "Ann", "route": "portland--seattle"},
                                       {"player": "Bob", "route": "seattle--vancouver"}]})
    for query in ("", "?player=Bob"):
        page = client.get(f"/games/{game}/results{query}").text
        assert re.findall(r'data-path-player="(\w+)"', page) == (
            ["Ann", "Bob"] if not query else ["Bob", "Ann"])
    assert "tied" in page


def test_a_game_with_no_claims_has_results_too(client, europe):
    page = client.get(f"/games/{europe}/results")
    assert page.status_code == 200
    assert "Nothing claimed yet." in page.text and "No route claimed" in page.text


def test_the_results_are_a_score_sheet_a_table_can_check(client):
    game = client.api_game({
        "variant": "europe", "players": [{"name": "Ann", "color": "red"},
                                         {"name": "Bob", "color": "blue"}],
        "claims": [{"player": "Ann", "route": r} for r in (
            "paris--zurich", "munchen--wien", "kyiv--smolensk", "budapest--kyiv",
            "bucuresti--kyiv", "berlin--danzig", "danzig--riga", "petrograd--riga",
            "petrograd--stockholm")] + [{"player": "Bob", "route": "munchen--zurich"}],
        "stations": [{"player": "Ann", "city": "Zürich"}, {"player": "Ann", "city": "Roma"}],
        "tickets": [{"player": "Ann", "from": "Paris", "to": "Wien"},
                    {"player": "Ann", "from": "Berlin", "to": "Roma"}]})
    page = client.get(f"/games/{game}/results").text
    score = client.get(f"/api/games/{game}/score").get_json()["players"][0]
    ann = page[page.index('data-player="Ann"'):page.index('data-player="Bob"')]
    # Routes by length: count × length, with the points of one route, and their sum.
    groups = re.findall(r'data-route-group="(\d)"><th>(\d+) × (\d) trains', ann)
    assert groups == [("8", "1", "8"), ("6", "1", "6"), ("4", "3", "4"), ("3", "4", "3")]
    # Each length line names its routes, for the table to point at on the board.
    assert ('>1 × 8 trains: <span class="route-names" data-route-names>Petrograd – Stockholm'
            '</span> <span class="muted">(21 points)</span></th><td>21<') in ann
    # Each ticket by name with its sign, and what each station borrowed.
    assert ('✓ Paris – Wien <span class="muted">(with the station in Zürich)</span></th>'
            "<td>+8<") in ann
    assert "✗ Berlin – Roma</th><td>−9<" in ann
    assert "Station in Zürich: borrows München–Zürich" in ann
    assert "Station in Roma: borrows nothing" in ann
    # The score track: the total modulo 100 with the laps.
    total = score["total"]
    assert f'data-track="{total % 100}"' in ann
    summary = re.search(r"<textarea[^>]*data-summary[^>]*>(.*?)</textarea>", page, re.S).group(1)
    summary = html.unescape(summary)
    assert f"1. Ann: {total} (score track {total % 100})" in summary
    assert "Routes 73: 1×8 = 21, 1×6 = 15, 3×4 = 21, 4×3 = 16" in summary
    assert "Tickets −1: Paris–Wien +8, Berlin–Roma −9" in summary
    assert "Stations +4 (Zürich → München–Zürich; Roma → nothing)" in summary


def test_the_score_track_counts_full_laps(client):
    from scorer.web.results import track_text

    with client.raw.application.test_request_context(headers={"Accept-Language": "en"}):
        assert track_text(37) == "37"
        assert track_text(137) == "37, after 1 full lap"
        assert track_text(215) == "15, after 2 full laps"
        assert track_text(-5) == "95, behind the start"
