"""Scan the board: a photo in, the detected lanes to review and correct by tap, then apply.

A scan lives in the database (``scans``, its images in ``scan_files``): the photo as uploaded,
the detection, the players' corrections, and the rectified photo the review draws the lanes on.
Nothing touches the game until the players confirm; then every difference goes in as one
``SetOwners`` action, so a single Undo takes the whole photo back.

Detection is slow and memory-hungry, so at most ``SCAN_WORKERS`` run at once per process;
a further upload waits up to ``SCAN_WAIT`` seconds for a slot, then gets a "busy" answer.

Several phones may tap one review at once, answered by several threads, processes or servers
sharing the database: every read-modify-write of a scan holds the game's lock (``_locked``, the
row lock of the store's changes), so no tap's correction is written over by another's, and
Apply sees every correction answered before it.
"""

from __future__ import annotations

import io
import json
import logging
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    render_template,
    request,
    send_file,
    url_for,
)
from sqlalchemy import Connection, and_, delete, func, insert, or_, select, update
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response

from scorer.errors import ScorerError
from scorer.game import SetOwners
from scorer.messages import Message
from scorer.web import store
from scorer.web.common import back_to, flash_message, get_game, htmx_error, is_htmx, refuse
from scorer.web.db import get_db, scan_files, scans, transaction
from scorer.web.i18n import _, color_name, translate
from scorer.web.svg import board_shapes, hit_line

bp = Blueprint("scan", __name__, url_prefix="/games/<game_id>/scan")

MAX_PHOTO_BYTES = 25 * 1024 * 1024
KEEP_SCANS = 3  # finished scans kept per game: older ones are deleted
# Disk: a game's scans (photos being read or reviewed) hold at most SCAN_GAME_QUOTA bytes, all
# games' at most SCAN_DISK_QUOTA; a scan left unfinished SCAN_STALE seconds (its request died)
# or finished SCAN_KEEP seconds ago is deleted by the next upload of any game.
_QUOTAS = {"SCAN_GAME_QUOTA": 4 * MAX_PHOTO_BYTES, "SCAN_DISK_QUOTA": 2 * 1024**3,
           "SCAN_STALE": 3600, "SCAN_KEEP": 2 * 24 * 3600}
log = logging.getLogger(__name__)
RECTIFIED_WIDTH = 1200  # px of the rectified photo under the review map
CORNER_PHOTO_LONG = 1600  # px of the photo shown to place corners by hand
# Once read, a photo is kept for its review as an upright JPEG of this long side at most (the
# detector reads 2000 px): a 25 MiB upload becomes ~1 MiB. ``scans.scale`` says its scale.
KEPT_PHOTO_LONG = 2400
KEPT_PHOTO_BYTES = 2 * 1024 * 1024  # a photo up to this size is kept as it came

_slots: threading.BoundedSemaphore | None = None


def _busy_message() -> str:
    return _("The scanner is busy with other photos: try again in a moment.")


@dataclass(frozen=True)
class LaneView:
    id: str
    a: str
    b: str
    color: str  # printed colour, to tell the lanes of a double apart
    double: bool
    detected: str | None  # player name the photo says (None: empty)
    proposed: str | None  # after the players' corrections
    current: str | None  # owner in the game now
    confidence: float  # of the photo's reading; for a doubtful lane not a figure to show
    doubtful: bool  # read doubtfully and not yet checked by a player: asked to check
    seen: str | None = None  # the piece colour on the photo, even one no player has
    by_hand: bool = False  # set by a player on this review, whatever the photo said
    unsure: bool = False  # read doubtfully, checked or not: it stays in the list of checks
    length: int = 0

    @property
    def change(self) -> str | None:
        if self.proposed == self.current:
            return None
        if self.current is None:
            return "add"
        return "remove" if self.proposed is None else "change"


# --- storage ---------------------------------------------------------------------------------


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


def _scan(db: Connection, game_id: str, scan_id: str, change: bool = False) -> Scan:
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
def _locked(game_id: str, scan_id: str) -> Iterator[Scan]:
    """The scan, read under the game's lock (the row lock every change to the game takes, on
    any server) for a read-modify-write of it. Raises ScanClosed when the scan was applied or
    pruned before the lock came free."""
    db = get_db()
    with transaction(db, game_id):
        yield _scan(db, game_id, scan_id, change=True)


def _save(game_id: str, scan_id: str, result: dict[str, Any], **columns: Any) -> None:
    """Write the scan's result (and other columns), inside ``_locked``."""
    changed = get_db().execute(
        update(scans).where(scans.c.game_id == game_id, scans.c.id == scan_id)
        .values(result=json.dumps(result), updated=time.time(), **columns))
    if changed.rowcount != 1:  # deleted by an upload of another game making room
        raise ScanClosed


def _put_files(game_id: str, scan_id: str, files: dict[str, bytes]) -> None:
    """Store (or replace) the scan's images, inside ``_locked``."""
    if not files:
        return
    db = get_db()
    db.execute(delete(scan_files).where(scan_files.c.game_id == game_id,
                                        scan_files.c.scan_id == scan_id,
                                        scan_files.c.name.in_(list(files))))
    db.execute(insert(scan_files), [{"game_id": game_id, "scan_id": scan_id, "name": name,
                                     "data": data} for name, data in files.items()])


def _file(game_id: str, scan_id: str, name: str) -> bytes | None:
    return get_db().scalar(select(scan_files.c.data).where(
        scan_files.c.game_id == game_id, scan_files.c.scan_id == scan_id,
        scan_files.c.name == name))


def _prune(db: Connection, game_id: str, keep: int = KEEP_SCANS) -> None:
    """Keep the newest ``keep`` finished scans of a game; scans still being read are left
    alone (another phone's upload may be waiting for a detection slot) unless stale."""
    stale = time.time() - current_app.config["SCAN_STALE"]
    rows = db.execute(select(scans.c.id, scans.c.state, scans.c.updated)
                      .where(scans.c.game_id == game_id)
                      .order_by(scans.c.updated.desc(), scans.c.created.desc())).all()
    finished = [row.id for row in rows if row.state != "reading"]
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


def _make_room(db: Connection, game_id: str, incoming: int) -> bool:
    """Prune so that ``incoming`` more bytes fit both quotas; False when they still do not
    (the upload is then refused, nothing kept). Runs under the game's lock."""
    config = current_app.config
    _prune(db, game_id)
    if _size(db, game_id) + incoming > config["SCAN_GAME_QUOTA"]:
        _prune(db, game_id, keep=0)
        if _size(db, game_id) + incoming > config["SCAN_GAME_QUOTA"]:
            return False
    _sweep(db)
    if _size(db) + incoming <= config["SCAN_DISK_QUOTA"]:
        return True
    for other in db.scalars(select(scans.c.game_id).distinct()).all():
        _prune(db, other, keep=1)  # still full: each game keeps its newest review only
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
        _prune(db, game_id)


# --- detection ------------------------------------------------------------------------------


class ScannerBusy(Exception):
    """Every detection slot stayed taken for SCAN_WAIT seconds: nothing was read."""


@contextmanager
def _detection_slot() -> Iterator[None]:
    """Hold one of the SCAN_WORKERS slots: every decode of a photo (the detection, the
    rectified and corner views) runs inside one, so their memory adds up to SCAN_WORKERS
    decodes at most, whatever the mix of requests. Raises ScannerBusy after SCAN_WAIT s."""
    slots = _slots
    assert slots is not None
    if not slots.acquire(timeout=current_app.config["SCAN_WAIT"]):
        raise ScannerBusy
    try:
        yield
    finally:
        slots.release()


def _run_detection(stored: store.StoredGame, scan: Scan,
                   corners: list[list[float]] | None = None, data: bytes | None = None) -> None:
    """Detect the lanes on the stored photo and store the result (or why it failed).
    ``data``: the photo's bytes when the caller holds them (the upload just stored them).

    The detector runs in a thread of its own that holds the detection slot until it returns;
    the request waits for it SCAN_TIME_LIMIT seconds at most, then says so and ends the scan.
    With SCAN_ISOLATED (the default) the detector itself runs in a child process, killed at
    that limit, which gives the slot back; in the app's own process (tests that replace the
    detector) a detector that never returned would keep its slot, so the memory bound holds.
    The thread only reads and makes images: this request writes them to the database.
    """
    # OpenCV loads with the first scan, not with the app
    from scorer.vision import detect, rectified_jpeg, to_claims

    game = stored.game
    colors = [p.color for p in game.players]
    limit = float(current_app.config["SCAN_TIME_LIMIT"])
    isolated = bool(current_app.config["SCAN_ISOLATED"])
    if data is None:
        data = _file(stored.id, scan.id, "photo") or b""
    scale = scan.scale  # corners come and go in the uploaded photo's pixels
    slots = _slots
    assert slots is not None
    if not slots.acquire(timeout=current_app.config["SCAN_WAIT"]):
        raise ScannerBusy
    outcome: dict[str, Any] = {}
    files: dict[str, bytes] = {}  # images made for the review, stored with the outcome
    columns: dict[str, Any] = {}
    done = threading.Event()
    where = f"scan {scan.id} of game {stored.id}"

    def read() -> None:
        try:
            kept_corners = [[x / scale, y / scale] for x, y in corners] if corners else None
            if isolated:
                detection = _detect_in_child(data, game.board.name, colors, kept_corners, limit)
            else:
                detection = detect(data, game.board, colors, kept_corners)
            files["rectified.jpg"] = rectified_jpeg(data, detection, game.board, RECTIFIED_WIDTH)
            outcome["detection"] = detection.scaled(scale)
            _keep_reduced(files, columns, data, scale)
        except ScorerError as exc:
            outcome["error"] = exc
            if type(exc).__name__ != "ImageRejected":
                try:  # the corners page shows the photo next: reduced here, in the slot
                    files["shown.jpg"], columns["shown_factor"] = _shown_photo(data, scale)
                    _keep_reduced(files, columns, data, scale)
                except (ScorerError, OSError):
                    pass
        except TookTooLong:
            log.warning("detection of %s killed after SCAN_TIME_LIMIT", where)
            outcome["timeout"] = True
        except Exception:  # a detector's failure must not leave a scan that never finishes
            log.exception("detection failed on %s", where)
            outcome["failure"] = True
        finally:
            slots.release()
            done.set()

    threading.Thread(target=read, name="detection", daemon=True).start()
    # isolated: the child is killed at the limit; the rest (rectified view) takes a second
    if not done.wait(limit + 30 if isolated else limit) or "timeout" in outcome:
        log.warning("detection of %s still running after SCAN_TIME_LIMIT", where)
        _failed(stored.id, scan.id,
                Message("Reading this photo took too long: try another photo."), True)
        return
    if "error" in outcome:
        error = outcome["error"]
        _failed(stored.id, scan.id, error.message, type(error).__name__ == "ImageRejected",
                files, columns)
        return
    if "failure" in outcome:
        _failed(stored.id, scan.id,
                Message("The photo could not be read: try another photo."), True)
        return
    detection = outcome["detection"]
    claims = to_claims(detection, {p.color: p.name for p in game.players})
    with _locked(stored.id, scan.id):  # a new reading (corners placed by hand) starts a new review
        _save(stored.id, scan.id, {
            "detection": detection.to_json(), "confidence": detection.confidence,
            **claims.to_json(), "proposed": {}, "photo_size": list(detection.photo_size),
        }, state="ready", **columns)
        _put_files(stored.id, scan.id, files)


def _keep_reduced(files: dict[str, bytes], columns: dict[str, Any], data: bytes,
                  scale: float) -> None:
    """Keep the photo for its review as an upright JPEG of KEPT_PHOTO_LONG px at most (in a
    detection slot: it decodes). A small photo, or one reduced already, stays as it is."""
    from scorer.vision import upright_jpeg  # OpenCV loads with the first scan, not with the app

    if len(data) <= KEPT_PHOTO_BYTES or scale != 1.0:
        return
    jpeg, scale = upright_jpeg(data, KEPT_PHOTO_LONG, 92, exact=True)
    files["photo"] = jpeg
    columns["scale"] = 1 / scale


class TookTooLong(Exception):
    """The detector's child process ran past SCAN_TIME_LIMIT and was killed."""


_children: list[Any] = []  # the forkserver context, made on the first isolated detection


def _detect_in_child(data: bytes, board: str, colors: list[str],
                     corners: list[list[float]] | None, limit: float) -> Any:
    """``scorer.vision.detect`` in a child process (forked from a server process that has the
    detector imported), killed after ``limit`` seconds: TookTooLong. Raises the detector's
    ImageRejected or BoardNotFound as it would; RuntimeError when the child died."""
    import multiprocessing

    # scorer.vision loads OpenCV: with the first scan, not with the app
    from scorer.vision.errors import BoardNotFound, ImageRejected

    if not _children:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["scorer.web.scan", "scorer.vision"])
        _children.append(context)
    context = _children[0]
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_detect_child, args=(send, data, board, colors, corners),
                            name="detection", daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(limit):
            raise TookTooLong
        kind, value = receive.recv()
    except EOFError:  # it died without answering (killed, out of memory)
        kind, value = "failure", "the detector stopped"
    finally:
        if child.is_alive():
            child.kill()
        child.join(5)
        receive.close()
    if kind == "ok":
        return value
    if kind == "rejected":
        raise ImageRejected(Message.from_json(value))
    if kind == "not-found":
        raise BoardNotFound(Message.from_json(value))
    raise RuntimeError(f"{value} (exit code {child.exitcode})")


def _detect_child(send: Any, data: bytes, board: str, colors: list[str],
                  corners: list[list[float]] | None) -> None:
    """In the child process: detect and send back the detection, or why there is none."""
    from scorer.boards import load_board
    from scorer.vision import detect  # preloaded by the forkserver; OpenCV is not the app's
    from scorer.vision.errors import ImageRejected

    try:
        answer: tuple[str, Any] = ("ok", detect(data, load_board(board), colors, corners))
    except ImageRejected as exc:
        answer = ("rejected", exc.message.to_json())
    except ScorerError as exc:
        answer = ("not-found", exc.message.to_json())
    except BaseException as exc:  # whatever it is, the parent says so
        answer = ("failure", repr(exc))
    send.send(answer)
    send.close()


def _failed(game_id: str, scan_id: str, message: Message, rejected: bool,
            files: dict[str, bytes] | None = None, columns: dict[str, Any] | None = None) -> None:
    """Store why the reading failed (the message, translated when shown): the scan is finished
    (and pruned like any other)."""
    with _locked(game_id, scan_id) as scan:
        _save(game_id, scan_id,
              {**scan.result, "error": message.to_json(), "rejected": rejected},
              state="failed", **(columns or {}))
        _put_files(game_id, scan_id, files or {})


def _lane_views(stored: store.StoredGame, result: dict[str, Any]) -> list[LaneView]:
    from scorer.vision.config import DEFAULT as VISION  # the detector's doubt, not OpenCV's
    game = stored.game
    proposed = result.get("proposed", {})
    players = {p.name for p in game.players}
    views = []
    for route in game.board.routes.values():
        read = result["lanes"].get(route.id, {"owner": None, "confidence": 0.0, "color": None})
        detected = read["owner"]
        choice = proposed.get(route.id, detected)
        if choice is not None and choice not in players:
            choice = None
        seen = read.get("color")
        stray = seen is not None and detected is None  # a colour not in the game
        unsure = read["confidence"] < VISION.doubt_below or stray
        views.append(LaneView(
            id=route.id, a=route.a, b=route.b, color=route.color,
            double=bool(game.board.siblings(route)), detected=detected, proposed=choice,
            current=game.owner(route.id), confidence=float(read["confidence"]),
            doubtful=route.id not in proposed and unsure, seen=seen,
            by_hand=route.id in proposed, unsure=unsure, length=route.length,
        ))
    return views


def _changes(lanes: list[LaneView]) -> tuple[tuple[str, str | None], ...]:
    """What Apply sets: every lane whose owner on the review differs from the game's, doubtful
    or not (the review shows each lane with the owner Apply gives it)."""
    return tuple((lane.id, lane.proposed) for lane in lanes if lane.change)


def _stations_shown(stored: store.StoredGame, result: dict[str, Any]) -> dict[str, str]:
    """City -> owner of every station the review shows: read on the photo, then corrected
    (``proposed_stations``, None: no station; scans older than it have none)."""
    names = {p.name for p in stored.game.players}
    shown = {city: owner for city, owner in result.get("stations", {}).items() if owner in names}
    for city, owner in result.get("proposed_stations", {}).items():
        if owner in names:
            shown[city] = owner
        else:
            shown.pop(city, None)
    return shown


def _station_changes(stored: store.StoredGame, result: dict[str, Any]) -> list[tuple]:
    """(city, owner shown, current owner) for each city where they differ (Europe)."""
    game = stored.game
    if not game.variant.stations:
        return []
    found = _stations_shown(stored, result)
    cities = set(found) | {s.city for s in game.stations}
    return sorted((c, found.get(c), game.station_at(c)) for c in cities
                  if found.get(c) != game.station_at(c))


# --- views ----------------------------------------------------------------------------------


@bp.get("")
def scan_page(game_id: str) -> str:
    stored = get_game(game_id)
    return render_template("pages/scan.html", stored=stored, game=stored.game,
                           max_mb=MAX_PHOTO_BYTES // (1024 * 1024))


@bp.post("")
def upload(game_id: str) -> Response | tuple[str, int]:
    stored = get_game(game_id)
    try:
        photo = request.files.get("photo")
    except RequestEntityTooLarge:
        return _upload_error(stored, _("The photo is larger than {mb} MB: send a smaller one.",
                                       mb=MAX_PHOTO_BYTES // (1024 * 1024)), 413)
    if photo is None or not photo.filename:
        return _upload_error(stored, _("Choose a photo of the board first."), 400)
    data = photo.stream.read(MAX_PHOTO_BYTES + 1)
    if len(data) > MAX_PHOTO_BYTES:
        return _upload_error(stored, _("The photo is larger than {mb} MB: send a smaller one.",
                                       mb=MAX_PHOTO_BYTES // (1024 * 1024)), 413)
    if not data:
        return _upload_error(stored, _("The file is empty: take the photo again."), 400)
    from scorer.vision.decode import NOT_A_PHOTO, photo_format  # OpenCV: not with the app

    if not photo_format(data[:16]):  # refused from its first bytes: nothing decoded or kept
        return _upload_error(stored, refuse(NOT_A_PHOTO), 415)
    scan_id = secrets.token_urlsafe(9)
    db = get_db()
    with transaction(db, game_id):
        room = _make_room(db, game_id, len(data))
        if room:
            now = time.time()
            db.execute(insert(scans).values(
                game_id=game_id, id=scan_id, state="reading", created=now, updated=now,
                result=json.dumps({"lanes": {}, "stations": {}, "proposed": {}})))
            _put_files(game_id, scan_id, {"photo": data})
    if not room:
        return _upload_error(stored, _("No room for more photos on the server right now: "
                                       "apply or leave the photos being reviewed, then try "
                                       "again."), 507)
    try:
        _run_detection(stored, _scan(db, game_id, scan_id, change=True), data=data)
    except ScannerBusy:
        with transaction(db, game_id):
            db.execute(delete(scans).where(scans.c.game_id == game_id, scans.c.id == scan_id))
        return _upload_error(stored, _busy_message(), 503)
    with transaction(db, game_id):
        _prune(db, game_id)
    target = url_for("scan.review", game_id=game_id, scan_id=scan_id)
    if is_htmx():
        response = Response(status=204)
        response.headers["HX-Redirect"] = target
        return response
    return back_to("scan.review", game_id=game_id, scan_id=scan_id)


def _upload_error(stored: store.StoredGame, message: str, status: int) -> Response | tuple:
    page = render_template("pages/scan.html", stored=stored, game=stored.game, error=message,
                           max_mb=MAX_PHOTO_BYTES // (1024 * 1024))
    if not is_htmx():
        return page, status
    # The form swaps nothing (hx-swap none): show the page with its message instead, also for
    # a busy or full server, whose 5xx htmx would not swap.
    return Response(page, status=422 if status >= 500 else status,
                    headers={"HX-Retarget": "body", "HX-Reswap": "innerHTML"})


@bp.get("/<scan_id>")
def review(game_id: str, scan_id: str) -> tuple[str, int] | str:
    stored = get_game(game_id)
    result = _scan(get_db(), game_id, scan_id).result
    if result.get("error"):
        return render_template(
            "pages/scan_failed.html", stored=stored, scan_id=scan_id,
            error=translate(Message.from_json(result["error"])),
            can_place_corners=not result.get("rejected"),
        ), 422
    pick = request.args.get("lane")
    return render_template("pages/scan_review.html",
                           **_review_context(stored, scan_id, result, pick))


def _review_context(stored: store.StoredGame, scan_id: str, result: dict[str, Any],
                    pick: str | None = None) -> dict:
    """Everything the review shows. ``pick``: a lane the players opened (a tap on the map
    without JavaScript, a lane named by a check); else the card is the first lane to check."""
    game = stored.game
    lanes = _lane_views(stored, result)
    by_id = {lane.id: lane for lane in lanes}
    colors = {p.name: p.color for p in game.players}
    shapes = board_shapes(game.board.name)
    routes = game.board.routes
    to_check = sorted((lane for lane in lanes if lane.doubtful), key=lambda lane: lane.confidence)
    unsure = [lane for lane in lanes if lane.unsure]
    card = by_id.get(pick or "") or (to_check[0] if to_check else None)
    stations = _station_changes(stored, result)
    shown_stations = _stations_shown(stored, result) if game.variant.stations else {}
    players = _player_summary(stored, lanes)
    return {
        "stored": stored, "game": game, "scan_id": scan_id, "shapes": shapes,
        "lanes": by_id, "colors": colors, "hit_lines": {r: hit_line(routes[r]) for r in by_id},
        "doubtful": to_check, "card": card, "crop": _crop(routes[card.id]) if card else None,
        "crop_cities": _cities_in(shapes, _crop(routes[card.id])) if card else [],
        "card_lane": next(s for s in shapes.lanes if s.id == card.id) if card else None,
        "progress": (len(unsure) - len(to_check) + 1, len(unsure)),
        "checked": [lane for lane in unsure if not lane.doubtful],
        "changes": [lane for lane in lanes if lane.change and not lane.unsure],
        "claimed": sum(lane.proposed is not None for lane in lanes),
        "counts": {kind: sum(lane.change == kind for lane in lanes)
                   for kind in ("add", "change", "remove")},
        "players": players, "checks": _checks(stored, lanes, players, stations),
        "stations": stations, "shown_stations": shown_stations,
        "station_rows": [(city, shown_stations.get(city), game.station_at(city)) for city in
                         sorted(set(shown_stations) | {s.city for s in game.stations}
                                | set(result.get("stations", {}))
                                | set(result.get("proposed_stations", {})))]
        if game.variant.stations else [],
        "cities": {c.name: c for c in shapes.cities} if game.variant.stations else {},
        "has_photo": get_db().scalar(select(scan_files.c.name).where(
            scan_files.c.game_id == stored.id, scan_files.c.scan_id == scan_id,
            scan_files.c.name == "rectified.jpg")) is not None,
        "elapsed_ms": result.get("detection", {}).get("elapsed_ms"),
    }


def _player_summary(stored: store.StoredGame, lanes: list[LaneView]) -> list[dict]:
    """Per player, the lanes, trains and route points the game will hold after Apply."""
    variant = stored.game.variant
    out = []
    for player in stored.game.players:
        mine = [lane for lane in lanes if lane.proposed == player.name]
        out.append({
            "name": player.name, "color": player.color, "lanes": len(mine),
            "trains": sum(lane.length for lane in mine),
            "points": sum(variant.route_points(lane.length) for lane in mine),
        })
    return out


def _checks(stored: store.StoredGame, lanes: list[LaneView], players: list[dict],
            stations: list[tuple]) -> list[dict]:
    """What would stop Apply, in the table's words, with the lanes to look at first."""
    game = stored.game
    checks = []
    for player in players:
        if player["trains"] <= game.variant.trains:
            continue
        suspects = sorted((lane for lane in lanes if lane.proposed == player["name"]
                           and not lane.by_hand), key=lambda lane: lane.confidence)[:4]
        checks.append({"text": _(
            "The photo counts {count} {color} pieces for {player}, who has only {trains}: "
            "the box's spare pieces may be on the board. Set the lanes that are not "
            "{player}'s to nobody; the least sure first:", count=player["trains"],
            color=color_name(player["color"]), player=player["name"],
            trains=game.variant.trains), "lanes": suspects})
    if game.variant.stations:
        shown = [found for _city, found, _now in stations] + [
            s.player for s in game.stations if s.city not in {c for c, *_ in stations}]
        for player in players:
            count = shown.count(player["name"])
            if count > game.variant.stations:
                checks.append({"text": _(
                    "The review gives {player} {count} stations, and a player has {stations}: "
                    "set the wrong ones to nobody under Stations.", player=player["name"],
                    count=count, stations=game.variant.stations), "lanes": []})
    by_id = {lane.id: lane for lane in lanes}
    open_doubles = game.variant.doubles_open(len(game.players))
    for lane in lanes:
        other = next((by_id[r.id] for r in game.board.siblings(game.board.routes[lane.id])
                      if r.id > lane.id), None)
        if other is None or lane.proposed is None or other.proposed is None:
            continue
        pair = sorted((lane, other), key=lambda item: item.confidence)
        if lane.proposed == other.proposed:
            text = _("The photo gives {player} both lanes of {a}–{b}: one player never owns "
                     "both. Set the wrong one to nobody; the less sure first:",
                     player=lane.proposed, a=lane.a, b=lane.b)
        elif not open_doubles:
            text = _("The photo shows both lanes of {a}–{b} taken, but with {count} players only "
                     "one may be used: pieces of one lane are often seen on the other. Set the "
                     "wrong one to nobody; the less sure first:", a=lane.a, b=lane.b,
                     count=len(game.players))
        else:
            continue
        checks.append({"text": text, "lanes": pair})
    changes = _changes(lanes)
    if checks or not (changes or stations):
        return checks
    try:
        game.copy().apply(SetOwners(changes, tuple((c, found) for c, found, _now in stations)))
    except ScorerError as exc:
        checks.append({"text": refuse(exc), "lanes": []})
    return checks


def _crop(route: Any) -> str:
    """The view box of the card's zoomed crop: the lane with some board around it."""
    xs = [s.x for s in route.spaces]
    ys = [s.y for s in route.spaces]
    width = max(max(xs) - min(xs) + 140, 280.0)
    height = max(max(ys) - min(ys) + 140, width * 0.75)
    width = max(width, height / 0.75)
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    return f"{cx - width / 2:.0f} {cy - height / 2:.0f} {width:.0f} {height:.0f}"


def _cities_in(shapes: Any, view_box: str) -> list:
    """The cities inside a crop's view box, to draw beside the lane as printed."""
    x, y, width, height = (float(v) for v in view_box.split())
    return [c for c in shapes.cities if x <= c.x <= x + width and y <= c.y <= y + height]


def _answer(stored: store.StoredGame, game_id: str, scan_id: str,
            result: dict[str, Any]) -> Response | str:
    """A correction's answer: the review's parts swapped in for htmx, else the review."""
    if is_htmx():
        return render_template("partials/_scan_answer.html",
                               **_review_context(stored, scan_id, result))
    return back_to("scan.review", game_id=game_id, scan_id=scan_id)


def _route_or_refuse(stored: store.StoredGame, game_id: str, scan_id: str,
                     route_id: str) -> Any:
    """The board's route, or the answer saying there is no such lane (nothing changes)."""
    try:
        return stored.game.board.route(route_id[:120])
    except ScorerError:
        return _refused(game_id, scan_id,
                        _("No lane {lane} on this board: nothing changed.", lane=route_id[:60]))


def _refused(game_id: str, scan_id: str, message: str) -> Any:
    """The answer to a correction naming no such lane or city: nothing changes, it says why."""
    if is_htmx():
        return htmx_error(message, 404)
    flash_message(message, error=True)
    return back_to("scan.review", game_id=game_id, scan_id=scan_id)


@bp.post("/<scan_id>/lanes/<route_id>")
def set_lane(game_id: str, scan_id: str, route_id: str) -> Response | tuple[str, int] | str:
    """Correct one lane: the owner chosen (a card's button, a map tap's choice), or without
    one (a keyboard's Enter, no script) the owner after the one shown."""
    stored = get_game(game_id)
    _scan(get_db(), game_id, scan_id, change=True)
    route = _route_or_refuse(stored, game_id, scan_id, route_id)
    if isinstance(route, Response):
        return route
    names = [p.name for p in stored.game.players]
    with _locked(game_id, scan_id) as scan:
        result = scan.result
        current = {lane.id: lane for lane in _lane_views(stored, result)}[route.id].proposed
        if "owner" in request.form:
            owner = request.form["owner"] or None
            if owner is not None and owner not in names:
                abort(400)
        else:  # a tap cycles: nobody, then each player in turn
            cycle = [None, *names]
            owner = cycle[(cycle.index(current) + 1) % len(cycle)]
        result["proposed"][route.id] = owner
        _save(game_id, scan_id, result)
    return _answer(stored, game_id, scan_id, result)


@bp.post("/<scan_id>/stations")
def set_station(game_id: str, scan_id: str) -> Response | str:
    """Correct one city's station (Europe): its owner, or nobody."""
    stored = get_game(game_id)
    _scan(get_db(), game_id, scan_id, change=True)
    try:
        city = stored.game.board.city(request.form.get("city", "")[:120])
    except ScorerError as exc:
        return _refused(game_id, scan_id, refuse(exc))
    owner = request.form.get("owner") or None
    if not stored.game.variant.stations or (
            owner is not None and owner not in {p.name for p in stored.game.players}):
        abort(400)
    with _locked(game_id, scan_id) as scan:
        result = scan.result
        result.setdefault("proposed_stations", {})[city] = owner
        _save(game_id, scan_id, result)
    return _answer(stored, game_id, scan_id, result)


@bp.post("/<scan_id>/accept")
def accept_rest(game_id: str, scan_id: str) -> Response | str:
    """Every lane still to check taken as the review shows it (its best reading)."""
    stored = get_game(game_id)
    with _locked(game_id, scan_id) as scan:
        result = scan.result
        for lane in _lane_views(stored, result):
            if lane.doubtful:
                result["proposed"][lane.id] = lane.proposed
        _save(game_id, scan_id, result)
    return _answer(stored, game_id, scan_id, result)


@bp.post("/<scan_id>/apply")
def apply(game_id: str, scan_id: str) -> Response | tuple[str, int] | str:
    stored = get_game(game_id)
    # Under the game's lock: a correction answered before Apply is applied with it, one after
    # it finds the scan closed; a second Apply (a double tap, another phone) too. The photo's
    # action and the scan's end are one transaction.
    with _locked(game_id, scan_id) as scan:
        return _apply(stored, scan_id, scan.result)


def _apply(stored: store.StoredGame, scan_id: str,
           result: dict[str, Any]) -> Response | tuple[str, int] | str:
    game_id = stored.id
    if result.get("error"):
        abort(409)
    lanes = _lane_views(stored, result)
    changes = _changes(lanes)
    stations = tuple((city, found) for city, found, _now in _station_changes(stored, result))
    if not changes and not stations:
        flash_message(_("The photo matches the game: nothing to change."))
        return back_to("play.game_page", game_id=game_id)
    try:
        store.record(get_db(), game_id, SetOwners(changes, stations))
    except ScorerError as exc:
        context = _review_context(stored, scan_id, result)
        # The checks say why in the table's words; the core's sentence only when they do not.
        error = (_("Nothing was applied: fix what the photo says below, then apply again.")
                 if context["checks"] else refuse(exc))
        return render_template("pages/scan_review.html", error=error, **context), 422
    except KeyError:
        abort(404)
    counts = {kind: sum(1 for lane in lanes if lane.change == kind)
              for kind in ("add", "change", "remove")}
    flash_message(_("Photo applied: {add} added, {change} changed, {remove} removed "
                    "(Undo takes it all back).", **counts) + " " + " · ".join(
        _("{player}: {lanes} lanes, {points} route points", player=p["name"],
          lanes=p["lanes"], points=p["points"])
        for p in _player_summary(stored, lanes)))
    get_db().execute(delete(scans).where(scans.c.game_id == game_id, scans.c.id == scan_id))
    return back_to("play.game_page", game_id=game_id)


@bp.errorhandler(ScanClosed)
def scan_closed(_exc: ScanClosed) -> Response:
    """A tap or an Apply that waited for a scan another request applied: back to the game."""
    game_id = request.view_args["game_id"] if request.view_args else ""
    flash_message(_("This photo was applied already (or set aside for newer photos): the game "
                    "shows what it changed."), error=True)
    if is_htmx():
        response = Response(status=204)
        response.headers["HX-Redirect"] = url_for("play.game_page", game_id=game_id)
        return response
    return back_to("play.game_page", game_id=game_id)


@bp.get("/<scan_id>/rectified.jpg")
def rectified(game_id: str, scan_id: str) -> Response:
    return _image(game_id, scan_id, "rectified.jpg")


def _image(game_id: str, scan_id: str, name: str) -> Response:
    """One of the scan's stored images, or 404."""
    get_game(game_id)
    _scan(get_db(), game_id, scan_id)
    data = _file(game_id, scan_id, name)
    if data is None:
        abort(404)
    return send_file(io.BytesIO(data), mimetype="image/jpeg", max_age=3600)


def _shown_photo(data: bytes, scale: float) -> tuple[bytes, float]:
    """The reduced upright photo the corners are placed on (a JPEG), and the uploaded photo's
    px per its px. Decodes: the caller holds a detection slot."""
    from scorer.vision import upright_jpeg  # OpenCV loads with the first scan, not with the app

    jpeg, shown = upright_jpeg(data, CORNER_PHOTO_LONG, 80)
    shown /= scale  # shown px per px of the photo as uploaded
    return jpeg, 1 / shown


def _shown_factor(game_id: str, scan: Scan) -> float:
    """The corners page's photo factor, its photo made (in a detection slot) and stored first
    when the scan has none yet (a scan that failed before such photos were made)."""
    if scan.shown_factor is not None:
        return scan.shown_factor
    data = _file(game_id, scan.id, "photo") or b""
    with _detection_slot():
        jpeg, factor = _shown_photo(data, scale=scan.scale)
    with _locked(game_id, scan.id) as now:  # two phones may make it at once: one is kept
        _save(game_id, scan.id, now.result, shown_factor=factor)
        _put_files(game_id, scan.id, {"shown.jpg": jpeg})
    return factor


@bp.get("/<scan_id>/photo.jpg")
def photo(game_id: str, scan_id: str) -> Response:
    """The photo, upright and reduced, to place the corners on by hand."""
    return _image(game_id, scan_id, "shown.jpg")


@bp.get("/<scan_id>/corners")
def corners_page(game_id: str, scan_id: str) -> tuple[str, int] | str:
    stored = get_game(game_id)
    scan = _scan(get_db(), game_id, scan_id)
    result = scan.result
    try:
        factor = _shown_factor(game_id, scan)
    except ScanClosed:  # pruned meanwhile (newer photos of the game)
        abort(404)
    except ScannerBusy:
        return render_template("pages/scan_failed.html", stored=stored, scan_id=scan_id,
                               error=_busy_message(), can_place_corners=True), 503
    except ScorerError as exc:  # not an image at all: nothing to place corners on
        return render_template("pages/scan_failed.html", stored=stored, scan_id=scan_id,
                               error=refuse(exc), can_place_corners=False), 422
    found = result.get("detection", {}).get("corners") or []
    return render_template("pages/scan_corners.html", stored=stored, scan_id=scan_id,
                           found=found, factor=factor)


@bp.post("/<scan_id>/corners")
def set_corners(game_id: str, scan_id: str) -> Response | tuple[str, int]:
    """Read the board again with the four corners the players placed (in photo pixels)."""
    stored = get_game(game_id)
    scan = _scan(get_db(), game_id, scan_id)
    try:
        values = [float(request.form.get(f"c{i}", "")) for i in range(8)]
    except ValueError:
        values = []
    if len(values) != 8 or not all(0 <= v < 100_000 for v in values):
        flash_message(_("Place all four corners of the board, in order."), error=True)
        return back_to("scan.corners_page", game_id=game_id, scan_id=scan_id)
    corners = [values[i:i + 2] for i in range(0, 8, 2)]
    try:
        _run_detection(stored, scan, corners)
    except ScannerBusy:
        flash_message(_busy_message(), error=True)
        return back_to("scan.corners_page", game_id=game_id, scan_id=scan_id)
    return back_to("scan.review", game_id=game_id, scan_id=scan_id)


def _allow_photo_upload() -> None:
    """Raise the body limit for photo uploads only, before anything reads the form."""
    if request.endpoint == "scan.upload":
        request.max_content_length = MAX_PHOTO_BYTES + 64 * 1024


def init_app(app: Flask) -> None:
    global _slots
    app.config.setdefault("SCAN_WORKERS", 2)
    app.config.setdefault("SCAN_WAIT", 60)
    app.config.setdefault("SCAN_TIME_LIMIT", 60)
    app.config.setdefault("SCAN_ISOLATED", True)
    for key, value in _QUOTAS.items():
        app.config.setdefault(key, value)
    _slots = threading.BoundedSemaphore(app.config["SCAN_WORKERS"])
    # First of all before-request hooks: the CSRF check reads the form, hence the body.
    app.before_request_funcs.setdefault(None, []).insert(0, _allow_photo_upload)
    app.register_blueprint(bp)

