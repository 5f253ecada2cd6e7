"""Sharing: a read-only link (its own token) with a QR code, and the live read-only pages."""

from __future__ import annotations

from urllib.parse import urlsplit

import segno
from flask import Blueprint, Response, current_app, render_template, request, url_for
from markupsafe import Markup

from scorer.web import lan
from scorer.web.common import (
    changes,
    get_game,
    get_shared,
    is_htmx,
    live_context,
    shown_at,
)

bp = Blueprint("share", __name__)


def qr_svg(text: str) -> Markup:
    """A QR code as inline SVG, made on the server (works offline)."""
    svg = segno.make(text, error="m").svg_inline(border=2, dark="#1b1b1b", omitsize=True)
    return Markup(svg)


def reachable_base() -> tuple[str, bool]:
    """The start of links other phones can open, and whether it is only this computer's.

    A configured PUBLIC_URL always (never the request's Host, see ``security``). Otherwise a
    page asked for at 127.0.0.1 or localhost would give the other phones a link to themselves:
    the server's address on the network (LAN_URL, which ``make run`` sets) is used instead;
    without one the link is kept and the page warns.
    """
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return str(public).rstrip("/"), False
    if not lan.is_loopback(urlsplit(request.host_url).hostname or ""):
        return request.host_url.rstrip("/"), False
    local = current_app.config.get("LAN_URL")
    if local:
        return str(local).rstrip("/"), False
    return request.host_url.rstrip("/"), True


@bp.get("/games/<game_id>/share")
def share_page(game_id: str) -> str:
    stored = get_game(game_id)
    base, local_only = reachable_base()
    watch_url = base + url_for("share.watch", share=stored.share)
    return render_template(
        "pages/share.html", stored=stored, watch_url=watch_url, qr=qr_svg(watch_url),
        edit_url=base + url_for("play.game_page", game_id=stored.id), local_only=local_only,
    )


@bp.get("/watch/<share>")
def watch(share: str) -> str:
    stored = get_shared(share)
    return render_template("pages/watch.html", **live_context(stored, editable=False))


@bp.get("/watch/<share>/live")
def watch_live(share: str) -> Response | tuple[str, int]:
    """Polled every few seconds by the read-only page: 204 while nothing changed."""
    stored = get_shared(share)
    if request.args.get("v", type=int) == stored.version:
        return Response(status=204)
    context = live_context(stored, editable=False)
    if not is_htmx():
        return render_template("pages/watch.html", **context), 200
    # Only what changed since the version the page shows, when this process sent it that
    # state, as the game page's poll does.
    shown = shown_at(stored.id, request.args.get("v", type=int))
    if shown is not None:
        context["changes"] = changes(shown, stored, "", "")
    return render_template("partials/_live.html", oob=True, poll=True, **context), 200
