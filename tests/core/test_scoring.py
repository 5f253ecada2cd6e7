import pytest

from scorer.game import AddTicket, ClaimRoute, Game, PlaceStation, Player, SetExpressOrder
from scorer.scoring import route_groups, score, score_track

LONDON_ISTANBUL = ("dieppe--london", "dieppe--paris", "marseille--paris", "marseille--roma",
                   "brindisi--roma", "athina--brindisi", "athina--smyrna",
                   "constantinople--smyrna")  # 21 trains


def claim_all(game, player, *routes):
    for route in routes:
        game.apply(ClaimRoute(player, route))


def test_usa_worked_example_figure_eight_is_23_trains(make_game):
    game = make_game("usa")
    claim_all(game, "Ann", "helena--seattle", "portland--seattle", "portland--salt-lake-city",
              "helena--salt-lake-city", "denver--helena", "denver--salt-lake-city")
    ann = score(game).player("Ann")
    assert ann.path.length == 23
    assert {ann.path.cities[0], ann.path.cities[-1]} == {"Helena", "Salt Lake City"}
    assert ann.longest_bonus == 10
    assert ann.route_points == 15 + 1 + 15 + 4 + 7 + 4


def test_europe_worked_example_station_borrows_one_opponent_route(make_game):
    game = make_game("europe")
    claim_all(game, "Ann", "paris--zurich", "munchen--wien")
    game.apply(ClaimRoute("Bob", "munchen--zurich"))
    game.apply(PlaceStation("Ann", "Zürich"))
    game.apply(AddTicket("Ann", "Paris", "Wien"))
    ann = score(game).player("Ann")
    assert [(t.a, t.b, t.points, t.completed, t.helped_by) for t in ann.tickets] == [
        ("Paris", "Wien", 8, True, ("Zürich",))]
    assert [(b.city, b.route) for b in ann.borrowed_routes] == [("Zürich", "munchen--zurich")]
    assert ann.station_points == 8
    data = ann.to_json()
    assert data["ticket_points"] == 8 and data["stations_placed"] == 1


def test_without_the_station_the_ticket_is_lost(make_game):
    game = make_game("europe")
    claim_all(game, "Ann", "paris--zurich", "munchen--wien")
    game.apply(ClaimRoute("Bob", "munchen--zurich"))
    game.apply(AddTicket("Ann", "Paris", "Wien"))
    ann = score(game).player("Ann")
    assert ann.ticket_points == -8 and ann.station_points == 12 and not ann.borrowed_routes


def test_a_station_borrows_exactly_one_route(make_game):
    # Ann needs two of Bob's routes through Zürich: one station cannot give both.
    game = make_game("europe")
    game.apply(ClaimRoute("Ann", "munchen--wien"))
    claim_all(game, "Bob", "paris--zurich", "munchen--zurich")
    game.apply(PlaceStation("Ann", "Zürich"))
    game.apply(AddTicket("Ann", "Paris", "Wien"))
    assert score(game).player("Ann").ticket_points == -8


def test_stations_choose_the_routes_that_maximise_the_ticket_total(make_game):
    # The station in Zürich can complete Paris-Wien (8) through München or a 5-point
    # custom ticket Marseille-Venezia... only one of them: it must pick the 8.
    game = make_game("europe")
    claim_all(game, "Ann", "paris--zurich", "munchen--wien", "marseille--paris")
    claim_all(game, "Bob", "munchen--zurich", "venezia--zurich")
    game.apply(PlaceStation("Ann", "Zürich"))
    game.apply(AddTicket("Ann", "Paris", "Wien"))
    game.apply(AddTicket("Ann", "Marseille", "Venezia", 5))
    ann = score(game).player("Ann")
    assert ann.ticket_points == 8 - 5
    assert [b.route for b in ann.borrowed_routes] == ["munchen--zurich"]


def test_two_stations_each_borrow_a_route(make_game):
    game = make_game("europe")
    claim_all(game, "Ann", "paris--zurich", "budapest--wien")
    claim_all(game, "Bob", "munchen--zurich", "munchen--wien")
    game.apply(PlaceStation("Ann", "Zürich"))
    game.apply(PlaceStation("Ann", "Wien"))
    game.apply(AddTicket("Ann", "Paris", "Budapest", 9))
    ann = score(game).player("Ann")
    assert ann.tickets[0].completed and len(ann.borrowed_routes) == 2
    assert ann.station_points == 4


def test_stations_never_count_for_the_longest_path(make_game):
    game = make_game("europe")
    claim_all(game, "Ann", "paris--zurich", "munchen--wien")
    game.apply(ClaimRoute("Bob", "munchen--zurich"))
    game.apply(PlaceStation("Ann", "Zürich"))
    assert score(game).player("Ann").path.length == 3


def test_longest_bonus_is_shared_on_a_tie(make_game):
    game = make_game("usa", 3)
    game.apply(ClaimRoute("Ann", "helena--seattle"))
    game.apply(ClaimRoute("Bob", "portland--salt-lake-city"))
    game.apply(ClaimRoute("Cat", "denver--helena"))
    sheet = score(game)
    assert [p.longest_bonus for p in sheet.players] == [10, 10, 0]


def test_a_player_with_no_route_gets_no_longest_bonus(make_game):
    sheet = score(make_game("usa"))
    assert [p.longest_bonus for p in sheet.players] == [0, 0]
    assert [p.total for p in sheet.players] == [0, 0]


def test_express_has_no_longest_bonus(make_game):
    game = make_game("express")
    game.apply(ClaimRoute("Ann", "edinburgh--london"))
    assert score(game).player("Ann").longest_bonus == 0


def test_express_cards_follow_the_order_of_first_connection(make_game):
    game = make_game("express", 3)
    claim_all(game, "Bob", *LONDON_ISTANBUL[:-1])
    # Ann connects through another way first.
    claim_all(game, "Ann", "edinburgh--london", "amsterdam--london", "amsterdam--essen")
    claim_all(game, "Cat", "budapest--wien")
    game.apply(ClaimRoute("Bob", LONDON_ISTANBUL[-1]))
    sheet = score(game)
    assert sheet.express_order == ("Bob",)
    assert sheet.player("Bob").express_bonus == 20
    assert sheet.player("Ann").express_bonus == 0
    assert sheet.to_json()["express_order"] == ["Bob"]


def test_express_cards_follow_a_given_order_and_values():
    game = Game.new("express", [Player("Ann", "red"), Player("Bob", "blue"),
                                Player("Cat", "green")], express_bonus_values=[12, 8, 4, 2])
    claim_all(game, "Ann", *LONDON_ISTANBUL)  # Ann connects first...
    claim_all(game, "Bob", "amsterdam--london", "amsterdam--frankfurt", "frankfurt--munchen",
              "munchen--wien", "budapest--wien", "bucuresti--budapest",
              "bucuresti--constantinople")
    assert score(game).express_order == ("Ann", "Bob")
    game.apply(SetExpressOrder(("Bob", "Ann")))  # ...but the players say Bob took the top card
    sheet = score(game)
    assert (sheet.player("Bob").express_bonus, sheet.player("Ann").express_bonus) == (12, 8)


def test_totals_add_every_figure(make_game):
    game = make_game("europe")
    claim_all(game, "Ann", "paris--zurich", "munchen--wien")
    game.apply(ClaimRoute("Bob", "munchen--zurich"))
    game.apply(PlaceStation("Ann", "Zürich"))
    game.apply(AddTicket("Ann", "Paris", "Wien"))
    game.apply(AddTicket("Bob", "Wien", "Berlin", 5))
    sheet = score(game)
    ann, bob = sheet.players
    assert ann.total == 8 + 8 + 8 + 10 == 34  # routes, ticket, 2 stations left, bonus
    assert bob.total == 2 - 5 + 12 == 9  # München-Zürich is 2 long: no bonus
    assert sheet.winners == ("Ann",) and sheet.tiebreak is None


def test_score_json_has_the_fields_of_the_spec(make_game):
    game = make_game("europe")
    game.apply(ClaimRoute("Ann", "paris--zurich"))
    data = score(game).to_json()
    assert set(data) >= {"variant", "players", "winners", "tiebreak"}
    assert set(data["players"][0]) >= {
        "name", "color", "route_points", "routes", "trains_used", "trains_left", "tickets",
        "ticket_points", "tickets_completed", "stations_placed", "station_points",
        "borrowed_routes", "longest_path", "longest_bonus", "express_bonus",
        "globetrotter_bonus", "total"}
    assert data["players"][0]["longest_path"]["cities"] in (["Paris", "Zürich"],
                                                            ["Zürich", "Paris"])


# --- winners and tie-breaks ---------------------------------------------------------------


def tied_usa_game():
    """Ann and Bob both on 2 route points (one route of 2 each)."""
    game = Game.new("usa", [Player("Ann", "red"), Player("Bob", "blue"),
                            Player("Cat", "green")])
    game.apply(ClaimRoute("Ann", "denver--santa-fe"))  # 2 -> 2 points
    game.apply(ClaimRoute("Bob", "atlanta--charleston"))  # 2 -> 2 points
    game.apply(ClaimRoute("Cat", "dallas--houston"))  # 1
    return game


def test_points_tie_goes_to_most_completed_tickets():
    game = tied_usa_game()
    game.apply(AddTicket("Ann", "Denver", "Santa Fe", 3))
    game.apply(AddTicket("Bob", "Atlanta", "Charleston", 3))
    game.apply(AddTicket("Bob", "Houston", "Dallas", 1))
    game.apply(AddTicket("Ann", "Seattle", "Portland", 1))
    # Ann 2+10+3+... let both totals match: Ann 2+3-1+10=14, Bob 2+3-1+10=14
    sheet = score(game)
    assert [p.total for p in sheet.players[:2]] == [14, 14]
    assert sheet.winners == ("Ann", "Bob")
    assert sheet.tiebreak == (
        "Ann and Bob tie on 14 points; both completed 1 ticket; both hold the Longest path "
        "bonus: they share the win.")


def test_tickets_break_a_tie_on_points():
    game = tied_usa_game()
    game.apply(AddTicket("Ann", "Denver", "Santa Fe", 1))
    game.apply(AddTicket("Ann", "Seattle", "Portland", 1))
    game.apply(AddTicket("Ann", "Omaha", "Duluth", 1))
    # Ann: 2 + 1 - 1 - 1 + 10 = 11; Bob: 2 + 10 - 1 = 11 with a missed ticket
    game.apply(AddTicket("Bob", "Miami", "Boston", 1))
    sheet = score(game)
    assert [p.total for p in sheet.players[:2]] == [11, 11]
    assert sheet.winners == ("Ann",)
    assert sheet.tiebreak.startswith("Ann and Bob tie on 11 points; Ann completed the most")
    assert sheet.tiebreak.endswith(": Ann wins.")
    assert sheet.ranking[:2] == ("Ann", "Bob")


@pytest.mark.parametrize("variant", ["usa", "europe"])
def test_bonus_holder_wins_a_tie_on_points_and_tickets(variant):
    game = Game.new(variant, [Player("Ann", "red"), Player("Bob", "blue")])
    route_a, route_b = (("calgary--helena", "denver--santa-fe") if variant == "usa"
                        else ("kyiv--smolensk", "berlin--essen"))
    game.apply(ClaimRoute("Ann", route_a))
    game.apply(ClaimRoute("Bob", route_b))
    ann, bob = score(game).players
    assert ann.longest_bonus == 10 and bob.longest_bonus == 0
    # One completed ticket each, Bob's worth exactly what brings him level with Ann.
    ends = game.board.routes[route_a]
    game.apply(AddTicket("Ann", ends.a, ends.b, 1))
    ends = game.board.routes[route_b]
    game.apply(AddTicket("Bob", ends.a, ends.b, ann.total + 1 - bob.total))
    sheet = score(game)
    ann, bob = sheet.players
    assert ann.total == bob.total and ann.tickets_completed == bob.tickets_completed
    assert sheet.winners == ("Ann",)
    assert sheet.tiebreak.endswith(f"Ann holds the {game.variant.bonus_name} bonus: Ann wins.")


def test_express_tie_after_tickets_is_shared():
    game = Game.new("express", [Player("Ann", "red"), Player("Bob", "blue")])
    game.apply(ClaimRoute("Ann", "berlin--essen"))
    game.apply(ClaimRoute("Bob", "brindisi--roma"))
    sheet = score(game)
    assert sheet.winners == ("Ann", "Bob")
    assert sheet.tiebreak == (
        "Ann and Bob tie on 2 points; both completed 0 tickets: they share the win.")


def test_europe_tie_on_points_and_tickets_goes_to_the_fewest_stations_placed():
    game = Game.new("europe", [Player("Ann", "red"), Player("Bob", "blue")])
    game.apply(ClaimRoute("Ann", "berlin--essen"))  # 2 trains
    game.apply(ClaimRoute("Bob", "kyiv--smolensk"))  # longer: Bob holds the European Express
    game.apply(PlaceStation("Ann", "Paris"))
    game.apply(PlaceStation("Bob", "Roma"))
    game.apply(PlaceStation("Bob", "Madrid"))
    ann, bob = score(game).players
    assert bob.longest_bonus == 10 and ann.longest_bonus == 0
    # One completed ticket each, Ann's worth exactly what brings her level with Bob.
    game.apply(AddTicket("Bob", "Kyiv", "Smolensk", 1))
    game.apply(AddTicket("Ann", "Berlin", "Essen", bob.total + 1 - ann.total))
    sheet = score(game)
    ann, bob = sheet.players
    assert ann.total == bob.total and ann.tickets_completed == bob.tickets_completed == 1
    assert sheet.winners == ("Ann",) and sheet.ranking == ("Ann", "Bob")
    assert sheet.tiebreak == (
        f"Ann and Bob tie on {ann.total} points; both completed 1 ticket; Ann placed the "
        "fewest stations (Ann 1, Bob 2): Ann wins.")


def test_europe_tie_sentence_names_the_stations_step_when_it_decides_nothing():
    game = Game.new("europe", [Player("Ann", "red"), Player("Bob", "blue")])
    game.apply(ClaimRoute("Ann", "berlin--essen"))
    game.apply(ClaimRoute("Bob", "brindisi--roma"))
    sheet = score(game)
    assert sheet.winners == ("Ann", "Bob")
    assert sheet.tiebreak == (
        "Ann and Bob tie on 24 points; both completed 0 tickets; both placed 0 stations; "
        "both hold the European Express bonus: they share the win.")


@pytest.mark.parametrize(("total", "track"), [
    (0, (0, 0)), (99, (99, 0)), (100, (0, 1)), (137, (37, 1)), (215, (15, 2)), (-5, (95, -1)),
])
def test_the_score_track_shows_the_total_modulo_100_with_the_laps(total, track):
    assert score_track(total) == track


def test_routes_are_grouped_by_length_with_their_points(make_game):
    game = make_game("usa")
    claim_all(game, "Ann", "helena--seattle", "portland--salt-lake-city", "denver--helena",
              "portland--seattle")
    ann = score(game).player("Ann")
    assert route_groups(game, ann) == ((6, 2, 15), (4, 1, 7), (1, 1, 1))
    assert sum(n * points for _length, n, points in route_groups(game, ann)) == ann.route_points
