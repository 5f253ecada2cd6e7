"""Which database the tests run the app on: SQLite files by default, PostgreSQL when asked.

``TERMINUS_TEST_DATABASE_URL`` names a PostgreSQL server the tests may create schemas in
(``postgresql://user@host:port/db``); ``TERMINUS_TEST_BACKEND=postgresql`` then runs every app
the tests build on it (``make test`` does a second pass so). Each app gets a schema of its own,
selected by the connection's ``search_path``, so tests and xdist workers never see each other's
games; the schemas a process made are dropped when it exits.

Tests that need PostgreSQL skip, saying why, when no server is named; a server that is named but
unreachable fails them (CI always names one).
"""

from __future__ import annotations

import atexit
import os
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

SERVER_URL = os.environ.get("TERMINUS_TEST_DATABASE_URL", "")
BACKEND = os.environ.get("TERMINUS_TEST_BACKEND", "sqlite")
_made: list[str] = []


def on_postgres() -> bool:
    """True when this test run puts the apps on PostgreSQL."""
    if BACKEND not in ("sqlite", "postgresql"):
        raise RuntimeError(f"TERMINUS_TEST_BACKEND is sqlite or postgresql, not {BACKEND!r}")
    if BACKEND == "postgresql" and not SERVER_URL:
        raise RuntimeError("TERMINUS_TEST_BACKEND=postgresql needs TERMINUS_TEST_DATABASE_URL")
    return BACKEND == "postgresql"


def fresh_schema(server: str | None = None) -> str:
    """A new empty schema on the server (by default the test server: the test skips when none
    is named, fails when it can't be reached); returns the URL whose connections work in it."""
    import psycopg

    server = server or SERVER_URL
    if not server:
        pytest.skip("no PostgreSQL server: set TERMINUS_TEST_DATABASE_URL (make test does in CI)")
    assert "options=" not in server, "the test server URL may not set options itself"
    name = f"t_{secrets.token_hex(8)}"
    try:
        with psycopg.connect(server, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
    except psycopg.OperationalError as exc:
        pytest.fail(f"TERMINUS_TEST_DATABASE_URL is set but the server is unreachable: {exc}")
    if not _made:
        atexit.register(_drop_schemas, server)
    _made.append(name)
    return f"{server}{'&' if '?' in server else '?'}options={quote(f'-csearch_path={name}')}"


def _drop_schemas(server: str) -> None:
    import psycopg

    try:
        with psycopg.connect(server, autocommit=True, connect_timeout=5) as conn:
            for name in _made:
                conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
    except psycopg.Error:  # the server went first (CI stops it): nothing is left to drop
        pass


def database(folder: Path, name: str = "terminus.sqlite3") -> str:
    """Where a test app keeps its games: a SQLite file in ``folder``, or a fresh schema."""
    return fresh_schema(SERVER_URL) if on_postgres() else str(Path(folder) / name)


def app_config(folder: Path, name: str = "terminus.sqlite3") -> dict[str, str]:
    """The ``create_app`` settings that put an app on ``database(folder, name)``."""
    target = database(folder, name)
    if target.startswith("postgresql://"):
        return {"DATABASE": str(Path(folder) / name), "DATABASE_URL": target}
    return {"DATABASE": target, "DATABASE_URL": ""}


def stored_scans(app: Any, game_id: str) -> dict[str, dict[str, Any]]:
    """The photo reviews an app keeps for a game, read from its database: scan id -> its row
    (state, result JSON, …) with ``files``, its images by name."""
    from sqlalchemy import select

    from scorer.web.db import get_db, scan_files, scans

    with app.app_context():
        db = get_db()
        found = {row.id: dict(row._mapping, files={}) for row in db.execute(
            select(scans).where(scans.c.game_id == game_id))}
        for row in db.execute(select(scan_files).where(scan_files.c.game_id == game_id)):
            found[row.scan_id]["files"][row.name] = row.data
    return found


def change_scans(app: Any, statement: Any) -> None:
    """Run one change (an SQLAlchemy statement) on the app's database, committed."""
    from scorer.web.db import get_db, transaction

    with app.app_context():
        db = get_db()
        with transaction(db):
            db.execute(statement)
