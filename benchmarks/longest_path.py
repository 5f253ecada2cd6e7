"""Benchmark the exact longest path against the naive edge-DFS from every city.

Run: .venv/bin/python benchmarks/longest_path.py [--networks 200] [--seed 1] [--both-lanes]

Per board, it grows seeded random 45-train networks (from a random city, always claiming
the shortest route next to the network that still fits, ties broken at random; one lane
per double unless --both-lanes), times both algorithms on the same networks, checks they
agree, and then times the whole board owned by one player (too big for the naive search).
Each time is the best of 3 runs (other jobs share the 2 cores).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer.boards import load_board  # noqa: E402
from scorer.longest import longest_path  # noqa: E402

TRAINS = 45
REPEAT = 3
WHOLE_BOARD = {"usa": 285, "europe": 269}


def _load_oracle():
    """The brute-force oracle of the tests, the naive baseline here (one copy of it)."""
    path = ROOT / "tests" / "core" / "test_longest.py"
    spec = importlib.util.spec_from_file_location("test_longest", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.brute_force_length


def grow_network(board, rng: random.Random, both_lanes: bool) -> list[tuple]:
    """Routes of one player who keeps claiming the shortest route next to their network."""
    routes = sorted(board.routes.values(), key=lambda r: r.id)
    cities = {rng.choice(sorted(board.cities))}
    owned: list = []
    closed: set[str] = set()
    trains = TRAINS
    while True:
        fitting = [
            r
            for r in routes
            if r.id not in closed and r.length <= trains and (r.a in cities or r.b in cities)
        ]
        if not fitting:
            break
        shortest = min(r.length for r in fitting)
        route = rng.choice([r for r in fitting if r.length == shortest])
        owned.append(route)
        closed.add(route.id)
        if not both_lanes:
            closed.update(s.id for s in board.siblings(route))
        cities.update((route.a, route.b))
        trains -= route.length
    return [(r.a, r.b, r.length, r.id) for r in owned]


def _timed(function, edges, repeat: int = REPEAT) -> tuple[float, object]:
    """Best wall time of a few runs: the machine is shared, the minimum is the signal."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        value = function(edges)
        best = min(best, time.perf_counter() - started)
    return best, value


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--both-lanes", action="store_true", help="a player may own both lanes")
    args = parser.parse_args()
    naive = _load_oracle()
    failures = 0

    header = (
        f"{'board':<7} {'networks':>8} {'routes':>6} {'odd':>4} | {'ours med ms':>11} "
        f"{'ours max ms':>11} | {'naive med ms':>12} {'naive max ms':>12} | "
        f"{'ratio med':>9} {'ratio total':>11} | agree"
    )
    print(header)
    print("-" * len(header))
    for name in WHOLE_BOARD:
        board = load_board(name)
        rng = random.Random(f"{args.seed}-{name}")
        ours, theirs, sizes, odds, agree = [], [], [], [], 0
        for _ in range(args.networks):
            edges = grow_network(board, rng, args.both_lanes)
            ours_s, result = _timed(longest_path, edges)
            naive_s, length = _timed(naive, edges)
            ours.append(ours_s)
            theirs.append(naive_s)
            sizes.append(len(edges))
            degree: dict[str, int] = {}
            for a, b, *_ in edges:
                degree[a] = degree.get(a, 0) + 1
                degree[b] = degree.get(b, 0) + 1
            odds.append(sum(d % 2 for d in degree.values()))
            agree += result.length == length
        failures += args.networks - agree
        print(
            f"{name:<7} {args.networks:>8} {statistics.median(sizes):>6.0f} "
            f"{statistics.median(odds):>4.0f} | {_ms(statistics.median(ours)):>11} "
            f"{_ms(max(ours)):>11} | {_ms(statistics.median(theirs)):>12} "
            f"{_ms(max(theirs)):>12} | "
            f"{statistics.median(theirs) / statistics.median(ours):>8.1f}x "
            f"{sum(theirs) / sum(ours):>10.1f}x | {agree}/{args.networks}"
        )

    print("(medians of routes and odd-degree cities per network; times are best of 3 runs)")
    print()
    print(f"{'whole board':<12} {'routes':>6} {'trains':>6} {'ms':>9} {'found':>6} {'known':>6}")
    for name, known in WHOLE_BOARD.items():
        board = load_board(name)
        edges = [(r.a, r.b, r.length, r.id) for r in board.routes.values()]
        seconds, result = _timed(longest_path, edges)
        failures += result.length != known
        print(
            f"{name:<12} {len(edges):>6} {sum(e[2] for e in edges):>6} {_ms(seconds):>9} "
            f"{result.length:>6} {known:>6}"
        )
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
