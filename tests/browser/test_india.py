"""An India game on a phone (390 x 844): the portrait board drawn whole at its own shape, lanes
claimed by tap (the 8-long ferry, both lanes of a double with 4 players), and the results with
the Grand Tour of a ticket joined twice."""

from playwright.sync_api import expect

from tests.browser.test_play import owned_by

FOUR = [("Ann", "red"), ("Bob", "blue"), ("Cat", "green"), ("Dan", "yellow")]


def test_an_india_game_made_on_a_phone_claims_lanes_by_tap(phone, table, shot):
    game_id = table.new_game("india", FOUR)
    expect(phone.locator(".map-india")).to_have_count(1)
    box = phone.locator("#viewport").bounding_box()
    assert box["height"] > 1.3 * box["width"] and box["width"] >= 380, box  # portrait
    shot(phone, "opened")

    table.tap_lane("calcutta--madras")  # 8 long, a ferry
    expect(table.lane("calcutta--madras")).to_have_class(owned_by("red"))
    expect(table.message()).to_contain_text("Ann claims Calcutta–Madras")
    table.tap_lane("agra--jaipur")
    table.select("Bob")
    table.tap_lane("agra--jaipur--2")  # the other lane: open with 4 players
    expect(table.lane("agra--jaipur--2")).to_have_class(owned_by("blue"))
    shot(phone, "claimed")
    assert (table.trains_left("Ann"), table.trains_left("Bob")) == (36, 44)
    strip = phone.locator("#strip")
    expect(strip).to_be_visible()
    expect(strip.locator('[data-pick-player="Ann"] .count').nth(1)).to_have_text("22 pts")
    assert [p["route_points"] for p in table.score(game_id)["players"]] == [22, 1, 0, 0]
    assert phone.problems == []


def test_the_results_on_a_phone_show_the_grand_tour(phone, table, shot):
    game_id = table.api_game({
        "variant": "india", "players": [{"name": n, "color": c} for n, c in FOUR[:2]],
        "claims": [{"player": "Ann", "route": r}
                   for r in ("agra--delhi", "delhi--jaipur", "agra--jaipur")],
        "tickets": [{"player": "Ann", "from": "Agra", "to": "Delhi", "points": 4}]})
    phone.goto(f"/games/{game_id}/results")
    ann = phone.locator('[data-player="Ann"]').first
    expect(ann.locator("[data-total]")).to_have_attribute("data-total", str(5 + 4 + 10 + 5))
    ann.locator("summary").tap()
    expect(ann.locator("[data-grand-tour-bonus]")).to_have_text("5")
    shot(phone, "results")
    assert phone.problems == []
