"""The pages a phone opens first load, style themselves, and run their scripts cleanly."""

import re

from playwright.sync_api import expect

from scorer.rules import VARIANTS


def test_home_page_offers_a_new_game_on_a_phone(phone, shot):
    response = phone.goto("/")
    assert response.status == 200
    expect(phone.locator("[data-new-game]")).to_be_visible()
    shot(phone, "home")
    phone.locator("[data-new-game]").tap()
    phone.wait_for_url("**/games/new")
    expect(phone.locator('input[name="variant"]')).to_have_count(len(VARIANTS))
    shot(phone, "new-game")
    assert phone.problems == []



def test_the_new_game_form_refuses_two_players_of_one_colour_and_keeps_the_names(phone, table):
    phone.goto("/games/new")
    phone.locator('input[name="name_0"]').fill("Ann")
    phone.locator('input[name="name_1"]').fill("Bob")
    phone.locator('select[name="color_1"]').select_option("red")
    phone.locator('form.new-game button[type="submit"]').tap()
    expect(phone.locator("[data-error]")).to_contain_text("Ann and Bob both play red")
    expect(phone.locator('input[name="name_0"]')).to_have_value("Ann")
    expect(phone.locator('input[name="name_1"]')).to_have_value("Bob")
    assert "/games/new" in phone.url or phone.url.endswith("/games")


def test_a_pasted_game_file_becomes_a_game_and_delete_removes_it(phone, table, shot):
    phone.goto("/")
    phone.locator("#import summary").tap()
    phone.locator('#import textarea[name="json"]').fill(
        '{"variant": "europe", "players": [{"name": "Ann", "color": "red"},'
        ' {"name": "Bob", "color": "blue"}],'
        ' "claims": [{"player": "Ann", "from": "Paris", "to": "Zurich"}],'
        ' "stations": [{"player": "Bob", "city": "Wien"}]}')
    phone.locator('#import button[type="submit"]').tap()
    phone.wait_for_url(re.compile(r"/games/[^/]+$"))
    game_id = table.game_id
    expect(table.lane("paris--zurich")).to_have_class(re.compile(r"\bown-red\b"))
    expect(table.city("Wien")).to_have_class(re.compile(r"\bhas-station\b"))
    shot(phone, "imported")

    phone.locator(f'a[href="/games/{game_id}/delete"]').tap()
    phone.locator("[data-confirm-delete]").tap()
    phone.wait_for_url(re.compile(r"/$"))
    expect(phone.locator(f'[data-game-id="{game_id}"]')).to_have_count(0)
    response = phone.goto(f"/games/{game_id}")
    assert response.status == 404
    expect(phone.locator("[data-error]")).to_contain_text("deleted")


def test_the_express_cards_show_only_for_express_and_a_mega_game_starts(phone, table):
    phone.goto("/games/new")
    cards = phone.locator("fieldset.express-only")
    expect(cards).to_be_hidden()
    phone.locator('input[name="variant"][value="express"]').check()
    expect(cards).to_be_visible()
    phone.locator('input[name="variant"][value="usa-mega"]').check()
    expect(cards).to_be_hidden()
    game_id = table.new_game("usa-mega", [("Ann", "red"), ("Bob", "blue")])
    table.tap_lane("calgary--helena")
    expect(phone.locator("#game-facts")).to_contain_text("USA 1910 Mega Game")
    assert table.score(game_id)["variant"] == "usa-mega"
    assert phone.problems == []
