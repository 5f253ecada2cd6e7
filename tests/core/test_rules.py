import pytest

from scorer.errors import UnknownVariant
from scorer.rules import EUROPE, EXPRESS, USA, find_variant


@pytest.mark.parametrize(
    ("length", "points"), [(1, 1), (2, 2), (3, 4), (4, 7), (5, 10), (6, 15), (8, 21)]
)
@pytest.mark.parametrize("variant", [USA, EUROPE, EXPRESS])
def test_route_points_follow_the_table(variant, length, points):
    assert variant.route_points(length) == points


@pytest.mark.parametrize(
    ("variant", "trains", "stations", "players", "bonus"),
    [
        (USA, 45, 0, (2, 5), "longest"),
        (EUROPE, 45, 3, (2, 5), "longest"),
        (EXPRESS, 27, 0, (2, 4), "express"),
    ],
)
def test_each_variant_sets_trains_stations_players_and_bonus(
    variant, trains, stations, players, bonus
):
    assert (variant.trains, variant.stations) == (trains, stations)
    assert (variant.min_players, variant.max_players) == players
    assert variant.bonus == bonus


@pytest.mark.parametrize(
    ("variant", "players", "open_"),
    [
        (USA, 2, False), (USA, 3, False), (USA, 4, True), (USA, 5, True),
        (EUROPE, 3, False), (EUROPE, 4, True),
        (EXPRESS, 2, False), (EXPRESS, 3, True), (EXPRESS, 4, True),
    ],
)
def test_second_lane_of_a_double_is_closed_in_small_games(variant, players, open_):
    assert variant.doubles_open(players) is open_


def test_tiebreak_orders_differ_between_variants():
    assert USA.tiebreak == ("tickets", "longest")
    assert EUROPE.tiebreak == ("tickets", "stations", "longest")
    assert EXPRESS.tiebreak == ("tickets",)


def test_variants_are_found_by_name_in_any_case():
    assert find_variant(" Europe ") is EUROPE


def test_unknown_variant_says_which_exist():
    with pytest.raises(UnknownVariant, match="usa, europe or express"):
        find_variant("mars")
