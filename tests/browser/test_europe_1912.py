"""A Europe 1912 game on a phone (390 x 844): the form's rule sets and its "no longest-path
bonus" box, lanes and tickets tapped, and the results counted by hand."""

import re

from playwright.sync_api import expect

from tests.browser.test_play import owned_by
from tests.browser.test_results import shown_totals

# The Big Cities example of tests/core/test_europe_1912 (big_cities_game), counted by hand there:
# Ann 11 route points + 17 (three tickets done) + 12 (stations kept) + 10 (European Express) = 50;
# Bob 10 + 3 + 6 − 13 + 12 = 18.
ANN_LANES = ["dieppe--london", "dieppe--paris", "bruxelles--paris", "bruxelles--frankfurt",
             "berlin--frankfurt"]
BOB_LANES = ["berlin--wien", "wien--zagrab", "venezia--zagrab", "roma--venezia"]
ANN_TICKETS = [("london", "London–Paris"), ("berlin", "Paris–Berlin"),
               ("berlin", "London–Berlin")]
BOB_TICKETS = [("wien", "Berlin–Wien"), ("wien", "Wien–Roma"), ("wien", "Madrid–Wien")]


def test_a_big_cities_game_made_and_tapped_on_a_phone_scores_as_counted_by_hand(
    phone, table, shot
):
    phone.goto("/games/new")
    box = phone.locator("fieldset.longest-only")
    phone.locator('input[name="variant"][value="usa-1910"]').check()
    expect(box).to_be_hidden()  # USA 1910 has no longest-path card to play without
    phone.locator('input[name="variant"][value="europe-1912-big-cities"]').check()
    expect(box).to_be_visible()
    expect(box.locator('input[name="no_longest_bonus"]')).not_to_be_checked()
    box.scroll_into_view_if_needed()
    shot(phone, "new-game-big-cities")

    game_id = table.new_game("europe-1912-big-cities", [("Ann", "red"), ("Bob", "blue")])
    expect(phone.locator("#game-facts")).to_contain_text("Europe 1912 Big Cities")
    for route in ANN_LANES:
        table.tap_lane(route)
        expect(table.lane(route)).to_have_class(owned_by("red"))
    table.select("Bob")
    for route in BOB_LANES:
        table.tap_lane(route)
        expect(table.lane(route)).to_have_class(owned_by("blue"))
    for player, tickets in (("Ann", ANN_TICKETS), ("Bob", BOB_TICKETS)):
        table.select(player)
        for query, ticket in tickets:
            table.search_deck(query).locator(f'[data-add-ticket="{ticket}"]').tap()
            expect(table.tickets_of(player).locator(f'[data-ticket="{ticket}"]')).to_be_visible()
    expect(table.tickets_of("Bob").locator('[data-ticket="Madrid–Wien"]')).to_contain_text("13")
    shot(phone, "tickets")

    phone.locator("[data-results-link]").tap()
    phone.wait_for_url(f"**/games/{game_id}/results")
    assert shown_totals(phone) == {"Ann": 50, "Bob": 18}
    expect(phone.locator("[data-winners]")).to_have_attribute("data-winners", "Ann")
    ann = phone.locator('article[data-player="Ann"]')
    ann.locator("summary").tap()
    expect(ann.locator("[data-longest-bonus]")).to_have_text("10")
    expect(ann.locator("[data-station-points]")).to_have_text("12")
    expect(ann.locator("[data-tickets-plus]")).to_have_text("+17")
    expect(ann).to_contain_text("European Express bonus (path of 10 trains)")
    shot(phone, "results-ann")
    sheet = table.score(game_id)
    assert sheet["variant"] == "europe-1912-big-cities"
    assert [p["total"] for p in sheet["players"]] == [50, 18]
    assert phone.problems == []


def test_a_game_without_the_longest_path_bonus_is_chosen_on_the_phone(phone, table, shot):
    phone.goto("/games/new")
    phone.locator('input[name="variant"][value="europe-1912-mega"]').check()
    phone.locator('input[name="no_longest_bonus"]').check()
    for index, name in enumerate(("Ann", "Bob")):
        phone.locator(f'input[name="name_{index}"]').fill(name)
    phone.locator('select[name="color_1"]').select_option("blue")
    phone.locator('form.new-game button[type="submit"]').tap()
    phone.wait_for_url(re.compile(r"/games/(?!new)[^/?#]+$"))
    expect(phone.locator("#game-facts")).to_contain_text(
        "Europe 1912 Mega, no European Express bonus")
    table.tap_lane("petrograd--stockholm")  # 8 long: 21 points
    phone.locator("[data-results-link]").tap()
    phone.wait_for_url("**/results")
    assert shown_totals(phone) == {"Ann": 21 + 12, "Bob": 12}
    ann = phone.locator('article[data-player="Ann"]')
    ann.locator("summary").tap()
    expect(ann).to_contain_text("Longest path: 8 trains")
    expect(ann.locator("[data-longest-bonus]")).to_have_count(0)
    shot(phone, "results-without-bonus")
    assert table.score()["longest_path_bonus"] is False
    assert phone.problems == []
