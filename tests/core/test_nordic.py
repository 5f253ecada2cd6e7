"""Nordic Countries: its board, its rules (2-3 players, 40 trains, the 9-long route worth 27,
doubles open with 3 players, lanes of one double of different lengths, the Globetrotter +10,
no longest-path card), a worked example counted by hand, and property tests against a scorer
written here from rules.md alone."""

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.boards import load_board
from scorer.boards.board import board_counts
from scorer.errors import IllegalMove, ScorerError
from scorer.game import AddTicket, ClaimRoute, Game
from scorer.rules import NORDIC
from scorer.scoring import score
from tests.core.oracle import (
    assert_doubles_follow_the_player_count,
    assert_reads_back_to_the_same_score,
    reach,
    walk,
)
from tests.core.test_game import claim_all

# ../shared beside the clone (the reference the board file is copied from)
REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "maps" / "nordic.json"


# --- the board -----------------------------------------------------------------------------


def test_the_board_is_portrait_with_the_counts_of_its_invariants():
    board = NORDIC.board()
    assert board.name == "nordic" and board.title == "Nordic Countries"
    assert (board.art_frame["width"], board.art_frame["height"]) == (1125, 1744)
    assert board.aspect < 1  # taller than wide
    counts = board_counts(board)
    assert (counts["cities"], counts["routes"], counts["city_pairs"], counts["double_pairs"],
            counts["train_spaces_total"], counts["tickets"]) == (39, 81, 67, 14, 207, 46)
    assert counts["routes_by_length"] == {"1": 17, "2": 28, "3": 20, "4": 11, "5": 3, "6": 1,
                                          "9": 1}
    assert sum(t.points for t in board.tickets) == 460
    assert board.sources and board.sources[0]["repo"] == "thoun/tickettoride"


def test_two_doubles_have_lanes_of_different_lengths():
    board = NORDIC.board()
    unequal = {first.id: (first.length, other.length)
               for first, other in (board.lanes(r.a, r.b) for r in board.routes.values()
                                    if r.id.endswith("--2"))
               if first.length != other.length}
    assert unequal == {"kristiansand--stavanger": (2, 3), "mo-i-rana--trondheim": (5, 6)}


def test_the_board_data_is_the_reference_files_with_a_title():
    try:
        with open(REFERENCE, encoding="utf-8") as file:
            reference = json.load(file)
    except OSError:
        pytest.skip("../shared/reference is not beside this clone")
    board = load_board("nordic")
    assert {c.name: (c.x, c.y) for c in board.cities.values()} == {
        c["name"]: (c["x"], c["y"]) for c in reference["cities"]}
    assert {r.id: (r.a, r.b, r.length, r.color, r.tunnel, r.ferry_locomotives, len(r.spaces))
            for r in board.routes.values()} == {
        r["id"]: (r["a"], r["b"], r["length"], r["color"], r["tunnel"], r["ferry_locomotives"],
                  len(r["spaces"])) for r in reference["routes"]}
    assert {(t.a, t.b, t.points) for t in board.tickets} == {
        (t["a"], t["b"], t["points"]) for t in reference["tickets"]}
    rules = reference["rules"]
    assert (NORDIC.trains, NORDIC.min_players, NORDIC.max_players) == (
        rules["trains_per_player"], *rules["players"])
    assert NORDIC.doubles_from_players == rules["double_routes_min_players"]
    assert {str(k): v for k, v in NORDIC.points_table.items()} == rules["route_points"]
    assert (NORDIC.globetrotter_bonus, NORDIC.longest_bonus, NORDIC.stations) == (
        rules["globetrotter_points"], 0, rules["stations"])


@pytest.mark.parametrize(("typed", "city"), [
    ("Copenhagen", "København"), ("kobenhavn", "København"), ("Goteborg", "Göteborg"),
    ("tromso", "Tromsø"), ("Mo i Rana", "Mo I Rana"), ("aalborg", "Ålborg"),
    ("Helsingfors", "Helsinki"), ("Copenhague", "København"), ("Gothembourg", "Göteborg"),
])
def test_cities_are_found_typed_without_their_letters(typed, city):
    assert NORDIC.board().city(typed) == city


# --- the rules -----------------------------------------------------------------------------


def test_each_player_has_40_trains(make_game):
    game = make_game("nordic", 2)
    assert game.trains_left("Ann") == 40
    claim_all(game, "Ann", "lieksa--murmansk", "kirkenes--rovaniemi", "andalsnes--bergen",
              "mo-i-rana--trondheim--2", "honningsvag--tromso", "bergen--oslo")  # 9+5+5+6+4+4
    assert game.trains_left("Ann") == 7
    game.apply(ClaimRoute("Ann", "helsinki--stockholm"))  # 4 fits
    with pytest.raises(IllegalMove):
        game.apply(ClaimRoute("Ann", "kuopio--vaasa"))  # 4 more does not


def test_the_9_long_route_scores_27(make_game):
    game = make_game("nordic", 2)
    game.apply(ClaimRoute("Ann", "lieksa--murmansk"))
    ann = score(game).players[0]
    assert (ann.route_points, ann.trains_left, ann.total) == (27, 31, 27)


def test_with_two_players_one_lane_of_a_double_closes_even_of_another_length(make_game):
    game = make_game("nordic", 2)
    game.apply(ClaimRoute("Ann", "kristiansand--stavanger"))
    with pytest.raises(IllegalMove):
        game.apply(ClaimRoute("Bob", "kristiansand--stavanger--2"))
    assert game.closed_reason("mo-i-rana--trondheim", "Bob") is None


def test_with_three_players_both_lanes_open_each_scoring_its_own_length(make_game):
    game = make_game("nordic", 3)
    game.apply(ClaimRoute("Ann", "kristiansand--stavanger"))  # 2 long: 2 points
    game.apply(ClaimRoute("Bob", "kristiansand--stavanger--2"))  # 3 long: 4 points
    game.apply(ClaimRoute("Cat", "mo-i-rana--trondheim"))  # 5 long: 10 points
    game.apply(ClaimRoute("Ann", "mo-i-rana--trondheim--2"))  # 6 long: 15 points
    with pytest.raises(IllegalMove, match="already claimed by Ann"):
        game.apply(ClaimRoute("Cat", "kristiansand--stavanger"))
    ann, bob, cat = score(game).players
    assert (ann.route_points, bob.route_points, cat.route_points) == (17, 4, 10)
    assert (ann.trains_left, bob.trains_left, cat.trains_left) == (32, 37, 35)


def test_one_player_never_owns_both_lanes_with_three_players(make_game):
    game = make_game("nordic", 3)
    game.apply(ClaimRoute("Ann", "mo-i-rana--trondheim"))
    with pytest.raises(IllegalMove, match="both lanes"):
        game.apply(ClaimRoute("Ann", "mo-i-rana--trondheim--2"))


def test_a_claim_by_city_names_takes_the_first_free_lane(make_game):
    game = Game.from_json({"variant": "nordic", "players": [
        {"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"},
        {"name": "Cat", "color": "green"}],
        "claims": [{"player": "Ann", "from": "Stavanger", "to": "Kristiansand"},
                   {"player": "Bob", "from": "Kristiansand", "to": "Stavanger"}]})
    assert [c.route for c in game.claims] == ["kristiansand--stavanger",
                                              "kristiansand--stavanger--2"]


@pytest.mark.parametrize(
    ("completed", "globetrotter"),
    [((1, 1, 0), (10, 10, 0)), ((2, 1, 0), (10, 0, 0)), ((0, 0, 0), (0, 0, 0))],
)
def test_globetrotter_10_goes_to_every_player_with_the_most_completed_tickets(
    make_game, completed, globetrotter
):
    game = make_game("nordic", 3)
    routes = iter(["alborg--arhus", "boden--tornio", "helsinki--lahti", "kajaani--lieksa"])
    for player, n in zip(("Ann", "Bob", "Cat"), completed, strict=True):
        game.apply(AddTicket(player, "København", "Murmansk"))  # 24, missed by everyone
        for _ in range(n):
            route = game.board.routes[next(routes)]
            game.apply(ClaimRoute(player, route.id))
            game.apply(AddTicket(player, route.a, route.b, 2))
    sheet = score(game)
    assert tuple(p.globetrotter_bonus for p in sheet.players) == globetrotter
    assert all(p.longest_bonus == 0 for p in sheet.players)


def test_a_tie_on_points_and_tickets_is_shared_with_no_other_step(make_game):
    game = make_game("nordic", 2)
    for player, route in (("Ann", "alborg--arhus"), ("Bob", "boden--tornio")):
        game.apply(ClaimRoute(player, route))
        lane = game.board.routes[route]
        game.apply(AddTicket(player, lane.a, lane.b, 3))
    sheet = score(game)
    assert [p.total for p in sheet.players] == [1 + 3 + 10, 1 + 3 + 10]
    assert sheet.winners == ("Ann", "Bob")
    assert sheet.tiebreak == ("Ann and Bob tie on 14 points; both completed 1 ticket: "
                              "they share the win.")


def test_the_longest_path_is_measured_but_never_scored(make_game):
    game = make_game("nordic", 2)
    claim_all(game, "Ann", "kirkenes--murmansk", "lieksa--murmansk")
    ann, bob = score(game).players
    assert (ann.path.length, ann.longest_bonus, ann.total) == (12, 0, 4 + 27)
    with pytest.raises(ScorerError, match="without a longest-path bonus"):
        Game.new("nordic", [("Ann", "red"), ("Bob", "blue")], longest_path_bonus=True)


def test_no_stations_on_this_board(make_game):
    from scorer.game import PlaceStation

    game = make_game("nordic", 2)
    with pytest.raises(IllegalMove, match="Nordic Countries"):
        game.apply(PlaceStation("Ann", "Oslo"))


# --- a worked example, counted by hand -----------------------------------------------------

WORKED = {
    "variant": "nordic",
    "players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"},
                {"name": "Cat", "color": "green"}],
    "claims": [
        {"player": "Ann", "route": "lieksa--murmansk"},  # 9: 27
        {"player": "Ann", "route": "kajaani--lieksa"},  # 1: 1
        {"player": "Ann", "route": "kuopio--lieksa"},  # 1: 1
        {"player": "Ann", "route": "kirkenes--murmansk"},  # 3: 4
        {"player": "Ann", "route": "kristiansand--stavanger"},  # 2: 2
        {"player": "Ann", "route": "kristiansand--oslo"},  # 2: 2
        {"player": "Bob", "route": "kristiansand--stavanger--2"},  # 3: 4, the other lane
        {"player": "Bob", "route": "bergen--stavanger"},  # 2: 2
        {"player": "Bob", "route": "bergen--oslo"},  # 4: 7
        {"player": "Bob", "route": "mo-i-rana--trondheim--2"},  # 6: 15
        {"player": "Bob", "route": "andalsnes--trondheim"},  # 2: 2
        {"player": "Bob", "route": "andalsnes--bergen"},  # 5: 10
        {"player": "Cat", "route": "helsinki--tallinn"},  # 2: 2
        {"player": "Cat", "route": "helsinki--tampere"},  # 1: 1
        {"player": "Cat", "route": "helsinki--stockholm--2"},  # 4: 7
        {"player": "Cat", "route": "orebro--stockholm"},  # 2: 2
        {"player": "Cat", "from": "Örebro", "to": "Oslo"},  # 2: 2 (the green lane)
        {"player": "Cat", "route": "mo-i-rana--trondheim"},  # 5: 10, beside Bob's 6
    ],
    "tickets": [
        {"player": "Ann", "from": "Oslo", "to": "Stavanger"},  # 4, via Kristiansand: +4
        {"player": "Ann", "from": "Narvik", "to": "Murmansk"},  # 12, missed: -12
        {"player": "Bob", "from": "Bergen", "to": "Trondheim"},  # 7, via Åndalsnes: +7
        {"player": "Bob", "from": "Oslo", "to": "Mo i Rana"},  # 10, via Bergen: +10
        {"player": "Bob", "from": "Kristiansand", "to": "Mo I Rana"},  # 12, +12
        {"player": "Cat", "from": "Tampere", "to": "Tallinn"},  # 3, via Helsinki: +3
        {"player": "Cat", "from": "Oslo", "to": "Stockholm"},  # 4, via Örebro: +4
        {"player": "Cat", "from": "Oslo", "to": "Helsinki"},  # 8: +8
        {"player": "Cat", "from": "Stockholm", "to": "Umeå"},  # 7, missed: -7
    ],
}
# name: route points, trains left, ticket points, completed, Globetrotter, longest path, total
HAND_COUNT = {
    "Ann": (37, 22, -8, 1, 0, 13, 29),  # 27+1+1+4+2+2; 40-18; 4-12; Kirkenes..Kajaani
    "Bob": (40, 18, 29, 3, 10, 18, 79),  # 4+2+7+15+2+10; 40-22; Kristiansand..Mo I Rana
    "Cat": (24, 24, 8, 3, 10, 10, 42),  # 2+1+7+2+2+10; 40-16; 3+4+8-7; Tallinn..Oslo
}


@pytest.mark.parametrize("name", list(HAND_COUNT))
def test_worked_example_every_figure_matches_the_hand_count(name):
    sheet = score(Game.from_json(WORKED))
    p = sheet.player(name)
    assert (p.route_points, p.trains_left, p.ticket_points, p.tickets_completed,
            p.globetrotter_bonus, p.path.length, p.total) == HAND_COUNT[name]
    assert p.longest_bonus == 0 and p.station_points == 0


def test_worked_example_ranking_and_score_json():
    data = score(Game.from_json(WORKED)).to_json()
    assert data["variant"] == "nordic" and data["winners"] == ["Bob"]
    assert [p["total"] for p in data["players"]] == [29, 79, 42]
    assert data["tiebreak"] is None


# --- property tests against a scorer written from rules.md alone ----------------------------

NAMES = ["Ann", "Bob", "Cat"]
COLORS = ["red", "blue", "green"]
CITIES = sorted(NORDIC.board().cities)
RULES_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 9: 27}  # rules.md, Nordic Countries


@st.composite
def played_games(draw):
    """A legal Nordic game: each player walks the board from a city of their own claiming what
    they may (refused claims skipped), then holds deck tickets, most between cities reached."""
    count = draw(st.integers(2, 3))
    game = Game.new("nordic", list(zip(NAMES[:count], COLORS[:count], strict=True)))
    board = game.board
    walk(draw, st, game, NAMES[:count], CITIES, max_steps=16)
    deck, taken = board.tickets, set()
    for player in NAMES[:count]:
        reached = {c for r in game.routes_of(player) for c in (r.a, r.b)}
        near = [i for i, t in enumerate(deck) if {t.a, t.b} <= reached] or [0]
        picks = (draw(st.lists(st.sampled_from(near), max_size=4))
                 + draw(st.lists(st.integers(0, len(deck) - 1), max_size=2)))
        for index in dict.fromkeys(picks):
            if index not in taken:
                taken.add(index)
                game.apply(AddTicket(player, deck[index].a, deck[index].b))
    return game


def joined(routes, a, b):
    """Whether a chain of these routes joins a and b."""
    return b in reach(routes, {a})


def by_hand(game):
    """Every player's total and the winners, from rules.md's Nordic section only."""
    figures = {}
    for p in game.players:
        routes = game.routes_of(p.name)
        tickets = [t for t in game.tickets if t.player == p.name]
        done = [joined(routes, t.a, t.b) for t in tickets]
        figures[p.name] = [sum(RULES_POINTS[r.length] for r in routes)
                           + sum(t.points if ok else -t.points
                                 for t, ok in zip(tickets, done, strict=True)), sum(done)]
    most = max(done for _, done in figures.values())
    for figure in figures.values():
        figure[0] += 10 if most and figure[1] == most else 0
    best = max(map(tuple, figures.values()))
    return ({name: total for name, (total, _) in figures.items()},
            {name for name, figure in figures.items() if tuple(figure) == best})


PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                            HealthCheck.data_too_large])


@PROPERTY
@given(game=played_games())
def test_every_game_scores_as_rules_md_counts_it(game):
    sheet = score(game)
    totals, winners = by_hand(game)
    assert {p.name: p.total for p in sheet.players} == totals
    assert set(sheet.winners) == winners
    for p in sheet.players:
        assert p.longest_bonus == p.station_points == p.express_bonus == 0
        assert p.trains_left == 40 - sum(r.length for r in game.routes_of(p.name)) >= 0


@PROPERTY
@given(game=played_games())
def test_doubles_follow_the_player_count(game):
    assert_doubles_follow_the_player_count(game, 3)


@PROPERTY
@given(game=played_games())
def test_a_game_file_written_out_reads_back_to_the_same_score(game):
    assert_reads_back_to_the_same_score(game, "nordic")
