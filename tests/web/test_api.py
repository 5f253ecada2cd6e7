"""The JSON API of the spec: POST /api/games, GET /api/games/<id>/score, and its errors."""

from __future__ import annotations

from scorer.game import Game
from scorer.scoring import score
from tests.web.conftest import players

SPEC_EXAMPLE = {
    "variant": "europe",
    "players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}],
    "claims": [
        {"player": "Ann", "route": "paris--zurich"},
        {"player": "Bob", "from": "Zürich", "to": "München"},
        {"player": "Ann", "from": "berlin", "to": "frankfurt", "color": "green"},
    ],
    "stations": [{"player": "Ann", "city": "Zurich"}],
    "tickets": [
        {"player": "Ann", "from": "Paris", "to": "Wien"},
        {"player": "Bob", "from": "Wien", "to": "Berlin", "points": 5},
    ],
}


def test_posting_a_game_file_answers_201_with_id_and_url(client):
    answer = client.raw.post("/api/games", json=SPEC_EXAMPLE)
    assert answer.status_code == 201
    body = answer.get_json()
    assert set(body) == {"id", "url"}
    assert body["url"] == f"/games/{body['id']}"
    assert len(body["id"]) >= 20
    assert client.get(body["url"]).status_code == 200


def test_the_score_is_exactly_the_core_score(client):
    game = client.api_game(SPEC_EXAMPLE)
    answer = client.raw.get(f"/api/games/{game}/score")
    assert answer.status_code == 200
    assert answer.get_json() == score(Game.from_json(SPEC_EXAMPLE)).to_json()
    assert list(answer.get_json()) == ["variant", "players", "winners", "tiebreak"]


def test_the_game_file_can_be_read_back(client):
    game = client.api_game(SPEC_EXAMPLE)
    data = client.raw.get(f"/api/games/{game}").get_json()
    assert Game.from_json(data).to_json() == Game.from_json(SPEC_EXAMPLE).to_json()


def test_invalid_input_answers_400_or_422_with_an_error_message(client):
    cases = [
        (b"{not json", 400, "not valid JSON"),
        (b"[1, 2]", 400, "JSON object"),
        (b'{"variant": "monopoly", "players": []}', 422, "Unknown variant"),
        (b'{"variant": "usa", "players": [{"name": "A", "color": "red"}]}', 422, "not 1"),
    ]
    for body, status, text in cases:
        answer = client.raw.post("/api/games", data=body, content_type="application/json")
        assert answer.status_code == status, body
        assert text in answer.get_json()["error"], body
    twice = dict(SPEC_EXAMPLE, claims=[{"player": "Ann", "route": "paris--zurich"},
                                       {"player": "Bob", "route": "paris--zurich"}])
    answer = client.raw.post("/api/games", json=twice)
    assert answer.status_code == 422
    assert "already claimed by Ann" in answer.get_json()["error"]


def test_unknown_games_are_json_404s(client):
    answer = client.raw.get("/api/games/nope/score")
    assert answer.status_code == 404 and "error" in answer.get_json()


def test_the_api_takes_only_json_bodies(client):
    answer = client.raw.post("/api/games", data={"variant": "usa"})
    assert answer.status_code == 415
    assert "JSON" in answer.get_json()["error"]
    plain = client.raw.post("/api/games", data="{}", content_type="text/plain")
    assert plain.status_code == 415


def test_the_api_refuses_another_sites_origin_and_accepts_its_own(client):
    body = {"variant": "usa", "players": players("A:red", "B:blue")}
    other = client.raw.post("/api/games", json=body, headers={"Origin": "https://evil.example"})
    assert other.status_code == 403 and "another site" in other.get_json()["error"]
    null = client.raw.post("/api/games", json=body, headers={"Origin": "null"})
    assert null.status_code == 403
    same = client.raw.post("/api/games", json=body, headers={"Origin": "http://localhost"})
    assert same.status_code == 201


def test_deep_nesting_and_lone_surrogates_are_refused_not_stored(client):
    deep = client.raw.post("/api/games", data=b"[" * 50_000 + b"]" * 50_000,
                           content_type="application/json")
    assert deep.status_code == 400 and "not valid JSON" in deep.get_json()["error"]
    body = (b'{"name": "\\udfff", "variant": "usa", "players": [{"name": "Ann\\ud800", '
            b'"color": "red"}, {"name": "Bob", "color": "blue"}]}')
    lone = client.raw.post("/api/games", data=body, content_type="application/json")
    assert lone.status_code == 400 and "lone surrogate" in lone.get_json()["error"]
    assert client.get("/").status_code == 200
    pasted = client.post("/games/import", {"json": "[" * 20_000 + "]" * 20_000})
    assert pasted.status_code == 422 and "not valid JSON" in pasted.text
