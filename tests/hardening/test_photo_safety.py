"""Photos that could hang, bloat or fill the server (issue 16), over HTTP on waitress: only
JPEG, PNG, WebP and HEIC/HEIF (AVIF) reach a decoder; any other file is refused from its first
bytes and kept nowhere; a detector that fails ends as a message and a finished (prunable) scan;
every decode of a photo waits for the detection pool; the scans of a game and of the server
stay within their quotas."""

from __future__ import annotations

import io
import time

import numpy as np
import pytest
from PIL import EpsImagePlugin, Image
from sqlalchemy import delete, insert, update

from scorer.vision.decode import decode
from scorer.vision.errors import ImageRejected
from scorer.web.db import scan_files, scans
from tests.hardening.databases import change_scans, stored_scans
from tests.hardening.live import Phone, players
from tests.hardening.test_upload_pool import (
    NOT_A_BOARD,
    served,
    upload,
    upload_with_every_slot_taken,
)

# The 69-byte EPS of the issue: Pillow hands it to Ghostscript, which never ended.
EPS = (b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n"
       b"{ } loop\nshowpage\n%%EOF\n")


def encoded(fmt: str, size: tuple[int, int] = (64, 48)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(buffer, fmt)
    return buffer.getvalue()


def noise_png(size: tuple[int, int] = (600, 450)) -> bytes:
    """A photo of no board whose file is larger than what a scan keeps beside it."""
    pixels = np.random.default_rng(16).integers(0, 255, (size[1], size[0], 3), dtype=np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "PNG")
    return buffer.getvalue()


def forget_corner_photo(app, game: str, scan_id: str) -> None:  # type: ignore[no-untyped-def]
    """Make the scan as one kept from before the corners page's photo was made with it."""
    change_scans(app, delete(scan_files).where(scan_files.c.scan_id == scan_id,
                                               scan_files.c.name == "shown.jpg"))
    change_scans(app, update(scans).where(scans.c.game_id == game, scans.c.id == scan_id)
                 .values(shown_factor=None))


@pytest.fixture
def no_eps(monkeypatch):  # type: ignore[no-untyped-def]
    """Fail the test if Pillow's EPS reader (the one that starts Ghostscript) is ever used."""
    opened: list[str] = []

    def refuse(self):  # type: ignore[no-untyped-def]
        opened.append("EPS")
        raise AssertionError("the EPS reader was reached")

    monkeypatch.setattr(EpsImagePlugin.EpsImageFile, "_open", refuse)
    return opened


@pytest.mark.parametrize("data", [
    EPS, encoded("TIFF"), encoded("BMP"), encoded("GIF"), encoded("PPM"), encoded("TGA"),
    encoded("PCX"), b"%PDF-1.4\n" + bytes(60),
])
def test_only_photo_formats_reach_a_decoder(no_eps, data):
    with pytest.raises(ImageRejected, match="JPEG, PNG, WebP, HEIC"):
        decode(data)
    assert not no_eps


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_the_photo_formats_still_decode(fmt):
    assert decode(encoded(fmt)).shape == (48, 64, 3)


def test_an_eps_upload_is_refused_at_once_and_nothing_is_kept(tmp_path, no_eps):
    with served(tmp_path, workers=2, wait=0.5) as (port, slots, games, app):
        phone = Phone(port).open()
        game = phone.new_game({"variant": "europe", "players": players("Ann", "Bob")})
        games.append(game)
        # Both slots taken, as by two hanging Ghostscripts: the refusal needs none of them.
        answer, took = upload_with_every_slot_taken(phone, game, EPS, slots)
        assert answer.status == 415, answer.status
        assert "not an image we can read (JPEG, PNG, WebP, HEIC)" in answer.text
        assert took < 0.5
        assert not no_eps
        assert not stored_scans(app, game)


def test_a_detector_failure_ends_as_a_message_and_a_finished_scan(tmp_path, monkeypatch):
    import scorer.vision

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("gs: killed")

    monkeypatch.setattr(scorer.vision, "detect", broken)
    # the detector replaced in this process: not in a child process
    with served(tmp_path, workers=1, wait=5, SCAN_ISOLATED=False) as (port, slots, games, app):
        phone = Phone(port).open()
        game = phone.new_game({"variant": "europe", "players": players("Ann", "Bob")})
        games.append(game)
        try:
            answers = [upload(phone, game, NOT_A_BOARD) for _ in range(5)]
            review = phone.get(answers[-1].headers["location"].split(f":{port}")[-1])
        finally:
            phone.close()
        assert [a.status for a in answers] == [303] * 5
        assert review.status == 422 and "The photo could not be read" in review.text
        assert len(stored_scans(app, game)) <= 3  # failed scans are finished, so pruned
        assert slots.acquire(timeout=1)  # and the slot came back
        slots.release()


def test_the_corners_page_decodes_in_the_detection_pool(tmp_path):
    with served(tmp_path, workers=1, wait=0.5) as (port, slots, games, app):
        phone = Phone(port).open()
        game = phone.new_game({"variant": "europe", "players": players("Ann", "Bob")})
        games.append(game)
        try:
            located = upload(phone, game, NOT_A_BOARD).headers["location"]
            scan_path = located.split(f":{port}")[-1]
            # as a scan kept from before: its corner photo not made yet
            forget_corner_photo(app, game, scan_path.rsplit("/", 1)[1])
            assert slots.acquire(timeout=1)
            try:
                start = time.monotonic()
                busy = phone.get(scan_path + "/corners")
                waited = time.monotonic() - start
            finally:
                slots.release()
            page = phone.get(scan_path + "/corners")
        finally:
            phone.close()
        assert busy.status == 503 and "The scanner is busy" in busy.text
        assert waited >= 0.5
        assert page.status == 200 and "data-corner-photo" in page.text


def test_a_games_scans_and_the_servers_stay_within_their_quotas(tmp_path):
    photo = noise_png()
    with served(tmp_path, workers=1, wait=5) as (port, slots, games, app):
        app.config.update(SCAN_GAME_QUOTA=3 * len(photo), SCAN_DISK_QUOTA=4 * len(photo))
        # nine readings one after the other, each in a child process: slow on a loaded machine
        phone = Phone(port, timeout=60).open()
        first, second = (phone.new_game({"variant": "europe", "players": players("Ann", "Bob")})
                         for _ in range(2))
        games.extend([first, second])
        try:
            answers = [upload(phone, first, photo) for _ in range(6)]
            # a scan whose request died long ago (a killed process) is pruned too
            change_scans(app, insert(scans).values(game_id=second, id="dead", state="reading",
                                                   result="{}", created=0, updated=0))
            change_scans(app, insert(scan_files).values(game_id=second, scan_id="dead",
                                                        name="photo", data=photo))
            more = [upload(phone, second, photo) for _ in range(3)]
        finally:
            phone.close()
        kept = {**stored_scans(app, first), **stored_scans(app, second)}
        size = sum(len(row["files"].get("photo", b"")) for row in kept.values())
        assert [a.status for a in answers + more] == [303] * 9
        assert size <= 4 * len(photo)
        assert "dead" not in kept


def test_a_photo_larger_than_the_game_quota_is_refused_and_not_kept(tmp_path):
    photo = noise_png()
    with served(tmp_path, workers=1, wait=5) as (port, slots, games, app):
        app.config.update(SCAN_GAME_QUOTA=len(photo) // 2)
        phone = Phone(port).open()
        game = phone.new_game({"variant": "europe", "players": players("Ann", "Bob")})
        games.append(game)
        try:
            answer = upload(phone, game, photo)
        finally:
            phone.close()
        assert answer.status == 507 and "No room for more photos" in answer.text
        assert not stored_scans(app, game)


def test_decodes_from_any_mix_of_requests_never_exceed_the_pool(tmp_path, monkeypatch):
    """The memory bound: at most SCAN_WORKERS photos are decoded at once, whatever arrives
    (uploads, corner pages of scans whose reduced photo is not made yet). Counted in the app's
    own process (SCAN_ISOLATED off): isolated, every decode is in a child process, one a slot
    (test_decode_bounds: none in the server's)."""
    import importlib
    import threading
    from concurrent.futures import ThreadPoolExecutor

    decoding = importlib.import_module("scorer.vision.decode")  # the package's decode() hides it
    pipeline = importlib.import_module("scorer.vision.pipeline")
    render = importlib.import_module("scorer.vision.render")  # the review's photos
    original = decoding.decode_scaled
    lock = threading.Lock()
    now = {"in": 0, "most": 0, "calls": 0}

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        with lock:
            now["in"] += 1
            now["calls"] += 1
            now["most"] = max(now["most"], now["in"])
        try:
            time.sleep(0.05)  # long enough for the requests to overlap
            return original(*args, **kwargs)
        finally:
            with lock:
                now["in"] -= 1

    monkeypatch.setattr(decoding, "decode_scaled", counted)
    monkeypatch.setattr(pipeline, "decode_scaled", counted)
    monkeypatch.setattr(render, "decode_scaled", counted)
    photo = noise_png((900, 600))
    with served(tmp_path, workers=2, wait=30, SCAN_ISOLATED=False) as (port, slots, games, app):
        owner = Phone(port, timeout=60).open()
        game, other = (owner.new_game({"variant": "europe", "players": players("Ann", "Bob")})
                       for _ in range(2))
        games.extend([game, other])
        # scans of another game: the uploads below would prune their own game's older scans
        scans = [upload(owner, other, photo).headers["location"] for _ in range(3)]
        for located in scans:  # as scans kept from before: the corner photo not made yet
            forget_corner_photo(app, other, located.rsplit("/", 1)[1])
        owner.close()
        now.update(most=0, calls=0)
        phones = [Phone(port, timeout=60).open() for _ in range(12)]
        try:
            with ThreadPoolExecutor(12) as pool:
                jobs = [pool.submit(upload, phone, game, photo) if i % 2 else
                        pool.submit(phone.get, scans[i % 3].split(f":{port}")[-1] + "/corners")
                        for i, phone in enumerate(phones)]
                answers = [job.result(timeout=120) for job in jobs]
        finally:
            for phone in phones:
                phone.close()
    assert {a.status for a in answers} <= {200, 303}, [(a.status, a.text[-300:]) for a in answers
                                                      if a.status not in (200, 303)]
    assert now["calls"] >= 6
    assert now["most"] <= 2


def test_a_detection_in_the_app_over_the_time_limit_ends_as_a_message_and_keeps_its_slot(
        tmp_path, monkeypatch):
    import threading

    import scorer.vision

    release = threading.Event()

    def stuck(*args, **kwargs):  # type: ignore[no-untyped-def]
        release.wait(30)  # as a decoder that would never end
        raise RuntimeError("never")

    monkeypatch.setattr(scorer.vision, "detect", stuck)
    with served(tmp_path, workers=1, wait=0.3, SCAN_ISOLATED=False) as (port, slots, games,
                                                                        app):
        app.config["SCAN_TIME_LIMIT"] = 0.5
        phone = Phone(port).open()
        game = phone.new_game({"variant": "europe", "players": players("Ann", "Bob")})
        games.append(game)
        try:
            start = time.monotonic()
            answer = upload(phone, game, NOT_A_BOARD)
            took = time.monotonic() - start
            review = phone.get(answer.headers["location"].split(f":{port}")[-1])
            busy = upload(phone, game, NOT_A_BOARD)  # the stuck reading still holds the slot
            release.set()
            time.sleep(0.3)
            assert slots.acquire(timeout=5)  # given back once the detector returned
            slots.release()
        finally:
            release.set()
            phone.close()
    assert answer.status == 303 and took < 3
    assert review.status == 422 and "took too long" in review.text
    assert busy.status == 503


def test_a_read_photo_is_kept_reduced_and_corners_by_hand_still_read_it(tmp_path):
    """Disk: once read, the photo is kept as an upright JPEG of 2400 px at most; the corners
    placed by hand still come and go in the uploaded photo's pixels."""
    import json as json_module
    import re
    from pathlib import Path

    samples = Path(__file__).resolve().parents[2] / "sample_photos"
    truth = json_module.loads((samples / "usa-01.json").read_text())
    original = Image.open(samples / "usa-01.jpg")
    buffer = io.BytesIO()
    original.save(buffer, "PNG")  # the same photo as a large file: 2 MB more than the JPEG
    photo = buffer.getvalue()
    assert len(photo) > 5 * 2**20
    with served(tmp_path, workers=1, wait=30) as (port, slots, games, app):
        phone = Phone(port, timeout=60).open()
        game = phone.new_game({"variant": "usa", "players": [
            {"name": f"P{i}", "color": c} for i, c in enumerate(truth["players"])]})
        games.append(game)
        try:
            review = upload(phone, game, photo).headers["location"].split(f":{port}")[-1]
            scan_id = review.rsplit("/", 1)[1]
            first = json_module.loads(stored_scans(app, game)[scan_id]["result"])
            kept = stored_scans(app, game)[scan_id]["files"]["photo"]
            corners_page = phone.get(review + "/corners").text
            shown = [float(v) for v in re.findall(r'name="c\d" inputmode="decimal" value="'
                                                  r'([\d.]+)"', corners_page)]
            factor = float(re.search(r'data-factor="([\d.]+)"', corners_page).group(1))
            shown_photo = Image.open(io.BytesIO(phone.get(review + "/photo.jpg").body))
            values = {f"c{i}": str(v) for i, v in enumerate(np.ravel(truth["corners"]))}
            again = phone.post(review + "/corners", values, hx=False)
            second = json_module.loads(stored_scans(app, game)[scan_id]["result"])
        finally:
            phone.close()
    assert len(kept) < 2 * 2**20 and Image.open(io.BytesIO(kept)).format == "JPEG"
    assert max(Image.open(io.BytesIO(kept)).size) <= 2400
    # the corners page offers the corners found, in the uploaded photo's pixels
    assert np.allclose(shown, np.ravel(first["detection"]["corners"]), atol=0.11)
    assert factor * max(shown_photo.size) == pytest.approx(max(original.size), rel=0.01)
    assert again.status == 303
    assert np.allclose(second["detection"]["corners"], truth["corners"], atol=0.5)
    assert second["photo_size"] == list(original.size)
    same = sum(second["lanes"][r]["owner"] == first["lanes"][r]["owner"] for r in first["lanes"])
    assert same >= 0.97 * len(first["lanes"])


def test_reviews_left_for_days_are_deleted_by_any_upload(tmp_path, monkeypatch):
    from scorer.web import scan_store

    with served(tmp_path, workers=1, wait=5) as (port, slots, games, app):
        app.config["SCAN_KEEP"] = 3600
        phone = Phone(port).open()
        left, busy = (phone.new_game({"variant": "europe", "players": players("Ann", "Bob")})
                      for _ in range(2))
        games.extend([left, busy])
        try:
            old = upload(phone, left, NOT_A_BOARD).headers["location"].rsplit("/", 1)[1]
            recent = upload(phone, left, NOT_A_BOARD).headers["location"].rsplit("/", 1)[1]
            change_scans(app, update(scans).where(scans.c.id == old)
                         .values(updated=time.time() - 7200))  # finished 2 h ago
            monkeypatch.setattr(scan_store, "_swept", [0.0])
            assert upload(phone, busy, NOT_A_BOARD).status == 303  # another game's upload
        finally:
            phone.close()
        assert old not in stored_scans(app, left)
        assert recent in stored_scans(app, left)


def test_a_detection_over_the_time_limit_is_killed_and_gives_its_slot_back(tmp_path):
    import multiprocessing

    photo = noise_png((1200, 900))  # read in ~0.3 s: far over the limit below
    with served(tmp_path, workers=1, wait=0.3) as (port, slots, games, app):
        app.config["SCAN_TIME_LIMIT"] = 0.05
        phone = Phone(port, timeout=60).open()
        game = phone.new_game({"variant": "europe", "players": players("Ann", "Bob")})
        games.append(game)
        try:
            answers = [upload(phone, game, photo) for _ in range(3)]  # the slot comes back
            review = phone.get(answers[-1].headers["location"].split(f":{port}")[-1])
            free = slots.acquire(timeout=1)
            if free:
                slots.release()
        finally:
            phone.close()
    assert [a.status for a in answers] == [303] * 3
    assert review.status == 422 and "took too long" in review.text
    assert free
    assert not [c for c in multiprocessing.active_children() if c.name == "detection"]
