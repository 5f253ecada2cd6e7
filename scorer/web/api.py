"""The JSON API of the spec: create a game from a game file, read its score.

No CSRF token here: ``security`` lets through only JSON bodies (a cross-site form cannot send
them) and refuses an ``Origin`` naming another site. Errors answer ``{"error": message}``.
"""

from __future__ import annotations

import re

from flask import Blueprint, abort, current_app, jsonify, request, url_for

from scorer.errors import ScorerError
from scorer.game import Game
from scorer.web import store
from scorer.web.common import check_game_name, parse_json, scoresheet
from scorer.web.db import get_db
from scorer.web.devices import TOO_MANY_GAMES, device_id, may_create_game

bp = Blueprint("api", __name__, url_prefix="/api")


def _error(message: str, status: int):  # type: ignore[no-untyped-def]
    return jsonify(error=message), status


@bp.post("/games")
def create_game():  # type: ignore[no-untyped-def]
    try:
        data = parse_json(request.get_data())
    except ValueError as exc:
        return _error(str(exc), 400)
    if not isinstance(data, dict):
        return _error("A game file must be a JSON object.", 400)
    try:
        game = Game.from_json(data)
    except ScorerError as exc:
        return _error(str(exc), 422)
    if not may_create_game(current_app):
        return _error(TOO_MANY_GAMES, 429)
    try:
        name = check_game_name(data.get("name") if isinstance(data.get("name"), str) else "")
    except ValueError as exc:
        return _error(str(exc), 422)
    game_id = store.create(get_db(), game, name, store.actions_of(game), device=device_id())
    return jsonify(id=game_id, url=url_for("play.game_page", game_id=game_id)), 201


def _stored(game_id: str) -> store.StoredGame:
    db = get_db()
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", game_id):
        abort(404, description="no-game")
    stored = store.load(db, game_id) or store.load(db, game_id, by_share=True)
    if stored is None:
        abort(404, description="no-game")
    return stored


@bp.get("/games/<game_id>/score")
def game_score(game_id: str):  # type: ignore[no-untyped-def]
    return jsonify(scoresheet(_stored(game_id)).to_json())


@bp.get("/games/<game_id>")
def game_file(game_id: str):  # type: ignore[no-untyped-def]
    return jsonify(_stored(game_id).game.to_json())
