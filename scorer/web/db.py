"""Storage: SQLite for one table (the default), PostgreSQL when ``DATABASE_URL`` says so.

A game is stored as its setup plus an action log; ``games.cursor`` counts the actions in force
(undo moves it back, redo forward, a new action cuts the log at the cursor). Every change runs
in one write transaction, so two phones tapping at once are serialised and a refused action
leaves nothing behind: on SQLite ``BEGIN IMMEDIATE`` takes the database's write lock; on
PostgreSQL, where several app processes share one database, a change to a game first locks its
row (``SELECT ... FOR UPDATE``), so the second writer waits and then sees the first one's work.

Store and views use one small interface whatever the engine: ``connect``, ``execute`` and
``executemany`` with ``?`` placeholders, rows read by column name or index, ``transaction``.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from flask import Flask, current_app, g

# Ordered migration steps: step i takes the schema from version i to i + 1. Append, never edit,
# and append to both engines' lists alike.
MIGRATIONS: tuple[str | Callable[[Any], None], ...] = (
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
    # The devices that made or opened each game (its edit or read-only link): a device's history
    # lists those only. Games from before are marked, to stay listed as they were (OLD_GAMES).
    """
    CREATE TABLE device_games (
        device TEXT NOT NULL,
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        PRIMARY KEY (device, game_id)
    );
    CREATE INDEX device_games_game ON device_games(game_id);
    ALTER TABLE games ADD COLUMN before_devices INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET before_devices = 1
    """,
)

# The same schema on PostgreSQL. Lists order games of the same second by insertion, which
# SQLite's implicit ``rowid`` gives: here it is an identity column of that name.
POSTGRES_MIGRATIONS: tuple[str | Callable[[Any], None], ...] = (
    MIGRATIONS[0].replace(
        "id TEXT PRIMARY KEY,",
        "id TEXT PRIMARY KEY,\n        rowid BIGINT GENERATED ALWAYS AS IDENTITY,",
    ),
    MIGRATIONS[1],
    MIGRATIONS[2],
)

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
# Any fixed number: the key of the advisory lock that lets one starting process migrate at once.
_MIGRATION_LOCK = 7_460_310


class Connection(Protocol):
    """What the store needs of a connection, on either engine."""

    path: str  # the database file or URL: the replay cache is keyed by it
    dialect: str  # "sqlite" or "postgresql"

    def execute(self, sql: str, parameters: Sequence[Any] = ...) -> Any: ...
    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any: ...
    def close(self) -> None: ...


class SqliteConnection(sqlite3.Connection):
    """A SQLite connection that knows its file."""

    path: str
    dialect = "sqlite"


class _Row(dict):
    """A PostgreSQL row read by column name or by position, as ``sqlite3.Row`` is."""

    def __init__(self, names: Sequence[str], values: Sequence[Any]) -> None:
        super().__init__(zip(names, values, strict=True))
        self.values_ = tuple(values)

    def __getitem__(self, key: str | int) -> Any:
        return self.values_[key] if isinstance(key, int) else super().__getitem__(key)


def _row_factory(cursor: Any) -> Callable[[Sequence[Any]], _Row]:
    names = [column.name for column in cursor.description or ()]
    return lambda values: _Row(names, values)


@lru_cache(maxsize=256)
def _pg_sql(sql: str) -> str:
    # Our statements hold no literal "?" or "%": the placeholders are all there is to change.
    return sql.replace("?", "%s")


class PostgresConnection:
    """A psycopg connection in autocommit mode (transactions are explicit) speaking ``?``."""

    dialect = "postgresql"

    def __init__(self, url: str) -> None:
        import psycopg  # only a PostgreSQL deployment needs the driver loaded

        self.path = url
        self.raw = psycopg.connect(url, autocommit=True, row_factory=_row_factory)

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Any:
        return self.raw.execute(_pg_sql(sql), parameters or None)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any:
        cursor = self.raw.cursor()
        cursor.executemany(_pg_sql(sql), rows)
        return cursor

    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus

        return self.raw.info.transaction_status != TransactionStatus.IDLE

    @property
    def usable(self) -> bool:
        return not (self.raw.closed or self.raw.broken)

    def rollback(self) -> None:
        self.raw.rollback()

    def close(self) -> None:
        self.raw.close()


def is_postgres(target: str | Path) -> bool:
    return str(target).startswith(POSTGRES_SCHEMES)


def connect(target: str | Path) -> Any:
    """Open a connection to a SQLite file or a ``postgresql://`` URL."""
    if is_postgres(target):
        return PostgresConnection(str(target))
    conn = sqlite3.connect(target, isolation_level=None, timeout=10, check_same_thread=False,
                           factory=SqliteConnection)
    conn.path = str(target)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    # In WAL mode NORMAL keeps every committed action through a crash or restart of the app
    # (only a power cut can lose the last commits) and spares an fsync per tap.
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


class _Pool:
    """Idle connections reused across requests: opening a connection costs more than a tap
    (closing the last one to a WAL file checkpoints it; PostgreSQL starts a backend process).
    At most ``keep`` stay idle in all, the oldest closed first, whatever database they reach."""

    def __init__(self, keep: int = 16) -> None:
        self.keep = keep
        self.idle: list[Any] = []
        self.lock = threading.Lock()

    def take(self, target: str) -> Any:
        with self.lock:
            for index in range(len(self.idle) - 1, -1, -1):
                if self.idle[index].path == target:
                    return self.idle.pop(index)
        return connect(target)

    def give(self, conn: Any) -> None:
        if getattr(conn, "usable", True):
            try:
                if conn.in_transaction:
                    conn.rollback()
            except Exception:  # noqa: BLE001 - a connection that can't roll back is dropped
                conn.close()
                return
        else:
            conn.close()
            return
        with self.lock:
            self.idle.append(conn)
            surplus = self.idle[: max(0, len(self.idle) - self.keep)]
            del self.idle[: len(surplus)]
        for old in surplus:
            old.close()


_pool = _Pool()
# SQLite lets one writer in at a time: threads of this process queue on this lock rather than
# on SQLite's busy timeout, whose sleep-and-retry made the slowest taps far slower.
_sqlite_writer = threading.Lock()


def migrations(conn: Connection) -> tuple[str | Callable[[Any], None], ...]:
    return POSTGRES_MIGRATIONS if conn.dialect == "postgresql" else MIGRATIONS


def schema_version(conn: Connection) -> int:
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    return 0 if row is None else int(row[0])


def migrate(conn: Connection) -> int:
    """Apply the migration steps the database lacks, each in its own transaction. Processes
    starting together take turns: each step is applied once."""
    steps = migrations(conn)
    while True:
        with transaction(conn):
            if conn.dialect == "postgresql":
                conn.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
            current = schema_version(conn)
            if current >= len(steps):
                return len(steps)
            step = steps[current]
            if callable(step):
                step(conn)
            else:
                for statement in filter(str.strip, step.split(";")):
                    conn.execute(statement)
            conn.execute("DELETE FROM schema_version")
            conn.execute("INSERT INTO schema_version (version) VALUES (?)", (current + 1,))


@contextmanager
def transaction(conn: Connection, game_id: str | None = None) -> Iterator[Connection]:
    """One write transaction: committed when the block ends, rolled back if it raises.

    ``game_id`` names the game the block reads then changes: on PostgreSQL its row is locked
    first, so a concurrent change to the same game (from any process) waits for this one.
    SQLite needs no row lock: ``BEGIN IMMEDIATE`` already holds off every other writer.
    """
    if conn.dialect == "postgresql":
        with conn.raw.transaction():
            if game_id is not None:
                conn.execute("SELECT 1 FROM games WHERE id = ? FOR UPDATE", (game_id,))
            yield conn
        return
    with _sqlite_writer:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")


def get_db() -> Any:
    """The request's connection, taken from the pool on first use."""
    if "db" not in g:
        g.db = _pool.take(current_app.extensions["terminus.database"])
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    conn = g.pop("db", None)
    if conn is not None:
        _pool.give(conn)


def database_target(app: Flask) -> str:
    """``DATABASE_URL`` from the app's config or else the environment (a ``postgresql://``
    URL); without one, the SQLite file ``DATABASE``. An empty URL in the config means SQLite."""
    url = app.config["DATABASE_URL"] if "DATABASE_URL" in app.config else (
        os.environ.get("DATABASE_URL", ""))
    if not url:
        return str(app.config["DATABASE"])
    if not is_postgres(url):
        raise ValueError(f"DATABASE_URL must start with postgresql://, not {url.split(':')[0]}")
    return url


def init_app(app: Flask) -> None:
    target = database_target(app)
    if not is_postgres(target):
        Path(target).parent.mkdir(parents=True, exist_ok=True)
    app.extensions["terminus.database"] = target
    conn = connect(target)
    try:
        migrate(conn)
    finally:
        conn.close()
    app.teardown_appcontext(close_db)
