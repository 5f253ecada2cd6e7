"""The records page on a phone (390 x 844), from the home page, in English and in French."""

import re

from playwright.sync_api import expect

from tests.browser.test_layout import OVERFLOWING, SMALL_TARGETS
from tests.web.test_records import express_file, usa_file


def test_the_records_page_reads_on_a_phone_in_both_languages(phone, table, shot):
    # Long names: the cards and their tables must still fit the width. (The test server has no
    # host view: the page holds this phone's games, made through its own cookies.)
    table.api_game(express_file("wilhelmina", "Maximilienne"))  # 64 each, a shared win
    table.api_game(usa_file("Wilhelmina", "Bartholomew", 5))  # 131 and 19: the latest spelling
    phone.goto("/")
    phone.locator("[data-records-link]").tap()
    phone.wait_for_url("**/records")
    card = phone.locator('[data-record-player="Wilhelmina"]')
    expect(card).to_have_attribute("data-games", "2")
    expect(card).to_have_attribute("data-wins", "2")
    expect(card.locator('[data-rule-set="usa"]')).to_contain_text("131")
    shot(phone, "records")
    card.scroll_into_view_if_needed()
    shot(phone, "records-card")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"/records is {width}px wide: {phone.evaluate(OVERFLOWING)}"
    assert phone.evaluate(SMALL_TARGETS) == []

    phone.locator('.lang button[value="fr"]').tap()
    expect(phone.locator("h1")).to_have_text("Records de la table")
    expect(card).to_contain_text("2 parties · 2 victoires")
    shot(phone, "records-fr")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.problems == []


def test_a_finished_games_page_leads_to_its_summary_and_bg_stats_link(phone, table, shot):
    game_id = table.api_game(usa_file("Ann", "Bob", 5))
    phone.goto(f"/games/{game_id}")
    shot(phone, "final-round-banner")
    phone.locator("[data-summary-link]").tap()
    phone.wait_for_url(f"**/games/{game_id}/results#summary")
    expect(phone.locator("[data-summary]")).to_be_in_viewport()
    expect(phone.locator("[data-summary]")).to_have_value(re.compile(r"1\. Ann: 131"))
    link = phone.locator("[data-bgstats]")
    expect(link).to_have_attribute("href", re.compile(r"^https://app\.bgstatsapp\.com/"))
    link.scroll_into_view_if_needed()
    shot(phone, "summary-and-bg-stats")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.problems == []
