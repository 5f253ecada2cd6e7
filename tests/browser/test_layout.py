"""The pages fit a 390 px phone: no sideways scrolling, answers shown on the screen."""

import re

import pytest
from playwright.sync_api import expect

# Elements sticking out to the right of the screen, for the failure message.
OVERFLOWING = """() => Array.from(document.querySelectorAll('body *'))
    .filter(e => e.getBoundingClientRect().right > window.visualViewport.width + 1
                 && !e.closest('.viewport'))
    .slice(0, 8)
    .map(e => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}`
              + `${e.classList.length ? '.' + [...e.classList].join('.') : ''}`
              + ` right=${Math.round(e.getBoundingClientRect().right)}`)"""


@pytest.mark.parametrize("page_name", ["home", "new game", "game", "results", "share", "watch"])
def test_the_page_fits_the_phone_width_without_sideways_scrolling(phone, table, page_name):
    game_id = table.api_game({
        "variant": "europe",
        "players": [{"name": "Annabelle", "color": "red"}, {"name": "Bartholomew", "color": "blue"},
                    {"name": "Cat", "color": "green"}],
        "claims": [{"player": "Annabelle", "route": "paris--zurich"}],
        "tickets": [{"player": "Annabelle", "from": "Paris", "to": "Wien"}],
    })
    phone.goto(f"/games/{game_id}/share")
    watch = phone.locator("[data-watch-link]").get_attribute("href")
    path = {"home": "/", "new game": "/games/new", "game": f"/games/{game_id}",
            "results": f"/games/{game_id}/results", "share": f"/games/{game_id}/share",
            "watch": watch}[page_name]
    phone.goto(path)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{path} is {width}px wide on a 390px phone: {phone.evaluate(OVERFLOWING)}"


def test_the_answer_to_a_tap_shows_inside_the_phone_screen(phone, table, shot):
    """The message bar is fixed to the bottom of the screen: it must be where the eye is."""
    table.new_game("usa", [("Ann", "red"), ("Bob", "blue")])
    table.tap_lane("helena--seattle", zoom=False)
    message = table.message().locator(".msg")
    expect(message).to_contain_text("Ann claims")
    shot(phone, "message-after-claim")
    box = message.bounding_box()
    screen = phone.evaluate("({w: visualViewport.width, h: visualViewport.height})")
    assert box["y"] >= 0 and box["y"] + box["height"] <= screen["h"], (
        f"the message is at y={box['y']:.0f}..{box['y'] + box['height']:.0f}, "
        f"the screen is {screen['h']:.0f}px high")
    assert box["x"] >= 0 and box["x"] + box["width"] <= screen["w"]


def test_the_board_opens_big_enough_to_tap_a_lane_on_a_phone(phone, table, shot):
    table.new_game("usa", [("Ann", "red"), ("Bob", "blue")])
    viewport = phone.locator("#viewport")
    expect(viewport).to_have_class(re.compile(r"\bzoomed\b"))
    screen = phone.evaluate("visualViewport.height")
    box = viewport.bounding_box()
    assert box["y"] + box["height"] <= screen + 2, "the board runs off the bottom of the screen"
    space = table.lane("denver--kansas-city").locator(".sp").first
    opening = space.bounding_box()["width"]
    shot(phone, "opening-view")
    table.whole_board()
    board = phone.locator("#board svg").bounding_box()
    assert abs(board["width"] - viewport.bounding_box()["width"]) < 2
    whole = space.bounding_box()["width"]
    assert opening >= 1.6 * whole, f"a space is {opening:.0f} px, {whole:.0f} on the whole board"


TAP_TARGETS = (".btn, .icon-btn, .crumbs a, .gactions a, .poll, .lang button, summary, "
               "#players .player, .modes span")
SMALL_TARGETS = f"""() => Array.from(document.querySelectorAll('{TAP_TARGETS}'))
    .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
    .map(e => `${{e.tagName.toLowerCase()}}.${{[...e.classList].join('.')}} `
              + `"${{e.textContent.trim().slice(0, 20)}}" `
              + `${{Math.round(e.getBoundingClientRect().height)}}px`)"""


@pytest.mark.parametrize("page_name", ["home", "game", "results", "share", "route", "tickets"])
def test_tap_targets_are_at_least_44_pixels_tall(phone, table, page_name):
    game_id = table.api_game({
        "variant": "europe", "players": [{"name": "Ann", "color": "red"},
                                         {"name": "Bob", "color": "blue"}],
        "claims": [{"player": "Ann", "route": "paris--zurich"}],
        "tickets": [{"player": "Ann", "from": "Paris", "to": "Wien"}]})
    path = {"home": "/", "game": f"/games/{game_id}", "results": f"/games/{game_id}/results",
            "share": f"/games/{game_id}/share", "route": f"/games/{game_id}/routes/paris--wien",
            "tickets": f"/games/{game_id}/tickets/search?q=par"}[page_name]
    phone.goto(path)
    assert phone.evaluate(SMALL_TARGETS) == []
