"""Memory and disk of hostile photo requests on the production server (issue 16).

``python benchmarks/photo_memory.py [--requests 16] [--rounds 2]``

Starts the Makefile's ``make serve`` command (waitress) on a free loopback port and a temporary
database and instance folder, makes a game, and each round sends ``--requests`` requests at once,
a mix of: uploads of a small 8000 x 6000 photo (a 29 KB HEIC, a 152 KB PNG: 48 megapixels that
decode to 144 MB each), the corners page of scans whose reduced photo is not made yet (as scans
kept from an older version), and refused files (a 69-byte EPS, text). Prints the server's
resident memory (VmRSS now, VmHWM peak, from /proc) before and after, the answers' statuses and
times, and what the scans hold in the database. The detector runs in child processes
(SCAN_ISOLATED): "tree" is the most the server and all its children held at once (VmRSS summed,
sampled every 20 ms). Addresses loopback only; bounded by count.
"""

from __future__ import annotations

import argparse
import io
import os
import secrets
import sqlite3
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from tests.hardening.live import Phone, ServerProcess, players  # noqa: E402

EPS = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n{ } loop\nshowpage\n%%EOF\n"


def big_photos() -> dict[str, bytes]:
    import pillow_heif

    pillow_heif.register_heif_opener()
    image = Image.new("RGB", (8000, 6000), (90, 120, 60))
    made = {}
    for fmt in ("HEIF", "PNG"):
        buffer = io.BytesIO()
        image.save(buffer, fmt)
        made[fmt] = buffer.getvalue()
    return made


def memory(pid: int) -> dict[str, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) // 1024  # MB
    return fields


def tree_rss(pid: int) -> int:
    """MB resident in ``pid`` and all its descendants now."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                parents[int(entry.name)] = int(fields[1])
            except (OSError, IndexError, ValueError):
                continue
    family, grew = {pid}, True
    while grew:
        more = {child for child, parent in parents.items() if parent in family} - family
        family |= more
        grew = bool(more)
    total = 0
    for member in family:
        try:
            status = Path(f"/proc/{member}/status").read_text()
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in status.splitlines()
                       if line.startswith("VmRSS:")), 0)
    return total // 1024


class TreePeak(threading.Thread):
    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.running = pid, 0, True

    def run(self) -> None:
        while self.running:
            self.peak = max(self.peak, tree_rss(self.pid))
            time.sleep(0.02)


def upload(phone: Phone, game: str, data: bytes, name: str):  # type: ignore[no-untyped-def]
    boundary = secrets.token_hex(8)
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; "
            f"filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n").encode() \
        + data + f"\r\n--{boundary}--\r\n".encode()
    return phone.request("POST", f"/games/{game}/scan", body, {
        "Content-Type": f"multipart/form-data; boundary={boundary}",
        "X-CSRF-Token": phone.token})


def forget_corner_photos(database: Path, scan: str | None = None) -> None:
    """Make the scans (or one) as scans kept from before their corners page's photo was made."""
    with sqlite3.connect(database) as conn:
        conn.execute("DELETE FROM scan_files WHERE name = 'shown.jpg' AND scan_id LIKE ?",
                     (scan or "%",))
        conn.execute("UPDATE scans SET shown_factor = NULL WHERE id LIKE ?", (scan or "%",))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    photos = big_photos()
    work = Path(tempfile.mkdtemp(prefix="terminus-photo-memory-"))
    database = work / "db.sqlite3"
    server = ServerProcess(database, threads=16).start()
    sampler = TreePeak(server.pid)
    sampler.start()
    try:
        owner = Phone(server.port, timeout=300).open()
        game = owner.new_game({"variant": "usa", "players": players("Ann", "Bob")})
        print(f"photos: HEIC {len(photos['HEIF']) // 1024} KB, PNG {len(photos['PNG']) // 1024}"
              f" KB, 8000 x 6000")
        print("idle:", memory(server.pid))
        corner_pages = []
        other = owner.new_game({"variant": "usa", "players": players("Cy", "Di")})
        for fmt in ("HEIF", "PNG"):  # scans to open the corners page of (another game's: the
            located = upload(owner, other, photos[fmt], "board.heic").headers["location"]
            scan = located.rsplit("/", 1)[1]  # uploads to the first do not prune them)
            forget_corner_photos(database, scan)
            corner_pages.append(f"/games/{other}/scan/{scan}/corners")
        print("after 2 uploads:", memory(server.pid))
        phones = [Phone(server.port, timeout=300).open() for _ in range(args.requests)]
        for round_no in range(args.rounds):
            def one(i: int):  # type: ignore[no-untyped-def]
                phone = phones[i]
                kind = i % 4
                if kind == 0:
                    return "upload", upload(phone, game, photos["HEIF" if i % 8 else "PNG"],
                                            "board.heic")
                if kind == 1:
                    return "corners", phone.get(corner_pages[i % 2])
                if kind == 2:
                    return "corners", phone.get(corner_pages[(i + 1) % 2])
                return "refused", upload(phone, game, EPS if i % 8 == 3 else b"hello" * 20,
                                         "board.eps")

            start = time.monotonic()
            with ThreadPoolExecutor(args.requests) as pool:
                answers = list(pool.map(one, range(args.requests)))
            took = time.monotonic() - start
            statuses: dict[str, list[int]] = {}
            for kind, answer in answers:
                statuses.setdefault(kind, []).append(answer.status)
            slowest = max(answer.seconds for _kind, answer in answers)
            print(f"round {round_no + 1}: {args.requests} requests in {took:.1f} s (slowest "
                  f"{slowest:.1f} s), statuses {statuses}, memory {memory(server.pid)}, "
                  f"tree peak {sampler.peak} MB")
            forget_corner_photos(database)  # corners pages decode again next round
        for phone in (owner, *phones):
            phone.close()
        time.sleep(1)
        print("after:", memory(server.pid), f"tree now {tree_rss(server.pid)} MB, "
              f"tree peak {sampler.peak} MB")
        with sqlite3.connect(database) as conn:
            count = conn.execute("SELECT COUNT(*) FROM scans").fetchone()[0]
            size = conn.execute("SELECT COALESCE(SUM(LENGTH(data)), 0) FROM scan_files"
                                ).fetchone()[0]
        print(f"scans in the database: {count}, images {size / 2**20:.1f} MB")
        print("server errors:", server.errors() or "none")
    finally:
        sampler.running = False
        server.stop()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
