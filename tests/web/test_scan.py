"""Scan the board: upload a photo, review what was read, correct by tap, apply (or not)."""

from __future__ import annotations

import html
import io
import json
import re
import threading
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from scorer.web import scan_runner, scan_store
from tests.hardening.databases import app_config, on_postgres, stored_scans
from tests.web.conftest import players

SAMPLES = Path(__file__).resolve().parents[2] / "sample_photos"


def sample(name: str) -> tuple[bytes, dict]:
    truth = json.loads((SAMPLES / f"{name}.json").read_text())
    return (SAMPLES / f"{name}.jpg").read_bytes(), truth


def new_game(client, variant: str, colors: list[str]) -> str:
    names = ["Ann", "Bob", "Cleo", "Dan", "Eve"]
    return client.api_game({"variant": variant, "players": players(
        *(f"{n}:{c}" for n, c in zip(names, colors, strict=False)))})


def upload(client, game_id: str, data: bytes, name: str = "board.jpg", **kwargs):
    return client.post(f"/games/{game_id}/scan",
                       data={"photo": (io.BytesIO(data), name)},
                       content_type="multipart/form-data", **kwargs)


def scan_url(response) -> str:
    assert response.status_code == 303, response.text[:500]
    return response.headers["Location"]


def owners(client, game_id: str) -> dict[str, str]:
    score = client.get(f"/api/games/{game_id}/score").get_json()
    return {route: p["name"] for p in score["players"] for route in p["routes"]}


@pytest.fixture(scope="module")
def usa_photo():
    return sample("usa-01")


def test_the_scan_page_offers_the_camera(client, usa):
    page = client.get(f"/games/{usa}/scan")
    assert page.status_code == 200
    assert 'capture="environment"' in page.text and 'accept="image/*"' in page.text


def test_a_photo_is_read_reviewed_and_nothing_changes_before_apply(client, usa_photo):
    data, truth = usa_photo
    game_id = new_game(client, "usa", truth["players"])
    review = client.get(scan_url(upload(client, game_id, data)))
    assert review.status_code == 200
    assert owners(client, game_id) == {}
    claimed = {rid for rid, color in truth["routes"].items() if color}
    shown = dict(re.findall(r'data-route-id="([^"]+)" data-owner="([^"]*)"', review.text))
    found = {rid for rid, owner in shown.items() if owner}
    # The detector's accuracy is measured in tests/vision; here: the page shows what it read.
    assert len(found & claimed) >= 0.75 * len(claimed)
    assert len(found - claimed) <= 2


def test_apply_records_the_photo_as_one_undoable_step(client, usa_photo):
    data, truth = usa_photo
    game_id = new_game(client, "usa", truth["players"])
    url = scan_url(upload(client, game_id, data))
    page = client.get(url).text
    shown = dict(re.findall(r'data-route-id="([^"]+)" data-owner="([^"]*)"', page))
    done = client.post(url + "/apply")
    assert done.status_code == 303
    after = owners(client, game_id)
    # Exactly what the review showed, lane by lane, the doubtful lanes included (a doubtful
    # lane shown with a player: test_apply_sets_exactly_the_owners_the_review_shows_*)
    assert after == {rid: owner for rid, owner in shown.items() if owner}
    assert after
    undo = client.post(f"/games/{game_id}/undo")
    assert undo.status_code in (200, 303)
    assert owners(client, game_id) == {}


def test_a_tap_cycles_the_owner_and_apply_uses_the_correction(client, usa_photo):
    data, truth = usa_photo
    game_id = new_game(client, "usa", truth["players"])
    url = scan_url(upload(client, game_id, data))
    lane = "helena--seattle"
    before = re.search(rf'data-route-id="{lane}" data-owner="([^"]*)"', client.get(url).text)
    cycle = ["", "Ann", "Bob", "Cleo"]
    expected = cycle[(cycle.index(before.group(1)) + 1) % len(cycle)]
    answer = client.hx(url + f"/lanes/{lane}")
    assert answer.status_code == 200 and 'id="scan-review"' in answer.text
    assert f'data-route-id="{lane}" data-owner="{expected}"' in answer.text
    client.post(url + f"/lanes/{lane}", data={"owner": "Bob"})
    client.post(url + "/apply")
    assert owners(client, game_id).get(lane) == "Bob"


def test_apply_shows_what_it_changes_against_claims_already_entered(client, usa_photo):
    data, truth = usa_photo
    game_id = new_game(client, "usa", truth["players"])
    claimed = next(rid for rid, color in truth["routes"].items()
                   if color and rid not in truth.get("doubtful", []))
    empty = next(rid for rid, color in truth["routes"].items() if color is None
                 and not rid.endswith("--2") and rid not in truth.get("doubtful", []))
    client.post(f"/games/{game_id}/routes/{empty}", data={"player": "Ann", "do": "claim"})
    page = client.get(scan_url(upload(client, game_id, data))).text
    assert re.search(rf'data-lane="{empty}".*?class="tag remove"', page, re.S)
    assert re.search(rf'data-lane="{claimed}".*?class="tag add"', page, re.S)


@pytest.mark.parametrize(
    ("payload", "status", "text"),
    [
        (b"", 400, "empty"),
        (b"just some text, not a photo", 415, "not an image"),
        (Image.new("RGB", (10, 10)).tobytes()[:5], 415, "not an image"),
    ],
)
def test_bad_files_get_a_clear_message_and_change_nothing(client, usa, payload, status, text):
    answer = upload(client, usa, payload, follow_redirects=True)
    assert answer.status_code == status
    assert text in answer.text
    assert owners(client, usa) == {}


def test_a_photo_of_no_board_offers_the_corners_by_hand(client, usa):
    rng = np.random.default_rng(7)
    noise = Image.fromarray(rng.integers(0, 255, (600, 800, 3), dtype=np.uint8))
    buffer = io.BytesIO()
    noise.save(buffer, "JPEG")
    answer = upload(client, usa, buffer.getvalue(), follow_redirects=True)
    assert answer.status_code == 422
    assert "data-place-corners" in answer.text
    corners = re.search(r'href="([^"]+/corners)"', answer.text).group(1)
    page = client.get(corners)
    assert page.status_code == 200 and "data-corner-photo" in page.text
    assert client.get(corners.replace("/corners", "/photo.jpg")).status_code == 200


def test_corners_placed_by_hand_read_the_board(client, usa_photo):
    data, truth = usa_photo
    game_id = new_game(client, "usa", truth["players"])
    url = scan_url(upload(client, game_id, data))
    client.get(url + "/corners")
    values = {f"c{i}": v for i, v in enumerate(np.ravel(truth["corners"]))}
    answer = client.post(url + "/corners", data=values)
    assert answer.status_code == 303 and answer.headers["Location"].endswith(url.split("/")[-1])
    assert client.get(url).status_code == 200
    incomplete = client.post(url + "/corners", data={"c0": "1"}, follow_redirects=True)
    assert "Place all four corners" in incomplete.text


def cut_at_the_bottom(name: str, share: float) -> tuple[bytes, dict, int]:
    """A sample photo cut so that ``share`` of the board's height lies below it (a photo
    taken too close), its labels and its height."""
    data, truth = sample(name)
    image = Image.open(io.BytesIO(data))
    corners = np.array(truth["corners"])
    bottom = round(corners[:, 1].max() - share * np.ptp(corners[:, 1]))
    buffer = io.BytesIO()
    image.crop((0, 0, image.width, bottom)).save(buffer, "JPEG", quality=90)
    return buffer.getvalue(), truth, bottom


def placed_corners(page: str) -> np.ndarray:
    """The corners the corners page places, in photo pixels (its form's inputs)."""
    values = [float(re.search(rf'name="c{i}" inputmode="decimal" value="(-?[\d.]+)"',
                              page).group(1)) for i in range(8)]
    return np.reshape(values, (4, 2))


def test_a_photo_cutting_the_board_says_which_edge_and_opens_the_corners_page_placed(client):
    data, truth, height = cut_at_the_bottom("usa-01", 0.25)
    game_id = new_game(client, "usa", truth["players"])
    url = scan_url(upload(client, game_id, data))
    answer = client.get(url)
    assert answer.status_code == 303 and answer.headers["Location"].endswith(url + "/corners")
    page = client.get(answer.headers["Location"])
    assert page.status_code == 200
    text = html.unescape(page.text)
    assert 'data-outside="bottom"' in text
    assert ("The bottom of the board is outside the photo: take it again with the whole board "
            "in the frame.") in text
    assert "Try another photo" in text and "Read with these corners" in text
    corners = placed_corners(page.text)
    # every corner as found, those below the photo where the board reaches
    diagonal = np.linalg.norm(np.subtract(truth["corners"][0], truth["corners"][2]))
    assert np.abs(corners - truth["corners"]).max() < 0.015 * diagonal
    assert corners[2:, 1].min() > height
    # the photo is shown with a band below it where those corners are
    padding = re.search(r'data-corner-photo[^>]*style="padding: ([^"]+)"', page.text).group(1)
    top, right, bottom, left = (float(v.rstrip("%")) for v in padding.split())
    assert top == right == left == 0 and bottom > 5
    assert owners(client, game_id) == {}


def test_a_photo_cutting_the_board_says_which_edge_in_french(client):
    data, truth, _height = cut_at_the_bottom("usa-01", 0.25)
    game_id = new_game(client, "usa", truth["players"])
    url = scan_url(upload(client, game_id, data))
    page = client.get(url + "/corners", headers={"Accept-Language": "fr"})
    assert "Le bas du plateau est hors de la photo" in html.unescape(page.text)


def test_corners_beyond_the_photo_read_the_board_and_ask_the_lanes_outside_it(client):
    data, truth, height = cut_at_the_bottom("usa-01", 0.25)
    game_id = new_game(client, "usa", truth["players"])
    url = scan_url(upload(client, game_id, data))
    corners = placed_corners(client.get(url + "/corners").text)
    answer = client.post(url + "/corners",
                         data={f"c{i}": str(v) for i, v in enumerate(corners.ravel())})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(url)
    review = client.get(url)
    assert review.status_code == 200
    result = json.loads(stored_scans(client.raw.application, game_id)[url.split("/")[-1]]
                        ["result"])
    asked = {r for r, lane in result["lanes"].items() if lane["confidence"] < 0.75}
    # Miami, New Orleans, Houston and El Paso lie in the part of the board below the photo
    below = {"houston--new-orleans", "miami--new-orleans", "el-paso--houston"}
    assert below <= asked
    assert all(result["lanes"][r]["confidence"] == 0 for r in below)
    assert reading(review.text, "miami--new-orleans") == "outside the photo: look at the board"


def test_a_corner_placed_left_of_the_photo_is_read_not_refused(client, usa_photo):
    data, truth = usa_photo
    game_id = new_game(client, "usa", truth["players"])
    url = scan_url(upload(client, game_id, data))
    corners = np.array(truth["corners"], dtype=float)
    corners[[0, 3], 0] = -40.0  # the board's left side beyond the photo
    answer = client.post(url + "/corners",
                         data={f"c{i}": str(v) for i, v in enumerate(corners.ravel())},
                         follow_redirects=True)
    assert "Place all four corners" not in answer.text
    assert answer.status_code == 200 and "data-scan-summary" in answer.text


def test_a_photo_over_25_mb_is_refused_before_it_is_read(client, usa):
    answer = upload(client, usa, b"\xff" * (scan_store.MAX_PHOTO_BYTES + 1))
    assert answer.status_code == 413
    assert "larger than 25 MB" in answer.text


def test_an_upload_without_a_csrf_token_is_refused(client, usa, usa_photo):
    answer = client.raw.post(f"/games/{usa}/scan",
                             data={"photo": (io.BytesIO(usa_photo[0]), "b.jpg")},
                             content_type="multipart/form-data")
    assert answer.status_code == 400
    assert not stored_scans(client.raw.application, usa)


def test_a_busy_scanner_says_so(client, usa, usa_photo, monkeypatch):
    taken = threading.BoundedSemaphore(1)
    taken.acquire()
    monkeypatch.setattr(scan_runner, "_slots", taken)
    client.raw.application.config["SCAN_WAIT"] = 0.01
    answer = upload(client, usa, usa_photo[0])
    assert answer.status_code == 503 and "busy" in answer.text


def test_an_unknown_scan_is_not_found(client, usa):
    assert client.get(f"/games/{usa}/scan/../../etc").status_code == 404
    assert client.get("/games/nosuchgame/scan/nope").status_code == 404


def test_a_closed_review_leads_back_to_the_game_and_says_why(client, usa):
    """Back after Apply (the review is gone): the game with a sentence, not a bare 404."""
    answer = client.get(f"/games/{usa}/scan/nope")
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith(f"/games/{usa}")
    page = client.get(f"/games/{usa}").text
    assert "That photo&#39;s review is closed" in page or "That photo's review is closed" in page


# How the detector reads a lane it doubts (scorer.vision.classify): a half-covered lane gets
# confidence 0, a lane of a colour no player has its own, a double lane decided again half.
DOUBTS = {
    "helena--seattle": {"owner": None, "color": None, "confidence": 0.0},
    "denver--omaha": {"owner": "Ann", "color": "red", "confidence": 0.31},
    "duluth--omaha": {"owner": None, "color": "black", "confidence": 0.94},
    "kansas-city--omaha": {"owner": "Bob", "color": "blue", "confidence": 0.97},
}


@pytest.fixture
def doubtful_scan(client, usa, monkeypatch):
    """A scan of the 2-player USA game (Ann red, Bob blue) read as ``DOUBTS`` says."""
    monkeypatch.setattr(scan_runner, "run_detection", read_as(DOUBTS))
    return scan_url(upload(client, usa, b"\xff\xd8\xff a photo"))


def read_as(lanes: dict[str, dict], board: str = "usa", stations: dict | None = None):
    """A stand-in for the detection: ``lanes`` read as given, every other lane surely empty."""
    from scorer.boards import load_board

    def read(stored, kept, corners=None, data=None):
        empty = {"owner": None, "color": None, "confidence": 0.99}
        with scan_store.locked(stored.id, kept.id):
            scan_store.save(stored.id, kept.id, {
                "detection": {"elapsed_ms": 5}, "confidence": 0.9,
                "lanes": {rid: lanes.get(rid, empty) for rid in load_board(board).routes},
                "stations": stations or {}, "proposed": {}, "photo_size": [400, 300]},
                state="ready")

    return read


def reading(page: str, lane: str) -> str:
    item = re.search(rf'data-lane="{lane}">(.*?)</li>', page, re.S)
    assert item, f"{lane} is not listed"
    return re.search(r"<span[^>]*data-reading>([^<]*)</span>", item.group(1)).group(1)


def test_a_doubtful_lane_says_what_is_doubtful_not_a_percentage(client, doubtful_scan):
    page = client.get(doubtful_scan).text
    doubtful = re.search(r"data-to-check>(.*?)</ul>", page, re.S).group(1)
    assert all(f'data-lane="{lane}"' in doubtful
               for lane in ("helena--seattle", "denver--omaha", "duluth--omaha"))
    assert "0 %" not in doubtful and "31 %" not in doubtful and "94 %" not in doubtful
    assert reading(page, "helena--seattle") == "unclear on the photo"
    assert reading(page, "denver--omaha") == "maybe Ann"
    assert reading(page, "duluth--omaha") == "black on the photo, a colour no player has"
    assert reading(page, "kansas-city--omaha") == "97 %"  # a sure reading keeps its figure

    french = client.get(doubtful_scan, headers={"Accept-Language": "fr"}).text
    assert reading(french, "helena--seattle") == "peu lisible sur la photo"
    assert reading(french, "denver--omaha") == "peut-être Ann"
    assert html.unescape(reading(french, "duluth--omaha")) == (
        "noir sur la photo, une couleur qu'aucun joueur n'a")


def test_a_lane_set_by_hand_drops_the_photos_figure(client, doubtful_scan):
    answer = client.hx(doubtful_scan + "/lanes/helena--seattle", {"owner": "Bob"})
    assert reading(answer.text, "helena--seattle") == "set by hand"
    assert "0 %" not in re.search(r'data-lane="helena--seattle">(.*?)</li>',
                                  answer.text, re.S).group(1)


def lanes_shown(page: str) -> dict[str, str]:
    return dict(re.findall(r'data-route-id="([^"]+)" data-owner="([^"]*)"', page))


def tap_lanes(phone, url: str, lanes: list[str], owner: str, start: threading.Barrier) -> list:
    """Set each lane's owner on the review as a phone's taps do; returns the answers' codes."""
    start.wait()
    return [phone.hx(f"{url}/lanes/{lane}", {"owner": owner}).status_code for lane in lanes]


def test_taps_from_several_phones_at_once_are_all_kept(app, client, doubtful_scan):
    from tests.web.conftest import Client

    lanes = sorted(lanes_shown(client.get(doubtful_scan).text))[:64]
    phones = [Client(app.test_client()) for _ in range(8)]
    start = threading.Barrier(len(phones))
    codes: list = []
    threads = [threading.Thread(target=lambda p=p, i=i: codes.extend(
        tap_lanes(p, doubtful_scan, lanes[i::len(phones)], "Bob", start)))
        for i, p in enumerate(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert codes == [200] * len(lanes)
    shown = lanes_shown(client.get(doubtful_scan).text)
    assert [lane for lane in lanes if shown[lane] != "Bob"] == []


def _tap_from_another_process(config: dict, url: str, lanes: list[str], at: float) -> list:
    """One app process of several serving the same instance folder and database."""
    import time

    from scorer.web import create_app
    from tests.web.conftest import Client

    phone = Client(create_app(config).test_client())
    time.sleep(max(0.0, at - time.time()))
    return [phone.hx(f"{url}/lanes/{lane}", {"owner": "Ann"}).status_code for lane in lanes]


def test_taps_answered_by_several_app_processes_at_once_are_all_kept(app, client,
                                                                      doubtful_scan):
    import multiprocessing
    import time

    lanes = sorted(lanes_shown(client.get(doubtful_scan).text))[:60]
    config = {key: app.config[key] for key in ("TESTING", "DATABASE", "DATABASE_URL",
                                               "SECRET_KEY")}
    at = time.time() + 4  # every process has started by then (each imports the app)
    with multiprocessing.get_context("spawn").Pool(3) as pool:
        answers = pool.starmap(_tap_from_another_process,
                               [(config, doubtful_scan, lanes[i::3], at) for i in range(3)])
    assert sorted(code for codes in answers for code in codes) == [200] * len(lanes)
    shown = lanes_shown(client.get(doubtful_scan).text)
    assert [lane for lane in lanes if shown[lane] != "Ann"] == []


def test_a_tap_on_a_photo_applied_meanwhile_goes_back_to_the_game_and_says_so(client,
                                                                              doubtful_scan):
    client.hx(doubtful_scan + "/lanes/helena--seattle", {"owner": "Bob"})
    assert client.post(doubtful_scan + "/apply").status_code == 303
    late = client.hx(doubtful_scan + "/lanes/denver--omaha", {"owner": "Bob"})
    game = doubtful_scan.split("/scan/")[0]
    assert late.status_code == 204 and late.headers["HX-Redirect"] == game
    again = client.post(doubtful_scan + "/apply")
    assert again.status_code == 303 and again.headers["Location"].endswith(game)
    assert "applied already" in client.get(game).text


def doubtful_lanes(page: str) -> set[str]:
    return set(re.findall(r'data-route-id="([^"]+)" data-owner="[^"]*" data-doubtful', page))


def test_apply_sets_exactly_the_owners_the_review_shows_doubtful_lanes_included(
        client, doubtful_scan):
    page = client.get(doubtful_scan).text
    shown = lanes_shown(page)
    assert shown["denver--omaha"] == "Ann" and "denver--omaha" in doubtful_lanes(page)
    assert client.post(doubtful_scan + "/apply").status_code == 303
    game = doubtful_scan.split("/scan/")[0].rsplit("/", 1)[1]
    assert owners(client, game) == {rid: owner for rid, owner in shown.items() if owner}
    assert owners(client, game)["denver--omaha"] == "Ann"


def test_a_doubtful_lane_confirmed_or_set_to_nobody_stays_in_view_as_checked(client,
                                                                           doubtful_scan):
    answer = client.hx(doubtful_scan + "/lanes/denver--omaha", {"owner": "Ann"})
    assert answer.status_code == 200
    assert "denver--omaha" not in doubtful_lanes(answer.text)  # checked: no longer asked
    checked = re.search(r"data-checked>(.*?)</ul>", answer.text, re.S).group(1)
    assert 'data-lane="denver--omaha"' in checked
    nobody = client.hx(doubtful_scan + "/lanes/denver--omaha", {"owner": ""}).text
    assert lanes_shown(nobody)["denver--omaha"] == ""
    assert 'data-lane="denver--omaha"' in re.search(r"data-checked>(.*?)</ul>", nobody,
                                                    re.S).group(1)


def test_the_card_shows_each_lane_to_check_in_turn_with_big_buttons(client, doubtful_scan):
    page = client.get(doubtful_scan).text
    assert re.search(r'data-card="helena--seattle"', page)  # the least sure first
    assert "1 of 3" in page
    card = re.search(r'<section id="card".*?</section>', page, re.S).group(0)
    assert re.findall(r'data-pick="([^"]*)"', card) == ["", "Ann", "Bob"]  # as read: nobody
    assert "rectified.jpg" not in card or "<image" in card
    answer = client.hx(doubtful_scan + "/lanes/helena--seattle", {"owner": ""})
    assert 'data-card="denver--omaha"' in answer.text and "2 of 3" in answer.text
    card = re.search(r'<section id="card".*?</section>', answer.text, re.S).group(0)
    # the reading first (one tap confirms it), then nobody, then each other player
    assert re.findall(r'data-pick="([^"]*)"', card) == ["Ann", "", "Bob"]
    # a lane opened from the map (without JavaScript) or a check gets its card too
    opened = client.get(doubtful_scan + "?lane=kansas-city--omaha").text
    assert 'data-card="kansas-city--omaha"' in opened
    assert 'data-card="denver--omaha"' in client.get(doubtful_scan + "?lane=nowhere").text


def test_accept_the_rest_as_read_takes_every_lane_left_as_shown(client, doubtful_scan):
    shown = lanes_shown(client.get(doubtful_scan).text)
    answer = client.hx(doubtful_scan + "/accept")
    assert answer.status_code == 200
    assert doubtful_lanes(answer.text) == set() and lanes_shown(answer.text) == shown
    assert "data-all-checked" in answer.text
    plain = client.post(doubtful_scan + "/accept")  # without JavaScript: back to the review
    assert plain.status_code == 303 and plain.headers["Location"].endswith(doubtful_scan)


def test_an_unknown_lane_says_so_and_changes_nothing(client, doubtful_scan):
    before = lanes_shown(client.get(doubtful_scan).text)
    answer = client.hx(doubtful_scan + "/lanes/gotham--metropolis", {"owner": "Ann"})
    assert answer.status_code == 404 and "No lane gotham--metropolis" in answer.text
    plain = client.post(doubtful_scan + "/lanes/gotham--metropolis", data={"owner": "Ann"},
                        follow_redirects=True)
    assert "No lane gotham--metropolis on this board" in plain.text
    assert lanes_shown(plain.text) == before


# Ann's red read on enough lanes for 47 pieces: 45 are hers, the box's spares make up the rest.
TOO_MANY = {rid: {"owner": "Ann", "color": "red", "confidence": conf} for rid, conf in (
    ("los-angeles--san-francisco", 0.99), ("chicago--toronto", 0.99), ("denver--helena", 0.98),
    ("helena--seattle", 0.99), ("new-york--pittsburgh", 0.97), ("new-york--washington", 0.99),
    ("los-angeles--phoenix", 0.9), ("el-paso--houston", 0.96), ("atlanta--miami", 0.95),
    ("calgary--winnipeg", 0.97), ("oklahoma-city--santa-fe", 0.8),
    ("denver--salt-lake-city", 0.81))}


@pytest.fixture
def crowded_scan(client, usa, monkeypatch):
    monkeypatch.setattr(scan_runner, "run_detection", read_as(TOO_MANY))
    return scan_url(upload(client, usa, b"\xff\xd8\xff a photo"))


def test_more_pieces_than_a_player_has_names_the_colour_and_its_least_sure_lanes(
        client, crowded_scan):
    from scorer.boards import load_board

    board = load_board("usa")
    pieces = sum(board.route(rid).length for rid in TOO_MANY)
    assert pieces > 45
    page = client.get(crowded_scan).text
    check = re.search(r"data-check>(.*?)</div>", page, re.S).group(1)
    assert f"The photo counts {pieces} red pieces for Ann, who has only 45" in html.unescape(
        check)
    assert check.index("Oklahoma City–Santa Fe") < check.index("Denver–Salt Lake City")
    assert "?lane=oklahoma-city--santa-fe" in check
    refused = client.post(crowded_scan + "/apply")  # explained, not a dead end
    assert refused.status_code == 422 and "data-apply-scan" in refused.text
    assert "Nothing was applied: fix what the photo says below" in refused.text
    assert "trains left" not in refused.text and refused.text.count("data-error") == 1
    game = crowded_scan.split("/scan/")[0].rsplit("/", 1)[1]
    assert owners(client, game) == {}
    client.post(crowded_scan + "/lanes/oklahoma-city--santa-fe", data={"owner": ""})
    client.post(crowded_scan + "/lanes/denver--salt-lake-city", data={"owner": ""})
    assert "data-check" not in client.get(crowded_scan).text
    assert client.post(crowded_scan + "/apply").status_code == 303
    assert len(owners(client, game)) == len(TOO_MANY) - 2


def test_the_bar_says_what_apply_does_per_player(client, usa_photo):
    data, truth = usa_photo
    game_id = new_game(client, "usa", truth["players"])
    url = scan_url(upload(client, game_id, data))
    page = client.get(url).text
    bar = {name: (int(trains), int(points)) for name, trains, points in re.findall(
        r'data-bar-player="([^"]+)" data-lanes="\d+" data-trains="(\d+)" data-points="(\d+)"',
        page)}
    assert client.post(url + "/apply").status_code == 303
    score = client.get(f"/api/games/{game_id}/score").get_json()
    assert bar == {p["name"]: (45 - p["trains_left"], p["route_points"])
                   for p in score["players"]}
    assert "Photo applied" in client.get(f"/games/{game_id}").text


def test_the_bar_counts_the_pieces_placed_not_the_trains_left(client, doubtful_scan):
    page = client.get(doubtful_scan).text
    bar = re.search(r'data-bar-player="Bob".*?</li>', page, re.S).group(0)
    assert re.search(r"<b>1</b><span[^>]*>placed</span>", bar)  # Kansas City-Omaha, 1 long
    french = client.get(doubtful_scan, headers={"Accept-Language": "fr"}).text
    assert "posés" in re.search(r'data-bar-player="Bob".*?</li>', french, re.S).group(0)
    assert ">trains<" not in page


def test_a_doubtful_card_leads_with_the_crop_s_likeliest_owner_then_its_second(
        client, usa, monkeypatch):
    """Read empty-or-doubtful (no owner), but the crop most likely shows Bob's blue pieces,
    else nothing: Bob leads, nobody next to him, then Ann; the lane stays nobody until a tap."""
    lanes = dict(DOUBTS, **{"helena--seattle": {
        "owner": None, "color": None, "confidence": 0.17, "likely": "blue", "second": "empty"}})
    monkeypatch.setattr(scan_runner, "run_detection", read_as(lanes))
    url = scan_url(upload(client, usa, b"\xff\xd8\xff a photo"))
    page = client.get(url).text
    card = re.search(r'<section id="card".*?</section>', page, re.S).group(0)
    assert 'data-card="helena--seattle"' in card
    assert re.findall(r'data-pick="([^"]*)"', card) == ["Bob", "", "Ann"]
    assert re.search(r'class="btn big primary lead pc-blue" data-pick="Bob"', card)
    assert lanes_shown(page)["helena--seattle"] == ""  # what Apply sets is still the reading
    # a colour no player has reads as nobody: the second choice is then the next one
    lanes["helena--seattle"] = {"owner": None, "color": None, "confidence": 0.17,
                                "likely": "yellow", "second": "red"}
    monkeypatch.setattr(scan_runner, "run_detection", read_as(lanes))
    card = re.search(r'<section id="card".*?</section>',
                     client.get(scan_url(upload(client, usa, b"\xff\xd8\xff 2"))).text,
                     re.S).group(0)
    assert re.findall(r'data-pick="([^"]*)"', card) == ["", "Ann", "Bob"]


def usa_01_card(client, usa_photo, route_id: str) -> list[str]:
    """The buttons of a lane's card on the review of sample usa-01 (the real detector)."""
    data, truth = usa_photo
    game_id = new_game(client, "usa", truth["players"])
    page = client.get(scan_url(upload(client, game_id, data)) + f"?lane={route_id}").text
    card = re.search(r'<section id="card".*?</section>', page, re.S).group(0)
    assert f'data-card="{route_id}"' in card and "data-as-read" in card
    return re.findall(r'data-pick="([^"]*)"', card)


def test_usa_01_denver_salt_lake_city_offers_the_yellow_player_among_the_first_two(
        client, usa_photo):
    """Its three spaces read yellow 0.41-0.57, empty the rest: the yellow player (Cleo) is one
    of the two big buttons, not the last of four as before."""
    assert "Cleo" in usa_01_card(client, usa_photo, "denver--salt-lake-city--2")[:2]


@pytest.mark.xfail(strict=True, reason="the classifier reads its yellow pieces (moved towards "
                   "the red sibling lane, an offset the double rule does not read) 0.41-0.57, "
                   "so empty ranks first; classify's probabilities are to fix it")
def test_usa_01_denver_salt_lake_city_leads_with_the_yellow_player(client, usa_photo):
    assert usa_01_card(client, usa_photo, "denver--salt-lake-city--2")[0] == "Cleo"


def test_the_review_shows_no_confidence_figure_beside_the_lanes_to_check(client, usa_photo):
    data, truth = usa_photo
    game_id = new_game(client, "usa", truth["players"])
    page = client.get(scan_url(upload(client, game_id, data))).text
    summary = re.search(r"data-scan-summary>(.*?)</p>", page, re.S).group(1)
    assert "%" not in summary and "Confidence" not in page


def test_the_photo_readers_errors_are_in_french_on_french_pages(client, usa):
    rng = np.random.default_rng(7)
    noise = Image.fromarray(rng.integers(0, 255, (600, 800, 3), dtype=np.uint8))
    buffer = io.BytesIO()
    noise.save(buffer, "JPEG")
    client.raw.set_cookie("lang", "fr")
    answer = upload(client, usa, buffer.getvalue(), follow_redirects=True)
    assert answer.status_code == 422
    assert "Aucun plateau trouvé sur la photo" in html.unescape(answer.text)
    assert "No board found" not in answer.text
    text = upload(client, usa, b"just some text", follow_redirects=True)
    assert "Ce fichier n'est pas une image lisible" in html.unescape(text.text)


def stations_shown(page: str) -> dict[str, str]:
    return dict(re.findall(r'class="scan-station[^"]*" data-station="([^"]+)" data-owner="([^"]*)"',
                           page))


def test_the_stations_shown_are_the_stations_applied_and_each_can_be_corrected(
        client, europe, monkeypatch):
    monkeypatch.setattr(scan_runner, "run_detection", read_as(
        {"paris--zurich": {"owner": "Ann", "color": "red", "confidence": 0.99}}, "europe",
        {"Wien": "Ann", "Roma": "Bob"}))
    url = scan_url(upload(client, europe, b"\xff\xd8\xff a photo"))
    assert stations_shown(client.get(url).text) == {"Wien": "Ann", "Roma": "Bob"}
    answer = client.hx(url + "/stations", {"city": "wien", "owner": "Cleo"})
    assert stations_shown(answer.text) == {"Wien": "Cleo", "Roma": "Bob"}
    client.post(url + "/stations", data={"city": "Roma", "owner": ""})
    client.post(url + "/stations", data={"city": "Paris", "owner": "Bob"})  # missed by the photo
    page = client.get(url).text
    assert stations_shown(page) == {"Wien": "Cleo", "Paris": "Bob"}
    assert re.search(r'data-station="Roma" data-owner=""', page)  # in view, as nobody
    refused = client.hx(url + "/stations", {"city": "Gotham", "owner": "Ann"})
    assert refused.status_code == 404 and "Gotham" in refused.text
    assert stations_shown(client.get(url).text) == {"Wien": "Cleo", "Paris": "Bob"}
    assert client.post(url + "/apply").status_code == 303
    game = json.loads(client.get(f"/games/{europe}/export.json").data)
    assert {s["city"]: s["player"] for s in game["stations"]} == {"Wien": "Cleo", "Paris": "Bob"}


def test_what_no_photo_shows_keeps_the_games_owners_unless_the_players_set_it(client,
                                                                            monkeypatch):
    """Corners placed beyond the photo: the lanes and cities outside it are not read, and the
    review proposes what the game holds there (Apply removes nothing it did not see)."""
    from scorer.boards import load_board

    game_id = client.api_game({"variant": "europe", "players": players("Ann:red", "Bob:blue"),
                               "claims": [{"player": "Ann", "route": "cadiz--lisboa"}],
                               "stations": [{"player": "Bob", "city": "Lisboa"}]})
    unread = {"owner": None, "color": None, "confidence": 0.0, "likely": "empty",
              "second": "empty"}
    sure = {"owner": None, "color": None, "confidence": 0.99}
    lanes = {r: unread if r in ("cadiz--lisboa", "lisboa--madrid") else sure
             for r in load_board("europe").routes}

    def read(stored, kept, corners=None, data=None):
        with scan_store.locked(stored.id, kept.id):
            scan_store.save(stored.id, kept.id, {
                "detection": {"elapsed_ms": 5}, "confidence": 1.0, "lanes": lanes,
                "stations": {}, "proposed": {}, "photo_size": [400, 300],
                "photos": [{"routes": lanes, "stations": {}, "elapsed_ms": 5, "scale": 1.0,
                            "unseen": ["cadiz--lisboa", "lisboa--madrid"],
                            "unseen_cities": ["Cadiz", "Lisboa"]}]}, state="ready")

    monkeypatch.setattr(scan_runner, "run_detection", read)
    url = scan_url(upload(client, game_id, b"\xff\xd8\xff a photo"))
    page = client.get(url + "?lane=cadiz--lisboa").text
    assert re.search(r'data-route-id="cadiz--lisboa"[^>]*data-owner="Ann"', page) or \
        re.search(r'data-owner="Ann"[^>]*data-route-id="cadiz--lisboa"', page)
    assert reading(page, "cadiz--lisboa") == "outside the photo: look at the board"
    lead = re.search(r'class="btn big primary lead[^"]*"[^>]*>([^<]*(?:<[^>]*>[^<]*)*?)</button>',
                     page).group(1)
    assert "Ann" in lead and "as in the game" in lead
    assert stations_shown(page) == {"Lisboa": "Bob"}
    assert client.post(url + "/accept").status_code == 303  # the rest as the review shows it
    assert client.post(url + "/apply").status_code == 303
    game = json.loads(client.get(f"/games/{game_id}/export.json").data)
    assert [(c["player"], c["route"]) for c in game["claims"]] == [("Ann", "cadiz--lisboa")]
    assert [(s["player"], s["city"]) for s in game["stations"]] == [("Bob", "Lisboa")]


@pytest.mark.parametrize(("bob", "text"), [
    ("Bob", "with 2 players only one may be used"),
    ("Ann", "The photo gives Ann both lanes of Kansas City–Saint Louis"),
])
def test_both_lanes_of_a_double_read_taken_are_explained_with_the_two_lanes(
        client, usa, monkeypatch, bob, text):
    monkeypatch.setattr(scan_runner, "run_detection", read_as({
        "kansas-city--saint-louis": {"owner": "Ann", "color": "red", "confidence": 0.97},
        "kansas-city--saint-louis--2": {"owner": bob, "color": "blue", "confidence": 0.8}}))
    url = scan_url(upload(client, usa, b"\xff\xd8\xff a photo"))
    check = re.search(r"data-check>(.*?)</div>", client.get(url).text, re.S).group(1)
    assert text in html.unescape(check)
    assert check.index("?lane=kansas-city--saint-louis--2") < check.index(
        "?lane=kansas-city--saint-louis\"")
    refused = client.post(url + "/apply")
    assert refused.status_code == 422 and "Nothing was applied" in refused.text
    client.post(url + "/lanes/kansas-city--saint-louis--2", data={"owner": ""})
    assert "data-check" not in client.get(url).text
    assert client.post(url + "/apply").status_code == 303


def test_more_stations_than_a_player_has_is_said_before_apply(client, europe, monkeypatch):
    monkeypatch.setattr(scan_runner, "run_detection", read_as(
        {}, "europe", {"Wien": "Ann", "Roma": "Ann", "Paris": "Ann", "Madrid": "Ann"}))
    url = scan_url(upload(client, europe, b"\xff\xd8\xff a photo"))
    check = re.search(r"data-check>(.*?)</div>", client.get(url).text, re.S).group(1)
    assert "The review gives Ann 4 stations, and a player has 3" in html.unescape(check)
    client.post(url + "/stations", data={"city": "Madrid", "owner": ""})
    assert "data-check" not in client.get(url).text
    assert client.post(url + "/apply").status_code == 303


@pytest.mark.skipif(not on_postgres(), reason="servers share a database on PostgreSQL only")
def test_two_servers_on_one_database_share_a_photo_review_from_upload_to_apply(tmp_path,
                                                                              usa_photo):
    from scorer.web import create_app
    from tests.web.conftest import Client

    config = {"TESTING": True, **app_config(tmp_path), "SECRET_KEY": "two-servers"}
    phones = []
    for machine in ("first", "second"):
        app = create_app(config)
        app.instance_path = str(tmp_path / machine)  # each machine its own instance folder
        phones.append(Client(app.test_client()))
    first, second = phones
    data, truth = usa_photo
    game_id = new_game(first, "usa", truth["players"])
    url = scan_url(upload(first, game_id, data))
    review = second.get(url)
    assert review.status_code == 200
    assert second.get(url + "/rectified.jpg").status_code == 200
    shown = lanes_shown(review.text)
    lane = "helena--seattle"
    owner = "Ann" if shown[lane] == "Bob" else "Bob"
    assert first.post(url + f"/lanes/{lane}", data={"owner": owner}).status_code == 303
    assert second.post(url + "/apply").status_code == 303
    expected = {**{route: name for route, name in shown.items() if name}, lane: owner}
    assert owners(first, game_id) == owners(second, game_id) == expected
    assert not stored_scans(first.raw.application, game_id)  # the review ended on both
