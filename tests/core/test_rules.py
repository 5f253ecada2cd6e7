import pytest

from scorer.errors import ScorerError, UnknownVariant
from scorer.game import Game
from scorer.rules import (
    EUROPE,
    EXPRESS,
    NORDIC,
    USA,
    USA_1910,
    USA_BIG_CITIES,
    USA_MEGA,
    VARIANTS,
    find_variant,
)

# rules.md, "Route points, by length"
RULES_TABLE = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 8: 21, 9: 27}


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=list(VARIANTS))
def test_every_route_length_of_the_board_scores_as_the_rules_table_says(variant):
    lengths = {r.length for r in variant.board().routes.values()}
    assert {n: variant.route_points(n) for n in lengths} == {n: RULES_TABLE[n] for n in lengths}


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=list(VARIANTS))
def test_a_set_refuses_one_player_fewer_or_more_than_it_is_played_by(variant):
    # six players: one more than the five piece colours (the sixth's colour is never reached)
    six = [{"name": n, "color": c} for n, c in (
        ("Ann", "red"), ("Bob", "blue"), ("Cat", "green"), ("Dan", "yellow"), ("Eve", "black"),
        ("Fay", "red"))]
    for count in (variant.min_players - 1, variant.max_players + 1):
        with pytest.raises(ScorerError, match=f"played by {variant.min_players} to "
                                              f"{variant.max_players} players, not {count}"):
            Game.from_json({"variant": variant.name, "players": six[:count]})
    most = Game.from_json({"variant": variant.name, "players": six[:variant.max_players]})
    assert len(most.players) == variant.max_players


@pytest.mark.parametrize(
    ("variant", "trains", "stations", "players", "longest", "globetrotter", "express"),
    [
        (USA, 45, 0, (2, 5), 10, 0, False),
        (EUROPE, 45, 3, (2, 5), 10, 0, False),
        (EXPRESS, 27, 0, (2, 4), 0, 0, True),
        (USA_1910, 45, 0, (2, 5), 0, 15, False),
        (USA_MEGA, 45, 0, (2, 5), 10, 15, False),
        (USA_BIG_CITIES, 45, 0, (2, 5), 0, 0, False),
        (NORDIC, 40, 0, (2, 3), 0, 10, False),
    ],
)
def test_each_variant_sets_trains_stations_players_and_bonuses(
    variant, trains, stations, players, longest, globetrotter, express
):
    assert (variant.trains, variant.stations) == (trains, stations)
    assert (variant.min_players, variant.max_players) == players
    assert (variant.longest_bonus, variant.globetrotter_bonus) == (longest, globetrotter)
    assert variant.express_cards is express


@pytest.mark.parametrize(
    ("variant", "players", "open_"),
    [
        (USA, 2, False), (USA, 3, False), (USA, 4, True), (USA, 5, True),
        (EUROPE, 3, False), (EUROPE, 4, True),
        (EXPRESS, 2, False), (EXPRESS, 3, True), (EXPRESS, 4, True),
        (NORDIC, 2, False), (NORDIC, 3, True),
    ],
)
def test_second_lane_of_a_double_is_closed_in_small_games(variant, players, open_):
    assert variant.doubles_open(players) is open_


def test_tiebreak_orders_differ_between_variants():
    assert USA.tiebreak == ("tickets", "longest")
    assert EUROPE.tiebreak == ("tickets", "stations", "longest")
    assert EXPRESS.tiebreak == ("tickets",)
    assert USA_1910.tiebreak == ("tickets", "globetrotter")
    assert USA_MEGA.tiebreak == ("tickets", "longest", "globetrotter")
    assert USA_BIG_CITIES.tiebreak == ("tickets",)
    assert NORDIC.tiebreak == ("tickets",)


def test_variants_are_found_by_name_in_any_case():
    assert find_variant(" Europe ") is EUROPE


def test_unknown_variant_names_every_variant_of_the_registry():
    with pytest.raises(UnknownVariant) as refused:
        find_variant("mars")
    *first, last = VARIANTS
    assert f"(choose {', '.join(first)} or {last})" in str(refused.value)
    assert "usa, europe, express, usa-1910" in str(refused.value)


def test_the_1910_sets_are_played_on_the_usa_board():
    for variant in (USA_1910, USA_MEGA, USA_BIG_CITIES):
        assert variant.board().routes is USA.board().routes
