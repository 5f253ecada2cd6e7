"""What the boards' property tests share: games walked at random on a board, the parts of a
scorer written from the rules alone (which cities routes reach, the longest trail, the bonus
for it, the winners), and what every board's games must keep (doubles by player count, a game
file read back to the same score)."""

import json
from collections import defaultdict

from hypothesis import HealthCheck, settings

from scorer.game import ClaimRoute, Game
from scorer.rules import find_variant
from scorer.scoring import score


def walk(draw, st, game, players, cities, max_steps=14):
    """Each player walks the board from a city of their own claiming what they may (refused
    claims skipped)."""
    board = game.board
    for player in players:
        city = draw(st.sampled_from(cities))
        for step in draw(st.lists(st.integers(0, 7), max_size=max_steps)):
            options = board.routes_at(city)
            route = options[step % len(options)]
            if game.closed_reason(route.id, player) is None:
                game.apply(ClaimRoute(player, route.id))
            city = route.other_end(city)


def reach(routes, start):
    """The cities a chain of these routes reaches from any of ``start`` (a search, as a person
    would trace it)."""
    neighbours = defaultdict(set)
    for r in routes:
        neighbours[r.a].add(r.b)
        neighbours[r.b].add(r.a)
    seen, todo = set(start), list(start)
    while todo:
        for nxt in neighbours[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def longest_trail(routes):
    """The longest chain of distinct routes, every one tried (the games here are small)."""
    best = 0

    def go(city, used, length):
        nonlocal best
        best = max(best, length)
        for i, r in enumerate(routes):
            if i not in used and city in (r.a, r.b):
                go(r.other_end(city), used | {i}, length + r.length)

    for city in {c for r in routes for c in (r.a, r.b)}:
        go(city, frozenset(), 0)
    return best


def totals_and_winners(figures, paths, longest_points):
    """``figures``: name -> [total, completed tickets]; the longest-path card to every player
    with the longest trail (none without a route), then the winners by points, tickets and the
    card, as the base game breaks ties."""
    longest = max(paths.values())
    ranked = {name: (total + (longest_points if longest and paths[name] == longest else 0),
                     done, int(bool(longest) and paths[name] == longest))
              for name, (total, done) in figures.items()}
    best = max(ranked.values())
    return ({name: figure[0] for name, figure in ranked.items()},
            {name for name, figure in ranked.items() if figure == best})


def assert_doubles_follow_the_player_count(game, open_from):
    owners = defaultdict(list)
    for claim in game.claims:
        route = game.board.routes[claim.route]
        owners[frozenset((route.a, route.b))].append(claim.player)
    for players in owners.values():
        assert len(players) == len(set(players))  # never both lanes
        assert len(players) == 1 or len(game.players) >= open_from


def assert_reads_back_to_the_same_score(game, variant):
    again = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert again.variant is find_variant(variant)
    assert score(again).to_json() == score(game).to_json()


PROPERTY = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                            HealthCheck.data_too_large])


def assert_scores_as_counted(game, by_hand, trains):
    """The product's totals and winners are the rules page's (``by_hand``); no station, Express
    card or Globetrotter on these boards; trains left as claimed."""
    sheet = score(game)
    totals, winners = by_hand(game)
    assert {p.name: p.total for p in sheet.players} == totals
    assert set(sheet.winners) == winners
    for p in sheet.players:
        assert p.station_points == p.express_bonus == p.globetrotter_bonus == 0
        assert p.trains_left == trains - sum(r.length for r in game.routes_of(p.name)) >= 0
