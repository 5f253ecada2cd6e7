"""The store, on SQLite or PostgreSQL: migrations, WAL, the action log with its undo cursor,
replay."""

from __future__ import annotations

import json
import sqlite3

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError, ProgrammingError

from scorer.errors import IllegalMove
from scorer.game import ClaimRoute, Game, Player, UnclaimRoute
from scorer.web import db, store
from tests.hardening.databases import database, on_postgres

sqlite_only = pytest.mark.skipif(on_postgres(), reason="a SQLite file's own property")


@pytest.fixture
def conn(tmp_path):  # type: ignore[no-untyped-def]
    connection = db.connect(database(tmp_path, "store.sqlite3"))
    db.migrate(connection)
    yield connection
    connection.close()


def new_game() -> Game:
    return Game.new("europe", [Player("Ann", "red"), Player("Bob", "blue")])


def test_migrations_bring_the_schema_to_the_last_version_once(tmp_path):
    connection = db.connect(database(tmp_path, "m.sqlite3"))
    assert db.schema_version_of(connection) == 0
    assert db.migrate(connection) == db.SCHEMA_VERSION
    assert db.schema_version_of(connection) == db.SCHEMA_VERSION
    db.migrate(connection)  # a second start changes nothing
    assert connection.scalar(text("SELECT COUNT(*) FROM schema_version")) == 1
    columns = set(connection.execute(text("SELECT * FROM games")).keys())
    assert {"id", "share", "cursor", "version", "summary", "before_devices"} <= columns


@sqlite_only
def test_the_database_runs_in_wal_mode(conn):
    assert conn.scalar(text("PRAGMA journal_mode")) == "wal"


def test_a_failed_step_leaves_nothing_behind(conn):
    with pytest.raises(ProgrammingError if on_postgres() else OperationalError), \
            db.transaction(conn):
        conn.execute(text("INSERT INTO games (id, share, name, variant, setup, created, updated)"
                          " VALUES ('x', 'y', 'n', 'usa', '{}', '', '')"))
        conn.execute(text("INSERT INTO nowhere VALUES (1)"))
    assert conn.scalar(text("SELECT COUNT(*) FROM games")) == 0


def test_a_statement_with_a_literal_percent_sign_or_question_mark_runs_on_both_engines(conn):
    # The old layer rewrote every "?" to "%s" for PostgreSQL: both broke such a statement.
    said = conn.scalar(text("SELECT 'Ready? 100% ' || :name"), {"name": "50% Ann?"})
    assert said == "Ready? 100% 50% Ann?"


def test_the_game_is_the_replay_of_the_log_up_to_the_cursor(conn):
    game_id = store.create(conn, new_game())
    store.record(conn, game_id, ClaimRoute("Ann", "paris--zurich"))
    store.record(conn, game_id, ClaimRoute("Bob", "berlin--wien"))
    stored, moved = store.move_cursor(conn, game_id, -1)
    assert moved == ClaimRoute("Bob", "berlin--wien")
    assert stored.cursor == 1 and len(stored.log) == 2 and stored.can_redo
    assert [c.route for c in stored.game.claims] == ["paris--zurich"]
    store._cache.drop((store._db_key(conn), game_id))  # as after a restart
    fresh = store.load(conn, game_id)
    assert [c.route for c in fresh.game.claims] == ["paris--zurich"]
    assert fresh.log == stored.log


def test_a_refused_action_is_not_recorded(conn):
    game_id = store.create(conn, new_game())
    store.record(conn, game_id, ClaimRoute("Ann", "paris--zurich"))
    with pytest.raises(IllegalMove):
        store.record(conn, game_id, UnclaimRoute("berlin--wien"))
    stored = store.load(conn, game_id)
    assert stored.cursor == 1 and stored.version == 1
    assert conn.scalar(text("SELECT COUNT(*) FROM actions")) == 1


def test_recording_after_an_undo_drops_the_undone_actions(conn):
    game_id = store.create(conn, new_game())
    store.record(conn, game_id, ClaimRoute("Ann", "paris--zurich"))
    store.move_cursor(conn, game_id, -1)
    stored = store.record(conn, game_id, ClaimRoute("Bob", "berlin--wien"))
    assert stored.log == (ClaimRoute("Bob", "berlin--wien"),) and not stored.can_redo


def test_a_write_of_another_process_is_read_before_this_one_writes_on(conn):
    # This process writes on the state it kept while the game is still at that version: a
    # write it did not make (here straight in the tables, as another process's) is read first.
    game_id = store.create(conn, new_game())
    store.record(conn, game_id, ClaimRoute("Ann", "paris--zurich"))
    with db.transaction(conn):
        conn.execute(text("INSERT INTO actions (game_id, seq, action, created) "
                          "VALUES (:game, 1, :action, '')"),
                     {"game": game_id,
                      "action": json.dumps(ClaimRoute("Bob", "berlin--wien").to_json())})
        conn.execute(text("UPDATE games SET cursor = 2, version = version + 1 WHERE id = :game"),
                     {"game": game_id})
    stored = store.record(conn, game_id, ClaimRoute("Ann", "dieppe--london"))
    routes = ["paris--zurich", "berlin--wien", "dieppe--london"]
    assert [c.route for c in stored.game.claims] == routes
    assert (stored.cursor, stored.version, len(stored.log)) == (3, 3, 3)
    store._cache.drop((store._db_key(conn), game_id))  # as after a restart
    assert store.load(conn, game_id).log == stored.log


def test_imported_games_are_stored_as_actions(conn):
    game = Game.from_json({"variant": "europe", "players": [
        {"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}],
        "claims": [{"player": "Ann", "route": "paris--zurich"}],
        "stations": [{"player": "Bob", "city": "Wien"}],
        "tickets": [{"player": "Ann", "from": "Paris", "to": "Wien"}]})
    game_id = store.create(conn, game, "x", store.actions_of(game))
    assert store.load(conn, game_id).game.to_json() == game.to_json()


def test_history_and_recent_names(conn):
    first = store.create(conn, new_game(), "First")
    store.record(conn, first, ClaimRoute("Bob", "berlin--wien"))
    store.create(conn, Game.new("usa", [Player("Zoé", "red"), Player("Ann", "blue")]))
    listed = store.history(conn)
    assert [g.name for g in listed][1] == "First"
    assert listed[1].winners == ("Bob",) and listed[0].winners == ()
    assert store.recent_names(conn) == ["Zoé", "Ann", "Bob"]
    assert store.rename(conn, first, "Second") and not store.rename(conn, first, " ")
    assert store.delete(conn, first) and store.load(conn, first) is None


# The schema as the first release made it, and the two steps after it, written out as that code
# ran them on SQLite: a database made then must open with its games.
FIRST_RELEASE = """
    CREATE TABLE schema_version (version INTEGER NOT NULL);
    CREATE TABLE games (
        id TEXT PRIMARY KEY, share TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
        variant TEXT NOT NULL, setup TEXT NOT NULL, cursor INTEGER NOT NULL DEFAULT 0,
        version INTEGER NOT NULL DEFAULT 0, created TEXT NOT NULL, updated TEXT NOT NULL);
    CREATE TABLE actions (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
        action TEXT NOT NULL, created TEXT NOT NULL, PRIMARY KEY (game_id, seq));
    CREATE INDEX games_updated ON games(updated);
"""
SUMMARIES = """
    ALTER TABLE games ADD COLUMN summary TEXT;
    ALTER TABLE games ADD COLUMN summary_version INTEGER NOT NULL DEFAULT -1;
"""
DEVICES = """
    CREATE TABLE device_games (
        device TEXT NOT NULL, game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        role TEXT NOT NULL, PRIMARY KEY (device, game_id));
    CREATE INDEX device_games_game ON device_games(game_id);
    ALTER TABLE games ADD COLUMN before_devices INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET before_devices = 1;
"""


@sqlite_only
@pytest.mark.parametrize("steps", [1, 3])
def test_a_database_made_by_the_old_code_is_upgraded_keeping_its_games(tmp_path, steps):
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(FIRST_RELEASE + "".join((SUMMARIES, DEVICES)[:steps - 1]))
    old.execute("INSERT INTO schema_version (version) VALUES (?)", (steps,))
    old.execute("INSERT INTO games (id, share, name, variant, setup, created, updated)"
                " VALUES ('g', 's', 'Old', 'usa', ?, '2025', '2025')",
                (json.dumps({"players": [{"name": "A", "color": "red"},
                                         {"name": "B", "color": "blue"}]}),))
    old.execute("INSERT INTO actions VALUES ('g', 0, ?, '2025')",
                (json.dumps(ClaimRoute("A", "atlanta--miami").to_json()),))
    old.commit()
    old.close()
    connection = db.connect(path)
    assert db.migrate(connection) == db.SCHEMA_VERSION
    assert [g.name for g in store.history(connection)] == ["Old"]
    stored = store.load(connection, "g")
    assert stored is not None and stored.cursor == 0 and len(stored.log) == 1
    store.record(connection, "g", ClaimRoute("B", "boston--montreal"))
    assert connection.scalar(text("SELECT COUNT(*) FROM scans")) == 0


def test_a_percent_sign_in_a_name_or_a_value_is_stored_as_typed(conn):
    game = Game.new("europe", [Player("100% Ann", "red"), Player("Bob %s", "blue")])
    game_id = store.create(conn, game, "50% off: %(name)s ?", device="d%1")
    store.record(conn, game_id, ClaimRoute("100% Ann", "paris--zurich"))
    assert store.rename(conn, game_id, "Tous à 100 % ?")
    store.join(conn, "d%2", game_id, "watch")
    listed = store.history(conn, "d%1")
    assert [(g.name, g.players[0]["name"]) for g in listed] == [("Tous à 100 % ?", "100% Ann")]
    assert store.recent_names(conn, "d%1") == ["100% Ann", "Bob %s"]
    assert store.load(conn, game_id).game.claims[0].player == "100% Ann"


def test_two_phones_tapping_at_once_both_count(tmp_path):
    import threading

    path = database(tmp_path, "busy.sqlite3")
    setup = db.connect(path)
    db.migrate(setup)
    game_id = store.create(setup, new_game())
    routes = ["paris--zurich", "berlin--wien", "dieppe--london", "lisboa--madrid",
              "roma--venezia", "athina--smyrna"]
    errors = []

    def tap(route: str) -> None:
        conn = db.connect(path)
        try:
            store.record(conn, game_id, ClaimRoute("Ann", route))
        except Exception as exc:  # noqa: BLE001 - collected for the assertion below
            errors.append(exc)
        finally:
            conn.close()

    threads = [threading.Thread(target=tap, args=(r,)) for r in routes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    stored = store.load(setup, game_id)
    assert sorted(c.route for c in stored.game.claims) == sorted(routes)
    assert stored.cursor == len(routes) == len(stored.log)
