"""The USA 1910 rule sets: their decks, the Globetrotter, Big Cities, and a whole Mega Game."""

import json
from importlib import resources

import pytest

from scorer.errors import IllegalMove
from scorer.game import AddTicket, ClaimRoute, Game
from scorer.rules import USA, USA_1910, USA_BIG_CITIES, USA_MEGA
from scorer.scoring import score
from tests.core import mega_game


def deck_file():
    path = resources.files("scorer.boards").joinpath("decks", "usa-1910.json")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("variant", "tickets", "points_total"),
    [(USA_1910, 35, 391), (USA_MEGA, 69, 754), (USA_BIG_CITIES, 35, 389)],
)
def test_each_set_plays_with_its_own_deck(variant, tickets, points_total):
    deck = variant.board().tickets
    assert (len(deck), sum(t.points for t in deck)) == (tickets, points_total)


@pytest.mark.parametrize(
    ("a", "b", "usa", "usa_1910", "mega", "big_cities"),
    [
        ("Seattle", "New York", 22, None, 20, 20),  # reprint, lowered by 2
        ("Los Angeles", "Miami", 20, None, 19, 19),
        ("Los Angeles", "New York", 21, None, 20, 20),
        ("Sault St. Marie", "Oklahoma City", 9, None, 8, None),
        ("Denver", "El Paso", 4, None, 4, None),  # reprint, same value, no big city
        ("Chicago", "Boston", None, 7, 7, 7),  # new in 1910
        ("Washington", "Atlanta", None, 4, 4, None),
        ("Las Vegas", "Miami", None, 21, 21, 21),
        ("Vancouver", "Portland", None, None, 2, None),  # Mystery Train
        ("Montréal", "Chicago", None, None, 7, 7),  # the Mystery Train ticket of Big Cities
    ],
)
def test_a_ticket_is_worth_what_each_set_prints(a, b, usa, usa_1910, mega, big_cities):
    for variant, points in ((USA, usa), (USA_1910, usa_1910), (USA_MEGA, mega),
                            (USA_BIG_CITIES, big_cities)):
        ticket = variant.board().ticket(a, b)
        assert (ticket and ticket.points) == points, variant.name


def test_the_revised_reprints_of_the_deck_file_are_in_the_mega_deck_and_not_the_classic():
    revised = deck_file()["revised_base_tickets"]
    assert len(revised) == 4
    for t in revised:
        assert USA.board().ticket(t["a"], t["b"]).points == t["base_points"]
        assert USA_MEGA.board().ticket(t["a"], t["b"]).points == t["points"]


def test_big_cities_tickets_all_touch_a_big_city():
    big = {"Chicago", "Dallas", "Houston", "Los Angeles", "Miami", "New York", "Seattle"}
    assert all({t.a, t.b} & big for t in USA_BIG_CITIES.board().tickets)
    mega_with_big = [t for t in USA_MEGA.board().tickets if {t.a, t.b} & big]
    assert len(mega_with_big) == len(USA_BIG_CITIES.board().tickets)


def test_a_base_ticket_in_usa_1910_is_only_a_custom_ticket(make_game):
    game = make_game("usa-1910")
    with pytest.raises(IllegalMove, match="not a ticket of the USA 1910 deck: give its points"):
        game.apply(AddTicket("Ann", "Seattle", "New York"))
    assert game.tickets == ()
    game.apply(AddTicket("Ann", "Seattle", "New York", 22))
    (held,) = game.tickets
    assert (held.points, held.in_deck) == (22, False)


def test_a_ticket_named_in_the_set_deck_takes_the_set_value(make_game):
    game = make_game("usa-mega")
    game.apply(AddTicket("Ann", "new york", "SEATTLE"))
    (held,) = game.tickets
    assert (held.a, held.b, held.points, held.in_deck) == ("Seattle", "New York", 20, True)


def claim_and_ticket(game, player, route, points=1):
    """The player claims the route and holds a ticket between its two ends (completed)."""
    game.apply(ClaimRoute(player, route))
    lane = game.board.routes[route]
    game.apply(AddTicket(player, lane.a, lane.b, points))


@pytest.mark.parametrize(
    ("completed", "globetrotter"),
    [
        ((1, 1, 0), (15, 15, 0)),  # a tie: both get it
        ((2, 1, 0), (15, 0, 0)),
        ((1, 2, 2), (0, 15, 15)),
        ((0, 0, 0), (0, 0, 0)),  # nobody completed a ticket: nobody gets it
    ],
)
def test_globetrotter_goes_to_every_player_with_the_most_completed_tickets(
    make_game, completed, globetrotter
):
    game = make_game("usa-1910", 3)
    routes = iter(["denver--santa-fe", "atlanta--charleston", "dallas--houston",
                   "duluth--omaha", "kansas-city--omaha", "nashville--saint-louis"])
    for player, n in zip(("Ann", "Bob", "Cat"), completed, strict=True):
        game.apply(AddTicket(player, "Miami", "Seattle", 3))  # missed by everyone
        for _ in range(n):
            claim_and_ticket(game, player, next(routes))
    sheet = score(game)
    assert tuple(p.globetrotter_bonus for p in sheet.players) == globetrotter
    assert all(p.longest_bonus == 0 for p in sheet.players)  # no longest-path card in 1910
    for p, bonus in zip(sheet.players, globetrotter, strict=True):
        assert p.total == p.route_points + p.ticket_points + bonus
        assert p.to_json()["globetrotter_bonus"] == bonus


def test_mega_game_gives_both_bonus_cards(make_game):
    game = make_game("usa-mega")
    claim_and_ticket(game, "Ann", "calgary--helena")
    game.apply(ClaimRoute("Bob", "denver--santa-fe"))
    ann, bob = score(game).players
    assert (ann.longest_bonus, ann.globetrotter_bonus, bob.longest_bonus) == (10, 15, 0)
    assert ann.total == 7 + 1 + 10 + 15


def test_big_cities_has_no_bonus_card_at_all(make_game):
    game = make_game("usa-big-cities")
    claim_and_ticket(game, "Ann", "calgary--helena")
    ann, bob = score(game).players
    assert ann.path.length == 4 and ann.tickets_completed == 1
    assert (ann.longest_bonus, ann.globetrotter_bonus, ann.express_bonus) == (0, 0, 0)
    assert ann.total == 7 + 1


def test_every_variant_reports_a_globetrotter_bonus_of_0_without_the_card(make_game):
    for variant in ("usa", "europe", "express", "usa-big-cities"):
        game = make_game(variant)
        data = score(game).to_json()
        assert [p["globetrotter_bonus"] for p in data["players"]] == [0, 0]


def test_usa_1910_tie_on_points_and_tickets_is_shared_by_the_globetrotters(make_game):
    game = make_game("usa-1910")
    claim_and_ticket(game, "Ann", "denver--santa-fe", 3)  # 2 + 3 + 15
    claim_and_ticket(game, "Bob", "atlanta--charleston", 3)
    sheet = score(game)
    assert [p.total for p in sheet.players] == [20, 20]
    assert sheet.winners == ("Ann", "Bob")
    assert sheet.tiebreak == ("Ann and Bob tie on 20 points; both completed 1 ticket; "
                              "both hold the Globetrotter bonus: they share the win.")


# --- the whole Mega Game ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def mega_sheet():
    return score(Game.from_json(mega_game.GAME)).to_json()


def test_mega_game_has_31_tickets_from_the_deck():
    assert len(mega_game.TICKETS) == 31
    assert len({frozenset((a, b)) for _p, a, b, _pts, _done in mega_game.TICKETS}) == 31


@pytest.mark.parametrize("name", list(mega_game.EXPECTED))
def test_mega_game_every_player_figure_matches_the_hand_count(mega_sheet, name):
    player = next(p for p in mega_sheet["players"] if p["name"] == name)
    got = (player["route_points"], player["trains_left"], player["ticket_points"],
           player["tickets_completed"], player["longest_path"]["length"],
           player["longest_bonus"], player["globetrotter_bonus"], player["total"])
    assert got == mega_game.EXPECTED[name]
    assert player["express_bonus"] == 0


def test_mega_game_every_ticket_has_its_deck_value_and_outcome(mega_sheet):
    got = [(p["name"], t["from"], t["to"], t["points"], t["completed"])
           for p in mega_sheet["players"] for t in p["tickets"]]
    assert sorted(got) == sorted(mega_game.TICKETS)


def test_mega_game_tie_goes_to_the_longest_path_holder(mega_sheet):
    assert mega_sheet["winners"] == ["Ann"]
    assert mega_sheet["tiebreak"] == mega_game.TIEBREAK
    assert "express_order" not in mega_sheet


@pytest.mark.parametrize("variant", ["usa", "usa-1910", "usa-mega", "express"])
def test_a_station_in_a_set_without_stations_is_refused_naming_that_set(variant):
    city = "Denver" if variant.startswith("usa") else "Paris"
    with pytest.raises(IllegalMove) as refused:
        Game.from_json({"variant": variant, "players": [{"name": "Ann", "color": "red"},
                                                       {"name": "Bob", "color": "blue"}],
                        "stations": [{"player": "Ann", "city": city}]})
    title = {"usa": "USA", "usa-1910": "USA 1910", "usa-mega": "USA 1910 Mega Game",
             "express": "Express"}[variant]
    assert str(refused.value) == f"This game is {title}, a rule set without stations."
