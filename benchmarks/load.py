"""Load on the production server: 50 phones tapping and reading for 60 s, then 10 photo uploads.

``python benchmarks/load.py [--quick] [--phones 50] [--seconds 60] [--uploads 10]
[--database-url postgresql://... --servers 2]``

Starts the Makefile's ``make serve`` command (waitress, 16 threads) on a free loopback port and a
temporary database, then runs one thread per phone. Phones sit at tables of five (one Europe
game per table, each phone a player); each phone, like the game page:

- taps one of its own lanes (claim, later release: the lanes of a table do not overlap, so every
  tap must succeed) after a random pause (``--think`` seconds, uniform), sending the version its
  page shows,
- polls ``/games/<id>/live?v=<version>`` every 2 s (204 while nothing changed),
- now and then reads the results page or the API score.

Everything is bounded by time and count and addresses loopback only. Then ``--uploads`` photos of
``sample_photos/`` are posted at once to ``/games/<id>/scan``, first one per game, then all to one
game (the bounded detection pool of scan.py takes SCAN_WORKERS at a time). Prints requests,
errors (any 5xx, refused tap, unexpected status or broken connection), latency percentiles for
taps and reads, the upload latencies and statuses, and the server's resident memory (VmRSS now,
VmHWM peak, from /proc).
With ``--database-url`` the servers run on a fresh schema of that PostgreSQL database (dropped
afterwards); ``--servers N`` starts N such processes on the one database and deals the phones
of every table out among them, so each game is tapped through all of them. CPU is summed over
the servers; uploads go to the first.
Latencies are measured by the client threads, which share the machine's cores with the server.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import shutil
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.hardening.databases import fresh_schema  # noqa: E402
from tests.hardening.live import Phone, ServerProcess, players, single_lanes  # noqa: E402

NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve")
POLL_SECONDS = 2.0
TAP_P99_TARGET_MS = 100.0
MAX_REQUESTS_PER_PHONE = 5_000


@dataclass
class Tally:
    """What the phones saw; one lock for all (the counts are small next to the requests)."""

    taps: list[float] = field(default_factory=list)
    reads: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    requests: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float, ok: bool, what: str) -> None:
        with self.lock:
            self.requests += 1
            (self.taps if kind == "tap" else self.reads).append(seconds)
            if not ok:
                self.errors.append(what)


def memory(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) of a process, in kB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used (/proc/<pid>/stat, fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def phone_loop(port: int, game: str, player: str, lanes: list[str], deadline: float,
               think: tuple[float, float], tally: Tally, seed: int) -> None:
    rng = random.Random(seed)
    phone = Phone(port, timeout=30)
    try:
        phone.open()
        page = phone.get(f"/games/{game}")
        version = page.version or 0
        owned: set[str] = set()
        next_poll = time.monotonic() + rng.uniform(0, POLL_SECONDS)
        next_tap = time.monotonic() + rng.uniform(*think)
        for _ in range(MAX_REQUESTS_PER_PHONE):
            now = time.monotonic()
            if now >= deadline:
                return
            if now < min(next_poll, next_tap):
                time.sleep(min(next_poll, next_tap, deadline) - now)
                continue
            if next_tap <= next_poll:
                lane = rng.choice(lanes)
                verb = "unclaim" if lane in owned else "claim"
                # With the version its page shows, as the page sends it: the answer then
                # carries only what changed (the whole board when the page is behind).
                answer = phone.post(f"/games/{game}/routes/{lane}",
                                    {"player": player, "do": verb, "v": str(version)})
                tally.add("tap", answer.seconds, answer.status == 200,
                          f"tap {verb} {lane}: {answer.status}")
                if answer.status == 200:
                    owned.symmetric_difference_update({lane})
                    version = answer.version or version
                next_tap = time.monotonic() + rng.uniform(*think)
            else:
                if rng.random() < 0.15:  # a look at the results now and then
                    path = rng.choice([f"/games/{game}/results", f"/api/games/{game}/score"])
                    answer = phone.get(path)
                    tally.add("read", answer.seconds, answer.status == 200,
                              f"read {path}: {answer.status}")
                answer = phone.get(f"/games/{game}/live?v={version}", hx=True)
                tally.add("read", answer.seconds, answer.status in (200, 204),
                          f"poll: {answer.status}")
                if answer.status == 200:
                    version = answer.version or version
                next_poll = time.monotonic() + POLL_SECONDS
    except Exception as exc:  # a broken connection or a timeout is an error, not a crash
        tally.add("read", 0.0, False, f"{player}@{game}: {type(exc).__name__}: {exc}")
    finally:
        phone.close()


def percentiles(samples: list[float]) -> str:
    if len(samples) < 2:
        return "n/a"
    cuts = statistics.quantiles([s * 1000 for s in samples], n=100, method="inclusive")
    return (f"p50 {cuts[49]:.1f} ms, p95 {cuts[94]:.1f} ms, p99 {cuts[98]:.1f} ms, "
            f"max {max(samples) * 1000:.1f} ms")


def multipart(path: Path, boundary: str) -> bytes:
    return (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; "
            f"filename=\"{path.name}\"\r\nContent-Type: image/jpeg\r\n\r\n").encode() \
        + path.read_bytes() + f"\r\n--{boundary}--\r\n".encode()


def upload(port: int, game: str, photo: Path) -> tuple[int, float]:
    phone = Phone(port, timeout=300).open()
    boundary = secrets.token_hex(12)
    try:
        answer = phone.request("POST", f"/games/{game}/scan", multipart(photo, boundary), {
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "X-CSRF-Token": phone.token})
        return answer.status, answer.seconds
    finally:
        phone.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="a short run: 10 phones, 10 s, 3 uploads (unless given)")
    parser.add_argument("--phones", type=int)
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--uploads", type=int)
    parser.add_argument("--threads", type=int, default=16, help="waitress threads")
    parser.add_argument("--upload-rounds", type=int, default=1,
                        help="rounds of uploads one per game (memory over time)")
    parser.add_argument("--server-env", action="append", default=[], metavar="VAR=VALUE",
                        help="extra environment of the server, e.g. MALLOC_ARENA_MAX=2")
    parser.add_argument("--database-url", default="",
                        help="a PostgreSQL database (postgresql://...) instead of SQLite")
    parser.add_argument("--servers", type=int, default=1,
                        help="server processes on the one database (at most 8)")
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 3.0),
                        metavar=("MIN", "MAX"), help="seconds between two taps of a phone")
    args = parser.parse_args(argv)
    defaults = (10, 10.0, 3) if args.quick else (50, 60.0, 10)
    for name, value in zip(("phones", "seconds", "uploads"), defaults, strict=True):
        if getattr(args, name) is None:
            setattr(args, name, value)
    args.seconds = min(args.seconds, 600.0)  # bounded whatever is asked

    work = Path(tempfile.mkdtemp(prefix="terminus-load-"))
    extra_env = dict(item.split("=", 1) for item in args.server_env)
    where = fresh_schema(args.database_url) if args.database_url else work / "load.sqlite3"
    servers = [ServerProcess(where, threads=args.threads, env=extra_env,
                             log=work / f"server-{k}.log")
               for k in range(min(max(args.servers, 1), 8))]
    server = servers[0]
    try:
        for each in servers:
            each.start()
            print(f"server: waitress pid {each.pid}, 127.0.0.1:{each.port}, "
                  f"{args.threads} threads; machine: {os.cpu_count()} cores"
                  + (f"; environment {extra_env}" if extra_env else ""))
        print("database: " + ("PostgreSQL" if args.database_url else "SQLite")
              + f", shared by {len(servers)} server process(es)")
        setup = Phone(server.port)
        tables = (args.phones + len(NAMES) - 1) // len(NAMES)
        games = [setup.new_game({"variant": "europe", "name": f"Table {t + 1}",
                                 "players": players(*NAMES)}) for t in range(tables)]
        lanes = single_lanes(35)
        tally = Tally()
        deadline = time.monotonic() + args.seconds
        threads = []
        for i in range(args.phones):
            table, seat = divmod(i, len(NAMES))
            mine = lanes[seat::len(NAMES)]
            threads.append(threading.Thread(target=phone_loop, daemon=True, args=(
                servers[i % len(servers)].port, games[table], NAMES[seat], mine, deadline,
                tuple(args.think), tally, i)))
        print(f"{args.phones} phones at {tables} tables for {args.seconds:.0f} s, a tap every "
              f"{args.think[0]:g}-{args.think[1]:g} s, a poll every {POLL_SECONDS:g} s ...")
        print(f"machine load average before: {load_average()} (other work shares the cores)")
        cpu_before = sum(cpu_seconds(each.pid) for each in servers)
        start = time.monotonic()
        for thread in threads:
            thread.start()
        rss_samples = []
        while any(t.is_alive() for t in threads) and time.monotonic() < deadline + 60:
            rss_samples.append(memory(server.pid)["VmRSS"])
            time.sleep(0.5)
        for thread in threads:
            thread.join(1)
        elapsed = time.monotonic() - start
        cpu = sum(cpu_seconds(each.pid) for each in servers) - cpu_before
        print(f"machine load average after: {load_average()}")
        print(f"requests: {tally.requests} in {elapsed:.1f} s "
              f"({tally.requests / elapsed:.0f}/s: {len(tally.taps)} taps, "
              f"{len(tally.reads)} reads)")
        print(f"errors: {len(tally.errors)}"
              + (f" (first: {'; '.join(tally.errors[:5])})" if tally.errors else ""))
        print(f"server CPU: {cpu:.1f} s in {elapsed:.0f} s ({cpu / elapsed * 100:.0f}% of one "
              f"core, {cpu / max(tally.requests, 1) * 1000:.1f} ms per request)")
        print(f"taps:  {percentiles(tally.taps)}")
        print(f"reads: {percentiles(tally.reads)}")
        tap_p99 = statistics.quantiles(tally.taps, n=100)[98] * 1000 if len(tally.taps) > 1 \
            else 0.0
        print(f"tap p99 target < {TAP_P99_TARGET_MS:.0f} ms: "
              f"{'met' if tap_p99 < TAP_P99_TARGET_MS else 'MISSED'}")
        mem = memory(server.pid)
        print(f"server memory after the taps: RSS {mem['VmRSS'] / 1024:.0f} MB, "
              f"peak so far {mem['VmHWM'] / 1024:.0f} MB")
        failures = len(tally.errors)

        if args.uploads:
            photos = sorted((ROOT / "sample_photos").glob("*.jpg"))
            chosen = [photos[i % len(photos)] for i in range(args.uploads)]
            targets = [games[i % len(games)] for i in range(args.uploads)]
            mb = sum(p.stat().st_size for p in chosen) / 2**20
            rounds = [("one game each", targets)] * max(args.upload_rounds, 1)
            for label, where in (*rounds, ("all to one game", None)):
                print(f"{args.uploads} photo uploads at once, {label} ({mb:.1f} MB in all) ...")
                start = time.monotonic()
                with ThreadPoolExecutor(args.uploads) as pool:
                    results = list(pool.map(
                        lambda job: upload(server.port, job[0], job[1]),
                        zip(where or [games[0]] * args.uploads, chosen, strict=True)))
                statuses = [status for status, _ in results]
                seconds = sorted(s for _, s in results)
                print(f"  statuses {statuses}, all done in {time.monotonic() - start:.1f} s")
                print("  latencies: " + ", ".join(f"{s:.1f}" for s in seconds) + " s "
                      f"(median {statistics.median(seconds):.1f} s)")
                failures += sum(1 for status in statuses if status >= 500 and status != 503)
                mem = memory(server.pid)
                print(f"  server memory: RSS {mem['VmRSS'] / 1024:.0f} MB now, "
                      f"peak (VmHWM) {mem['VmHWM'] / 1024:.0f} MB")
        errors_logged = [line for each in servers for line in each.errors()]
        print(f"tracebacks in the server log: {len(errors_logged)}")
        for line in sorted(set(errors_logged))[:5]:
            print(f"  {line}")
        return 1 if failures or errors_logged else 0
    finally:
        for each in servers:
            each.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
