"""A game being scored: players, claims, stations and tickets, validated as they are added.

A game changes only through actions (``ClaimRoute``, ``PlaceStation``, ...). Each action is a
frozen value with a JSON form, so a client can store the action log, replay it, and undo by
replaying one action fewer. ``Game.apply`` either applies an action whole or raises a
``ScorerError`` and changes nothing.
"""

from __future__ import annotations

import bisect
import difflib
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from scorer.boards import Board, Route, normalize_name
from scorer.connectivity import connected
from scorer.errors import IllegalMove, InvalidGame, ScorerError, UnknownPlayer
from scorer.messages import Clause, Message, plural
from scorer.rules import PIECE_COLORS, Variant, find_variant

MAX_NAME_LENGTH = 40
# Tickets one player may hold: a Mega Game deals 69 in all; a table that reaches this is a script
# (4,475 custom tickets made a 4 MB page and a 1 s Undo that held up every other table).
MAX_TICKETS = 60
PRINTED_COLORS = ("red", "blue", "green", "yellow", "black", "white", "orange", "pink", "gray")


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    color: str


@dataclass(frozen=True, slots=True)
class Claim:
    player: str
    route: str


@dataclass(frozen=True, slots=True)
class Station:
    player: str
    city: str


@dataclass(frozen=True, slots=True)
class HeldTicket:
    """A ticket a player holds: a deck ticket (its ``ends`` as the deck gives them) or a
    custom one (one destination, the points given)."""

    player: str
    a: str
    b: str
    points: int
    in_deck: bool
    ends: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        if not self.ends:
            object.__setattr__(self, "ends", ((self.b, self.points),))


# --- actions -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClaimRoute:
    player: str
    route: str
    type: ClassVar[str] = "claim"


@dataclass(frozen=True, slots=True)
class UnclaimRoute:
    route: str
    type: ClassVar[str] = "unclaim"


@dataclass(frozen=True, slots=True)
class PlaceStation:
    player: str
    city: str
    type: ClassVar[str] = "station"


@dataclass(frozen=True, slots=True)
class RemoveStation:
    city: str
    type: ClassVar[str] = "unstation"


@dataclass(frozen=True, slots=True)
class AddTicket:
    player: str
    a: str
    b: str
    points: int | None = None
    type: ClassVar[str] = "ticket"


@dataclass(frozen=True, slots=True)
class RemoveTicket:
    player: str
    a: str
    b: str
    type: ClassVar[str] = "unticket"


@dataclass(frozen=True, slots=True)
class SetExpressOrder:
    """The order in which players took the Europe Express cards; None: derive from claims."""

    order: tuple[str, ...] | None
    type: ClassVar[str] = "express_order"


@dataclass(frozen=True, slots=True)
class SetOwners:
    """Several lanes (and stations) changing hands at once, as read from a photo: one step.

    ``changes`` pairs a route id with its new owner (None: released), ``stations`` a city with
    the owner of its station (None: no station). All are applied, or none.
    """

    changes: tuple[tuple[str, str | None], ...]
    stations: tuple[tuple[str, str | None], ...] = ()
    type: ClassVar[str] = "owners"


Action = (
    ClaimRoute | UnclaimRoute | PlaceStation | RemoveStation | AddTicket | RemoveTicket
    | SetExpressOrder | SetOwners
)
ACTION_TYPES: Mapping[str, type] = {
    cls.type: cls
    for cls in (ClaimRoute, UnclaimRoute, PlaceStation, RemoveStation, AddTicket, RemoveTicket,
                SetExpressOrder, SetOwners)
}


def action_to_json(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = {"type": action.type}
    for name in (f.name for f in fields(action)):
        value = getattr(action, name)
        if name in ("changes", "stations") and isinstance(action, SetOwners):
            value = [list(change) for change in value]
        data[name] = list(value) if isinstance(value, tuple) else value
    return data


def action_from_json(data: Mapping[str, Any]) -> Action:
    """Parse an action from its JSON form, raising InvalidGame on any malformed field."""
    if not isinstance(data, Mapping):
        raise InvalidGame("An action must be a JSON object.")
    cls = ACTION_TYPES.get(data.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise InvalidGame("Unknown action type {type!r}.", type=data.get("type"))
    kwargs: dict[str, Any] = {}
    for name in (f.name for f in fields(cls)):
        if name == "points":
            kwargs[name] = _optional_points(data.get(name))
        elif name == "order":
            kwargs[name] = _optional_names(data.get(name), "express_order")
        elif cls is SetOwners:
            kwargs[name] = _changes(data.get(name, [] if name == "stations" else None), name)
        else:
            kwargs[name] = _text(data.get(name), name)
    return cls(**kwargs)


for _cls in ACTION_TYPES.values():
    _cls.to_json = action_to_json  # type: ignore[attr-defined]


# --- parsing helpers -----------------------------------------------------------------------


def _text(value: Any, field: str, limit: int = 200) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidGame("Field {field!r} must be a non-empty text.", field=field)
    if len(value) > limit:
        raise InvalidGame("Field {field!r} is too long ({length} characters, max {limit}).",
                          field=field, length=len(value), limit=limit)
    _check_unicode(value, field)
    return value.strip()


@contextmanager
def _about(item: Message, *names: Any) -> Iterator[None]:
    """Name the game file's item in a message that names only a field ("Field 'to' must be a
    non-empty text." becomes "Ticket 3 (Ann, Paris): field 'to' must be ...")."""
    try:
        yield
    except InvalidGame as exc:
        if not exc.message.template.startswith(("Field ", "Ticket points ")):
            raise
        shown = [n[:40] for n in names if isinstance(n, str) and n.strip() and n.isprintable()]
        reason = Clause(exc.message)
        if shown:
            raise InvalidGame("{item} ({names}): {reason}", item=item, names=", ".join(shown),
                              reason=reason) from None
        raise InvalidGame("{item}: {reason}", item=item, reason=reason) from None


def _check_unicode(value: str, field: str) -> None:
    # JSON can carry lone surrogates ("\ud800"): not text, and nothing can print or store them.
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidGame("Field {field!r} holds characters that are not text.",
                          field=field) from None
    # Control characters (NUL, line breaks, tabs...) belong in no name: PostgreSQL cannot even
    # store a NUL, and a line break in a name breaks the pages and files it is written in.
    control = next((c for c in value if unicodedata.category(c) == "Cc"), None)
    if control is not None:
        raise InvalidGame("Field {field!r} ({start!r}) holds a control character (U+{code:04X}): "
                          "type it again.", field=field, start=value[:20].strip(),
                          code=ord(control))


def _optional_points(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidGame("Ticket points must be a whole number, not {value!r}.", value=value)
    return value


def _optional_names(value: Any, field: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list | tuple):
        raise InvalidGame("Field {field!r} must be a list of player names.", field=field)
    return tuple(_text(v, field) for v in value)


def _changes(value: Any, field: str) -> tuple[tuple[str, str | None], ...]:
    if not isinstance(value, list | tuple) or len(value) > 500:
        raise InvalidGame("Field {field!r} must be a list of [name, owner] pairs.", field=field)
    changes = []
    for item in value:
        if not isinstance(item, list | tuple) or len(item) != 2:
            raise InvalidGame("Each entry of {field!r} must be a [name, owner] pair.",
                              field=field)
        owner = None if item[1] is None else _text(item[1], "owner")
        changes.append((_text(item[0], field), owner))
    return tuple(changes)


def _list(data: Mapping[str, Any], field: str) -> list[Any]:
    value = data.get(field, [])
    if value is None:
        return []
    if not isinstance(value, list):
        raise InvalidGame("Field {field!r} must be a list.", field=field)
    for item in value:
        if not isinstance(item, Mapping) and field not in ("express_bonus_values",
                                                           "express_order"):
            raise InvalidGame("Each entry of {field!r} must be an object, not {item!r}.",
                              field=field, item=item)
    return value


def route_label(route: Route) -> str:
    return f"{route.a}–{route.b}"


# --- the game ------------------------------------------------------------------------------


class Game:
    """The state of one game; change it only through ``apply``."""

    def __init__(self, variant: Variant, players: Sequence[Player],
                 express_bonus_values: Sequence[int] | None = None,
                 longest_path_bonus: bool = True):
        # The rule set as registered, and as this table plays it: without the longest-path
        # bonus card when the setup says so (rules.md), so scoring and pages need not ask.
        self.rule_set = variant
        self.longest_path_bonus = longest_path_bonus or not variant.longest_bonus
        self.variant = variant if self.longest_path_bonus else variant.without_longest_bonus()
        self.board: Board = variant.board()
        self.players: tuple[Player, ...] = tuple(players)
        self.express_bonus_values: tuple[int, ...] = tuple(
            express_bonus_values if express_bonus_values is not None else variant.express_values
        )
        self.express_order: tuple[str, ...] | None = None
        self._owner: dict[str, str] = {}
        self._claims: list[Claim] = []
        # Claims are kept in the order they were first made: a lane released and claimed again
        # by the same player is a correction and gets its old place back (the Express cards
        # follow this order), so each claim has a key and a release keeps (player, key).
        self._claim_keys: dict[str, int] = {}
        self._released: dict[str, tuple[str, int]] = {}
        self._next_key = 0
        self._stations: dict[str, str] = {}  # city -> player, in placement order
        self._tickets: list[HeldTicket] = []
        self._trains_used: dict[str, int] = {p.name: 0 for p in self.players}
        keys = [normalize_name(p.name) for p in self.players]
        self._player_keys = dict(zip(keys, (p.name for p in self.players), strict=True))
        # What ``player`` makes of each name as entered, the pages' every counter asks.
        self._names = {p.name: self._player_keys[key] for p, key in zip(self.players, keys,
                                                                         strict=True)}

    # -- construction

    @classmethod
    def new(cls, variant: Variant | str, players: Iterable[Player | tuple[str, str]],
            express_bonus_values: Sequence[int] | None = None,
            longest_path_bonus: bool | None = None) -> Game:
        """A new game, its setup checked (player count, unique names and colours, card values).

        ``longest_path_bonus=False``: the table plays without the longest-path bonus card
        (nothing changes in a set that has none); ``True`` asks for a card the set must have.
        """
        if isinstance(variant, str):
            variant = find_variant(variant)
        players = [p if isinstance(p, Player) else Player(*p) for p in players]
        _check_players(variant, players)
        values = None
        if variant.express_cards and express_bonus_values is not None:
            values = _check_express_values(express_bonus_values)
        if longest_path_bonus and not variant.longest_bonus:
            raise IllegalMove("This game is {variant}, a rule set without a longest-path bonus.",
                              variant=variant.title)
        return cls(variant, players, values, longest_path_bonus is not False)

    @classmethod
    def from_json(cls, data: Any) -> Game:
        """Build a game from the game file of the spec; raises a ScorerError naming the problem."""
        if not isinstance(data, Mapping):
            raise InvalidGame("A game file must be a JSON object.")
        variant = find_variant(_text(data.get("variant"), "variant"))
        players = []
        for index, item in enumerate(_list(data, "players"), 1):
            with _about(Message("Player {n}", {"n": index}), item.get("name")):
                color = _text(item.get("color"), "color").lower()
                players.append(Player(_text(item.get("name"), "name"), color))
        values = data.get("express_bonus_values")
        if values is not None and not isinstance(values, list):
            raise InvalidGame("Field 'express_bonus_values' must be a list of numbers.")
        longest = data.get("longest_path_bonus")
        if longest is not None and not isinstance(longest, bool):
            raise InvalidGame("Field 'longest_path_bonus' must be true or false, not {value!r}.",
                              value=longest)
        game = cls.new(variant, players, values, longest)
        for index, item in enumerate(_list(data, "claims"), 1):
            with _about(Message("Claim {n}", {"n": index}), item.get("player")):
                game.apply(ClaimRoute(_text(item.get("player"), "player"),
                                      game._claim_route_id(item)))
        stations = _list(data, "stations")
        if stations and not variant.stations:
            raise IllegalMove("This game is {variant}, a rule set without stations.",
                              variant=variant.title)
        for index, item in enumerate(stations, 1):
            with _about(Message("Station {n}", {"n": index}), item.get("player")):
                game.apply(PlaceStation(_text(item.get("player"), "player"),
                                        _text(item.get("city"), "city")))
        for index, item in enumerate(_list(data, "tickets"), 1):
            with _about(Message("Ticket {n}", {"n": index}), item.get("player"), item.get("from"),
                        item.get("to")):
                game.apply(AddTicket(_text(item.get("player"), "player"),
                                     _text(item.get("from"), "from"), _text(item.get("to"), "to"),
                                     _optional_points(item.get("points"))))
        if variant.express_cards:
            order = _optional_names(data.get("express_order"), "express_order")
            if order is not None:
                game.apply(SetExpressOrder(order))
        return game

    def _claim_route_id(self, item: Mapping[str, Any]) -> str:
        """The route a game-file claim names: by id, or by cities (+ colour) taking a free lane."""
        if item.get("route") is not None:
            return self.board.route(_text(item.get("route"), "route")).id
        a = self.board.city(_text(item.get("from"), "from"))
        b = self.board.city(_text(item.get("to"), "to"))
        lanes = self.board.lanes(a, b)
        if not lanes:
            raise IllegalMove("No route joins {a} and {b} on the {board} board.", a=a, b=b,
                              board=self.board.title)
        color = item.get("color")
        if color is not None:
            color = _text(color, "color").lower()
            if color not in PRINTED_COLORS:
                raise InvalidGame("{color!r} is not a route colour ({colors}).", color=color,
                                  colors=", ".join(PRINTED_COLORS))
            # The colour only prefers a lane: the cities already name the route, and
            # printings differ in lane colours (the spec's own example does this).
            lanes = tuple(sorted(lanes, key=lambda r: r.color != color))
        free = [r for r in lanes if r.id not in self._owner]
        return (free or lanes)[0].id

    def copy(self) -> Game:
        clone = Game(self.rule_set, self.players, self.express_bonus_values,
                     self.longest_path_bonus)
        clone.express_order = self.express_order
        clone._owner = dict(self._owner)
        clone._claims = list(self._claims)
        clone._claim_keys = dict(self._claim_keys)
        clone._released = dict(self._released)
        clone._next_key = self._next_key
        clone._stations = dict(self._stations)
        clone._tickets = list(self._tickets)
        clone._trains_used = dict(self._trains_used)
        return clone

    def to_json(self) -> dict[str, Any]:
        """The game file of the spec (claims by route id, in chronological order)."""
        data: dict[str, Any] = {
            "variant": self.variant.name,
            "players": [{"name": p.name, "color": p.color} for p in self.players],
            "claims": [{"player": c.player, "route": c.route} for c in self._claims],
            "tickets": [
                {"player": t.player, "from": t.a, "to": t.b, "points": t.points}
                for t in self._tickets
            ],
        }
        if not self.longest_path_bonus:
            data["longest_path_bonus"] = False
        if self.variant.stations:
            data["stations"] = [{"player": s.player, "city": s.city} for s in self.stations]
        if self.variant.express_cards:
            data["express_bonus_values"] = list(self.express_bonus_values)
            if self.express_order is not None:
                data["express_order"] = list(self.express_order)
        return data

    # -- reading

    @property
    def claims(self) -> tuple[Claim, ...]:
        return tuple(self._claims)

    @property
    def stations(self) -> tuple[Station, ...]:
        return tuple(Station(player, city) for city, player in self._stations.items())

    @property
    def tickets(self) -> tuple[HeldTicket, ...]:
        return tuple(self._tickets)

    def player(self, name: str) -> str:
        """The player's name as entered, matched without case or accents."""
        found = self._names.get(name) or self._player_keys.get(normalize_name(name))
        if found is None:
            close = difflib.get_close_matches(name, [p.name for p in self.players], n=2)
            raise UnknownPlayer(name, Message("in this game"), tuple(close))
        return found

    def color_of(self, name: str) -> str:
        return next(p.color for p in self.players if p.name == name)

    def owner(self, route_id: str) -> str | None:
        return self._owner.get(route_id)

    def routes_of(self, player: str) -> tuple[Route, ...]:
        return tuple(self.board.routes[c.route] for c in self._claims if c.player == player)

    def stations_of(self, player: str) -> tuple[str, ...]:
        return tuple(city for city, owner in self._stations.items() if owner == player)

    def station_at(self, city: str) -> str | None:
        return self._stations.get(city)

    def trains_left(self, player: str) -> int:
        return self.variant.trains - self._trains_used[self.player(player)]

    def final_round_triggered(self) -> tuple[str, ...]:
        """Players at 0, 1 or 2 trains: everyone then plays one last turn."""
        return tuple(p.name for p in self.players if self.trains_left(p.name) <= 2)

    def closed_reason(self, route_id: str, player: str) -> Message | None:
        """Why ``player`` cannot claim this lane now, or None when the claim is legal."""
        try:
            self._check_claim(self.player(player), self.board.route(route_id))
        except ScorerError as exc:
            return exc.message
        return None

    # -- changing

    def apply(self, action: Action) -> None:
        """Apply one action, or raise a ScorerError and change nothing."""
        match action:
            case ClaimRoute(player=player, route=route_id):
                player, route = self.player(player), self.board.route(route_id)
                self._check_claim(player, route)
                self._owner[route.id] = player
                self._insert_claim(Claim(player, route.id))
                self._trains_used[player] += route.length
            case UnclaimRoute(route=route_id):
                route = self.board.route(route_id)
                owner = self._owner.pop(route.id, None)
                if owner is None:
                    raise IllegalMove("{route} is not claimed.", route=route_label(route))
                self._claims = [c for c in self._claims if c.route != route.id]
                self._released[route.id] = (owner, self._claim_keys.pop(route.id))
                self._trains_used[owner] -= route.length
            case PlaceStation(player=player, city=city):
                player, city = self.player(player), self.board.city(city)
                self._check_station(player, city)
                self._stations[city] = player
            case RemoveStation(city=city):
                city = self.board.city(city)
                if self._stations.pop(city, None) is None:
                    raise IllegalMove("There is no station in {city}.", city=city)
            case AddTicket(player=player, a=a, b=b, points=points):
                self._tickets.append(self._check_ticket(self.player(player), a, b, points))
            case RemoveTicket(player=player, a=a, b=b):
                player, (a, b) = self.player(player), self.board.ticket_ends(a, b)
                index = self._ticket_index(player, a, b)
                if index is None:
                    raise IllegalMove("{player} holds no ticket {a}–{b}.", player=player, a=a, b=b)
                del self._tickets[index]
            case SetExpressOrder(order=order):
                self.express_order = self._check_express_order(order)
            case SetOwners(changes=changes, stations=stations):
                self._set_owners(changes, stations)
            case _:
                raise InvalidGame("Unknown action {action!r}.", action=action)

    def _insert_claim(self, claim: Claim) -> None:
        """Add a claim at its place in time: the end, or its old place for a correction."""
        player, key = self._released.pop(claim.route, (None, None))
        if player != claim.player or key is None:
            key, self._next_key = self._next_key, self._next_key + 1
        self._claim_keys[claim.route] = key
        index = bisect.bisect([self._claim_keys[c.route] for c in self._claims], key)
        self._claims.insert(index, claim)

    def _set_owners(self, changes: Sequence[tuple[str, str | None]],
                    stations: Sequence[tuple[str, str | None]] = ()) -> None:
        """Release every changed lane and station, then place the new owners', on a trial copy
        first so that a refused change leaves the game as it was."""
        trial = self.copy()
        wanted = {}
        for route_id, player in changes:
            route = trial.board.route(route_id)
            wanted[route.id] = None if player is None else trial.player(player)
        changed = {rid: p for rid, p in wanted.items() if trial.owner(rid) != p}
        for route_id in changed:
            if trial.owner(route_id) is not None:
                trial.apply(UnclaimRoute(route_id))
        for route_id, player in changed.items():
            if player is not None:
                trial.apply(ClaimRoute(player, route_id))
        placed = {}
        for city, player in stations:
            city = trial.board.city(city)
            placed[city] = None if player is None else trial.player(player)
        moved = {city: p for city, p in placed.items() if trial.station_at(city) != p}
        for city in moved:
            if trial.station_at(city) is not None:
                trial.apply(RemoveStation(city))
        for city, player in moved.items():
            if player is not None:
                trial.apply(PlaceStation(player, city))
        self.__dict__.update(trial.__dict__)

    # -- rules checks

    def _check_claim(self, player: str, route: Route) -> None:
        owner = self._owner.get(route.id)
        if owner is not None:
            # A double's lane is named by its colour, as players see it (not by its id).
            lane: str | Message = route_label(route)
            if self.board.siblings(route):
                lane = Message("{route} ({color})", {"route": lane, "color": Message(route.color)})
            raise IllegalMove("{lane} is already claimed by {owner}.", lane=lane, owner=owner)
        for sibling in self.board.siblings(route):
            other = self._owner.get(sibling.id)
            if other == player:
                raise IllegalMove(
                    "{player} already owns the other lane of {route}: one player may never own "
                    "both lanes of a double route.", player=player, route=route_label(route))
            if other is not None and not self.variant.doubles_open(len(self.players)):
                raise IllegalMove(
                    "With {count} players only one lane of {route} may be used, and {owner} has "
                    "claimed it.", count=len(self.players), route=route_label(route), owner=other)
        left = self.variant.trains - self._trains_used[player]
        if route.length > left:
            raise IllegalMove(plural(
                left, "{player} has {count} train left and cannot claim {route} (length {length}).",
                "{player} has {count} trains left and cannot claim {route} (length {length}).",
                player=player, route=route_label(route), length=route.length))

    def _check_station(self, player: str, city: str) -> None:
        if not self.variant.stations:
            raise IllegalMove("This game is {variant}, a rule set without stations.",
                              variant=self.variant.title)
        holder = self._stations.get(city)
        if holder is not None:
            raise IllegalMove("{city} already has a station ({holder}'s): one station per city.",
                              city=city, holder=holder)
        if len(self.stations_of(player)) >= self.variant.stations:
            raise IllegalMove("{player} has already placed all {count} stations.",
                              player=player, count=self.variant.stations)

    def _check_ticket(self, player: str, a: str, b: str, points: int | None) -> HeldTicket:
        a, b = self.board.ticket_ends(a, b)
        if a == b:
            raise IllegalMove("A ticket joins two different cities, not {city} and {city}.", city=a)
        deck = self.board.ticket(a, b)
        if deck is not None and deck.several:
            if points not in (None, deck.points):
                raise IllegalMove("{a}–{b} is worth {values} by destination: its points come "
                                  "from the deck.", a=deck.a, b=deck.b, values=deck.values)
            points = deck.points
        if points is None:
            if deck is None:
                raise IllegalMove(
                    "{a}–{b} is not a ticket of the {deck} deck: give its points to add it as a "
                    "custom ticket.", a=a, b=b, deck=self.variant.deck_title)
            points = deck.points
        elif points < 1:
            raise IllegalMove("{player}'s ticket {a}–{b} is worth at least 1 point, not {points}.",
                              player=player, a=a, b=b, points=points)
        elif points > 99:
            raise IllegalMove("{player}'s ticket {a}–{b} is worth at most 99 points, not {points}.",
                              player=player, a=a, b=b, points=points)
        if deck is not None:
            a, b = deck.a, deck.b  # the printed order, whatever order was typed
        held = sum(t.player == player and {t.a, t.b} == {a, b} for t in self._tickets)
        if held >= (deck.copies if deck is not None else 1):
            raise IllegalMove("{player} already holds the ticket {a}–{b}.", player=player, a=a, b=b)
        if sum(t.player == player for t in self._tickets) >= MAX_TICKETS:
            raise IllegalMove("{player} already holds {count} tickets: no table keeps more "
                              "(ticket {a}–{b} not added).", player=player, count=MAX_TICKETS,
                              a=a, b=b)
        if deck is not None and deck.points == points:
            return HeldTicket(player, a, b, points, True, deck.ends)
        return HeldTicket(player, a, b, points, False)

    def _ticket_index(self, player: str, a: str, b: str) -> int | None:
        pair = {a, b}
        for index, ticket in enumerate(self._tickets):
            if ticket.player == player and {ticket.a, ticket.b} == pair:
                return index
        return None

    def _check_express_order(self, order: Sequence[str] | None) -> tuple[str, ...] | None:
        if order is None:
            return None
        if not self.variant.express_cards:
            raise IllegalMove("The Europe Express order is for Express games; this game is "
                              "{variant}.", variant=self.variant.title)
        names = tuple(self.player(name) for name in order)
        if len(set(names)) != len(names):
            raise IllegalMove("A player can take only one Europe Express card.")
        if len(names) > len(self.express_bonus_values):
            raise IllegalMove("There are only {count} Europe Express cards.",
                              count=len(self.express_bonus_values))
        for name in names:
            if not self.connects(name, *self.express_ends()):
                a, b = self.express_ends()
                raise IllegalMove(
                    "{player} has no continuous path of their own routes between {a} and {b}, "
                    "so cannot hold a Europe Express card.", player=name, a=a, b=b)
        return names

    def express_ends(self) -> tuple[str, str]:
        a, b = self.variant.express_ends
        return self.board.city(a), self.board.city(b)

    def connects(self, player: str, a: str, b: str) -> bool:
        """Whether the player's own routes join two cities."""
        return connected(((r.a, r.b) for r in self.routes_of(player)), a, b)


def _check_players(variant: Variant, players: Sequence[Player]) -> None:
    count = len(players)
    if not variant.min_players <= count <= variant.max_players:
        raise InvalidGame("{variant} is played by {min} to {max} players, not {count}.",
                          variant=variant.title, min=variant.min_players,
                          max=variant.max_players, count=count)
    names: dict[str, str] = {}
    colors: dict[str, str] = {}
    for player in players:
        name = player.name
        if not isinstance(name, str) or not name.strip():
            raise InvalidGame("Every player needs a name.")
        _check_unicode(name, "name")
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidGame("Player name {start!r}… is too long (max {max}).",
                              start=name[:20], max=MAX_NAME_LENGTH)
        if player.color not in PIECE_COLORS:
            raise InvalidGame("{player}'s colour {color!r} is not a train colour ({colors}).",
                              player=name, color=player.color, colors=", ".join(PIECE_COLORS))
        key = normalize_name(name) or name
        if key in names:
            raise InvalidGame("Two players are called {name!r}: names must differ.", name=name)
        if player.color in colors:
            raise InvalidGame("{a} and {b} both play {color}: each colour once.",
                              a=colors[player.color], b=name, color=Message(player.color))
        names[key] = name
        colors[player.color] = name


def _check_express_values(values: Sequence[Any]) -> tuple[int, ...]:
    if not 1 <= len(values) <= 4:
        raise InvalidGame("Europe Express has 4 bonus cards, not {count}.", count=len(values))
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 99:
            raise InvalidGame("A bonus card value is a whole number from 0 to 99, not {value!r}.",
                              value=value)
    if list(values) != sorted(values, reverse=True):
        raise InvalidGame("Bonus card values go in descending order (top card first), not "
                          "{values}.", values=list(values))
    return tuple(values)
