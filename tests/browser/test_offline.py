"""Bad Wi-Fi at the table (issue 27, item 4): a phone that loses the connection while the table
taps keeps every tap. The taps wait on the phone in order ("Offline: 3 taps waiting"), go once
when the connection is back, never twice even when an answer was lost on the way, and the page
then shows the server's board; a tap refused on arrival says which and why."""

from __future__ import annotations

import re
from urllib.parse import parse_qs

from playwright.sync_api import expect

from tests.browser.test_fast_taps import LANES, board_game, claims, tap
from tests.browser.test_play import owned_by

OFFLINE_MS = 4000  # long enough for the page to try again twice, still offline


NO_CONNECTION = re.compile(r"console: htmx:(sendError|timeout|afterRequest|responseError), ")


def problems(page) -> list[str]:
    """The page's script errors, leaving out the lines htmx logs for a request that found no
    connection (what these tests do to it)."""
    return [p for p in page.problems if not NO_CONNECTION.match(p)]


def taps_sent(page, path: str = "/routes/") -> list[tuple[str, str]]:
    """(lane, tap id) of each tap request that got an answer, in order (filled as they come)."""
    sent: list[tuple[str, str]] = []

    def answered(response) -> None:
        request = response.request
        if path in request.url and request.method == "POST":
            fields = parse_qs(request.post_data or "")
            sent.append((request.url.rsplit("/", 1)[1], fields.get("tap", [""])[0]))

    page.on("response", answered)
    return sent


def test_taps_made_offline_wait_in_order_and_go_once_when_the_connection_returns(
    phone, table, new_table, shot
):
    game_id = board_game(table, phone)
    sent = taps_sent(phone)
    phone.context.set_offline(True)
    for lane in LANES[:3]:
        tap(phone, "#board", lane)
    expect(table.message()).to_have_text("Offline: 3 taps waiting")
    for lane in LANES[:3]:
        expect(table.lane(lane)).to_have_class(re.compile(r"\btap-pending\b"))
    phone.wait_for_timeout(OFFLINE_MS)
    expect(table.message()).to_have_text("Offline: 3 taps waiting")  # not faded, not lost
    shot(phone, "offline-3-taps-waiting")
    other = new_table()  # the server, seen from another phone: nothing arrived
    assert claims(other, game_id) == {"Ann": [], "Bob": []}

    phone.context.set_offline(False)
    for lane in LANES[:3]:
        expect(table.lane(lane)).to_have_class(owned_by("red"))
    expect(table.message()).to_contain_text("Ann claims Denver–Phoenix")
    expect(table.message().locator("[data-offline]")).to_have_count(0)
    expect(phone.locator(".tap-pending")).to_have_count(0)
    shot(phone, "back-online")
    assert claims(other, game_id) == {"Ann": sorted(LANES[:3]), "Bob": []}
    assert [lane for lane, _ in sent] == LANES[:3]  # each answered once, in order
    assert len({tap_id for _, tap_id in sent}) == 3 and all(sent[0])
    phone.reload()  # the server's board is the one shown
    for lane in LANES[:3]:
        expect(table.lane(lane)).to_have_class(owned_by("red"))
    assert problems(phone) == []


def test_a_tap_whose_answer_is_lost_is_sent_again_and_counts_once(phone, table, new_table):
    game_id = board_game(table, phone)
    first, second = LANES[:2]
    lost: list[str] = []

    def lose_first_answer(route) -> None:
        if lost:
            route.continue_()
            return
        route.fetch()  # the tap reaches the server and is recorded ...
        lost.append(route.request.post_data)
        route.abort("connectionreset")  # ... and its answer never comes back

    phone.route(f"**/routes/{first}", lose_first_answer)
    sent = taps_sent(phone)
    tap(phone, "#board", first)
    tap(phone, "#board", second)  # made while the first waits: goes after it
    for lane in (first, second):
        expect(table.lane(lane)).to_have_class(owned_by("red"))
    expect(table.message()).to_contain_text("Ann claims El Paso–Los Angeles")
    phone.wait_for_timeout(500)
    expect(table.message().locator("[data-error]")).to_have_count(0)
    assert len(lost) == 1
    lost_id = parse_qs(lost[0])["tap"][0]
    assert sent[0] == (first, lost_id)  # the same tap again, by its id
    assert [lane for lane, _ in sent] == [first, second]
    assert claims(new_table(), game_id) == {"Ann": sorted([first, second]), "Bob": []}
    expect(phone.locator("#status")).to_have_attribute("data-version", "2")  # two changes
    assert problems(phone) == []


def test_a_tap_whose_answer_hangs_is_sent_again_after_10_s_and_counts_once(
    phone, table, new_table
):
    game_id = board_game(table, phone)
    lane = LANES[0]
    held: list = []

    def hang_first_answer(route) -> None:
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))  # recorded; its answer never comes

    phone.route(f"**/routes/{lane}", hang_first_answer)
    sent = taps_sent(phone)
    tap(phone, "#board", lane)
    while not held:
        phone.wait_for_timeout(50)
    expect(table.lane(lane)).to_have_class(re.compile(r"\btap-pending\b"))
    expect(table.message()).to_contain_text("Ann claims Helena–Seattle", timeout=20_000)
    expect(table.lane(lane)).to_have_class(owned_by("red"))
    expect(table.message().locator("[data-error]")).to_have_count(0)
    assert claims(new_table(), game_id) == {"Ann": [lane], "Bob": []}
    expect(phone.locator("#status")).to_have_attribute("data-version", "1")
    first_id = parse_qs(held[0][0].request.post_data)["tap"][0]
    assert sent == [(lane, first_id)]  # the same tap, answered the second time
    assert problems(phone) == []


def test_a_proxy_without_its_server_is_no_answer_and_a_server_failure_is_said(
    phone, table, new_table
):
    game_id = board_game(table, phone)
    first, second = LANES[:2]
    proxied: list[int] = []

    def restarting(route) -> None:  # the proxy answers 503 once, as while the app restarts
        if proxied:
            route.continue_()
        else:
            proxied.append(1)
            route.fulfill(status=503, body="Service Unavailable")

    phone.route(f"**/routes/{first}", restarting)
    phone.route(f"**/routes/{second}", lambda route: route.fulfill(status=500, body="boom"))
    tap(phone, "#board", first)
    tap(phone, "#board", second)
    expect(table.lane(first)).to_have_class(owned_by("red"))
    expect(table.message()).to_contain_text(
        "The server failed: that tap was not recorded. Try again.")
    expect(phone.locator(".tap-pending")).to_have_count(0)
    assert claims(new_table(), game_id) == {"Ann": [first], "Bob": []}


def test_a_tap_refused_on_arrival_says_which_and_why_and_the_board_is_the_server_s(
    phone, table, new_table, shot
):
    game_id = board_game(table, phone)
    taken, free = LANES[:2]
    phone.context.set_offline(True)
    tap(phone, "#board", taken)
    tap(phone, "#board", free)
    expect(table.message()).to_have_text("Offline: 2 taps waiting")
    bob = new_table()  # meanwhile Bob claims the first lane from his phone
    bob.page.goto(f"/games/{game_id}")
    bob.select("Bob")
    bob.tap_lane(taken, zoom=False)

    phone.context.set_offline(False)
    expect(table.lane(free)).to_have_class(owned_by("red"))
    expect(table.lane(taken)).to_have_class(owned_by("blue"))
    late = table.message().locator(".late")
    expect(late).to_have_text(
        re.compile(r"Sent when the connection came back: Helena–Seattle is already claimed "
                   r"by Bob\.$"))
    expect(table.message()).to_contain_text("Ann claims El Paso–Los Angeles")
    shot(phone, "refused-on-arrival")
    phone.wait_for_timeout(6000)  # past the 5 s an answer shows: the table may have looked away
    expect(late).to_be_visible()
    assert claims(bob, game_id) == {"Ann": [free], "Bob": [taken]}
    assert problems(phone) == []


def test_taps_waiting_when_the_page_is_reloaded_still_go_once(phone, table, new_table):
    game_id = board_game(table, phone)
    phone.route("**/routes/*", lambda route: route.abort("internetdisconnected"))
    for lane in LANES[:2]:
        tap(phone, "#board", lane)
    expect(table.message()).to_have_text("Offline: 2 taps waiting")
    phone.reload()
    table.whole_board()
    expect(table.message()).to_have_text("Offline: 2 taps waiting")
    sent = taps_sent(phone)
    phone.unroute("**/routes/*")
    for lane in LANES[:2]:
        expect(table.lane(lane)).to_have_class(owned_by("red"))
    assert claims(new_table(), game_id) == {"Ann": sorted(LANES[:2]), "Bob": []}
    assert [lane for lane, _ in sent] == LANES[:2]
    phone.reload()  # sent: nothing waits any more
    phone.wait_for_timeout(500)
    expect(table.message().locator("[data-offline]")).to_have_count(0)
    assert problems(phone) == []


def test_a_phone_offline_with_no_tap_waiting_says_so_until_the_connection_is_back(
    phone, table
):
    board_game(table, phone)
    phone.context.set_offline(True)
    expect(table.message()).to_have_text("Offline: waiting for the connection.")
    phone.wait_for_timeout(2500)  # a poll failed meanwhile: still the one line
    expect(table.message().locator("p")).to_have_count(1)
    phone.context.set_offline(False)
    expect(table.message().locator("[data-offline]")).to_have_count(0)  # at the next poll
    assert problems(phone) == []


def test_offline_in_french(new_phone, shot):
    from tests.browser.conftest import Table

    page = new_phone(locale="fr-FR")
    table = Table(page)
    board_game(table, page)
    page.context.set_offline(True)
    tap(page, "#board", LANES[0])
    expect(table.message()).to_have_text("Hors connexion : 1 touche en attente")
    tap(page, "#board", LANES[1])
    expect(table.message()).to_have_text("Hors connexion : 2 touches en attente")
    shot(page, "hors-connexion")
    page.context.set_offline(False)
    for lane in LANES[:2]:
        expect(table.lane(lane)).to_have_class(owned_by("red"))
