"""Taps that come fast, before the answer to the one before has been swapped in and settled.

An answer swaps new elements in for what it changed (the lane tapped, the whole board when
the page was behind, the whole photo review), and htmx only wires those up when it settles
them, 20 ms after the swap (later on a slow phone). A tap in between, or a second tap
waiting on a lane that the answer replaced, used to send nothing. The taps here go in
without waiting for anything but what a player would see.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.test_play import TWO, owned_by
from tests.web.test_tickets import path_claims

SAMPLES = Path(__file__).resolve().parents[2] / "sample_photos"
PHOTO_PLAYERS = json.loads((SAMPLES / "usa-01.json").read_text())["players"]
# Single lanes (no neighbour a few pixels away) far from any other lane's middle.
LANES = ["helena--seattle", "el-paso--los-angeles", "denver--phoenix", "chicago--duluth"]
# The middle printed space of a lane of the board, or the middle of a photo-review lane, as
# a point on the screen.
MIDDLE = """([scope, id]) => {
    const lane = document.querySelector(`${scope} a[data-route-id="${id}"]`);
    if (scope === '#board') {
        const spaces = lane.querySelectorAll('.sp');
        const r = spaces[Math.floor(spaces.length / 2)].getBoundingClientRect();
        return {x: r.x + r.width / 2, y: r.y + r.height / 2};
    }
    const line = lane.querySelector('.line');
    const pts = line.getAttribute('points').trim().split(/\\s+/).map(p => p.split(',').map(Number));
    const [x, y] = pts[Math.floor(pts.length / 2)];
    const m = line.ownerSVGElement.getScreenCTM();
    return {x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f};
}"""
# A slow phone: htmx settles an answer (and wires up the new lanes) a second after swapping it
# in, not 20 ms after, so a tap right after an answer always lands before the settle.
SLOW_SETTLE = "addEventListener('load', () => { htmx.config.defaultSettleDelay = 1000; })"


def tap(page, scope: str, route_id: str) -> None:
    """Tap a lane; on the photo review, then the owner after the one it shows in the choice
    the tap opens."""
    page.touchscreen.tap(**page.evaluate(MIDDLE, [scope, route_id]))
    if scope == "#scan-lanes":
        owner = page.locator(f'#scan-lanes a[data-route-id="{route_id}"]').get_attribute(
            "data-owner")
        page.locator(f'#lane-choice [data-pick-owner="{next_owner(owner)}"]').tap()


def board_game(table, phone) -> str:
    game_id = table.api_game({"variant": "usa", "players": [
        {"name": n, "color": c} for n, c in TWO]})
    phone.goto(f"/games/{game_id}")
    table.whole_board()
    return game_id


def claims(table, game_id: str) -> dict[str, list[str]]:
    return {p["name"]: sorted(p["routes"]) for p in table.score(game_id)["players"]}


def first_lane_swapped_in(table, phone) -> tuple[str, str, str]:
    """A board game on a phone whose htmx settles slowly (a busy phone), its first lane tapped
    and the answer swapped in but not settled: the game and the first two lanes."""
    phone.add_init_script(SLOW_SETTLE)
    game_id = board_game(table, phone)
    first, second = LANES[:2]
    with phone.expect_response(lambda r: f"/routes/{first}" in r.url):
        tap(phone, "#board", first)
    expect(table.lane(first)).to_have_class(owned_by("red"))  # swapped in, not settled
    return game_id, first, second


def test_a_lane_tapped_right_after_an_answer_before_htmx_settles_it_is_claimed(phone, table):
    game_id, first, second = first_lane_swapped_in(table, phone)
    tap(phone, "#board", second)
    expect(table.lane(second)).to_have_class(owned_by("red"))
    assert claims(table, game_id) == {"Ann": sorted([first, second]), "Bob": []}
    assert not phone.problems


def test_lanes_tapped_one_after_the_other_without_waiting_are_all_claimed_in_order(
    phone, table
):
    game_id = board_game(table, phone)
    sent = []
    phone.on("request", lambda r: "/routes/" in r.url and sent.append(r.url.rsplit("/", 1)[1]))
    for route_id in LANES:
        tap(phone, "#board", route_id)
    for route_id in LANES:
        expect(table.lane(route_id)).to_have_class(owned_by("red"))
    assert claims(table, game_id) == {"Ann": sorted(LANES), "Bob": []}
    assert sent == LANES
    assert not phone.problems


def review(phone, table) -> str:
    game_id = table.api_game({"variant": "usa", "players": [
        {"name": f"P{i}", "color": c} for i, c in enumerate(PHOTO_PLAYERS)]})
    phone.goto(f"/games/{game_id}/scan")
    phone.locator("[data-scan-photo]").set_input_files(str(SAMPLES / "usa-01.jpg"))
    phone.locator(".scan-form button[type=submit]").tap()
    phone.wait_for_url(re.compile(rf"/games/{game_id}/scan/[\w-]+$"), timeout=60_000)
    phone.locator(".scan-map").scroll_into_view_if_needed()
    return game_id


def owners(phone, route_ids: list[str]) -> list[str]:
    return [phone.locator(f'.scan-lane[data-route-id="{r}"]').get_attribute("data-owner")
            for r in route_ids]


def next_owner(owner: str) -> str:
    cycle = ["", *(f"P{i}" for i in range(len(PHOTO_PLAYERS)))]
    return cycle[(cycle.index(owner) + 1) % len(cycle)]


def test_a_photo_lane_tapped_right_after_an_answer_before_htmx_settles_it_changes(
    phone, table
):
    phone.add_init_script(SLOW_SETTLE)
    review(phone, table)
    first, second = LANES[:2]
    before = owners(phone, [first, second])
    with phone.expect_response(lambda r: f"/lanes/{first}" in r.url):
        tap(phone, "#scan-lanes", first)
    expect(phone.locator(f'.scan-lane[data-route-id="{first}"]')).to_have_attribute(
        "data-owner", next_owner(before[0]))
    tap(phone, "#scan-lanes", second)
    expect(phone.locator(f'.scan-lane[data-route-id="{second}"]')).to_have_attribute(
        "data-owner", next_owner(before[1]))
    assert owners(phone, [first]) == [next_owner(before[0])]
    assert not phone.problems


def test_photo_lanes_tapped_one_after_the_other_without_waiting_all_change_once(phone, table):
    review(phone, table)
    before = owners(phone, LANES)
    sent = []
    phone.on("request", lambda r: "/lanes/" in r.url and sent.append(r.url.rsplit("/", 1)[1]))
    for route_id in LANES:
        tap(phone, "#scan-lanes", route_id)
    for route_id, owner in zip(LANES, before, strict=True):
        expect(phone.locator(f'.scan-lane[data-route-id="{route_id}"]')).to_have_attribute(
            "data-owner", next_owner(owner))
    assert sent == LANES
    assert not phone.problems


def test_a_double_tap_on_a_lane_claims_it_once_and_a_later_tap_releases_it(phone, table):
    game_id = board_game(table, phone)
    lane = LANES[0]
    sent = []
    phone.on("request", lambda r: "/routes/" in r.url and sent.append(r.post_data))
    tap(phone, "#board", lane)
    tap(phone, "#board", lane)  # the same finger twice: one tap, not "claim, then release"
    expect(table.lane(lane)).to_have_class(owned_by("red"))
    expect(table.message()).to_contain_text("Ann claims Helena–Seattle")
    phone.wait_for_timeout(600)  # anything the second tap sent has been answered by now
    expect(table.lane(lane)).to_have_class(owned_by("red"))
    expect(table.message().locator("[data-error]")).to_have_count(0)
    assert len(sent) == 1 and "do=claim" in sent[0]
    assert claims(table, game_id) == {"Ann": [lane], "Bob": []}

    tap(phone, "#board", lane)  # a tap after the answer was seen: what the lane now offers
    expect(table.lane(lane)).not_to_have_class(re.compile(r"\bown\b"))
    assert claims(table, game_id) == {"Ann": [], "Bob": []}
    assert not phone.problems


def test_a_double_tap_on_the_owner_picked_for_a_photo_lane_counts_once(phone, table):
    review(phone, table)
    lane = LANES[0]
    [before] = owners(phone, [lane])
    sent = []
    phone.on("request", lambda r: ("/lanes/" in r.url or r.url.endswith("/apply"))
             and sent.append(r.url))
    phone.touchscreen.tap(**phone.evaluate(MIDDLE, ["#scan-lanes", lane]))
    box = phone.locator(f'#lane-choice [data-pick-owner="{next_owner(before)}"]').bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    phone.touchscreen.tap(x, y)
    phone.touchscreen.tap(x, y)  # the same finger again, where the choice was
    expect(phone.locator(f'.scan-lane[data-route-id="{lane}"]')).to_have_attribute(
        "data-owner", next_owner(before))
    phone.wait_for_timeout(600)
    assert owners(phone, [lane]) == [next_owner(before)]
    assert len(sent) == 1 and sent[0].endswith(f"/lanes/{lane}")
    assert not phone.problems


def hold_answer(page, path: str) -> list:
    """Let the request for ``path`` reach the server but keep its answer back (bad Wi-Fi);
    returns the list the held (route, response) pair lands in."""
    held: list = []
    page.route(f"**{path}", lambda route: held.append((route, route.fetch())))
    return held


def test_a_lane_tapped_while_the_answer_before_is_slow_shows_claimed_when_both_are_in(
    phone, table
):
    game_id = board_game(table, phone)
    phone.route("**/live?*", lambda route: None)  # no poll puts the board right afterwards
    first, second = LANES[:2]
    held = hold_answer(phone, f"/routes/{first}")
    tap(phone, "#board", first)
    while not held:
        phone.wait_for_timeout(20)
    tap(phone, "#board", second)
    phone.wait_for_timeout(500)  # the first answer is half a second late
    route, response = held[0]
    route.fulfill(response=response)
    for route_id in (first, second):
        expect(table.lane(route_id)).to_have_class(owned_by("red"))
    assert claims(table, game_id) == {"Ann": sorted([first, second]), "Bob": []}
    phone.wait_for_timeout(300)  # no late answer takes it back
    expect(table.lane(second)).to_have_class(owned_by("red"))
    assert not phone.problems


def test_a_photo_lane_tapped_while_the_answer_before_is_slow_keeps_its_change(phone, table):
    review(phone, table)
    first, second = LANES[:2]
    before = owners(phone, [first, second])
    held = hold_answer(phone, f"/lanes/{first}")
    tap(phone, "#scan-lanes", first)
    while not held:
        phone.wait_for_timeout(20)
    tap(phone, "#scan-lanes", second)
    phone.wait_for_timeout(500)
    route, response = held[0]
    route.fulfill(response=response)
    after = [next_owner(owner) for owner in before]
    for route_id, owner in zip((first, second), after, strict=True):
        expect(phone.locator(f'.scan-lane[data-route-id="{route_id}"]')).to_have_attribute(
            "data-owner", owner)
    phone.wait_for_timeout(300)
    assert owners(phone, [first, second]) == after
    phone.reload()  # what the server kept
    assert owners(phone, [first, second]) == after
    assert not phone.problems


def test_the_two_cities_of_a_ticket_tapped_without_waiting_give_that_ticket(phone, table):
    game_id = board_game(table, phone)
    table.mode("ticket")
    boxes = [table.city(city).locator(".dot").bounding_box() for city in ("Denver", "El Paso")]
    for box in boxes:  # the second tap as soon as the first is made
        phone.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(table.tickets_of("Ann").locator('[data-ticket="Denver–El Paso"]')).to_be_visible()
    expect(table.message()).to_contain_text("Ann takes the ticket Denver–El Paso")
    tickets = {p["name"]: len(p["tickets"]) for p in table.score(game_id)["players"]}
    assert tickets == {"Ann": 1, "Bob": 0}
    assert not phone.problems


def test_a_refused_tap_stays_explained_when_the_next_fast_tap_is_answered(phone, table, shot):
    game_id = table.api_game({"variant": "usa", "players": [
        {"name": n, "color": c} for n, c in TWO],
        "claims": [{"player": "Bob", "route": "denver--salt-lake-city"}]})
    phone.goto(f"/games/{game_id}")
    table.whole_board()
    # Two players: the other lane of Bob's double is closed. Then a lane that is free.
    tap(phone, "#board", "denver--salt-lake-city--2")
    tap(phone, "#board", LANES[0])
    expect(table.lane(LANES[0])).to_have_class(owned_by("red"))
    expect(table.message()).to_contain_text("Ann claims Helena–Seattle")
    expect(table.message().locator("[data-error]")).to_contain_text("only one lane")
    table.message().scroll_into_view_if_needed()
    shot(phone, "refusal-and-claim")
    assert claims(table, game_id) == {"Ann": [LANES[0]], "Bob": ["denver--salt-lake-city"]}
    assert not phone.problems


def test_a_photo_lane_tap_that_finds_no_connection_waits_and_goes_first_when_it_can(
    phone, table, shot
):
    review(phone, table)
    first, second = LANES[:2]
    before = owners(phone, [first, second])
    phone.route(f"**/lanes/{first}", lambda route: route.abort("internetdisconnected"))
    tap(phone, "#scan-lanes", first)
    tap(phone, "#scan-lanes", second)
    # the second waits behind the first, which is tried again until it gets through
    expect(phone.locator("#message [data-offline]")).to_have_text("Offline: 2 taps waiting")
    shot(phone, "waiting")
    phone.wait_for_timeout(2500)
    assert owners(phone, [first, second]) == before
    sent = []
    phone.on("response", lambda r: "/lanes/" in r.url and sent.append(r.url.rsplit("/", 1)[1]))
    phone.unroute(f"**/lanes/{first}")
    after = [next_owner(owner) for owner in before]
    for route_id, owner in zip((first, second), after, strict=True):
        expect(phone.locator(f'.scan-lane[data-route-id="{route_id}"]')).to_have_attribute(
            "data-owner", owner)
    assert sent == [first, second]
    expect(phone.locator("#message [data-offline]")).to_have_count(0)


def test_a_poll_answered_after_a_tap_but_read_before_it_does_not_undo_it_on_screen(
    phone, table, new_table
):
    game_id = board_game(table, phone)
    first, second = LANES[:2]
    held: list = []

    def poll(route):
        response = route.fetch()
        if response.status == 200 and not held:  # the first poll that brings a change
            held.append((route, response))
        else:
            route.fulfill(response=response)

    phone.route("**/live?*", poll)
    other = new_table()
    other.page.goto(f"/games/{game_id}")
    other.select("Bob")
    other.tap_lane(first, zoom=False)  # the other phone's claim: this phone's poll reads it
    while not held:
        phone.wait_for_timeout(50)
    tap(phone, "#board", second)  # recorded after that read, answered before it
    expect(table.lane(second)).to_have_class(owned_by("red"))
    route, response = held[0]
    route.fulfill(response=response)
    phone.wait_for_timeout(300)  # the late poll answer is in; the next poll is 2 s away
    assert "own-red" in (table.lane(second).get_attribute("class") or "")
    expect(table.lane(first)).to_have_class(owned_by("blue"))
    assert claims(table, game_id) == {"Ann": [second], "Bob": [first]}
    assert not phone.problems


def test_a_player_and_a_lane_tapped_right_after_an_answer_claim_it_for_that_player(
    phone, table
):
    game_id, first, second = first_lane_swapped_in(table, phone)
    box = table.player_button("Bob").bounding_box()
    phone.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tap(phone, "#board", second)
    expect(table.lane(second)).to_have_class(owned_by("blue"))
    expect(table.player_button("Bob")).to_have_attribute("aria-pressed", "true")
    assert claims(table, game_id) == {"Ann": [first], "Bob": [second]}
    assert not phone.problems


def hold_first_answer(page, path: str) -> list:
    """Keep back the answer to the first request for ``path`` only (the next ones go as
    usual); returns the list the held (route, response) pair lands in."""
    held: list = []

    def handle(route):
        response = route.fetch()
        if held:
            route.fulfill(response=response)
        else:
            held.append((route, response))

    page.route(f"**{path}", handle)
    return held


def test_a_second_undo_tapped_while_the_first_is_on_its_way_takes_back_one_more_step(
    phone, table
):
    game_id = table.api_game({"variant": "usa", "players": [
        {"name": n, "color": c} for n, c in TWO],
        "claims": [{"player": "Ann", "route": route_id} for route_id in LANES[:2]]})
    phone.goto(f"/games/{game_id}")
    sent = []
    phone.on("request", lambda r: r.url.endswith("/undo") and sent.append(r.method))
    held = hold_first_answer(phone, "/undo")
    phone.locator("[data-undo]").tap()
    while not held:
        phone.wait_for_timeout(20)
    phone.wait_for_timeout(400)  # a second tap on purpose, not a bounce of the first
    phone.locator("[data-undo]").tap()
    phone.wait_for_timeout(300)
    route, response = held[0]
    route.fulfill(response=response)
    for route_id in LANES[:2]:
        expect(table.lane(route_id)).not_to_have_class(re.compile(r"\bown\b"))
    expect(table.message()).to_contain_text("Undone")
    assert claims(table, game_id) == {"Ann": [], "Bob": []}
    assert sent == ["POST", "POST"]
    assert not phone.problems


RELOADED = "() => !window.samePage"  # true once the page was loaded again


def test_a_ticket_removed_and_one_added_right_after_an_answer_go_without_a_reload(
    phone, table
):
    phone.add_init_script(SLOW_SETTLE)
    game_id = table.api_game({"variant": "usa", "players": [
        {"name": n, "color": c} for n, c in TWO],
        "tickets": [{"player": "Ann", "from": "Denver", "to": "El Paso"}]})
    phone.goto(f"/games/{game_id}")
    table.whole_board()
    results = table.search_deck("boston")
    expect(results.locator('[data-add-ticket="Boston–Miami"]')).to_be_visible()
    phone.evaluate("window.samePage = true")
    with phone.expect_response(lambda r: f"/routes/{LANES[0]}" in r.url):
        tap(phone, "#board", LANES[0])
    expect(table.lane(LANES[0])).to_have_class(owned_by("red"))  # swapped in, not settled
    table.tickets_of("Ann").locator('[data-ticket="Denver–El Paso"] button').tap()
    results.locator('[data-add-ticket="Boston–Miami"]').tap()
    ann = table.tickets_of("Ann")
    expect(ann.locator('[data-ticket="Boston–Miami"]')).to_be_visible()
    expect(ann.locator('[data-ticket="Denver–El Paso"]')).to_have_count(0)
    assert not phone.evaluate(RELOADED)
    tickets = {p["name"]: [(t["from"], t["to"]) for t in p["tickets"]]
               for p in table.score(game_id)["players"]}
    assert tickets == {"Ann": [("Boston", "Miami")], "Bob": []}
    assert not phone.problems


def test_a_double_tap_on_undo_right_after_an_answer_takes_back_one_step(phone, table):
    phone.add_init_script(SLOW_SETTLE)
    game_id = table.api_game({"variant": "usa", "players": [
        {"name": n, "color": c} for n, c in TWO],
        "claims": [{"player": "Ann", "route": LANES[0]}]})
    phone.goto(f"/games/{game_id}")
    table.whole_board()
    phone.evaluate("window.samePage = true")
    with phone.expect_response(lambda r: f"/routes/{LANES[1]}" in r.url):
        tap(phone, "#board", LANES[1])
    expect(table.lane(LANES[1])).to_have_class(owned_by("red"))  # swapped in, not settled
    box = phone.locator("[data-undo]").bounding_box()
    for _ in range(2):
        phone.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(table.lane(LANES[1])).not_to_have_class(re.compile(r"\bown\b"))
    phone.wait_for_timeout(600)  # anything the second tap sent has been answered by now
    expect(table.lane(LANES[0])).to_have_class(owned_by("red"))
    assert claims(table, game_id) == {"Ann": [LANES[0]], "Bob": []}
    assert not phone.evaluate(RELOADED)
    assert not phone.problems


def test_an_express_arrow_tapped_again_while_the_first_is_on_its_way_is_answered(
    phone, table
):
    game_id = table.api_game({
        "variant": "express", "express_bonus_values": [20, 15, 10, 5],
        "players": [{"name": n, "color": c} for n, c in TWO],
        "claims": path_claims("Bob", "London", "Amsterdam", "Frankfurt", "München", "Wien",
                              "Budapest", "Bucuresti", "Constantinople")
        + path_claims("Ann", "London", "Dieppe", "Paris", "Zürich", "Venezia", "Zagrab",
                      "Sarajevo", "Sofia", "Constantinople")})
    phone.goto(f"/games/{game_id}")
    up = phone.locator('[data-express="Ann"] button[aria-label="Move up"]')
    held = hold_first_answer(phone, "/express")
    up.tap()
    while not held:
        phone.wait_for_timeout(20)
    phone.wait_for_timeout(400)  # a second tap on purpose, not a bounce of the first
    up.tap()  # Ann up once more: she is first by then, so the server says it can't be
    phone.wait_for_timeout(300)
    route, response = held[0]
    route.fulfill(response=response)
    expect(table.message().locator("[data-error]")).to_contain_text("cannot move that way")
    order = phone.locator(".express-order li")
    expect(order).to_have_text([re.compile(r"^\s*Ann\b"), re.compile(r"^\s*Bob\b")])
    assert not phone.problems


PENDING = re.compile(r"\btap-pending\b")


def test_taps_waiting_for_their_answer_are_marked_until_it_comes(phone, table, shot):
    game_id = board_game(table, phone)
    phone.route("**/live?*", lambda route: None)  # no poll answers in between
    first, second = LANES[:2]
    held = hold_answer(phone, f"/routes/{first}")
    tap(phone, "#board", first)
    while not held:
        phone.wait_for_timeout(20)
    tap(phone, "#board", second)  # waits behind the first
    expect(table.lane(first)).to_have_class(PENDING)
    expect(table.lane(second)).to_have_class(PENDING)
    shot(phone, "two-lanes-on-their-way")
    route, response = held[0]
    route.fulfill(response=response)
    for route_id in (first, second):
        expect(table.lane(route_id)).to_have_class(owned_by("red"))
        expect(table.lane(route_id)).not_to_have_class(PENDING)

    undo = phone.locator("form[data-tap=undo]")
    held = hold_answer(phone, "/undo")
    undo.locator("button").tap()
    while not held:
        phone.wait_for_timeout(20)
    expect(undo).to_have_class(PENDING)
    undo.scroll_into_view_if_needed()
    shot(phone, "undo-on-its-way")
    route, response = held[0]
    route.fulfill(response=response)
    expect(table.lane(second)).not_to_have_class(re.compile(r"\bown\b"))
    expect(undo).not_to_have_class(PENDING)
    assert claims(table, game_id) == {"Ann": [first], "Bob": []}
    assert not phone.problems


def test_a_photo_lane_waiting_for_its_answer_is_marked_until_it_comes(new_phone, shot):
    from tests.browser.conftest import Table

    for locale in ("en-US", "fr-FR"):
        phone = new_phone(locale=locale)
        review(phone, Table(phone))
        lane = phone.locator(f'.scan-lane[data-route-id="{LANES[0]}"]')
        held = hold_answer(phone, f"/lanes/{LANES[0]}")
        tap(phone, "#scan-lanes", LANES[0])
        while not held:
            phone.wait_for_timeout(20)
        expect(lane).to_have_class(PENDING)
        shot(phone, f"photo-lane-on-its-way-{locale}")
        route, response = held[0]
        route.fulfill(response=response)
        expect(lane).not_to_have_class(PENDING)
        assert not phone.problems
