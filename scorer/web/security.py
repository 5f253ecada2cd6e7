"""CSRF tokens for pages and forms, the same-origin rule of the JSON API, response headers,
and where the server is reached from.

Behind a proxy or on the Internet, the ``Host`` header is the client's to write: with
``PUBLIC_URL`` set (``https://scores.example.org``) the share and QR links are built on it and
the API's same-origin rule compares with it, never with ``Host``; Flask's ``TRUSTED_HOSTS``
refuses other hosts outright (400). Behind a proxy that ends TLS, waitress takes the client's
address and scheme from the proxy's ``X-Forwarded-*`` headers when told to trust it
(``--trusted-proxy``, see the README). Cookies are ``Secure`` whenever the page was served over
TLS (directly, through a trusted proxy, or with a ``PUBLIC_URL`` in https).

The host view (the records of every game on the server, ``host_view``) is decided here and
nowhere else: by the ``HOST_VIEW`` setting, never by headers alone.
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlsplit

from flask import Flask, abort, request, session, url_for
from flask.sessions import SecureCookieSessionInterface

from scorer.web import lan

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"


def csrf_token() -> str:
    """The session's token, made on first use; forms carry it, htmx sends it as a header."""
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(32)
    return token


def _check_csrf() -> None:
    if request.method in SAFE_METHODS:
        return
    if request.blueprint == "api":
        _check_api_request()
        return
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD, "")
    expected = session.get("csrf", "")
    if not expected or not hmac.compare_digest(str(sent), expected):
        abort(400, description="csrf")


def _check_api_request() -> None:
    """The JSON API has no token: it takes only JSON bodies and refuses other sites."""
    origin = request.headers.get("Origin")
    if origin and origin != "null":
        if urlsplit(origin).netloc.lower() != own_host():
            abort(403, description="cross-origin")
    elif origin == "null":
        abort(403, description="cross-origin")
    if request.mimetype != "application/json":
        abort(415, description="json-only")


def _headers(response):  # type: ignore[no-untyped-def]
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; frame-ancestors 'none'; form-action 'self'",
    )
    return response


def own_host() -> str:
    """This site's host[:port] as its visitors reach it: from PUBLIC_URL when configured."""
    from flask import current_app

    public = current_app.config.get("PUBLIC_URL")
    return (urlsplit(public).netloc if public else request.host).lower()


def external_url(endpoint: str, **values: str) -> str:
    """A full link to give away (share link, QR code): on PUBLIC_URL when configured."""
    from flask import current_app

    public = current_app.config.get("PUBLIC_URL")
    if not public:
        return url_for(endpoint, _external=True, **values)
    return public.rstrip("/") + url_for(endpoint, **values)


# Headers a proxy adds to what it passes on. Any of them refuses the host view; their absence
# proves nothing, as waitress removes X-Forwarded-* and Forwarded from a peer it does not trust
# before the app sees them, and a proxy need not add any (nginx's proxy_pass adds none).
_PROXY_HEADERS = ("Forwarded", "X-Real-IP", "Via")


def host_view() -> bool:
    """Whether this request sees every game of the server (the records' host view).

    Only where the setting ``HOST_VIEW`` is true (``TERMINUS_HOST_VIEW=true``: ``make run``
    sets it, ``make serve`` keeps it off, and so does every other way to start the app), and
    then only for a page asked for on the server's own machine: from a loopback address, at a
    loopback host name (http://127.0.0.1:8000), with no proxy header. A proxy on the same
    machine makes every visitor a loopback peer, at whatever Host it sends, and the headers
    that would tell are not always there (see ``_PROXY_HEADERS``): hence the setting, on only
    for the table's own server, which no proxy fronts. Whoever sits at that machine can read
    the database anyway.
    """
    from flask import current_app

    if current_app.config.get("HOST_VIEW") is not True:
        return False
    proxied = any(name in request.headers for name in _PROXY_HEADERS) or any(
        name.lower().startswith("x-forwarded-") for name in request.headers.keys())
    return (not proxied and lan.is_loopback(request.remote_addr or "")
            and lan.is_loopback(urlsplit(request.host_url).hostname or ""))


def served_over_tls() -> bool:
    from flask import current_app

    return request.is_secure or str(current_app.config.get("PUBLIC_URL", "")).startswith("https:")


class _SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, its cookie ``Secure`` when the page came over TLS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or served_over_tls()


def _refuse_nul() -> None:
    """A NUL in the query or a form field: no text field takes one (PostgreSQL could not even
    store it), so the request is refused before any view reads it. (The path's game ids and
    share tokens are checked for their form before any query, its route and city names are
    looked up on the board.)"""
    if any("\x00" in k or "\x00" in v for k, v in request.args.items(multi=True)):
        abort(400, description="nul")
    if request.method not in SAFE_METHODS and request.mimetype in (
            "application/x-www-form-urlencoded", "multipart/form-data"):
        if any("\x00" in k or "\x00" in v for k, v in request.form.items(multi=True)):
            abort(400, description="nul")


def init_app(app: Flask) -> None:
    app.config.setdefault("PUBLIC_URL", "")
    app.session_interface = _SessionInterface()
    app.before_request(_refuse_nul)
    app.before_request(_check_csrf)
    app.after_request(_headers)
    app.jinja_env.globals["csrf_token"] = csrf_token
