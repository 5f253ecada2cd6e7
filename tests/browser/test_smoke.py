"""The pages a phone opens first load, style themselves, and run their scripts cleanly."""

from playwright.sync_api import expect


def test_home_page_offers_a_new_game_on_a_phone(phone, shot):
    response = phone.goto("/")
    assert response.status == 200
    expect(phone.locator("[data-new-game]")).to_be_visible()
    shot(phone, "home")
    phone.locator("[data-new-game]").tap()
    phone.wait_for_url("**/games/new")
    expect(phone.locator('input[name="variant"]')).to_have_count(3)
    shot(phone, "new-game")
    assert phone.problems == []

