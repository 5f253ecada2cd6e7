"""Tables' data kept (issue 26, item 5): a backup made while phones go on tapping, restored into
a fresh instance, holds every game as it was: the same game file, the same scores, the same
stored rows (undo and redo history, devices, share links), and phones carry on with it.

SQLite: ``make backup`` (SQLite's online backup API) while ``make serve`` runs, then
``make restore`` into an empty instance and ``make serve`` on it. PostgreSQL (when
``TERMINUS_TEST_DATABASE_URL`` names a server): pg_dump of the app's schema while it runs,
the schema set aside, pg_restore, and a new ``make serve`` on the restored one, as
docs/hosting.md says.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from sqlalchemy import select

from scorer.web.db import actions, connect, device_games, games
from tests.hardening.databases import SERVER_URL, fresh_schema
from tests.hardening.live import (
    ROOT,
    Phone,
    ServerProcess,
    players,
    python_command,
    single_lanes,
)
from tests.web.test_records import express_file, usa_file

EUROPE = {"variant": "europe", "name": "Friday at Ann's",
          "players": players("Ann", "Bob", "Cleo", "Dan"),
          "claims": [{"player": "Ann", "route": "paris--zurich"},
                     {"player": "Bob", "from": "Zürich", "to": "München"}],
          "stations": [{"player": "Cleo", "city": "Wien"}],
          "tickets": [{"player": "Ann", "from": "Paris", "to": "Wien"},
                      {"player": "Dan", "from": "Berlin", "to": "Roma", "points": 9}]}


@dataclass
class Tables:
    """The games on a server: made before the backup (``settled``), and those the writer made
    or changed while it ran, with every state a phone was told of."""

    port: int
    phone: Phone
    settled: list[str] = field(default_factory=list)
    busy: str = ""
    states: list[tuple[Any, Any]] = field(default_factory=list)  # the busy game's
    made: dict[str, tuple[float, Any, Any]] = field(default_factory=dict)  # acked at, file, score
    writes: list[float] = field(default_factory=list)

    def state(self, game: str, phone: Phone | None = None) -> tuple[Any, Any]:
        """The game file (its export, with its name) and score JSON a server gives."""
        phone = phone or self.phone
        export, score = (phone.get(f"/games/{game}/export.json"),
                         phone.get(f"/api/games/{game}/score"))
        assert export.status == 200 and score.status == 200, (game, export.status)
        return export.json(), score.json()


def fill(port: int) -> Tables:
    """Several games of every kind, with claims, stations, tickets, a rename and undo history
    (an action undone stays in the log, to be redone), from two devices."""
    ann, bob = Phone(port).open(), Phone(port).open()
    tables = Tables(port, ann)
    europe = ann.new_game(EUROPE)
    tables.settled += [europe, ann.new_game(usa_file("Ann", "Bob", 5)),
                       ann.new_game(express_file("Zoe", "Yann")),
                       bob.new_game(usa_file("Bob", "Eve", 12))]
    taps = [(f"/games/{europe}/routes/{lane}", {"player": p, "do": "claim"})
            for lane, p in zip(("berlin--essen", "roma--venezia", "brest--dieppe"),
                               ("Dan", "Cleo", "Ann"), strict=True)]
    taps += [(f"/games/{europe}/cities/Berlin", {"player": "Dan", "do": "station"}),
             (f"/games/{europe}/tickets", {"player": "Bob", "a": "Zurich", "b": "Brindisi",
                                           "points": "6"}),
             (f"/games/{europe}/undo", {}), (f"/games/{europe}/redo", {}),
             (f"/games/{europe}/undo", {}), (f"/games/{europe}/undo", {}),
             (f"/games/{tables.settled[1]}/routes/denver--kansas-city",
              {"player": "Bob", "do": "unclaim"}),
             (f"/games/{tables.settled[1]}/undo", {})]
    for path, fields in taps:
        assert ann.post(path, fields).status == 200, path
    assert ann.post(f"/games/{tables.settled[2]}/rename", {"name": "Express final"},
                    hx=False).status == 303
    bob.close()
    tables.busy = ann.new_game({"variant": "europe", "players": players("Ann", "Bob")})
    tables.states.append(tables.state(tables.busy))
    return tables


def write_during(tables: Tables, work: Callable[[], Any]) -> tuple[Any, float]:
    """Run ``work`` while a phone claims and releases lanes of the busy game and makes a
    game now and then, each answer waited for; the writes go on from before it starts to
    after it ends. Returns what ``work`` returned and when it started."""
    stop = threading.Event()
    failed: list[BaseException] = []

    def writer() -> None:
        phone = Phone(tables.port).open()
        lanes = single_lanes(12)
        try:
            for n in range(10_000):
                if stop.is_set():
                    break
                lane = lanes[n % len(lanes)]
                verb = "claim" if (n // len(lanes)) % 2 == 0 else "unclaim"
                tap = phone.post(f"/games/{tables.busy}/routes/{lane}",
                                 {"player": "Ann" if n % 2 else "Bob", "do": verb})
                assert tap.status == 200, tap.text[:300]
                tables.writes.append(time.monotonic())
                tables.states.append(tables.state(tables.busy, phone))
                if n % 4 == 0:
                    game = phone.new_game(usa_file(f"P{n}", "Q", 1 + n % 7))
                    tables.made[game] = (time.monotonic(), *tables.state(game, phone))
        except BaseException as exc:  # reported by the test's thread
            failed.append(exc)
        finally:
            phone.close()

    thread = threading.Thread(target=writer, name="writer", daemon=True)
    thread.start()
    while len(tables.writes) < 5 and thread.is_alive():
        time.sleep(0.01)
    start = time.monotonic()
    try:
        result = work()
    finally:
        end = time.monotonic()
        time.sleep(0.2)
        stop.set()
        thread.join(60)
    assert not failed, failed
    during = [t for t in tables.writes if start <= t <= end]
    assert during, "no write was acknowledged while the backup ran"
    return result, start


def stored_rows(target: str, ids: list[str]) -> dict[str, Any]:
    """A game's rows as stored: the game (setup, cursor, version, share link, ...), its action
    log (undone actions too) and the devices that hold it."""
    found = {}
    with connect(target) as conn:
        for game in ids:
            found[game] = (
                [dict(r._mapping) for r in conn.execute(
                    select(games).where(games.c.id == game))],
                [tuple(r) for r in conn.execute(
                    select(actions).where(actions.c.game_id == game).order_by(actions.c.seq))],
                sorted(tuple(r) for r in conn.execute(
                    select(device_games).where(device_games.c.game_id == game))))
    return found


def all_ids(target: str) -> set[str]:
    with connect(target) as conn:
        return {r.id for r in conn.execute(select(games.c.id))}


def compare(tables: Tables, restored_port: int, restored: str, originals: dict[str, Any],
            rows: dict[str, Any], started: float) -> None:
    """Every game of the restored instance is the original's, at one moment of the backup."""
    # The same device: its cookies, its session (the servers share the secret key) and token.
    phone = Phone(restored_port, cookies=dict(tables.phone.cookies), token=tables.phone.token)
    try:
        for game in tables.settled:
            assert tables.state(game, phone) == originals[game], game
        assert stored_rows(restored, tables.settled) == rows
        # The busy game as one of the states a phone was told of: no torn write.
        assert tables.state(tables.busy, phone) in tables.states
        ids = all_ids(restored)
        acked_before = {g for g, (at, *_state) in tables.made.items() if at < started}
        assert acked_before <= ids - {tables.busy, *tables.settled} <= set(tables.made)
        for game in ids - {tables.busy, *tables.settled}:
            assert tables.state(game, phone) == tuple(tables.made[game][1:]), game
        # The phone carries on: its history lists its games, a new game and a tap work.
        history = phone.get("/").text
        assert all(game in history for game in tables.settled[:3])
        game = phone.new_game(usa_file("After", "Restore", 3))
        assert phone.post(f"/games/{game}/undo", {}).status == 200
        assert phone.post(f"/games/{tables.settled[0]}/redo", {}).status == 200
    finally:
        phone.close()


def test_a_sqlite_backup_made_while_tables_play_restores_every_game(tmp_path):
    database = tmp_path / "live" / "terminus.sqlite3"
    server = ServerProcess(database, threads=4).start()
    try:
        tables = fill(server.port)
        target = tmp_path / "kept" / "monday.sqlite3"
        env, command = python_command("backup", TO=str(target))
        variables = {**os.environ, **env, "DATABASE_URL": "",
                     "TERMINUS_DATABASE": str(database)}
        done, started = write_during(tables, lambda: subprocess.run(
            command, cwd=ROOT, env=variables, capture_output=True, text=True, timeout=120))
        assert done.returncode == 0, done.stdout + done.stderr
        answer = json.loads(done.stdout)
        assert answer["backup"] == str(target) and answer["games"] >= 6
        originals = {game: tables.state(game) for game in tables.settled}
        rows = stored_rows(str(database), tables.settled)
        assert server.errors() == []
    finally:
        server.stop()
    assert target.stat().st_mode & 0o077 == 0  # every table's names: the owner's only
    assert not list(target.parent.glob("*-wal")) and not list(target.parent.glob(".*"))

    # A fresh instance: make restore into an empty folder, then make serve on it.
    fresh = tmp_path / "fresh" / "terminus.sqlite3"
    env, command = python_command("restore", FROM=str(target))
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env, "DATABASE_URL": "",
                               "TERMINUS_DATABASE": str(fresh)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout) == {"restored": str(fresh), "games": answer["games"],
                                       "previous": None}
    restored = ServerProcess(fresh, threads=4).start()
    try:
        compare(tables, restored.port, str(fresh), originals, rows, started)
        assert restored.errors() == []
    finally:
        restored.stop()


def test_make_backup_names_its_file_by_the_time_and_restore_keeps_what_it_replaces(tmp_path):
    database = tmp_path / "terminus.sqlite3"
    server = ServerProcess(database, threads=2).start()
    try:
        Phone(server.port).new_game(EUROPE)
    finally:
        server.stop()
    variables = {**os.environ, "DATABASE_URL": "", "TERMINUS_DATABASE": str(database)}

    def make(target: str, **values: str) -> dict[str, Any]:
        env, command = python_command(target, **values)
        done = subprocess.run(command, cwd=ROOT, env={**variables, **env}, capture_output=True,
                              text=True, timeout=120)
        return {"status": done.returncode, **json.loads(done.stdout)}

    first, second = make("backup"), make("backup")
    assert first["status"] == second["status"] == 0 and first["games"] == 1
    stamp = r"\d{4}-\d\d-\d\d-\d{6}(-2)?\.sqlite3"
    assert re.fullmatch(rf"{re.escape(str(tmp_path))}/backups/{stamp}", first["backup"]), first
    assert first["backup"] != second["backup"]
    (tmp_path / "usb").mkdir()
    assert re.fullmatch(rf"{re.escape(str(tmp_path))}/usb/{stamp}",
                        make("backup", TO=str(tmp_path / "usb"))["backup"])
    assert make("backup", TO=first["backup"]) == {
        "status": 2, "error": f"{first['backup']} exists already: a backup never overwrites a "
                              "file."}
    restored = make("restore", FROM=first["backup"])
    assert restored["status"] == 0 and Path(restored["previous"]).exists()
    assert make("restore", FROM=str(tmp_path / "nothing.sqlite3")) == {
        "status": 2, "error": f"No database at {tmp_path / 'nothing.sqlite3'}."}
    (tmp_path / "notes.txt").write_text("not a database")
    assert "not a database" in make("restore", FROM=str(tmp_path / "notes.txt"))["error"]
    variables["DATABASE_URL"] = "postgresql://terminus@127.0.0.1/terminus"
    assert "pg_dump" in make("backup")["error"]


def _pg_tool(name: str) -> str:
    """The PostgreSQL client program of the newest version installed (Debian keeps each in
    /usr/lib/postgresql/<version>/bin), else the one on the PATH."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                   key=lambda p: int(p.split("/")[4]))
    tool = found[-1] if found else shutil.which(name)
    if not tool:
        pytest.skip(f"no {name}: install Debian's postgresql-client (.ci/run does)")
    return tool


def documented(program: str) -> list[str]:
    """The ``program`` command line docs/hosting.md gives, as words."""
    found = re.search(rf"^{program} .*$", (ROOT / "docs" / "hosting.md").read_text(), re.M)
    assert found, f"docs/hosting.md gives no {program} command"
    return shlex.split(found.group(0))


def test_a_postgresql_dump_made_while_tables_play_restores_every_game(tmp_path):
    url = fresh_schema()  # skips without a PostgreSQL server
    schema = re.search(r"search_path=(\w+)", unquote(url)).group(1)
    # docs/hosting.md's commands, on the test's schema only (other tests share the database),
    # the test server for the database URLs and a temporary folder for the file.
    dump_line, restore_line = documented("pg_dump"), documented("pg_restore")
    dump = tmp_path / restore_line[-1]
    pg_dump = [_pg_tool("pg_dump"), *(f"--file={dump}" if w.startswith("--file=") else w
                                      for w in dump_line[1:] if w != "$DATABASE_URL"),
               f"--schema={schema}", SERVER_URL]
    pg_restore = [_pg_tool("pg_restore"), *(f"--dbname={SERVER_URL}" if w.startswith("--dbname=")
                                            else w for w in restore_line[1:-1]), str(dump)]
    assert dump_line[-1] == "$DATABASE_URL" and f"--file={restore_line[-1]}" in dump_line
    server = ServerProcess(url, threads=4).start()
    try:
        tables = fill(server.port)
        done, started = write_during(tables, lambda: subprocess.run(
            pg_dump, capture_output=True, text=True, timeout=120))
        assert done.returncode == 0, done.stderr
        originals = {game: tables.state(game) for game in tables.settled}
        rows = stored_rows(url, tables.settled)
        assert server.errors() == []
    finally:
        server.stop()

    import psycopg

    aside = f"{schema}_before"
    with psycopg.connect(SERVER_URL, autocommit=True) as conn:
        conn.execute(f"ALTER SCHEMA {schema} RENAME TO {aside}")
    try:
        done = subprocess.run(pg_restore, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        restored = ServerProcess(url, threads=4).start()
        try:
            compare(tables, restored.port, url, originals, rows, started)
            assert restored.errors() == []
        finally:
            restored.stop()
    finally:
        with psycopg.connect(SERVER_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {aside} CASCADE")
