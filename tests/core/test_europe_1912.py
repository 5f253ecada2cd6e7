"""The Europe 1912 rule sets: their decks, a worked example of each counted by hand, a whole
Mega game, and property tests against the Europe scorer they extend."""

import json
from importlib import resources

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.errors import IllegalMove
from scorer.game import AddTicket, ClaimRoute, Game, PlaceStation, Player
from scorer.rules import (
    EUROPE,
    EUROPE_1912_BIG_CITIES,
    EUROPE_1912_EXTENDED,
    EUROPE_1912_MEGA,
    VARIANTS,
)
from scorer.scoring import score
from tests.core import europe_1912_game

SETS = [EUROPE_1912_EXTENDED, EUROPE_1912_MEGA, EUROPE_1912_BIG_CITIES]
BIG_CITIES = {"Angora", "Athina", "Berlin", "London", "Madrid", "Moskva", "Paris", "Roma", "Wien"}


def deck_file():
    path = resources.files("scorer.boards").joinpath("decks", "europe-1912.json")
    return json.loads(path.read_text(encoding="utf-8"))


def claim_all(game, player, *routes):
    for route in routes:
        game.apply(ClaimRoute(player, route))


# --- the sets and their decks ------------------------------------------------------------------


@pytest.mark.parametrize("variant", SETS)
def test_each_set_is_europe_with_stations_the_european_express_and_its_tie_break(variant):
    assert variant.board().routes is EUROPE.board().routes
    assert (variant.trains, variant.stations, variant.station_points) == (45, 3, 4)
    assert (variant.min_players, variant.max_players, variant.doubles_from_players) == (2, 5, 4)
    assert (variant.longest_bonus, variant.bonus_name) == (10, "European Express")
    assert (variant.globetrotter_bonus, variant.express_cards) == (0, False)
    assert variant.tiebreak == ("tickets", "stations", "longest")
    assert VARIANTS[variant.name] is variant


@pytest.mark.parametrize(
    ("variant", "tickets", "long", "points_total"),
    [(EUROPE_1912_EXTENDED, 65, 6, 607), (EUROPE_1912_MEGA, 101, 12, 1087),
     (EUROPE_1912_BIG_CITIES, 45, 0, 502)],
)
def test_each_set_plays_with_its_own_deck(variant, tickets, long, points_total):
    deck = variant.board().tickets
    assert (len(deck), sum(t.long for t in deck), sum(t.points for t in deck)) == (
        tickets, long, points_total)


@pytest.mark.parametrize(
    ("a", "b", "europe", "extended", "mega", "big_cities"),
    [
        ("Paris", "Wien", 8, 8, 8, 8),  # an original with a big city: in every deck
        ("Amsterdam", "Pamplona", 7, 7, 7, None),  # an original without one
        ("Brest", "Petrograd", 20, 20, 20, None),  # an original long ticket
        ("Dieppe", "Marseille", None, 5, 5, None),  # new regular (Extended's 19)
        ("Lisboa", "Cadiz", None, 2, 2, None),  # the cheapest new ticket
        ("London", "Paris", None, None, 3, 3),  # new, Big Cities
        ("Paris", "Angora", None, None, 17, 17),  # 17 since the source's fix (was 13)
        ("Madrid", "Moskva", None, None, 25, 25),  # the dearest
        ("Pamplona", "Kyiv", None, None, 18, None),  # new long: Mega only
    ],
)
def test_a_ticket_is_worth_what_each_set_prints(a, b, europe, extended, mega, big_cities):
    for variant, points in ((EUROPE, europe), (EUROPE_1912_EXTENDED, extended),
                            (EUROPE_1912_MEGA, mega), (EUROPE_1912_BIG_CITIES, big_cities)):
        ticket = variant.board().ticket(a, b)
        assert (ticket and ticket.points) == points, variant.name


def test_the_deck_file_keeps_its_sources_and_the_original_tickets_are_europes():
    data = deck_file()
    assert data["board"] == "europe" and data["sources"]
    originals = {(t["a"], t["b"], t["points"]) for t in data["decks"]["base"]}
    assert originals == {(t.a, t.b, t.points) for t in EUROPE.board().tickets}


def test_big_cities_tickets_are_the_regular_mega_tickets_with_a_big_city():
    mega = EUROPE_1912_MEGA.board().tickets
    with_big = {(t.a, t.b) for t in mega if not t.long and {t.a, t.b} & BIG_CITIES}
    assert {(t.a, t.b) for t in EUROPE_1912_BIG_CITIES.board().tickets} == with_big


def test_extended_is_the_original_deck_and_the_new_regular_tickets_without_a_big_city():
    data = deck_file()
    new_regular = {(t["a"], t["b"]) for t in data["decks"]["mega"]
                   if t["origin"] == "1912" and not t["long"]}
    extended = {(t.a, t.b) for t in EUROPE_1912_EXTENDED.board().tickets}
    base = {(t.a, t.b) for t in EUROPE.board().tickets}
    assert {frozenset(p) for p in base} <= {frozenset(p) for p in extended}
    added = {frozenset(p) for p in extended} - {frozenset(p) for p in base}
    assert added == {frozenset(p) for p in new_regular if not set(p) & BIG_CITIES}
    assert len(added) == 19


@pytest.mark.parametrize(
    ("variant", "a", "b"),
    [("europe-1912-extended", "London", "Paris"), ("europe-1912-big-cities", "Brest",
                                                     "Petrograd"),
     ("europe", "Dieppe", "Marseille")],
)
def test_a_ticket_of_another_deck_is_only_a_custom_ticket(make_game, variant, a, b):
    game = make_game(variant)
    with pytest.raises(IllegalMove, match="not a ticket of the .* deck: give its points"):
        game.apply(AddTicket("Ann", a, b))
    game.apply(AddTicket("Ann", a, b, 9))
    (held,) = game.tickets
    assert (held.points, held.in_deck) == (9, False)


# --- a worked example of each set, counted by hand ---------------------------------------------


def test_extended_worked_example_with_a_station_and_a_long_ticket(make_game):
    """Ann: Dieppe–Paris 1 (1), Paris–Zürich 3 (4), Marseille–Zürich 2 (2), München–Zürich 2 (2),
    München–Venezia 2 (2), Amsterdam–Frankfurt 2 (2): 13 points, 12 trains. Her station in
    München borrows Bob's Frankfurt–München, so Amsterdam–Venezia 6 (new) is done with
    Amsterdam–Frankfurt; Dieppe–Marseille 5 (new) done; Brest–Petrograd 20 (long) failed:
    +6 +5 −20 = −9. Two stations left: +8. Longest Dieppe–Paris–Zürich–München–Venezia, 8.
    Ann: 13 − 9 + 8 = 12.
    Bob: Frankfurt–München 2 (2), Berlin–Frankfurt 3 (4), Berlin–Wien 3 (4), München–Wien 3 (4),
    Budapest–Wien 1 (1): 15 points, 12 trains. His station in Zürich borrows Ann's München–Zürich:
    Zürich–Budapest 6 done; Warszawa–Budapest 5 (new) failed: +1. +8 for two stations left.
    Longest: Budapest–Wien, then round the loop Wien–München–Frankfurt–Berlin–Wien: 1 + 11 =
    12, the longest: +10. Bob: 15 + 1 + 8 + 10 = 34."""
    game = make_game("europe-1912-extended")
    claim_all(game, "Ann", "dieppe--paris", "paris--zurich", "marseille--zurich",
              "munchen--zurich", "munchen--venezia", "amsterdam--frankfurt")
    claim_all(game, "Bob", "frankfurt--munchen", "berlin--frankfurt", "berlin--wien",
              "munchen--wien", "budapest--wien")
    game.apply(PlaceStation("Ann", "München"))
    game.apply(PlaceStation("Bob", "Zurich"))
    for a, b in (("Amsterdam", "Venezia"), ("Dieppe", "Marseille"), ("Brest", "Petrograd")):
        game.apply(AddTicket("Ann", a, b))
    for a, b in (("Zürich", "Budapest"), ("Warszawa", "Budapest")):
        game.apply(AddTicket("Bob", a, b))
    sheet = score(game)
    ann, bob = sheet.players
    assert [(t.a, t.b, t.points, t.completed, t.helped_by) for t in ann.tickets] == [
        ("Amsterdam", "Venezia", 6, True, ("München",)), ("Dieppe", "Marseille", 5, True, ()),
        ("Brest", "Petrograd", 20, False, ())]
    assert [(b.city, b.route) for b in ann.borrowed_routes] == [("München", "frankfurt--munchen")]
    assert [(b.city, b.route) for b in bob.borrowed_routes] == [("Zürich", "munchen--zurich")]
    assert (ann.route_points, ann.ticket_points, ann.station_points, ann.path.length,
            ann.longest_bonus, ann.total) == (13, -9, 8, 8, 0, 12)
    assert (bob.route_points, bob.ticket_points, bob.station_points, bob.path.length,
            bob.longest_bonus, bob.total) == (15, 1, 8, 12, 10, 34)
    assert sheet.winners == ("Bob",) and sheet.tiebreak is None


def big_cities_game(**setup) -> Game:
    """Ann: London–Dieppe 2 (2), Dieppe–Paris 1 (1), Paris–Bruxelles 2 (2), Bruxelles–Frankfurt 2
    (2), Frankfurt–Berlin 3 (4): 11 points, a chain of 10 trains. London–Paris 3, Paris–Berlin 7,
    London–Berlin 7 done: +17; no station: +12; the longest path: +10. Ann: 11 + 17 + 12 + 10 = 50.
    Bob: Berlin–Wien 3 (4), Wien–Zagrab 2 (2), Zagrab–Venezia 2 (2), Venezia–Roma 2 (2): 10 points,
    a chain of 9. Berlin–Wien 3 and Wien–Roma 6 done, Madrid–Wien 13 failed: −4; +12.
    Bob: 10 − 4 + 12 = 18. Without the longest-path bonus Ann has 40."""
    game = Game.new("europe-1912-big-cities", [Player("Ann", "red"), Player("Bob", "blue")],
                    **setup)
    claim_all(game, "Ann", "dieppe--london", "dieppe--paris", "bruxelles--paris",
              "bruxelles--frankfurt", "berlin--frankfurt")
    claim_all(game, "Bob", "berlin--wien", "wien--zagrab", "venezia--zagrab", "roma--venezia")
    for a, b in (("London", "Paris"), ("Paris", "Berlin"), ("London", "Berlin")):
        game.apply(AddTicket("Ann", a, b))
    for a, b in (("Berlin", "Wien"), ("Wien", "Roma"), ("Madrid", "Wien")):
        game.apply(AddTicket("Bob", a, b))
    return game


def test_big_cities_worked_example_keeps_the_european_express():
    sheet = score(big_cities_game())
    ann, bob = sheet.players
    assert [t.points for t in ann.tickets + bob.tickets] == [3, 7, 7, 3, 6, 13]
    assert (ann.route_points, ann.ticket_points, ann.station_points, ann.path.length,
            ann.longest_bonus, ann.total) == (11, 17, 12, 10, 10, 50)
    assert (bob.route_points, bob.ticket_points, bob.station_points, bob.path.length,
            bob.longest_bonus, bob.total) == (10, -4, 12, 9, 0, 18)


# --- the whole Mega game ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def mega_sheet():
    return score(Game.from_json(europe_1912_game.GAME)).to_json()


def test_mega_game_has_26_different_tickets_all_from_the_mega_deck():
    tickets = europe_1912_game.TICKETS
    assert len({frozenset((a, b)) for _p, a, b, _pts, _done in tickets}) == len(tickets) == 26
    deck = EUROPE_1912_MEGA.board()
    assert all(deck.ticket(a, b).points == points for _p, a, b, points, _done in tickets)


@pytest.mark.parametrize("name", list(europe_1912_game.EXPECTED))
def test_mega_game_every_player_figure_matches_the_hand_count(mega_sheet, name):
    player = next(p for p in mega_sheet["players"] if p["name"] == name)
    got = (player["route_points"], player["trains_left"], player["ticket_points"],
           player["tickets_completed"], player["stations_placed"], player["station_points"],
           player["longest_path"]["length"], player["longest_bonus"], player["total"])
    assert got == europe_1912_game.EXPECTED[name]
    assert (player["express_bonus"], player["globetrotter_bonus"]) == (0, 0)
    borrows = {b["city"]: b["route"] for b in player["borrowed_routes"]}
    assert borrows == {c: r for c, r in europe_1912_game.BORROWS[name].items() if r}


def test_mega_game_every_ticket_has_its_deck_value_and_outcome(mega_sheet):
    got = [(p["name"], t["from"], t["to"], t["points"], t["completed"])
           for p in mega_sheet["players"] for t in p["tickets"]]
    assert sorted(got) == sorted(europe_1912_game.TICKETS)


def test_mega_game_tie_goes_to_the_fewest_stations_before_the_european_express(mega_sheet):
    assert mega_sheet["winners"] == ["Carl"]
    assert mega_sheet["tiebreak"] == europe_1912_game.TIEBREAK
    game = Game.from_json(europe_1912_game.GAME)
    assert list(score(game).ranking) == europe_1912_game.RANKING
    assert game.final_round_triggered() == ("Ann",)


# --- the setup choice "no longest-path bonus" --------------------------------------------------


def test_without_the_longest_path_bonus_nobody_scores_it_and_the_tie_is_gone():
    sheet = score(Game.from_json({**europe_1912_game.GAME, "longest_path_bonus": False}))
    assert {p.name: p.total for p in sheet.players} == europe_1912_game.TOTALS_WITHOUT_BONUS
    assert all(p.longest_bonus == 0 for p in sheet.players)
    assert sheet.player("Ann").path.length == 43  # still measured, worth nothing
    assert sheet.winners == ("Carl",) and sheet.tiebreak is None
    assert sheet.to_json()["longest_path_bonus"] is False
    assert "longest_path_bonus" not in score(Game.from_json(europe_1912_game.GAME)).to_json()


def test_big_cities_without_the_longest_path_bonus_worked_example():
    ann, bob = score(big_cities_game(longest_path_bonus=False)).players
    assert (ann.path.length, ann.longest_bonus, ann.total) == (10, 0, 40)
    assert bob.total == 18


def test_without_the_bonus_the_tie_break_skips_its_step(make_game):
    """Ann: Berlin–Frankfurt 3 (4 points, a path of 3); Bob: Barcelona–Madrid 2 and Roma–Venezia
    2 (4 points, a path of 2); no ticket, no station (+12 each). With the European Express Ann
    has 26 and Bob 16; without it both have 16, tie on tickets and stations, and share the win:
    the tie-break no longer asks who holds a card nobody could take."""
    for longest, winners, tiebreak in (
        (None, ("Ann",), None),
        (False, ("Ann", "Bob"), "Ann and Bob tie on 16 points; both completed 0 tickets; both "
                                "placed 0 stations: they share the win."),
    ):
        game = make_game("europe", longest_path_bonus=longest)
        claim_all(game, "Ann", "berlin--frankfurt")
        claim_all(game, "Bob", "barcelona--madrid", "roma--venezia")
        sheet = score(game)
        assert [p.total for p in sheet.players] == ([26, 16] if longest is None else [16, 16])
        assert sheet.winners == winners
        assert sheet.tiebreak == tiebreak


@pytest.mark.parametrize("variant", ["usa", "europe", "usa-mega"] + [v.name for v in SETS])
def test_every_set_with_a_longest_path_card_can_be_played_without_it(make_game, variant):
    game = make_game(variant, longest_path_bonus=False)
    route = "denver--santa-fe" if variant.startswith("usa") else "paris--zurich"
    game.apply(ClaimRoute("Ann", route))
    ann, _bob = score(game).players
    assert ann.path.length > 0 and ann.longest_bonus == 0
    assert "longest" not in game.variant.tiebreak
    assert game.rule_set is VARIANTS[variant] and game.variant.name == variant
    assert game.to_json()["longest_path_bonus"] is False
    assert Game.from_json(game.to_json()).to_json() == game.to_json()
    assert game.copy().to_json() == game.to_json()


def test_usa_mega_without_the_longest_path_keeps_its_globetrotter(make_game):
    game = make_game("usa-mega", longest_path_bonus=False)
    game.apply(ClaimRoute("Ann", "calgary--helena"))
    game.apply(AddTicket("Ann", "Calgary", "Helena", 1))
    ann, _bob = score(game).players
    assert (ann.longest_bonus, ann.globetrotter_bonus, ann.total) == (0, 15, 7 + 1 + 15)
    assert game.variant.tiebreak == ("tickets", "globetrotter")


@pytest.mark.parametrize("variant", ["usa-1910", "usa-big-cities", "express"])
def test_a_set_without_the_card_takes_false_and_refuses_true(variant):
    players = [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}]
    game = Game.from_json({"variant": variant, "players": players, "longest_path_bonus": False})
    assert game.longest_path_bonus and "longest_path_bonus" not in game.to_json()
    with pytest.raises(IllegalMove) as refused:
        Game.from_json({"variant": variant, "players": players, "longest_path_bonus": True})
    assert str(refused.value) == (
        f"This game is {VARIANTS[variant].title}, a rule set without a longest-path bonus.")


@pytest.mark.parametrize("value", ["no", 0, 1, [], {}])
def test_the_field_is_true_or_false(value):
    with pytest.raises(Exception, match="'longest_path_bonus' must be true or false"):
        Game.from_json({"variant": "europe", "longest_path_bonus": value, "players": [
            {"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}]})


# --- property tests against the Europe scorer ----------------------------------------------------

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]
COLORS = ["red", "blue", "green", "yellow", "black"]
CITIES = sorted(EUROPE.board().cities)


@st.composite
def played_games(draw, variant):
    """A legal game of the set: each player's claims a walk along the board from a city of
    their own (refused claims skipped), stations on cities at or near their routes, and tickets
    drawn from the set's deck without their points, most between cities the player reached
    (by a route or a station), so that many are completed and stations matter."""
    count = draw(st.integers(2, 5))
    game = Game.new(variant, list(zip(NAMES[:count], COLORS[:count], strict=True)),
                    longest_path_bonus=draw(st.sampled_from([None, False])))
    board = game.board
    for player in NAMES[:count]:
        city = draw(st.sampled_from(CITIES))
        for step in draw(st.lists(st.integers(0, 7), max_size=14)):
            options = board.routes_at(city)
            route = options[step % len(options)]
            if game.closed_reason(route.id, player) is None:
                game.apply(ClaimRoute(player, route.id))
            city = route.other_end(city)
    for player in NAMES[:count]:
        # Mostly where an opponent's route touches the player's network: there a station helps.
        own = {c for r in game.routes_of(player) for c in (r.a, r.b)}
        near = sorted({c for r in board.routes.values() if game.owner(r.id) not in (None, player)
                       and {r.a, r.b} & own for c in (r.a, r.b)}) or CITIES
        for city in draw(st.lists(st.sampled_from(near) | st.sampled_from(CITIES), max_size=3)):
            if game.station_at(city) is None and len(game.stations_of(player)) < 3:
                game.apply(PlaceStation(player, city))
    deck = board.tickets
    taken: set[int] = set()
    for player in NAMES[:count]:
        reached = {c for r in game.routes_of(player) for c in (r.a, r.b)}
        reached |= {c for s in game.stations_of(player) for r in board.routes_at(s)
                    if game.owner(r.id) not in (None, player) for c in (r.a, r.b)}
        near = [i for i, t in enumerate(deck) if {t.a, t.b} <= reached] or [0]
        picks = (draw(st.lists(st.sampled_from(near), max_size=4))
                 + draw(st.lists(st.integers(0, len(deck) - 1), max_size=2)))
        for index in dict.fromkeys(picks):
            if index not in taken:
                taken.add(index)
                game.apply(AddTicket(player, deck[index].a, deck[index].b))
    return game


def as_europe(game: Game) -> Game:
    """The same game as a plain Europe game, every ticket given with its points."""
    return Game.from_json({**game.to_json(), "variant": "europe"})


def unordered_tickets(sheet: dict) -> dict:
    """The score JSON with each ticket's two cities as a set: a reprinted card may name them in
    the other order than the original (Paris–Edinburgh, Edinburgh–Paris)."""
    players = [{**p, "tickets": [{**t, "from": None, "to": None, "cities": {t["from"], t["to"]}}
                                 for t in p["tickets"]]} for p in sheet["players"]]
    return {**sheet, "players": players}


PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                            HealthCheck.data_too_large])


@pytest.mark.parametrize("variant", SETS, ids=lambda v: v.name)
@PROPERTY
@given(data=st.data())
def test_a_1912_game_scores_as_the_same_europe_game_with_its_tickets_values(variant, data):
    game = data.draw(played_games(variant))
    sheet, europe = score(game).to_json(), score(as_europe(game)).to_json()
    assert sheet["variant"] == variant.name and europe["variant"] == "europe"
    assert unordered_tickets({**sheet, "variant": "europe"}) == unordered_tickets(europe)


@pytest.mark.parametrize("variant", SETS, ids=lambda v: v.name)
@PROPERTY
@given(data=st.data())
def test_every_ticket_takes_the_value_the_deck_file_prints(variant, data):
    game = data.draw(played_games(variant))
    printed = {frozenset((t["a"], t["b"])): t["points"]
               for t in deck_file()["decks"][variant.deck[1]]}
    for ticket in game.tickets:
        assert ticket.in_deck and ticket.points == printed[frozenset((ticket.a, ticket.b))]


@pytest.mark.parametrize("variant", SETS, ids=lambda v: v.name)
@PROPERTY
@given(data=st.data())
def test_without_the_bonus_each_total_loses_exactly_the_card_and_the_tie_break_its_step(
    variant, data
):
    game = data.draw(played_games(variant))
    without = Game.from_json({**game.to_json(), "longest_path_bonus": False})
    with_card = Game.from_json({**game.to_json(), "longest_path_bonus": None})
    sheet, plain = score(without), score(with_card)
    longest = max(p.path.length for p in plain.players)
    for p, q in zip(sheet.players, plain.players, strict=True):
        assert q.longest_bonus == (10 if 0 < longest == q.path.length else 0)
        assert p.longest_bonus == 0 and p.total == q.total - q.longest_bonus
        assert (p.route_points, p.ticket_points, p.station_points, p.path.length) == (
            q.route_points, q.ticket_points, q.station_points, q.path.length)
    # Winners, by the Europe order without the card: points, tickets, fewest stations.
    best = max((p.total, p.tickets_completed, -p.stations_placed) for p in sheet.players)
    assert set(sheet.winners) == {p.name for p in sheet.players
                                  if (p.total, p.tickets_completed, -p.stations_placed) == best}
