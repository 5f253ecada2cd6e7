"""The store, on SQLite or PostgreSQL: migrations, WAL, the action log with its undo cursor,
replay."""

from __future__ import annotations

import json
import sqlite3

import psycopg
import pytest

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
    assert db.schema_version(connection) == 0
    assert db.migrate(connection) == len(db.MIGRATIONS) == len(db.POSTGRES_MIGRATIONS)
    assert db.schema_version(connection) == len(db.MIGRATIONS)
    db.migrate(connection)  # a second start changes nothing
    assert connection.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == 1
    columns = {c[0] for c in connection.execute("SELECT * FROM games").description}
    assert {"id", "share", "cursor", "version", "summary"} <= columns


@sqlite_only
def test_the_database_runs_in_wal_mode(conn):
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_failed_step_leaves_nothing_behind(conn):
    with pytest.raises((sqlite3.OperationalError, psycopg.errors.UndefinedTable)), \
            db.transaction(conn):
        conn.execute("INSERT INTO games (id, share, name, variant, setup, created, updated)"
                     " VALUES ('x', 'y', 'n', 'usa', '{}', '', '')")
        conn.execute("INSERT INTO nowhere VALUES (1)")
    assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0


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
    assert conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 1


def test_recording_after_an_undo_drops_the_undone_actions(conn):
    game_id = store.create(conn, new_game())
    store.record(conn, game_id, ClaimRoute("Ann", "paris--zurich"))
    store.move_cursor(conn, game_id, -1)
    stored = store.record(conn, game_id, ClaimRoute("Bob", "berlin--wien"))
    assert stored.log == (ClaimRoute("Bob", "berlin--wien"),) and not stored.can_redo


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


def test_a_database_of_an_older_schema_is_migrated_keeping_its_games(tmp_path):
    connection = db.connect(database(tmp_path, "old.sqlite3"))
    db.schema_version(connection)
    with db.transaction(connection):  # the database as the first release left it
        for statement in filter(str.strip, db.migrations(connection)[0].split(";")):
            connection.execute(statement)
        connection.execute("INSERT INTO schema_version (version) VALUES (1)")
        connection.execute(
            "INSERT INTO games (id, share, name, variant, setup, created, updated)"
            " VALUES ('g', 's', 'Old', 'usa', ?, '2025', '2025')",
            (json.dumps({"players": [{"name": "A", "color": "red"},
                                     {"name": "B", "color": "blue"}]}),))
    db.migrate(connection)
    assert db.schema_version(connection) == len(db.MIGRATIONS)
    assert [g.name for g in store.history(connection)] == ["Old"]


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
