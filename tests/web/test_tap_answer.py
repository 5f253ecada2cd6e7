"""A tap's answer carries what changed since the version the phone's page shows (it sends it
as ``v``), not the whole board: the tap, and every version other phones made meanwhile. The
whole board only when a version between is not kept by this process, or the page is far behind."""

from __future__ import annotations

import re

from scorer.game import ClaimRoute
from scorer.web import common, store
from tests.web.conftest import Client, lane_class, message, players
from tests.web.test_play import ANN_LONDON_ISTANBUL

VERSION = re.compile(r'id="status" class="status" data-version="(\d+)"')


def version(html: str) -> str:
    return VERSION.search(html).group(1)


def page_version(client: Client, game: str) -> str:
    return version(client.get(f"/games/{game}").text)


def test_a_claim_is_answered_in_5_kb_with_the_lane_and_the_counters_not_the_whole_board(
    client, europe
):
    v = page_version(client, europe)
    answer = client.hx(f"/games/{europe}/routes/paris--zurich",
                       {"player": "Bob", "do": "claim", "v": v})
    assert answer.status_code == 200
    assert len(answer.data) <= 5000, len(answer.data)
    assert answer.text.count("data-route-id=") == 1  # not the board's 101 lanes
    assert 'id="board"' not in answer.text
    assert '<a hx-swap-oob="true" id="lane-paris--zurich"' in answer.text
    assert "own-blue" in lane_class(answer.text, "paris--zurich")
    bob = re.search(r'<button [^>]*id="player-1"[^>]*hx-swap-oob="true">(.*?)</button>',
                    answer.text, re.S)
    assert bob and re.search(r"<b data-route-points>4</b>", bob.group(1))
    assert re.search(r'id="strip-1"[^>]*hx-swap-oob="true">.*?<b data-strip-trains>42</b>',
                     answer.text, re.S)
    assert 'id="player-0"' not in answer.text  # Ann's counters did not change
    assert message(answer.text).startswith("Bob claims Paris–Zürich")
    assert version(answer.text) == str(int(v) + 1)


def test_a_claim_that_closes_the_other_lane_of_a_double_redraws_both(client, usa):
    v = page_version(client, usa)
    answer = client.hx(f"/games/{usa}/routes/new-york--washington",
                       {"player": "Ann", "do": "claim", "v": v})
    assert answer.status_code == 200
    assert "own-red" in lane_class(answer.text, "new-york--washington")
    assert "closed" in lane_class(answer.text, "new-york--washington--2")
    assert answer.text.count("data-route-id=") == 2


def lanes_in(html: str) -> set[str]:
    return set(re.findall(r'data-route-id="([^"]+)"', html))


def test_a_tap_from_a_page_behind_the_game_gets_the_lanes_of_every_version_it_missed(
    client, europe
):
    v = page_version(client, europe)
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann", "do": "claim"})
    # Claimed and released again: the page may have been shown the claim by a poll meanwhile,
    # so the lane comes too, free.
    client.hx(f"/games/{europe}/routes/berlin--danzig", {"player": "Cleo", "do": "claim"})
    client.hx(f"/games/{europe}/routes/berlin--danzig", {"player": "Cleo", "do": "unclaim"})
    answer = client.hx(f"/games/{europe}/routes/amsterdam--essen",
                       {"player": "Bob", "do": "claim", "v": v})
    assert answer.status_code == 200
    assert 'id="board"' not in answer.text and len(answer.data) <= 10_000, len(answer.data)
    assert lanes_in(answer.text) == {"paris--zurich", "berlin--danzig", "amsterdam--essen"}
    assert "own-red" in lane_class(answer.text, "paris--zurich")
    assert "own-blue" in lane_class(answer.text, "amsterdam--essen")
    assert "own" not in lane_class(answer.text, "berlin--danzig")
    for player in (0, 1, 2):  # Ann's, Bob's and Cleo's counters changed meanwhile
        assert f'id="player-{player}"' in answer.text and f'id="strip-{player}"' in answer.text
    assert 'id="player-3"' not in answer.text
    # Right over whichever of the versions between a poll has put the page at: no base.
    assert version(answer.text) == str(int(v) + 4) and "data-base" not in answer.text
    assert message(answer.text).startswith("Bob claims Amsterdam–Essen")


def test_a_refused_tap_from_a_page_behind_brings_the_lane_another_phone_claimed(client, europe):
    v = page_version(client, europe)
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann", "do": "claim"})
    answer = client.hx(f"/games/{europe}/routes/paris--zurich",
                       {"player": "Bob", "do": "unclaim", "v": v})
    assert answer.status_code == 422
    assert lanes_in(answer.text) == {"paris--zurich"}
    assert "own-red" in lane_class(answer.text, "paris--zurich")


def test_a_tap_recorded_after_another_phones_write_gets_that_write_too(
    client, europe, monkeypatch
):
    # A poll answered while the tap waited may have shown this phone the other write: the
    # answer carries the changes of both, right over either version.
    record = store.record

    def after_another_phone(db, game_id, action):  # type: ignore[no-untyped-def]
        common.remember_shown(record(db, game_id, ClaimRoute("Ann", "amsterdam--essen")))
        return record(db, game_id, action)

    v = page_version(client, europe)
    monkeypatch.setattr(store, "record", after_another_phone)
    answer = client.hx(f"/games/{europe}/routes/paris--zurich",
                       {"player": "Bob", "do": "claim", "v": v})
    assert answer.status_code == 200
    assert lanes_in(answer.text) == {"amsterdam--essen", "paris--zurich"}
    assert "own-red" in lane_class(answer.text, "amsterdam--essen")
    assert "own-blue" in lane_class(answer.text, "paris--zurich")
    assert version(answer.text) == str(int(v) + 2) and "data-base" not in answer.text


def test_a_tap_after_a_write_this_process_never_sent_gets_the_whole_board(
    client, europe, monkeypatch
):
    # Another process's write (here: recorded straight in the store): its state is not kept.
    record = store.record

    def after_another_process(db, game_id, action):  # type: ignore[no-untyped-def]
        record(db, game_id, ClaimRoute("Ann", "amsterdam--essen"))
        return record(db, game_id, action)

    v = page_version(client, europe)
    monkeypatch.setattr(store, "record", after_another_process)
    answer = client.hx(f"/games/{europe}/routes/paris--zurich",
                       {"player": "Bob", "do": "claim", "v": v})
    assert answer.status_code == 200
    assert answer.text.count("data-route-id=") == 101
    assert "own-red" in lane_class(answer.text, "amsterdam--essen")
    assert "own-blue" in lane_class(answer.text, "paris--zurich")


def test_a_tap_from_a_page_far_behind_gets_the_whole_board(client, europe):
    v = page_version(client, europe)
    for _ in range(common.MAX_BEHIND // 2 + 1):
        for verb in ("claim", "unclaim"):
            client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann", "do": verb})
    answer = client.hx(f"/games/{europe}/routes/amsterdam--essen",
                       {"player": "Bob", "do": "claim", "v": v})
    assert answer.text.count("data-route-id=") == 101 and "data-base" not in answer.text


def test_a_refused_tap_from_a_page_up_to_date_changes_no_lane(client, europe):
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann", "do": "claim"})
    v = page_version(client, europe)
    answer = client.hx(f"/games/{europe}/routes/paris--zurich",
                       {"player": "Bob", "do": "unclaim", "v": v})
    assert answer.status_code == 422
    assert "data-route-id=" not in answer.text
    assert message(answer.text) == "Paris–Zürich belongs to Ann: select Ann to release it."


def test_a_station_and_its_undo_redraw_only_the_city(client, europe):
    v = page_version(client, europe)
    placed = client.hx(f"/games/{europe}/cities/Zürich",
                       {"player": "Cleo", "mode": "stations", "v": v})
    assert placed.status_code == 200
    assert '<a hx-swap-oob="true" id="city-Z%C3%BCrich"' in placed.text
    assert placed.text.count("data-city=") == 1
    assert 'class="station pc-green"' in placed.text
    undone = client.hx(f"/games/{europe}/undo", {"v": version(placed.text)})
    assert undone.text.count("data-city=") == 1
    assert "has-station" not in re.search(r'<a [^>]*id="city-Z%C3%BCrich"[^>]*>',
                                          undone.text).group(0)
    assert message(undone.text) == "Undone: Cleo's station in Zürich."


def test_the_tickets_come_with_a_tap_only_when_they_changed(client, europe):
    v = page_version(client, europe)
    claim = client.hx(f"/games/{europe}/routes/paris--zurich",
                      {"player": "Ann", "do": "claim", "v": v})
    assert 'id="tickets"' not in claim.text
    ticket = client.hx(f"/games/{europe}/tickets",
                       {"player": "Ann", "a": "Paris", "b": "Zürich", "points": "6",
                        "v": version(claim.text)})
    assert ticket.status_code == 200
    assert 'id="tickets"' in ticket.text and 'data-completed="true"' in ticket.text


def test_a_claim_that_changes_the_express_order_brings_it_and_one_that_does_not_leaves_it(
    client,
):
    game = client.api_game({"variant": "express",
                            "players": players("Ann:red", "Bob:blue", "Cleo:green")})
    v = page_version(client, game)
    for route in ANN_LONDON_ISTANBUL:
        answer = client.hx(f"/games/{game}/routes/{route}",
                           {"player": "Ann", "do": "claim", "v": v})
        assert "data-route-id=" in answer.text and 'id="board"' not in answer.text
        v = version(answer.text)
    assert re.search(r'<section id="express"[^>]*hx-swap-oob="true">.*data-express="Ann"',
                     answer.text, re.S)
    quiet = client.hx(f"/games/{game}/routes/berlin--essen",
                      {"player": "Cleo", "do": "claim", "v": v})
    assert 'id="express"' not in quiet.text


def test_the_final_round_brings_the_whole_strip_with_its_flag_and_the_banner(client):
    game = client.api_game({"variant": "express", "players": players("Ann:red", "Bob:blue")})
    for route in ("budapest--kyiv", "petrograd--stockholm", "athina--brindisi",
                  "berlin--danzig"):
        client.hx(f"/games/{game}/routes/{route}", {"player": "Ann"})
    answer = client.hx(f"/games/{game}/routes/paris--zurich",
                       {"player": "Ann", "v": page_version(client, game)})
    assert 'id="board"' not in answer.text
    assert '<div id="strip" class="strip-players strip-2" hx-swap-oob="true">' in answer.text
    assert "data-strip-final" in answer.text and "data-final-round" in answer.text
    released = client.hx(f"/games/{game}/routes/paris--zurich",
                         {"player": "Ann", "v": version(answer.text)})
    assert 'id="strip"' in released.text and "data-strip-final" not in released.text
    assert "data-final-round" not in released.text


def test_a_poll_brings_only_what_another_phone_changed_since_the_version_it_was_sent(
    client, europe
):
    v = page_version(client, europe)
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann", "do": "claim"})
    poll = client.get(f"/games/{europe}/live?v={v}", headers={"HX-Request": "true"})
    assert poll.status_code == 200
    assert 'id="board"' not in poll.text and poll.text.count("data-route-id=") == 1
    assert "own-red" in lane_class(poll.text, "paris--zurich")
    assert f'data-version="{int(v) + 1}" data-base="{v}"' in poll.text
    assert 'id="message"' not in poll.text  # a poll leaves the message bar alone


def test_a_poll_from_a_version_this_server_never_sent_gets_the_whole_board(client, europe):
    # Plain form posts: each answered with a redirect, no state sent to a page.
    client.post(f"/games/{europe}/routes/paris--zurich", {"player": "Ann", "do": "claim"})
    client.post(f"/games/{europe}/routes/amsterdam--essen", {"player": "Bob", "do": "claim"})
    poll = client.get(f"/games/{europe}/live?v=1", headers={"HX-Request": "true"})
    assert poll.text.count("data-route-id=") == 101 and "data-base" not in poll.text


def test_the_read_only_page_polls_only_what_changed_since_it_was_drawn(client, europe):
    share = re.search(r"/watch/([\w-]+)", client.get(f"/games/{europe}/share").text).group(1)
    v = version(client.get(f"/watch/{share}").text)
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann", "do": "claim"})
    poll = client.get(f"/watch/{share}/live?v={v}", headers={"HX-Request": "true"})
    assert poll.status_code == 200 and len(poll.data) <= 5_000
    assert 'id="board"' not in poll.text and poll.text.count("data-route-id=") == 1
    assert "own-red" in lane_class(poll.text, "paris--zurich")
    assert f'data-version="{int(v) + 1}" data-base="{v}"' in poll.text
    assert europe not in poll.text and "hx-post" not in poll.text  # drawn, not links


def player_line(html: str, index: int) -> str:
    return re.search(rf'<(?:button|div) [^>]*id="player-{index}".*?</(?:button|div)>', html,
                     re.S).group(0)


def test_the_phones_of_a_table_each_get_a_player_line_in_their_language_and_selection(
    app, client, europe
):
    # A line is rendered once for what it shows and kept (common.player_part): the same
    # counters on a phone in French, or whose selected player is another, are its own text.
    v = page_version(client, europe)
    french = Client(app.test_client())
    french.raw.set_cookie("lang", "fr")
    tapped = client.hx(f"/games/{europe}/routes/paris--zurich",
                       {"player": "Ann", "do": "claim", "v": v})
    hx = {"HX-Request": "true"}
    polled = client.get(f"/games/{europe}/live?v={v}&player=Bob", headers=hx)
    polled_fr = french.get(f"/games/{europe}/live?v={v}&player=Bob", headers=hx)
    share = re.search(r"/watch/([\w-]+)", client.get(f"/games/{europe}/share").text).group(1)
    watched = client.get(f"/watch/{share}/live?v={v}", headers=hx)
    lines = [player_line(answer.text, 0) for answer in (tapped, polled, polled_fr, watched)]
    assert 'aria-pressed="true"' in lines[0] and 'aria-pressed="false"' in lines[1]
    assert lines[1].replace('"false"', '"true"') == lines[0]
    assert "<b data-trains-left>42</b> trains" in lines[1]
    assert "<b data-trains-left>42</b> wagons" in lines[2] and 'aria-pressed="false"' in lines[2]
    assert lines[3].startswith('<div id="player-0"') and "aria-pressed" not in lines[3]
