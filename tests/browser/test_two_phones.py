"""Two phones on one game: each one's taps reach the other, whether its page was up to date
when it tapped (the answer brings only what changed) or behind (the answer brings the whole
board) — a tap's answer and the poll never disagree."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import Table
from tests.browser.test_play import TWO, owned_by

POLLED_MS = 10_000  # the page polls every 2 s; room for a slow machine


def test_two_phones_see_each_others_taps(new_phone):
    ann_page, bob_page = new_phone(), new_phone()
    ann, bob = Table(ann_page), Table(bob_page)
    game_id = ann.new_game("usa", TWO)
    bob_page.goto(f"/games/{game_id}")
    bob.select("Bob")

    ann.tap_lane("helena--seattle")
    expect(bob.lane("helena--seattle")).to_have_class(owned_by("red"), timeout=POLLED_MS)
    expect(bob.player_button("Ann").locator("[data-trains-left]")).to_have_text("39")

    bob.tap_lane("denver--phoenix")
    expect(bob.lane("denver--phoenix")).to_have_class(owned_by("blue"))
    expect(ann.lane("denver--phoenix")).to_have_class(owned_by("blue"), timeout=POLLED_MS)
    expect(ann.player_button("Bob").locator("[data-trains-left]")).to_have_text("40")

    # Ann taps, and Bob at once, his page not yet polled: his answer brings her lane too.
    ann.tap_lane("el-paso--los-angeles")
    bob.tap_lane("chicago--duluth")
    expect(bob.lane("el-paso--los-angeles")).to_have_class(owned_by("red"))
    expect(bob.lane("chicago--duluth")).to_have_class(owned_by("blue"))
    expect(ann.lane("chicago--duluth")).to_have_class(owned_by("blue"), timeout=POLLED_MS)
    for page in (ann, bob):
        expect(page.lane("helena--seattle")).to_have_class(owned_by("red"))
        expect(page.lane("denver--phoenix")).to_have_class(owned_by("blue"))
    assert sorted(ann.score(game_id)["players"][1]["routes"]) == ["chicago--duluth",
                                                                  "denver--phoenix"]
    assert ann_page.problems == [] and bob_page.problems == []
