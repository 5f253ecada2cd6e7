"""Error pages: a plain heading in the player's language, a sentence, a way back, the status."""

from __future__ import annotations

import html
import re

import pytest

from tests.web.conftest import Client

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}


@pytest.fixture
def failing_client(app):
    """A client of an app with one page that fails, answered as in production (no traceback
    handed to the test)."""
    def broken():
        raise RuntimeError("a bug")

    app.add_url_rule("/broken", view_func=broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    return Client(app.test_client())


def heading(page: str) -> str:
    return html.unescape(re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S).group(1).strip())


REQUESTS = {
    "a deleted game": lambda c, h: c.get("/games/no-such-game", headers=h),
    "a deleted game's watch link": lambda c, h: c.get("/watch/no-such-share", headers=h),
    "a mistyped address": lambda c, h: c.get("/no/such/page", headers=h),
    "a form without its token": lambda c, h: c.raw.post("/games/new", data={"name_0": "Ann"},
                                                         headers=h),
    "a form too big": lambda c, h: c.post("/games/new", data={"name_0": "x" * 300_000},
                                          headers=h),
    "a bug": lambda c, h: c.get("/broken", headers=h),
}


@pytest.mark.parametrize(
    ("request_name", "status", "english", "french"),
    [
        ("a deleted game", 404, "Game not found", "Partie introuvable"),
        ("a deleted game's watch link", 404, "Game not found", "Partie introuvable"),
        ("a mistyped address", 404, "Page not found", "Page introuvable"),
        ("a form without its token", 400, "Page expired", "Page expirée"),
        ("a form too big", 413, "Too much data", "Trop de données"),
        ("a bug", 500, "Something went wrong", "Quelque chose s'est mal passé"),
    ],
)
def test_an_error_page_says_what_happened_in_words_and_links_back(
        failing_client, request_name, status, english, french):
    for headers, title in (({}, english), (FRENCH, french)):
        answer = REQUESTS[request_name](failing_client, headers)
        assert answer.status_code == status
        assert heading(answer.text) == title
        assert re.search(r'<p class="error-text" data-error>[^<]{20,}</p>', answer.text)
        assert 'href="/"' in answer.text  # back to the games list
        assert "Traceback" not in answer.text and "a bug" not in answer.text


def test_the_api_keeps_answering_errors_as_json(client):
    answer = client.get("/api/games/no-such-game/score")
    assert answer.status_code == 404
    assert "deleted" in answer.get_json()["error"]
