import pytest

from scorer.errors import IllegalMove, InvalidGame, ScorerError, UnknownCity, UnknownPlayer
from scorer.game import (
    AddTicket,
    ClaimRoute,
    Game,
    PlaceStation,
    Player,
    RemoveStation,
    RemoveTicket,
    SetExpressOrder,
    SetOwners,
    UnclaimRoute,
    action_from_json,
)


def claim_all(game, player, *routes):
    for route in routes:
        game.apply(ClaimRoute(player, route))


# --- setup --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "n", "ok"),
    [("usa", 1, False), ("usa", 2, True), ("usa", 5, True), ("europe", 6, False),
     ("express", 4, True), ("express", 5, False)],
)
def test_player_count_is_checked_per_variant(variant, n, ok):
    players = [Player(f"P{i}", c) for i, c in enumerate(
        ["red", "blue", "green", "yellow", "black", "red"][:n])]
    if ok:
        assert len(Game.new(variant, players).players) == n
    else:
        with pytest.raises(InvalidGame, match=f"not {n}"):
            Game.new(variant, players)


def test_two_players_with_one_name_are_refused():
    with pytest.raises(InvalidGame, match="called 'ann'"):
        Game.new("usa", [Player("Ann", "red"), Player("ann", "blue")])


def test_two_players_with_one_colour_are_refused():
    with pytest.raises(InvalidGame, match="both play red"):
        Game.new("usa", [Player("Ann", "red"), Player("Bob", "red")])


def test_a_colour_that_is_not_a_train_colour_is_refused():
    with pytest.raises(InvalidGame, match="purple"):
        Game.new("usa", [Player("Ann", "purple"), Player("Bob", "red")])


def test_a_name_that_is_not_text_is_refused():
    with pytest.raises(InvalidGame, match="not text"):
        Game.new("usa", [Player("Ann\ud800", "red"), Player("Bob", "blue")])


def test_an_empty_player_name_is_refused():
    with pytest.raises(InvalidGame, match="needs a name"):
        Game.new("usa", [Player(" ", "red"), Player("Bob", "blue")])


@pytest.mark.parametrize(
    ("values", "message"),
    [([20, 15, 10, 5, 1], "4 bonus cards"), ([5, 10, 15, 20], "descending"),
     ([20, -1], "0 to 99"), ([20, "x"], "0 to 99")],
)
def test_express_card_values_are_checked(make_game, values, message):
    with pytest.raises(InvalidGame, match=message):
        make_game("express", 2, express_bonus_values=values)


def test_express_card_values_default_to_20_15_10_5(make_game):
    assert make_game("express").express_bonus_values == (20, 15, 10, 5)


# --- claims -------------------------------------------------------------------------------


def test_a_claim_counts_the_trains_it_uses(make_game):
    game = make_game("usa")
    game.apply(ClaimRoute("Ann", "helena--seattle"))
    assert game.trains_left("Ann") == 39
    assert game.owner("helena--seattle") == "Ann"


def test_a_route_cannot_be_claimed_twice(make_game):
    game = make_game("usa", 4)
    game.apply(ClaimRoute("Ann", "helena--seattle"))
    with pytest.raises(IllegalMove, match="already claimed by Ann"):
        game.apply(ClaimRoute("Bob", "helena--seattle"))


def test_one_player_never_owns_both_lanes_of_a_double(make_game):
    game = make_game("usa", 4)
    game.apply(ClaimRoute("Ann", "denver--salt-lake-city"))
    with pytest.raises(IllegalMove, match="both lanes"):
        game.apply(ClaimRoute("Ann", "denver--salt-lake-city--2"))


@pytest.mark.parametrize(
    ("variant", "n", "open_"),
    [("usa", 2, False), ("usa", 3, False), ("usa", 4, True), ("europe", 3, False),
     ("europe", 4, True), ("express", 2, False), ("express", 3, True)],
)
def test_the_second_lane_of_a_double_closes_in_small_games(make_game, variant, n, open_):
    game = make_game(variant, n)
    first, second = ("denver--salt-lake-city", "denver--salt-lake-city--2") if (
        variant == "usa") else ("budapest--wien", "budapest--wien--2")
    game.apply(ClaimRoute("Ann", first))
    if open_:
        game.apply(ClaimRoute("Bob", second))
        assert game.owner(second) == "Bob"
    else:
        with pytest.raises(IllegalMove, match=f"With {n} players only one lane"):
            game.apply(ClaimRoute("Bob", second))


def test_a_claim_longer_than_the_trains_left_is_refused(make_game):
    game = make_game("express")
    claim_all(game, "Ann", "edinburgh--london", "amsterdam--essen", "berlin--essen",
              "berlin--danzig", "danzig--riga", "petrograd--riga")  # 4+3+2+4+3+4 = 20
    assert game.trains_left("Ann") == 7
    game.apply(ClaimRoute("Ann", "moskva--petrograd"))  # 4
    with pytest.raises(IllegalMove, match="3 trains left and cannot claim Marseille–Paris"):
        game.apply(ClaimRoute("Ann", "marseille--paris"))  # 4
    game.apply(ClaimRoute("Ann", "kyiv--smolensk"))  # 3: exactly the trains left
    assert game.trains_left("Ann") == 0


def test_a_failed_claim_changes_nothing(make_game):
    game = make_game("usa", 4)
    game.apply(ClaimRoute("Ann", "helena--seattle"))
    before = game.to_json()
    with pytest.raises(ScorerError):
        game.apply(ClaimRoute("Bob", "helena--seattle"))
    assert game.to_json() == before
    assert game.trains_left("Bob") == 45


def test_an_unknown_player_gets_a_suggestion(make_game):
    with pytest.raises(UnknownPlayer, match="Did you mean Ann"):
        make_game().apply(ClaimRoute("Anne", "helena--seattle"))


def test_player_names_match_without_case(make_game):
    game = make_game()
    game.apply(ClaimRoute("ann", "helena--seattle"))
    assert game.owner("helena--seattle") == "Ann"


def test_unclaim_gives_the_trains_back(make_game):
    game = make_game()
    game.apply(ClaimRoute("Ann", "helena--seattle"))
    game.apply(UnclaimRoute("helena--seattle"))
    assert game.owner("helena--seattle") is None and game.trains_left("Ann") == 45
    with pytest.raises(IllegalMove, match="not claimed"):
        game.apply(UnclaimRoute("helena--seattle"))


def test_final_round_triggers_at_two_trains_or_fewer(make_game):
    game = make_game("express")
    claim_all(game, "Ann", "edinburgh--london", "amsterdam--essen", "berlin--essen",
              "berlin--danzig", "danzig--riga", "petrograd--riga", "moskva--petrograd")
    assert game.trains_left("Ann") == 3 and game.final_round_triggered() == ()
    game.apply(ClaimRoute("Ann", "dieppe--london"))  # 2
    assert game.trains_left("Ann") == 1
    assert game.final_round_triggered() == ("Ann",)


def test_closed_reason_tells_who_may_not_take_a_lane(make_game):
    game = make_game("usa", 2)
    game.apply(ClaimRoute("Ann", "denver--salt-lake-city"))
    assert "only one lane" in str(game.closed_reason("denver--salt-lake-city--2", "Bob"))
    assert "both lanes" in str(game.closed_reason("denver--salt-lake-city--2", "Ann"))
    assert game.closed_reason("helena--seattle", "Bob") is None


# --- stations -----------------------------------------------------------------------------


def test_at_most_three_stations_each(make_game):
    game = make_game("europe")
    for city in ("Paris", "Wien", "Roma"):
        game.apply(PlaceStation("Ann", city))
    with pytest.raises(IllegalMove, match="all 3 stations"):
        game.apply(PlaceStation("Ann", "Berlin"))


def test_one_station_per_city_whoever_owns_it(make_game):
    game = make_game("europe")
    game.apply(PlaceStation("Ann", "Zurich"))
    with pytest.raises(IllegalMove, match="Zürich already has a station"):
        game.apply(PlaceStation("Bob", "Zürich"))


@pytest.mark.parametrize("variant", ["usa", "express"])
def test_stations_exist_only_in_europe(make_game, variant):
    with pytest.raises(IllegalMove, match="a rule set without stations"):
        make_game(variant).apply(PlaceStation("Ann", "Denver" if variant == "usa" else "Paris"))


def test_a_station_in_an_unknown_city_is_refused(make_game):
    with pytest.raises(UnknownCity, match="Parsi"):
        make_game("europe").apply(PlaceStation("Ann", "Parsi"))


def test_a_station_can_be_removed(make_game):
    game = make_game("europe")
    game.apply(PlaceStation("Ann", "Paris"))
    game.apply(RemoveStation("paris"))
    assert game.stations == ()
    with pytest.raises(IllegalMove, match="no station in Paris"):
        game.apply(RemoveStation("Paris"))


# --- tickets ------------------------------------------------------------------------------


def test_a_deck_ticket_takes_its_printed_points(make_game):
    game = make_game("usa")
    game.apply(AddTicket("Ann", "el paso", "denver"))
    (ticket,) = game.tickets
    assert (ticket.a, ticket.b, ticket.points, ticket.in_deck) == ("Denver", "El Paso", 4, True)


def test_a_ticket_outside_the_deck_needs_points(make_game):
    game = make_game("usa")
    with pytest.raises(IllegalMove, match="not a ticket of the USA deck"):
        game.apply(AddTicket("Ann", "Denver", "Omaha"))
    game.apply(AddTicket("Ann", "Denver", "Omaha", 7))
    assert game.tickets[0].points == 7 and not game.tickets[0].in_deck


@pytest.mark.parametrize("points", [0, -3])
def test_ticket_points_below_one_are_refused(make_game, points):
    with pytest.raises(IllegalMove, match="at least 1 point"):
        make_game().apply(AddTicket("Ann", "Denver", "Omaha", points))


def test_given_points_override_the_deck(make_game):
    game = make_game("usa")
    game.apply(AddTicket("Ann", "Denver", "El Paso", 6))
    assert game.tickets[0].points == 6 and not game.tickets[0].in_deck


def test_a_ticket_joins_two_different_cities(make_game):
    with pytest.raises(IllegalMove, match="two different cities"):
        make_game().apply(AddTicket("Ann", "Denver", "denver", 3))


def test_the_same_ticket_twice_is_refused_and_can_be_removed(make_game):
    game = make_game()
    game.apply(AddTicket("Ann", "Denver", "El Paso"))
    with pytest.raises(IllegalMove, match="already holds"):
        game.apply(AddTicket("Ann", "El Paso", "Denver"))
    game.apply(RemoveTicket("Ann", "El Paso", "Denver"))
    assert game.tickets == ()
    with pytest.raises(IllegalMove, match="holds no ticket"):
        game.apply(RemoveTicket("Ann", "El Paso", "Denver"))


# --- express order ------------------------------------------------------------------------

LONDON_ISTANBUL = ("dieppe--london", "dieppe--paris", "marseille--paris", "marseille--roma",
                   "brindisi--roma", "athina--brindisi", "athina--smyrna",
                   "constantinople--smyrna")


def test_an_express_order_naming_a_player_without_the_connection_is_refused(make_game):
    game = make_game("express")
    claim_all(game, "Ann", *LONDON_ISTANBUL[:3])
    with pytest.raises(IllegalMove, match="Ann has no continuous path"):
        game.apply(SetExpressOrder(("Ann",)))


def test_an_express_order_outside_express_is_refused(make_game):
    with pytest.raises(IllegalMove, match="for Express games"):
        make_game("europe").apply(SetExpressOrder(("Ann",)))


# --- actions and the game file ------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [ClaimRoute("Ann", "x--y"), UnclaimRoute("x--y"), PlaceStation("Ann", "Paris"),
     RemoveStation("Paris"), AddTicket("Ann", "A", "B", 5), AddTicket("Ann", "A", "B"),
     RemoveTicket("Ann", "A", "B"), SetExpressOrder(("Ann", "Bob")), SetExpressOrder(None),
     SetOwners((("x--y", "Ann"), ("y--z", None))),
     SetOwners((("x--y", "Ann"),), (("Paris", "Bob"), ("Wien", None)))],
)
def test_actions_round_trip_through_json(action):
    assert action_from_json(action.to_json()) == action


@pytest.mark.parametrize(
    "data",
    [{"type": "fly"}, {"type": "claim", "player": "Ann"}, {"type": "claim", "player": 3,
     "route": "a"}, {"type": "ticket", "player": "A", "a": "x", "b": "y", "points": "5"}, []],
)
def test_malformed_actions_are_refused(data):
    with pytest.raises(InvalidGame):
        action_from_json(data)


SPEC_GAME = {
    "variant": "europe",
    "players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}],
    "claims": [
        {"player": "Ann", "route": "paris--zurich"},
        {"player": "Bob", "from": "Zürich", "to": "München"},
        {"player": "Ann", "from": "berlin", "to": "frankfurt", "color": "green"},
    ],
    "stations": [{"player": "Ann", "city": "Zurich"}],
    "tickets": [
        {"player": "Ann", "from": "Paris", "to": "Wien"},
        {"player": "Bob", "from": "Wien", "to": "Berlin", "points": 5},
    ],
    "express_bonus_values": [20, 15, 10, 5],
    "express_order": ["Bob", "Ann"],
}


def test_the_spec_example_game_file_loads():
    game = Game.from_json(SPEC_GAME)
    assert [c.route for c in game.claims] == ["paris--zurich", "munchen--zurich",
                                              "berlin--frankfurt"]
    assert game.stations[0].city == "Zürich"
    assert [t.points for t in game.tickets] == [8, 5]


def test_a_game_file_round_trips():
    game = Game.from_json(SPEC_GAME)
    again = Game.from_json(game.to_json())
    assert again.to_json() == game.to_json()


def test_an_express_game_file_round_trips_with_its_order(make_game):
    game = make_game("express", express_bonus_values=[12, 9, 6, 3])
    claim_all(game, "Bob", *LONDON_ISTANBUL)
    game.apply(SetExpressOrder(("Bob",)))
    data = game.to_json()
    assert data["express_order"] == ["Bob"] and data["express_bonus_values"] == [12, 9, 6, 3]
    assert Game.from_json(data).to_json() == data


def test_a_claim_by_cities_takes_the_first_free_lane():
    data = {"variant": "usa", "players": [{"name": "A", "color": "red"},
                                         {"name": "B", "color": "blue"},
                                         {"name": "C", "color": "green"},
                                         {"name": "D", "color": "black"}],
            "claims": [{"player": "A", "from": "Denver", "to": "Salt Lake City"},
                       {"player": "B", "from": "Salt Lake City", "to": "Denver"}]}
    game = Game.from_json(data)
    assert [c.route for c in game.claims] == ["denver--salt-lake-city",
                                              "denver--salt-lake-city--2"]


def test_a_colour_no_lane_has_still_takes_the_route_by_its_cities():
    data = {"variant": "europe", "players": [{"name": "A", "color": "red"},
                                            {"name": "B", "color": "blue"}],
            "claims": [{"player": "A", "from": "Berlin", "to": "Frankfurt", "color": "green"}]}
    assert Game.from_json(data).claims[0].route == "berlin--frankfurt"


def test_a_claim_by_colour_picks_that_lane():
    data = {"variant": "usa", "players": [{"name": "A", "color": "red"},
                                         {"name": "B", "color": "blue"}],
            "claims": [{"player": "A", "from": "Denver", "to": "Salt Lake City",
                        "color": "yellow"}]}
    assert Game.from_json(data).claims[0].route == "denver--salt-lake-city--2"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"variant": "mars"}, "Unknown variant"),
        ({"players": "Ann"}, "'players' must be a list"),
        ({"players": [{"name": "Ann"}, {"name": "Bob", "color": "blue"}]}, "'color'"),
        ({"claims": [{"player": "Ann", "route": "paris--zurch"}]}, "paris--zurch"),
        ({"claims": [{"player": "Zed", "route": "paris--zurich"}]}, "Unknown player 'Zed'"),
        ({"claims": [{"player": "Ann", "from": "Paris", "to": "Wien"}]}, "No route joins"),
        ({"claims": [{"player": "Ann", "from": "Paris", "to": "Zurich", "color": "purple"}]},
         "'purple' is not a route colour"),
        ({"claims": [{"player": "Ann", "from": "Gotham", "to": "Wien"}]}, "Gotham"),
        ({"stations": [{"player": "Ann", "city": "Atlantis"}]}, "Atlantis"),
        ({"tickets": [{"player": "Ann", "from": "Paris", "to": "Roma"}]}, "not a ticket"),
        ({"tickets": [{"player": "Ann", "from": "Paris", "to": "Roma", "points": 0}]},
         "at least 1"),
        ({"tickets": [{"player": "Ann", "from": "Paris", "to": "Roma", "points": 2.5}]},
         "whole number"),
        ({"claims": [1]}, "must be an object"),
    ],
)
def test_each_problem_in_a_game_file_is_named(change, message):
    with pytest.raises(ScorerError, match=message):
        Game.from_json({**SPEC_GAME, **change})


def test_stations_in_a_usa_game_file_are_refused():
    data = {"variant": "usa", "players": SPEC_GAME["players"],
            "stations": [{"player": "Ann", "city": "Denver"}]}
    with pytest.raises(IllegalMove, match="a rule set without stations"):
        Game.from_json(data)


def test_a_game_file_that_is_not_an_object_is_refused():
    with pytest.raises(InvalidGame, match="JSON object"):
        Game.from_json([1, 2])


def test_copy_is_independent(make_game):
    game = make_game()
    clone = game.copy()
    clone.apply(ClaimRoute("Ann", "helena--seattle"))
    assert game.owner("helena--seattle") is None


def test_set_owners_moves_several_lanes_in_one_step(make_game):
    game = make_game("usa", 4)
    claim_all(game, "Ann", "helena--seattle", "portland--seattle")
    game.apply(SetOwners((("helena--seattle", "Bob"), ("portland--seattle", None),
                          ("denver--helena", "ann"), ("calgary--helena", None))))
    assert game.owner("helena--seattle") == "Bob"
    assert game.owner("portland--seattle") is None
    assert game.owner("denver--helena") == "Ann"
    assert (game.trains_left("Ann"), game.trains_left("Bob")) == (41, 39)


def test_set_owners_applies_all_or_nothing(make_game):
    game = make_game("usa", 2)
    game.apply(ClaimRoute("Ann", "helena--seattle"))
    before = game.to_json()
    with pytest.raises(IllegalMove, match="only one lane"):
        game.apply(SetOwners((("helena--seattle", None),
                              ("denver--salt-lake-city", "Ann"),
                              ("denver--salt-lake-city--2", "Bob"))))
    assert game.to_json() == before


def test_set_owners_refuses_malformed_changes():
    with pytest.raises(InvalidGame, match="pair"):
        action_from_json({"type": "owners", "changes": [["a--b"]]})


def test_set_owners_moves_stations_too(make_game):
    game = make_game("europe")
    game.apply(PlaceStation("Ann", "Paris"))
    game.apply(SetOwners((("paris--zurich", "Bob"),), (("Paris", None), ("Wien", "Ann"),
                                                         ("Roma", "Bob"))))
    assert {(s.player, s.city) for s in game.stations} == {("Ann", "Wien"), ("Bob", "Roma")}
    assert game.owner("paris--zurich") == "Bob"


def test_a_lane_released_and_claimed_again_by_its_owner_keeps_its_place_in_time():
    game = Game.new("europe", [Player("Ann", "red"), Player("Bob", "blue")])
    game.apply(ClaimRoute("Ann", "paris--zurich"))
    game.apply(ClaimRoute("Bob", "berlin--essen"))
    game.apply(UnclaimRoute("paris--zurich"))
    game.apply(ClaimRoute("Ann", "paris--zurich"))
    assert [(c.player, c.route) for c in game.claims] == [
        ("Ann", "paris--zurich"), ("Bob", "berlin--essen")]
    # Claimed by someone else it is a new claim, at the end; so is Ann's claim after that.
    game.apply(UnclaimRoute("paris--zurich"))
    game.apply(ClaimRoute("Bob", "paris--zurich"))
    game.apply(UnclaimRoute("paris--zurich"))
    game.apply(ClaimRoute("Ann", "paris--zurich"))
    assert [c.route for c in game.claims] == ["berlin--essen", "paris--zurich"]
