"""The BG Stats export of a finished game, checked against BG Stats' documented import format,
and the text summary to paste in a chat, reached from the finished game's page."""

from __future__ import annotations

import html
import json
import re
from datetime import datetime
from urllib.parse import unquote, urlsplit

from scorer.rules import VARIANTS
from tests.web.test_records import express_tie, usa_game

# https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/
# The link: https://app.bgstatsapp.com/createPlay.html?data=<URL-encoded JSON>, the JSON's
# fields and their types as the page's example gives them.
PLAY_FIELDS = {"sourceName": str, "sourcePlayId": str, "playDate": str, "durationMin": int,
               "board": str, "comments": str, "location": str, "game": dict, "players": list}
GAME_FIELDS = {"name": str, "bggId": int, "sourceGameId": str, "highestWins": bool,
               "noPoints": bool}
PLAYER_FIELDS = {"name": str, "sourcePlayerId": str, "score": (int, float), "rank": int,
                 "winner": bool, "startPlayer": bool, "role": str}
# Fields this export always sends: a game and its players with their scores, and every flag
# (BG Stats on Android refuses a play missing one, although the page calls them optional).
REQUIRED = {"sourceName", "sourcePlayId", "playDate", "game", "players"}
GAME_REQUIRED = set(GAME_FIELDS)
PLAYER_REQUIRED = set(PLAYER_FIELDS)


def check_fields(data: dict, fields: dict, required: set[str], where: str) -> None:
    assert set(data) <= set(fields), f"{where}: fields the format does not have"
    assert required <= set(data), f"{where}: missing {required - set(data)}"
    for key, value in data.items():
        # bool is an int in Python: a number field must not hold true/false.
        assert isinstance(value, fields[key]) and (
            fields[key] is bool or not isinstance(value, bool)), f"{where}.{key}: {value!r}"


def play_of(page: str) -> dict:
    """The play the results page's BG Stats link carries, checked against the format."""
    link = html.unescape(re.search(r'href="([^"]+)"[^>]*data-bgstats', page).group(1))
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == (
        "https", "app.bgstatsapp.com", "/createPlay.html")
    assert parts.query.startswith("data=")
    data = json.loads(unquote(parts.query[len("data="):]))
    check_fields(data, PLAY_FIELDS, REQUIRED, "play")
    check_fields(data["game"], GAME_FIELDS, GAME_REQUIRED, "game")
    for index, player in enumerate(data["players"]):
        check_fields(player, PLAYER_FIELDS, PLAYER_REQUIRED, f"players[{index}]")
    datetime.strptime(data["playDate"], "%Y-%m-%d %H:%M:%S")  # the format of the page's example
    return data


def test_a_finished_usa_game_goes_to_bg_stats_as_ticket_to_ride_with_every_score(client):
    game = usa_game(client, "Ann", "Bob", 5)  # Ann 131, Bob 19 (counted in test_records)
    data = play_of(client.get(f"/games/{game}/results").text)
    assert data["game"]["bggId"] == 9209 and data["game"]["name"] == "Ticket to Ride"
    assert data["game"]["highestWins"] is True and data["game"]["noPoints"] is False
    assert data["board"] == "USA" and data["sourceName"] == "Terminus"
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in data["players"]] == [
        ("Ann", 131, 1, True), ("Bob", 19, 2, False)]
    # The play's id is stable (BG Stats spots a second import) and does not give away the game's
    # edit link, which this link takes to BG Stats' site.
    assert data["sourcePlayId"] == play_of(client.get(f"/games/{game}/results").text)[
        "sourcePlayId"]
    assert game not in data["sourcePlayId"]


def test_an_express_game_goes_as_the_europe_base_game_with_its_rule_set_as_the_board(client):
    game = express_tie(client, "Ann", "Cleo")  # 64 each, a shared win
    share = re.search(r"/watch/([\w-]+)", client.get(f"/games/{game}/share").text).group(1)
    data = play_of(client.get(f"/watch/{share}/results").text)  # the read-only page too
    assert (data["game"]["bggId"], data["game"]["name"]) == (14996, "Ticket to Ride: Europe")
    assert data["board"] == "Express"
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in data["players"]] == [
        ("Ann", 64, 1, True), ("Cleo", 64, 1, True)]


def test_every_rule_set_is_logged_as_its_boxs_boardgamegeek_game():
    # BoardGameGeek: 9209 Ticket to Ride, 14996 Ticket to Ride: Europe, 31627 Nordic Countries;
    # Switzerland and India, maps played with a base game's pieces, as Ticket to Ride
    by_board = {"usa": 9209, "europe": 14996, "nordic": 31627, "switzerland": 9209,
                "india": 9209}
    assert {v.name: v.bgg_game[0] for v in VARIANTS.values()} == {
        v.name: by_board[v.board_name] for v in VARIANTS.values()}


def test_a_game_not_finished_offers_no_bg_stats_link_and_says_why(client, usa):
    page = client.get(f"/games/{usa}/results").text
    assert "data-bgstats" not in page
    assert "data-not-finished" in page


def test_the_final_round_banner_leads_to_the_text_summary_of_the_results(client):
    game = usa_game(client, "Ann", "Bob", 5)
    link = re.search(r'href="([^"]+)"[^>]*data-summary-link', client.get(f"/games/{game}").text)
    assert link.group(1) == f"/games/{game}/results#summary"
    page = client.get(f"/games/{game}/results").text
    summary = html.unescape(re.search(r"<textarea[^>]*data-summary[^>]*>(.*?)</textarea>",
                                      page, re.S).group(1))
    assert "Ann wins!" in summary
    assert "1. Ann: 131" in summary and "2. Bob: 19" in summary
