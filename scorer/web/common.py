"""What the views share: loading a game or 404, the live state a page shows, htmx answers."""

from __future__ import annotations

import json
import re
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from flask import (
    Flask,
    Response,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from jinja2 import Environment, StrictUndefined, pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from werkzeug.exceptions import HTTPException, SecurityError
from werkzeug.local import LocalProxy

from scorer.errors import ScorerError
from scorer.game import Game
from scorer.messages import N_
from scorer.rules import VARIANTS
from scorer.scoring import Scoresheet, best_station_use, express_order, score
from scorer.web import devices, store
from scorer.web.db import get_db
from scorer.web.i18n import _, current_language, translate
from scorer.web.svg import board_changes, board_shapes, board_svg

MODES = ("routes", "stations", "ticket")
_ACTIVE_KEPT = 12  # games whose selected player the session remembers


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


_TOKEN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # game ids and share tokens (token_urlsafe)


def get_game(game_id: str) -> store.StoredGame:
    stored = store.load(get_db(), game_id) if _TOKEN.match(game_id) else None
    if stored is None:
        abort(404, description="no-game")
    devices.remember(stored, "edit")
    return stored


def get_shared(share: str) -> store.StoredGame:
    stored = store.load(get_db(), share, by_share=True) if _TOKEN.match(share) else None
    if stored is None:
        abort(404, description="no-game")
    devices.remember(stored, "watch")
    return stored


def scoresheet(stored: store.StoredGame) -> Scoresheet:
    """The score of the current state, computed once per request."""
    cache = g.setdefault("sheets", {})
    key = (stored.id, stored.version)
    if key not in cache:
        cache[key] = score(stored.game)
    return cache[key]


def active_player(stored: store.StoredGame, requested: str | None = None) -> str:
    """The selected player: as the request names it, else as the page last set it (a cookie
    written by the player bar's script), else as the session remembers it."""
    names = [p.name for p in stored.game.players]
    remembered: dict[str, str] = session.get("active", {})
    name = requested if requested in names else request.cookies.get(f"player_{stored.id}")
    if name not in names:
        name = remembered.get(stored.id)
    if name not in names:
        name = names[0]
    if remembered.get(stored.id) != name:
        remembered = {k: v for k, v in remembered.items() if k != stored.id}
        remembered[stored.id] = name
        session["active"] = dict(list(remembered.items())[-_ACTIVE_KEPT:])
    return name


@dataclass(frozen=True)
class PlayerLine:
    index: int  # the player's place in the game: the id of their line in the bar and strip
    name: str
    color: str
    trains_left: int
    route_points: int
    stations_left: int


def player_lines(game: Game) -> list[PlayerLine]:
    """Each player's counters, as the player bar and the strip show them."""
    variant = game.variant
    return [
        PlayerLine(
            index=i, name=p.name, color=p.color, trains_left=game.trains_left(p.name),
            route_points=sum(variant.route_points(r.length) for r in game.routes_of(p.name)),
            stations_left=variant.stations - len(game.stations_of(p.name)),
        )
        for i, p in enumerate(game.players)
    ]


_LINES_KEPT = 4096  # rendered player lines kept (all games and languages together)


@pass_context
def player_part(context: Context, template: str, line: PlayerLine, oob: bool = False) -> Markup:
    """A player's line of the player bar or of the strip (``template``), rendered once for
    what it shows: the phones of a table each get the same few lines in their answers (a tap's
    answer from a page behind the game, most of a table's taps, brings every player who tapped
    meanwhile), and a line that did not change is the same text for every phone but the one
    whose player it is (``pressed``). The partial is given nothing else, and an undefined name
    in it raises: what it shows is all in the key."""
    inputs = {
        "line": line, "pressed": line.name == context["active"],
        "editable": bool(context["editable"]), "oob": bool(oob),
        "stations": bool(context["variant"].stations),
        "last": line.name in context["final_round"],
    }
    key = (template, current_language(), *inputs.values())
    lines = current_app.extensions["terminus.lines"]
    with lines.lock:
        found = lines.kept.get(key)
        if found is not None:
            lines.kept.move_to_end(key)
            return found
    found = Markup(lines.env.get_template(template).render(inputs))
    with lines.lock:
        lines.kept[key] = found
        while len(lines.kept) > _LINES_KEPT:
            lines.kept.popitem(last=False)
    return found


@dataclass
class _RenderedLines:
    """The player lines rendered in this app (``player_part``), with the strict environment
    they are rendered in."""

    env: Environment
    kept: OrderedDict[tuple, Markup] = field(default_factory=OrderedDict)
    lock: threading.Lock = field(default_factory=threading.Lock)


def lane_classes(stored: store.StoredGame, highlight: frozenset[str] = frozenset()) -> dict:
    """CSS classes per lane: the owner's colour, closed (other lane taken in a small game)."""
    game = stored.game
    colors = {p.name: p.color for p in game.players}
    doubles_open = game.variant.doubles_open(len(game.players))
    classes: dict[str, str] = {}
    for claim in game.claims:
        classes[claim.route] = f"own own-{colors[claim.player]}"
        if not doubles_open:
            for sibling in game.board.siblings(game.board.routes[claim.route]):
                if game.owner(sibling.id) is None:
                    classes[sibling.id] = "closed"
    for route_id in highlight:
        classes[route_id] = classes.get(route_id, "") + " on-path"
    return classes


def live_context(
    stored: store.StoredGame, *, editable: bool, active: str | None = None,
    mode: str = "routes", first_city: str = "", highlight: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """Everything the live partials (board, players, status, tickets, express) render."""
    game = stored.game
    remember_shown(stored)  # the game page's and the read-only page's polls name its version
    return {
        # Scored when a partial first reads it: the longest paths are most of a tap's time,
        # and a tap's answer without the tickets or the Express order needs no score.
        "stored": stored, "game": game, "sheet": LocalProxy(lambda: scoresheet(stored)),
        "variant": game.variant,
        "shapes": board_shapes(game.board.name), "lanes": lane_classes(stored, highlight),
        "stations": station_colors(game), "lines": player_lines(game), "editable": editable,
        "active": active or game.players[0].name, "mode": mode if mode in MODES else "routes",
        "first_city": first_city, "final_round": game.final_round_triggered(),
        "colors": {p.name: p.color for p in game.players},
    }


def station_colors(game: Game) -> dict[str, str]:
    """City -> the colour of the station on it."""
    return {s.city: game.color_of(s.player) for s in game.stations}


@dataclass(frozen=True)
class Changes:
    """What a page drawn from one state shows differently from another: the lanes, cities
    and player lines to draw again, and whether the strip's final round, the tickets and the
    Express order changed."""

    base: int | None  # the version they are changes from; None: from any of several
    lanes: frozenset[str]
    cities: frozenset[str]
    players: frozenset[int]  # the lines of the player bar and strip whose counters changed
    final_round: bool  # who plays the final round changed: the whole strip
    tickets: bool
    express: bool


def _ticket_state(game: Game) -> tuple:
    return tuple(best_station_use(game, p.name, [t for t in game.tickets if t.player == p.name])
                 for p in game.players)


def changes(
    shown: store.StoredGame, stored: store.StoredGame, shown_first: str, first_city: str
) -> Changes:
    """What changed from ``shown`` (the state a phone's board shows, with the ticket city it
    has picked) to ``stored``: a tap's answer, or a poll's, carries only that."""
    old, new = lane_classes(shown), lane_classes(stored)
    lanes = {r for r in old.keys() | new.keys() if old.get(r, "") != new.get(r, "")}
    old_stations, new_stations = station_colors(shown.game), station_colors(stored.game)
    cities = {c for c in old_stations.keys() | new_stations.keys()
              if old_stations.get(c) != new_stations.get(c)}
    if shown_first != first_city:
        cities |= {shown_first, first_city} - {""}
    before, after = shown.game, stored.game
    final_round = before.final_round_triggered() != after.final_round_triggered()
    players = frozenset(now.index for was, now in zip(player_lines(before), player_lines(after),
                                                      strict=True) if was != now)
    # Ticket results need the connections worked out: only when someone holds a ticket.
    tickets = bool(before.tickets or after.tickets) and (
        before.tickets != after.tickets or _ticket_state(before) != _ticket_state(after))
    express = after.variant.express_cards and (
        before.express_order != after.express_order
        or express_order(before) != express_order(after))
    return Changes(shown.version, frozenset(lanes), frozenset(cities), players, final_round,
                   tickets, express)


_SHOWN_KEPT = 512  # game states (all games together) a poll can be answered with changes from
_shown: OrderedDict[tuple[str, int], store.StoredGame] = OrderedDict()
_shown_lock = threading.Lock()
# The changes each version made (from the version before it), per (game, version): a table's
# phones behind the game each need the same few.
_steps: OrderedDict[tuple[str, int], Changes] = OrderedDict()
MAX_BEHIND = 24  # versions a tap's answer brings the changes of; further behind, the whole board


def remember_shown(stored: store.StoredGame) -> None:
    """Keep a state sent to a game page: a poll from that page names its version, and gets
    only what changed since (a version identifies one state of a game, in every process)."""
    with _shown_lock:
        _shown[(stored.id, stored.version)] = stored
        _shown.move_to_end((stored.id, stored.version))
        while len(_shown) > _SHOWN_KEPT:
            _shown.popitem(last=False)


def shown_at(game_id: str, version: int | None) -> store.StoredGame | None:
    """The state of a game at a version this process sent to a page, if still kept."""
    with _shown_lock:
        return _shown.get((game_id, version)) if version is not None else None


def _step(before: store.StoredGame, after: store.StoredGame) -> Changes:
    """What ``after`` (the version after ``before``) changed, remembered."""
    key = (after.id, after.version)
    with _shown_lock:
        known = _steps.get(key)
    if known is None:
        known = changes(before, after, "", "")
        with _shown_lock:
            _steps[key] = known
            while len(_steps) > _SHOWN_KEPT:
                _steps.popitem(last=False)
    return known


def changes_since(
    version: int | None, stored: store.StoredGame, known: store.StoredGame,
    shown_first: str, first_city: str,
) -> Changes | None:
    """What to draw again on a page that showed ``version`` (with the ticket city it had
    picked) to show ``stored``, or None for the whole board: a tap's answer.

    A poll answered while the tap was on its way may have moved the page to any version up
    to ``stored``'s, so the answer carries everything any of those versions changed, each
    part as ``stored`` has it: right over whichever the page shows (no ``base``). The whole
    board when a version between is not kept here (written by another process, or long ago),
    or the page is more than MAX_BEHIND versions behind. ``known``: a state to use besides
    those kept (the one the action was applied to).
    """
    if version is None or not 0 <= stored.version - version <= MAX_BEHIND:
        return None
    states = {known.version: known, stored.version: stored} if known.id == stored.id else {
        stored.version: stored}
    before = states.get(version) or shown_at(stored.id, version)
    if before is None:
        return None
    lanes: set[str] = set()
    cities: set[str] = set()
    players: set[int] = set()
    final_round = tickets = express = False
    for v in range(version + 1, stored.version + 1):
        after = states.get(v) or shown_at(stored.id, v)
        if after is None:
            return None
        step = _step(before, after)
        lanes |= step.lanes
        cities |= step.cities
        players |= step.players
        final_round, tickets, express = (final_round or step.final_round,
                                         tickets or step.tickets, express or step.express)
        before = after
    if shown_first != first_city:
        cities |= {shown_first, first_city} - {""}
    return Changes(None, frozenset(lanes), frozenset(cities), frozenset(players), final_round,
                   tickets, bool(express))


def refuse(exc: ScorerError | str) -> str:
    """A refused action's message, in the page language."""
    return translate(exc.message) if isinstance(exc, ScorerError) else _(exc)


def htmx_error(message: str, status: int = 422) -> Response:
    """An htmx answer that only shows a message in the status bar, changing nothing else."""
    body = render_template("partials/_message.html", error=message, oob=True)
    response = Response(body, status=status)
    response.headers["HX-Reswap"] = "none"
    return response


def back_to(endpoint: str, **values: Any) -> Response:
    return redirect(url_for(endpoint, **values), code=303)


def error_page(status: int, message: str, heading: str = "") -> tuple[str, int] | Response:
    """The error as the asker reads it: JSON for the API, the message bar for htmx, else a
    page with a plain heading, the sentence and a way back to the games."""
    if request.path.startswith("/api/"):
        return jsonify(error=message), status
    if is_htmx():
        return htmx_error(message, status)
    return render_template("pages/error.html", status=status, message=message,
                           heading=heading or _(_GENERIC_ERROR[0])), status


# Per status: the page heading and the sentence (English here, French in the catalogue).
_HTTP_ERRORS = {
    400: (N_("Something is wrong with this request"), N_("The request could not be read.")),
    403: (N_("Not allowed"), N_("This request is not allowed.")),
    404: (N_("Page not found"), N_("Nothing here: the link may be incomplete or out of date.")),
    405: (N_("Not possible here"), N_("This address does not take this kind of request.")),
    409: (N_("Not possible any more"),
          N_("This cannot be done any more: go back and look again.")),
    413: (N_("Too much data"), N_("Too much data: a game file is a few kilobytes at most.")),
    415: (N_("Wrong kind of data"),
          N_("Send the game as JSON (Content-Type: application/json).")),
    500: (N_("Something went wrong"),
          N_("The server failed on this page: go back to the games and try again.")),
}
_GENERIC_ERROR = (N_("Something went wrong"), N_("This page could not be shown."))
# Where the code that refused says why (``abort(404, description="no-game")``).
_DESCRIPTIONS = {
    "no-game": (N_("Game not found"),
                N_("Nothing here: the game may have been deleted, or the link is incomplete.")),
    "csrf": (N_("Page expired"), N_("This page has expired: reload it and try again.")),
    "cross-origin": (N_("Not allowed"), N_("Requests from another site are refused.")),
    "nul": (N_("Something is wrong with this request"),
            N_("The request holds a NUL character, which no field takes: type the text again.")),
    "json-only": (N_("Wrong kind of data"),
                  N_("Send the game as JSON (Content-Type: application/json).")),
}


def _http_error(exc: HTTPException) -> Any:
    status = exc.code or 500
    if status < 400:
        return exc
    heading, message = (_DESCRIPTIONS.get(str(exc.description))
                        or _HTTP_ERRORS.get(status, _GENERIC_ERROR))
    return error_page(status, _(message), _(heading))


def parse_json(text: str | bytes) -> Any:
    """JSON from a request, refused (ValueError with a message) when it is not valid JSON, is
    nested too deeply for the parser, or holds text that is not valid Unicode (a lone
    surrogate escape such as "\\ud800" would make every later page of the game fail)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ValueError(N_("The body is not valid JSON.")) from None
    _check_unicode(data)
    return data


def _check_unicode(value: Any) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError(
                    N_("The JSON holds text that is not valid Unicode (a lone surrogate).")
                ) from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def check_game_name(name: str) -> str:
    """A game name as typed, stripped (empty: the app names it); ValueError with the message
    when it is too long or holds a control character."""
    name = name.strip()
    if len(name) > store.MAX_GAME_NAME:
        raise ValueError(_("The game name is too long ({n} characters, at most {max}).",
                           n=len(name), max=store.MAX_GAME_NAME))
    control = next((c for c in name if unicodedata.category(c) in ("Cc", "Cs")), None)
    if control is not None:
        raise ValueError(_("The game name holds a control character (U+{code:04X}): type it "
                           "again.", code=ord(control)))
    return name


def safe_next(target: str) -> str | None:
    """``target`` when it is a path of this site (``/games/…``), else None: a redirect never
    leads to another site, whatever a browser would make of tabs, line breaks or backslashes
    in it (``/\t/evil.example`` is ``//evil.example`` to a browser)."""
    if re.fullmatch(r"/(?![/\\])[^\x00-\x20\x7f\\]*", target):
        return target
    return None


def flash_message(text: str, error: bool = False) -> None:
    flash(text, "error" if error else "info")


def _untrusted_host(_exc: SecurityError) -> Response:
    """A Host not in TRUSTED_HOSTS: no page can be built for it (its links would name it)."""
    return Response("This server does not answer for this host name.\n", status=400,
                    mimetype="text/plain")


def init_app(app: Flask) -> None:
    app.register_error_handler(SecurityError, _untrusted_host)
    app.register_error_handler(HTTPException, _http_error)
    app.jinja_env.globals.update(variants=VARIANTS, board_svg=board_svg,
                                 board_changes=board_changes, rules_title=rules_title,
                                 player_part=player_part)
    app.extensions["terminus.lines"] = _RenderedLines(
        app.jinja_env.overlay(undefined=StrictUndefined))


def rules_title(game: Game) -> str:
    """The rule set the game is played by, in the reader's language, with the setup choice
    that changes its scoring ("Europe 1912 Mega, no European Express bonus")."""
    title = _(game.variant.title)
    if game.longest_path_bonus:
        return title
    return _("{rules}, no {bonus} bonus", rules=title, bonus=_(game.rule_set.bonus_name))
