"""Photo uploads against the bounded detection pool of scan.py, over HTTP on waitress: an upload
that finds every slot taken waits SCAN_WAIT seconds, then gets a clear "busy" 503 (nothing kept);
uploads that wait together for a slot must not spoil each other.

To hold the uploads at the pool's door without running real detections, the test takes the
pool's slots itself and gives them back when it wants the uploads to go on."""

from __future__ import annotations

import io
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

from PIL import Image

from scorer.web import create_app, scan_runner
from tests.hardening.databases import app_config, stored_scans
from tests.hardening.live import Phone, players, thread_server

# A photo of no board: it goes through to the detector, which reads "no board" quickly.
_buffer = io.BytesIO()
Image.new("RGB", (64, 64), (128, 128, 128)).save(_buffer, "JPEG")
NOT_A_BOARD = _buffer.getvalue()


def upload(phone: Phone, game: str, data: bytes):  # type: ignore[no-untyped-def]
    boundary = secrets.token_hex(8)
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; "
            f"filename=\"board.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n").encode() + data \
        + f"\r\n--{boundary}--\r\n".encode()
    return phone.request("POST", f"/games/{game}/scan", body, {
        "Content-Type": f"multipart/form-data; boundary={boundary}",
        "X-CSRF-Token": phone.token})


def upload_with_every_slot_taken(phone: Phone, game: str, data: bytes,
                                 slots):  # type: ignore[no-untyped-def]
    """The upload's answer and how long it took, both of the pool's two slots held meanwhile
    (as by two photos being read); the phone is closed afterwards."""
    assert slots.acquire(timeout=1) and slots.acquire(timeout=1)
    try:
        start = time.monotonic()
        answer = upload(phone, game, data)
        return answer, time.monotonic() - start
    finally:
        slots.release()
        slots.release()
        phone.close()


@contextmanager
def served(tmp_path, workers: int, wait: float, **config):  # type: ignore[no-untyped-def]
    app = create_app({**app_config(tmp_path, "db.sqlite3"), "SECRET_KEY": "pool",
                      "SCAN_WORKERS": workers, "SCAN_WAIT": wait, **config})
    slots = scan_runner._slots
    games: list[str] = []
    with thread_server(app, threads=8) as port:
        yield port, slots, games, app


def test_an_upload_finding_the_pool_full_waits_then_gets_busy_and_keeps_nothing(tmp_path):
    with served(tmp_path, workers=2, wait=0.5) as (port, slots, games, app):
        phone = Phone(port).open()
        game = phone.new_game({"variant": "europe", "players": players("Ann", "Bob")})
        games.append(game)
        answer, waited = upload_with_every_slot_taken(phone, game, NOT_A_BOARD, slots)
        assert answer.status == 503
        assert "The scanner is busy with other photos" in answer.text
        assert 0.5 <= waited < 5
        assert not stored_scans(app, game)


def test_uploads_waiting_together_for_the_pool_do_not_delete_each_others_photos(tmp_path):
    with served(tmp_path, workers=1, wait=20) as (port, slots, games, app):
        owner = Phone(port).open()
        game = owner.new_game({"variant": "europe", "players": players("Ann", "Bob")})
        games.append(game)
        phones = [Phone(port, timeout=30).open() for _ in range(4)]
        assert slots.acquire(timeout=1)  # the one slot: the four uploads queue up
        released = False
        try:
            with ThreadPoolExecutor(4) as pool:
                futures = []
                for phone in phones:
                    futures.append(pool.submit(upload, phone, game, NOT_A_BOARD))
                    time.sleep(0.3)  # each one saved its photo and is waiting for the slot
                time.sleep(0.5)
                slots.release()
                released = True
                answers = [f.result(timeout=60) for f in futures]
        finally:
            if not released:
                slots.release()
            for phone in (owner, *phones):
                phone.close()
        # A photo of no board is read as "not a board": a redirect to the failed scan, never a 500.
        assert [a.status for a in answers] == [303] * 4
