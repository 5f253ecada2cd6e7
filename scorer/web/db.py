"""Storage on SQLAlchemy Core: a SQLite file (the default), PostgreSQL when ``DATABASE_URL`` says
so. The schema is defined once, below, as ``Table`` objects; both engines are made and upgraded
from it.

A game is stored as its setup plus an action log; ``games.cursor`` counts the actions in force
(undo moves it back, redo forward, a new action cuts the log at the cursor). Every change runs
in one write transaction, so two phones tapping at once are serialised and a refused action
leaves nothing behind: on SQLite ``BEGIN IMMEDIATE`` takes the database's write lock; on
PostgreSQL, where several app processes share one database, a change to a game first locks its
row (``SELECT ... FOR UPDATE``), so the second writer waits and then sees the first one's work.
The photo reviews of a game (``scans``, their images in ``scan_files``) change under that same
lock, so servers sharing one database share the reviews too, and so does the record of the taps
already applied (``taps``), which keeps a tap sent twice from counting twice.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask, current_app, g
from sqlalchemy import (
    DDL,
    BigInteger,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Identity,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.schema import CreateColumn

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", Text, primary_key=True),
    # Lists order games of the same second by insertion: SQLite's implicit rowid gives that
    # order, PostgreSQL an identity column of that name (not created on SQLite, see below).
    Column("rowid", BigInteger, Identity(always=True)),
    Column("share", Text, nullable=False, unique=True),
    Column("name", Text, nullable=False),
    Column("variant", Text, nullable=False),
    Column("setup", Text, nullable=False),
    Column("cursor", Integer, nullable=False, server_default=text("0")),
    Column("version", Integer, nullable=False, server_default=text("0")),
    Column("created", Text, nullable=False),
    Column("updated", Text, nullable=False),
    # A cached one-line summary (winners) for the history list, keyed by the game version.
    Column("summary", Text),
    Column("summary_version", Integer, nullable=False, server_default=text("-1")),
    # Games from before devices were told apart stay listed as they were (OLD_GAMES).
    Column("before_devices", Integer, nullable=False, server_default=text("0")),
    Index("games_updated", "updated"),
)

actions = Table(
    "actions", metadata,
    Column("game_id", Text, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("action", Text, nullable=False),
    Column("created", Text, nullable=False),
)

# The devices that made or opened each game (its edit or read-only link): a device's history
# lists those only.
device_games = Table(
    "device_games", metadata,
    Column("device", Text, primary_key=True),
    Column("game_id", Text, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("role", Text, nullable=False),
    Index("device_games_game", "game_id"),
)

# A photo being reviewed: ``state`` is reading (detection not done), ready or failed; ``result``
# the detection and the players' corrections as JSON. Times are Unix seconds.
scans = Table(
    "scans", metadata,
    Column("game_id", Text, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("id", Text, primary_key=True),
    Column("state", Text, nullable=False),
    Column("result", Text, nullable=False),
    Column("scale", Float, nullable=False, server_default=text("1")),  # uploaded px per kept px
    Column("shown_factor", Float),  # uploaded px per px of the corners page's photo
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Index("scans_updated", "updated"),
)

# The images a review shows: the photo kept for it, the rectified board, the corners page's photo.
scan_files = Table(
    "scan_files", metadata,
    Column("game_id", Text, primary_key=True),
    Column("scan_id", Text, primary_key=True),
    Column("name", Text, primary_key=True),
    Column("data", LargeBinary, nullable=False),
    ForeignKeyConstraint(["game_id", "scan_id"], ["scans.game_id", "scans.id"],
                         ondelete="CASCADE"),
)

# The taps of each game whose change is recorded, by the id the phone gave the tap
# (static/app.js): a tap sent again because its answer was lost on the way is answered with what
# it said the first time (``message``) instead of being applied twice. Written in the
# transaction of the change itself; ``version`` is the game version that change made, by which
# the oldest are let go.
taps = Table(
    "taps", metadata,
    Column("game_id", Text, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("id", Text, primary_key=True),
    Column("version", Integer, nullable=False),
    Column("message", Text, nullable=False),
    Index("taps_version", "game_id", "version"),
)

schema_version = Table("schema_version", metadata, Column("version", Integer, nullable=False))


@compiles(CreateColumn, "sqlite")
def _no_rowid_column_on_sqlite(element: CreateColumn, compiler: Any, **kw: Any) -> str | None:
    # A column named rowid would hide SQLite's own, which already orders the games.
    if element.element.name == "rowid":
        return None
    return compiler.visit_create_column(element, **kw)


def _add_columns(conn: Connection, table: Table, *names: str) -> None:
    for name in names:
        spec = CreateColumn(table.c[name]).compile(dialect=conn.dialect)
        conn.execute(DDL(f"ALTER TABLE {table.name} ADD COLUMN {spec}"))


def _summaries(conn: Connection) -> None:
    _add_columns(conn, games, "summary", "summary_version")


def _devices(conn: Connection) -> None:
    device_games.create(conn)
    _add_columns(conn, games, "before_devices")
    conn.execute(update(games).values(before_devices=1))


def _scans(conn: Connection) -> None:
    scans.create(conn)
    scan_files.create(conn)


def _taps(conn: Connection) -> None:
    taps.create(conn)


# What takes a database from version i + 1 to i + 2 (version 1 was games and actions alone):
# append, never edit. A new database is made from ``metadata`` at the last version at once.
UPGRADES: tuple[Callable[[Connection], None], ...] = (_summaries, _devices, _scans, _taps)
SCHEMA_VERSION = len(UPGRADES) + 1

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
# Any fixed number: the key of the advisory lock that lets one starting process migrate at once.
_MIGRATION_LOCK = 7_460_310
# Idle connections kept per database: opening one costs more than a tap (closing the last one
# to a WAL file checkpoints it; PostgreSQL starts a backend process). More may be open at once.
_POOL_KEEP = 16
# Databases whose engines (and idle connections) are kept: the oldest used is let go.
_ENGINES_KEPT = 8
# SQLite lets one writer in at a time: threads of this process queue on this lock rather than
# on SQLite's busy timeout, whose sleep-and-retry made the slowest taps far slower.
_sqlite_writer = threading.Lock()
_WRITE = "terminus.write"  # set in a connection's info: its next transaction writes
_WRITING = "terminus.writing"  # set while a connection is inside ``transaction``
_READS, _WRITES = "AUTOCOMMIT", "READ COMMITTED"  # PostgreSQL's isolation outside and inside


def is_postgres(target: str | Path) -> bool:
    return str(target).startswith(POSTGRES_SCHEMES)


def _sqlite_connected(dbapi_connection: Any, _record: Any) -> None:
    # pysqlite's own BEGIN comes late (at the first write) and ends on DDL: SQLAlchemy's
    # documented way out is to turn it off and say BEGIN ourselves (``_sqlite_begin``).
    # Reads outside ``transaction`` then run each in its own, as in autocommit mode.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # In WAL mode NORMAL keeps every committed action through a crash or restart of the app
    # (only a power cut can lose the last commits) and spares an fsync per tap.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_begin(conn: Connection) -> None:
    # A write takes the write lock at once: a deferred BEGIN that reads first and writes later
    # could find another writer's commit in between and fail instead of waiting.
    if conn.info.pop(_WRITE, False):
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def _new_engine(target: str) -> Engine:
    if is_postgres(target):
        url = "postgresql+psycopg://" + target.split("://", 1)[1]
        # Reads outside ``transaction`` in autocommit: no BEGIN and ROLLBACK round trips.
        return create_engine(url, pool_size=_POOL_KEEP, max_overflow=-1,
                             isolation_level=_READS)
    engine = create_engine(f"sqlite:///{target}", pool_size=_POOL_KEEP, max_overflow=-1,
                           connect_args={"timeout": 10, "check_same_thread": False})
    event.listen(engine, "connect", _sqlite_connected)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


_engines: OrderedDict[str, Engine] = OrderedDict()
_engines_lock = threading.Lock()


def engine(target: str | Path) -> Engine:
    """The engine (with its pool) of a SQLite file or a ``postgresql://`` URL, made once."""
    key = str(target)
    with _engines_lock:
        found = _engines.get(key)
        if found is None:
            found = _engines[key] = _new_engine(key)
        _engines.move_to_end(key)
        surplus = list(_engines)[:-_ENGINES_KEPT]
        old = [_engines.pop(name) for name in surplus]
    for unused in old:  # its connections in use stay valid; the idle ones are closed
        unused.dispose(close=True)
    return found


def connect(target: str | Path) -> Connection:
    """A connection to a SQLite file or a ``postgresql://`` URL, from its engine's pool."""
    return engine(target).connect()


def schema_version_of(conn: Connection) -> int:
    """The schema version of the database (0: a new one)."""
    schema_version.create(conn, checkfirst=True)
    row = conn.execute(select(schema_version.c.version)).first()
    return 0 if row is None else int(row.version)


def migrate(conn: Connection) -> int:
    """Bring the database to SCHEMA_VERSION, one step per transaction. Processes starting
    together take turns: each step is applied once."""
    while True:
        with transaction(conn):
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
            current = schema_version_of(conn)
            if current >= SCHEMA_VERSION:
                return SCHEMA_VERSION
            if current == 0:
                metadata.create_all(conn)
                reached = SCHEMA_VERSION
            else:
                UPGRADES[current - 1](conn)
                reached = current + 1
            conn.execute(delete(schema_version))
            conn.execute(insert(schema_version).values(version=reached))


_LOCK_GAME = select(games.c.id).where(games.c.id == bindparam("game_id")).with_for_update()


@contextmanager
def transaction(conn: Connection, game_id: str | None = None) -> Iterator[Connection]:
    """One write transaction: committed when the block ends, rolled back if it raises.

    ``game_id`` names the game the block reads then changes: on PostgreSQL its row is locked
    first, so a concurrent change to the same game (from any process) waits for this one.
    SQLite needs no row lock: ``BEGIN IMMEDIATE`` already holds off every other writer.
    Inside another such block (a photo's Apply records its action), the block is part of it.
    """
    if conn.info.get(_WRITING):
        if game_id is not None and conn.dialect.name == "postgresql":
            conn.execute(_LOCK_GAME, {"game_id": game_id})
        yield conn
        return
    if conn.in_transaction():
        conn.commit()  # the reads before, in autocommit: only SQLAlchemy's own bookkeeping
    if conn.dialect.name == "postgresql":
        conn.execution_options(isolation_level=_WRITES)
        try:
            with conn.begin(), _writing(conn):
                if game_id is not None:
                    conn.execute(_LOCK_GAME, {"game_id": game_id})
                yield conn
        finally:
            conn.execution_options(isolation_level=_READS)
        return
    with _sqlite_writer:
        conn.info[_WRITE] = True
        with conn.begin(), _writing(conn):
            yield conn


@contextmanager
def _writing(conn: Connection) -> Iterator[None]:
    conn.info[_WRITING] = True
    try:
        yield
    finally:
        del conn.info[_WRITING]


def get_db() -> Connection:
    """The request's connection, taken from the pool on first use."""
    if "db" not in g:
        g.db = connect(current_app.extensions["terminus.database"])
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    conn = g.pop("db", None)
    if conn is not None:
        conn.close()  # back to the pool, its transaction rolled back


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
    with connect(target) as conn:
        migrate(conn)
    app.teardown_appcontext(close_db)
