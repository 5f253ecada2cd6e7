"""The strip over the map (selected player, trains left, final round) and where the answers
to taps show: never over the map's lanes or the buttons at the bottom of the screen."""

import re

import pytest
from playwright.sync_api import expect

# 25 of Ann's 27 Express trains: 6 + 8 + 4 + 4, then Paris–Zürich (3) sets off the final round.
BEFORE_LAST = ("budapest--kyiv", "petrograd--stockholm", "athina--brindisi", "berlin--danzig")
THREE = [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"},
         {"name": "Cleo", "color": "green"}]


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    screen = page.evaluate("({w: innerWidth, h: innerHeight})")
    return bool(box) and box["y"] >= -1 and box["y"] + box["height"] <= screen["h"] + 1


def test_with_the_map_in_view_the_strip_shows_the_players_trains_and_the_final_round(
    phone, table, shot
):
    game_id = table.api_game({"variant": "express", "players": THREE, "claims": [
        {"player": "Ann", "route": r} for r in BEFORE_LAST]})
    phone.goto(f"/games/{game_id}")
    strip = phone.locator("#strip")
    expect(strip).not_to_be_visible()  # the player bar is in view: no need of the strip
    # The player scrolls the map up to fill the screen, then taps.
    phone.locator("#viewport").evaluate("v => v.scrollIntoView({block: 'start'})")
    table.tap_lane("paris--zurich")
    expect(phone.locator("#players")).not_to_be_in_viewport()
    expect(strip).to_be_visible()
    assert in_view(phone, strip) and in_view(phone, phone.locator("#viewport"))
    ann = strip.locator('[data-pick-player="Ann"]')
    expect(ann).to_have_attribute("aria-pressed", "true")
    expect(ann.locator("[data-strip-trains]")).to_have_text("2")
    expect(strip.locator("[data-strip-final]")).to_have_text("⚑ Final round")
    # The claim's own answer says the final round has begun.
    expect(table.message()).to_contain_text("Final round! Ann has 2 trains or fewer")
    shot(phone, "strip-over-the-map")
    # A tap on the strip selects the player, as the bar does.
    with phone.expect_response(lambda r: r.url.endswith("/player")):
        strip.locator('[data-pick-player="Bob"]').tap()
    expect(table.player_button("Bob")).to_have_attribute("aria-pressed", "true")
    expect(strip.locator('[data-pick-player="Bob"]')).to_have_attribute("aria-pressed", "true")
    assert not phone.problems


def test_in_landscape_the_page_opens_on_the_whole_map_under_the_strip(phone, table, shot):
    page = phone
    page.set_viewport_size({"width": 844, "height": 390})
    game_id = table.api_game({"variant": "europe", "players": THREE})
    page.goto(f"/games/{game_id}")
    viewport = page.locator("#viewport")
    expect(page.locator("#strip")).to_be_visible()
    page.wait_for_function("document.getElementById('players').getBoundingClientRect().bottom < 0")
    shot(page, "landscape")
    assert in_view(page, viewport), viewport.bounding_box()
    strip = page.locator("#strip").bounding_box()
    assert viewport.bounding_box()["y"] >= strip["y"] + strip["height"] - 1
    assert viewport.bounding_box()["height"] > 300


def test_answers_show_at_the_top_and_a_refusal_stays_under_the_newer_answer(
    phone, table, shot
):
    game_id = table.api_game({"variant": "europe", "players": THREE, "claims": [
        {"player": "Bob", "route": "paris--zurich"}]})
    phone.goto(f"/games/{game_id}")
    table.tap_lane("paris--zurich")  # Bob's: refused
    expect(table.message().locator("[data-error]")).to_contain_text("belongs to Bob")
    table.tap_lane("munchen--wien")
    lines = table.message().locator(".msg")
    expect(lines.first).to_contain_text("Ann claims München–Wien")
    expect(lines.nth(1)).to_contain_text("belongs to Bob")
    # ... told as the earlier tap's, not in the red of the answer to the tap just made
    expect(lines.nth(1)).to_have_text(re.compile(r"^Before that: "))
    background = lines.nth(1).evaluate("e => getComputedStyle(e).backgroundColor")
    assert background == "rgb(255, 255, 255)", f"the earlier refusal is on {background}"
    shot(phone, "answer-over-refusal")
    screen = phone.evaluate("innerHeight")
    for index in range(lines.count()):
        box = lines.nth(index).bounding_box()
        assert box["y"] + box["height"] < screen - 140, "an answer covers the bottom of the screen"


def test_upright_a_zoomed_in_map_fills_the_screen_under_the_strip(phone, table, shot):
    """A board is wider than tall: upright it opens as high as its width allows; zoomed in
    further, the map grows to the whole screen under the strip and is brought up under it."""
    game_id = table.api_game({"variant": "europe", "players": THREE})
    phone.goto(f"/games/{game_id}")
    viewport = phone.locator("#viewport")
    opening = viewport.bounding_box()["height"]
    phone.locator('[data-zoom="in"]').click()  # 1.6 times: the board is 1.6 times as high
    phone.locator('[data-zoom="in"]').click()  # 2.6 times: higher than the screen
    strip = phone.locator("#strip")
    expect(strip).to_be_visible()
    phone.wait_for_timeout(300)  # the scroll settles
    shot(phone, "upright-zoomed-in")
    screen = phone.evaluate("innerHeight")
    box, bar = viewport.bounding_box(), strip.bounding_box()
    assert box["y"] >= bar["y"] + bar["height"] - 1, (box, bar)
    assert in_view(phone, viewport), box
    assert box["height"] > opening + 100
    assert box["y"] + box["height"] >= screen - 20, f"{screen - box['y'] - box['height']} px left"
    # Back out to the opening scale, the map is as high as the board again.
    phone.locator('[data-zoom="fit"]').click()
    phone.locator('[data-zoom="in"]').click()
    phone.locator('[data-zoom="out"]').click()
    assert viewport.bounding_box()["height"] < box["height"]


COVERED = ".game-nav a, .undo-redo button, .modes label, .zoom button, .strip.show .strip-player"


@pytest.mark.parametrize("screen", [(390, 844), (844, 390)], ids=["upright", "on its side"])
def test_the_answer_to_a_tap_covers_no_button(phone, table, screen, shot):
    """Upright with the page at its top, on its side opened on the map: the answer shows over
    the hint or the map's top, beside the zoom buttons, never over a button."""
    phone.set_viewport_size({"width": screen[0], "height": screen[1]})
    game_id = table.api_game({"variant": "europe", "players": THREE})
    phone.goto(f"/games/{game_id}")
    table.tap_lane("munchen--wien", zoom=False)
    message = table.message().locator(".msg")
    expect(message).to_contain_text("Ann claims München–Wien")
    shot(phone, "answer")
    box = message.bounding_box()
    for button in phone.locator(COVERED).all():
        other = button.bounding_box()
        if other is None:
            continue
        apart = (box["x"] + box["width"] <= other["x"] or other["x"] + other["width"] <= box["x"]
                 or box["y"] + box["height"] <= other["y"]
                 or other["y"] + other["height"] <= box["y"])
        assert apart, f"the answer {box} covers {button.inner_text()!r} at {other}"


FIVE = [{"name": n, "color": c} for n, c in (
    ("Ann", "red"), ("Bob", "blue"), ("Cleo", "green"), ("Dmitri", "yellow"), ("Eve", "black"))]


def test_with_five_players_the_strip_shows_every_name_trains_and_points_at_390_px(
    phone, table, shot
):
    game_id = table.api_game({"variant": "usa", "players": FIVE, "claims": [
        {"player": "Dmitri", "route": "helena--seattle"}]})
    phone.goto(f"/games/{game_id}")
    phone.locator("#viewport").evaluate("v => v.scrollIntoView({block: 'start'})")
    strip = phone.locator("#strip")
    expect(strip).to_be_visible()
    shot(phone, "five-players")
    for player in FIVE:
        cell = strip.locator(f'[data-pick-player="{player["name"]}"]')
        name = cell.locator(".nm")
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth"), (
            f"{player['name']} is cut to {name.bounding_box()['width']:.0f} px")
        box = cell.bounding_box()
        for part in cell.locator(".count").all():
            inner = part.bounding_box()
            assert inner["x"] + inner["width"] <= box["x"] + box["width"], part.inner_text()
            assert inner["y"] + inner["height"] <= box["y"] + box["height"], part.inner_text()
    dmitri = strip.locator('[data-pick-player="Dmitri"]')
    expect(dmitri.locator(".count").first).to_have_text("39 trains")
    expect(dmitri.locator(".count").nth(1)).to_have_text("15 pts")
    expect(dmitri.locator(".unit").first).to_be_visible()
