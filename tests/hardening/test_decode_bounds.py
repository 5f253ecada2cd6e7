"""Decoding bounded for every format (issue 26, item 3): a photo at the pixel limit of its
format decodes within the bound of a detection slot (measured in a child process, VmHWM), or
is refused from its header; no photo is decoded in the server's own process (the detection,
the review's photos and the corners page's all decode in the detection's child, under its time
limit); one device cannot hold a second detection slot while another device waits."""

from __future__ import annotations

import math
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from scorer.vision.decode import DECODE_BOUND_MB, FORMAT_MEGAPIXELS
from tests.hardening.hostile_photos import heic_grid_understated, worst_case
from tests.hardening.live import Phone, players
from tests.hardening.test_photo_safety import forget_corner_photo
from tests.hardening.test_upload_pool import NOT_A_BOARD, served, upload

ROOT = Path(__file__).resolve().parents[2]

# In a fresh process: what a detection child decodes of the file (the detector's decode, the
# photo kept for the review, the corners page's), and the most it held beyond what it held
# before (MB), or why it refused the file.
_MEASURE = """
import io, sys
from pathlib import Path
from PIL import Image
from scorer.vision import upright_jpeg
from scorer.vision.decode import decode_scaled
from scorer.vision.errors import ImageRejected
small = io.BytesIO()
Image.new("RGB", (64, 64)).save(small, "JPEG")
decode_scaled(small.getvalue(), 2000)
def status(key):  # kB; VmHWM: the most this process held (ru_maxrss keeps the parent's
    return next(int(line.split()[1]) for line in Path("/proc/self/status").read_text()
                .splitlines() if line.startswith(key + ":"))  # from before its exec)
before = status("VmRSS")
data = Path(sys.argv[1]).read_bytes()
try:
    decode_scaled(data, 2000)
    upright_jpeg(data, 2400, 92, exact=True)
    upright_jpeg(data, 1600, 80)
    print("decoded", (status("VmHWM") - before) // 1024)
except ImageRejected as exc:
    print("refused", exc)
"""


def decoded_in_a_child(tmp_path: Path, data: bytes) -> tuple[str, str]:
    path = tmp_path / "photo"
    path.write_bytes(data)
    out = subprocess.run([sys.executable, "-c", _MEASURE, str(path)], capture_output=True,
                         text=True, check=True, cwd=ROOT, timeout=300)
    outcome, _, detail = out.stdout.strip().partition(" ")
    return outcome, detail


# The 7000 x 7000 (49 megapixels, under the 50-megapixel limit) in each format that
# decodes whole: the lossless WebP took the server to 953 MB.
@pytest.mark.parametrize("kind", ["WEBP-lossless", "AVIF", "HEIC-grid"])
def test_a_photo_at_the_pixel_limit_is_refused_from_its_header_or_fits_the_bound(tmp_path, kind):
    outcome, detail = decoded_in_a_child(tmp_path, worst_case(kind, 7000, 7000))
    if outcome == "decoded":
        assert int(detail) <= DECODE_BOUND_MB, f"{kind}: {detail} MB"
    else:
        assert "at most" in detail and "megapixels" in detail


def test_a_heic_grid_larger_than_its_header_says_is_refused_within_the_bound(tmp_path):
    """The limit reads the header: a grid whose tiles make 7000 x 7000 px while the header
    says 1000 x 1000 is refused by libheif, which checks the size it put together."""
    outcome, detail = decoded_in_a_child(
        tmp_path, heic_grid_understated((7000, 7000), (1000, 1000)))
    if outcome == "decoded":
        assert int(detail) <= DECODE_BOUND_MB
    else:
        assert "damaged" in detail or "too large" in detail, detail


def test_a_lossless_webp_at_its_formats_limit_decodes_within_the_bound(tmp_path):
    pixels = FORMAT_MEGAPIXELS["WEBP"] * 1e6 * 0.999
    height = int(math.sqrt(pixels * 3 / 4))
    outcome, detail = decoded_in_a_child(tmp_path, worst_case("WEBP-lossless",
                                                              int(pixels / height), height))
    assert outcome == "decoded", detail
    assert int(detail) <= DECODE_BOUND_MB


def until(condition, seconds: float = 10) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)


@pytest.fixture
def decodes_here(monkeypatch):  # type: ignore[no-untyped-def]
    """Every decode of a photo in this process (the server's, in these tests), counted."""
    import importlib

    decoding = importlib.import_module("scorer.vision.decode")
    pipeline = importlib.import_module("scorer.vision.pipeline")
    render = importlib.import_module("scorer.vision.render")
    original = decoding.decode_scaled
    calls: list[int] = []

    def counted(data, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(len(data))
        return original(data, *args, **kwargs)

    for module in (decoding, pipeline, render):
        monkeypatch.setattr(module, "decode_scaled", counted)
    return calls


def test_no_photo_is_decoded_in_the_servers_process(tmp_path, decodes_here):
    """A detection that failed (no board) used to be followed by a decode of the photo in the
    server's own thread, without a time limit (its corners page's photo); a read photo by the
    rectified view's; the corners page of an older scan by its photo. All in the child now."""
    with served(tmp_path, workers=1, wait=30) as (port, slots, games, app):
        phone = Phone(port, timeout=120).open()
        game = phone.new_game({"variant": "europe", "players": players("Ann", "Bob")})
        games.append(game)
        try:
            located = upload(phone, game, NOT_A_BOARD).headers["location"]
            scan_path = located.split(f":{port}")[-1]
            failed = phone.get(scan_path)
            forget_corner_photo(app, game, scan_path.rsplit("/", 1)[1])
            corners = phone.get(scan_path + "/corners")
            shown = phone.get(scan_path + "/photo.jpg")
        finally:
            phone.close()
    assert failed.status == 422
    assert corners.status == 200 and "data-corner-photo" in corners.text
    assert shown.status == 200 and shown.body[:3] == b"\xff\xd8\xff"
    assert decodes_here == []


def test_one_device_cannot_take_a_second_slot_while_another_device_waits(tmp_path,
                                                                         monkeypatch):
    import scorer.vision
    from scorer.messages import Message
    from scorer.vision.errors import BoardNotFound
    from scorer.web import scan_runner

    entered, go_on = threading.Semaphore(0), threading.Event()

    def slow(*args, **kwargs):  # type: ignore[no-untyped-def]
        entered.release()
        go_on.wait(30)
        raise BoardNotFound(Message("No board found."))

    monkeypatch.setattr(scorer.vision, "detect", slow)
    with served(tmp_path, workers=2, wait=20, SCAN_ISOLATED=False) as (port, slots, games,
                                                                       app):
        ann, cy = Phone(port, timeout=60).open(), Phone(port, timeout=60).open()
        game = ann.new_game({"variant": "europe", "players": players("Ann", "Bob")})
        other = cy.new_game({"variant": "europe", "players": players("Cy", "Di")})
        games.extend([game, other])
        assert ann.cookies.get("device") and cy.cookies.get("device")
        assert ann.cookies["device"] != cy.cookies["device"]
        second_ann = Phone(port, timeout=60)  # the same device, another connection
        second_ann.cookies, second_ann.token = dict(ann.cookies), ann.token
        answers: dict[str, object] = {}

        def send(name: str, phone: Phone, to: str) -> None:
            answers[name] = upload(phone, to, NOT_A_BOARD)

        assert slots.acquire(timeout=1)  # another table's photo holds one slot
        threads = [threading.Thread(target=send, args=("ann 1", ann, game))]
        threads[0].start()
        assert entered.acquire(timeout=10)  # Ann's first photo holds the other slot
        threads.append(threading.Thread(target=send, args=("ann 2", second_ann, game)))
        threads[1].start()
        until(lambda: scan_runner._waiting)  # Ann's second photo waits for a slot
        threads.append(threading.Thread(target=send, args=("cy", cy, other)))
        threads[2].start()
        until(lambda: "ann 2" in answers)  # Cy's comes to wait: Ann's second is refused
        slots.release()  # the other table's photo is read: one slot free
        try:
            got_it = entered.acquire(timeout=10)
            go_on.set()
            for thread in threads:
                thread.join(60)
        finally:
            go_on.set()
            for phone in (ann, second_ann, cy):
                phone.close()
    assert got_it
    ann_2, cy_answer = answers["ann 2"], answers["cy"]
    assert cy_answer.status == 303, (cy_answer.status, cy_answer.text[-400:])
    assert ann_2.status == 503
    assert "This phone is already having a photo read while other tables wait" in ann_2.text
    assert answers["ann 1"].status == 303


def test_the_refusal_of_a_second_slot_is_said_in_french(tmp_path):
    from scorer.web import create_app
    from tests.hardening.databases import app_config

    app = create_app({**app_config(tmp_path, "db.sqlite3"), "SECRET_KEY": "fr"})
    from scorer.web.scan_runner import DeviceBusy

    with app.test_request_context(headers={"Accept-Language": "fr"}):
        said = DeviceBusy().said()
    assert said.startswith("Ce téléphone fait déjà lire une photo")
