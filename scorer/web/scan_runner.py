"""The detection runner: a photo read by the detector in a child process, in one of a bounded
number of slots, within a time limit; the outcome (the reading or why it failed) stored.

Detection is slow and memory-hungry, so at most ``SCAN_WORKERS`` run at once per process;
a further upload waits up to ``SCAN_WAIT`` seconds for a slot, then gets a "busy" answer.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from flask import Flask, current_app

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


@contextmanager
def detection_slot() -> Iterator[None]:
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
    ``data``; ``corners`` in the uploaded photo's px), making its rectified view.

    The detector runs in a thread of its own that holds the detection slot until it returns;
    the request waits for it SCAN_TIME_LIMIT seconds at most, then says so. With
    SCAN_ISOLATED (the default) the detector itself runs in a child process, killed at that
    limit, which gives the slot back; in the app's own process (tests that replace the
    detector) a detector that never returned would keep its slot, so the memory bound holds.
    The thread only reads and makes images: the caller writes them to the database.
    """
    # OpenCV loads with the first scan, not with the app
    from scorer.vision import detect, rectified_jpeg

    game = stored.game
    colors = [p.color for p in game.players]
    limit = float(current_app.config["SCAN_TIME_LIMIT"])
    isolated = bool(current_app.config["SCAN_ISOLATED"])
    slots = _slots
    assert slots is not None
    if not slots.acquire(timeout=current_app.config["SCAN_WAIT"]):
        raise ScannerBusy
    outcome: dict[str, Any] = {}
    done = threading.Event()
    read_out = PhotoRead()

    def read() -> None:
        try:
            kept_corners = [[x / scale, y / scale] for x, y in corners] if corners else None
            if isolated:
                detection = _detect_in_child(data, game.board.name, colors, kept_corners, limit)
            else:
                detection = detect(data, game.board, colors, kept_corners)
            read_out.files["rectified.jpg"] = rectified_jpeg(data, detection, game.board,
                                                             RECTIFIED_WIDTH)
            outcome["detection"] = detection.scaled(scale)
            _keep_reduced(read_out.files, read_out.columns, data, scale)
        except ScorerError as exc:
            outcome["error"] = exc
            if type(exc).__name__ != "ImageRejected":
                try:  # the corners page shows the photo next: reduced here, in the slot
                    read_out.files["shown.jpg"], read_out.columns["shown_factor"] = (
                        shown_photo(data, scale))
                    _keep_reduced(read_out.files, read_out.columns, data, scale)
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
    ImageRejected, BoardOutOfFrame or BoardNotFound as it would; RuntimeError when the child
    died."""
    import multiprocessing

    # scorer.vision loads OpenCV: with the first scan, not with the app
    from scorer.vision.errors import BoardNotFound, BoardOutOfFrame, ImageRejected

    if not _children:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["scorer.web.scan_runner", "scorer.vision"])
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
    if kind == "out-of-frame":
        raise BoardOutOfFrame(value["edges"], value["corners"], tuple(value["photo_size"]))
    raise RuntimeError(f"{value} (exit code {child.exitcode})")


def _detect_child(send: Any, data: bytes, board: str, colors: list[str],
                  corners: list[list[float]] | None) -> None:
    """In the child process: detect and send back the detection, or why there is none."""
    from scorer.boards import load_board
    from scorer.vision import detect  # preloaded by the forkserver; OpenCV is not the app's
    from scorer.vision.errors import BoardOutOfFrame, ImageRejected

    try:
        answer: tuple[str, Any] = ("ok", detect(data, load_board(board), colors, corners))
    except ImageRejected as exc:
        answer = ("rejected", exc.message.to_json())
    except BoardOutOfFrame as exc:
        answer = ("out-of-frame", {"edges": exc.edges, "corners": exc.corners,
                                   "photo_size": exc.photo_size})
    except ScorerError as exc:
        answer = ("not-found", exc.message.to_json())
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
