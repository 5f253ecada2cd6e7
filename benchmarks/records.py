"""Server time of the records page and its CSV over many finished games.

``python benchmarks/records.py [--games N]``: makes N finished 4-player USA games (44 trains for
one player, tickets for all, names varying in case) through the JSON API on a temporary SQLite
database, then asks for /records and /records.csv, timing each request in-process. The first
request after a restart replays and scores every game (the replay cache holds 64 games); the
others show what a page costs afterwards.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorer.web import create_app  # noqa: E402

BIG = ("helena--seattle", "duluth--helena", "duluth--toronto", "chicago--toronto",
       "chicago--omaha", "el-paso--los-angeles", "el-paso--houston", "miami--new-orleans")
OTHERS = (("denver--kansas-city", "denver--omaha"), ("atlanta--miami", "charleston--miami"),
          ("montreal--sault-st-marie", "boston--montreal"))
NAMES = ("Ann", "Bob", "Cleo", "Dan")
COLORS = ("red", "blue", "green", "yellow")


def game_file(index: int) -> dict:
    names = [n if index % 2 else n.lower() for n in NAMES]
    big = names[index % 4]
    rest = [n for n in names if n != big]
    return {
        "variant": "usa",
        "players": [{"name": n, "color": c} for n, c in zip(names, COLORS, strict=True)],
        "claims": [{"player": big, "route": r} for r in BIG]
        + [{"player": n, "route": r} for n, routes in zip(rest, OTHERS, strict=True)
           for r in routes],
        "tickets": [{"player": big, "from": "Seattle", "to": "Omaha", "points": 9},
                    {"player": rest[0], "from": "Kansas City", "to": "Omaha", "points": 5},
                    {"player": rest[1], "from": "Miami", "to": "Denver", "points": 20}],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "DATABASE": f"{folder}/records.sqlite3",
                          "SECRET_KEY": "bench", "GAMES_PER_HOUR": 10 ** 6})
        client = app.test_client()
        for index in range(args.games):
            answer = client.post("/api/games", json=game_file(index))
            assert answer.status_code == 201, answer.get_json()
        for url in ("/records", "/records.csv"):
            # The host view (a test client is the server's own machine): every game is read.
            app = create_app({"TESTING": True, "DATABASE": f"{folder}/records.sqlite3",
                              "SECRET_KEY": "bench", "HOST_VIEW": True})
            client = app.test_client()
            times = []
            for _ in range(6):
                start = time.perf_counter()
                answer = client.get(url)
                times.append((time.perf_counter() - start) * 1000)
                assert answer.status_code == 200
            print(f"{url}: {args.games} games, first {times[0]:.0f} ms, then median "
                  f"{statistics.median(times[1:]):.0f} ms, {len(answer.data) / 1024:.1f} kB")


if __name__ == "__main__":
    main()
