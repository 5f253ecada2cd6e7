"""Backups of the SQLite database while the server runs, and their restore: ``scorer backup``
(``make backup``) and ``scorer restore`` (``make restore``). PostgreSQL has its own tools,
pg_dump and pg_restore (docs/hosting.md).

A backup goes through SQLite's online backup API, in one step: one read transaction copies
every page, so the copy is the database as one commit left it, and in WAL mode the taps go on
meanwhile (a reader holds no writer off). The copy is made under a temporary name beside its
final one, checked, made a single file (journal mode DELETE, no ``-wal`` beside it), then
renamed: a backup file is never half written. It holds every table's names, so it is readable
by its owner only.

A restore copies a backup into the database through the same API, which takes the database's
write lock for the copy. Copying the file over the database by hand is how data gets lost: a
``-wal`` file left beside it would be read as part of the restored file. The database it
replaces is first backed up itself. Stop the server first: it keeps games it has read in
memory.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from scorer.web import configured_app
from scorer.web.db import database_target, is_postgres

FOLDER = "backups"  # beside the database: instance/backups/ for the default one


class BackupError(Exception):
    """A backup or restore that cannot be made, with what to do about it."""


def _open(path: Path) -> sqlite3.Connection:
    """An existing SQLite file (never a new empty one made by the attempt)."""
    if not path.is_file():
        raise BackupError(f"No database at {path}.")
    return sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=30)


def _games(conn: sqlite3.Connection, path: Path) -> int:
    """The number of games in a Terminus database, after checking it is one and is whole."""
    try:
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a database: {exc}.") from exc
    if check != "ok":
        raise BackupError(f"{path} is damaged: {check}.")
    if not {"games", "actions", "schema_version"} <= names:
        raise BackupError(f"{path} is not a Terminus database (no games table).")
    return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])


def backup(database: Path, target: Path) -> int:
    """Copy ``database`` (in use or not) to the new file ``target``; the number of games."""
    if target.exists():
        raise BackupError(f"{target} exists already: a backup never overwrites a file.")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)  # left by a backup that was killed
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        source = _open(database)
        try:
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy)  # pages=-1: every page in one step, one snapshot
                copy.execute("PRAGMA journal_mode=DELETE")
                games = _games(copy, database)
            finally:
                copy.close()
        finally:
            source.close()
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return games


def restore(backup_file: Path, database: Path) -> tuple[int, Path | None]:
    """Copy the backup into ``database`` (made if missing, else backed up first): the number
    of games restored and where the replaced database was kept."""
    source = _open(backup_file)
    try:
        games = _games(source, backup_file)
        kept = None
        if database.exists():
            kept = new_target(database, "before-restore")
            backup(database, kept)
        database.parent.mkdir(parents=True, exist_ok=True)
        target = sqlite3.connect(database, timeout=30)
        try:
            source.backup(target)
            target.execute("PRAGMA journal_mode=WAL")  # as the app keeps it
        finally:
            target.close()
    finally:
        source.close()
    return games, kept


def new_target(database: Path, note: str = "", folder: Path | None = None) -> Path:
    """A backup's default name: ``<UTC time>.sqlite3`` in ``folder``, by default ``backups/``
    beside the database."""
    stamp = datetime.now(UTC).strftime("%Y-%m-%d-%H%M%S")
    stem = f"{stamp}-{note}" if note else stamp
    folder = folder or database.parent / FOLDER
    target, n = folder / f"{stem}.sqlite3", 1
    while target.exists():  # two in one second
        n += 1
        target = folder / f"{stem}-{n}.sqlite3"
    return target


def configured_database() -> Path:
    """The SQLite file the app's settings name (instance folder, TERMINUS_* variables)."""
    target = database_target(configured_app())
    if is_postgres(target):
        raise BackupError("The database is PostgreSQL (DATABASE_URL): back it up with pg_dump "
                          "and restore it with pg_restore, as docs/hosting.md says.")
    return Path(target)


def run(args: argparse.Namespace) -> dict[str, object]:
    """``scorer backup [TARGET]`` and ``scorer restore BACKUP``: what was done, as JSON."""
    database = configured_database()
    if args.command == "backup":
        target = Path(args.target) if args.target else new_target(database)
        if target.is_dir():
            target = new_target(database, folder=target)
        games = backup(database, target)
        return {"backup": str(target), "games": games, "bytes": target.stat().st_size}
    games, kept = restore(Path(args.backup), database)
    return {"restored": str(database), "games": games,
            "previous": str(kept) if kept else None}


def main(args: argparse.Namespace) -> int:
    """The commands' entry point: the JSON answer, or ``{"error": ...}`` and status 2."""
    try:
        answer, status = run(args), 0
    except (BackupError, ValueError, sqlite3.Error, OSError) as exc:
        answer, status = {"error": str(exc)}, 2
    print(json.dumps(answer, ensure_ascii=False))
    return status
