"""Two phones on one game: each one's taps reach the other, whether its page was up to date
when it tapped or behind (the answer brings what every version since the page's changed, right
over whichever a poll answered meanwhile has put the page at) — a tap's answer and the poll
never disagree."""

from __future__ import annotations

import re

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


# What the server's page shows and a page brought up to date must show the same: every lane
# and city as drawn, and every counter of the player bar and the strip.
DRAWN = """() => ({
  lanes: [...document.querySelectorAll('#board [data-route-id]')].map(e => e.outerHTML),
  cities: [...document.querySelectorAll('#board [data-city]')].map(e => e.outerHTML),
  counters: [...document.querySelectorAll(
    '[data-trains-left], [data-route-points], [data-strip-trains]')].map(e => e.textContent),
})"""


def test_a_tap_from_a_page_behind_brings_it_level_over_a_poll_answered_meanwhile(new_phone):
    ann_page, bob_page = new_phone(), new_phone()
    ann, bob = Table(ann_page), Table(bob_page)
    game_id = ann.new_game("usa", TWO)
    bob_page.goto(f"/games/{game_id}")
    bob.select("Bob")
    polls = {"through": False}  # Bob's polls find nothing new unless let through
    bob_page.route(re.compile(r"/live\?"), lambda route: route.continue_() if polls["through"]
                   else route.fulfill(status=204))
    held: list = []  # Bob's tap, held on its way until a poll has moved his page on
    bob_page.route(re.compile(r"/routes/chicago--duluth$"), lambda route: held.append(route))

    ann.tap_lane("helena--seattle")  # version 1
    ann.tap_lane("el-paso--los-angeles")  # version 2
    bob.tap_lane("chicago--duluth", answered=False)  # sent from version 0
    while not held:
        bob_page.wait_for_timeout(50)
    polls["through"] = True
    expect(bob.lane("el-paso--los-angeles")).to_have_class(owned_by("red"), timeout=POLLED_MS)
    polls["through"] = False  # his page shows version 2 now
    ann.tap_lane("helena--seattle")  # released: version 3
    with bob_page.expect_response(re.compile(r"/routes/chicago--duluth$")) as tapped:
        held[0].continue_()
    answer = tapped.value.text()
    assert 'id="board"' not in answer and answer.count("data-route-id=") == 3
    expect(bob.lane("chicago--duluth")).to_have_class(owned_by("blue"))
    # Released after his page was shown it claimed: the answer to a tap sent before brings it.
    expect(bob.lane("helena--seattle")).not_to_have_class(re.compile(r"\bown\b"))
    server = new_phone()
    server.goto(f"/games/{game_id}")
    assert bob_page.evaluate(DRAWN) == server.evaluate(DRAWN)
    assert bob_page.problems == [] and ann_page.problems == []
