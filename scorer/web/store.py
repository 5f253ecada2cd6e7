"""Games as action logs: create, load (replay up to the undo cursor), record, undo, redo.

The current game is always the replay of the log up to the cursor. Replays are memoised per
game and version (the version changes with every write), which only saves time: a fresh process
or another worker rebuilds the same game from the database.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from scorer.errors import IllegalMove
from scorer.game import (
    Action,
    AddTicket,
    ClaimRoute,
    Game,
    PlaceStation,
    Player,
    SetExpressOrder,
    action_from_json,
)
from scorer.scoring import score
from scorer.web.db import Connection, transaction

MAX_GAME_NAME = 80
# Steps a game's log may hold: a real game makes a few hundred taps; 5,000 replay in ~60 ms, so a
# script tapping for days cannot make a game whose every Undo holds up the other tables.
MAX_ACTIONS = 10_000
_CACHE_SIZE = 64


@dataclass(frozen=True)
class StoredGame:
    """One game row with its replayed state. ``log`` holds every action, also undone ones."""

    id: str
    share: str
    name: str
    variant: str
    cursor: int
    version: int
    created: str
    updated: str
    log: tuple[Action, ...]
    game: Game

    @property
    def can_undo(self) -> bool:
        return self.cursor > 0

    @property
    def can_redo(self) -> bool:
        return self.cursor < len(self.log)


class _ReplayCache:
    """Replayed games by (database, game id), valid for one version only."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[tuple[str, str], tuple[int, tuple[Action, ...], Game]] = (
            OrderedDict()
        )
        self.lock = threading.Lock()

    def get(self, key: tuple[str, str], version: int) -> tuple[tuple[Action, ...], Game] | None:
        with self.lock:
            item = self.items.get(key)
            if item is None or item[0] != version:
                return None
            self.items.move_to_end(key)
            return item[1], item[2]

    def put(self, key: tuple[str, str], version: int, log: tuple[Action, ...], game: Game) -> None:
        with self.lock:
            self.items[key] = (version, log, game)
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def drop(self, key: tuple[str, str]) -> None:
        with self.lock:
            self.items.pop(key, None)


_cache = _ReplayCache(_CACHE_SIZE)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _db_key(db: Connection) -> str:
    return db.path


def setup_of(game: Game) -> dict[str, Any]:
    return {
        "players": [{"name": p.name, "color": p.color} for p in game.players],
        "express_bonus_values": (
            list(game.express_bonus_values) if game.variant.express_cards else None
        ),
    }


def _new_game(variant: str, setup: dict[str, Any]) -> Game:
    return Game.new(
        variant,
        [Player(p["name"], p["color"]) for p in setup["players"]],
        setup.get("express_bonus_values"),
    )


def actions_of(game: Game) -> list[Action]:
    """The actions that rebuild ``game`` from its setup (used to import a game file)."""
    actions: list[Action] = [ClaimRoute(c.player, c.route) for c in game.claims]
    actions += [PlaceStation(s.player, s.city) for s in game.stations]
    actions += [AddTicket(t.player, t.a, t.b, t.points) for t in game.tickets]
    if game.express_order is not None:
        actions.append(SetExpressOrder(game.express_order))
    return actions


def create(
    db: Connection, game: Game, name: str = "", actions: Sequence[Action] = (),
    device: str | None = None,
) -> str:
    """Store a new game (its setup and an initial log); returns its id. ``device``: the device
    that made it, whose history lists it."""
    game_id = secrets.token_urlsafe(16)
    share = secrets.token_urlsafe(16)
    now = _now()
    name = (name.strip() or f"{game.variant.title} {now[:10]}")[:MAX_GAME_NAME]
    with transaction(db):
        db.execute(
            "INSERT INTO games (id, share, name, variant, setup, cursor, version, created, updated)"
            " VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)",
            (game_id, share, name, game.variant.name, json.dumps(setup_of(game)), len(actions),
             now, now),
        )
        db.executemany(
            "INSERT INTO actions (game_id, seq, action, created) VALUES (?, ?, ?, ?)",
            [(game_id, i, json.dumps(a.to_json()), now) for i, a in enumerate(actions)],
        )
        if device:
            db.execute("INSERT INTO device_games (device, game_id, role) VALUES (?, ?, 'edit')",
                       (device, game_id))
    return game_id


ROLES = ("watch", "edit")  # what a device holds of a game: its read-only link, or its edit link


def join(db: Connection, device: str, game_id: str, role: str) -> None:
    """List the game in the device's history (a device that opened its edit link keeps that,
    even when it opens the read-only link later)."""
    row = db.execute("SELECT role FROM device_games WHERE device = ? AND game_id = ?",
                     (device, game_id)).fetchone()
    if row is not None and ROLES.index(row["role"]) >= ROLES.index(role):
        return
    with transaction(db):
        db.execute(
            "INSERT INTO device_games (device, game_id, role) VALUES (?, ?, ?)"
            " ON CONFLICT (device, game_id) DO UPDATE SET role = excluded.role",
            (device, game_id, role),
        )


def forget(db: Connection, device: str, game_id: str) -> None:
    """Take the game off the device's history (the game itself stays)."""
    with transaction(db):
        db.execute("DELETE FROM device_games WHERE device = ? AND game_id = ?", (device, game_id))


def load(db: Connection, key: str, *, by_share: bool = False) -> StoredGame | None:
    """The game with this id (or read-only share token), replayed; None if there is none."""
    column = "share" if by_share else "id"
    row = db.execute(f"SELECT * FROM games WHERE {column} = ?", (key,)).fetchone()
    if row is None:
        return None
    cache_key = (_db_key(db), row["id"])
    cached = _cache.get(cache_key, row["version"])
    if cached is None:
        log = tuple(
            action_from_json(json.loads(r["action"]))
            for r in db.execute(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (row["id"],)
            )
        )
        game = replay(row["variant"], json.loads(row["setup"]), log[: row["cursor"]])
        _cache.put(cache_key, row["version"], log, game)
    else:
        log, game = cached
    return StoredGame(
        id=row["id"], share=row["share"], name=row["name"], variant=row["variant"],
        cursor=row["cursor"], version=row["version"], created=row["created"],
        updated=row["updated"], log=log, game=game,
    )


def replay(variant: str, setup: dict[str, Any], actions: Iterable[Action]) -> Game:
    game = _new_game(variant, setup)
    for action in actions:
        game.apply(action)
    return game


def record(db: Connection, game_id: str, action: Action) -> StoredGame:
    """Apply one action and append it at the cursor (dropping undone actions after it).

    Raises the core's ScorerError, with nothing stored, when the action is refused; raises
    KeyError when the game no longer exists.
    """
    with transaction(db, game_id):
        stored = load(db, game_id)
        if stored is None:
            raise KeyError(game_id)
        if stored.cursor >= MAX_ACTIONS:
            raise IllegalMove("This game holds {count} steps, more than any table makes: "
                              "export it and import the file to go on.", count=MAX_ACTIONS)
        game = stored.game.copy()
        game.apply(action)
        now = _now()
        db.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, stored.cursor))
        db.execute(
            "INSERT INTO actions (game_id, seq, action, created) VALUES (?, ?, ?, ?)",
            (game_id, stored.cursor, json.dumps(action.to_json()), now),
        )
        db.execute(
            "UPDATE games SET cursor = ?, version = version + 1, updated = ? WHERE id = ?",
            (stored.cursor + 1, now, game_id),
        )
    # The game as this transaction left it (the row was locked): a read after the commit could
    # already show a later write from another phone. Cached only once committed.
    written = replace(stored, cursor=stored.cursor + 1, version=stored.version + 1, updated=now,
                      log=stored.log[: stored.cursor] + (action,), game=game)
    _cache.put((_db_key(db), game_id), written.version, written.log, written.game)
    return written


def move_cursor(
    db: Connection, game_id: str, step: int, expect: int | None = None
) -> tuple[StoredGame, Action | None]:
    """Undo (step -1) or redo (step +1) one action; returns the game and the action moved over.

    ``expect`` is the cursor the page showed: a second click of the same button (a double
    tap) then finds a different cursor and changes nothing.
    """
    with transaction(db, game_id):
        stored = load(db, game_id)
        if stored is None:
            raise KeyError(game_id)
        target = stored.cursor + step
        if (expect is not None and expect != stored.cursor) or not 0 <= target <= len(stored.log):
            return stored, None
        moved = stored.log[min(stored.cursor, target)]
        now = _now()
        db.execute(
            "UPDATE games SET cursor = ?, version = version + 1, updated = ? WHERE id = ?",
            (target, now, game_id),
        )
        setup = db.execute("SELECT setup FROM games WHERE id = ?", (game_id,)).fetchone()
    # As for record: the state this transaction wrote, cached once committed.
    game = replay(stored.variant, json.loads(setup["setup"]), stored.log[:target])
    written = replace(stored, cursor=target, version=stored.version + 1, updated=now, game=game)
    _cache.put((_db_key(db), game_id), written.version, written.log, written.game)
    return written, moved


def rename(db: Connection, game_id: str, name: str) -> bool:
    name = name.strip()[:MAX_GAME_NAME]
    if not name:
        return False
    with transaction(db):
        cur = db.execute(
            "UPDATE games SET name = ?, version = version + 1, updated = ? WHERE id = ?",
            (name, _now(), game_id),
        )
    return cur.rowcount == 1


def delete(db: Connection, game_id: str) -> bool:
    with transaction(db):
        cur = db.execute("DELETE FROM games WHERE id = ?", (game_id,))
    _cache.drop((_db_key(db), game_id))
    return cur.rowcount == 1


@dataclass(frozen=True)
class GameSummary:
    id: str
    share: str
    role: str  # "edit": listed with its edit link; "watch": its read-only link only
    name: str
    variant: str
    players: tuple[dict[str, str], ...]
    winners: tuple[str, ...]
    actions: int
    created: str
    updated: str


def history(db: Connection, device: str | None = None, *, old: bool = True,
            limit: int = 200) -> list[GameSummary]:
    """The games a device made or opened (``device`` None: every game), most recently changed
    first, with their current winners (cached per version). ``old``: also the games made before
    devices were told apart, as every device listed them then."""
    rows = db.execute(
        "SELECT g.id, g.share, g.name, g.variant, g.setup, g.cursor, g.version, g.created,"
        " g.updated, g.summary, g.summary_version, d.role FROM games g"
        " LEFT JOIN device_games d ON d.game_id = g.id AND d.device = ?"
        " WHERE ? OR d.role IS NOT NULL OR (? AND g.before_devices = 1)"
        " ORDER BY g.updated DESC, g.rowid DESC LIMIT ?",
        (device or "", device is None, old, limit),
    ).fetchall()
    result = []
    for row in rows:
        if row["summary_version"] == row["version"] and row["summary"] is not None:
            winners = tuple(json.loads(row["summary"]))
        else:
            stored = load(db, row["id"])
            winners = tuple(score(stored.game).winners) if stored and stored.cursor else ()
            with transaction(db):
                db.execute(
                    "UPDATE games SET summary = ?, summary_version = ? WHERE id = ?",
                    (json.dumps(list(winners)), row["version"], row["id"]),
                )
        result.append(GameSummary(
            id=row["id"], share=row["share"], role=row["role"] or "edit", name=row["name"],
            variant=row["variant"],
            players=tuple(json.loads(row["setup"])["players"]), winners=winners,
            actions=row["cursor"], created=row["created"], updated=row["updated"],
        ))
    return result


def recent_names(db: Connection, device: str | None = None, limit: int = 12) -> list[str]:
    """Player names of the device's latest games (``device`` None: of any game), most recent
    first, each once."""
    names: dict[str, None] = {}
    rows = db.execute(
        "SELECT g.setup FROM games g WHERE ? OR g.id IN"
        " (SELECT game_id FROM device_games WHERE device = ? AND role = 'edit')"
        " ORDER BY g.created DESC, g.rowid DESC LIMIT 30", (device is None, device or ""))
    for row in rows:
        for player in json.loads(row["setup"])["players"]:
            names.setdefault(player["name"], None)
    return list(names)[:limit]
