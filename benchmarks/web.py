"""Server time and size of a tap that claims a lane, on a 5-player Europe game with 80 claims.

``python benchmarks/web.py [--taps N]``: builds the game through the JSON API on a temporary
database, then taps (htmx POST, with the version the page shows, as the page sends it) a free
lane and undoes it, N times, timing each claim request in-process (routing, CSRF check, replay
cache, SQLite transaction, scoring, rendering the answer). Prints the median, 90th percentile
and maximum (the target is a median < 50 ms), and the bytes of a claim's answer, raw and
gzipped, next to those of the whole live partials (a tap from a page that is behind).
"""

from __future__ import annotations

import argparse
import gzip
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorer.boards import load_board  # noqa: E402
from scorer.game import Game  # noqa: E402
from scorer.web import create_app  # noqa: E402

PLAYERS = [("Ann", "red"), ("Bob", "blue"), ("Cleo", "green"), ("Dan", "yellow"),
           ("Eve", "black")]
TARGET_MS = 50.0
VERSION = re.compile(r'data-version="(\d+)"')


def eighty_claims() -> tuple[list[dict[str, str]], list[tuple[str, str]]]:
    """80 legal claims spread over 5 players (shortest routes first), and the taps left:
    (route, player) pairs that are legal claims on top of them."""
    board = load_board("europe")
    trains = {name: 45 for name, _ in PLAYERS}
    owner: dict[str, str] = {}
    claims = []
    turn = 0
    for route in sorted(board.routes.values(), key=lambda r: (r.length, r.id)):
        if len(claims) == 80:
            break
        for attempt in range(len(PLAYERS)):
            name = PLAYERS[(turn + attempt) % len(PLAYERS)][0]
            if trains[name] < route.length:
                continue
            if any(owner.get(s.id) == name for s in board.siblings(route)):
                continue
            owner[route.id] = name
            trains[name] -= route.length
            claims.append({"player": name, "route": route.id})
            turn += 1
            break
    game = Game.from_json({"variant": "europe", "claims": claims, "players": [
        {"name": n, "color": c} for n, c in PLAYERS]})
    taps = []
    for route in board.routes:
        legal = [n for n, _ in PLAYERS if route not in owner and not game.closed_reason(route, n)]
        if legal:
            taps.append((route, legal[len(taps) % len(legal)]))
    return claims, taps


def raw(answer: Any) -> str:
    """An answer's text, gunzipped if it came compressed."""
    body = answer.data
    return (gzip.decompress(body) if answer.headers.get("Content-Encoding") == "gzip"
            else body).decode()


def size(answer: Any) -> tuple[int, int]:
    """An answer's bytes: raw, and as sent gzipped (the server leaves small ones raw)."""
    return len(raw(answer).encode()), len(answer.data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=60)
    args = parser.parse_args()
    claims, taps = eighty_claims()
    assert len(claims) == 80, len(claims)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "bench.sqlite3"), "SECRET_KEY": "bench"})
        client = app.test_client()
        answer = client.post("/api/games", json={
            "variant": "europe", "players": [{"name": n, "color": c} for n, c in PLAYERS],
            "claims": claims})
        assert answer.status_code == 201, answer.get_json()
        game = answer.get_json()["id"]
        with client.session_transaction() as session:
            session["csrf"] = "bench-token"
        # As a phone sends it: htmx headers, and gzip accepted (the answer is compressed).
        headers = {"HX-Request": "true", "X-CSRF-Token": "bench-token", "Accept-Encoding": "gzip"}
        page = client.get(f"/games/{game}")  # warm up: templates compiled, board shapes built
        version = VERSION.search(page.text).group(1)
        times = []
        sizes = []
        for i in range(args.taps):
            route, player = taps[i % len(taps)]
            start = time.perf_counter()
            tap = client.post(f"/games/{game}/routes/{route}",
                              data={"player": player, "do": "claim", "v": version},
                              headers=headers)
            times.append((time.perf_counter() - start) * 1000)
            assert tap.status_code == 200, (route, player, tap.status_code)
            sizes.append(size(tap))
            version = VERSION.search(raw(tap)).group(1)
            undo = client.post(f"/games/{game}/undo", data={"v": version}, headers=headers)
            assert undo.status_code == 200
            version = VERSION.search(raw(undo)).group(1)
        route, player = taps[0]
        whole = size(client.post(f"/games/{game}/routes/{route}",
                                 data={"player": player, "do": "claim"}, headers=headers))
    times.sort()
    median = statistics.median(times)
    p90 = times[int(len(times) * 0.9) - 1]
    sent, zipped = (statistics.median(s[k] for s in sizes) for k in (0, 1))
    print(f"claim tap, Europe, 5 players, 80 claims, {len(times)} taps: "
          f"median {median:.1f} ms, p90 {p90:.1f} ms, max {times[-1]:.1f} ms "
          f"(target median < {TARGET_MS:.0f} ms); answer {sent / 1000:.1f} kB "
          f"({zipped / 1000:.1f} kB gzipped); the whole live partials {whole[0] / 1000:.1f} kB "
          f"({whole[1] / 1000:.1f} kB gzipped)")
    return 0 if median < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
