"""Load on the production server: 50 phones tapping and reading for 60 s, then 10 photo uploads.

``python benchmarks/load.py [--quick] [--phones 50] [--seconds 60] [--uploads 10]
[--database-url postgresql://... --servers 2] [--proxy]``

Starts the Makefile's ``make serve`` command (waitress, 16 threads) on a free loopback port and a
temporary database, then runs one thread per phone. Phones sit at tables of five (one Europe
game per table, each phone a player); each phone, like the game page:

- taps one of its own lanes (claim, later release: the lanes of a table do not overlap, so every
  tap must succeed) after a random pause (``--think`` seconds, uniform), sending the version its
  page shows,
- polls ``/games/<id>/live?v=<version>`` every 2 s (204 while nothing changed),
- now and then reads the results page or the API score.

Each phone asks for compressed answers, as a browser does (``Accept-Encoding: gzip, deflate,
br``). With ``--proxy`` the phones go through nginx (the shipped configuration,
tests/hardening/proxy.py) in front of ``make serve-behind-proxy``, each table from a loopback
address of its own (the per-address limits are for one table, or a café, not for all).

Everything is bounded by time and count and addresses loopback only. Then ``--uploads`` photos of
``sample_photos/`` are posted at once to ``/games/<id>/scan``, first one per game, then all to one
game (the bounded detection pool of scan.py takes SCAN_WORKERS at a time). Prints requests,
errors (any 5xx, refused tap, unexpected status or broken connection), latency percentiles for
taps and reads, the server's CPU milliseconds per tap, per poll and per read (each request's own,
from its thread: ``benchmarks/server_timing.py``; and the whole process's per request), the
upload latencies and statuses, and the server's resident memory (VmRSS now, VmHWM peak, from
/proc; with the photo detector's processes). CPU milliseconds stay put when other work loads the
machine; latencies do not: the load average is printed beside them.
With ``--database-url`` the servers run on a fresh schema of that PostgreSQL database (dropped
afterwards); ``--servers N`` starts N such processes on the one database and deals the phones
of every table out among them, so each game is tapped through all of them. CPU is summed over
the servers; uploads go to the first. ``--database-pid`` (the postmaster's, on this machine)
adds the database server's CPU (its processes', the ones that ended included).
Latencies are measured by the client threads, which share the machine's cores with the server.
"""

from __future__ import annotations

import argparse
import os
import random
import re
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
from tests.hardening.live import Answer, Phone, ServerProcess, players, single_lanes  # noqa: E402
from tests.hardening.proxy import Nginx  # noqa: E402

NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve")
BROWSER = {"Accept-Encoding": "gzip, deflate, br"}
POLL_SECONDS = 2.0
TAP_P99_TARGET_MS = 100.0
TAP_CPU_TARGET_MS = 5.0
SERVER_TIMING = re.compile(r"cpu;dur=([\d.]+)")
MAX_REQUESTS_PER_PHONE = 5_000


@dataclass
class Tally:
    """What the phones saw; one lock for all (the counts are small next to the requests)."""

    taps: list[float] = field(default_factory=list)
    reads: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    requests: int = 0
    cpu: dict[str, list[float]] = field(default_factory=dict)  # ms, per kind of request
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float, ok: bool, what: str,
            answer: Answer | None = None) -> None:
        """One request: ``kind`` is tap, poll, read (results, API score) or page (a phone's
        first pages, counted in the requests and the CPU, not in the latencies)."""
        found = SERVER_TIMING.search(answer.headers.get("server-timing", "")) if answer else None
        with self.lock:
            self.requests += 1
            if kind != "page":
                (self.taps if kind == "tap" else self.reads).append(seconds)
            if found:
                self.cpu.setdefault(kind, []).append(float(found.group(1)))
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


def cpu_seconds(pid: int, ended_children: bool = False) -> float:
    """User + system CPU time a process has used (/proc/<pid>/stat, fields 14 and 15), and
    with ``ended_children`` that of its children that ended (16 and 17) and of those alive."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    if ended_children:
        ticks += int(fields[13]) + int(fields[14])
    spent = ticks / os.sysconf("SC_CLK_TCK")
    if ended_children:
        spent += sum(cpu_seconds(child, True) for child in children(pid))
    return spent


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:  # ended meanwhile
        return []


def tree_rss(pid: int) -> int:
    """VmRSS of a process and its descendants (the detector's forkserver and children), kB:
    the pages they share are counted in each."""
    try:
        own = memory(pid).get("VmRSS", 0)
    except OSError:
        return 0
    return own + sum(tree_rss(child) for child in children(pid))


class TreePeak:
    """The largest ``tree_rss`` of a process seen every 0.1 s, from a thread, until
    ``stop()``."""

    def __init__(self, pid: int) -> None:
        self.peak = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(pid,), daemon=True)
        self.thread.start()

    def _run(self, pid: int) -> None:
        while not self.done.wait(0.1):
            self.peak = max(self.peak, tree_rss(pid))

    def stop(self) -> None:
        self.done.set()
        self.thread.join()


def cpu_line(tally: Tally, kind: str) -> str:
    spent = tally.cpu.get(kind, [])
    if not spent:
        return f"{kind} n/a"
    return (f"{kind} {statistics.fmean(spent):.2f} ms (median {statistics.median(spent):.2f}, "
            f"{len(spent)})")


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def phone_loop(port: int, game: str, player: str, lanes: list[str], deadline: float,
               think: tuple[float, float], tally: Tally, seed: int,
               source: str | None = None) -> None:
    rng = random.Random(seed)
    phone = Phone(port, timeout=30, source=source, headers=dict(BROWSER))
    try:
        phone.open()
        page = phone.get(f"/games/{game}")
        version = page.version or 0
        tally.add("page", 0.0, page.status == 200, f"page: {page.status}", page)
        tally.add("page", 0.0, True, "home")
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
                # carries only what changed since (every version it missed, when behind).
                answer = phone.post(f"/games/{game}/routes/{lane}",
                                    {"player": player, "do": verb, "v": str(version)})
                tally.add("tap", answer.seconds, answer.status == 200,
                          f"tap {verb} {lane}: {answer.status}", answer)
                if answer.status == 200:
                    owned.symmetric_difference_update({lane})
                    version = answer.version or version
                next_tap = time.monotonic() + rng.uniform(*think)
            else:
                if rng.random() < 0.15:  # a look at the results now and then
                    path = rng.choice([f"/games/{game}/results", f"/api/games/{game}/score"])
                    answer = phone.get(path)
                    tally.add("read", answer.seconds, answer.status == 200,
                              f"read {path}: {answer.status}", answer)
                answer = phone.get(f"/games/{game}/live?v={version}", hx=True)
                tally.add("poll", answer.seconds, answer.status in (200, 204),
                          f"poll: {answer.status}", answer)
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
    parser.add_argument("--database-pid", type=int,
                        help="the PostgreSQL postmaster's pid: its CPU is counted too")
    parser.add_argument("--proxy", action="store_true",
                        help="the phones through nginx (deploy/nginx) in front of the servers")
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
                             log=work / f"server-{k}.log",
                             factory="benchmarks.server_timing:create_app",
                             target="serve-behind-proxy" if args.proxy else "serve")
               for k in range(min(max(args.servers, 1), 8))]
    server = servers[0]
    nginx = None
    try:
        for each in servers:
            each.start()
            print(f"server: waitress pid {each.pid}, 127.0.0.1:{each.port}, "
                  f"{args.threads} threads; machine: {os.cpu_count()} cores"
                  + (f"; environment {extra_env}" if extra_env else ""))
        if args.proxy:
            nginx = Nginx.plain(work / "nginx", [each.port for each in servers]).start()
            assert nginx.process is not None
            nginx_pid = children(nginx.process.pid)[0]  # the worker
            print(f"nginx: worker pid {nginx_pid}, 127.0.0.1:{nginx.port}, in front of every "
                  "server; each table from its own loopback address")
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
            port, source = servers[i % len(servers)].port, None
            if nginx:
                port, source = nginx.port, f"127.0.1.{table + 1}"
            threads.append(threading.Thread(target=phone_loop, daemon=True, args=(
                port, games[table], NAMES[seat], mine, deadline, tuple(args.think), tally, i,
                source)))
        print(f"{args.phones} phones at {tables} tables for {args.seconds:.0f} s, a tap every "
              f"{args.think[0]:g}-{args.think[1]:g} s, a poll every {POLL_SECONDS:g} s ...")
        print(f"machine load average before: {load_average()} (other work shares the cores)")
        cpu_before = sum(cpu_seconds(each.pid) for each in servers)
        db_before = cpu_seconds(args.database_pid, True) if args.database_pid else 0.0
        nginx_before = cpu_seconds(nginx_pid) if nginx else 0.0
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
        db_cpu = cpu_seconds(args.database_pid, True) - db_before if args.database_pid else 0.0
        nginx_cpu = cpu_seconds(nginx_pid) - nginx_before if nginx else 0.0
        print(f"machine load average after: {load_average()}")
        print(f"requests: {tally.requests} in {elapsed:.1f} s "
              f"({tally.requests / elapsed:.0f}/s: {len(tally.taps)} taps, "
              f"{len(tally.reads)} reads)")
        print(f"errors: {len(tally.errors)}"
              + (f" (first: {'; '.join(tally.errors[:5])})" if tally.errors else ""))
        per_request = cpu / max(tally.requests, 1) * 1000
        print(f"server CPU: {cpu:.1f} s in {elapsed:.0f} s ({cpu / elapsed * 100:.0f}% of one "
              f"core, {per_request:.2f} ms per request)")
        counted = [ms for spent in tally.cpu.values() for ms in spent]
        outside = per_request - statistics.fmean(counted) if counted else 0.0
        print("server CPU per request in its thread: " + "; ".join(
            cpu_line(tally, kind) for kind in ("tap", "poll", "read", "page"))
            + f"; the rest of the process (waitress' socket loop...): {outside:.2f} ms a request")
        if args.database_pid:
            print(f"database server CPU: {db_cpu:.1f} s "
                  f"({db_cpu / max(tally.requests, 1) * 1000:.2f} ms per request)")
        if nginx:
            print(f"nginx CPU: {nginx_cpu:.2f} s ({nginx_cpu / max(tally.requests, 1) * 1000:.2f}"
                  f" ms per request), RSS {memory(nginx_pid)['VmRSS'] / 1024:.1f} MB")
        taps_cpu = tally.cpu.get("tap", [])
        tap_cpu = (statistics.fmean(taps_cpu) + outside) if taps_cpu else 0.0
        print(f"server CPU per tap (its thread and its share of the rest) {tap_cpu:.2f} ms, "
              f"target <= {TAP_CPU_TARGET_MS:.0f} ms: "
              f"{'met' if tap_cpu <= TAP_CPU_TARGET_MS else 'MISSED'}")
        print(f"taps:  {percentiles(tally.taps)}")
        print(f"reads: {percentiles(tally.reads)}")
        tap_p99 = statistics.quantiles(tally.taps, n=100)[98] * 1000 if len(tally.taps) > 1 \
            else 0.0
        print(f"tap p99 target < {TAP_P99_TARGET_MS:.0f} ms: "
              f"{'met' if tap_p99 < TAP_P99_TARGET_MS else 'MISSED'}")
        mem = memory(server.pid)
        print(f"server memory after the taps: RSS {mem['VmRSS'] / 1024:.0f} MB, "
              f"peak so far {mem['VmHWM'] / 1024:.0f} MB; with the detector's processes "
              f"{tree_rss(server.pid) / 1024:.0f} MB")
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
                peak = TreePeak(server.pid)
                with ThreadPoolExecutor(args.uploads) as pool:
                    results = list(pool.map(
                        lambda job: upload(server.port, job[0], job[1]),
                        zip(where or [games[0]] * args.uploads, chosen, strict=True)))
                peak.stop()
                statuses = [status for status, _ in results]
                seconds = sorted(s for _, s in results)
                print(f"  statuses {statuses}, all done in {time.monotonic() - start:.1f} s")
                print("  latencies: " + ", ".join(f"{s:.1f}" for s in seconds) + " s "
                      f"(median {statistics.median(seconds):.1f} s)")
                failures += sum(1 for status in statuses if status >= 500 and status != 503)
                mem = memory(server.pid)
                print(f"  server memory: RSS {mem['VmRSS'] / 1024:.0f} MB now, "
                      f"peak (VmHWM) {mem['VmHWM'] / 1024:.0f} MB; with the detector's "
                      f"processes {tree_rss(server.pid) / 1024:.0f} MB now, "
                      f"{peak.peak / 1024:.0f} MB at most during the uploads")
        errors_logged = [line for each in servers for line in each.errors()]
        print(f"tracebacks in the server log: {len(errors_logged)}")
        for line in sorted(set(errors_logged))[:5]:
            print(f"  {line}")
        return 1 if failures or errors_logged else 0
    finally:
        if nginx:
            nginx.stop()
        for each in servers:
            each.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
