"""The scan store: a photo review as the database holds it (``scans``, its images in
``scan_files``), read and written under the game's lock, pruned to the quotas.

Several phones may tap one review at once, answered by several threads, processes or servers
sharing the database: every read-modify-write of a scan holds the game's lock (``locked``, the
row lock of the store's changes), so no tap's correction is written over by another's, and
Apply sees every correction answered before it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import abort, current_app
from sqlalchemy import Connection, and_, delete, func, insert, or_, select, update

from scorer.web.db import get_db, scan_files, scans, transaction

MAX_PHOTO_BYTES = 25 * 1024 * 1024
KEEP_SCANS = 3  # finished scans kept per game: older ones are deleted
# Disk: a game's scans (photos being read or reviewed) hold at most SCAN_GAME_QUOTA bytes, all
# games' at most SCAN_DISK_QUOTA; a scan left unfinished SCAN_STALE seconds (its request died)
# or finished SCAN_KEEP seconds ago is deleted by the next upload of any game.
QUOTAS = {"SCAN_GAME_QUOTA": 4 * MAX_PHOTO_BYTES, "SCAN_DISK_QUOTA": 2 * 1024**3,
           "SCAN_STALE": 3600, "SCAN_KEEP": 2 * 24 * 3600}


class ScanClosed(Exception):
    """The scan went while a request waited for it: applied, or pruned."""


@dataclass(frozen=True)
class Scan:
    """One photo review as stored: ``result`` holds the detection and the corrections."""

    id: str
    state: str  # reading (detection not done), ready, failed
    result: dict[str, Any]
    scale: float  # pixels of the uploaded photo per pixel of the photo kept
    shown_factor: float | None  # uploaded px per px of the corners page's photo, once made


def load_scan(db: Connection, game_id: str, scan_id: str, change: bool = False) -> Scan:
    """The scan, or 404. ``change``: a correction or an Apply, which on a scan that was there
    (its id well formed) but is gone says the scan was closed."""
    if not scan_id.replace("-", "").replace("_", "").isalnum() or len(scan_id) > 40:
        abort(404)
    row = db.execute(select(scans).where(scans.c.game_id == game_id,
                                         scans.c.id == scan_id)).first()
    if row is None:
        if change:
            raise ScanClosed
        abort(404)
    return Scan(row.id, row.state, json.loads(row.result), row.scale, row.shown_factor)


@contextmanager
def locked(game_id: str, scan_id: str) -> Iterator[Scan]:
    """The scan, read under the game's lock (the row lock every change to the game takes, on
    any server) for a read-modify-write of it. Raises ScanClosed when the scan was applied or
    pruned before the lock came free."""
    db = get_db()
    with transaction(db, game_id):
        yield load_scan(db, game_id, scan_id, change=True)


def save(game_id: str, scan_id: str, result: dict[str, Any], **columns: Any) -> None:
    """Write the scan's result (and other columns), inside ``locked``."""
    changed = get_db().execute(
        update(scans).where(scans.c.game_id == game_id, scans.c.id == scan_id)
        .values(result=json.dumps(result), updated=time.time(), **columns))
    if changed.rowcount != 1:  # deleted by an upload of another game making room
        raise ScanClosed


def put_files(game_id: str, scan_id: str, files: dict[str, bytes]) -> None:
    """Store (or replace) the scan's images, inside ``locked``."""
    if not files:
        return
    db = get_db()
    db.execute(delete(scan_files).where(scan_files.c.game_id == game_id,
                                        scan_files.c.scan_id == scan_id,
                                        scan_files.c.name.in_(list(files))))
    db.execute(insert(scan_files), [{"game_id": game_id, "scan_id": scan_id, "name": name,
                                     "data": data} for name, data in files.items()])


def stored_file(game_id: str, scan_id: str, name: str) -> bytes | None:
    return get_db().scalar(select(scan_files.c.data).where(
        scan_files.c.game_id == game_id, scan_files.c.scan_id == scan_id,
        scan_files.c.name == name))


def prune(db: Connection, game_id: str, keep: int = KEEP_SCANS, spare: str = "") -> None:
    """Keep the newest ``keep`` finished scans of a game, and the scan ``spare`` (a review a
    photo is being added to); scans still being read are left alone (another phone's upload
    may be waiting for a detection slot) unless stale."""
    stale = time.time() - current_app.config["SCAN_STALE"]
    rows = db.execute(select(scans.c.id, scans.c.state, scans.c.updated)
                      .where(scans.c.game_id == game_id)
                      .order_by(scans.c.updated.desc(), scans.c.created.desc())).all()
    finished = [row.id for row in rows if row.state != "reading" and row.id != spare]
    dead = [row.id for row in rows if row.state == "reading" and row.updated < stale]
    if finished[keep:] or dead:
        db.execute(delete(scans).where(scans.c.game_id == game_id,
                                       scans.c.id.in_(finished[keep:] + dead)))


def _size(db: Connection, game_id: str | None = None) -> int:
    """Bytes of the scans' images: a game's, or every game's."""
    query = select(func.coalesce(func.sum(func.length(scan_files.c.data)), 0))
    if game_id is not None:
        query = query.where(scan_files.c.game_id == game_id)
    return int(db.scalar(query))


def make_room(db: Connection, game_id: str, incoming: int, spare: str = "") -> bool:
    """Prune so that ``incoming`` more bytes fit both quotas, never the scan ``spare`` (the
    review a photo is added to); False when they still do not (the upload is then refused,
    nothing kept). Runs under the game's lock."""
    config = current_app.config
    prune(db, game_id, spare=spare)
    if _size(db, game_id) + incoming > config["SCAN_GAME_QUOTA"]:
        prune(db, game_id, keep=0, spare=spare)
        if _size(db, game_id) + incoming > config["SCAN_GAME_QUOTA"]:
            return False
    _sweep(db)
    if _size(db) + incoming <= config["SCAN_DISK_QUOTA"]:
        return True
    for other in db.scalars(select(scans.c.game_id).distinct()).all():
        prune(db, other, keep=1)  # still full: each game keeps its newest review only
    return _size(db) + incoming <= config["SCAN_DISK_QUOTA"]


_swept = [0.0]  # when this process last swept every game's scans


def _sweep(db: Connection, every: float = 60.0) -> None:
    """Delete, in every game, the scans finished SCAN_KEEP ago (reviews nobody went back to)
    and those left unfinished SCAN_STALE ago: at most once a minute."""
    if time.monotonic() - _swept[0] < every:
        return
    _swept[0] = time.monotonic()
    now = time.time()
    db.execute(delete(scans).where(or_(
        and_(scans.c.state != "reading", scans.c.updated < now - current_app.config["SCAN_KEEP"]),
        and_(scans.c.state == "reading",
             scans.c.updated < now - current_app.config["SCAN_STALE"]))))
    crowded = (select(scans.c.game_id).where(scans.c.state != "reading")
               .group_by(scans.c.game_id).having(func.count() > KEEP_SCANS))
    for game_id in db.scalars(crowded).all():
        prune(db, game_id)


# --- detection ------------------------------------------------------------------------------
