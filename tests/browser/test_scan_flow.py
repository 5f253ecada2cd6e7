"""The photo flow on a phone: take a photo, check the lanes read from it, fix one, apply."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import expect

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
    expect(phone.locator("[data-corner-marks] circle")).to_have_count(4)
    assert float(phone.locator('input[name="c2"]').input_value()) > 600  # photo pixels
    shot(phone, "corners")
    assert not phone.problems


def test_a_tap_on_either_lane_of_a_double_on_the_photo_review_changes_that_lane(phone, table):
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
        with phone.expect_response(lambda r: "/lanes/" in r.url) as answer:
            phone.touchscreen.tap(**phone.evaluate(MIDDLE_OF_LANE, route_id))
        if not answer.value.url.endswith(f"/lanes/{route_id}"):
            wrong.append(f"{route_id} -> {answer.value.url.rsplit('/', 1)[1]}")
        else:
            expect(lane).not_to_have_attribute("data-owner", before)
    assert not wrong, f"taps changed the wrong lane: {wrong}"
