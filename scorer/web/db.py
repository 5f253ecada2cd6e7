"""SQLite storage: one connection per request, WAL mode, a versioned schema with migrations.

A game is stored as its setup plus an action log; ``games.cursor`` counts the actions in force
(undo moves it back, redo forward, a new action cuts the log at the cursor). Every change runs
in one ``BEGIN IMMEDIATE`` transaction, so two phones tapping at once are serialised and a
refused action leaves nothing behind.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask, current_app, g

# Ordered migration steps: step i takes the schema from version i to i + 1. Append, never edit.
MIGRATIONS: tuple[str | Callable[[sqlite3.Connection], None], ...] = (
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        share TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        variant TEXT NOT NULL,
        setup TEXT NOT NULL,
        cursor INTEGER NOT NULL DEFAULT 0,
        version INTEGER NOT NULL DEFAULT 0,
        created TEXT NOT NULL,
        updated TEXT NOT NULL
    );
    CREATE TABLE actions (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        action TEXT NOT NULL,
        created TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE INDEX games_updated ON games(updated);
    """,
    # A cached one-line summary (winners) for the history list, keyed by the game version.
    """
    ALTER TABLE games ADD COLUMN summary TEXT;
    ALTER TABLE games ADD COLUMN summary_version INTEGER NOT NULL DEFAULT -1;
    """,
)


class Connection(sqlite3.Connection):
    """A connection that knows its file (the replay cache is keyed by it)."""

    path: str


def connect(path: str | Path) -> Connection:
    """Open the database in autocommit mode (transactions are explicit) with WAL on."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=10, check_same_thread=False,
                           factory=Connection)
    conn.path = str(path)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    # In WAL mode NORMAL keeps every committed action through a crash or restart of the app
    # (only a power cut can lose the last commits) and spares an fsync per tap.
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


class _Pool:
    """Idle connections per database file, reused across requests: opening and closing a
    WAL database costs more than a tap (closing the last connection checkpoints)."""

    def __init__(self, keep: int = 8) -> None:
        self.keep = keep
        self.idle: dict[str, list[Connection]] = {}
        self.lock = threading.Lock()

    def take(self, path: str) -> Connection:
        with self.lock:
            idle = self.idle.get(path)
            if idle:
                return idle.pop()
        return connect(path)

    def give(self, conn: Connection) -> None:
        if conn.in_transaction:
            conn.rollback()
        with self.lock:
            idle = self.idle.setdefault(conn.path, [])
            if len(idle) < self.keep:
                idle.append(conn)
                return
        conn.close()


_pool = _Pool()


def schema_version(conn: sqlite3.Connection) -> int:
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    return 0 if row is None else int(row[0])


def migrate(conn: sqlite3.Connection) -> int:
    """Apply the migration steps the database lacks, each in its own transaction."""
    current = schema_version(conn)
    for number, step in enumerate(MIGRATIONS[current:], start=current + 1):
        with transaction(conn):
            if callable(step):
                step(conn)
            else:
                for statement in filter(str.strip, step.split(";")):
                    conn.execute(statement)
            conn.execute("DELETE FROM schema_version")
            conn.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
    return len(MIGRATIONS)


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction: committed when the block ends, rolled back if it raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def get_db() -> Connection:
    """The request's connection, taken from the pool on first use."""
    if "db" not in g:
        g.db = _pool.take(str(current_app.config["DATABASE"]))
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    conn = g.pop("db", None)
    if conn is not None:
        _pool.give(conn)


def init_app(app: Flask) -> None:
    Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)
    conn = connect(app.config["DATABASE"])
    try:
        migrate(conn)
    finally:
        conn.close()
    app.teardown_appcontext(close_db)
