"""Crash safety, many times over: kill -9 the production server in the middle of bursts of writes,
restart it, count what was acknowledged and what is there.

``python benchmarks/crash.py [--cycles 10] [--quick] [--database-url postgresql://...]``

Each cycle: three phones claim lanes of one Europe game and a fourth creates games through the
JSON API; after a random number of acknowledged claims the server (``make serve``'s waitress
command, on a temporary database) gets SIGKILL; then the same command starts again on the same
file. Prints, per cycle and in all: acknowledged writes, writes lost (must be 0), in-flight writes
found applied, ``PRAGMA integrity_check``, and the time from the restart to the first answer.
The test tests/hardening/test_crash_safety.py does two such cycles in the suite. With
``--database-url`` the server runs on a fresh schema of that PostgreSQL database (the database
server is not killed, only the app; SQLite's integrity check is then not applicable).
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.hardening.databases import fresh_schema  # noqa: E402
from tests.hardening.live import Phone, ServerProcess, players, single_lanes  # noqa: E402
from tests.hardening.test_crash_safety import NAMES, Creator, Writer, integrity  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="3 cycles")
    parser.add_argument("--database-url", default="",
                        help="a PostgreSQL database (postgresql://...) instead of SQLite")
    args = parser.parse_args(argv)
    cycles = min(3 if args.quick else args.cycles, 100)
    rng = random.Random(7)
    work = Path(tempfile.mkdtemp(prefix="terminus-crash-"))
    database = fresh_schema(args.database_url) if args.database_url else work / "crash.sqlite3"
    server = ServerProcess(database, threads=4, log=work / "crash.log").start()
    totals = {"acknowledged": 0, "lost": 0, "in_flight_applied": 0, "games": 0}
    restarts: list[float] = []
    try:
        phone = Phone(server.port)
        lanes = single_lanes(36)
        per_game = 12  # lanes per cycle: a fresh game every three cycles
        game, expected = "", {}
        for cycle in range(cycles):
            if cycle % 3 == 0:
                game = phone.new_game({"variant": "europe", "players": players(*NAMES)})
                expected = {}
            share = lanes[(cycle % 3) * per_game:(cycle % 3 + 1) * per_game]
            writers = [Writer(server.port, game, name, share[i::3])
                       for i, name in enumerate(NAMES)]
            creator = Creator(server.port)
            for thread in (*writers, creator):
                thread.start()
            target = rng.randint(1, per_game - 2)
            deadline = time.monotonic() + 10
            while (sum(len(w.acknowledged) for w in writers) < target
                   and time.monotonic() < deadline):
                time.sleep(0.002)
            server.kill()
            for thread in (*writers, creator):
                thread.join(10)
            acknowledged = {lane: w.player for w in writers for lane in w.acknowledged}
            unsure = {lane for w in writers for lane in w.unsure}
            expected.update(acknowledged)
            check = "n/a (PostgreSQL)" if args.database_url else integrity(database)
            started = time.monotonic()
            server.start()
            phone = Phone(server.port)
            sheet = phone.get(f"/api/games/{game}/score").json()
            restarts.append(time.monotonic() - started)
            stored = {route: p["name"] for p in sheet["players"] for route in p["routes"]}
            lost = [lane for lane, player in expected.items() if stored.get(lane) != player]
            applied = sorted(set(stored) & unsure)
            missing_games = [g for g in creator.acknowledged
                             if phone.get(f"/api/games/{g}/score").status != 200]
            expected.update({lane: stored[lane] for lane in applied})
            totals["acknowledged"] += len(acknowledged) + len(creator.acknowledged)
            totals["lost"] += len(lost) + len(missing_games)
            totals["in_flight_applied"] += len(applied)
            totals["games"] += len(creator.acknowledged)
            print(f"cycle {cycle + 1}: {len(acknowledged)} claims and {len(creator.acknowledged)} "
                  f"games acknowledged, {len(lost) + len(missing_games)} lost, "
                  f"{len(applied)} of {len(unsure)} in flight applied, integrity {check}, "
                  f"answering {restarts[-1]:.2f} s after the restart")
            if check not in ("ok", "n/a (PostgreSQL)"):
                totals["lost"] += 1
        print(f"in all: {cycles} kills, {totals['acknowledged']} acknowledged writes "
              f"({totals['games']} game creations), {totals['lost']} lost, "
              f"{totals['in_flight_applied']} in-flight writes found applied; restart to first "
              f"answer: median {sorted(restarts)[len(restarts) // 2]:.2f} s, "
              f"max {max(restarts):.2f} s")
        errors = server.errors()
        print(f"tracebacks in the server log: {len(errors)}")
        return 1 if totals["lost"] or errors else 0
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
