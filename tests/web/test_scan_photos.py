"""A second photo (and more) read into one review: combined, each card cropping every photo, the
first photo's checks and quotas, the corrections kept, several phones adding at once."""

from __future__ import annotations

import io
import re
import threading
from types import SimpleNamespace

import numpy as np
import pytest
from PIL import Image

from scorer.boards import load_board
from scorer.web import scan_store
from scorer.web.scan_photos import combined, readings
from tests.web.conftest import Client
from tests.web.test_scan import (
    doubtful_lanes,
    lanes_shown,
    new_game,
    owners,
    sample,
    scan_url,
    upload,
)


@pytest.fixture(scope="module")
def photos() -> tuple[bytes, bytes, dict]:
    """Sample usa-01 and the same board from the other side of the table: turned half round,
    smaller (another phone) and compressed harder."""
    data, truth = sample("usa-01")
    image = Image.open(io.BytesIO(data)).rotate(180)
    image = image.resize((image.width * 3 // 5, image.height * 3 // 5))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=80)
    return data, buffer.getvalue(), truth


def add(client, url: str, data: bytes, name: str = "other.jpg", **kwargs):
    return client.post(url + "/photos", data={"photo": (io.BytesIO(data), name)},
                       content_type="multipart/form-data", **kwargs)


def card(page: str) -> str:
    return re.search(r'<section id="card".*?</section>', page, re.S).group(0)


def test_a_second_photo_is_read_into_the_review_and_every_card_crops_both(client, photos):
    first, other, truth = photos
    game_id = new_game(client, "usa", truth["players"])
    url = scan_url(upload(client, game_id, first))
    alone = len(doubtful_lanes(client.get(url).text))
    other_alone = len(doubtful_lanes(client.get(scan_url(upload(
        client, new_game(client, "usa", truth["players"]), other))).text))
    answer = add(client, url, other)
    assert answer.status_code == 303 and answer.headers["Location"].endswith(url)
    page = client.get(url).text
    assert 'data-photos="2"' in page and "Photo added" in page
    # never more asked than either photo alone
    assert len(doubtful_lanes(page)) <= min(alone, other_alone)
    crops = re.findall(r'data-crop="([^"]+)"', card(page))
    assert crops == ["rectified.jpg", "rectified-2.jpg"]
    for name in crops:
        image = client.get(f"{url}/{name}")
        assert image.status_code == 200 and image.mimetype == "image/jpeg"
    assert client.get(f"{url}/rectified-3.jpg").status_code == 404
    # the combination reads the board right as the first photo alone does, or better
    claimed = {rid for rid, colour in truth["routes"].items() if colour}
    found = {rid for rid, owner in lanes_shown(page).items() if owner}
    assert len(found & claimed) >= 0.75 * len(claimed) and len(found - claimed) <= 2


def test_apply_after_a_second_photo_sets_what_the_review_shows_and_undo_takes_it_back(
        client, photos):
    first, other, truth = photos
    game_id = new_game(client, "usa", truth["players"])
    url = scan_url(upload(client, game_id, first))
    client.post(url + "/lanes/helena--seattle", data={"owner": "Bob"})  # before the 2nd photo
    assert add(client, url, other).status_code == 303
    shown = lanes_shown(client.get(url).text)
    assert shown["helena--seattle"] == "Bob"  # the correction stays
    assert client.post(url + "/apply").status_code == 303
    assert owners(client, game_id) == {rid: owner for rid, owner in shown.items() if owner}
    client.post(f"/games/{game_id}/undo")
    assert owners(client, game_id) == {}


@pytest.mark.parametrize(("payload", "status", "text"), [
    (b"just some text, not a photo", 415, "not an image"),
    (b"", 400, "empty"),
    (b"\xff" * (scan_store.MAX_PHOTO_BYTES + 1), 413, "larger than 25 MB"),
])
def test_a_hostile_second_file_is_refused_and_nothing_changes(client, photos, payload, status,
                                                              text):
    first, _other, truth = photos
    game_id = new_game(client, "usa", truth["players"])
    url = scan_url(upload(client, game_id, first))
    before = client.get(url).text
    answer = add(client, url, payload)
    assert answer.status_code == status and text in answer.text
    after = client.get(url).text
    assert lanes_shown(after) == lanes_shown(before) and "data-photos" not in after
    assert client.get(f"{url}/rectified-2.jpg").status_code == 404


def test_a_second_photo_of_no_board_says_so_and_changes_nothing(client, photos):
    first, _other, truth = photos
    game_id = new_game(client, "usa", truth["players"])
    url = scan_url(upload(client, game_id, first))
    before = lanes_shown(client.get(url).text)
    buffer = io.BytesIO()
    Image.new("RGB", (800, 600), (40, 120, 40)).save(buffer, "JPEG")
    answer = add(client, url, buffer.getvalue())
    assert answer.status_code == 422 and "The other photo was not read" in answer.text
    assert lanes_shown(client.get(url).text) == before


def test_two_phones_adding_photos_at_once_both_count(app, client, photos):
    first, other, truth = photos
    game_id = new_game(client, "usa", truth["players"])
    url = scan_url(upload(client, game_id, first))
    phones = [Client(app.test_client()) for _ in range(2)]
    start = threading.Barrier(2)
    codes: list[int] = []

    def send(phone: Client, data: bytes) -> None:
        start.wait()
        codes.append(add(phone, url, data).status_code)

    threads = [threading.Thread(target=send, args=(phone, data))
               for phone, data in zip(phones, (other, first), strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert codes == [303, 303]
    page = client.get(url).text
    assert 'data-photos="3"' in page
    assert re.findall(r'data-crop="([^"]+)"', card(page)) == [
        "rectified.jpg", "rectified-2.jpg", "rectified-3.jpg"]


def test_a_lane_doubtful_on_one_photo_takes_the_player_another_reads_surely():
    game = SimpleNamespace(players=[SimpleNamespace(name="Ann", color="red"),
                                    SimpleNamespace(name="Bob", color="blue")],
                           board=load_board("usa"))
    routes = list(load_board("usa").routes)
    empty = {"owner": None, "confidence": 0.99, "likely": "empty", "second": "red"}
    one = {"routes": {r: empty for r in routes}, "stations": {}}
    two = {"routes": {r: empty for r in routes}, "stations": {}}
    one["routes"] = {**one["routes"], "denver--omaha": {
        "owner": None, "confidence": 0.2, "likely": "empty", "second": "blue"}}
    two["routes"] = {**two["routes"], "denver--omaha": {
        "owner": "blue", "confidence": 0.96, "likely": "blue", "second": "empty"}}
    lanes = combined({"photos": [one, two]}, game)["lanes"]
    assert lanes["denver--omaha"]["owner"] == "Bob"
    assert lanes["denver--omaha"]["confidence"] == 0.96


def test_a_scan_read_before_photos_were_kept_apart_has_its_one_reading():
    result = {"detection": {"routes": [{"id": "a--b", "owner": "red", "confidence": 0.9}],
                            "stations": [{"city": "Paris", "owner": "red"}],
                            "elapsed_ms": 700}}
    assert readings(result) == [{"routes": {"a--b": {"owner": "red", "confidence": 0.9}},
                                 "stations": {"Paris": "red"}, "elapsed_ms": 700}]
    assert readings({"lanes": {}, "stations": {}, "proposed": {}}) == []


def test_a_tap_from_another_phone_while_a_photo_is_read_is_kept(app, client, photos,
                                                                monkeypatch):
    from scorer.web import scan_runner

    first, other, truth = photos
    game_id = new_game(client, "usa", truth["players"])
    url = scan_url(upload(client, game_id, first))
    reading, tapped = threading.Event(), threading.Event()
    read_photo = scan_runner.read_photo

    def slow_read(*args, **kwargs):
        read = read_photo(*args, **kwargs)
        reading.set()
        assert tapped.wait(30)  # the other phone's tap lands while this photo is being read
        return read

    monkeypatch.setattr(scan_runner, "read_photo", slow_read)
    codes: list[int] = []
    adder = threading.Thread(target=lambda: codes.append(
        add(Client(app.test_client()), url, other).status_code))
    adder.start()
    assert reading.wait(60)
    assert client.hx(url + "/lanes/helena--seattle", {"owner": "Bob"}).status_code == 200
    tapped.set()
    adder.join()
    assert codes == [303]
    page = client.get(url).text
    assert 'data-photos="2"' in page and lanes_shown(page)["helena--seattle"] == "Bob"


def test_the_stations_of_two_photos_are_combined_and_told_as_players():
    game = SimpleNamespace(players=[SimpleNamespace(name="Ann", color="red"),
                                    SimpleNamespace(name="Bob", color="blue")],
                           board=load_board("europe"))
    one = {"routes": {}, "stations": {"Paris": "red", "Roma": "green"}}
    two = {"routes": {}, "stations": {"Paris": "red", "Wien": "blue"}}
    three = {"routes": {}, "stations": {"Wien": "blue"}}
    assert combined({"photos": [one, two]}, game)["stations"] == {"Paris": "Ann", "Wien": "Bob"}
    # seen on one photo of three: left out
    assert combined({"photos": [one, two, three]}, game)["stations"] == {
        "Paris": "Ann", "Wien": "Bob"}
    assert combined({"photos": [one, three, three]}, game)["stations"] == {"Wien": "Bob"}


def test_a_second_photo_past_the_game_s_quota_is_refused_and_nothing_changes(app, client,
                                                                             photos):
    first, other, truth = photos
    game_id = new_game(client, "usa", truth["players"])
    url = scan_url(upload(client, game_id, first))
    before = lanes_shown(client.get(url).text)
    app.config["SCAN_GAME_QUOTA"] = len(other) - 1  # too small, even for this photo alone
    answer = add(client, url, other)
    assert answer.status_code == 507 and "No room for more photos" in answer.text
    # making room never deletes the review the photo was for
    assert lanes_shown(client.get(url).text) == before
    assert client.get(f"{url}/rectified-2.jpg").status_code == 404


def under_a_glare_spot(data: bytes, corners: list, most: float = 0.6,
                       spread: float = 0.2) -> bytes:
    """The photo under a lamp's bright spot over the board's middle: up to ``most`` of white
    mixed into every colour (over 1: burnt out to white at its centre), fading over
    ``spread`` of the board's diagonal."""
    image = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), dtype=np.float32)
    quad = np.asarray(corners, dtype=np.float32)
    centre, diagonal = quad.mean(axis=0), float(np.linalg.norm(quad[0] - quad[2]))
    yy, xx = np.mgrid[0:image.shape[0], 0:image.shape[1]]
    share = most * np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2)
                          / (2 * (spread * diagonal) ** 2))[..., None]
    buffer = io.BytesIO()
    Image.fromarray(np.clip(image * (1 - np.minimum(share, 1)) + 250 * share, 0, 255)
                    .astype(np.uint8)).save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


def test_a_glared_photo_says_so_until_a_photo_from_another_side_is_added(client, photos):
    first, other, truth = photos
    glared = under_a_glare_spot(first, truth["corners"])
    url = scan_url(upload(client, new_game(client, "usa", truth["players"]), glared))
    page = client.get(url).text
    assert "data-glare" in page and "A glare spot lies over part of the board" in page
    assert "data-glare" not in client.get(scan_url(upload(
        client, new_game(client, "usa", truth["players"]), first))).text
    add(client, url, other)  # the same board from the other side, no glare
    assert "data-glare" not in client.get(url).text


def test_a_small_spot_burnt_out_to_white_says_so_and_asks_its_lanes(client, photos):
    """A lamp's reflection burnt out to white over a few lanes: too small to count as a glare
    over part of the board, but nothing under it can be read: the review says so, and lists
    those lanes to check."""
    first, _, truth = photos
    burnt = under_a_glare_spot(first, truth["corners"], most=1.8, spread=0.05)
    url = scan_url(upload(client, new_game(client, "usa", truth["players"]), burnt))
    page = client.get(url).text
    assert "data-glare" in page
    # the lanes under its centre (the board's middle), read empty surely without it
    assert {"denver--kansas-city", "kansas-city--omaha"} <= doubtful_lanes(page)
