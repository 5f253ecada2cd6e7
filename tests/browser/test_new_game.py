"""The new-game form on a phone: it seats as many players as the chosen rule set does."""

from __future__ import annotations

import re

from playwright.sync_api import expect


def test_choosing_express_shows_its_player_count_and_hides_the_fifth_row(phone, table, shot):
    phone.goto("/games/new")
    legend = phone.locator("[data-seats-legend]")
    rows = phone.locator(".player-row")
    phone.locator('input[name="variant"][value="usa"]').check()
    expect(legend).to_have_text("Players (2 to 5)")
    phone.locator('input[name="name_4"]').fill("Eve")
    phone.locator('input[name="variant"][value="express"]').check()
    expect(legend).to_have_text("Players (2 to 4)")
    expect(rows.nth(4)).to_be_hidden()
    expect(rows.nth(3)).to_be_visible()
    shot(phone, "express-four-rows")
    for index, name in enumerate(["Ann", "Bob", "Cleo", "Dmitri"]):
        phone.locator(f'input[name="name_{index}"]').fill(name)
    phone.locator('form.new-game button[type="submit"]').tap()
    phone.wait_for_url(re.compile(r"/games/(?!new)[^/?#]+$"))
    players = [p["name"] for p in table.score()["players"]]
    assert players == ["Ann", "Bob", "Cleo", "Dmitri"], "the hidden fifth row was sent"


def test_the_fifth_row_comes_back_with_what_was_typed_when_usa_is_chosen_again(phone):
    phone.goto("/games/new")
    phone.locator('input[name="variant"][value="usa"]').check()
    phone.locator('input[name="name_4"]').fill("Eve")
    phone.locator('input[name="variant"][value="express"]').check()
    phone.locator('input[name="variant"][value="usa"]').check()
    expect(phone.locator(".player-row").nth(4)).to_be_visible()
    expect(phone.locator('input[name="name_4"]')).to_have_value("Eve")
    expect(phone.locator("[data-seats-legend]")).to_have_text("Players (2 to 5)")
