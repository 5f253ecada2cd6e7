"""Scan the board: a photo in, the detected lanes to review and correct by tap, then apply.

A scan lives in the database (``scan_store``): the photo as uploaded, the detection, the
players' corrections, and the rectified photo the review draws the lanes on. The detector runs
in ``scan_runner``; ``scan_review`` says what the review shows. Nothing touches the game until
the players confirm; then every difference goes in as one ``SetOwners`` action, so a single
Undo takes the whole photo back.
"""

from __future__ import annotations

import io
import json
import secrets
import time
from typing import Any

from flask import Blueprint, Flask, abort, render_template, request, send_file, url_for
from sqlalchemy import delete, insert
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response

from scorer.boards import PHOTO_BOARDS, load_board
from scorer.errors import ScorerError
from scorer.game import Game, SetOwners
from scorer.messages import Message
from scorer.web import scan_runner, store
from scorer.web.common import back_to, flash_message, get_game, htmx_error, is_htmx, refuse
from scorer.web.db import get_db, scans, transaction
from scorer.web.i18n import _, translate
from scorer.web.scan_photos import photo_count, rectified_name
from scorer.web.scan_review import (
    lane_views,
    owner_changes,
    player_summary,
    review_context,
    station_changes,
)
from scorer.web.scan_runner import ScannerBusy, corner_photo
from scorer.web.scan_store import (
    MAX_PHOTO_BYTES,
    QUOTAS,
    Scan,
    ScanClosed,
    load_scan,
    locked,
    make_room,
    prune,
    put_files,
    save,
    stored_file,
)

bp = Blueprint("scan", __name__, url_prefix="/games/<game_id>/scan")

@bp.app_template_global()
def photo_refusal(game: Game) -> str | None:
    """Why the photo cannot read this game's board, in the reader's words; None when it can."""
    if game.board.name in PHOTO_BOARDS:
        return None
    *head, last = [_(load_board(name).title) for name in PHOTO_BOARDS]
    boards = _("{names} and {name}", names=", ".join(head), name=last) if head else last
    return _("The photo reads the {boards} boards only: on {board}, tap the claimed lanes "
             "on the map.", boards=boards, board=_(game.board.title))


@bp.get("")
def scan_page(game_id: str) -> str:
    stored = get_game(game_id)
    return render_template("pages/scan.html", stored=stored, game=stored.game,
                           max_mb=MAX_PHOTO_BYTES // (1024 * 1024))


def _sent_photo() -> bytes | tuple[str, int]:
    """The photo sent in the form's ``photo`` field, or why it is refused (a message and the
    status): too large, missing, empty, or not a photo by its first bytes. Nothing decoded."""
    too_large = _("The photo is larger than {mb} MB: send a smaller one.",
                  mb=MAX_PHOTO_BYTES // (1024 * 1024))
    try:
        photo = request.files.get("photo")
    except RequestEntityTooLarge:
        return too_large, 413
    if photo is None or not photo.filename:
        return _("Choose a photo of the board first."), 400
    data = photo.stream.read(MAX_PHOTO_BYTES + 1)
    if len(data) > MAX_PHOTO_BYTES:
        return too_large, 413
    if not data:
        return _("The file is empty: take the photo again."), 400
    from scorer.vision.decode import NOT_A_PHOTO, photo_format  # OpenCV: not with the app

    if not photo_format(data[:16]):  # refused from its first bytes: nothing decoded or kept
        return refuse(NOT_A_PHOTO), 415
    return data


def _no_room() -> str:
    return _("No room for more photos on the server right now: apply or leave the photos "
             "being reviewed, then try again.")


@bp.post("")
def upload(game_id: str) -> Response | tuple[str, int]:
    stored = get_game(game_id)
    refusal = photo_refusal(stored.game)
    if refusal:
        return _upload_error(stored, refusal, 400)
    data = _sent_photo()
    if isinstance(data, tuple):
        return _upload_error(stored, *data)
    scan_id = secrets.token_urlsafe(9)
    db = get_db()
    with transaction(db, game_id):
        room = make_room(db, game_id, len(data))
        if room:
            now = time.time()
            db.execute(insert(scans).values(
                game_id=game_id, id=scan_id, state="reading", created=now, updated=now,
                result=json.dumps({"lanes": {}, "stations": {}, "proposed": {}})))
            put_files(game_id, scan_id, {"photo": data})
    if not room:
        return _upload_error(stored, _no_room(), 507)
    try:
        scan_runner.run_detection(stored, load_scan(db, game_id, scan_id, change=True), data=data)
    except ScannerBusy as busy:
        with transaction(db, game_id):
            db.execute(delete(scans).where(scans.c.game_id == game_id, scans.c.id == scan_id))
        return _upload_error(stored, busy.said(), 503)
    with transaction(db, game_id):
        prune(db, game_id)
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
def review(game_id: str, scan_id: str) -> Response | tuple[str, int] | str:
    stored = get_game(game_id)
    try:
        result = load_scan(get_db(), game_id, scan_id, change=True).result
    except ScanClosed:
        # Back after Apply (or a review set aside for newer photos): the game, not a bare 404
        flash_message(_("That photo's review is closed: it was applied, or set aside for "
                        "newer photos. The board below is the game as it stands."))
        return back_to("play.game_page", game_id=game_id)
    if result.get("outside"):  # the board reaches past the photo: its corners, placed
        return back_to("scan.corners_page", game_id=game_id, scan_id=scan_id)
    if result.get("error"):
        return render_template(
            "pages/scan_failed.html", stored=stored, scan_id=scan_id,
            error=translate(Message.from_json(result["error"])),
            can_place_corners=not result.get("rejected"),
        ), 422
    pick = request.args.get("lane")
    return render_template("pages/scan_review.html",
                           **review_context(stored, scan_id, result, pick))


@bp.post("/<scan_id>/photos")
def add_photo(game_id: str, scan_id: str) -> Response | tuple[str, int]:
    """Another photo of the board read into this review (the same checks, quotas and reader
    as the first): the review then shows the photos' lanes combined, its corrections kept."""
    stored = get_game(game_id)
    scan = load_scan(get_db(), game_id, scan_id, change=True)
    if scan.state != "ready":
        abort(409)
    data = _sent_photo()
    if isinstance(data, tuple):
        return _review_error(stored, scan_id, *data)
    db = get_db()
    with transaction(db, game_id):
        room = make_room(db, game_id, len(data), spare=scan_id)
    if not room:
        return _review_error(stored, scan_id, _no_room(), 507)
    try:
        failed = scan_runner.add_photo(stored, scan_id, data)
    except ScannerBusy as busy:
        return _review_error(stored, scan_id, busy.said(), 503)
    if failed is not None:
        return _review_error(stored, scan_id, _("The other photo was not read: {reason}",
                                                reason=translate(failed)), 422)
    flash_message(_("Photo added: the review reads {count} photos together.",
                    count=photo_count(load_scan(db, game_id, scan_id).result)))
    return back_to("scan.review", game_id=game_id, scan_id=scan_id)


def _review_error(stored: store.StoredGame, scan_id: str, message: str,
                  status: int) -> tuple[str, int]:
    """The review again, saying why the photo added was refused: nothing changed."""
    result = load_scan(get_db(), stored.id, scan_id, change=True).result
    return render_template("pages/scan_review.html", error=message,
                           **review_context(stored, scan_id, result)), status


def _answer(stored: store.StoredGame, game_id: str, scan_id: str,
            result: dict[str, Any]) -> Response | str:
    """A correction's answer: the review's parts swapped in for htmx, else the review."""
    if is_htmx():
        return render_template("partials/_scan_answer.html",
                               **review_context(stored, scan_id, result))
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
    load_scan(get_db(), game_id, scan_id, change=True)
    route = _route_or_refuse(stored, game_id, scan_id, route_id)
    if isinstance(route, Response):
        return route
    names = [p.name for p in stored.game.players]
    with locked(game_id, scan_id) as scan:
        result = scan.result
        current = {lane.id: lane for lane in lane_views(stored, result)}[route.id].proposed
        if "owner" in request.form:
            owner = request.form["owner"] or None
            if owner is not None and owner not in names:
                abort(400)
        else:  # a tap cycles: nobody, then each player in turn
            cycle = [None, *names]
            owner = cycle[(cycle.index(current) + 1) % len(cycle)]
        result["proposed"][route.id] = owner
        save(game_id, scan_id, result)
    return _answer(stored, game_id, scan_id, result)


@bp.post("/<scan_id>/stations")
def set_station(game_id: str, scan_id: str) -> Response | str:
    """Correct one city's station (Europe): its owner, or nobody."""
    stored = get_game(game_id)
    load_scan(get_db(), game_id, scan_id, change=True)
    try:
        city = stored.game.board.city(request.form.get("city", "")[:120])
    except ScorerError as exc:
        return _refused(game_id, scan_id, refuse(exc))
    owner = request.form.get("owner") or None
    if not stored.game.variant.stations or (
            owner is not None and owner not in {p.name for p in stored.game.players}):
        abort(400)
    with locked(game_id, scan_id) as scan:
        result = scan.result
        result.setdefault("proposed_stations", {})[city] = owner
        save(game_id, scan_id, result)
    return _answer(stored, game_id, scan_id, result)


@bp.post("/<scan_id>/accept")
def accept_rest(game_id: str, scan_id: str) -> Response | str:
    """Every lane still to check taken as the review shows it (its best reading)."""
    stored = get_game(game_id)
    with locked(game_id, scan_id) as scan:
        result = scan.result
        for lane in lane_views(stored, result):
            if lane.doubtful:
                result["proposed"][lane.id] = lane.proposed
        save(game_id, scan_id, result)
    return _answer(stored, game_id, scan_id, result)


@bp.post("/<scan_id>/apply")
def apply(game_id: str, scan_id: str) -> Response | tuple[str, int] | str:
    stored = get_game(game_id)
    # Under the game's lock: a correction answered before Apply is applied with it, one after
    # it finds the scan closed; a second Apply (a double tap, another phone) too. The photo's
    # action and the scan's end are one transaction.
    with locked(game_id, scan_id) as scan:
        return _apply(stored, scan_id, scan.result)


def _apply(stored: store.StoredGame, scan_id: str,
           result: dict[str, Any]) -> Response | tuple[str, int] | str:
    game_id = stored.id
    if result.get("error"):
        abort(409)
    lanes = lane_views(stored, result)
    changes = owner_changes(lanes)
    stations = tuple((city, found) for city, found, _now in station_changes(stored, result))
    if not changes and not stations:
        flash_message(_("The photo matches the game: nothing to change."))
        return back_to("play.game_page", game_id=game_id)
    try:
        store.record(get_db(), game_id, SetOwners(changes, stations))
    except ScorerError as exc:
        context = review_context(stored, scan_id, result)
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
        for p in player_summary(stored, lanes)))
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
    return _image(game_id, scan_id, rectified_name(1))


@bp.get("/<scan_id>/rectified-<int:number>.jpg")
def rectified_other(game_id: str, scan_id: str, number: int) -> Response:
    """The rectified view of the review's photo ``number`` (2 on: photos added)."""
    if number < 2:
        abort(404)
    return _image(game_id, scan_id, rectified_name(number))


def _image(game_id: str, scan_id: str, name: str) -> Response:
    """One of the scan's stored images, or 404."""
    get_game(game_id)
    load_scan(get_db(), game_id, scan_id)
    data = stored_file(game_id, scan_id, name)
    if data is None:
        abort(404)
    return send_file(io.BytesIO(data), mimetype="image/jpeg", max_age=3600)




def _shown_factor(game_id: str, scan: Scan) -> float:
    """The corners page's photo factor, its photo made (in a detection slot) and stored first
    when the scan has none yet (a scan that failed before such photos were made)."""
    if scan.shown_factor is not None:
        return scan.shown_factor
    data = stored_file(game_id, scan.id, "photo") or b""
    jpeg, factor = corner_photo(data, scan.scale)  # decoded in a slot, in a child
    with locked(game_id, scan.id) as now:  # two phones may make it at once: one is kept
        save(game_id, scan.id, now.result, shown_factor=factor)
        put_files(game_id, scan.id, {"shown.jpg": jpeg})
    return factor


@bp.get("/<scan_id>/photo.jpg")
def photo(game_id: str, scan_id: str) -> Response:
    """The photo, upright and reduced, to place the corners on by hand."""
    return _image(game_id, scan_id, "shown.jpg")


@bp.get("/<scan_id>/corners")
def corners_page(game_id: str, scan_id: str) -> tuple[str, int] | str:
    stored = get_game(game_id)
    scan = load_scan(get_db(), game_id, scan_id)
    result = scan.result
    try:
        factor = _shown_factor(game_id, scan)
    except ScanClosed:  # pruned meanwhile (newer photos of the game)
        abort(404)
    except ScannerBusy as busy:
        return render_template("pages/scan_failed.html", stored=stored, scan_id=scan_id,
                               error=busy.said(), can_place_corners=True), 503
    except ScorerError as exc:  # not an image at all: nothing to place corners on
        return render_template("pages/scan_failed.html", stored=stored, scan_id=scan_id,
                               error=refuse(exc), can_place_corners=False), 422
    found = result.get("detection", {}).get("corners") or result.get("corners") or []
    size = result.get("photo_size") or []
    outside = result.get("outside") or []
    return render_template(
        "pages/scan_corners.html", stored=stored, scan_id=scan_id, found=found, factor=factor,
        outside=outside, padding=corner_margins(found, size),
        why=translate(Message.from_json(result["error"])) if outside else None)


@bp.post("/<scan_id>/corners")
def set_corners(game_id: str, scan_id: str) -> Response | tuple[str, int]:
    """Read the board again with the four corners the players placed (in photo pixels)."""
    stored = get_game(game_id)
    scan = load_scan(get_db(), game_id, scan_id)
    try:
        values = [float(request.form.get(f"c{i}", "")) for i in range(8)]
    except ValueError:
        values = []
    # a corner may lie beyond the photo's edges (a board the photo cuts)
    if len(values) != 8 or not all(-100_000 < v < 100_000 for v in values):
        flash_message(_("Place all four corners of the board, in order."), error=True)
        return back_to("scan.corners_page", game_id=game_id, scan_id=scan_id)
    corners = [values[i:i + 2] for i in range(0, 8, 2)]
    try:
        scan_runner.run_detection(stored, scan, corners)
    except ScannerBusy as busy:
        flash_message(busy.said(), error=True)
        return back_to("scan.corners_page", game_id=game_id, scan_id=scan_id)
    return back_to("scan.review", game_id=game_id, scan_id=scan_id)


def corner_margins(corners: list[list[float]], size: list[int]) -> str:
    """The CSS padding round the corners page's photo that shows beyond its edges as far as
    the corners found outside it, with room to grab them ("" when every corner is inside).
    Percentages of padding are of the page's width, on every side."""
    if len(corners) != 4 or len(size) != 2 or min(size) <= 0:
        return ""
    width, height = size
    xs, ys = [x / width for x, _ in corners], [y / height for _, y in corners]
    # beyond each edge, in shares of the photo's width (left, right) or height (top, bottom)
    beyond = [-min(ys), max(xs) - 1, max(ys) - 1, -min(xs)]
    top, right, bottom, left = (min(b + 0.06, 0.8) if b > 0 else 0.0 for b in beyond)
    if not any((top, right, bottom, left)):
        return ""
    across = 1 + left + right  # the box's width in photo widths
    tall = height / width
    return " ".join(f"{100 * share / across:.2f}%" for share in
                    (top * tall, right, bottom * tall, left))


def _allow_photo_upload() -> None:
    """Raise the body limit for photo uploads only, before anything reads the form."""
    if request.endpoint in ("scan.upload", "scan.add_photo"):
        request.max_content_length = MAX_PHOTO_BYTES + 64 * 1024


def init_app(app: Flask) -> None:
    for key, value in QUOTAS.items():
        app.config.setdefault(key, value)
    scan_runner.init_app(app)
    # First of all before-request hooks: the CSRF check reads the form, hence the body.
    app.before_request_funcs.setdefault(None, []).insert(0, _allow_photo_upload)
    app.register_blueprint(bp)
