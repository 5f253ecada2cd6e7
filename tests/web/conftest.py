"""Fixtures for the web tests: an app on a temporary database, a client that knows its CSRF
token, and helpers to make games and to tap like htmx does."""

from __future__ import annotations

import html as html_lib
import io
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer.web import create_app
from tests.hardening.databases import app_config


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:  # type: ignore[no-untyped-def]
    app = create_app({
        "TESTING": True,
        **app_config(tmp_path),
        "SECRET_KEY": "web-tests",
    })
    yield app


class Client:
    """A test client that reads the CSRF token from a page and sends it like the app does."""

    def __init__(self, client: FlaskClient) -> None:
        self.raw = client
        page = client.get("/")
        self.token = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)

    def get(self, url: str, **kwargs: Any):  # type: ignore[no-untyped-def]
        return self.raw.get(url, **kwargs)

    def post(self, url: str, data: dict | None = None, **kwargs: Any):  # type: ignore[no-untyped-def]
        data = {"csrf_token": self.token, **(data or {})}
        return self.raw.post(url, data=data, **kwargs)

    def hx(self, url: str, data: dict | None = None, **kwargs: Any):  # type: ignore[no-untyped-def]
        """A POST as htmx sends it: the token in a header, HX-Request set."""
        headers = {"HX-Request": "true", "X-CSRF-Token": self.token}
        return self.raw.post(url, data=data or {}, headers=headers, **kwargs)

    def api_game(self, game_file: dict[str, Any]) -> str:
        response = self.raw.post("/api/games", json=game_file)
        assert response.status_code == 201, response.get_json()
        return response.get_json()["id"]


@pytest.fixture
def client(app: Flask) -> Client:
    return Client(app.test_client())


def players(*names_colors: str) -> list[dict[str, str]]:
    pairs = [n.split(":") for n in names_colors]
    return [{"name": n, "color": c} for n, c in pairs]


@pytest.fixture
def europe(client: Client) -> str:
    """A 3-player Europe game with nothing claimed yet."""
    return client.api_game({"variant": "europe",
                            "players": players("Ann:red", "Bob:blue", "Cleo:green")})


@pytest.fixture
def usa(client: Client) -> str:
    """A 2-player USA game (one lane of each double closes when the other is taken)."""
    return client.api_game({"variant": "usa", "players": players("Ann:red", "Bob:blue")})


def message(html: str) -> str:
    """The text of the message bar in an answer."""
    found = re.search(r'<p class="msg [^"]*"[^>]*>([^<]*)</p>', html)
    return html_lib.unescape(found.group(1)) if found else ""


def lane_class(html: str, route_id: str) -> str:
    found = re.search(r'class="([^"]*)" data-route-id="' + re.escape(route_id) + '"', html)
    assert found, f"no lane {route_id}"
    return found.group(1)


def reimported(client: Client, game_id: str) -> str:
    """The game exported as its JSON file and imported again: the new game's id, after checking
    that it scores the same."""
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    answer = client.post("/games/import", {"file": (io.BytesIO(json.dumps(exported).encode()),
                                                    "game.json")},
                         content_type="multipart/form-data")
    assert answer.status_code == 303
    again = answer.headers["Location"].rsplit("/", 1)[1]
    assert (client.get(f"/api/games/{again}/score").get_json()
            == client.get(f"/api/games/{game_id}/score").get_json())
    return again
