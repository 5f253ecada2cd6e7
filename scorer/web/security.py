"""CSRF tokens for pages and forms, the same-origin rule of the JSON API, response headers."""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlsplit

from flask import Flask, abort, request, session

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
        if urlsplit(origin).netloc.lower() != request.host.lower():
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


def init_app(app: Flask) -> None:
    app.before_request(_check_csrf)
    app.after_request(_headers)
    app.jinja_env.globals["csrf_token"] = csrf_token
