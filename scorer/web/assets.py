"""What a phone downloads, kept small and downloaded once: answers compressed, and the
static files (styles, scripts) named by their content so a phone keeps them for good.

Compression is Flask-Compress's (brotli for the browsers that take it, else gzip): a
library made for it, where our own gzip covered pages only and left ~120 kB of scripts and
styles uncompressed on every load.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, request
from flask_compress import Compress

_COMPRESSED = ["text/html", "text/css", "text/javascript", "application/javascript",
               "application/json", "image/svg+xml"]
# a file named by its content never changes under that name
_FOREVER = "public, max-age=31536000, immutable"


@cache
def _digest(folder: str, filename: str) -> str | None:
    """The first characters of a static file's SHA-256 (None: no such file); read once per
    process: the static files change only with a new release, which restarts the server."""
    path = Path(folder, filename)
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    except OSError:
        return None


def _versioned(endpoint: str, values: dict[str, Any]) -> None:
    """``url_for('static', filename=...)`` names the file's content: ``?v=<digest>``."""
    if endpoint == "static" and "filename" in values and "v" not in values:
        digest = _digest(str(current_app.static_folder), values["filename"])
        if digest:
            values["v"] = digest


def _kept(response: Response) -> Response:
    """A static file asked for by its current content is kept by the phone for good; asked
    for by an old or no name, it is checked again each time (Flask's default)."""
    if (request.endpoint == "static" and response.status_code == 200 and request.view_args
            and request.args.get("v") == _digest(str(current_app.static_folder),
                                                 request.view_args["filename"])):
        response.headers["Cache-Control"] = _FOREVER
    return response


def _lean(response: Response) -> Response:
    """A script goes to the phone without its whole-line comments: they are written for
    whoever changes the script (a third of it) and the phone would download them on every new
    release. (A line starting ``//`` is a comment wherever it is: the scripts have no
    multi-line strings.)"""
    if (request.endpoint == "static" and response.status_code == 200
            and response.mimetype in ("text/javascript", "application/javascript")):
        response.direct_passthrough = False
        lines = response.get_data(as_text=True).splitlines(keepends=True)
        response.set_data("".join(line for line in lines
                                  if not line.lstrip().startswith("//")))
    return response


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIMETYPES", _COMPRESSED)
    app.config.setdefault("COMPRESS_MIN_SIZE", 1024)
    # Brotli's quality 3, not Flask-Compress's 4: a tap answered with the whole board (100 kB,
    # from a page behind the game) is compressed in 0.9 ms instead of 1.9, 14.3 kB instead of
    # 13.8; the game page and its files, 55.7 kB instead of 53.6 the first time.
    app.config.setdefault("COMPRESS_BR_LEVEL", 3)
    Compress(app)  # (its answer's compression runs last, after the two below)
    app.url_defaults(_versioned)
    app.after_request(_kept)
    app.after_request(_lean)
