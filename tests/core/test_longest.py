"""Longest continuous path: named cases from the rules, boards, and a brute-force oracle."""

from __future__ import annotations

import time
from collections import Counter
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import longest
from scorer.boards import load_board
from scorer.longest import LongestPath, longest_path

CITIES = "ABCDEF"


def brute_force_length(edges) -> int:
    """The oracle: every trail, by exhaustive edge-DFS from every city."""
    edges = list(edges)
    adjacency: dict[str, list[int]] = {}
    for i, (a, b, *_) in enumerate(edges):
        adjacency.setdefault(a, []).append(i)
        if b != a:
            adjacency.setdefault(b, []).append(i)

    def walk(city: str, used: int) -> int:
        best = 0
        for i in adjacency[city]:
            if not used >> i & 1:
                a, b, length = edges[i][:3]
                best = max(best, length + walk(b if city == a else a, used | 1 << i))
        return best

    return max((walk(city, 0) for city in adjacency), default=0)


def assert_valid_trail(edges, result: LongestPath) -> None:
    """The cities and keys describe one trail over distinct routes, adding up to .length."""
    by_key = {(e[3] if len(e) == 4 else i): e for i, e in enumerate(edges)}
    assert len(set(result.keys)) == len(result.keys)
    if not result.keys:
        assert result.cities == () and result.length == 0
        return
    assert len(result.cities) == len(result.keys) + 1
    total = 0
    for step, key in enumerate(result.keys):
        a, b, length = by_key[key][:3]
        assert {result.cities[step], result.cities[step + 1]} == {a, b}
        total += length
    assert total == result.length


def route_lists():
    edge = st.tuples(
        st.sampled_from(CITIES), st.sampled_from(CITIES), st.integers(min_value=1, max_value=8)
    )
    return st.lists(edge, max_size=9)


# The module picks a strategy by network shape; the oracle checks each one on every case:
# the depth-first search, the branch and bound with the subset matching, and with the
# networkx blossom matching.
STRATEGIES = {
    "chosen by shape": {},
    "branch and bound": {"_WALK_MAX_BLOCK": -1},
    "branch and bound with blossom": {"_WALK_MAX_BLOCK": -1, "_SUBSET_MATCHING_MAX": 0},
}


def longest_path_with(strategy: str, edges) -> LongestPath:
    if not STRATEGIES[strategy]:
        return longest_path(edges)
    with mock.patch.multiple(longest, **STRATEGIES[strategy]):
        return longest_path(edges)


@pytest.mark.parametrize("strategy", STRATEGIES)
@settings(deadline=None, max_examples=200)
@given(edges=route_lists())
def test_length_matches_the_brute_force_oracle_on_small_multigraphs(strategy, edges):
    result = longest_path_with(strategy, edges)
    assert result.length == brute_force_length(edges)
    assert_valid_trail(edges, result)


@pytest.mark.parametrize("strategy", STRATEGIES)
@settings(deadline=None, max_examples=40)
@given(
    # At most two lanes between two cities, as on the boards: a dozen parallel routes
    # would only make the oracle crawl.
    edges=st.lists(
        st.tuples(
            st.sampled_from("ABCDEFGH"),
            st.sampled_from("ABCDEFGH"),
            st.integers(1, 6),
            st.sampled_from((0, 1)),
        ),
        min_size=10,
        max_size=12,
        unique_by=lambda e: (min(e[:2]), max(e[:2]), e[3]),
    ).map(lambda lanes: [lane[:3] for lane in lanes])
)
def test_larger_cycle_rich_networks_match_the_oracle(strategy, edges):
    result = longest_path_with(strategy, edges)
    assert result.length == brute_force_length(edges)
    assert_valid_trail(edges, result)


@settings(deadline=None, max_examples=100)
@given(route_lists())
def test_the_same_routes_always_give_the_same_path(edges):
    assert longest_path(edges) == longest_path(list(edges))


def test_no_route_gives_an_empty_path():
    assert longest_path([]) == LongestPath(0, (), ())


def test_a_single_route_is_the_whole_path():
    result = longest_path([("Paris", "Zürich", 3, "paris--zurich")])
    assert result.length == 3
    assert set(result.cities) == {"Paris", "Zürich"}
    assert result.keys == ("paris--zurich",)


def test_keys_default_to_the_index_of_each_route():
    result = longest_path([("A", "B", 1), ("C", "D", 5)])
    assert result.keys == (1,)
    assert result.length == 5


def test_a_figure_eight_counts_both_loops():
    edges = [
        ("X", "A", 1),
        ("A", "B", 2),
        ("B", "X", 3),
        ("X", "C", 4),
        ("C", "D", 5),
        ("D", "X", 6),
    ]
    result = longest_path(edges)
    assert result.length == 21
    assert_valid_trail(edges, result)


def test_a_theta_graph_uses_every_route_between_its_two_hubs():
    edges = [("N", "S", 2), ("N", "M", 3), ("M", "S", 3), ("N", "W", 1), ("W", "S", 1)]
    result = longest_path(edges)
    assert result.length == 10
    assert {result.cities[0], result.cities[-1]} == {"N", "S"}
    assert_valid_trail(edges, result)


def test_a_double_route_used_as_a_loop_counts_both_lanes():
    edges = [("A", "B", 4, "a--b-1"), ("A", "B", 4, "a--b-2"), ("B", "C", 2, "b--c")]
    result = longest_path(edges)
    assert result.length == 10
    assert sorted(result.keys) == ["a--b-1", "a--b-2", "b--c"]


def test_a_disconnected_network_gives_its_longest_piece():
    edges = [("A", "B", 2), ("B", "C", 2), ("P", "Q", 6), ("Q", "R", 1), ("R", "S", 1)]
    result = longest_path(edges)
    assert result.length == 8
    assert set(result.cities) == {"P", "Q", "R", "S"}


def test_a_star_has_no_branches_only_its_two_longest_arms():
    edges = [("H", "A", 5), ("H", "B", 4), ("H", "C", 3), ("H", "D", 6)]
    assert longest_path(edges).length == 11


def test_the_rules_worked_example_is_the_whole_figure_eight():
    board = load_board("usa")
    owned = [
        ("Helena", "Seattle"),
        ("Seattle", "Portland"),
        ("Portland", "Salt Lake City"),
        ("Salt Lake City", "Helena"),
        ("Helena", "Denver"),
        ("Denver", "Salt Lake City"),
    ]
    routes = [board.lanes(board.city(a), board.city(b))[0] for a, b in owned]
    assert [r.length for r in routes] == [6, 1, 6, 3, 4, 3]
    result = longest_path([(r.a, r.b, r.length, r.id) for r in routes])
    assert result.length == 23
    assert {result.cities[0], result.cities[-1]} == {"Helena", "Salt Lake City"}
    assert Counter(result.cities)["Helena"] == 2


@pytest.mark.parametrize(("name", "expected"), [("usa", 285), ("europe", 269)])
def test_a_whole_board_owned_by_one_player_is_solved_exactly_and_fast(name, expected):
    board = load_board(name)
    edges = [(r.a, r.b, r.length, r.id) for r in board.routes.values()]
    started = time.perf_counter()
    result = longest_path(edges)
    assert time.perf_counter() - started < 2
    assert result.length == expected
    assert_valid_trail(edges, result)


def test_a_negative_length_is_refused():
    with pytest.raises(ValueError, match="negative"):
        longest_path([("A", "B", -1)])
