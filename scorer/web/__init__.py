"""The table app: Flask + htmx pages to score a game live, and a small JSON API.

``create_app(config=None)`` builds the app (config from the instance folder's ``config.py``,
the environment's ``TERMINUS_*`` variables, then ``config``); ``serve(host, port)`` runs it.
Templates and static files live at the top of the repository (``templates/``, ``static/``).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket

HTMX_VERSION = "2.0.11"
ROOT = Path(__file__).resolve().parent.parent.parent
# Game files and forms are small: a whole 5-player game file is a few kilobytes.
MAX_CONTENT_LENGTH = 256 * 1024


class _ProcessBytecodeCache(BytecodeCache):
    """Compiled templates kept for the whole process, keyed by name and source checksum: an
    app built again (every test builds one) does not compile the board page again."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


_BYTECODE = _ProcessBytecodeCache()


def configured_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The Flask app with its settings and nothing else (no database opened, no views): what
    ``create_app`` builds on, and where the command line reads the settings (``backup``)."""
    app = Flask(
        __name__,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
        instance_relative_config=True,
    )
    app.config.from_mapping(
        DATABASE=str(Path(app.instance_path) / "terminus.sqlite3"),
        MAX_CONTENT_LENGTH=MAX_CONTENT_LENGTH,
        MAX_FORM_MEMORY_SIZE=MAX_CONTENT_LENGTH,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        HTMX_VERSION=HTMX_VERSION,
        BABEL_TRANSLATION_DIRECTORIES=str(ROOT / "translations"),
        POLL_SECONDS=2,
        # The records of every game for the server's own machine (security.host_view): only
        # where TERMINUS_HOST_VIEW=true says so, as make run does.
        HOST_VIEW=False,
    )
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env("TERMINUS")
    if config:
        app.config.update(config)
    return app


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; ``config`` overrides everything (tests pass DATABASE, SECRET_KEY...)."""
    app = configured_app(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))

    from scorer.web import (
        api,
        assets,
        common,
        db,
        devices,
        games,
        i18n,
        play,
        records,
        results,
        scan,
        security,
        share,
    )

    app.jinja_env.bytecode_cache = _BYTECODE
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep the spec's field order
    db.init_app(app)
    i18n.init_app(app)
    security.init_app(app)
    common.init_app(app)
    assets.init_app(app)
    devices.init_app(app)
    for module in (games, play, results, records, share, api):
        app.register_blueprint(module.bp)
    scan.init_app(app)
    return app


def _instance_secret(instance: Path) -> str:
    """A secret kept in the instance folder, so sessions survive a restart."""
    path = instance / "secret_key"
    if path.exists():
        return path.read_text().strip()
    instance.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another worker wrote it first
        return path.read_text().strip()
    with os.fdopen(fd, "w") as out:
        out.write(key)
    return key


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the app with Flask's threaded server (enough for one table). Says which address the
    phones should open, with a QR code of it, and gives the share page that address."""
    from scorer.web import lan

    message, url = lan.announce(host, port, lan.lan_address())
    app = create_app()
    if url:  # the share page's links for phones (PUBLIC_URL, when set, still wins)
        app.config.setdefault("LAN_URL", url)
    print(message, flush=True)
    if url:
        print(lan.terminal_qr(url), flush=True)
    app.run(host=host, port=port, threaded=True)
