"""Switzerland: its board (cities, the four neighbouring countries reached at 17 border points,
88 routes), its rules (2-3 players, 40 trains, doubles open with 3 players, the longest path
+10, tickets to and between countries with a value per destination), a worked example counted
by hand, and property tests against a scorer written here from docs/rules-switzerland.md."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.boards import load_board
from scorer.boards.board import board_counts
from scorer.errors import IllegalMove
from scorer.game import AddTicket, ClaimRoute, Game, RemoveTicket
from scorer.rules import SWITZERLAND
from scorer.scoring import score
from tests.core.oracle import (
    PROPERTY,
    assert_doubles_follow_the_player_count,
    assert_reads_back_to_the_same_score,
    assert_scores_as_counted,
    longest_trail,
    reach,
    totals_and_winners,
    walk,
)
from tests.core.test_game import claim_all

# --- the board -----------------------------------------------------------------------------


def test_the_board_has_the_counts_of_its_invariants():
    board = SWITZERLAND.board()
    assert board.name == "switzerland" and board.title == "Switzerland"
    assert (board.art_frame["width"], board.art_frame["height"]) == (1744, 1125)
    counts = board_counts(board)
    assert (counts["cities"], counts["routes"], counts["city_pairs"], counts["double_pairs"],
            counts["train_spaces_total"], counts["tunnels"], counts["ferries"]) == (
        51, 88, 76, 12, 205, 42, 0)
    assert (counts["tickets"], counts["ticket_cards"], counts["countries"]) == (42, 46, 4)
    assert counts["routes_by_length"] == {"1": 31, "2": 21, "3": 18, "4": 14, "5": 2, "6": 2}
    assert [s["repo"] for s in board.sources[:2]] == ["thoun/tickettoride", "matthias-wyss/tCHu"]


def test_each_country_is_reached_at_its_own_border_points():
    board = SWITZERLAND.board()
    assert {c: len(points) for c, points in board.countries.items()} == {
        "France": 4, "Deutschland": 5, "Österreich": 3, "Italia": 5}
    # Kreuzlingen's two routes into Germany end at two border points: not a double route
    assert {r.other_end("Kreuzlingen") for r in board.routes_at("Kreuzlingen")
            if r.other_end("Kreuzlingen").startswith("Deutschland")} == {
        "Deutschland 3", "Deutschland 4"}
    assert board.siblings(board.route("deutschland-3--kreuzlingen")) == ()
    assert board.place_of("France 2") == "France" and board.place_of("Genève") == "Genève"


def test_the_tickets_with_several_destinations_print_a_value_for_each():
    board = SWITZERLAND.board()
    several = {t.a: t for t in board.tickets if t.several}
    assert set(several) == {"France", "Deutschland", "Österreich", "Italia", "Bern", "Chur",
                            "Zürich", "Lugano"}
    assert several["Lugano"].ends == (("France", 14), ("Deutschland", 12), ("Österreich", 13),
                                      ("Italia", 2))
    assert several["France"].b == "Deutschland / Österreich / Italia"
    assert (several["France"].copies, several["Bern"].copies) == (2, 1)
    assert board.ticket("France", "Italia") is several["France"]
    assert board.ticket("Italia", "France") is several["Italia"]
    assert board.ticket("Bern", "Österreich") is several["Bern"]
    assert board.ticket("Zürich", "Basel").points == 4  # a plain ticket, either order
    assert board.ticket("Basel", "Zürich").points == 4


@pytest.mark.parametrize(("typed", "place"), [
    ("Zurich", "Zürich"), ("Bâle", "Basel"), ("Berne", "Bern"), ("Geneva", "Genève"),
    ("Saint-Gall", "St. Gallen"), ("Lucerne", "Luzern"), ("Allemagne", "Deutschland"),
    ("Austria", "Österreich"), ("italie", "Italia"), ("france", "France"),
])
def test_cities_and_countries_are_found_as_typed(typed, place):
    assert SWITZERLAND.board().place(typed) == place


# --- the rules -----------------------------------------------------------------------------


def test_each_player_has_40_trains(make_game):
    game = make_game("switzerland", 2)
    claim_all(game, "Ann", "brig--locarno", "geneve--yverdon", "brusio--chur", "chur--wassen",
              "bellinzona--wassen", "bern--luzern", "france-1--martigny")  # 6+6+5+5+4+4+2
    assert game.trains_left("Ann") == 8
    with pytest.raises(IllegalMove):
        claim_all(game, "Ann", "brig--wassen", "luzern--olten", "davos--italia-1")  # 4+3+3


def test_with_two_players_one_lane_of_a_double_closes(make_game):
    game = make_game("switzerland", 2)
    game.apply(ClaimRoute("Ann", "zug--zurich"))
    with pytest.raises(IllegalMove, match="only one lane"):
        game.apply(ClaimRoute("Bob", "zug--zurich--2"))


def test_with_three_players_both_lanes_open_never_to_one_player(make_game):
    game = make_game("switzerland", 3)
    game.apply(ClaimRoute("Ann", "zug--zurich"))
    game.apply(ClaimRoute("Bob", "zug--zurich--2"))
    game.apply(ClaimRoute("Ann", "bern--luzern"))
    with pytest.raises(IllegalMove, match="both lanes"):
        game.apply(ClaimRoute("Ann", "bern--luzern--2"))


def test_a_city_to_countries_ticket_scores_the_highest_country_reached(make_game):
    game = make_game("switzerland", 2)
    game.apply(AddTicket("Ann", "Bern", "France"))  # F 5, D 6, Ö 11, I 8
    claim_all(game, "Ann", "bern--neuchatel", "la-chaux-de-fonds--neuchatel",
              "france-3--la-chaux-de-fonds")
    assert [(t.score, t.reached) for t in score(game).players[0].tickets] == [(5, "France")]
    claim_all(game, "Ann", "bern--interlaken", "brig--interlaken", "brig--italia-5")
    assert [(t.score, t.reached) for t in score(game).players[0].tickets] == [(8, "Italia")]


def test_a_failed_ticket_of_several_values_costs_its_lowest(make_game):
    game = make_game("switzerland", 2)
    game.apply(AddTicket("Ann", "Lugano", "Italia"))  # 14, 12, 13, 2
    game.apply(AddTicket("Ann", "Österreich", "France"))  # Deutschland 5, Italia 6, France 14
    assert [t.score for t in score(game).players[0].tickets] == [-2, -5]


def test_a_country_to_country_ticket_joins_any_border_points(make_game):
    game = make_game("switzerland", 2)
    game.apply(AddTicket("Bob", "Deutschland", "Österreich"))  # France 5, Österreich 5, Italia 13
    claim_all(game, "Bob", "deutschland-5--st-gallen", "osterreich-1--st-gallen")
    bob = score(game).players[1]
    assert [(t.score, t.reached) for t in bob.tickets] == [(5, "Österreich")]
    assert bob.tickets_completed == 1


def test_a_country_does_not_join_the_routes_that_end_in_it(make_game):
    game = make_game("switzerland", 2)
    claim_all(game, "Ann", "france-2--geneve", "france-3--la-chaux-de-fonds")
    game.apply(AddTicket("Ann", "Genève", "La Chaux-de-Fonds", 4))
    ann = score(game).players[0]
    assert ann.tickets[0].score == -4
    assert ann.path.length == 2  # two paths of 1 and 2, not one of 3 through France


def test_a_country_ticket_may_be_held_twice_as_the_deck_has_two_cards(make_game):
    game = make_game("switzerland", 2)
    game.apply(AddTicket("Ann", "France", "Deutschland"))
    game.apply(AddTicket("Ann", "france", "Italia"))  # the other copy, any destination names it
    with pytest.raises(IllegalMove, match="already holds"):
        game.apply(AddTicket("Ann", "France", "Österreich"))
    game.apply(AddTicket("Ann", "Bern", "Italia"))  # one card: once
    with pytest.raises(IllegalMove, match="already holds"):
        game.apply(AddTicket("Ann", "Bern", "France"))
    game.apply(RemoveTicket("Ann", "France", "Deutschland / Österreich / Italia"))
    assert [(t.a, t.b) for t in game.tickets] == [
        ("France", "Deutschland / Österreich / Italia"),
        ("Bern", "France / Deutschland / Österreich / Italia")]


def test_the_points_of_a_ticket_of_several_values_come_from_the_deck(make_game):
    game = make_game("switzerland", 2)
    with pytest.raises(IllegalMove, match="5/6/11/8"):
        game.apply(AddTicket("Ann", "Bern", "France", 7))
    game.apply(AddTicket("Ann", "Bern", "France", 11))  # its highest value: the deck's own
    assert game.tickets[0].in_deck


def test_the_longest_path_bonus_goes_to_every_tied_player(make_game):
    game = make_game("switzerland", 3)
    game.apply(ClaimRoute("Ann", "geneve--yverdon"))  # 6
    game.apply(ClaimRoute("Bob", "brig--locarno"))  # 6
    game.apply(ClaimRoute("Cat", "brusio--chur"))  # 5
    assert [p.longest_bonus for p in score(game).players] == [10, 10, 0]


# --- a worked example, counted by hand -----------------------------------------------------

WORKED = {
    "variant": "switzerland",
    "players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"},
                {"name": "Cat", "color": "green"}],
    "claims": [
        {"player": "Ann", "from": "Genève", "to": "France 2"},  # 1: 1
        {"player": "Ann", "route": "geneve--lausanne"},  # 4: 7
        {"player": "Ann", "route": "fribourg--lausanne"},  # 3: 4
        {"player": "Ann", "route": "bern--fribourg"},  # 1: 1
        {"player": "Ann", "route": "bern--luzern"},  # 4: 7
        {"player": "Ann", "route": "luzern--zug"},  # 1: 1
        {"player": "Ann", "route": "zug--zurich"},  # 1: 1
        {"player": "Bob", "route": "deutschland-2--schaffhausen"},  # 1: 1
        {"player": "Bob", "route": "schaffhausen--winterthur"},  # 1: 1
        {"player": "Bob", "route": "st-gallen--winterthur"},  # 3: 4
        {"player": "Bob", "route": "osterreich-1--st-gallen"},  # 4: 7
        {"player": "Cat", "route": "italia-3--lugano"},  # 2: 2
        {"player": "Cat", "route": "bellinzona--lugano"},  # 1: 1
        {"player": "Cat", "route": "bellinzona--wassen"},  # 4: 7
        {"player": "Cat", "route": "schwyz--wassen"},  # 2: 2
    ],
    "tickets": [
        {"player": "Ann", "from": "Bern", "to": "France"},  # F5 D6 Ö11 I8: France reached, +5
        {"player": "Ann", "from": "Genève", "to": "Zürich"},  # 14: +14
        {"player": "Ann", "from": "France", "to": "Italia"},  # D5 Ö14 I11, none: -5
        {"player": "Bob", "from": "Deutschland", "to": "Österreich"},  # F5 Ö5 I13: Ö, +5
        {"player": "Bob", "from": "Lugano", "to": "Italia"},  # F14 D12 Ö13 I2, none: -2
        {"player": "Cat", "from": "Lugano", "to": "Italia"},  # Italia reached: +2
        {"player": "Cat", "from": "Italia", "to": "France"},  # F11 D13 Ö6, none: -6
        {"player": "Cat", "from": "Lugano", "to": "Chur"},  # 10, missed: -10
    ],
}
# name: route points, trains left, ticket points, completed, longest path, longest bonus, total
HAND_COUNT = {
    "Ann": (22, 25, 14, 2, 15, 10, 46),  # 1+7+4+1+7+1+1; 40-15; 5+14-5; France 2..Zürich
    "Bob": (13, 31, 3, 1, 9, 0, 16),  # 1+1+4+7; 40-9; 5-2; Deutschland 2..Österreich 1
    "Cat": (12, 31, -14, 1, 9, 0, -2),  # 2+1+7+2; 40-9; 2-6-10; Italia 3..Schwyz
}


@pytest.mark.parametrize("name", list(HAND_COUNT))
def test_worked_example_every_figure_matches_the_hand_count(name):
    p = score(Game.from_json(WORKED)).player(name)
    assert (p.route_points, p.trains_left, p.ticket_points, p.tickets_completed,
            p.path.length, p.longest_bonus, p.total) == HAND_COUNT[name]
    assert p.station_points == p.globetrotter_bonus == 0


def test_worked_example_ranking_and_score_json():
    data = score(Game.from_json(WORKED)).to_json()
    assert data["variant"] == "switzerland" and data["winners"] == ["Ann"]
    assert [p["total"] for p in data["players"]] == [46, 16, -2]
    assert data["players"][0]["tickets"][0] == {
        "from": "Bern", "to": "France / Deutschland / Österreich / Italia", "points": 5,
        "completed": True, "reached": "France"}
    assert data["players"][0]["tickets"][2] == {
        "from": "France", "to": "Deutschland / Österreich / Italia", "points": 5,
        "completed": False}


# --- property tests against a scorer written from docs/rules-switzerland.md alone ---------

NAMES = ["Ann", "Bob", "Cat"]
COLORS = ["red", "blue", "green"]
BOARD = load_board("switzerland")
CITIES = sorted(BOARD.cities)
RULES_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}
COUNTRY_POINTS = {country: set(points) for country, points in BOARD.countries.items()}


@st.composite
def played_games(draw):
    """A legal Swiss game walked at random, then deck tickets, a few twice when the deck has two
    cards of them."""
    count = draw(st.integers(2, 3))
    game = Game.new("switzerland", list(zip(NAMES[:count], COLORS[:count], strict=True)))
    walk(draw, st, game, NAMES[:count], CITIES)
    deck = BOARD.tickets
    for player in NAMES[:count]:
        for index in draw(st.lists(st.integers(0, len(deck) - 1), max_size=6)):
            ticket = deck[index]
            try:
                game.apply(AddTicket(player, ticket.a, ticket.ends[-1][0]))
            except IllegalMove:
                pass  # held as many times as the deck has it
    return game


def places(name):
    """The cities a ticket's end means: a city, or every border point of a country."""
    return COUNTRY_POINTS.get(name, {name})


def by_hand(game):
    """Every player's total and the winners, from the rules page only."""
    figures, paths = {}, {}
    for p in game.players:
        routes = game.routes_of(p.name)
        total, done = sum(RULES_POINTS[r.length] for r in routes), 0
        for t in (t for t in game.tickets if t.player == p.name):
            seen = reach(routes, places(t.a))
            values = [points for end, points in t.ends if places(end) & seen]
            total += max(values) if values else -min(points for _, points in t.ends)
            done += bool(values)
        figures[p.name], paths[p.name] = (total, done), longest_trail(routes)
    return totals_and_winners(figures, paths, 10)


@PROPERTY
@given(game=played_games())
def test_every_game_scores_as_the_rules_count_it(game):
    assert_scores_as_counted(game, by_hand, 40)


@PROPERTY
@given(game=played_games())
def test_doubles_follow_the_player_count(game):
    assert_doubles_follow_the_player_count(game, 3)


@PROPERTY
@given(game=played_games())
def test_a_game_file_written_out_reads_back_to_the_same_score(game):
    assert_reads_back_to_the_same_score(game, "switzerland")
