"""The game page: tap lanes and cities, pick the player, tickets, Express order, undo/redo.

Every change is one core action recorded in the game's log. An htmx request gets the live
partials back (swapped out of band), only those the action changed when the page showed the
game up to date; a plain form post gets a redirect to the game page with the message flashed,
so the page also works without JavaScript.

The page's script gives each tap an id (field ``tap``) and sends a tap again when its answer
does not come (bad Wi-Fi): a change is recorded with its tap's id, so a tap that did arrive the
first time is answered again with what it said then, not applied twice (``store.once``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from functools import wraps
from typing import Any

from flask import Blueprint, Response, abort, render_template, request

from scorer.boards import Board, Route, Ticket, normalize_name
from scorer.errors import ScorerError
from scorer.game import (
    Action,
    AddTicket,
    ClaimRoute,
    Game,
    PlaceStation,
    RemoveStation,
    RemoveTicket,
    SetExpressOrder,
    SetOwners,
    UnclaimRoute,
)
from scorer.messages import N_
from scorer.scoring import express_order as express_cards_order
from scorer.web import store
from scorer.web.common import (
    active_player,
    back_to,
    changes,
    changes_since,
    flash_message,
    get_game,
    is_htmx,
    live_context,
    refuse,
    remember_shown,
    shown_at,
)
from scorer.web.db import get_db
from scorer.web.i18n import _, color_name, plural

bp = Blueprint("play", __name__, url_prefix="/games/<game_id>")

MAX_FIELD = 60  # a city name or a player name typed in a form
_TAP_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")  # static/app.js: 32 hex digits


def _field(name: str) -> str:
    return request.form.get(name, "").strip()[:MAX_FIELD]


def _ui() -> dict[str, str]:
    """The board controls the request carries (mode, first city of a ticket being picked)."""
    return {"mode": _field("mode") or "routes", "first_city": _field("first_city")}


def tap_id() -> str | None:
    """The id the page's script gave this tap, if it sent a well-formed one."""
    sent = request.form.get("tap", "")
    return sent if _TAP_ID.fullmatch(sent) else None


View = Callable[..., Response | tuple[str, int]]


def once_per_tap(view: View) -> View:
    """A view that changes the game: a tap whose change is recorded already (sent again, its
    answer lost on the way) is answered as it was the first time, with the game as it is now,
    whatever the view would make of it now (the lane it claimed is now its player's)."""

    @wraps(view)
    def checked(game_id: str, **kwargs: Any) -> Response | tuple[str, int]:
        tap = tap_id()
        said = store.tap_said(get_db(), game_id, tap) if tap else None
        try:
            if said is None:
                return view(game_id, **kwargs)
        except store.TapDone as done:  # the first send recorded it meanwhile
            said = done.said
        stored = get_game(game_id)
        # A change leaves no first city of a ticket picked (a ticket's second city ends it).
        return answer(stored, message=said, active=active_player(stored, _field("player")),
                      **{**_ui(), "first_city": ""})

    return checked


def answer(
    stored: store.StoredGame, *, message: str | None = None, error: str | None = None,
    status: int = 200, active: str | None = None, custom: tuple[str, str] | None = None,
    shown: store.StoredGame | None = None, offer: list[Route] | None = None, **ui: Any,
) -> Response | tuple[str, int]:
    """The live partials for htmx, else a redirect to the game page with a flashed message.

    ``custom``: two cities to prefill in the custom ticket form. ``offer``: the lanes of a
    double to choose from (the page's chooser; without scripts, the route finder's page
    listing them). ``shown``: the state before the action (default ``stored``). The answer
    carries only what changed since the version the phone says its board shows (field
    ``v``), else the whole board (``common.changes_since``).
    """
    active = active_player(stored, active)
    search = request.form.get("q", "").strip()[:MAX_FIELD]
    if not is_htmx():
        if message or error:
            flash_message(error or message or "", error=bool(error))
        if offer:
            return back_to("play.find_route", game_id=stored.id,
                           q=f"{offer[0].a} {offer[0].b}")
        extra = {"a": custom[0], "b": custom[1], "_anchor": "custom-ticket"} if custom else {}
        return back_to("play.game_page", game_id=stored.id, **extra)
    context = live_context(stored, editable=True, active=active, **ui)
    # The phone may be behind (other phones tapped since its last answer; a refused action
    # changed nothing here, but another phone may have claimed the lane it tapped): the answer
    # brings what every version since the page's changed, right whichever of them a poll
    # answered meanwhile has put the page at.
    context["changes"] = changes_since(request.form.get("v", type=int), stored, shown or stored,
                                       _field("first_city"), context["first_city"])
    if search:  # a ticket added from the deck search: its results show who holds what now
        context.update(search_context(stored, search))
    body = render_template("partials/_live.html", message=message, error=error, oob=True,
                           custom=custom, search=bool(search), offer=offer or [], **context)
    return Response(body, status=status, headers={"HX-Reswap": "none"} if error else None)


def apply(
    stored: store.StoredGame, action: Action, message: str, active: str | None = None,
    **ui: Any,
) -> Response | tuple[str, int]:
    """Record one action; a refused one changes nothing and answers 422 with the reason.

    The message also says what the action set off: the final round, a new Express order.
    """
    before = stored
    try:
        with store.once(get_db(), stored.id, tap_id()) as tap:
            stored = store.record(get_db(), stored.id, action)
            if is_htmx():  # sent in the answer: kept now for the table's taps that come first
                remember_shown(stored)
            tap.said = " ".join([message, *consequences(before.game, stored.game)])
    except ScorerError as exc:
        # Refused against the state under the lock, which another phone may just have changed:
        # answer with that state, so this phone's board shows why.
        fresh = store.load(get_db(), stored.id) or stored
        return answer(fresh, error=refuse(exc), status=422, active=active, shown=before, **ui)
    except KeyError:
        abort(404)
    return answer(stored, message=tap.said, active=active, shown=before, **ui)


def consequences(before: Game, after: Game) -> list[str]:
    """Sentences for what changed besides the action itself: the final round set off (or
    called off by a release), the Europe Express order changed."""
    said = []
    started = [p for p in after.final_round_triggered() if p not in before.final_round_triggered()]
    if started:
        said.append(plural(
            len(started),
            "Final round! {names} has {n} trains or fewer: everyone plays one last turn.",
            "Final round! {names} have {n} trains or fewer: everyone plays one last turn.",
            names=", ".join(started), n=2))
    elif before.final_round_triggered() and not after.final_round_triggered():
        said.append(_("No final round any more: every player has 3 trains or more."))
    if after.variant.express_cards:
        old, new = express_cards_order(before), express_cards_order(after)
        if old != new:
            nobody = _("nobody")
            said.append(_("Europe Express order: {order} (was: {before}).",
                          order=", ".join(new) or nobody, before=", ".join(old) or nobody))
    return said


def lane_label(board: Board, route: Route) -> str:
    """A lane as players name it: its two cities, and its colour when it is one of a double."""
    label = f"{route.a}–{route.b}"
    return f"{label} ({color_name(route.color)})" if board.siblings(route) else label


def describe(stored: store.StoredGame, action: Action) -> str:
    """One line naming an action, for the undo and redo messages."""
    board = stored.game.board

    def route(route_id: str) -> str:
        r = board.routes.get(route_id)
        return lane_label(board, r) if r else route_id

    match action:
        case ClaimRoute(player=player, route=route_id):
            return _("{player} claims {route}", player=player, route=route(route_id))
        case UnclaimRoute(route=route_id):
            return _("{route} released", route=route(route_id))
        case PlaceStation(player=player, city=city):
            return _("{player}'s station in {city}", player=player, city=city)
        case RemoveStation(city=city):
            return _("station in {city} removed", city=city)
        case AddTicket(player=player, a=a, b=b):
            return _("{player}'s ticket {a}–{b}", player=player, a=a, b=b)
        case RemoveTicket(player=player, a=a, b=b):
            return _("{player}'s ticket {a}–{b} removed", player=player, a=a, b=b)
        case SetOwners(changes=((released, None), (claimed, str(player))), stations=()):
            # a lane taken instead of the one a tap on the board claimed (claim_instead)
            return _("{player} claims {route} instead of {other}", player=player,
                     route=route(claimed), other=route(released))
        case SetOwners(changes=changes, stations=stations):
            return plural(len(changes) + len(stations), "the photo ({count} change)",
                          "the photo ({count} changes)")
        case _:
            return _("the Europe Express order")


PATTERNS_COOKIE = "patterns"


@bp.app_context_processor
def patterns_setting() -> dict[str, bool]:
    """Whether this device fills the players' lanes with patterns (the colour-blind switch)."""
    return {"patterns": request.cookies.get(PATTERNS_COOKIE) == "on"}


@bp.post("/patterns")
def set_patterns(game_id: str) -> Response:
    """The colour-blind switch: a cookie on this device, kept a year; back to the game."""
    get_game(game_id)
    response = back_to("play.game_page", game_id=game_id)
    if request.form.get("patterns") == "on":
        response.set_cookie(PATTERNS_COOKIE, "on", max_age=365 * 24 * 3600, samesite="Lax")
    else:
        response.delete_cookie(PATTERNS_COOKIE)
    return response


@bp.get("")
def game_page(game_id: str) -> str:
    stored = get_game(game_id)
    active = active_player(stored, request.args.get("player"))
    context = live_context(stored, editable=True, active=active)
    return render_template(
        "pages/game.html", custom_a=request.args.get("a", "")[:MAX_FIELD],
        custom_b=request.args.get("b", "")[:MAX_FIELD], **context,
    )


@bp.get("/live")
def live(game_id: str) -> Response | tuple[str, int]:
    """Polled every few seconds: 204 while the game is unchanged, else the live partials."""
    stored = get_game(game_id)
    if request.args.get("v", type=int) == stored.version:
        return Response(status=204)
    if not is_htmx():
        return back_to("play.game_page", game_id=game_id)
    active = active_player(stored, request.args.get("player"))
    first_city = request.args.get("first_city", "")[:MAX_FIELD]
    context = live_context(stored, editable=True, active=active,
                           mode=request.args.get("mode", "routes"), first_city=first_city)
    # Only what changed since the version the page shows, when this process sent it that
    # state (the page leaves the answer out if it has moved on meanwhile; see static/app.js).
    shown = shown_at(stored.id, request.args.get("v", type=int))
    if shown is not None:
        context["changes"] = changes(shown, stored, first_city, first_city)
    return render_template("partials/_live.html", oob=True, poll=True, **context), 200


@bp.post("/player")
def select_player(game_id: str) -> Response | tuple[str, int]:
    stored = get_game(game_id)
    return answer(stored, active=_field("player"), **_ui())


@bp.post("/routes/<route_id>")
@once_per_tap
def tap_route(game_id: str, route_id: str) -> Response | tuple[str, int]:
    """A tap on a lane: claim it for the selected player, or release it if they own it."""
    stored = get_game(game_id)
    game = stored.game
    ui = _ui()
    if ui["mode"] == "routes":  # the route meant is this lane, not one named by two cities
        ui["first_city"] = ""
    player = active_player(stored, _field("player"))
    try:
        route = game.board.route(route_id[:MAX_FIELD * 2])
    except ScorerError as exc:
        return answer(stored, error=refuse(exc), status=422, active=player, **ui)
    wanted = request.form.get("do") or ("unclaim" if game.owner(route.id) else "claim")
    instead = _field("instead")
    if wanted == "claim" and instead and game.owner(instead) == player:
        return claim_instead(stored, player, route, instead, ui)
    return change_lane(stored, player, route, wanted, ui)


def claim_instead(
    stored: store.StoredGame, player: str, route: Route, instead: str, ui: dict[str, str]
) -> Response | tuple[str, int]:
    """The lane a tap on the board claimed was not the one meant (the page offers the lanes
    the finger was about as near): release it and claim ``route`` for ``player``, one step."""
    game = stored.game
    other = game.board.route(instead)
    points = game.variant.route_points(route.length)
    left = game.trains_left(player) + other.length - route.length
    return apply(stored, SetOwners(((other.id, None), (route.id, player))), _(
        "{player} claims {route} instead of {other}: {points}, {left}.", player=player,
        route=lane_label(game.board, route), other=lane_label(game.board, other),
        points=plural(points, "+{count} point", "+{count} points"),
        left=plural(left, "{count} train left", "{count} trains left")), active=player, **ui)


def change_lane(
    stored: store.StoredGame, player: str, route: Route, wanted: str, ui: dict[str, str]
) -> Response | tuple[str, int]:
    """Claim a lane for ``player``, or release it (``wanted``: "claim" or "unclaim")."""
    game = stored.game
    owner = game.owner(route.id)
    label = lane_label(game.board, route)
    if wanted == "unclaim":
        if owner is not None and owner != player:
            return answer(stored, status=422, active=player, **ui, error=_(
                "{route} belongs to {owner}: select {owner} to release it.",
                route=label, owner=owner))
        return apply(stored, UnclaimRoute(route.id),
                     _("{route} released (Undo brings it back).", route=label),
                     active=player, **ui)
    points = game.variant.route_points(route.length)
    left = game.trains_left(player) - route.length
    return apply(stored, ClaimRoute(player, route.id), _(
        "{player} claims {route}: {points}, {left}.", player=player, route=label,
        points=plural(points, "+{count} point", "+{count} points"),
        left=plural(left, "{count} train left", "{count} trains left")), active=player, **ui)


@bp.get("/routes/<route_id>")
def route_page(game_id: str, route_id: str) -> str:
    """Without JavaScript a lane is a link to this page, which holds the claim forms."""
    stored = get_game(game_id)
    game = stored.game
    try:
        route = game.board.route(route_id)
    except ScorerError:
        abort(404)
    active = active_player(stored)
    reasons = {p.name: game.closed_reason(route.id, p.name) for p in game.players}
    return render_template(
        "pages/route.html", stored=stored, game=game, route=route, owner=game.owner(route.id),
        reasons=reasons, active=active, points=game.variant.route_points(route.length),
    )


def _name_keys(city: str) -> set[str]:
    """What a typed word may start with to name a city: its name or any word of it."""
    words = re.split(r"[\s.\-'’]+", city)
    return {normalize_name(city), *(normalize_name(w) for w in words if w)}


def find_routes(
    board: Board, query: str, limit: int = 6, taken: Collection[str] = (),
) -> list[tuple[Route, ...]]:
    """The routes whose two cities the typed words begin ("par fra": Paris–Frankfurt), each
    as its lanes; one word: the routes from the cities it begins.

    Best match first (Enter takes it): a route with a lane free (not in ``taken``) before one
    whose lanes are all taken, words that begin the cities' names before words that begin a
    later word of them, then the more of the names typed ("rom": Roma before Romania).
    """
    words = [normalize_name(w) for w in re.split(r"[\s,;/–—-]+", query) if normalize_name(w)]
    if not words:
        return []

    def names(city: str, word: str) -> bool:
        return any(key.startswith(word) for key in _name_keys(city))

    def fit(cities: tuple[str, ...]) -> tuple[int, float]:
        """How well the words name these cities, in order: (later words begun, -typed)."""
        pairs = list(zip(cities, words[:len(cities)], strict=True))
        later = sum(not normalize_name(c).startswith(w) for c, w in pairs)
        typed = sum(len(w) / len(normalize_name(c)) for c, w in pairs)
        return later, -typed

    found: dict[frozenset[str], tuple[tuple[int, float], tuple[Route, ...]]] = {}
    for route in board.routes.values():
        a, b = route.a, route.b
        if len(words) == 1:
            orders = [o for o in ((a,), (b,)) if names(o[0], words[0])]
        else:
            orders = [o for o in ((a, b), (b, a))
                      if names(o[0], words[0]) and names(o[1], words[1])]
        if orders:
            best = min(fit(o) for o in orders)
            key = frozenset((a, b))
            if key not in found or best < found[key][0]:
                found[key] = (best, board.lanes(a, b))

    def rank(item: tuple[tuple[int, float], tuple[Route, ...]]) -> tuple[Any, ...]:
        quality, lanes = item
        return (all(r.id in taken for r in lanes), *quality, lanes[0].a, lanes[0].b)

    return [lanes for _, lanes in sorted(found.values(), key=rank)][:limit]


def route_finder_context(stored: store.StoredGame, query: str) -> dict[str, Any]:
    """What the route finder shows: the typed text and the routes it names, lane by lane."""
    game = stored.game
    taken = [r for r in game.board.routes if game.owner(r) is not None]
    return {"route_query": query, "route_results": find_routes(game.board, query, taken=taken)}


@bp.get("/routes/find")
def find_route(game_id: str) -> str:
    """The route finder: type the start of two cities ("par fra"), claim a lane of the route
    they name (a plain page without JavaScript, the suggestions under the box with it)."""
    stored = get_game(game_id)
    query = request.args.get("q", "")[:MAX_FIELD]
    active = active_player(stored, request.args.get("player"))
    context = {"stored": stored, "game": stored.game, "active": active,
               **route_finder_context(stored, query)}
    if is_htmx():
        return render_template("partials/_route_results.html", **context)
    return render_template("pages/routes_find.html", **context)


@bp.post("/cities/<city>")
@once_per_tap
def tap_city(game_id: str, city: str) -> Response | tuple[str, int]:
    """A tap on a city: place or remove a station, or pick a ticket's two ends."""
    stored = get_game(game_id)
    game = stored.game
    ui = _ui()
    player = active_player(stored, _field("player"))
    try:
        city = game.board.city(city[:MAX_FIELD])
    except ScorerError as exc:
        return answer(stored, error=refuse(exc), status=422, active=player, **ui)
    wanted = request.form.get("do") or {"stations": "station", "ticket": "pick"}.get(ui["mode"])
    if wanted in ("station", "unstation"):
        holder = game.station_at(city)
        if holder is None and wanted == "station":
            return apply(stored, PlaceStation(player, city),
                         _("{player} places a station in {city}.", player=player, city=city),
                         active=player, **ui)
        if holder is not None and holder != player and wanted == "station":
            return answer(stored, status=422, active=player, **ui, error=_(
                "{city} has {holder}'s station: select {holder} to remove it.",
                city=city, holder=holder))
        return apply(stored, RemoveStation(city),
                     _("Station in {city} removed (Undo brings it back).", city=city),
                     active=player, **ui)
    if wanted == "pick":
        return _pick_ticket_city(stored, player, city, ui)
    return _pick_route_city(stored, player, city, ui)


def _pick_route_city(
    stored: store.StoredGame, player: str, city: str, ui: dict[str, str]
) -> Response | tuple[str, int]:
    """Routes mode: a tap on a city picks one end of a route, a tap on the other end claims
    the lane between them (on the whole board a city is a bigger target than a lane)."""
    board = stored.game.board
    try:
        first = board.city(ui["first_city"]) if ui["first_city"] else ""
    except ScorerError:
        first = ""
    if not first or first == city:
        ui["first_city"] = "" if first else city
        if first:
            return answer(stored, message=_("Route cancelled."), active=player, **ui)
        return answer(stored, active=player, **ui, message=_(
            "{city}: now tap the route's other city.", city=city))
    ui["first_city"] = ""
    return claim_between(stored, player, first, city, ui)


def claim_between(
    stored: store.StoredGame, player: str, a: str, b: str, ui: dict[str, str]
) -> Response | tuple[str, int]:
    """The route joining two cities, for ``player``: released if they own a lane of it,
    claimed if one lane is free, both lanes offered when both are."""
    game = stored.game
    lanes = game.board.lanes(a, b)
    if not lanes:
        return answer(stored, status=422, active=player, **ui, error=_(
            "No route joins {a} and {b}: tap two neighbouring cities.", a=a, b=b))
    mine = [r for r in lanes if game.owner(r.id) == player]
    if mine:
        return change_lane(stored, player, mine[0], "unclaim", ui)
    free = [r for r in lanes if game.owner(r.id) is None]
    if len(free) > 1:
        return answer(stored, active=player, offer=free, **ui, message=_(
            "{a}–{b} has two lanes: which one?", a=lanes[0].a, b=lanes[0].b))
    return change_lane(stored, player, (free or list(lanes))[0], "claim", ui)


def _pick_ticket_city(
    stored: store.StoredGame, player: str, city: str, ui: dict[str, str]
) -> Response | tuple[str, int]:
    game = stored.game
    try:
        first = game.board.city(ui["first_city"]) if ui["first_city"] else ""
    except ScorerError:
        first = ""
    if not first:
        ui["first_city"] = city
        return answer(stored, active=player, **ui,
                      message=_("{city}: now tap the ticket's other city.", city=city))
    ui["first_city"] = ""
    if first == city:
        return answer(stored, message=_("Ticket cancelled."), active=player, **ui)
    # A border point stands for its country on a ticket (Switzerland's Bern–France).
    first, city = game.board.place_of(first), game.board.place_of(city)
    deck = game.board.ticket(first, city)
    if deck is None:
        return answer(stored, status=422, active=player, custom=(first, city), **ui, error=_(
            "{a}–{b} is not in the deck: enter its points in Custom ticket.", a=first, b=city))
    return apply(stored, AddTicket(player, first, city),
                 _("{player} takes the ticket {a}–{b}.", player=player, a=deck.a, b=deck.b),
                 active=player, **ui)


@bp.get("/cities/<city>")
def city_page(game_id: str, city: str) -> str:
    """Without JavaScript a city is a link to this page: its station and its tickets."""
    stored = get_game(game_id)
    game = stored.game
    try:
        city = game.board.city(city)
    except ScorerError:
        abort(404)
    place = game.board.place_of(city)
    tickets = with_holders(game, [t for t in game.board.tickets
                                  if place == t.a or place in (end for end, _ in t.ends)])
    return render_template(
        "pages/city.html", stored=stored, game=game, city=city, holder=game.station_at(city),
        tickets=tickets, active=active_player(stored),
    )


def _points() -> int | None | str:
    raw = request.form.get("points", "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        return _("Points must be a whole number, not {value}.", value=raw[:10])


@bp.post("/tickets")
@once_per_tap
def add_ticket(game_id: str) -> Response | tuple[str, int]:
    stored = get_game(game_id)
    ui = _ui()
    player = active_player(stored, _field("player"))
    a, b, points = _field("a"), _field("b"), _points()
    if isinstance(points, str):
        return answer(stored, error=points, status=422, active=player, **ui)
    if not a or not b:
        return answer(stored, error=_("Give both cities of the ticket."), status=422,
                      active=player, **ui)
    try:  # the board's spelling in the message, as the ticket is kept ("Zurich": Zürich)
        a, b = stored.game.board.ticket_ends(a, b)
    except ScorerError:
        pass  # the action below refuses the unknown city with its suggestions
    return apply(stored, AddTicket(player, a, b, points),
                 _("{player} takes the ticket {a}–{b}.", player=player, a=a, b=b),
                 active=player, **ui)


@bp.post("/tickets/remove")
@once_per_tap
def remove_ticket(game_id: str) -> Response | tuple[str, int]:
    stored = get_game(game_id)
    ui = _ui()
    player = active_player(stored, _field("player"))
    a, b = _field("a"), _field("b")
    return apply(stored, RemoveTicket(player, a, b),
                 _("Ticket {a}–{b} removed (Undo brings it back).", a=a, b=b),
                 active=player, **ui)


def search_tickets(stored: store.StoredGame, query: str) -> list:
    """Deck tickets whose city names, or the board's other names for them ("copenhagen" finds
    København), contain the typed text (no case, no accents)."""
    key = normalize_name(query)
    board = stored.game.board
    names: dict[str, list[str]] = {place: [normalize_name(place)]
                                   for place in (*board.cities, *board.countries)}
    for alias, place in board.aliases.items():
        names[place].append(normalize_name(alias))

    def keys(t: Ticket) -> list[str]:  # its origin's names and every destination's
        return [n for place in (t.a, *(end for end, _ in t.ends)) for n in names[place]]

    found = [t for t in board.tickets if any(key in n for n in keys(t))]
    return sorted(found, key=lambda t: (not any(n.startswith(key) for n in keys(t)), t.a, t.b))


def with_holders(game: Game, tickets: list[Ticket]) -> list[tuple[Ticket, list[str]]]:
    """Each deck ticket with the players who already hold it (matched by its two cities)."""
    holders: dict[frozenset[str], list[str]] = {}
    for t in game.tickets:
        holders.setdefault(frozenset((t.a, t.b)), []).append(t.player)
    return [(t, holders.get(frozenset((t.a, t.b)), [])) for t in tickets]


def search_context(stored: store.StoredGame, query: str) -> dict[str, Any]:
    """What the deck search results show: the matching tickets and who already holds each."""
    return {"query": query, "results": with_holders(stored.game, search_tickets(stored, query))}


@bp.get("/tickets/search")
def ticket_search(game_id: str) -> str:
    stored = get_game(game_id)
    query = request.args.get("q", "")[:MAX_FIELD]
    active = active_player(stored, request.args.get("player"))
    context = {"stored": stored, "game": stored.game, "active": active,
               **search_context(stored, query)}
    if is_htmx():
        return render_template("partials/_ticket_results.html", **context)
    return render_template("pages/tickets.html", **context)


@bp.post("/express")
@once_per_tap
def express_order(game_id: str) -> Response | tuple[str, int]:
    """Move a player up or down the Europe Express order, or derive it from claims again."""
    stored = get_game(game_id)
    ui = _ui()
    if request.form.get("reset"):
        return apply(stored, SetExpressOrder(None),
                     _("Europe Express order taken from the claims again."), **ui)
    order = list(express_cards_order(stored.game)) if stored.game.variant.express_cards else []
    name, step = _field("move"), -1 if request.form.get("dir") == "up" else 1
    if name not in order or not 0 <= order.index(name) + step < len(order):
        return answer(stored, error=_("This player cannot move that way."), status=422, **ui)
    i = order.index(name)
    order[i], order[i + step] = order[i + step], order[i]
    return apply(stored, SetExpressOrder(tuple(order)),
                 _("Europe Express order: {order}.", order=", ".join(order)), **ui)


def _cursor_move(game_id: str, step: int) -> Response | tuple[str, int]:
    ui = _ui()
    expect = request.form.get("cursor", type=int)
    before = get_game(game_id)
    template = N_("Undone: {action}.") if step < 0 else N_("Redone: {action}.")
    try:
        with store.once(get_db(), game_id, tap_id()) as tap:
            after, moved = store.move_cursor(get_db(), game_id, step, expect)
            if is_htmx():  # as in apply
                remember_shown(after)
            if moved is not None:
                tap.said = _(template, action=describe(after, moved))
    except KeyError:
        abort(404)
    if moved is None:
        text = _("Nothing to undo.") if step < 0 else _("Nothing to redo.")
        # ``after`` was read under the game's lock: a phone that pressed at the same moment
        # has already moved the cursor there, so this press was a repeat.
        if expect is not None and expect != after.cursor:
            text = _("Already done: the game had changed.")
        return answer(after, error=text, status=409, **ui)
    return answer(after, message=tap.said, shown=before, **ui)


@bp.post("/undo")
@once_per_tap
def undo(game_id: str) -> Response | tuple[str, int]:
    return _cursor_move(game_id, -1)


@bp.post("/redo")
@once_per_tap
def redo(game_id: str) -> Response | tuple[str, int]:
    return _cursor_move(game_id, +1)
