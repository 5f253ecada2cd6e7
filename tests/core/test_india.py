"""India: its board (39 cities, 108 routes, ferries, the names as printed), its rules (2-4
players, 45 trains, doubles open with 4, the Indian Express +10, the Grand Tour for tickets
joined by two paths sharing no route), a worked example counted by hand, and property tests
against a scorer written here from docs/rules-india.md."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.boards import load_board
from scorer.boards.board import board_counts
from scorer.connectivity import joined_twice
from scorer.errors import IllegalMove, ScorerError
from scorer.game import AddTicket, ClaimRoute, Game
from scorer.rules import INDIA
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


def test_the_board_is_portrait_with_the_counts_of_its_invariants():
    board = INDIA.board()
    assert board.name == "india" and board.title == "India"
    assert (board.art_frame["width"], board.art_frame["height"]) == (1125, 1744)
    assert board.aspect < 1
    counts = board_counts(board)
    assert (counts["cities"], counts["routes"], counts["city_pairs"], counts["double_pairs"],
            counts["train_spaces_total"], counts["ferries"], counts["tickets"]) == (
        39, 108, 80, 28, 238, 8, 58)
    assert counts["routes_by_length"] == {"1": 31, "2": 47, "3": 17, "4": 9, "6": 3, "8": 1}
    assert sum(t.points for t in board.tickets) == 473
    assert board.sources[0]["repo"] == "thoun/tickettoride"


@pytest.mark.parametrize(("typed", "city"), [
    ("Waltair", "Waltain"), ("Visakhapatnam", "Waltain"), ("Ratlam", "Ratiam"),
    ("Mumbai", "Bombay"), ("kolkata", "Calcutta"), ("Chennai", "Madras"), ("Jorhat", "Jarhat"),
])
def test_cities_keep_their_printed_names_and_are_found_by_others(typed, city):
    assert INDIA.board().city(typed) == city


def test_the_ferries_and_the_8_long_route():
    board = INDIA.board()
    ferries = {r.id: (r.length, r.ferry_locomotives) for r in board.routes.values()
               if r.ferry_locomotives}
    assert ferries == {"bombay--calicut": (6, 2), "bombay--karachi": (6, 2),
                       "bombay--karachi--2": (6, 2), "calcutta--chittagong": (2, 1),
                       "calcutta--chittagong--2": (2, 1), "calcutta--madras": (8, 2),
                       "calicut--quilon": (2, 1), "calicut--quilon--2": (2, 1)}


# --- the rules -----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "open_"), [(2, False), (3, False), (4, True)])
def test_both_lanes_of_a_double_only_with_four_players(make_game, players, open_):
    game = make_game("india", players)
    game.apply(ClaimRoute("Ann", "agra--jaipur"))
    assert (game.closed_reason("agra--jaipur--2", "Bob") is None) == open_


def test_the_8_long_ferry_scores_21(make_game):
    game = make_game("india", 2)
    game.apply(ClaimRoute("Ann", "calcutta--madras"))
    ann = score(game).players[0]
    assert (ann.route_points, ann.trains_left) == (21, 37)


@pytest.mark.parametrize(("twice", "points"), [(0, 0), (1, 5), (2, 10), (3, 20), (4, 30),
                                               (5, 40), (6, 40)])
def test_the_grand_tour_table(make_game, twice, points):
    game = make_game("india", 2)
    loop = ["agra--delhi", "delhi--jaipur", "agra--jaipur", "bareilly--delhi",
            "bareilly--lucknow", "agra--lucknow"]
    claim_all(game, "Ann", *loop)
    pairs = [("Agra", "Delhi"), ("Delhi", "Jaipur"), ("Agra", "Jaipur"), ("Delhi", "Lucknow"),
             ("Bareilly", "Agra"), ("Lucknow", "Jaipur")][:twice]
    for a, b in pairs:  # custom tickets: every one on a cycle of Ann's routes
        game.apply(AddTicket("Ann", a, b, 3))
    ann = score(game).players[0]
    assert (ann.tickets_twice, ann.grand_tour_bonus) == (twice, points)
    assert score(game).to_json()["players"][0]["grand_tour_bonus"] == points


def test_a_ticket_joined_once_earns_no_grand_tour(make_game):
    game = make_game("india", 2)
    claim_all(game, "Ann", "jaipur--jodhpur", "agra--jaipur", "agra--lucknow", "delhi--jaipur",
              "bareilly--delhi", "bareilly--lucknow")
    game.apply(AddTicket("Ann", "Jodhpur", "Lucknow"))  # both paths take Jodhpur-Jaipur
    ann = score(game).players[0]
    assert [(t.completed, t.twice) for t in ann.tickets] == [(True, False)]
    assert ann.grand_tour_bonus == 0
    game.apply(ClaimRoute("Ann", "bhatinda--jodhpur"))
    game.apply(ClaimRoute("Ann", "bhatinda--delhi"))  # a second way out of Jodhpur
    ann = score(game).players[0]
    assert [(t.completed, t.twice) for t in ann.tickets] == [(True, True)]
    assert ann.grand_tour_bonus == 5


def test_two_paths_may_cross_at_a_city_but_not_share_a_route():
    # a figure eight through X: A-X-B twice over, the two loops meeting only at X
    eight = [("A", "X"), ("X", "B"), ("A", "Y"), ("Y", "X"), ("X", "Z"), ("Z", "B")]
    assert joined_twice(eight, {"A"}, {"B"})
    assert not joined_twice([("A", "X"), ("X", "B"), ("A", "X")][:2], {"A"}, {"B"})
    # two lanes between the same cities are two routes
    assert joined_twice([("A", "B"), ("A", "B")], {"A"}, {"B"})
    # a bridge both paths would need
    assert not joined_twice([("A", "X"), ("A", "Y"), ("X", "Y"), ("Y", "B")], {"A"}, {"B"})


def test_without_the_longest_path_card_the_grand_tour_stays(make_game):
    game = Game.new("india", [("Ann", "red"), ("Bob", "blue")], longest_path_bonus=False)
    claim_all(game, "Ann", "agra--delhi", "delhi--jaipur", "agra--jaipur")
    game.apply(AddTicket("Ann", "Agra", "Delhi", 4))
    ann = score(game).players[0]
    assert (ann.longest_bonus, ann.grand_tour_bonus, ann.total) == (0, 5, 5 + 4 + 5)
    assert [key for key, _ in game.variant.bonuses] == ["grand_tour"]


def test_the_grand_tour_is_no_tie_break_step():
    assert INDIA.tiebreak == ("tickets", "longest")
    with pytest.raises(ScorerError, match="unknown tie-break keys"):
        from dataclasses import replace
        replace(INDIA, tiebreak=("tickets", "grand_tour")).board()


def test_no_stations_on_this_board(make_game):
    from scorer.game import PlaceStation

    game = make_game("india", 2)
    with pytest.raises(IllegalMove, match="India"):
        game.apply(PlaceStation("Ann", "Delhi"))


# --- a worked example, counted by hand -----------------------------------------------------

WORKED = {
    "variant": "india",
    "players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"},
                {"name": "Cat", "color": "green"}, {"name": "Dan", "color": "yellow"}],
    "claims": [
        {"player": "Ann", "route": "agra--delhi"},  # 2: 2
        {"player": "Ann", "route": "agra--jaipur"},  # 1: 1
        {"player": "Ann", "route": "delhi--jaipur"},  # 2: 2
        {"player": "Ann", "route": "bareilly--delhi"},  # 1: 1
        {"player": "Ann", "route": "bareilly--lucknow"},  # 1: 1
        {"player": "Ann", "route": "agra--lucknow"},  # 2: 2
        {"player": "Ann", "route": "jaipur--jodhpur"},  # 2: 2
        {"player": "Ann", "route": "bhatinda--jodhpur"},  # 3: 4
        {"player": "Ann", "route": "bhatinda--delhi"},  # 3: 4
        {"player": "Bob", "route": "calcutta--madras"},  # 8: 21, a ferry
        {"player": "Bob", "route": "madras--waltain"},  # 3: 4
        {"player": "Bob", "route": "calcutta--waltain"},  # 4: 7
        {"player": "Bob", "route": "erode--madras"},  # 2: 2 (green)
        {"player": "Bob", "route": "calcutta--patna"},  # 2: 2
        {"player": "Cat", "route": "calicut--mangalore"},  # 1: 1
        {"player": "Cat", "route": "calicut--erode"},  # 3: 4
        {"player": "Cat", "route": "erode--quilon"},  # 4: 7
        {"player": "Cat", "route": "calicut--quilon"},  # 2: 2, a ferry
        {"player": "Cat", "route": "guntakal--mangalore"},  # 2: 2
        {"player": "Cat", "route": "guntakal--madras"},  # 2: 2
        {"player": "Cat", "route": "erode--madras--2"},  # 2: 2, beside Bob's: 4 players
        {"player": "Dan", "route": "lahore--peshawar"},  # 1: 1
        {"player": "Dan", "route": "jacobabad--lahore"},  # 3: 4
        {"player": "Dan", "route": "jacobabad--peshawar"},  # 3: 4
        {"player": "Dan", "route": "jacobabad--rohri"},  # 1: 1
    ],
    "tickets": [
        # Jodhpur-Jaipur-Agra-Lucknow and Jodhpur-Bhatinda-Delhi-Bareilly-Lucknow: twice, +5
        {"player": "Ann", "from": "Jodhpur", "to": "Lucknow"},
        {"player": "Ann", "from": "Jaipur", "to": "Patna"},  # 5, missed: -5
        {"player": "Bob", "from": "Calcutta", "to": "Erode"},  # 9, once (Madras-Erode): +9
        {"player": "Bob", "from": "Patna", "to": "Madras"},  # 9, once (Calcutta-Patna): +9
        # Madras-Erode-Quilon and Madras-Guntakal-Mangalore-Calicut-Quilon: twice, +6
        {"player": "Cat", "from": "Madras", "to": "Quilon"},
        {"player": "Cat", "from": "Calicut", "to": "Madras", "points": 7},  # custom, twice: +7
        {"player": "Dan", "from": "Peshawar", "to": "Bhopal"},  # 9, missed: -9
        {"player": "Dan", "from": "Rohri", "to": "Agra"},  # 7, missed: -7
    ],
}
# name: route points, trains left, ticket points, completed, joined twice, longest path,
# Indian Express, Grand Tour, total
HAND_COUNT = {
    # 2+1+2+1+1+2+2+4+4; 45-17; 5-5; every route in one path (Agra and Jaipur its ends)
    "Ann": (19, 28, 0, 1, 1, 17, 10, 5, 34),
    # 21+4+7+2+2; 45-19; 9+9; Erode-Madras-Waltain-Calcutta-Madras 17 (a tie: +10 each)
    "Bob": (36, 26, 18, 2, 0, 17, 10, 0, 64),
    # 1+4+7+2+2+2+2; 45-16; 6+7; every route in one path, 16
    "Cat": (20, 29, 13, 2, 2, 16, 0, 10, 43),
    # 1+4+4+1; 45-8; -9-7; Jacobabad..Rohri, 8
    "Dan": (10, 37, -16, 0, 0, 8, 0, 0, -6),
}


@pytest.mark.parametrize("name", list(HAND_COUNT))
def test_worked_example_every_figure_matches_the_hand_count(name):
    p = score(Game.from_json(WORKED)).player(name)
    assert (p.route_points, p.trains_left, p.ticket_points, p.tickets_completed,
            p.tickets_twice, p.path.length, p.longest_bonus, p.grand_tour_bonus,
            p.total) == HAND_COUNT[name]
    assert p.station_points == p.globetrotter_bonus == p.express_bonus == 0


def test_worked_example_ranking_bonuses_and_score_json():
    sheet = score(Game.from_json(WORKED))
    data = sheet.to_json()
    assert data["variant"] == "india" and data["winners"] == ["Bob"]
    assert [p["total"] for p in data["players"]] == [34, 64, 43, -6]
    assert [p["grand_tour_bonus"] for p in data["players"]] == [5, 0, 10, 0]
    assert data["players"][0]["tickets"][0] == {
        "from": "Jodhpur", "to": "Lucknow", "points": 5, "completed": True, "twice": True}
    assert [(b.key, b.name, b.points) for b in sheet.bonuses] == [
        ("longest", "Indian Express", (("Ann", 10), ("Bob", 10))),
        ("grand_tour", "Grand Tour", (("Ann", 5), ("Cat", 10)))]


# --- property tests against a scorer written from docs/rules-india.md alone ----------------

NAMES = ["Ann", "Bob", "Cat", "Dan"]
COLORS = ["red", "blue", "green", "yellow"]
BOARD = load_board("india")
CITIES = sorted(BOARD.cities)
RULES_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21}
GRAND_TOUR = [0, 5, 10, 20, 30, 40]


@st.composite
def played_games(draw):
    """A legal India game walked at random, then deck tickets and a few custom tickets between
    cities of the player's own (cycles make Grand Tours)."""
    count = draw(st.integers(2, 4))
    game = Game.new("india", list(zip(NAMES[:count], COLORS[:count], strict=True)))
    walk(draw, st, game, NAMES[:count], CITIES)
    deck, taken = BOARD.tickets, set()
    for player in NAMES[:count]:
        for index in draw(st.lists(st.integers(0, len(deck) - 1), max_size=2)):
            if index not in taken:
                taken.add(index)
                game.apply(AddTicket(player, deck[index].a, deck[index].b))
        mine = sorted({c for r in game.routes_of(player) for c in (r.a, r.b)})
        if len(mine) >= 2:
            for a, b in draw(st.lists(st.tuples(st.sampled_from(mine), st.sampled_from(mine)),
                                      max_size=5)):
                if a != b and BOARD.ticket(a, b) is None:
                    try:
                        game.apply(AddTicket(player, a, b, 3))
                    except IllegalMove:
                        pass  # held already
    return game


def simple_paths(routes, a, b, used=frozenset(), seen=None):
    """Every path of distinct cities from a to b, as the set of routes it takes."""
    seen = seen or {a}
    if a == b:
        yield used
        return
    for i, r in enumerate(routes):
        if i not in used and a in (r.a, r.b) and r.other_end(a) not in seen:
            yield from simple_paths(routes, r.other_end(a), b, used | {i},
                                    seen | {r.other_end(a)})


def twice_by_hand(routes, a, b):
    """Two paths sharing no route: one path, and the routes left still join the ends."""
    return any(b in reach([r for i, r in enumerate(routes) if i not in path], {a})
               for path in simple_paths(routes, a, b))


def by_hand(game):
    """Every player's total and the winners, from the rules page only."""
    figures, paths = {}, {}
    for p in game.players:
        routes = list(game.routes_of(p.name))
        total, done, twice = sum(RULES_POINTS[r.length] for r in routes), 0, 0
        for t in (t for t in game.tickets if t.player == p.name):
            ok = t.b in reach(routes, {t.a})
            total += t.points if ok else -t.points
            done += ok
            twice += ok and twice_by_hand(routes, t.a, t.b)
        figures[p.name] = (total + GRAND_TOUR[min(twice, 5)], done)
        paths[p.name] = longest_trail(routes)
    return totals_and_winners(figures, paths, 10)


@PROPERTY
@given(game=played_games())
def test_every_game_scores_as_the_rules_count_it(game):
    assert_scores_as_counted(game, by_hand, 45)


@PROPERTY
@given(game=played_games())
def test_doubles_follow_the_player_count(game):
    assert_doubles_follow_the_player_count(game, 4)


@PROPERTY
@given(game=played_games())
def test_a_game_file_written_out_reads_back_to_the_same_score(game):
    assert_reads_back_to_the_same_score(game, "india")
