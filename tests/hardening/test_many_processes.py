"""Hosting many tables: two ``make serve`` processes on one PostgreSQL database, phones of one
table tapping through either. No update is lost between the processes, a lane claimed through
both at once goes to one player with a clear refusal for the other, and both processes show the
same game. Runs in the pass that puts the app on PostgreSQL (``make test``'s second one)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.hardening import databases
from tests.hardening.live import Phone, ServerProcess, players, single_lanes
from tests.hardening.test_concurrent_edits import at_once, claim_in_bursts, message, owners

NAMES = ("Ann", "Bob", "Cleo", "Dan")

pytestmark = pytest.mark.skipif(
    not databases.SERVER_URL or databases.BACKEND != "postgresql",
    reason="needs the app on PostgreSQL: TERMINUS_TEST_DATABASE_URL=postgresql://... and "
           "TERMINUS_TEST_BACKEND=postgresql (make test sets the second when given the first)")


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[ServerProcess, ServerProcess]]:
    url = databases.fresh_schema()
    pair = (ServerProcess(url, threads=4), ServerProcess(url, threads=4))
    try:
        # Both start on the new, empty schema at once: one waits for the other's migration.
        at_once([lambda s=s: s.start() for s in pair])  # type: ignore[misc]
        yield pair
    finally:
        for server in pair:
            server.stop()
    for server in pair:
        assert server.errors() == [], server.errors()


def test_phones_on_two_processes_tapping_one_game_lose_no_claim(servers):
    first, second = servers
    table = [Phone(s.port).open() for s in (first, second, first, second)]
    game = table[0].new_game({"variant": "europe", "players": players(*NAMES)})
    lanes = single_lanes(24)
    wanted = {lane: NAMES[i % len(NAMES)] for i, lane in enumerate(lanes)}
    answers = claim_in_bursts(table, game, wanted)
    assert [a.status for a in answers] == [200] * len(lanes)
    # Each write saw every write before it, whichever process took it: no version twice.
    assert sorted(a.version for a in answers) == list(range(1, len(lanes) + 1))
    assert owners(table[0], game) == owners(table[1], game) == wanted


def test_one_lane_claimed_through_both_processes_at_once_goes_to_one_player(servers):
    first, second = servers
    ann, bob = Phone(first.port).open(), Phone(second.port).open()
    game = ann.new_game({"variant": "europe", "players": players("Ann", "Bob")})
    for round_, lane in enumerate(single_lanes(6), start=1):
        answers = at_once([
            lambda lane=lane: ann.post(f"/games/{game}/routes/{lane}",
                                       {"player": "Ann", "do": "claim"}),
            lambda lane=lane: bob.post(f"/games/{game}/routes/{lane}",
                                       {"player": "Bob", "do": "claim"}),
        ])
        assert sorted(a.status for a in answers) == [200, 422]
        winner = "Ann" if answers[0].status == 200 else "Bob"
        lost = answers[1] if winner == "Ann" else answers[0]
        assert f"is already claimed by {winner}" in message(lost)
        # Both processes show the same state: the same version and the same owner.
        screens = [p.get(f"/games/{game}/live?v=0", hx=True) for p in (ann, bob)]
        assert [s.version for s in screens] == [round_, round_]
        assert owners(ann, game)[lane] == owners(bob, game)[lane] == winner


def test_an_undo_through_one_process_shows_on_the_other(servers):
    first, second = servers
    ann, bob = Phone(first.port).open(), Phone(second.port).open()
    game = ann.new_game({"variant": "europe", "players": players("Ann", "Bob")})
    lane, other = single_lanes(2)
    assert ann.post(f"/games/{game}/routes/{lane}", {"player": "Ann", "do": "claim"}).status \
        == 200
    assert owners(bob, game) == {lane: "Ann"}  # bob's process has it cached at version 1
    assert bob.post(f"/games/{game}/undo").status == 200
    assert owners(ann, game) == {}
    assert ann.post(f"/games/{game}/routes/{other}", {"player": "Bob", "do": "claim"}).status \
        == 200
    assert owners(bob, game) == owners(ann, game) == {other: "Bob"}
