"""Several phones editing one game at the same moment, over HTTP on a real (waitress) server:
no update is lost, a conflict fails for exactly one phone with a message, and every screen,
the read-only share link's included, ends up on the same state."""

from __future__ import annotations

import html
import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from tests.hardening.live import Answer, Phone, players, single_lanes

NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve")


def message(answer: Answer) -> str:
    found = re.search(r'<p class="msg [^"]*"[^>]*>([^<]*)</p>', answer.text)
    return html.unescape(found.group(1)) if found else ""


def at_once(calls: list[Callable[[], Answer]]) -> list[Answer]:
    """Run the calls in threads released together by a barrier."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Answer]) -> Answer:
        barrier.wait(timeout=10)
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def claim_in_bursts(table: list[Phone], game_id: str, wanted: dict[str, str]) -> list[Answer]:
    """Claim the lanes for their owners, one lane per phone in each burst of simultaneous
    taps."""
    lanes = list(wanted)
    answers: list[Answer] = []
    for start in range(0, len(lanes), len(table)):
        answers += at_once([
            (lambda phone=phone, lane=lane: phone.post(
                f"/games/{game_id}/routes/{lane}", {"player": wanted[lane], "do": "claim"}))
            for phone, lane in zip(table, lanes[start:start + len(table)], strict=True)
        ])
    return answers


def owners(phone: Phone, game_id: str) -> dict[str, str]:
    sheet = phone.get(f"/api/games/{game_id}/score").json()
    return {route: p["name"] for p in sheet["players"] for route in p["routes"]}


def test_five_phones_claiming_different_lanes_at_once_lose_no_claim(phones):
    table = [phones() for _ in NAMES]
    game = table[0].new_game({"variant": "europe", "players": players(*NAMES)})
    lanes = single_lanes(30)
    wanted = {lane: NAMES[i % len(NAMES)] for i, lane in enumerate(lanes)}
    answers = claim_in_bursts(table, game, wanted)
    assert [a.status for a in answers] == [200] * len(lanes)
    # Every write saw the one before it: each answer shows its own version, none twice.
    assert sorted(a.version for a in answers) == list(range(1, len(lanes) + 1))
    assert owners(table[0], game) == wanted
    for phone in table:
        assert phone.get(f"/games/{game}/live?v=0", hx=True).version == len(lanes)


def test_one_lane_tapped_by_two_phones_at_once_goes_to_one_player_and_both_screens_agree(phones):
    ann, bob = phones(), phones()
    game = ann.new_game({"variant": "europe", "players": players("Ann", "Bob")})
    for round_, lane in enumerate(single_lanes(8), start=1):
        first, second = at_once([
            lambda lane=lane: ann.post(f"/games/{game}/routes/{lane}",
                                       {"player": "Ann", "do": "claim"}),
            lambda lane=lane: bob.post(f"/games/{game}/routes/{lane}",
                                       {"player": "Bob", "do": "claim"}),
        ])
        assert sorted((first.status, second.status)) == [200, 422]
        won, lost = (first, second) if first.status == 200 else (second, first)
        winner = "Ann" if won is first else "Bob"
        assert f"is already claimed by {winner}" in message(lost)
        assert lost.headers["hx-reswap"] == "none"  # the loser's screen is not redrawn wrong
        assert owners(ann, game)[lane] == winner
        # The next poll brings both screens to the same version and the same owner.
        screens = [p.get(f"/games/{game}/live?v={round_ - 1}", hx=True) for p in (ann, bob)]
        assert [s.version for s in screens] == [round_, round_]
        color = "red" if winner == "Ann" else "blue"
        for screen in screens:
            assert re.search(rf'class="[^"]*own-{color}[^"]*" data-route-id="{lane}"', screen.text)
    assert len(owners(ann, game)) == 8


def test_the_same_player_tapped_from_two_phones_claims_once(phones):
    one, two = phones(), phones()
    game = one.new_game({"variant": "usa", "players": players("Ann", "Bob")})
    answers = at_once([
        lambda phone=phone: phone.post(f"/games/{game}/routes/denver--omaha",
                                       {"player": "Ann", "do": "claim"})
        for phone in (one, two)
    ])
    assert sorted(a.status for a in answers) == [200, 422]
    assert owners(one, game) == {"denver--omaha": "Ann"}
    assert one.get(f"/games/{game}/live?v=0", hx=True).version == 1


def test_one_tap_sent_again_while_its_first_send_is_still_on_its_way_counts_once(phones):
    """A phone that gave up waiting for an answer sends the tap again, with its id, on another
    connection, while the first send is still being served: each tap is applied once, and both
    sends are answered as that one change (the same message, the same version)."""
    ann = phones()
    again = Phone(ann.port, cookies=dict(ann.cookies), token=ann.token)  # the same phone
    game = ann.new_game({"variant": "europe", "players": players("Ann", "Bob")})
    lanes = single_lanes(8)
    try:
        for round_, lane in enumerate(lanes, start=1):
            tap = {"player": "Ann", "do": "claim", "tap": f"{round_:032x}"}
            answers = at_once([lambda p=p, tap=tap, lane=lane: p.post(
                f"/games/{game}/routes/{lane}", tap) for p in (ann, again)])
            assert [a.status for a in answers] == [200, 200]
            assert [a.version for a in answers] == [round_, round_]
            assert message(answers[0]) == message(answers[1])
            assert message(answers[0]).startswith("Ann claims")
    finally:
        again.close()
    assert owners(ann, game) == dict.fromkeys(lanes, "Ann")
    assert ann.get(f"/games/{game}/live?v=0", hx=True).version == len(lanes)


def test_two_phones_pressing_undo_at_once_undo_one_action(phones):
    ann, bob = phones(), phones()
    game = ann.new_game({"variant": "europe", "players": players("Ann", "Bob")})
    lanes = single_lanes(3)
    for lane in lanes:
        assert ann.post(f"/games/{game}/routes/{lane}", {"player": "Ann", "do": "claim"}).status \
            == 200
    # Both screens show cursor 3; the form sends it, so the second press changes nothing.
    answers = at_once([lambda p=p: p.post(f"/games/{game}/undo", {"cursor": "3"})
                       for p in (ann, bob)])
    assert sorted(a.status for a in answers) == [200, 409]
    refused = next(a for a in answers if a.status == 409)
    assert message(refused) == "Already done: the game had changed."
    assert sorted(owners(ann, game)) == sorted(lanes[:2])


def test_claims_and_releases_racing_on_a_few_lanes_end_in_a_consistent_log(phones):
    """Four phones hammer four lanes with claim and release: whatever the interleaving, the
    score replayed from the stored log agrees with what the last answers showed."""
    table = [phones() for _ in range(4)]
    game = table[0].new_game({"variant": "europe", "players": players(*NAMES[:4])})
    lanes = single_lanes(4)
    statuses: list[int] = []
    for round_ in range(6):
        verb = "claim" if round_ % 2 == 0 else "unclaim"
        answers = at_once([
            (lambda p=p, i=i, lane=lanes[(i + round_) % 4], verb=verb: p.post(
                f"/games/{game}/routes/{lane}", {"player": NAMES[i], "do": verb}))
            for i, p in enumerate(table)
        ])
        statuses += [a.status for a in answers]
    assert set(statuses) <= {200, 422}
    final = table[0].get(f"/games/{game}/live?v=-1", hx=True)
    held = owners(table[0], game)
    for lane in lanes:
        shown = re.search(rf'class="([^"]*)" data-route-id="{lane}"', final.text).group(1)
        assert ("own" in shown.split()) == (lane in held)
    # The version counts exactly the accepted writes.
    assert final.version == statuses.count(200)


def share_token(phone: Phone, game: str) -> str:
    return re.search(r"/watch/([\w-]+)", phone.get(f"/games/{game}/share").text).group(1)


def test_a_viewer_of_the_share_link_sees_a_claim_within_two_seconds(phones, app):
    editor, viewer = phones(), phones()
    game = editor.new_game({"variant": "europe", "players": players("Ann", "Bob")})
    share = share_token(editor, game)
    page = viewer.get(f"/watch/{share}")
    assert page.status == 200 and page.version == 0
    # The page polls its live endpoint at most every 2 s.
    assert app.config["POLL_SECONDS"] <= 2
    assert re.search(rf'hx-get="/watch/{share}/live\?v=0" hx-trigger="every 2s"', page.text)
    assert viewer.get(f"/watch/{share}/live?v=0", hx=True).status == 204

    claimed = editor.post(f"/games/{game}/routes/paris--zurich", {"player": "Ann", "do": "claim"})
    assert claimed.status == 200
    seen_after = None
    start = time.monotonic()
    while time.monotonic() - start < 2.0:
        poll = viewer.get(f"/watch/{share}/live?v=0", hx=True)
        if poll.status == 200:
            seen_after = time.monotonic() - start
            break
        time.sleep(0.1)
    assert seen_after is not None, "the share link still shows version 0 after 2 s"
    assert poll.version == 1
    assert re.search(r'class="[^"]*own-red[^"]*" data-route-id="paris--zurich"', poll.text)
    # The viewer's page has no tap targets: lanes are drawn, not links.
    assert 'hx-post="' not in poll.text
