"""nginx in front of make serve (deploy/nginx): what it holds off, and what it costs.

``python benchmarks/proxy.py [--quick] [--trickle 1100] [--seconds 24]``

Starts ``make serve-behind-proxy``'s server on a temporary SQLite database with nginx in front
(the shipped configuration, on loopback: tests/hardening/proxy.py), then measures:

- trickle: ``--trickle`` connections from 127.0.0.1 sending a byte every 8 s (half in their
  request's head, half in a body), while another table (127.0.0.2) opens a new connection every
  half second to load its game page and tap: that table's answer times, how many trickling
  bodies nginx refused (429), when it closed the heads, nginx's memory and CPU;
- the same against waitress alone (make serve), the other table's first page given 30 s;
- a flood: 1,200 polls from one address on 4 connections, another address polling meanwhile;
- the cost: the same 1,000 polls and 200 game pages straight to waitress and through nginx
  (from addresses taken in turn, under the per-address rate), latencies and nginx's CPU per
  request; a 25 MiB upload each way.

Everything addresses loopback only and is bounded in time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.load import cpu_seconds, load_average, memory  # noqa: E402
from tests.hardening.live import LOOPBACK, Phone, ServerProcess, players  # noqa: E402
from tests.hardening.proxy import Trickle, behind_nginx, more_open_files  # noqa: E402

OTHER = "127.0.0.2"
GAME = {"variant": "europe", "players": players("Ann", "Bob")}


def worker_pid(master: int) -> int:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return int(children[0])


def ms(samples: list[float]) -> str:
    if not samples:
        return "none"
    ordered = sorted(samples)
    return (f"p50 {statistics.median(ordered) * 1000:.1f} ms, "
            f"max {ordered[-1] * 1000:.1f} ms ({len(ordered)})")


def trickle(port: int, count: int, seconds: float, nginx: int | None) -> None:
    table = Phone(port, source=OTHER, timeout=30).open()
    game = table.new_game(GAME)
    took: list[float] = []
    failed: list[str] = []
    peak = 0
    cpu = cpu_seconds(nginx) if nginx else 0.0
    start = time.monotonic()
    with Trickle(port, count) as trickling:
        opened = time.monotonic() - start
        while trickling.age < seconds:
            trickling.tick()
            table.close()
            try:
                for page in (f"/games/{game}", "/"):
                    took.append(table.get(page).seconds)
                took.append(table.post(f"/games/{game}/routes/paris--zurich",
                                       {"player": "Ann", "do": "claim"}).seconds)
            except OSError as exc:  # a timeout: locked out
                failed.append(f"{type(exc).__name__} after {trickling.age:.1f} s")
                if not nginx:
                    break
            if nginx:
                peak = max(peak, memory(nginx)["VmRSS"])
            time.sleep(0.5)
        trickling.tick()
        heads = sorted(trickling.closed_after[s] for s in trickling.heads
                       if s in trickling.closed_after)
        print(f"  {count} connections opened in {opened:.1f} s; {trickling.refused()} of "
              f"{len(trickling.bodies)} bodies refused (429); heads closed: {len(heads)} of "
              f"{len(trickling.heads)}"
              + (f", {heads[0]:.1f}-{heads[-1]:.1f} s after the start" if heads else ""))
    table.close()
    print(f"  the other table's pages and taps: {ms(took)}; failed: {failed or 'none'}")
    if nginx:
        print(f"  nginx worker: RSS up to {peak / 1024:.1f} MB, CPU "
              f"{(cpu_seconds(nginx) - cpu) * 1000:.0f} ms in {seconds:.0f} s")


def flood(port: int) -> None:
    table = Phone(port, source=OTHER).open()
    game = table.new_game(GAME)
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def run() -> None:
        phone = Phone(port, source=LOOPBACK)
        for _ in range(300):
            status = phone.get(f"/games/{game}/live?v=0", hx=True).status
            with lock:
                statuses[status] += 1
        phone.close()

    threads = [threading.Thread(target=run) for _ in range(4)]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    served = []
    while any(thread.is_alive() for thread in threads):
        served.append(table.get(f"/games/{game}/live?v=0", hx=True))
        time.sleep(0.02)
    elapsed = time.monotonic() - start
    table.close()
    print(f"  1,200 polls from one address in {elapsed:.2f} s: {dict(statuses)}; the other "
          f"address: {dict(Counter(a.status for a in served))}, {ms([a.seconds for a in served])}")


def cost(port: int, nginx: int | None, label: str) -> None:
    setup = Phone(port, source=OTHER)
    game = setup.new_game(GAME)
    setup.close()
    polls, pages = [], []
    cpu = cpu_seconds(nginx) if nginx else 0.0
    for i in range(1_200):
        phone = Phone(port, source=f"127.0.3.{1 + i // 40}")  # under 50 a second each
        if i % 6 == 0:
            pages.append(phone.get(f"/games/{game}").seconds)
        else:
            polls.append(phone.get(f"/games/{game}/live?v=0", hx=True).seconds)
        phone.close()
    spent = (cpu_seconds(nginx) - cpu) * 1000 / 1_200 if nginx else 0.0
    print(f"  {label}: polls {ms(polls)}; game pages {ms(pages)}"
          + (f"; nginx {spent:.2f} ms CPU a request" if nginx else ""))
    phone = Phone(port, source=OTHER, timeout=60).open()
    game = phone.new_game(GAME)
    boundary = "benchmark"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; "
            f"filename=\"x.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n").encode() \
        + b"not a photo".ljust(25 << 20, b"x") + f"\r\n--{boundary}--\r\n".encode()
    answer = phone.request("POST", f"/games/{game}/scan", body, {
        "Content-Type": f"multipart/form-data; boundary={boundary}",
        "X-CSRF-Token": phone.token})
    phone.close()
    print(f"  {label}: a 25 MiB upload answered {answer.status} in {answer.seconds:.2f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="300 connections, 12 s")
    parser.add_argument("--trickle", type=int)
    parser.add_argument("--seconds", type=float)
    args = parser.parse_args(argv)
    count = args.trickle or (300 if args.quick else 1_100)
    seconds = min(args.seconds or (12.0 if args.quick else 24.0), 120.0)
    if not more_open_files(count + 1_000):
        print(f"{count + 1_000} open files needed (ulimit -Hn)")
        return 1
    print(f"machine: {os.cpu_count()} cores, load average {load_average()}")
    work = Path(tempfile.mkdtemp(prefix="terminus-proxy-"))
    with behind_nginx(work, work / "proxy.sqlite3") as proxied:
        nginx = worker_pid(proxied.nginx.process.pid)
        print(f"nginx worker pid {nginx}: RSS {memory(nginx)['VmRSS'] / 1024:.1f} MB at rest")
        print(f"trickle through nginx ({count} connections, a byte every 8 s, {seconds:.0f} s):")
        trickle(proxied.port, count, seconds, nginx)
        time.sleep(5)  # the rate limit's bucket fills again
        print("flood through nginx:")
        flood(proxied.port)
        print("cost:")
        cost(proxied.server.port, None, "waitress alone")
        cost(proxied.port, nginx, "through nginx")
    server = ServerProcess(work / "alone.sqlite3", threads=4).start()
    try:
        print(f"trickle against waitress alone ({count} connections, {seconds:.0f} s):")
        trickle(server.port, count, seconds, None)
    finally:
        server.stop()
    print(f"machine load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
