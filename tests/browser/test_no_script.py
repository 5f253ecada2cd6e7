"""Without JavaScript (a blocked script, an old phone) the board is links and forms."""

import re

from playwright.sync_api import expect


def test_without_javascript_a_lane_tap_opens_its_page_and_claims_from_there(new_table, shot):
    table = new_table(java_script_enabled=False)
    page = table.page
    game_id = table.new_game("usa", [("Ann", "red"), ("Bob", "blue")])

    expect(page.locator(".zoom")).to_be_hidden()  # buttons that would do nothing
    table.tap_lane("helena--seattle", zoom=False)
    page.wait_for_url(f"**/games/{game_id}/routes/helena--seattle")
    expect(page.locator("h1")).to_have_text("Helena – Seattle")
    shot(page, "route-page")
    page.locator('.claim-form button[value="Bob"]').tap()
    page.wait_for_url(re.compile(rf"/games/{game_id}$"))
    expect(table.lane("helena--seattle")).to_have_class(re.compile(r"\bown-blue\b"))
    expect(page.locator("#message")).to_contain_text("Bob claims Helena–Seattle")

    # The other lane of a double is closed for everyone in a two-player game. The two lanes
    # are a few pixels apart on the whole board (no zoom without scripts): follow their
    # links rather than aim for them.
    page.goto(table.lane("portland--seattle").get_attribute("href"))
    page.locator('.claim-form button[value="Ann"]').tap()
    page.wait_for_url(re.compile(rf"/games/{game_id}$"))
    page.goto(table.lane("portland--seattle--2").get_attribute("href"))
    expect(page.locator('.claim-form button[value="Bob"]')).to_be_disabled()
    expect(page.locator(".claim-form")).to_contain_text("only one lane")
    shot(page, "closed-lane-page")
    owners = {p["name"]: p["routes"] for p in table.score(game_id)["players"]}
    assert owners == {"Ann": ["portland--seattle"], "Bob": ["helena--seattle"]}
