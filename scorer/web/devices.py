"""Devices: each table sees only its own games.

A device (a phone's or computer's browser) carries a random id in a long-lived cookie. The games
it made, or opened by their link or QR code, are written down against that id, and the history
(the home page) lists those only: the unguessable game ids stay the only way into a game, and
nothing lists another table's games. A device that opened only the read-only link lists the
game with that link, never with the edit link.

Games made before devices were told apart stay listed on every device (``OLD_GAMES = "listed"``,
the default: a home server loses nothing); a server that hosts strangers sets ``OLD_GAMES`` to
``"by-link"`` to list them only on the devices that open them.

New games are limited per client address (``GAMES_PER_HOUR``): a script cannot fill the disk
with games.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections import deque

from flask import Flask, g, request
from werkzeug.wrappers import Response

from scorer.messages import N_
from scorer.web import store
from scorer.web.db import get_db
from scorer.web.security import served_over_tls

COOKIE = "device"
_WELL_FORMED = re.compile(r"^[A-Za-z0-9_-]{24,64}$")
TOO_MANY_GAMES = N_("Too many new games from this network in the last hour: try again later.")
COOKIE_DAYS = 400  # the longest browsers keep a cookie; renewed on each visit of the history


def device_id() -> str:
    """This device's id: from its cookie, or a new one (sent with the response)."""
    if "device" not in g:
        sent = request.cookies.get(COOKIE, "")
        if _WELL_FORMED.match(sent):
            g.device, g.new_device = sent, False
        else:
            g.device, g.new_device = secrets.token_urlsafe(24), True
    return g.device


def remember(stored: store.StoredGame, role: str) -> None:
    """A page of the game was opened by its edit link ("edit") or read-only link ("watch")."""
    if request.method == "GET" and request.headers.get("HX-Request") != "true":
        store.join(get_db(), device_id(), stored.id, role)


def old_games_listed(app: Flask) -> bool:
    return str(app.config["OLD_GAMES"]).lower() == "listed"


def _set_cookie(response: Response) -> Response:
    if g.get("new_device") or (request.endpoint == "games.index" and "device" in g):
        response.set_cookie(COOKIE, g.device, max_age=COOKIE_DAYS * 24 * 3600, httponly=True,
                            samesite="Lax", secure=served_over_tls())
    return response


class _Limiter:
    """At most ``count`` events per address in the last hour (in this process)."""

    def __init__(self) -> None:
        self.events: dict[str, deque[float]] = {}
        self.lock = threading.Lock()

    def allow(self, key: str, count: int) -> bool:
        now = time.monotonic()
        with self.lock:
            if len(self.events) > 10_000:  # addresses gone quiet: forget them
                self.events = {k: v for k, v in self.events.items() if v and v[-1] > now - 3600}
            times = self.events.setdefault(key, deque())
            while times and times[0] <= now - 3600:
                times.popleft()
            if len(times) >= count:
                return False
            times.append(now)
            return True


def may_create_game(app: Flask) -> bool:
    """False when this client address made GAMES_PER_HOUR games in the last hour."""
    limiter = app.extensions["terminus_new_games"]
    return limiter.allow(request.remote_addr or "", int(app.config["GAMES_PER_HOUR"]))


def init_app(app: Flask) -> None:
    app.config.setdefault("OLD_GAMES", "listed")
    app.config.setdefault("GAMES_PER_HOUR", 120)
    app.extensions["terminus_new_games"] = _Limiter()
    app.after_request(_set_cookie)

