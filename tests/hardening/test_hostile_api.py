"""Hostile game files through the JSON API (POST /api/games): whatever the body, the answer is
201 or a 4xx with {"error": ...}, never a 500; and a game the API accepted renders on every page.

The core's own fuzzing (tests/core/test_fuzz.py) covers Game.from_json; this covers the HTTP
edge: raw bytes, JSON that Python reads but the web cannot write back, mutations of real games.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.web import create_app
from tests.hardening.databases import app_config

REFUSALS = {400, 413, 415, 422}
FUZZ = settings(max_examples=60, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def client(tmp_path_factory):  # type: ignore[no-untyped-def]
    app = create_app({**app_config(tmp_path_factory.mktemp("api")), "SECRET_KEY": "hostile-api"})
    return app.test_client()


def post(client, body: bytes, content_type: str = "application/json"):  # type: ignore[no-untyped-def]
    return client.post("/api/games", data=body, content_type=content_type)


def check_answer(client, answer) -> None:  # type: ignore[no-untyped-def]
    """201 with a game that every page can show, or a refusal that says why in JSON."""
    if answer.status_code == 201:
        game_id = answer.get_json()["id"]
        share = re.search(r"/watch/([\w-]+)", client.get(f"/games/{game_id}/share").text)
        pages = [f"/games/{game_id}", f"/games/{game_id}/results", f"/api/games/{game_id}",
                 f"/api/games/{game_id}/score", f"/games/{game_id}/export.json", "/",
                 f"/watch/{share.group(1)}"]
        for page in pages:
            assert client.get(page).status_code == 200, page
        return
    assert answer.status_code in REFUSALS, (answer.status_code, answer.text[:300])
    error = answer.get_json()["error"]
    assert isinstance(error, str) and error


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                 max_size=4),
    max_leaves=24,
)

VALID = [
    {"variant": "europe", "name": "Friday",
     "players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"},
                 {"name": "Cleo", "color": "green"}],
     "claims": [{"player": "Ann", "route": "paris--zurich"},
                {"player": "Bob", "from": "Zürich", "to": "München"},
                {"player": "Cleo", "from": "berlin", "to": "frankfurt", "color": "green"}],
     "stations": [{"player": "Ann", "city": "Wien"}],
     "tickets": [{"player": "Ann", "from": "Paris", "to": "Wien"},
                 {"player": "Bob", "from": "Wien", "to": "Berlin", "points": 5}]},
    {"variant": "express",
     "players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}],
     "claims": [{"player": "Bob", "route": "denver--omaha"}],
     "tickets": [{"player": "Ann", "from": "Denver", "to": "El Paso"}],
     "express_bonus_values": [20, 15, 10, 5], "express_order": ["Bob", "Ann"]},
    {"variant": "usa",
     "players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}],
     "claims": [{"player": "Ann", "from": "Seattle", "to": "Portland"}]},
]


def paths(document: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON document, as a tuple of keys and indexes."""
    found = [prefix]
    if isinstance(document, dict):
        for key, value in document.items():
            found += paths(value, (*prefix, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += paths(value, (*prefix, index))
    return found


@st.composite
def mutated_games(draw: st.DrawFn) -> Any:
    """A valid game file with a few of its values replaced, dropped or duplicated."""
    document = copy.deepcopy(draw(st.sampled_from(VALID)))
    for _ in range(draw(st.integers(1, 3))):
        place = draw(st.sampled_from(paths(document)))
        if not place:
            continue
        parent = document
        try:
            for key in place[:-1]:
                parent = parent[key]
            last = place[-1]
            operation = draw(st.sampled_from(["replace", "drop", "duplicate", "wrap"]))
            if operation == "replace":
                parent[last] = draw(json_values | st.sampled_from(
                    ["", "Ann", "ann", "paris--zurich", "Gotham", -1, 0, 10**30, 1e308, None]))
            elif operation == "drop":
                del parent[last]
            elif operation == "duplicate" and isinstance(parent, list):
                parent.insert(last, copy.deepcopy(parent[last]))
            else:
                parent[last] = [parent[last]]
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation moved this place
    return document


@FUZZ
@given(mutated_games())
def test_a_mutated_game_file_is_created_or_refused_with_an_error(client, document):
    check_answer(client, post(client, json.dumps(document).encode()))


@FUZZ
@given(json_values)
def test_any_json_document_is_created_or_refused_with_an_error(client, document):
    check_answer(client, post(client, json.dumps(document).encode()))


@FUZZ
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_any_bytes_are_refused_with_an_error(client, body):
    check_answer(client, post(client, body))


@FUZZ
@given(st.sampled_from([b"NaN", b"Infinity", b"-Infinity", b"1e999", b'"\\u0000"', b"{}",
                        b"[]", b'{"variant": NaN}', b'{"variant": "usa", "variant": "mars"}',
                        b"\xef\xbb\xbf{}", b'{"players": 1e999}']),
       st.sampled_from(["application/json", "application/json; charset=latin-1",
                        "text/plain", "application/x-www-form-urlencoded", ""]))
def test_odd_json_literals_and_content_types_are_refused_with_an_error(client, body, ctype):
    answer = post(client, body, ctype)
    if not ctype.startswith("application/json"):
        assert answer.status_code == 415
    check_answer(client, answer)


def test_a_game_file_of_the_largest_allowed_size_is_taken_and_a_larger_one_refused(client):
    game = copy.deepcopy(VALID[2])
    game["padding"] = "x" * (250 * 1024)
    check_answer(client, taken := post(client, json.dumps(game).encode()))
    assert taken.status_code == 201
    game["padding"] = "x" * (300 * 1024)
    refused = post(client, json.dumps(game).encode())
    assert refused.status_code == 413
    assert refused.get_json()["error"]


def test_a_name_the_api_does_not_know_is_a_404_in_json(client):
    answer = client.get("/api/games/no-such-game/score")
    assert answer.status_code == 404
    assert answer.get_json()["error"]


def test_deeply_nested_json_is_refused_not_a_500(client):
    check_answer(client, post(client, b"[" * 50_000 + b"]" * 50_000))


def test_a_lone_surrogate_in_a_player_name_is_refused_or_shown(client):
    body = (b'{"variant": "usa", "players": [{"name": "Ann\\ud800", "color": "red"},'
            b' {"name": "Bob", "color": "blue"}]}')
    check_answer(client, post(client, body))


def test_a_lone_surrogate_in_the_game_name_is_refused(client):
    body = (b'{"name": "\\udfff", "variant": "usa", "players": [{"name": "Ann", "color": '
            b'"red"}, {"name": "Bob", "color": "blue"}]}')
    check_answer(client, post(client, body))
