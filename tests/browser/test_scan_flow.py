"""The photo flow on a phone: take a photo, check the lanes read from it, fix one, apply."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DOUBLE_TAP_S
from tests.browser.test_play import doubles

SAMPLES = Path(__file__).resolve().parents[2] / "sample_photos"
# The screen point of a printed space in the middle of a lane of the review map.
MIDDLE_OF_LANE = """(id) => {
    const line = document.querySelector(`.scan-lane[data-route-id="${id}"] .line`);
    const pts = line.getAttribute('points').trim().split(/\\s+/).map(p => p.split(',').map(Number));
    const [x, y] = pts[Math.floor(pts.length / 2)];
    const m = line.ownerSVGElement.getScreenCTM();
    return {x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f};
}"""


def test_a_photo_is_reviewed_corrected_by_tap_and_applied_as_one_undoable_step(phone, table,
                                                                              shot):
    truth = json.loads((SAMPLES / "usa-01.json").read_text())
    names = ["Ann", "Bob", "Cleo"]
    game_id = table.api_game({"variant": "usa", "players": [
        {"name": n, "color": c} for n, c in zip(names, truth["players"], strict=False)]})
    phone.goto(f"/games/{game_id}")
    phone.locator("[data-scan-link]").tap()
    phone.locator("[data-scan-photo]").set_input_files(str(SAMPLES / "usa-01.jpg"))
    phone.locator(".scan-form button[type=submit]").tap()
    phone.wait_for_url(re.compile(rf"/games/{game_id}/scan/[\w-]+$"), timeout=60_000)
    expect(phone.locator("[data-scan-summary]")).to_contain_text("lanes claimed on the photo")
    shot(phone, "review")
    assert table.score(game_id)["players"][0]["routes"] == []  # nothing applied yet

    lane = phone.locator('.scan-lane[data-route-id="el-paso--los-angeles"]')
    before = lane.get_attribute("data-owner")
    cycle = ["", *names]
    after = cycle[(cycle.index(before) + 1) % len(cycle)]
    lane.locator(".line").dispatch_event("click")  # the map is small: no finger is that thin
    expect(lane).to_have_attribute("data-owner", after)
    shot(phone, "corrected")

    phone.locator("[data-apply-scan]").tap()
    phone.wait_for_url(re.compile(rf"/games/{game_id}$"))
    expect(phone.locator("#message")).to_contain_text("Photo applied")
    shot(phone, "applied")
    routes = {r for p in table.score(game_id)["players"] for r in p["routes"]}
    assert routes and ("el-paso--los-angeles" in routes) == bool(after)

    phone.locator("[data-undo]").tap()
    expect(phone.locator("[data-undo]")).to_be_disabled()
    expect(phone.locator("#message")).to_contain_text("the photo (")
    assert all(p["routes"] == [] for p in table.score(game_id)["players"])
    assert not phone.problems


def test_a_photo_without_a_board_offers_placing_the_corners_by_hand(phone, table, shot,
                                                                    tmp_path):
    from PIL import Image

    game_id = table.api_game({"variant": "usa", "players": [
        {"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}]})
    cat = tmp_path / "cat.jpg"
    Image.new("RGB", (800, 600), (120, 90, 60)).save(cat)
    phone.goto(f"/games/{game_id}/scan")
    phone.locator("[data-scan-photo]").set_input_files(str(cat))
    phone.locator(".scan-form button[type=submit]").tap()
    expect(phone.locator("[data-error]")).to_be_visible(timeout=60_000)
    shot(phone, "not-found")
    phone.locator("[data-place-corners]").tap()
    photo = phone.locator("[data-corner-img]")
    expect(photo).to_be_visible()
    # the photo has loaded and the page listens to taps (a tap before that placed nothing)
    expect(phone.locator("[data-corner-photo][data-ready]")).to_have_count(1)
    box = photo.bounding_box()
    for fx, fy in ((0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9)):
        phone.mouse.click(box["x"] + fx * box["width"], box["y"] + fy * box["height"])
    expect(phone.locator("[data-corner-photo] [data-corner]")).to_have_count(4)
    assert float(phone.locator('input[name="c2"]').input_value()) > 600  # photo pixels
    shot(phone, "corners")
    assert not phone.problems


def test_a_photo_cutting_the_board_opens_the_corners_page_with_the_corners_found_placed(
        phone, table, shot, tmp_path):
    from PIL import Image

    truth = json.loads((SAMPLES / "usa-01.json").read_text())
    corners = truth["corners"]
    photo = Image.open(SAMPLES / "usa-01.jpg")
    height = round(max(y for _, y in corners) - 0.25 * (max(y for _, y in corners)
                                                       - min(y for _, y in corners)))
    cut = tmp_path / "too-close.jpg"
    photo.crop((0, 0, photo.width, height)).save(cut, quality=90)
    game_id = table.api_game({"variant": "usa", "players": [
        {"name": n, "color": c} for n, c in zip(["Ann", "Bob", "Cleo"], truth["players"],
                                                strict=False)]})
    phone.goto(f"/games/{game_id}/scan")
    phone.locator("[data-scan-photo]").set_input_files(str(cut))
    phone.locator(".scan-form button[type=submit]").tap()
    phone.wait_for_url(re.compile(rf"/games/{game_id}/scan/[\w-]+/corners$"), timeout=60_000)
    expect(phone.locator('[data-outside="bottom"]')).to_contain_text(
        "The bottom of the board is outside the photo")
    expect(phone.locator("[data-corner-photo][data-ready]")).to_have_count(1)
    handles = phone.locator("[data-corner-photo] [data-corner]")
    expect(handles).to_have_count(4)
    # the two corners below the photo are placed in the band under it, in the screen's width
    img = phone.locator("[data-corner-img]").bounding_box()
    boxes = [handles.nth(i).bounding_box() for i in range(4)]
    centres = [(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2) for b in boxes]
    assert [handles.nth(i).get_attribute("class") for i in range(4)] == [
        "corner-handle", "corner-handle", "corner-handle outside", "corner-handle outside"]
    assert all(img["y"] + img["height"] < y for _, y in centres[2:])
    assert all(0 <= x <= 390 for x, _ in centres)
    # each placed where it was found: screen point = photo point at the shown photo's scale
    k = img["width"] / photo.width
    for (x, y), (cx, cy) in zip(corners, centres, strict=True):
        assert abs(img["x"] + x * k - cx) < 0.02 * img["width"]
        assert abs(img["y"] + y * k - cy) < 0.02 * img["width"]
    phone.locator("[data-corner-photo]").scroll_into_view_if_needed()
    shot(phone, "corners-placed")
    # the table drags the one it wants elsewhere (here: 20 px further down)
    before = float(phone.locator('input[name="c5"]').input_value())
    x, y = centres[2]
    phone.mouse.move(x, y)
    phone.mouse.down()
    phone.mouse.move(x, y + 10, steps=3)
    phone.mouse.move(x, y + 20, steps=3)
    phone.mouse.up()
    after = float(phone.locator('input[name="c5"]').input_value())
    assert after - before == pytest.approx(20 / k, rel=0.15)
    expect(handles).to_have_count(4)
    # the band under the photo grew to hold it
    frame = phone.locator("[data-corner-photo]").bounding_box()
    dropped = handles.nth(2).bounding_box()
    assert dropped["y"] + dropped["height"] / 2 < frame["y"] + frame["height"]
    shot(phone, "corner-dragged")
    phone.get_by_role("button", name="Read with these corners").tap()
    phone.wait_for_url(re.compile(rf"/games/{game_id}/scan/[\w-]+$"), timeout=60_000)
    # the lanes below the photo are asked, not read from its bottom edge
    expect(phone.locator('#scan-lanes [data-route-id="miami--new-orleans"]')).to_have_attribute(
        "data-doubtful", "")
    expect(phone.locator("#card")).to_contain_text("outside the photo: look at the board")
    shot(phone, "review")
    # the players look at the board for a lane below the photo: Bob's blue El Paso-Houston
    phone.locator('[data-to-check] [data-lane="el-paso--houston"] a').tap()
    card = phone.locator('#card[data-card="el-paso--houston"]')
    card.locator('[data-pick="Bob"]').tap()
    expect(phone.locator('#scan-lanes [data-route-id="el-paso--houston"]')).to_have_attribute(
        "data-owner", "Bob")
    shown = shown_owners(phone)
    after = applied(phone, table, game_id)
    assert after == {r: owner for r, owner in shown.items() if owner}
    assert after["el-paso--houston"] == "Bob"
    assert not phone.problems


def test_a_tap_on_either_lane_of_a_double_on_the_photo_review_changes_that_lane(phone, table,
                                                                              shot):
    truth = json.loads((SAMPLES / "usa-01.json").read_text())
    game_id = table.api_game({"variant": "usa", "players": [
        {"name": f"P{i}", "color": c} for i, c in enumerate(truth["players"])]})
    phone.goto(f"/games/{game_id}/scan")
    phone.locator("[data-scan-photo]").set_input_files(str(SAMPLES / "usa-01.jpg"))
    phone.locator(".scan-form button[type=submit]").tap()
    phone.wait_for_url(re.compile(rf"/games/{game_id}/scan/[\w-]+$"), timeout=60_000)
    # A finger on one lane of a double changes that lane, not its neighbour a few px away.
    # Each tap comes as soon as the answer to the one before is in, before htmx has settled
    # it: the page sends it all the same (static/app.js queues taps).
    phone.locator(".scan-map").scroll_into_view_if_needed()
    wrong = []
    for route_id in (r for pair in doubles("usa") for r in pair):
        lane = phone.locator(f'.scan-lane[data-route-id="{route_id}"]')
        before = lane.get_attribute("data-owner")
        phone.touchscreen.tap(**phone.evaluate(MIDDLE_OF_LANE, route_id))
        choice = phone.locator("#lane-choice")
        expect(choice).to_contain_text(" ")
        if not wrong and route_id.endswith("--2"):
            shot(phone, "owner-choice")
        after = next(b.get_attribute("data-pick-owner") for b in
                     choice.locator("[data-pick-owner]").all()
                     if b.get_attribute("aria-pressed") == "false")
        with phone.expect_response(lambda r: "/lanes/" in r.url) as answer:
            choice.locator(f'[data-pick-owner="{after}"]').tap()
        if not answer.value.url.endswith(f"/lanes/{route_id}"):
            wrong.append(f"{route_id} -> {answer.value.url.rsplit('/', 1)[1]}")
        else:
            expect(lane).to_have_attribute("data-owner", after)
            assert before != after
    assert not wrong, f"taps changed the wrong lane: {wrong}"


def reviewed(page, table, sample: str = "usa-01", photo: Path | None = None) -> str:
    """A game with the sample photo's players, its photo (or ``photo``, made from it)
    uploaded from the phone: the game."""
    truth = json.loads((SAMPLES / f"{sample}.json").read_text())
    game_id = table.api_game({"variant": truth["map"], "players": [
        {"name": f"P{i}", "color": c} for i, c in enumerate(truth["players"])]})
    page.goto(f"/games/{game_id}/scan")
    page.locator("[data-scan-photo]").set_input_files(str(photo or SAMPLES / f"{sample}.jpg"))
    page.locator(".scan-form button[type=submit]").tap()
    page.wait_for_url(re.compile(rf"/games/{game_id}/scan/[\w-]+$"), timeout=60_000)
    return game_id


def shown_owners(page) -> dict[str, str]:
    return page.evaluate("""() => Object.fromEntries(Array.from(
        document.querySelectorAll('.scan-lane[data-route-id]'),
        a => [a.dataset.routeId, a.dataset.owner]))""")


def applied(page, table, game_id: str) -> dict[str, str]:
    page.locator("[data-apply-scan]").tap()
    page.wait_for_url(re.compile(rf"/games/{game_id}$"))
    return {r: p["name"] for p in table.score(game_id)["players"] for r in p["routes"]}


# a sample whose reading has a doubtful lane shown with a player (and 13 lanes asked): usa-06's
# red pieces on Portland-San Francisco, read 0.72 sure with the shipped model (December 7,
# retrained under shadows; usa-02 before). The shipped
# model decides which sample this is: after a retraining, benchmarks/detect.py --verbose and
# the doubtful lanes of each sample say which one to take.
WITH_A_DOUBTFUL_OWNER = "usa-06"


def test_a_doubtful_lane_shown_with_a_player_is_applied_with_that_player(phone, table, shot):
    game_id = reviewed(phone, table, WITH_A_DOUBTFUL_OWNER)
    shown = shown_owners(phone)
    doubtful = phone.locator(".scan-lane.doubt:not([data-owner=''])")
    assert doubtful.count() >= 1
    lane = doubtful.first.get_attribute("data-route-id")
    player = doubtful.first.get_attribute("data-owner")
    shot(phone, "review")
    after = applied(phone, table, game_id)
    assert after == {r: owner for r, owner in shown.items() if owner}  # lane by lane
    assert after[lane] == player
    assert not phone.problems


def test_the_cards_ask_each_doubtful_lane_in_turn_and_one_tap_confirms_it(phone, table,
                                                                         shot):
    game_id = reviewed(phone, table, WITH_A_DOUBTFUL_OWNER)  # 13 lanes asked
    total = phone.locator("#scan-lanes [data-doubtful]").count()
    assert total >= 3
    card = phone.locator("#card")
    expect(card.locator("[data-progress]")).to_have_text(f"1 of {total}")
    shot(phone, "first-card")
    first = card.get_attribute("data-card")
    as_read = card.locator("[data-as-read]").get_attribute("data-pick")
    card.locator("[data-as-read]").tap()  # one tap: confirmed as read
    expect(card.locator("[data-progress]")).to_have_text(f"2 of {total}")
    lane = phone.locator(f'#scan-lanes [data-route-id="{first}"]')
    expect(lane).to_have_attribute("data-owner", as_read)
    expect(lane).not_to_have_attribute("data-doubtful", "")
    expect(phone.locator(f'[data-checked] [data-lane="{first}"]')).to_have_count(1)
    shot(phone, "second-card")
    phone.locator("[data-accept-rest]").tap()
    expect(phone.locator("#scan-lanes [data-doubtful]")).to_have_count(0)
    expect(phone.locator("[data-all-checked]")).to_be_visible()
    shown = shown_owners(phone)
    after = applied(phone, table, game_id)
    assert after == {r: owner for r, owner in shown.items() if owner}
    assert not phone.problems


def test_nobody_keeps_a_lane_in_view_and_picking_the_shown_player_again_sets_it(phone, table,
                                                                               shot):
    game_id = reviewed(phone, table, WITH_A_DOUBTFUL_OWNER)
    lane = phone.locator("#scan-lanes [data-doubtful]:not([data-owner=''])").first
    route_id, player = lane.get_attribute("data-route-id"), lane.get_attribute("data-owner")
    phone.locator(f'[data-to-check] [data-lane="{route_id}"] a').tap()  # opens its card
    card = phone.locator(f'#card[data-card="{route_id}"]')
    expect(card.locator("[data-as-read]")).to_have_attribute("data-pick", player)
    card.locator('[data-pick=""]').tap()  # nobody
    lane = phone.locator(f'#scan-lanes [data-route-id="{route_id}"]')
    expect(lane).to_have_attribute("data-owner", "")
    row = phone.locator(f'[data-checked] [data-lane="{route_id}"]')
    expect(row).to_contain_text("nobody")  # still in view, as nobody
    shot(phone, "nobody")
    row.locator("a").tap()
    # A second tap on the card's buttons within the double-tap time is one tap: a player looks
    # at the list before tapping again (on a quiet machine this test could be quicker).
    phone.wait_for_timeout(DOUBLE_TAP_S * 1000)
    card.locator(f'[data-pick="{player}"]').tap()  # the shown player again: one tap
    expect(lane).to_have_attribute("data-owner", player)
    after = applied(phone, table, game_id)
    assert after[route_id] == player
    assert not phone.problems


def test_the_bar_in_view_says_what_apply_does(phone, table, shot):
    game_id = reviewed(phone, table)
    bar = phone.locator("[data-scan-bar]")
    expect(bar).to_be_in_viewport()
    expect(bar.locator("[data-apply-scan]")).to_be_in_viewport()
    phone.locator("#card [data-as-read]").tap()
    expect(phone.locator("#card [data-progress]")).to_contain_text("2 of")
    figures = {li.get_attribute("data-bar-player"): (int(li.get_attribute("data-trains")),
                                                      int(li.get_attribute("data-points")))
               for li in bar.locator("[data-bar-player]").all()}
    adds = int(bar.locator('[data-count="add"]').get_attribute("data-n"))
    phone.mouse.wheel(0, 3000)
    expect(bar).to_be_in_viewport()
    after = applied(phone, table, game_id)
    score = table.score(game_id)
    assert figures == {p["name"]: (45 - p["trains_left"], p["route_points"])
                       for p in score["players"]}
    assert len(after) == adds
    expect(phone.locator("#message")).to_contain_text(f"Photo applied: {adds} added")
    assert not phone.problems


def test_the_review_is_in_french(new_table, shot):
    table = new_table(locale="fr-FR")
    page = table.page
    game_id = reviewed(page, table)
    expect(page.locator("h1")).to_have_text("Vérifiez la photo")
    expect(page.locator("#card [data-progress]")).to_contain_text(" sur ")
    expect(page.locator("#card [data-as-read]")).to_contain_text("comme lu")
    expect(page.locator("[data-apply-scan]")).to_have_text("Appliquer à la partie")
    expect(page.locator("[data-legend]")).to_contain_text("à vérifier")
    shot(page, "review-fr")
    applied(page, table, game_id)
    expect(page.locator("#message")).to_contain_text("Photo appliquée")
    expect(page.locator("#message")).to_contain_text("points de routes")
    assert not page.problems


def test_without_javascript_the_review_is_plain_forms(new_table, shot):
    table = new_table(java_script_enabled=False)
    page = table.page
    game_id = reviewed(page, table)
    card = page.locator("#card")
    first = card.get_attribute("data-card")
    picked = card.locator("[data-pick]").last.get_attribute("data-pick")
    with page.expect_navigation():
        card.locator("[data-pick]").last.tap()  # a player other than the reading
    assert page.locator("#card").get_attribute("data-card") != first
    expect(page.locator(f'#scan-lanes [data-route-id="{first}"]')).to_have_attribute(
        "data-owner", picked)
    # a lane of the map is a link to its card
    other = page.locator("#scan-lanes [data-route-id]:not([data-doubtful])").first
    page.goto(other.get_attribute("href"))
    expect(page.locator("#card")).to_have_attribute("data-card",
                                                    other.get_attribute("data-route-id"))
    with page.expect_navigation():
        page.locator("[data-accept-rest]").tap()
    expect(page.locator("#scan-lanes [data-doubtful]")).to_have_count(0)
    shown = {a.get_attribute("data-route-id"): a.get_attribute("data-owner")
             for a in page.locator("#scan-lanes [data-route-id]").all()}
    shot(page, "no-script")
    after = applied(page, table, game_id)
    assert after == {r: owner for r, owner in shown.items() if owner}


def test_a_double_tap_on_apply_applies_once_and_says_so(phone, table):
    game_id = reviewed(phone, table)
    posts = []
    phone.on("request", lambda r: r.url.endswith("/apply") and posts.append(r.url))
    phone.locator("[data-apply-scan]").evaluate(
        "b => { b.click(); setTimeout(() => b.click(), 60); }")  # a thumb bouncing
    phone.wait_for_url(re.compile(rf"/games/{game_id}$"))
    expect(phone.locator("#message")).to_contain_text("Photo applied")
    expect(phone.locator("#message")).not_to_contain_text("applied already")
    assert len(posts) == 1
    assert not phone.problems


def test_a_station_read_on_a_europe_photo_is_corrected_on_the_review_and_applied(phone, table):
    game_id = reviewed(phone, table, "europe-01")
    markers = phone.locator("#scan-lanes [data-station]")
    shown = {m.get_attribute("data-station"): m.get_attribute("data-owner")
             for m in markers.all()}
    assert shown
    city = sorted(shown)[0]
    # the player with the fewest stations gets this one and Wien (3 stations each at most)
    other = min((p for p in ("P0", "P1", "P2") if p != shown[city]),
                key=lambda p: list(shown.values()).count(p))
    phone.locator(f'[data-stations] [data-station="{city}"] select').select_option(other)
    expect(phone.locator(f'#scan-lanes [data-station="{city}"]')).to_have_attribute(
        "data-owner", other)
    phone.locator("[data-add-station] input[name=city]").fill("Wien")
    phone.locator("[data-add-station] select").select_option(other)
    phone.locator("[data-add-station] button").tap()
    expect(phone.locator('#scan-lanes [data-station="Wien"]')).to_have_attribute(
        "data-owner", other)
    expect(phone.locator("[data-check]")).to_have_count(0)
    phone.locator("[data-apply-scan]").tap()
    phone.wait_for_url(re.compile(rf"/games/{game_id}$"))
    game = json.loads(phone.request.get(f"/games/{game_id}/export.json").text())
    assert {s["city"]: s["player"] for s in game["stations"]} == {
        **shown, city: other, "Wien": other}
    assert not phone.problems


def test_back_after_apply_shows_the_game_and_says_the_review_is_closed(phone, table, shot):
    game_id = reviewed(phone, table)
    applied(phone, table, game_id)
    phone.go_back()
    phone.wait_for_url(re.compile(rf"/games/{game_id}$"))
    expect(table.message()).to_contain_text("That photo's review is closed")
    expect(phone.locator("#board")).to_be_visible()
    shot(phone, "back-after-apply")
