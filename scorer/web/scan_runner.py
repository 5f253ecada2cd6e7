"""The detection runner: a photo read by the detector in a child process, in one of a bounded
number of slots, within a time limit; the outcome (the reading or why it failed) stored.

Detection is slow and memory-hungry, so at most ``SCAN_WORKERS`` run at once per process;
a further upload waits up to ``SCAN_WAIT`` seconds for a slot, then gets a "busy" answer. A
device holding a slot gets no second one while another device waits (DeviceBusy, at once).
Every decode of an uploaded photo runs in the child process, under the time limit.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from flask import Flask, current_app, g, request

from scorer.errors import ScorerError
from scorer.messages import Message
from scorer.web import store
from scorer.web.i18n import _
from scorer.web.scan_photos import combined, photo_name, photo_reading, readings, rectified_name
from scorer.web.scan_store import Scan, locked, put_files, save, stored_file

log = logging.getLogger(__name__)
RECTIFIED_WIDTH = 1200  # px of the rectified photo under the review map
CORNER_PHOTO_LONG = 1600  # px of the photo shown to place corners by hand
# Once read, a photo is kept for its review as an upright JPEG of this long side at most (the
# detector reads 2000 px): a 25 MiB upload becomes ~1 MiB. ``scans.scale`` says its scale.
KEPT_PHOTO_LONG = 2400
KEPT_PHOTO_BYTES = 2 * 1024 * 1024  # a photo up to this size is kept as it came

_slots: threading.BoundedSemaphore | None = None


def busy_message() -> str:
    return _("The scanner is busy with other photos: try again in a moment.")


class ScannerBusy(Exception):
    """Every detection slot stayed taken for SCAN_WAIT seconds: nothing was read."""

    def said(self) -> str:
        """Why, in the table's words."""
        return busy_message()


class DeviceBusy(ScannerBusy):
    """This device holds a detection slot already while another device waits for one: its
    further photo is refused at once (the slots go round the tables, not to the fastest)."""

    def said(self) -> str:
        return _("This phone is already having a photo read while other tables wait for the "
                 "scanner: send this one when the first is read.")


# Who holds and who waits for the slots, by device (``_device``), under ``_fair``.
_fair = threading.Lock()
_held: dict[str, int] = {}
_waiting: dict[str, int] = {}
_POLL = 0.05  # s between a waiting request's looks at the slots


def _device() -> str:
    """The device asking (its cookie's id); one that sent no cookie (a script, a first
    request) stands for its address, so a client cannot be many devices by dropping it."""
    from scorer.web.devices import device_id

    device = device_id()
    if g.get("new_device"):
        return "address " + (request.remote_addr or "")
    return device


def _gives_way(device: str) -> bool:
    """Under ``_fair``: ``device`` holds a slot while another device holding none waits."""
    return _held.get(device, 0) > 0 and any(
        count > 0 and not _held.get(other, 0)
        for other, count in _waiting.items() if other != device)


def _count(table: dict[str, int], device: str, step: int) -> None:
    table[device] = table.get(device, 0) + step
    if table[device] <= 0:
        del table[device]


def _take_slot(slots: threading.BoundedSemaphore) -> Callable[[], None]:
    """One of the SCAN_WORKERS slots for this request's device, waiting SCAN_WAIT s at most
    (ScannerBusy); DeviceBusy at once when the device holds one already and another device is
    waiting, or comes to wait meanwhile. Returns the function that gives it back."""
    device = _device()
    deadline = time.monotonic() + float(current_app.config["SCAN_WAIT"])
    with _fair:
        _count(_waiting, device, 1)
    try:
        while True:
            with _fair:
                if _gives_way(device):
                    raise DeviceBusy
            left = deadline - time.monotonic()
            if left <= 0:
                raise ScannerBusy
            if slots.acquire(timeout=min(left, _POLL)):
                with _fair:
                    if not _gives_way(device):
                        _count(_held, device, 1)
                        break
                slots.release()
                raise DeviceBusy
    finally:
        with _fair:
            _count(_waiting, device, -1)
    given_back: list[bool] = []

    def release() -> None:
        if not given_back:
            given_back.append(True)
            with _fair:
                _count(_held, device, -1)
            slots.release()

    return release


@contextmanager
def detection_slot() -> Iterator[None]:
    """Hold one of the SCAN_WORKERS slots (fairly between devices: ``_take_slot``): every
    decode of a photo runs inside one, so their memory adds up to SCAN_WORKERS decodes at
    most, whatever the mix of requests. Raises ScannerBusy after SCAN_WAIT s."""
    slots = _slots
    assert slots is not None
    release = _take_slot(slots)
    try:
        yield
    finally:
        release()


def corner_photo(data: bytes, scale: float) -> tuple[bytes, float]:
    """``shown_photo`` in a detection slot and, under SCAN_ISOLATED, in a child process within
    SCAN_TIME_LIMIT (TookTooLong): the server's process never decodes an uploaded photo."""
    from scorer.vision.errors import ImageRejected

    with detection_slot():
        if not current_app.config["SCAN_ISOLATED"]:
            return shown_photo(data, scale)
        try:
            answer = _in_child("shown", (data, scale),
                               float(current_app.config["SCAN_TIME_LIMIT"]))
        except TookTooLong:
            raise ImageRejected(Message("Reading this photo took too long: try another "
                                        "photo.")) from None
        except RuntimeError:
            raise ImageRejected(Message("The photo could not be read: try another "
                                        "photo.")) from None
    if answer[0] == "error":
        raise answer[1]
    return answer


@dataclass
class PhotoRead:
    """What reading one photo came to: its detection (in the pixels of the photo as uploaded)
    or why there is none, and the images and scan columns made for its review."""

    detection: Any = None
    error: Message | None = None
    rejected: bool = False  # not to be read again with corners placed by hand
    files: dict[str, bytes] = field(default_factory=dict)
    columns: dict[str, Any] = field(default_factory=dict)
    # the board reaching past the photo's edges: where its corners were found (in the pixels
    # of the photo as uploaded, those beyond ``outside`` outside it), and the photo's size
    outside: tuple[str, ...] = ()
    corners: list[list[float]] | None = None
    photo_size: tuple[int, int] | None = None


def read_photo(stored: store.StoredGame, data: bytes, scale: float = 1.0,
               corners: list[list[float]] | None = None, where: str = "") -> PhotoRead:
    """Detect the lanes on a photo's bytes (``scale``: px of the photo as uploaded per px of
    ``data``; ``corners`` in the uploaded photo's px), making the review's photos.

    A thread of its own holds the request's detection slot (``_take_slot``: fair between
    devices) until the reading returns; the request waits for it SCAN_TIME_LIMIT seconds at
    most, then says so. With SCAN_ISOLATED (the default) everything that decodes the photo
    (the detection, the rectified view, the photo kept reduced, after a failure the corners
    page's photo) runs in one child process, killed at that limit, which gives the slot back:
    the server's process only receives the small JPEGs and the detection. In the app's own
    process (tests that replace the detector) a detector that never returned would keep its
    slot, so the memory bound holds. The caller writes the outcome to the database.
    """
    game = stored.game
    colors = [p.color for p in game.players]
    limit = float(current_app.config["SCAN_TIME_LIMIT"])
    isolated = bool(current_app.config["SCAN_ISOLATED"])
    slots = _slots
    assert slots is not None
    release = _take_slot(slots)
    outcome: dict[str, Any] = {}
    done = threading.Event()
    read_out = PhotoRead()

    def read() -> None:
        try:
            kept_corners = [[x / scale, y / scale] for x, y in corners] if corners else None
            if isolated:
                kind, value, files, columns = _in_child(
                    "read", (data, game.board.name, colors, kept_corners, scale), limit)
            else:
                kind, value, files, columns = _read_photo_here(
                    data, game.board.name, colors, kept_corners, scale)
            read_out.files.update(files)
            read_out.columns.update(columns)
            if kind == "ok":
                outcome["detection"] = value.scaled(scale)
            else:
                outcome["error"] = value
        except TookTooLong:
            log.warning("detection of %s killed after SCAN_TIME_LIMIT", where)
            outcome["timeout"] = True
        except Exception:  # a detector's failure must not leave a scan that never finishes
            log.exception("detection failed on %s", where)
            outcome["failure"] = True
        finally:
            release()
            done.set()

    threading.Thread(target=read, name="detection", daemon=True).start()
    # isolated: the child (detection and the review's photos) is killed at the limit
    if not done.wait(limit + 10 if isolated else limit) or "timeout" in outcome:
        log.warning("detection of %s still running after SCAN_TIME_LIMIT", where)
        return PhotoRead(error=Message("Reading this photo took too long: try another photo."),
                         rejected=True)
    if "error" in outcome:
        error = outcome["error"]
        if type(error).__name__ == "BoardOutOfFrame":  # the corners page places them
            read_out = replace(
                read_out, outside=error.edges,
                corners=[[x * scale, y * scale] for x, y in error.corners],
                photo_size=(round(error.photo_size[0] * scale),
                            round(error.photo_size[1] * scale)))
        return replace(read_out, error=error.message,
                       rejected=type(error).__name__ == "ImageRejected")
    if "failure" in outcome:
        return PhotoRead(error=Message("The photo could not be read: try another photo."),
                         rejected=True)
    return replace(read_out, detection=outcome["detection"])


def run_detection(stored: store.StoredGame, scan: Scan,
                   corners: list[list[float]] | None = None, data: bytes | None = None) -> None:
    """Detect the lanes on the scan's first photo and store the result (or why it failed):
    a new review of it, combined with the scan's other photos. ``data``: the photo's bytes
    when the caller holds them (the upload just stored them)."""
    if data is None:
        data = stored_file(stored.id, scan.id, photo_name(1)) or b""
    # corners come and go in the uploaded photo's pixels
    read = read_photo(stored, data, scan.scale, corners, f"scan {scan.id} of game {stored.id}")
    if read.error is not None:
        found = ({"outside": list(read.outside), "corners": read.corners,
                  "photo_size": list(read.photo_size or ())} if read.outside else {})
        _failed(stored.id, scan.id, read.error, read.rejected, read.files, read.columns, found)
        return
    detection = read.detection
    with locked(stored.id, scan.id) as now:  # a new reading (corners by hand): a new review
        result = {"detection": detection.to_json(), "confidence": detection.confidence,
                  "photos": [photo_reading(detection), *readings(now.result)[1:]],
                  "proposed": {}, "photo_size": list(detection.photo_size)}
        save(stored.id, scan.id, {**result, **combined(result, stored.game)}, state="ready",
             **read.columns)
        put_files(stored.id, scan.id, read.files)


def add_photo(stored: store.StoredGame, scan_id: str, data: bytes) -> Message | None:
    """Read another photo of the board into the scan's review: its reading kept with the
    others' and the review's lanes combined from them all, the players' corrections kept.
    Returns why it could not be read (nothing stored then), or None."""
    read = read_photo(stored, data, where=f"another photo of scan {scan_id} of game {stored.id}")
    if read.error is not None:
        return read.error
    reading = photo_reading(read.detection, read.columns.get("scale", 1.0))
    with locked(stored.id, scan_id) as scan:  # phones adding at once each get their number
        result = scan.result
        photos = [*readings(result), reading]
        result = {**result, "photos": photos}
        save(stored.id, scan_id, {**result, **combined(result, stored.game)})
        number = len(photos)
        put_files(stored.id, scan_id, {photo_name(number): read.files.get("photo", data),
                                       rectified_name(number): read.files["rectified.jpg"]})
    return None


def _read_photo_here(data: bytes, board: str, colors: list[str],
                     corners: list[list[float]] | None, scale: float,
                     ) -> tuple[str, Any, dict[str, bytes], dict[str, Any]]:
    """Everything a photo's reading decodes, in the process that runs it (the detection's child
    under SCAN_ISOLATED): the detection and the review's photos (the rectified view, the photo
    kept reduced; after a failure that was no refusal, the corners page's photo). Returns
    ("ok", the detection, files, columns) or ("error", the ScorerError, files, columns)."""
    from scorer.boards import load_board

    # OpenCV loads with the first scan, not with the app
    from scorer.vision import detect, rectified_jpeg

    files: dict[str, bytes] = {}
    columns: dict[str, Any] = {}
    the_board = load_board(board)
    try:
        detection = detect(data, the_board, colors, corners)
    except ScorerError as exc:
        if type(exc).__name__ != "ImageRejected":
            try:  # the corners page shows the photo next: reduced here, in the slot
                files["shown.jpg"], columns["shown_factor"] = shown_photo(data, scale)
                _keep_reduced(files, columns, data, scale)
            except (ScorerError, OSError):
                pass
        return "error", exc, files, columns
    files["rectified.jpg"] = rectified_jpeg(data, detection, the_board, RECTIFIED_WIDTH)
    _keep_reduced(files, columns, data, scale)
    return "ok", detection, files, columns


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


def _in_child(task: str, args: tuple[Any, ...], limit: float) -> Any:
    """``_read_photo_here`` ("read") or ``shown_photo`` ("shown") in a child process (forked
    from a forkserver that has the detector imported), killed after ``limit`` seconds:
    TookTooLong. Every decode of an uploaded photo runs in such a child, so the server's own
    process only ever holds the small images it sends back. A refusal, "no board" or a board
    reaching past the photo comes back as the ScorerError it was; RuntimeError when the child
    died (out of memory, killed)."""
    import multiprocessing

    if not _children:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["scorer.web.scan_runner", "scorer.vision"])
        _children.append(context)
    context = _children[0]
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child_main, args=(send, task, args),
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
    if kind == "error":
        return _rebuilt(*value)
    raise RuntimeError(f"{value} (exit code {child.exitcode})")


def _rebuilt(kind: str, message: dict[str, Any], files: dict[str, bytes],
             columns: dict[str, Any]) -> Any:
    """A reading's failure sent back by the child: its ScorerError rebuilt, and its files.
    For a board reaching past the photo, ``message`` holds what was found of it."""
    from scorer.vision.errors import BoardNotFound, BoardOutOfFrame, ImageRejected

    error: ScorerError
    if kind == "out-of-frame":
        error = BoardOutOfFrame(message["edges"], message["corners"],
                                tuple(message["photo_size"]))
    else:
        error = (ImageRejected if kind == "rejected" else BoardNotFound)(
            Message.from_json(message))
    return "error", error, files, columns


def _sent_error(error: ScorerError) -> tuple[str, dict[str, Any]]:
    """A reading's failure as the child sends it: its kind and what rebuilds it."""
    name = type(error).__name__
    if name == "BoardOutOfFrame":
        return "out-of-frame", {"edges": list(error.edges), "corners": error.corners,
                                "photo_size": list(error.photo_size)}
    return ("rejected" if name == "ImageRejected" else "not-found"), error.message.to_json()


def _child_main(send: Any, task: str, args: tuple[Any, ...]) -> None:
    """In the child process: run the task and send back its outcome (picklable)."""
    answer: tuple[str, Any]
    try:
        if task == "shown":
            answer = ("ok", shown_photo(*args))
        else:
            outcome = _read_photo_here(*args)
            if outcome[0] == "ok":
                answer = ("ok", outcome)
            else:
                answer = ("error", (*_sent_error(outcome[1]), *outcome[2:]))
    except ScorerError as exc:  # shown_photo's refusal
        answer = ("error", ("rejected", exc.message.to_json(), {}, {}))
    except BaseException as exc:  # whatever it is, the parent says so
        answer = ("failure", repr(exc))
    send.send(answer)
    send.close()


def _failed(game_id: str, scan_id: str, message: Message, rejected: bool,
            files: dict[str, bytes] | None = None, columns: dict[str, Any] | None = None,
            found: dict[str, Any] | None = None) -> None:
    """Store why the reading failed (the message, translated when shown) and, for a board
    reaching past the photo's edges, what was ``found`` of it (the edges, the corners, the
    photo's size): the scan is finished (and pruned like any other)."""
    with locked(game_id, scan_id) as scan:
        save(game_id, scan_id,
              {**scan.result, "error": message.to_json(), "rejected": rejected,
               **(found or {})},
              state="failed", **(columns or {}))
        put_files(game_id, scan_id, files or {})


def shown_photo(data: bytes, scale: float) -> tuple[bytes, float]:
    """The reduced upright photo the corners are placed on (a JPEG), and the uploaded photo's
    px per its px. Decodes: the caller holds a detection slot."""
    from scorer.vision import upright_jpeg  # OpenCV loads with the first scan, not with the app

    jpeg, shown = upright_jpeg(data, CORNER_PHOTO_LONG, 80)
    shown /= scale  # shown px per px of the photo as uploaded
    return jpeg, 1 / shown


def init_app(app: Flask) -> None:
    """The detection's settings, and its slots (SCAN_WORKERS of them)."""
    global _slots
    app.config.setdefault("SCAN_WORKERS", 2)
    app.config.setdefault("SCAN_WAIT", 60)
    app.config.setdefault("SCAN_TIME_LIMIT", 60)
    app.config.setdefault("SCAN_ISOLATED", True)
    _slots = threading.BoundedSemaphore(app.config["SCAN_WORKERS"])
