"""CPU milliseconds per tap and per poll, in-process, as ``benchmarks/load.py``'s phones ask them.

``python benchmarks/tap_cpu.py [--taps 2000] [--database-url postgresql://...] [--profile N]``

The same requests as ``load.py`` (tables of five phones on Europe games, each phone claiming
and releasing lanes of its own with the version its page shows, polling ``/live`` with the
version it shows, with a browser's ``Accept-Encoding``), sent through Flask's test client in
one thread, round robin over the phones: no sockets, no waitress, no other thread. The CPU
time of the thread (``time.thread_time``) per kind of request is what the app itself costs,
steady whatever else loads the machine. ``--profile N`` prints cProfile's N costliest
functions (cumulative) over the taps from a page behind the game (answered with what every
version it missed changed: the costliest kind, and most of load.py's taps).
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import pstats
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import brotli

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorer.web import create_app  # noqa: E402
from tests.hardening.databases import fresh_schema  # noqa: E402
from tests.hardening.live import players, single_lanes  # noqa: E402

NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve")
BROWSER = {"Accept-Encoding": "gzip, deflate, br"}
VERSION = re.compile(r'data-version="(\d+)"')


def text(answer: Any) -> str:
    """An answer's text, decompressed as the browser does."""
    body, encoding = answer.get_data(), answer.headers.get("Content-Encoding")
    if encoding == "br":
        body = brotli.decompress(body)
    elif encoding == "gzip":
        body = gzip.decompress(body)
    return body.decode()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        url = fresh_schema(args.database_url) if args.database_url else ""
        app = create_app({"DATABASE": str(Path(tmp) / "tap.sqlite3"), "DATABASE_URL": url,
                          "SECRET_KEY": "tap-cpu"})
        setup = app.test_client()
        games = []
        for t in range(args.tables):
            made = setup.post("/api/games", json={"variant": "europe", "name": f"Table {t + 1}",
                                                  "players": players(*NAMES)})
            assert made.status_code == 201, made.get_json()
            games.append(made.get_json()["id"])
        lanes = single_lanes(35)
        phones = []
        for i in range(args.tables * len(NAMES)):
            table, seat = divmod(i, len(NAMES))
            client = app.test_client()
            with client.session_transaction() as session:
                session["csrf"] = "tap-cpu"
            page = client.get(f"/games/{games[table]}", headers=BROWSER)
            phones.append({"client": client, "game": games[table], "player": NAMES[seat],
                           "lanes": lanes[seat::len(NAMES)], "owned": set(), "k": 0,
                           "version": VERSION.search(text(page)).group(1)})
        headers = {**BROWSER, "HX-Request": "true", "X-CSRF-Token": "tap-cpu"}
        spent: dict[str, list[float]] = {"tap, page up to date": [], "tap, page behind": [],
                                         "poll 200": [], "poll 204": []}
        profile = cProfile.Profile() if args.profile else None

        def poll(phone: dict[str, Any]) -> None:
            start = time.thread_time()
            polled = phone["client"].get(f"/games/{phone['game']}/live?v={phone['version']}",
                                         headers=headers)
            spent[f"poll {polled.status_code}"].append((time.thread_time() - start) * 1000)
            if polled.status_code == 200:
                phone["version"] = VERSION.search(text(polled)).group(1)

        for n in range(args.taps):
            phone = phones[n % len(phones)]
            # The table-mates tapped since this phone's last turn. Every other turn its page
            # polls first (their changes: a 200) and taps up to date; else it taps from a page
            # behind the game, as most of load.py's taps are, then polls (nothing new: a 204).
            behind = n // len(phones) % 2 == 1
            if not behind:
                poll(phone)
            lane = phone["lanes"][phone["k"] % len(phone["lanes"])]
            phone["k"] += 1
            verb = "unclaim" if lane in phone["owned"] else "claim"
            if profile and behind:
                profile.enable()
            start = time.thread_time()
            tapped = phone["client"].post(
                f"/games/{phone['game']}/routes/{lane}", headers=headers,
                data={"player": phone["player"], "do": verb, "v": phone["version"]})
            spent[f"tap, page {'behind' if behind else 'up to date'}"].append(
                (time.thread_time() - start) * 1000)
            if profile:
                profile.disable()
            assert tapped.status_code == 200, (tapped.status_code, lane, verb)
            phone["owned"].symmetric_difference_update({lane})
            phone["version"] = VERSION.search(text(tapped)).group(1)
            if behind:
                poll(phone)
    print(f"{'PostgreSQL' if args.database_url else 'SQLite'}, {args.tables} Europe games of "
          f"5 players, {args.taps} taps, in one thread (CPU ms, mean / median):")
    for kind, values in spent.items():
        if values:
            print(f"  {kind}: {statistics.fmean(values):.2f} / {statistics.median(values):.2f}"
                  f" ({len(values)})")
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
