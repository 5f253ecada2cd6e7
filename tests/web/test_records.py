"""The table's records: figures over the device's finished games, privacy, the CSV, French.

The games are made through the app's own API with routes and custom tickets chosen so that
every total is counted by hand below (route points: 1, 2, 4, 7, 10, 15, 18, 21 for lengths 1-8).
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorer.web import create_app
from tests.hardening.databases import app_config
from tests.web.conftest import Client, players

# Ann's 44 trains on the USA board, in three separate chains:
#   Seattle-Helena-Duluth-Toronto-Chicago-Omaha 6+6+6+4+4 = 26 trains (the longest path),
#   Los Angeles-El Paso-Houston 6+6, New Orleans-Miami 6.
# Six 6s = 6 x 15 = 90 and two 4s = 2 x 7 = 14: 104 route points, 1 train left (final round).
BIG_USA = ("helena--seattle", "duluth--helena", "duluth--toronto", "chicago--toronto",
           "chicago--omaha", "el-paso--los-angeles", "el-paso--houston", "miami--new-orleans")
# Kansas City-Denver-Omaha: 4 + 4 trains, 7 + 7 points, a path of 8.
SMALL_USA = ("denver--kansas-city", "denver--omaha")


def usa_file(big: str, small: str, small_ticket: int) -> dict[str, Any]:
    """``big`` takes BIG_USA and two tickets it completes (Seattle-Omaha 9, Los Angeles-Houston
    8): 104 + 10 (longest path) + 17 = 131, 2 tickets. ``small`` takes SMALL_USA and completes
    Kansas City-Omaha worth ``small_ticket``: 14 + small_ticket, 1 ticket."""
    return {
        "variant": "usa", "players": players(f"{big}:red", f"{small}:blue"),
        "claims": [{"player": big, "route": r} for r in BIG_USA]
        + [{"player": small, "route": r} for r in SMALL_USA],
        "tickets": [{"player": big, "from": "Seattle", "to": "Omaha", "points": 9},
                    {"player": big, "from": "Los Angeles", "to": "Houston", "points": 8},
                    {"player": small, "from": "Kansas City", "to": "Omaha",
                     "points": small_ticket}],
    }


def usa_game(client: Client, big: str, small: str, small_ticket: int) -> str:
    return client.api_game(usa_file(big, small, small_ticket))


def express_file(first: str, second: str) -> dict[str, Any]:
    """An Express game (27 trains) both players win. ``first``: Petrograd-Stockholm 8 (21),
    Budapest-Kyiv 6 (15), Palermo-Smyrna 6 (15), Berlin-Danzig 4 (7), Amsterdam-Bruxelles 1
    (1): 25 trains (final round), 59 points, longest path 8, and a 5-point ticket completed:
    64. ``second``: Kharkov-Moskva 4 (7), Marseille-Paris 4 (7), longest path 4, and a 50-point
    ticket completed: 64. Nobody joins London and Constantinople (no bonus card); one ticket
    each, so the tie-break (most tickets) leaves both winners."""
    return {
        "variant": "express", "players": players(f"{first}:red", f"{second}:blue"),
        "express_bonus_values": [20, 15, 10, 5],
        "claims": [{"player": first, "route": r} for r in (
            "petrograd--stockholm", "budapest--kyiv", "palermo--smyrna", "berlin--danzig",
            "amsterdam--bruxelles")]
        + [{"player": second, "route": r} for r in ("kharkov--moskva", "marseille--paris")],
        "tickets": [{"player": first, "from": "Petrograd", "to": "Stockholm", "points": 5},
                    {"player": second, "from": "Kharkov", "to": "Moskva", "points": 50}],
    }


def express_tie(client: Client, first: str, second: str) -> str:
    return client.api_game(express_file(first, second))


def phone(app: Flask, address: str) -> Client:
    """A device at the table: its own cookies, a Wi-Fi address (not the server's machine)."""
    raw = app.test_client()
    raw.environ_base["REMOTE_ADDR"] = address
    return Client(raw)


@pytest.fixture
def ann_phone(app: Flask) -> Client:
    return phone(app, "192.168.1.20")


@pytest.fixture
def ann_games(ann_phone: Client) -> list[str]:
    """The games made on Ann's phone, oldest first:
    1. USA: Ann 131 (wins), Bob 14 + 5 = 19.
    2. Express: "ann" 64 and Cleo 64 share the win.
    3. USA: Bob 131 (wins), Ann 14 + 6 = 20.
    4. USA, not finished (one route each): left out."""
    return [
        usa_game(ann_phone, "Ann", "Bob", 5),
        express_tie(ann_phone, "ann", "Cleo"),
        usa_game(ann_phone, "Bob", "Ann", 6),
        ann_phone.api_game({"variant": "usa", "players": players("Ann:red", "Bob:blue"),
                            "claims": [{"player": "Ann", "route": "helena--seattle"},
                                       {"player": "Bob", "route": "denver--omaha"}]}),
    ]


def cards(page: str) -> dict[str, dict[str, str]]:
    """Each player's card: its data attributes, and per rule set the row's."""
    found = {}
    for name, body in re.findall(
            r'<article class="record-card" data-record-player="([^"]+)"(.*?)</article>',
            page, re.S):
        figures = dict(re.findall(r'data-(games|wins|most-tickets|longest-path)="([^"]*)"',
                                  body.split("<table", 1)[0]))
        for rule_set, row in re.findall(r'<tr data-rule-set="([^"]+)"([^>]*)>', body):
            figures[rule_set] = dict(re.findall(r'data-([\w-]+)="([^"]*)"', row))
        found[name] = figures
    return found


def high_scores(page: str) -> dict[str, tuple[int, set[str]]]:
    return {rule_set: (int(points), set(names.split(",")))
            for rule_set, points, names in re.findall(
                r'data-high-score="([^"]+)" data-score="(-?\d+)" data-names="([^"]*)"', page)}


def test_records_count_each_players_finished_games_wins_averages_and_bests(ann_phone, ann_games):
    page = ann_phone.get("/records").text
    assert cards(page) == {
        # Ann: games 1-3 (the "ann" of the Express game is Ann); wins 1 and the shared 2.
        "Ann": {"games": "3", "wins": "2", "most-tickets": "2", "longest-path": "26",
                "usa": {"games": "2", "wins": "1", "average": "75.5", "best": "131"},
                "express": {"games": "1", "wins": "1", "average": "64.0", "best": "64"}},
        "Bob": {"games": "2", "wins": "1", "most-tickets": "2", "longest-path": "26",
                "usa": {"games": "2", "wins": "1", "average": "75.0", "best": "131"}},
        "Cleo": {"games": "1", "wins": "1", "most-tickets": "1", "longest-path": "4",
                 "express": {"games": "1", "wins": "1", "average": "64.0", "best": "64"}},
    }
    # Most wins first, then most games.
    assert list(cards(page)) == ["Ann", "Bob", "Cleo"]
    assert high_scores(page) == {"usa": (131, {"Ann", "Bob"}),
                                 "express": (64, {"Ann", "Cleo"})}
    assert 'data-counted="3" data-left-out="1"' in page


def test_a_game_counts_only_while_its_final_round_is_triggered(ann_phone, ann_games):
    express = express_tie(ann_phone, "Dan", "Eve")
    assert 'data-record-player="Dan"' in ann_phone.get("/records").text
    # Dan releases Amsterdam-Bruxelles: 3 trains left, no final round any more.
    ann_phone.hx(f"/games/{express}/routes/amsterdam--bruxelles", {"player": "Dan"})
    page = ann_phone.get("/records").text
    assert 'data-record-player="Dan"' not in page
    assert 'data-counted="3" data-left-out="2"' in page
    ann_phone.hx(f"/games/{express}/undo")
    assert 'data-record-player="Dan"' in ann_phone.get("/records").text


def test_another_device_sees_no_records_until_it_opens_a_games_link(app, ann_phone, ann_games):
    stranger = phone(app, "192.168.1.77")
    page = stranger.get("/records").text
    assert cards(page) == {} and high_scores(page) == {}
    assert "data-no-records" in page and 'data-scope="device"' in page
    assert stranger.get("/records.csv").text.splitlines()[1:] == []

    # The read-only link of game 1 (shared by QR): that game's records, and no other.
    share = re.search(r"/watch/([\w-]+)", ann_phone.get(f"/games/{ann_games[0]}/share").text)
    stranger.get(f"/watch/{share.group(1)}")
    page = stranger.get("/records").text
    assert {name: (c["games"], c["wins"]) for name, c in cards(page).items()} == {
        "Ann": ("1", "1"), "Bob": ("1", "0")}
    assert high_scores(page) == {"usa": (131, {"Ann"})}


def test_the_server_s_own_machine_sees_only_its_device_s_games_by_default(app, ann_games):
    # make serve, and any server not told otherwise: a proxy on the same machine makes every
    # visitor a loopback peer at a loopback Host, its headers removed by waitress.
    host = phone(app, "127.0.0.1")
    page = host.get("/records", base_url="http://127.0.0.1:8000").text
    assert 'data-scope="device"' in page and cards(page) == {}
    assert cards(host.get("/records", base_url="http://localhost:8000").text) == {}


def test_the_server_s_own_machine_sees_every_game_where_set_but_not_via_a_proxy(
        app, ann_phone, ann_games):
    app.config["HOST_VIEW"] = True  # make run's TERMINUS_HOST_VIEW=true
    stranger = phone(app, "192.168.1.77")
    express_tie(stranger, "Zoe", "Yann")
    host = phone(app, "127.0.0.1")
    page = host.get("/records", base_url="http://127.0.0.1:8000").text
    assert 'data-scope="server"' in page
    assert {"Ann", "Bob", "Cleo", "Zoe", "Yann"} == set(cards(page))
    # A proxy on the same machine: every visitor comes from loopback, with its headers.
    for headers in ({"X-Forwarded-For": "203.0.113.9"}, {"Forwarded": "for=203.0.113.9"},
                    {"X-Real-IP": "203.0.113.9"}, {"X-Forwarded-Proto": "https"},
                    {"Via": "1.1 proxy"}):
        proxied = host.get("/records", base_url="http://127.0.0.1:8000", headers=headers).text
        assert 'data-scope="device"' in proxied and cards(proxied) == {}, headers
    # Loopback at the Wi-Fi's name of the server is not the host's view either, nor a phone.
    assert cards(host.get("/records", base_url="http://192.168.1.5:8000").text) == {}
    assert 'data-scope="device"' in stranger.get("/records").text


@pytest.mark.parametrize(("value", "on"), [("true", True), ("false", False), ("1", False),
                                           ("yes", False), ('"true"', False)])
def test_the_host_view_is_on_only_where_terminus_host_view_is_true(
        tmp_path, monkeypatch, value, on):
    monkeypatch.setenv("TERMINUS_HOST_VIEW", value)
    app = create_app({"TESTING": True, **app_config(tmp_path), "SECRET_KEY": "t"})
    page = phone(app, "127.0.0.1").get("/records", base_url="http://127.0.0.1:8000").text
    assert ('data-scope="server"' in page) is on


def test_the_csv_holds_one_row_per_player_and_rule_set(ann_phone, ann_games):
    response = ann_phone.get("/records.csv")
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert [(r["player"], r["rule_set"], r["games"], r["wins"], r["average_total"],
             r["best_total"], r["most_tickets_completed"], r["longest_path"]) for r in rows] == [
        ("Ann", "usa", "2", "1", "75.5", "131", "2", "26"),
        ("Ann", "express", "1", "1", "64.0", "64", "1", "8"),
        ("Bob", "usa", "2", "1", "75.0", "131", "2", "26"),
        ("Cleo", "express", "1", "1", "64.0", "64", "1", "4"),
    ]


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_written_as_text(ann_phone, ann_games):
    express_tie(ann_phone, "=HYPERLINK(1)", "Dan")
    rows = list(csv.reader(io.StringIO(ann_phone.get("/records.csv").data.decode("utf-8-sig"))))
    assert ["'=HYPERLINK(1)", "express"] in [r[:2] for r in rows]
    assert all(not r[0].startswith("=") for r in rows)


def test_the_records_page_speaks_french(ann_phone, ann_games):
    ann_phone.raw.set_cookie("lang", "fr")
    page = ann_phone.get("/records").text
    assert "Records de la table" in page and "Meilleur score par règle" in page
    assert "3 parties · 2 victoires" in page
    assert "<td>75,5</td>" in page  # the French decimal comma
    assert "1 partie non terminée n&#39;est pas comptée" in page


def test_the_home_page_and_a_finished_games_results_link_to_the_records(ann_phone):
    assert 'href="/records" data-records-link' in ann_phone.get("/").text
    game = usa_game(ann_phone, "Ann", "Bob", 5)
    assert 'href="/records" data-records-link' in ann_phone.get(f"/games/{game}/results").text


def test_a_rule_sets_title_is_in_the_readers_language(ann_phone):
    """The real Mega Game of benchmarks/real_games (finished: a player is out of trains)."""
    game = Path(__file__).resolve().parents[2] / "benchmarks" / "real_games"
    ann_phone.api_game(json.loads(
        (game / "bga-839209563-usa-mega.json").read_text(encoding="utf-8")))
    ann_phone.raw.set_cookie("lang", "fr")
    page = ann_phone.get("/records").text
    assert '<span class="rule-set">USA 1910 Méga-partie</span> <strong class="score">189' in page
    assert '<th scope="row">USA 1910 Méga-partie</th>' in page
