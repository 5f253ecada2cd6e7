"""The table's records: who played, who won and the best scores, across the games a device sees.

Per player: games, wins (a shared win counts for each winner), the most tickets completed in one
game, the longest path, and per rule set the games, wins, average and best total; per rule set,
the highest score and who made it. A player is a name as typed, whatever its case and
surrounding spaces ("ann" is "Ann"); the page shows the spelling of their latest finished
game.

Which games: those the device's history lists (``devices``: made or opened here, by either
link), so a table sees its own games' records only. The person at the table's own server
(``make run``) sees every game on it from that machine's browser: ``security.host_view``
decides, from the ``HOST_VIEW`` setting (off under ``make serve`` and by default).

Which games count: the finished ones. The app has no "game over" button; the rules end the game
after the round in which a player gets down to 2 trains or fewer, and the app marks that final
round (the banner, the strip). A game counts once its final round is triggered, and stops
counting when Undo takes it back. The page says how many games are left out.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field

from flask import Blueprint, Response, current_app, render_template

from scorer.game import Game
from scorer.rules import VARIANTS, Variant
from scorer.web import store
from scorer.web.common import scoresheet
from scorer.web.db import get_db
from scorer.web.devices import device_id, old_games_listed
from scorer.web.i18n import current_language
from scorer.web.security import host_view

bp = Blueprint("records", __name__)

# Games read for the records, newest first: years of a table's evenings.
MAX_GAMES = 5_000
CSV_COLUMNS = ("player", "rule_set", "games", "wins", "average_total", "best_total",
               "most_tickets_completed", "longest_path")


def finished(game: Game) -> bool:
    """Whether the game counts in the records: its final round has been triggered."""
    return bool(game.final_round_triggered())


def player_key(name: str) -> str:
    """One player across games: the name as typed, whatever its case and surrounding spaces."""
    return name.strip().casefold()


@dataclass(frozen=True)
class Result:
    """One player's figures in one finished game."""

    name: str
    total: int
    won: bool
    tickets_completed: int
    longest_path: int


@dataclass
class SetRecord:
    """A player's games in one rule set."""

    variant: Variant
    games: int = 0
    wins: int = 0
    points: int = 0
    best: int | None = None
    most_tickets: int = 0
    longest_path: int = 0

    @property
    def average(self) -> float:
        return self.points / self.games

    def add(self, result: Result) -> None:
        self.games += 1
        self.wins += result.won
        self.points += result.total
        self.best = result.total if self.best is None else max(self.best, result.total)
        self.most_tickets = max(self.most_tickets, result.tickets_completed)
        self.longest_path = max(self.longest_path, result.longest_path)


@dataclass
class PlayerRecord:
    """A player's records: totals over every rule set, and each rule set's own."""

    name: str
    sets: dict[str, SetRecord] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return sum(s.games for s in self.sets.values())

    @property
    def wins(self) -> int:
        return sum(s.wins for s in self.sets.values())

    @property
    def most_tickets(self) -> int:
        return max(s.most_tickets for s in self.sets.values())

    @property
    def longest_path(self) -> int:
        return max(s.longest_path for s in self.sets.values())

    def by_rule_set(self) -> list[SetRecord]:
        """The rule sets played, in the order of the rule sets."""
        return [self.sets[name] for name in VARIANTS if name in self.sets]


@dataclass(frozen=True)
class HighScore:
    variant: Variant
    score: int
    names: tuple[str, ...]  # every player who made it, in their latest spelling
    games: int


@dataclass(frozen=True)
class Records:
    players: tuple[PlayerRecord, ...]  # most wins first, then most games
    high_scores: tuple[HighScore, ...]  # in the order of the rule sets
    counted: int  # finished games
    left_out: int  # games not finished


def table_records(games: Iterable[tuple[str, tuple[Result, ...] | None]]) -> Records:
    """The records of games given newest first as (rule set, results); results None: a game
    not finished."""
    players: dict[str, PlayerRecord] = {}
    best: dict[str, tuple[int, list[str]]] = {}
    per_set: dict[str, int] = {}
    counted = left_out = 0
    for variant_name, results in games:
        if results is None:
            left_out += 1
            continue
        counted += 1
        variant = VARIANTS[variant_name]
        per_set[variant_name] = per_set.get(variant_name, 0) + 1
        for result in results:
            record = players.setdefault(player_key(result.name), PlayerRecord(result.name))
            record.sets.setdefault(variant_name, SetRecord(variant)).add(result)
            top, holders = best.get(variant_name, (result.total, []))
            if result.total > top:
                top, holders = result.total, []
            if result.total == top and player_key(result.name) not in holders:
                holders.append(player_key(result.name))
            best[variant_name] = (top, holders)
    high_scores = tuple(
        HighScore(VARIANTS[name], best[name][0],
                  tuple(players[key].name for key in best[name][1]), per_set[name])
        for name in VARIANTS if name in best
    )
    ranked = sorted(players.values(),
                    key=lambda p: (-p.wins, -p.games, p.name.casefold()))
    return Records(tuple(ranked), high_scores, counted, left_out)


def results_of(stored: store.StoredGame) -> tuple[Result, ...] | None:
    """Every player's figures in the game, or None when it is not finished."""
    if not finished(stored.game):
        return None
    sheet = scoresheet(stored)
    return tuple(
        Result(p.name, p.total, p.name in sheet.winners, p.tickets_completed, p.path.length)
        for p in sheet.players
    )


def visible_records() -> tuple[Records, bool]:
    """The records of the games this request may see, and whether they are the whole
    server's (the host's view)."""
    db = get_db()
    everything = host_view()
    listed = store.history(db, None if everything else device_id(),
                           old=old_games_listed(current_app), limit=MAX_GAMES)
    games = []
    for item in listed:
        stored = store.load(db, item.id)
        if stored is not None:  # deleted since the list was read
            games.append((stored.variant, results_of(stored)))
    return table_records(games), everything


def decimal(value: float) -> str:
    """A figure with one decimal, written the way the page's language writes it."""
    text = f"{value:.1f}"
    return text.replace(".", ",") if current_language() == "fr" else text


@bp.get("/records")
def records() -> str:
    found, everything = visible_records()
    return render_template("pages/records.html", records=found, everything=everything,
                           decimal=decimal)


# A spreadsheet runs a cell that starts with one of these as a formula: names are typed by
# anyone at any table, so such a name is written with a leading apostrophe (shown as text).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    return "'" + text if text.startswith(_FORMULA_START) else text


@bp.get("/records.csv")
def records_csv() -> Response:
    """One row per player and rule set, the page's players in the page's order."""
    found, _everything = visible_records()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for player in found.players:
        for s in player.by_rule_set():
            writer.writerow((_cell(player.name), s.variant.name, s.games, s.wins,
                             f"{s.average:.1f}", s.best, s.most_tickets, s.longest_path))
    # The byte-order mark makes spreadsheets read the file as UTF-8 (accented names).
    return Response("\ufeff" + out.getvalue(), mimetype="text/csv", headers={
        "Content-Disposition": 'attachment; filename="terminus-records.csv"'})

