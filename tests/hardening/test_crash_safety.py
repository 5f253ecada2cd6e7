"""kill -9 of the production server in the middle of a burst of writes: after a restart every
acknowledged write is there, the database passes its integrity check, and the app starts and
takes writes again without any repair."""

from __future__ import annotations

import hashlib
import http.client
import sqlite3
import threading
import time
from typing import Any

from tests.hardening import databases
from tests.hardening.live import Phone, ServerProcess, players, single_lanes

NAMES = ("Ann", "Bob", "Cleo")


class Writer(threading.Thread):
    """Taps its own lanes one after another until the server goes away; keeps the lanes whose
    claim was acknowledged (2xx received) and the one in flight when the server died. Each tap
    carries an id, as the game page's do (``tap``)."""

    def __init__(self, port: int, game: str, player: str, lanes: list[str]) -> None:
        super().__init__(daemon=True)
        self.phone = Phone(port, timeout=5).open()
        self.game, self.player, self.lanes = game, player, lanes
        self.acknowledged: list[str] = []
        self.unsure: list[str] = []
        self.refused: list[tuple[str, int]] = []

    def claim(self, lane: str) -> Any:
        return self.phone.post(f"/games/{self.game}/routes/{lane}", {
            "player": self.player, "do": "claim",
            "tap": hashlib.sha256(f"{self.game} {lane}".encode()).hexdigest()[:32]})

    def run(self) -> None:
        for lane in self.lanes:
            try:
                answer = self.claim(lane)
            except (OSError, http.client.HTTPException):  # reset, or an answer cut short
                self.unsure.append(lane)
                return
            if 200 <= answer.status < 300:
                self.acknowledged.append(lane)
            else:
                self.refused.append((lane, answer.status))


class Creator(threading.Thread):
    """Creates games through the JSON API (each a multi-row transaction) until the server dies."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.phone = Phone(port, timeout=5)
        self.acknowledged: list[str] = []

    def run(self) -> None:
        for _ in range(200):
            try:
                answer = self.phone.post_json("/api/games", {
                    "variant": "europe", "players": players("Ann", "Bob"),
                    "claims": [{"player": "Ann", "route": "paris--zurich"}],
                })
            except (OSError, http.client.HTTPException):
                return
            if answer.status == 201:
                self.acknowledged.append(answer.json()["id"])


def integrity(path) -> str:  # type: ignore[no-untyped-def]
    """SQLite's integrity check of the file; PostgreSQL, a server of its own that the app's
    crash leaves running, is checked by reading everything back through the restarted app."""
    if str(path).startswith("postgresql://"):
        return "ok"
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def test_acknowledged_writes_survive_kill_minus_nine_twice(tmp_path):
    database = databases.database(tmp_path, "crash.sqlite3")
    server = ServerProcess(database, threads=4).start()
    try:
        lanes = single_lanes(36)
        # Each cycle taps a game of its own with every lane (12 per writer), so the burst lasts
        # long enough on a fast machine for the kill to land in the middle of it.
        expected: dict[str, dict[str, str]] = {}
        games: list[str] = []
        for cycle in range(2):
            game = Phone(server.port).new_game({"variant": "europe", "players": players(*NAMES)})
            expected[game] = {}
            writers = [Writer(server.port, game, name, lanes[i::3])
                       for i, name in enumerate(NAMES)]
            creator = Creator(server.port)
            for thread in (*writers, creator):
                thread.start()
            # Kill while the writers are mid-burst: a few claims in, most still to come.
            deadline = time.monotonic() + 10
            while (sum(len(w.acknowledged) for w in writers) < 3 + cycle * 2
                   and time.monotonic() < deadline):
                time.sleep(0.002)
            server.kill()
            for thread in (*writers, creator):
                thread.join(10)
            acknowledged = {lane: w.player for w in writers for lane in w.acknowledged}
            assert acknowledged, "no write was acknowledged before the kill"
            assert all(w.refused == [] for w in writers)
            assert any(w.unsure or len(w.acknowledged) < len(w.lanes) for w in writers), \
                "the burst had ended before the kill"
            unsure = {lane: w.player for w in writers for lane in w.unsure}
            expected[game].update(acknowledged)
            games += creator.acknowledged

            assert integrity(database) == "ok"
            server.start()  # no repair step: the same command on the same file
            phone = Phone(server.port)
            for tapped, claims in expected.items():
                sheet = phone.get(f"/api/games/{tapped}/score").json()
                stored = {route: p["name"] for p in sheet["players"] for route in p["routes"]}
                for lane, player in claims.items():
                    assert stored.get(lane) == player, f"acknowledged claim of {lane} lost"
                if tapped == game:
                    # Beyond the acknowledged ones, only a claim in flight at the kill may be there.
                    assert set(stored) - set(claims) <= set(unsure)
                    claims.update({lane: p for lane, p in stored.items() if lane in unsure})
                else:
                    assert set(stored) == set(claims)
            for game_id in games:
                assert phone.get(f"/api/games/{game_id}/score").status == 200
            assert integrity(database) == "ok"

        # The restarted app takes writes and pages as before.
        phone = Phone(server.port).open()
        free = next(lane for lane in lanes if lane not in expected[game])
        assert phone.post(f"/games/{game}/routes/{free}", {"player": "Ann", "do": "claim"}) \
            .status == 200
        assert phone.get(f"/games/{game}").status == 200
        assert server.errors() == []
    finally:
        server.stop()


def test_taps_sent_again_after_a_kill_minus_nine_count_once(tmp_path):
    """The phones whose taps were cut off by the crash send them again, with their ids, once
    the server is back (as the game page does): those it had recorded before dying are
    answered as then and not applied again, the one in flight is applied once."""
    database = databases.database(tmp_path, "again.sqlite3")
    server = ServerProcess(database, threads=4).start()
    try:
        game = Phone(server.port).new_game({"variant": "europe", "players": players(*NAMES)})
        lanes = single_lanes(36)
        writers = [Writer(server.port, game, name, lanes[i::3]) for i, name in enumerate(NAMES)]
        for writer in writers:
            writer.start()
        deadline = time.monotonic() + 10
        while sum(len(w.acknowledged) for w in writers) < 4 and time.monotonic() < deadline:
            time.sleep(0.002)
        server.kill()
        for writer in writers:
            writer.join(10)
        sent = {lane: w for w in writers for lane in w.acknowledged + w.unsure}
        assert len(sent) >= 4

        server.start()  # on another port: each phone, with its session, comes back to it
        for writer in writers:
            writer.phone.close()
            writer.phone = Phone(server.port, cookies=writer.phone.cookies,
                                 token=writer.phone.token)
        for lane, writer in sent.items():
            answer = writer.claim(lane)  # the same tap again: its answer never came, or did
            assert answer.status == 200, (lane, answer.status, answer.text[:300])
            assert f"{writer.player} claims" in answer.text
        phone = Phone(server.port)
        sheet = phone.get(f"/api/games/{game}/score").json()
        assert {route: p["name"] for p in sheet["players"] for route in p["routes"]} == {
            lane: writer.player for lane, writer in sent.items()}
        assert phone.get(f"/games/{game}/live?v=0", hx=True).version == len(sent)
        assert server.errors() == []
    finally:
        server.stop()
