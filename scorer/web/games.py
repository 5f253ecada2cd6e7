"""Games as a whole: the history (home page), new game, import/export, rename, delete, language."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from scorer.errors import ScorerError
from scorer.game import MAX_NAME_LENGTH, Game, Player
from scorer.messages import Names
from scorer.rules import EXPRESS, PIECE_COLORS, VARIANTS
from scorer.web import store
from scorer.web.common import (
    back_to,
    check_game_name,
    flash_message,
    get_game,
    parse_json,
    refuse,
    safe_next,
)
from scorer.web.db import get_db
from scorer.web.devices import TOO_MANY_GAMES, device_id, may_create_game, old_games_listed
from scorer.web.i18n import COOKIE, LANGUAGES, _
from scorer.web.security import served_over_tls

bp = Blueprint("games", __name__)

MAX_PLAYERS = max(v.max_players for v in VARIANTS.values())
MAX_VARIANT_NAME = max(len(name) for name in VARIANTS)
BONUS_CARDS = 4


@bp.get("/")
def index() -> str:
    return render_template("pages/index.html", games=_history())


def _history() -> list[store.GameSummary]:
    """This device's games (see ``devices``)."""
    return store.history(get_db(), device_id(), old=old_games_listed(current_app))


def _form_setup() -> dict[str, Any]:
    """The new-game form as typed (kept to show it again after an error)."""
    form = request.form
    players = [
        {"name": form.get(f"name_{i}", "").strip()[:MAX_NAME_LENGTH + 1],
         "color": form.get(f"color_{i}", "")[:10]}
        for i in range(MAX_PLAYERS)
    ]
    return {
        "variant": form.get("variant", "")[:MAX_VARIANT_NAME + 1],
        "name": form.get("game_name", "").strip()[: store.MAX_GAME_NAME + 1],
        "players": players,
        "bonus": [form.get(f"bonus_{i}", "").strip()[:4] for i in range(BONUS_CARDS)],
        "no_longest_bonus": form.get("no_longest_bonus") == "1",
    }


def _new_form(setup: dict[str, Any] | None = None, error: str | None = None, status: int = 200):
    if setup is None:
        setup = {
            "variant": next(iter(VARIANTS)), "name": "",
            "players": [{"name": "", "color": c} for c in PIECE_COLORS],
            "bonus": [str(v) for v in EXPRESS.express_values],
            "no_longest_bonus": False,
        }
    return render_template(
        "pages/new.html", setup=setup, error=error, colors=PIECE_COLORS,
        recent=store.recent_names(get_db(), device_id()),
    ), status


@bp.get("/games/new")
def new_game() -> tuple[str, int]:
    refused = session.pop(_REFUSED_FORM, None)
    if isinstance(refused, dict) and "setup" in refused:
        return _new_form(refused["setup"], refused.get("error"), 422)
    return _new_form()


_REFUSED_FORM = "new_game_refused"


def _refuse_form(setup: dict[str, Any], error: str) -> Response:
    """The refused form is shown again by a redirect to the new-game page (kept in the
    session for it): a reload of the page then shows the form, not "resend the form?"."""
    session[_REFUSED_FORM] = {"setup": setup, "error": error}
    return redirect(url_for("games.new_game"), code=303)


@bp.post("/games")
def create_game() -> Response:
    setup = _form_setup()
    variant = VARIANTS.get(setup["variant"])
    if variant is None:
        titles = Names(tuple(_(v.title) for v in VARIANTS.values()), "or")
        return _refuse_form(setup, _("Choose {variants}.", variants=titles.render(_)))
    players = [Player(p["name"], p["color"]) for p in setup["players"] if p["name"]]
    values = None
    if variant.express_cards:
        try:
            values = [int(v) for v in setup["bonus"]]
        except ValueError:
            return _refuse_form(setup, _("Bonus card values are whole numbers."))
    try:
        # The box is shown for the sets with a longest-path card only; ticked, it drops the card.
        game = Game.new(variant, players, values, False if setup["no_longest_bonus"] else None)
        name = check_game_name(setup["name"])
    except ScorerError as exc:
        return _refuse_form(setup, refuse(exc))
    except ValueError as exc:
        return _refuse_form(setup, str(exc))
    if not may_create_game(current_app):
        return _new_form(setup, _(TOO_MANY_GAMES), 429)
    game_id = store.create(get_db(), game, name, device=device_id())
    return redirect(url_for("play.game_page", game_id=game_id), code=303)


@bp.post("/games/import")
def import_game() -> Response | tuple[str, int]:
    """A game file of the spec, uploaded or pasted, becomes a new game (its log rebuilt)."""
    upload = request.files.get("file")
    text = upload.read().decode("utf-8", "replace") if upload and upload.filename else ""
    text = text or request.form.get("json", "")
    name = request.form.get("game_name", "") or _file_title(upload.filename if upload else "")
    try:
        data = parse_json(text)
    except ValueError as exc:
        if not text.strip():
            return _index_error(_("Choose a game file or paste one first."))
        return _index_error(_("This is not a game file: {reason} Was it copied whole?",
                              reason=_lower_first(_(str(exc)))))
    try:
        game = Game.from_json(data)
    except ScorerError as exc:
        return _index_error(refuse(exc))
    if not request.form.get("game_name") and isinstance(data.get("name"), str):
        name = data["name"]  # an export's own name wins over its file name
    try:
        name = check_game_name(name)
    except ValueError as exc:
        return _index_error(str(exc))
    if not may_create_game(current_app):
        return _index_error(_(TOO_MANY_GAMES), 429)
    game_id = store.create(get_db(), game, name, store.actions_of(game), device=device_id())
    flash_message(_("Game imported."))
    return redirect(url_for("play.game_page", game_id=game_id), code=303)


def _file_title(filename: str | None) -> str:
    """A game name from the imported file's name: what a person could have typed of it."""
    title = (filename or "").rsplit(".", 1)[0]
    return "".join(c for c in title if c.isprintable())[: store.MAX_GAME_NAME]


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _index_error(message: str, status: int = 422) -> tuple[str, int]:
    return render_template("pages/index.html", games=_history(), import_error=message), status


@bp.get("/games/<game_id>/export.json")
def export(game_id: str) -> Response:
    stored = get_game(game_id)
    # The game's name goes with it (an optional field of the game file, read back on import).
    body = json.dumps({"name": stored.name, **stored.game.to_json()}, ensure_ascii=False,
                      indent=1)
    filename = re.sub(r"[^A-Za-z0-9._-]+", "-", stored.name).strip("-") or "game"
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="{filename}.json"'})


@bp.post("/games/<game_id>/rename")
def rename(game_id: str) -> Response:
    get_game(game_id)
    try:
        name = check_game_name(request.form.get("name", ""))
    except ValueError as exc:
        flash_message(str(exc), error=True)
    else:
        if store.rename(get_db(), game_id, name):
            flash_message(_("Game renamed."))
        else:
            flash_message(_("A game needs a name."), error=True)
    if request.form.get("back") == "history":
        return back_to("games.index")
    return back_to("play.game_page", game_id=game_id)


@bp.get("/games/<game_id>/delete")
def confirm_delete(game_id: str) -> str:
    return render_template("pages/delete.html", stored=get_game(game_id))


@bp.post("/games/<game_id>/delete")
def delete(game_id: str) -> Response:
    stored = get_game(game_id)
    if request.form.get("confirm") != "yes":
        abort(400)
    store.delete(get_db(), game_id)
    flash_message(_("Game “{name}” deleted.", name=stored.name))
    return back_to("games.index")


@bp.post("/lang")
def set_language() -> Response:
    """The language switch: a cookie that wins over the browser's Accept-Language."""
    lang = request.form.get("lang", "")
    target = safe_next(request.form.get("next", "")) or url_for("games.index")
    response = redirect(target, code=303)
    if lang in LANGUAGES:
        response.set_cookie(COOKIE, lang, max_age=365 * 24 * 3600, samesite="Lax",
                            secure=served_over_tls())
    return response
