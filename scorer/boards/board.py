"""Board value objects, loading with validation, and forgiving name matching."""

from __future__ import annotations

import difflib
import json
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from scorer.errors import BoardDataError, UnknownCity, UnknownRoute
from scorer.messages import Message

# The packaged boards: every ``<name>.json`` beside this file (a new board is its file).
BOARD_NAMES = tuple(sorted(
    entry.name.removesuffix(".json") for entry in resources.files("scorer.boards").iterdir()
    if entry.name.endswith(".json")
))

# The boards the photo detector is trained and measured on (README, "The photo detector"). On
# another board the detector refuses the photo, and the app's Photo button and page say so
# before any upload: its reading would fail or be wrong.
PHOTO_BOARDS = ("usa", "europe")

# Letters that Unicode does not decompose into a base letter plus an accent.
_FOLD = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ı": "i"})


def normalize_name(name: str) -> str:
    """Key for matching a typed name: no case, no accents, no spaces or punctuation."""
    decomposed = unicodedata.normalize("NFKD", name.casefold().translate(_FOLD))
    return "".join(ch for ch in decomposed if ch.isalnum())


def route_id(a: str, b: str) -> str:
    """The id of the first lane between two cities: their names in lower case without accents,
    hyphens for spaces and punctuation, in alphabetical order (``mo-i-rana--trondheim``); a
    second lane adds ``--2``. Game files and the web name lanes by it."""
    def slug(name: str) -> str:
        decomposed = unicodedata.normalize("NFKD", name.casefold().translate(_FOLD))
        plain = "".join(ch if ch.isalnum() and ch.isascii() else " " for ch in decomposed
                        if not unicodedata.combining(ch))
        return "-".join(plain.split())

    return "--".join(sorted((slug(a), slug(b))))


@dataclass(frozen=True, slots=True)
class City:
    name: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Space:
    """One printed train space: its centre in the art frame, angle clockwise from +x."""

    x: float
    y: float
    angle: float


# A printed space's coloured field, length along the lane and width, in art px: the same on
# every board's artwork (what the web's map draws and the detector looks for). A plastic
# train covers about 60 x 30 art px around it.
SPACE_SIZE = (54, 16)


@dataclass(frozen=True, slots=True)
class Route:
    """One lane between two adjacent cities (a double route is two of these)."""

    id: str
    a: str
    b: str
    length: int
    color: str
    tunnel: bool
    ferry_locomotives: int
    spaces: tuple[Space, ...]

    def other_end(self, city: str) -> str:
        return self.b if city == self.a else self.a

    def touches(self, city: str) -> bool:
        return city in (self.a, self.b)


@dataclass(frozen=True, slots=True)
class Ticket:
    """A destination ticket: from ``a`` to ``b`` for ``points``, or from ``a`` to any of
    several destinations (``ends``: each a city or a country with its value, as Switzerland
    prints them).

    Completed, a ticket scores the highest value among the destinations its owner reached;
    failed, it loses its lowest (``value``). A ticket with one destination is the plain case:
    ``ends`` is then ``((b, points),)``. With several, ``b`` names them all ("France /
    Deutschland / Österreich / Italia") and ``points`` is the highest. ``copies``: how many
    cards of it the deck holds (a player may hold each).
    """

    a: str
    b: str
    points: int
    long: bool = False
    ends: tuple[tuple[str, int], ...] = ()
    copies: int = 1

    def __post_init__(self) -> None:
        if not self.ends:
            object.__setattr__(self, "ends", ((self.b, self.points),))

    @property
    def several(self) -> bool:
        """Whether the ticket has more than one destination."""
        return len(self.ends) > 1

    @property
    def values(self) -> str:
        """Its value as printed: "8", or "5/6/11/8" for one per destination."""
        return "/".join(str(points) for _, points in self.ends)

    def value(self, reached: Callable[[str], bool]) -> tuple[int, str | None]:
        """What the ticket scores given which destinations its owner reached: the highest
        value reached and that destination, or minus the lowest value and None."""
        done = [(points, end) for end, points in self.ends if reached(end)]
        if done:
            points, end = max(done, key=lambda d: d[0])
            return points, end
        return -min(points for _, points in self.ends), None


def ticket_label(ends: Sequence[str]) -> str:
    """How a ticket with several destinations is named: its destinations joined by " / "."""
    return " / ".join(ends)


@dataclass(frozen=True)
class Board:
    """A map: cities, routes, the ticket deck, and how the art sits on the physical board."""

    name: str
    title: str
    edition: str
    cities: Mapping[str, City]
    routes: Mapping[str, Route]
    tickets: tuple[Ticket, ...]
    aliases: Mapping[str, str]
    art_frame: Mapping[str, Any]
    board_frame: Mapping[str, Any]
    invariants: Mapping[str, Any] = field(default_factory=dict)
    sources: tuple[Mapping[str, Any], ...] = ()
    # Countries a ticket may name (Switzerland's neighbours): each reached through the border
    # points its routes end at, which are cities of the board of their own; a country is no
    # city, so it joins nothing (routes ending in it are not joined through it).
    countries: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        keys: dict[str, str] = {normalize_name(c): c for c in self.cities}
        places = dict(keys) | {normalize_name(c): c for c in self.countries}
        for alias, target in self.aliases.items():
            if target in self.cities:
                keys.setdefault(normalize_name(alias), target)
            places.setdefault(normalize_name(alias), target)
        country_of = {point: country for country, points in self.countries.items()
                      for point in points}
        pairs: dict[frozenset[str], list[Route]] = defaultdict(list)
        at_city: dict[str, list[Route]] = defaultdict(list)
        for route in self.routes.values():
            pairs[frozenset((route.a, route.b))].append(route)
            at_city[route.a].append(route)
            at_city[route.b].append(route)
        object.__setattr__(self, "_city_keys", keys)
        object.__setattr__(self, "_place_keys", places)
        object.__setattr__(self, "_country_of", country_of)
        object.__setattr__(
            self, "_pairs", {k: tuple(sorted(v, key=_lane_order)) for k, v in pairs.items()}
        )
        object.__setattr__(self, "_at_city", {k: tuple(v) for k, v in at_city.items()})
        object.__setattr__(
            self, "_route_keys", {normalize_name(r): r for r in self.routes}
        )
        object.__setattr__(
            self, "_tickets", {frozenset((t.a, t.b)): t for t in self.tickets}
        )
        # A ticket with several destinations is also found from its origin by any one of them
        # (France to Deutschland: France's ticket; Deutschland to France: Deutschland's).
        object.__setattr__(self, "_by_end", {(t.a, end): t for t in self.tickets if t.several
                                             for end, _ in t.ends})

    def city(self, name: str) -> str:
        """The printed name of a city typed any way (case, accents, aliases)."""
        found = self._city_keys.get(normalize_name(name))  # type: ignore[attr-defined]
        if found is None:
            raise UnknownCity(name, Message("on the {board} board", {"board": self.title}),
                              self.suggest_cities(name))
        return found

    def place(self, name: str) -> str:
        """The printed name of a city or a country (a ticket's end) typed any way."""
        found = self._place_keys.get(normalize_name(name))  # type: ignore[attr-defined]
        if found is None:
            return self.city(name)  # raises UnknownCity with the nearest names
        return found

    def place_cities(self, place: str) -> tuple[str, ...]:
        """The cities a ticket's end stands for: a city itself, a country its border points."""
        return self.countries.get(place, (place,))

    def place_of(self, city: str) -> str:
        """What a city stands for on a ticket: its country for a border point, else itself."""
        return self._country_of.get(city, city)  # type: ignore[attr-defined]

    def ticket_ends(self, a: str, b: str) -> tuple[str, str]:
        """A ticket's two ends typed any way, as the board prints them: places, or for a ticket
        with several destinations its origin and the destinations' joined name."""
        a = self.place(a)
        for ticket in self.tickets:
            if ticket.a == a and ticket.several and normalize_name(ticket.b) == normalize_name(b):
                return a, ticket.b
        return a, self.place(b)

    def suggest_cities(self, name: str, n: int = 2) -> tuple[str, ...]:
        keys = self._city_keys  # type: ignore[attr-defined]
        close = difflib.get_close_matches(normalize_name(name), list(keys), n=n * 2, cutoff=0.6)
        return tuple(dict.fromkeys(keys[k] for k in close))[:n]

    def route(self, route_id: str) -> Route:
        """The route with this id (``a--b``, ``a--b--2``), matched without case."""
        found = self._route_keys.get(normalize_name(route_id))  # type: ignore[attr-defined]
        if found is None:
            close = difflib.get_close_matches(route_id.casefold(), list(self.routes), n=2)
            raise UnknownRoute(route_id, Message("on the {board} board", {"board": self.title}),
                               tuple(close))
        return self.routes[found]

    def lanes(self, a: str, b: str) -> tuple[Route, ...]:
        """Every lane between two cities (given by printed name), first lane first."""
        return self._pairs.get(frozenset((a, b)), ())  # type: ignore[attr-defined]

    def siblings(self, route: Route) -> tuple[Route, ...]:
        """The other lanes of a double route (empty for a single route)."""
        return tuple(r for r in self.lanes(route.a, route.b) if r.id != route.id)

    def routes_at(self, city: str) -> tuple[Route, ...]:
        return self._at_city.get(city, ())  # type: ignore[attr-defined]

    def ticket(self, a: str, b: str) -> Ticket | None:
        """The deck ticket between two places (either order), if there is one; a ticket with
        several destinations from its origin ``a`` by its joined name or any destination."""
        found = self._tickets.get(frozenset((a, b)))  # type: ignore[attr-defined]
        return found or self._by_end.get((a, b))  # type: ignore[attr-defined]

    @property
    def size_cm(self) -> tuple[float, float]:
        """The physical board's width and height in cm (outer edge of the border)."""
        return float(self.board_frame["width_cm"]), float(self.board_frame["height_cm"])

    @property
    def aspect(self) -> float:
        """The physical board's width over its height."""
        width, height = self.size_cm
        return width / height

    def art_to_cm(self, x: float, y: float) -> tuple[float, float]:
        """Art-frame pixels to centimetres on the physical board (outer edge of the border)."""
        f = self.board_frame
        return f["ax"] * x + f["bx"], f["ay"] * y + f["by"]


def _lane_order(route: Route) -> tuple[int, str]:
    return (route.id.count("--"), route.id)


def board_from_json(data: Mapping[str, Any]) -> Board:
    """Build and validate a board from the reference JSON format."""
    try:
        name = str(data["map"])
        cities = {c["name"]: City(c["name"], float(c["x"]), float(c["y"])) for c in data["cities"]}
        routes = {
            r["id"]: Route(
                id=r["id"],
                a=r["a"],
                b=r["b"],
                length=int(r["length"]),
                color=r["color"],
                tunnel=bool(r.get("tunnel", False)),
                ferry_locomotives=int(r.get("ferry_locomotives", 0)),
                spaces=tuple(Space(float(x), float(y), float(a)) for x, y, a in r["spaces"]),
            )
            for r in data["routes"]
        }
        tickets = tuple(_ticket_from_json(t) for t in data["tickets"])
        countries = {c["name"]: tuple(c["border_points"]) for c in data.get("countries", ())}
        board = Board(
            name=name,
            title=str(data.get("title") or name.title()),
            edition=str(data.get("edition", name)),
            cities=cities,
            routes=routes,
            tickets=tickets,
            aliases=dict(data.get("aliases", {})),
            art_frame=dict(data["art_frame"]),
            board_frame=dict(data["board_frame"]),
            invariants=dict(data.get("invariants", {})),
            sources=tuple(data.get("sources", ())),
            countries=countries,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise BoardDataError("Board file is malformed: {error}", error=repr(exc)) from exc
    validate(board)
    return board


def _ticket_from_json(t: Mapping[str, Any]) -> Ticket:
    """A ticket of a board or deck file: ``a``, ``b``, ``points``, or ``a`` and ``ends`` (one
    ``[place, points]`` per destination); ``long`` and ``copies`` optional."""
    long, copies = bool(t.get("long", False)), int(t.get("copies", 1))
    if "ends" in t:
        ends = tuple((str(end), int(points)) for end, points in t["ends"])
        if len(ends) > 1:
            return Ticket(t["a"], ticket_label([end for end, _ in ends]),
                          max(points for _, points in ends), long, ends, copies)
        (b, points), = ends
        return Ticket(t["a"], b, points, long, copies=copies)
    return Ticket(t["a"], t["b"], int(t["points"]), long, copies=copies)


def validate(board: Board) -> None:
    """Raise BoardDataError unless every route and ticket is consistent with the cities."""
    problems: list[str] = []
    if len(board.routes) != len({r.id for r in board.routes.values()}):
        problems.append("duplicate route ids")
    for route in board.routes.values():
        for end in (route.a, route.b):
            if end not in board.cities:
                problems.append(f"route {route.id} ends at unknown city {end!r}")
        if route.a == route.b:
            problems.append(f"route {route.id} is a loop")
        if route.id not in (route_id(route.a, route.b), route_id(route.a, route.b) + "--2"):
            problems.append(f"route {route.id} should be named {route_id(route.a, route.b)} "
                            f"(or --2 for a second lane)")
        if route.length != len(route.spaces) or route.length < 1:
            problems.append(f"route {route.id} has length {route.length} but "
                            f"{len(route.spaces)} spaces")
    for pair_routes in board._pairs.values():  # type: ignore[attr-defined]
        ids = [r.id for r in pair_routes]
        if len(pair_routes) > 2:
            problems.append(f"more than two lanes: {ids}")
        if len(pair_routes) == 2 and not pair_routes[1].id.endswith("--2"):
            problems.append(f"second lane of a double is not named --2: {ids}")
    places = set(board.cities) | set(board.countries)
    for ticket in board.tickets:
        for end in (ticket.a, *(end for end, _ in ticket.ends)):
            if end not in places:
                problems.append(f"ticket {ticket.a}-{ticket.b} names unknown city {end!r}")
        if min(points for _, points in ticket.ends) < 1 or ticket.copies < 1:
            problems.append(f"ticket {ticket.a}-{ticket.b} has {ticket.values} points, "
                            f"{ticket.copies} copies")
        if ticket.a in (end for end, _ in ticket.ends):
            problems.append(f"ticket {ticket.a}-{ticket.b} leads to its own origin")
    if len({frozenset((t.a, t.b)) for t in board.tickets}) != len(board.tickets):
        problems.append("a ticket listed twice (give it copies instead)")
    seen: set[str] = set()
    for country, points in board.countries.items():
        if country in board.cities:
            problems.append(f"country {country!r} is also a city")
        for point in points:
            if point not in board.cities or point in seen:
                problems.append(f"border point {point!r} of {country} is no city, or twice")
            seen.add(point)
    for alias, target in board.aliases.items():
        if target not in places:
            problems.append(f"alias {alias!r} points to unknown city {target!r}")
    if problems:
        raise BoardDataError("Board {board!r} is inconsistent: {problems}", board=board.name,
                             problems="; ".join(problems))


def board_counts(board: Board) -> dict[str, Any]:
    """The counts the reference data states as invariants, computed from the board."""
    routes = list(board.routes.values())
    pairs = board._pairs.values()  # type: ignore[attr-defined]
    return {
        "cities": len(board.cities),
        "routes": len(routes),
        "city_pairs": len(pairs),
        "double_pairs": sum(len(p) == 2 for p in pairs),
        "train_spaces_total": sum(r.length for r in routes),
        "routes_by_length": {
            str(k): v for k, v in sorted(Counter(r.length for r in routes).items())
        },
        "tunnels": sum(r.tunnel for r in routes),
        "ferries": sum(r.ferry_locomotives > 0 for r in routes),
        "tickets": len(board.tickets),
        "ticket_cards": sum(t.copies for t in board.tickets),
        "countries": len(board.countries),
    }


def load_board_file(path: str | Path) -> Board:
    """Load a board from any file in the reference format (for other maps)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BoardDataError("Cannot read board file {path}: {error}", path=str(path),
                             error=str(exc)) from exc
    return board_from_json(data)


def load_board(name: str, deck: tuple[str, str] | None = None) -> Board:
    """The packaged board ``usa`` or ``europe`` (loaded once, then shared: boards are frozen).

    ``deck`` (a file of ``scorer/boards/decks`` and a deck in it) replaces the board's tickets
    with that deck's, for the rule sets that bring their own (USA 1910, Europe 1912).
    """
    key = name.strip().lower()
    if key not in BOARD_NAMES:
        raise BoardDataError("Unknown board {name!r}. Boards: {boards}.", name=name,
                             boards=", ".join(BOARD_NAMES))
    return _packaged_board(key, deck)


@cache
def _packaged_board(key: str, deck: tuple[str, str] | None) -> Board:
    if deck is not None:
        board = replace(_packaged_board(key, None), tickets=load_deck(*deck))
        validate(board)
        return board
    text = resources.files("scorer.boards").joinpath(f"{key}.json").read_text(encoding="utf-8")
    board = board_from_json(json.loads(text))
    if board.name != key:  # rule sets, forms and the photo find a board by its file's name
        raise BoardDataError("Board file {key}.json says \"map\": {name!r}; the two must be "
                             "the same.", key=key, name=board.name)
    return board


@cache
def load_deck(file: str, deck: str) -> tuple[Ticket, ...]:
    """One ticket deck of a packaged deck file, checked against the file's own invariants."""
    try:
        path = resources.files("scorer.boards").joinpath("decks", f"{file}.json")
        data = json.loads(path.read_text(encoding="utf-8"))
        tickets = tuple(_ticket_from_json(t) for t in data["decks"][deck])
        expected = data.get("invariants", {}).get(deck, {})
    except (OSError, KeyError, TypeError, ValueError) as exc:
        raise BoardDataError("Deck {file}/{deck} is missing or malformed: {error}", file=file,
                             deck=deck, error=repr(exc)) from exc
    found = {
        "tickets": len(tickets),
        "points_total": sum(t.points for t in tickets),
        "points_range": [min(t.points for t in tickets), max(t.points for t in tickets)],
        "by_origin": dict(Counter(t["origin"] for t in data["decks"][deck])),
        "regular": sum(not t.long for t in tickets),
        "long": sum(t.long for t in tickets),
    }
    wrong = {k: found.get(k) for k in expected if found.get(k) != expected[k]}
    if wrong or len({frozenset((t.a, t.b)) for t in tickets}) != len(tickets):
        raise BoardDataError("Deck {file}/{deck} breaks its invariants: {wrong}", file=file,
                             deck=deck, wrong=str(wrong or "a pair twice"))
    return tickets
