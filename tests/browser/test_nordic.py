"""A Nordic Countries game on a phone, upright (390 x 844) and on its side (844 x 390): the
portrait board drawn at its own shape, lanes claimed by tap (both lanes of a double of
different lengths with 3 players, the 9-long route), the strip, zoom, the results' drawn path
and the shared view."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import owned_by
from tests.browser.test_results import _inside, shown_totals
from tests.core.test_nordic import HAND_COUNT, WORKED

THREE = [("Ann", "red"), ("Bob", "blue"), ("Cat", "green")]
SCREENS = pytest.mark.parametrize("screen", [(390, 844), (844, 390)],
                                  ids=["upright", "on its side"])


def is_portrait(box) -> bool:
    return box["height"] > 1.3 * box["width"]


def test_a_nordic_game_made_on_a_phone_claims_lanes_by_tap(phone, table, shot):
    game_id = table.new_game("nordic", THREE)
    viewport = phone.locator("#viewport")
    expect(phone.locator(".map-nordic")).to_have_count(1)
    # The whole board at its own shape: taller than wide, as wide as the phone.
    box = viewport.bounding_box()
    assert is_portrait(box) and box["width"] >= 380, box
    board = phone.locator(".map-nordic").bounding_box()
    assert abs(board["height"] - box["height"]) < 2, (board, box)  # nothing cut, no sea added
    shot(phone, "opened")

    table.tap_lane("kristiansand--stavanger")  # 2 long
    expect(table.lane("kristiansand--stavanger")).to_have_class(owned_by("red"))
    expect(table.message()).to_contain_text("Ann claims Kristiansand–Stavanger")
    table.select("Bob")
    table.tap_lane("kristiansand--stavanger--2")  # the other lane, 3 long: open with 3 players
    expect(table.lane("kristiansand--stavanger--2")).to_have_class(owned_by("blue"))
    table.select("Cat")
    table.tap_lane("lieksa--murmansk")  # 9 long
    expect(table.lane("lieksa--murmansk")).to_have_class(owned_by("green"))
    shot(phone, "claimed")
    assert (table.trains_left("Ann"), table.trains_left("Bob"), table.trains_left("Cat")) == (
        38, 37, 31)
    strip = phone.locator("#strip")
    expect(strip).to_be_visible()  # the map in view: the strip keeps the counts in sight
    expect(strip.locator('[data-pick-player="Cat"] .count').nth(1)).to_have_text("27 pts")
    sheet = table.score(game_id)
    assert [p["route_points"] for p in sheet["players"]] == [2, 4, 27]
    assert phone.problems == []


def test_on_its_side_the_portrait_board_is_tapped_under_the_strip(phone, table, shot):
    phone.set_viewport_size({"width": 844, "height": 390})
    game_id = table.api_game({"variant": "nordic", "players": [
        {"name": n, "color": c} for n, c in THREE]})
    phone.goto(f"/games/{game_id}")
    viewport = phone.locator("#viewport")
    expect(phone.locator("#strip")).to_be_visible()
    phone.wait_for_function("document.getElementById('players').getBoundingClientRect().bottom < 0")
    shot(phone, "on-its-side")
    box, strip = viewport.bounding_box(), phone.locator("#strip").bounding_box()
    assert box["y"] >= strip["y"] + strip["height"] - 1
    # Lanes 1.6 times as big as the whole board under the strip would show them (a third of
    # the screen's width): the page scrolls along the board.
    whole = (390 - strip["height"] - 8) * 1205 / 1824
    assert box["width"] >= 1.5 * whole and is_portrait(box), (box, whole)
    table.tap_lane("mo-i-rana--trondheim--2")
    expect(table.lane("mo-i-rana--trondheim--2")).to_have_class(owned_by("red"))
    shot(phone, "claimed-on-its-side")
    zoomed = viewport.bounding_box()
    assert abs(zoomed["width"] - box["width"]) < 2, zoomed  # zoomed, it keeps its width
    assert zoomed["y"] + zoomed["height"] <= phone.evaluate("innerHeight") + 1
    assert table.score(game_id)["players"][0]["route_points"] == 15
    assert phone.problems == []


@SCREENS
def test_the_results_draw_the_longest_path_on_the_portrait_board(phone, table, shot, screen):
    phone.set_viewport_size({"width": screen[0], "height": screen[1]})
    game_id = table.api_game(WORKED)
    phone.goto(f"/games/{game_id}/results")
    assert shown_totals(phone) == {name: figures[-1] for name, figures in HAND_COUNT.items()}
    phone.locator('[data-player="Bob"] summary').tap()
    # Bob may be drawn already (he leads): wait for the swap, not for what it shows.
    with phone.expect_response(lambda response: "player=Bob" in response.url):
        phone.locator('[data-show-path="Bob"]').tap()
    expect(phone.locator(".htmx-swapping, .htmx-settling, .htmx-request")).to_have_count(0)
    view = phone.locator("#path-view")
    expect(view.locator('[data-path-player="Bob"]')).to_have_attribute("data-length", "18")
    expect(view.locator('[data-route-id="mo-i-rana--trondheim--2"]')).to_have_class(
        re.compile(r"\bon-path\b"))
    viewport = view.locator(".viewport")
    viewport.scroll_into_view_if_needed()
    box = viewport.bounding_box()
    assert is_portrait(box), box
    assert box["height"] <= screen[1] or box["width"] >= 380, box  # whole on its side
    shot(phone, "path")
    view.locator('[data-zoom="in"]').tap()
    expect(viewport).to_have_class(re.compile(r"\bzoomed\b"))
    lane = view.locator('[data-route-id="andalsnes--bergen"] .sp').nth(2)
    assert _inside(lane.bounding_box(), viewport.bounding_box()), "+ lost the path from view"
    shot(phone, "path-zoomed-in")
    assert phone.problems == []


@SCREENS
def test_the_shared_view_draws_the_portrait_board(phone, table, shot, screen):
    phone.set_viewport_size({"width": screen[0], "height": screen[1]})
    game_id = table.api_game(WORKED)
    phone.goto(f"/games/{game_id}/share")
    link = phone.locator('a[href*="/watch/"]').first.get_attribute("href")
    phone.goto(link)
    viewport = phone.locator("#viewport")
    expect(phone.locator(".map-nordic")).to_have_count(1)
    viewport.scroll_into_view_if_needed()
    box, board = viewport.bounding_box(), phone.locator(".map-nordic").bounding_box()
    assert is_portrait(box) and abs(board["height"] - box["height"]) < 2, (box, board)
    expect(phone.locator('[data-route-id="lieksa--murmansk"]')).to_have_class(owned_by("red"))
    shot(phone, "shared")
    assert phone.problems == []
