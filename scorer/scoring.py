"""Scoring a game: routes, tickets (with Europe stations), bonuses, totals, winners, tie-break."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from scorer.boards import Board, Route, Ticket
from scorer.connectivity import UnionFind, components, joined_twice
from scorer.game import Game, HeldTicket
from scorer.longest import LongestPath, longest_path
from scorer.messages import Message, Names, plural
from scorer.rules import Variant


@dataclass(frozen=True)
class TicketResult:
    a: str
    b: str
    points: int  # what it scores, unsigned (several values: the one that counts)
    completed: bool
    helped_by: tuple[str, ...] = ()  # cities of the stations whose borrowed route it needs
    # A ticket with several destinations: the one reached whose value counts (None: failed).
    reached: str | None = None
    # Joined by two paths of its owner's routes sharing no route (India's Grand Tour).
    twice: bool = False

    @property
    def score(self) -> int:
        return self.points if self.completed else -self.points

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "from": self.a, "to": self.b, "points": self.points, "completed": self.completed,
        }
        if self.reached is not None:
            data["reached"] = self.reached
        if self.twice:
            data["twice"] = True
        if self.helped_by:
            data["stations"] = list(self.helped_by)
        return data


def ticket_outcome(
    board: Board, ticket: HeldTicket, joined: Callable[[str, str], bool]
) -> tuple[int, str | None]:
    """What a held ticket scores when ``joined(city, city)`` says which cities its owner's
    routes join: the highest value among the destinations reached (a country: any of its
    border points) and that destination, or minus its lowest value and None."""
    origins = board.place_cities(ticket.a)

    def reached(end: str) -> bool:
        return any(joined(o, c) for o in origins for c in board.place_cities(end))

    return Ticket(ticket.a, ticket.b, ticket.points, ends=ticket.ends).value(reached)


@dataclass(frozen=True)
class Borrow:
    city: str
    route: str


@dataclass(frozen=True)
class Bonus:
    """An end-of-game bonus as scored: its key (``Variant.bonuses``), its name, and the points
    it gives each player who holds it (the others get none)."""

    key: str
    name: str
    points: tuple[tuple[str, int], ...]

    @property
    def holders(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.points)

    def of(self, player: str) -> int:
        return dict(self.points).get(player, 0)


@dataclass(frozen=True)
class PlayerScore:
    name: str
    color: str
    route_points: int
    routes: tuple[str, ...]
    trains_used: int
    trains_left: int
    tickets: tuple[TicketResult, ...]
    stations_placed: int
    station_points: int
    borrowed_routes: tuple[Borrow, ...]
    path: LongestPath
    # Every bonus of the set, (key, points): the player's share of each (0 for none).
    bonuses: tuple[tuple[str, int], ...] = ()

    def bonus(self, key: str) -> int:
        """The points a bonus (``Variant.bonuses``' key) gives this player."""
        return dict(self.bonuses).get(key, 0)

    @property
    def longest_bonus(self) -> int:
        return self.bonus("longest")

    @property
    def express_bonus(self) -> int:
        return self.bonus("express")

    @property
    def globetrotter_bonus(self) -> int:
        return self.bonus("globetrotter")

    @property
    def grand_tour_bonus(self) -> int:
        return self.bonus("grand_tour")

    @property
    def tickets_twice(self) -> int:
        """Completed tickets joined by two paths sharing no route (India's Grand Tour)."""
        return sum(t.twice for t in self.tickets)

    @property
    def ticket_points(self) -> int:
        return sum(t.score for t in self.tickets)

    @property
    def tickets_completed(self) -> int:
        return sum(t.completed for t in self.tickets)

    @property
    def total(self) -> int:
        return (self.route_points + self.ticket_points + self.station_points
                + sum(points for _, points in self.bonuses))

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "color": self.color,
            "route_points": self.route_points,
            "routes": list(self.routes),
            "trains_used": self.trains_used,
            "trains_left": self.trains_left,
            "tickets": [t.to_json() for t in self.tickets],
            "ticket_points": self.ticket_points,
            "tickets_completed": self.tickets_completed,
            "stations_placed": self.stations_placed,
            "station_points": self.station_points,
            "borrowed_routes": [{"city": b.city, "route": b.route} for b in self.borrowed_routes],
            "longest_path": {
                "length": self.path.length,
                "cities": list(self.path.cities),
                "routes": list(self.path.keys),
            },
            # the spec's three, on every set; any other bonus of the set after them
            "longest_bonus": self.longest_bonus,
            "express_bonus": self.express_bonus,
            "globetrotter_bonus": self.globetrotter_bonus,
            **{f"{key}_bonus": points for key, points in self.bonuses
               if key not in ("longest", "express", "globetrotter")},
            "total": self.total,
        }


@dataclass(frozen=True)
class Scoresheet:
    variant: str
    players: tuple[PlayerScore, ...]
    ranking: tuple[str, ...]  # best first, by points then the tie-break keys
    winners: tuple[str, ...]
    # Why the tie ends as it does, for the web to translate; None without a tie.
    tiebreak_message: Message | None
    express_order: tuple[str, ...] | None = None  # None: the set has no Express cards
    longest_path_bonus: bool = True  # False: the table played without its longest-path card
    bonuses: tuple[Bonus, ...] = ()  # every bonus of the set, with who holds it

    def bonus(self, key: str) -> Bonus | None:
        return next((b for b in self.bonuses if b.key == key), None)

    @property
    def tiebreak(self) -> str | None:
        """The tie-break in English, as the score JSON gives it."""
        return None if self.tiebreak_message is None else str(self.tiebreak_message)

    def player(self, name: str) -> PlayerScore:
        return next(p for p in self.players if p.name == name)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "variant": self.variant,
            "players": [p.to_json() for p in self.players],
            "winners": list(self.winners),
            "tiebreak": self.tiebreak,
        }
        if self.express_order is not None:
            data["express_order"] = list(self.express_order)
        if not self.longest_path_bonus:
            data["longest_path_bonus"] = False
        return data


# --- tickets and stations --------------------------------------------------------------------


def _ticket_results(
    board: Board, tickets: Sequence[HeldTicket], own: Sequence[Route],
    borrows: Sequence[Borrow], borrowed: dict[str, Route],
) -> tuple[TicketResult, ...]:
    edges = [(r.a, r.b) for r in own]
    uf = components(edges + [(borrowed[b.route].a, borrowed[b.route].b) for b in borrows])
    results = []
    for t in tickets:
        value, reached = ticket_outcome(board, t, uf.same)
        done = value > 0
        helped: tuple[str, ...] = ()
        if done and borrows:
            # A station helps when the ticket scores less without its borrowed route.
            helped = tuple(
                b.city for b in borrows
                if ticket_outcome(board, t, components(
                    edges + [(borrowed[o.route].a, borrowed[o.route].b)
                             for o in borrows if o is not b]).same)[0] < value
            )
        results.append(TicketResult(t.a, t.b, abs(value), done, helped,
                                    reached if len(t.ends) > 1 else None))
    return tuple(results)


def best_station_use(
    game: Game, player: str, tickets: Sequence[HeldTicket]
) -> tuple[tuple[TicketResult, ...], tuple[Borrow, ...]]:
    """Tickets scored with the best choice of one opponent route per station.

    Every combination is tried (at most 3 stations, a handful of routes per city); ties go to
    the choice that borrows fewest routes, then to the first in board order, so the reported
    choice is stable and only lists borrowings that matter.
    """
    own = game.routes_of(player)
    options: list[list[Borrow | None]] = []
    borrowed: dict[str, Route] = {}
    for city in game.stations_of(player):
        choices: list[Borrow | None] = [None]
        for route in game.board.routes_at(city):
            owner = game.owner(route.id)
            if owner is not None and owner != player:
                choices.append(Borrow(city, route.id))
                borrowed[route.id] = route
        options.append(choices)
    best: tuple[int, int] | None = None
    best_results: tuple[TicketResult, ...] = ()
    best_borrows: tuple[Borrow, ...] = ()
    for combo in itertools.product(*options):
        borrows = tuple(b for b in combo if b is not None)
        results = _ticket_results(game.board, tickets, own, borrows, borrowed)
        key = (sum(t.score for t in results), -len(borrows))
        if best is None or key > best:
            best, best_results, best_borrows = key, results, borrows
    return best_results, best_borrows


def express_order(game: Game) -> tuple[str, ...]:
    """Who took the Europe Express cards, in order: as entered, or from claim chronology."""
    ends = game.express_ends()
    if game.express_order is not None:
        # A card holder must have the connection at the end.
        return tuple(p for p in game.express_order if game.connects(p, *ends))
    order: list[str] = []
    uf: dict[str, UnionFind] = {p.name: UnionFind() for p in game.players}
    for claim in game.claims:
        route = game.board.routes[claim.route]
        uf[claim.player].union(route.a, route.b)
        if claim.player not in order and uf[claim.player].same(*ends):
            order.append(claim.player)
    return tuple(order)


# --- what a table checks against its board -----------------------------------------------------

TRACK_SPACES = 100  # the score track: 0/100 is one corner space


def score_track(total: int) -> tuple[int, int]:
    """Where a total's marker stands on the score track and how many full laps it made
    (rules.md: the marker shows the total modulo 100; a negative total is behind the start,
    lap -1)."""
    return total % TRACK_SPACES, total // TRACK_SPACES


def route_groups(game: Game, player: PlayerScore) -> tuple[tuple[int, int, int], ...]:
    """A player's routes grouped by length, longest first: (length, count, points each)."""
    counts: dict[int, int] = {}
    for route_id in player.routes:
        length = game.board.routes[route_id].length
        counts[length] = counts.get(length, 0) + 1
    return tuple((length, n, game.variant.route_points(length))
                 for length, n in sorted(counts.items(), reverse=True))


# --- the whole sheet -------------------------------------------------------------------------


def score(game: Game) -> Scoresheet:
    """Score every player, rank them and decide the winners with the variant's tie-break."""
    variant = game.variant
    paths = {
        p.name: _longest_of(tuple((r.a, r.b, r.length, r.id) for r in game.routes_of(p.name)))
        for p in game.players
    }
    order = express_order(game) if variant.express_cards else None
    players = []
    for p in game.players:
        routes = game.routes_of(p.name)
        held = [t for t in game.tickets if t.player == p.name]
        tickets, borrows = best_station_use(game, p.name, held)
        if variant.grand_tour:
            tickets = _joined_twice(game, routes, held, tickets)
        placed = len(game.stations_of(p.name))
        players.append(PlayerScore(
            name=p.name,
            color=p.color,
            route_points=sum(variant.route_points(r.length) for r in routes),
            routes=tuple(r.id for r in routes),
            trains_used=sum(r.length for r in routes),
            trains_left=game.trains_left(p.name),
            tickets=tickets,
            stations_placed=placed,
            station_points=(variant.stations - placed) * variant.station_points,
            borrowed_routes=borrows,
            path=paths[p.name],
        ))
    bonuses = []
    for key, name in variant.bonuses:
        given = BONUS_RULES[key](game, players, order)  # once per bonus, not per player
        bonuses.append(Bonus(key, name, tuple((p.name, given[p.name]) for p in players
                                              if given.get(p.name))))
    players = [replace(p, bonuses=tuple((b.key, b.of(p.name)) for b in bonuses))
               for p in players]
    ranking, winners, tiebreak = _rank(variant, players)
    return Scoresheet(variant.name, tuple(players), ranking, winners, tiebreak, order,
                      game.longest_path_bonus, tuple(bonuses))


@lru_cache(maxsize=4096)
def _longest_of(routes: tuple[tuple[str, str, int, str], ...]) -> LongestPath:
    """``longest_path`` of a player's routes, remembered: a tap changes one player's routes,
    and every answer that scores the game (the tickets, the results) finds the others' paths
    as they were (the same routes in the same order give the same path)."""
    return longest_path(routes)


def _joined_twice(
    game: Game, routes: Sequence[Route], held: Sequence[HeldTicket],
    results: tuple[TicketResult, ...],
) -> tuple[TicketResult, ...]:
    """Each completed ticket marked when two paths of the owner's own routes sharing no route
    join it (to the destination whose value counts)."""
    edges = [(r.a, r.b) for r in routes]
    board = game.board
    return tuple(
        replace(r, twice=joined_twice(edges, board.place_cities(t.a),
                                      board.place_cities(r.reached or t.ends[0][0])))
        if r.completed else r
        for t, r in zip(held, results, strict=True)
    )


# --- the bonuses: one rule per key of Variant.bonuses, each the points by player -----------


def _longest(game: Game, players: Sequence[PlayerScore], _order: Any) -> dict[str, int]:
    """The longest-path card to every player with the longest path (none without a route)."""
    longest = max((p.path.length for p in players), default=0)
    return {p.name: game.variant.longest_bonus for p in players if 0 < longest == p.path.length}


def _express(game: Game, _players: Sequence[PlayerScore], order: Any) -> dict[str, int]:
    """The Europe Express cards, in the order taken."""
    return dict(zip(order or (), game.express_bonus_values, strict=False))


def _globetrotter(game: Game, players: Sequence[PlayerScore], _order: Any) -> dict[str, int]:
    """The Globetrotter card to every player with the most completed tickets (none for 0)."""
    most = max((p.tickets_completed for p in players), default=0)
    return {p.name: game.variant.globetrotter_bonus for p in players
            if most and p.tickets_completed == most}


def _grand_tour(game: Game, players: Sequence[PlayerScore], _order: Any) -> dict[str, int]:
    """India's Grand Tour: by the count of tickets joined twice, the set's table (the last
    entry for that many and more)."""
    table = game.variant.grand_tour
    return {p.name: table[min(p.tickets_twice, len(table) - 1)] for p in players}


BONUS_RULES: dict[str, Callable[[Game, Sequence[PlayerScore], Any], dict[str, int]]] = {
    "longest": _longest, "express": _express, "globetrotter": _globetrotter,
    "grand_tour": _grand_tour,
}


def _bonus_held(key: str, p: PlayerScore) -> bool:
    return p.bonus(key) > 0


def _rank(
    variant: Variant, players: Sequence[PlayerScore]
) -> tuple[tuple[str, ...], tuple[str, ...], Message | None]:
    keys = variant.tiebreak

    def sort_key(p: PlayerScore) -> tuple[int, ...]:
        extra = {"tickets": p.tickets_completed, "stations": -p.stations_placed}
        return (p.total, *(extra[k] if k in extra else int(_bonus_held(k, p)) for k in keys))

    ranked = sorted(players, key=sort_key, reverse=True)
    top = [p for p in ranked if p.total == ranked[0].total]
    if len(top) == 1:
        return tuple(p.name for p in ranked), (top[0].name,), None
    best = sort_key(ranked[0])
    winners = [p for p in top if sort_key(p) == best]
    return tuple(p.name for p in ranked), tuple(p.name for p in winners), _tiebreak_message(
        variant, top, winners
    )


def _names(players: Sequence[PlayerScore]) -> Names:
    return Names(tuple(p.name for p in players))


def _counts(players: Sequence[PlayerScore], count: Callable[[PlayerScore], int]) -> str:
    return ", ".join(f"{p.name} {count(p)}" for p in players)


def _tiebreak_message(
    variant: Variant, top: Sequence[PlayerScore], winners: Sequence[PlayerScore],
) -> Message:
    """Why the tie ends as it does, step by step: "Ann and Bob tie on 50 points; Ann
    completed the most tickets (Ann 4, Bob 3): Ann wins." Each step is a message of its own
    so that the web can say it in French, with the names as typed."""
    reasons = Message("{names} tie on {points} points", {"names": _names(top),
                                                         "points": top[0].total})
    remaining = list(top)
    for key in variant.tiebreak:
        both = len(remaining) == 2
        if key == "tickets":
            most = max(p.tickets_completed for p in remaining)
            kept = [p for p in remaining if p.tickets_completed == most]
            if len(kept) < len(remaining):
                reason = plural(len(kept), "{names} completed the most tickets ({counts})",
                                "{names} completed the most tickets ({counts})",
                                names=_names(kept),
                                counts=_counts(remaining, lambda p: p.tickets_completed))
            elif both:
                reason = plural(most, "both completed {count} ticket",
                                "both completed {count} tickets")
            else:
                reason = plural(most, "all completed {count} ticket",
                                "all completed {count} tickets")
        elif key == "stations":
            fewest = min(p.stations_placed for p in remaining)
            kept = [p for p in remaining if p.stations_placed == fewest]
            if len(kept) < len(remaining):
                reason = plural(len(kept), "{names} placed the fewest stations ({counts})",
                                "{names} placed the fewest stations ({counts})",
                                names=_names(kept),
                                counts=_counts(remaining, lambda p: p.stations_placed))
            elif both:
                reason = plural(fewest, "both placed {count} station",
                                "both placed {count} stations")
            else:
                reason = plural(fewest, "all placed {count} station",
                                "all placed {count} stations")
        else:
            bonus = Message(variant.bonus_title(key))
            kept = [p for p in remaining if _bonus_held(key, p)] or remaining
            if len(kept) < len(remaining):
                reason = plural(len(kept), "{names} holds the {bonus} bonus",
                                "{names} hold the {bonus} bonus", names=_names(kept),
                                bonus=bonus)
            elif _bonus_held(key, remaining[0]) and both:
                reason = Message("both hold the {bonus} bonus", {"bonus": bonus})
            elif _bonus_held(key, remaining[0]):
                reason = Message("all hold the {bonus} bonus", {"bonus": bonus})
            elif both:
                reason = Message("neither holds the {bonus} bonus", {"bonus": bonus})
            else:
                reason = Message("none holds the {bonus} bonus", {"bonus": bonus})
        reasons = Message("{reasons}; {reason}", {"reasons": reasons, "reason": reason})
        remaining = kept
        if len(remaining) == 1:
            verdict = Message("{name} wins", {"name": remaining[0].name})
            return Message("{reasons}: {verdict}.", {"reasons": reasons, "verdict": verdict})
    assert len(remaining) == len(winners)
    return Message("{reasons}: {verdict}.",
                   {"reasons": reasons, "verdict": Message("they share the win")})
