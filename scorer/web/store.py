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
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, and_, bindparam, insert, or_, select, true, update
from sqlalchemy import delete as delete_rows
from sqlalchemy.dialects.postgresql import insert as postgres_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

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
from scorer.web.db import actions as action_rows
from scorer.web.db import device_games, games, taps, transaction

MAX_GAME_NAME = 80
# Steps a game's log may hold: a real game makes a few hundred taps; 5,000 replay in ~60 ms, so a
# script tapping for days cannot make a game whose every Undo holds up the other tables.
MAX_ACTIONS = 10_000
_CACHE_SIZE = 64
# Taps remembered per game, counted in game versions: a tap sent again after this many other
# changes to its game would be applied again. A whole game is a few hundred changes, and a tap
# is sent again as soon as its phone is back on the network.
TAPS_KEPT = 1000


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
    """Replayed games by (database, game id): the state of one version, the last one read or
    written here (a version is one state of a game, whichever process wrote it)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[tuple[str, str], StoredGame] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[str, str], version: int | None = None) -> StoredGame | None:
        """The game kept, if it is at ``version`` (None: at whichever version it is)."""
        with self.lock:
            item = self.items.get(key)
            if item is None or version is not None and item.version != version:
                return None
            self.items.move_to_end(key)
            return item

    def put(self, key: tuple[str, str], stored: StoredGame) -> None:
        with self.lock:
            self.items[key] = stored
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def drop(self, key: tuple[str, str], unless: int | None = None) -> None:
        """Forget the game (``unless``: unless the version kept is that one)."""
        with self.lock:
            item = self.items.get(key)
            if item is not None and item.version != unless:
                del self.items[key]


_cache = _ReplayCache(_CACHE_SIZE)

# The statements of every tap, built once: SQLAlchemy then only looks their compiled form up.
_BY_ID = select(games).where(games.c.id == bindparam("key"))
_BY_SHARE = select(games).where(games.c.share == bindparam("key"))
_LOG = (select(action_rows.c.action).where(action_rows.c.game_id == bindparam("game_id"))
        .order_by(action_rows.c.seq))
_CUT_LOG = delete_rows(action_rows).where(action_rows.c.game_id == bindparam("game_id"),
                                          action_rows.c.seq >= bindparam("from_seq"))
_APPEND = insert(action_rows)
_VERSION = select(games.c.version).where(games.c.id == bindparam("game_id"))
_TAP_SAID = select(taps.c.message).where(taps.c.game_id == bindparam("game_id"),
                                          taps.c.id == bindparam("tap_id"))
_TAP_DONE = insert(taps)
_TAPS_PRUNE = delete_rows(taps).where(taps.c.game_id == bindparam("game_id"),
                                      taps.c.version < bindparam("below"))
_MOVE = update(games).where(games.c.id == bindparam("game_id")).values(
    cursor=bindparam("to_cursor"), version=games.c.version + 1, updated=bindparam("now"))
_MOVE_FROM = _MOVE.where(games.c.version == bindparam("from_version"))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _db_key(db: Connection) -> str:
    return db.engine.url.render_as_string(hide_password=False)


def setup_of(game: Game) -> dict[str, Any]:
    setup: dict[str, Any] = {
        "players": [{"name": p.name, "color": p.color} for p in game.players],
        "express_bonus_values": (
            list(game.express_bonus_values) if game.variant.express_cards else None
        ),
    }
    if not game.longest_path_bonus:
        setup["longest_path_bonus"] = False  # written only then: older setups stay as they were
    return setup


def _new_game(variant: str, setup: dict[str, Any]) -> Game:
    return Game.new(
        variant,
        [Player(p["name"], p["color"]) for p in setup["players"]],
        setup.get("express_bonus_values"),
        setup.get("longest_path_bonus"),
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
        db.execute(insert(games).values(
            id=game_id, share=share, name=name, variant=game.variant.name,
            setup=json.dumps(setup_of(game)), cursor=len(actions), version=0, created=now,
            updated=now,
        ))
        if actions:
            db.execute(insert(action_rows), [
                {"game_id": game_id, "seq": i, "action": json.dumps(a.to_json()), "created": now}
                for i, a in enumerate(actions)])
        if device:
            db.execute(insert(device_games).values(device=device, game_id=game_id, role="edit"))
    return game_id


ROLES = ("watch", "edit")  # what a device holds of a game: its read-only link, or its edit link


def join(db: Connection, device: str, game_id: str, role: str) -> None:
    """List the game in the device's history (a device that opened its edit link keeps that,
    even when it opens the read-only link later)."""
    row = db.execute(select(device_games.c.role).where(
        device_games.c.device == device, device_games.c.game_id == game_id)).first()
    if row is not None and ROLES.index(row.role) >= ROLES.index(role):
        return
    upsert = postgres_insert if db.dialect.name == "postgresql" else sqlite_insert
    statement = upsert(device_games).values(device=device, game_id=game_id, role=role)
    with transaction(db):
        db.execute(statement.on_conflict_do_update(
            index_elements=["device", "game_id"], set_={"role": statement.excluded.role}))


def forget(db: Connection, device: str, game_id: str) -> None:
    """Take the game off the device's history (the game itself stays)."""
    with transaction(db):
        db.execute(delete_rows(device_games).where(device_games.c.device == device,
                                                   device_games.c.game_id == game_id))


def load(db: Connection, key: str, *, by_share: bool = False) -> StoredGame | None:
    """The game with this id (or read-only share token), replayed; None if there is none."""
    row = db.execute(_BY_SHARE if by_share else _BY_ID, {"key": key}).first()
    if row is None:
        return None
    cache_key = (_db_key(db), row.id)
    cached = _cache.get(cache_key, row.version)
    if cached is not None:
        return cached
    log = tuple(
        action_from_json(json.loads(action))
        for action in db.scalars(_LOG, {"game_id": row.id})
    )
    stored = StoredGame(
        id=row.id, share=row.share, name=row.name, variant=row.variant,
        cursor=row.cursor, version=row.version, created=row.created,
        updated=row.updated, log=log,
        game=replay(row.variant, json.loads(row.setup), log[: row.cursor]),
    )
    _cache.put(cache_key, stored)
    return stored


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
    cache_key = (_db_key(db), game_id)
    with transaction(db, game_id):
        now = _now()
        # The state kept here is written on when the game is still at its version (the row's
        # update checks it, under the lock), without reading the game again; else it is read.
        stored = _cache.get(cache_key)
        if stored is None or db.execute(_MOVE_FROM, {
                "game_id": game_id, "from_version": stored.version,
                "to_cursor": stored.cursor + 1, "now": now}).rowcount != 1:
            stored = load(db, game_id)
            if stored is None:
                raise KeyError(game_id)
            db.execute(_MOVE, {"game_id": game_id, "to_cursor": stored.cursor + 1, "now": now})
        # Refused below: the transaction, this update with it, is rolled back.
        if stored.cursor >= MAX_ACTIONS:
            raise IllegalMove("This game holds {count} steps, more than any table makes: "
                              "export it and import the file to go on.", count=MAX_ACTIONS)
        game = stored.game.copy()
        game.apply(action)
        if stored.cursor < len(stored.log):  # the undone actions after the cursor go
            db.execute(_CUT_LOG, {"game_id": game_id, "from_seq": stored.cursor})
        db.execute(_APPEND, {"game_id": game_id, "seq": stored.cursor,
                             "action": json.dumps(action.to_json()), "created": now})
    # The game as this transaction left it (the row was locked): a read after the commit could
    # already show a later write from another phone. Cached only once committed.
    written = replace(stored, cursor=stored.cursor + 1, version=stored.version + 1, updated=now,
                      log=stored.log[: stored.cursor] + (action,), game=game)
    _cache.put(cache_key, written)
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
        db.execute(_MOVE, {"game_id": game_id, "to_cursor": target, "now": now})
        setup = db.scalar(select(games.c.setup).where(games.c.id == game_id))
    # As for record: the state this transaction wrote, cached once committed.
    game = replay(stored.variant, json.loads(setup), stored.log[:target])
    written = replace(stored, cursor=target, version=stored.version + 1, updated=now, game=game)
    _cache.put((_db_key(db), game_id), written)
    return written, moved


class TapDone(Exception):
    """The tap's change is recorded already (its answer was lost on the way and the phone sent
    it again): nothing is applied again; ``said`` is what its answer said the first time."""

    def __init__(self, said: str) -> None:
        super().__init__(said)
        self.said = said


@dataclass
class TapAnswer:
    """What the change made in a ``once`` block says: set it once the change is made (left
    None, the tap changed nothing and is not remembered: sent again, it is judged again)."""

    said: str | None = None


def tap_said(db: Connection, game_id: str, tap_id: str) -> str | None:
    """What the answer to this tap said, if its change is recorded; else None."""
    return db.scalar(_TAP_SAID, {"game_id": game_id, "tap_id": tap_id})


@contextmanager
def once(db: Connection, game_id: str, tap_id: str | None) -> Iterator[TapAnswer]:
    """A block that changes the game (``record``, ``move_cursor``) for the tap ``tap_id``,
    applied at most once: one transaction, under the game's lock, that first looks the tap up
    (raising TapDone, with nothing changed, when it is recorded) and ends by recording it with
    what the block set in ``TapAnswer.said``. Two sends of one tap at once take turns: the
    second finds the first. The taps remembered are the game's last TAPS_KEPT versions'.
    ``tap_id`` None (a form posted without the page's script): the block runs as it is."""
    answer = TapAnswer()
    if tap_id is None:
        yield answer
        return
    version = None
    try:
        with transaction(db, game_id):
            version = db.scalar(_VERSION, {"game_id": game_id})
            said = tap_said(db, game_id, tap_id)
            if said is not None:
                raise TapDone(said)
            yield answer
            if answer.said is not None:
                now = db.scalar(_VERSION, {"game_id": game_id})
                db.execute(_TAP_DONE, {"game_id": game_id, "id": tap_id, "version": now,
                                       "message": answer.said})
                db.execute(_TAPS_PRUNE, {"game_id": game_id, "below": now - TAPS_KEPT})
    except BaseException:
        # The block's change was cached when made, and is rolled back now: forget it.
        _cache.drop((_db_key(db), game_id), unless=version)
        raise


def rename(db: Connection, game_id: str, name: str) -> bool:
    name = name.strip()[:MAX_GAME_NAME]
    if not name:
        return False
    with transaction(db):
        cur = db.execute(update(games).where(games.c.id == game_id).values(
            name=name, version=games.c.version + 1, updated=_now()))
    return cur.rowcount == 1


def delete(db: Connection, game_id: str) -> bool:
    with transaction(db):
        cur = db.execute(delete_rows(games).where(games.c.id == game_id))
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
    listed: Any = device_games.c.role.is_not(None)
    if device is None:
        listed = true()
    elif old:
        listed = or_(listed, games.c.before_devices == 1)
    rows = db.execute(
        select(games.c.id, games.c.share, games.c.name, games.c.variant, games.c.setup,
               games.c.cursor, games.c.version, games.c.created, games.c.updated,
               games.c.summary, games.c.summary_version, device_games.c.role)
        .outerjoin(device_games, and_(device_games.c.game_id == games.c.id,
                                      device_games.c.device == (device or "")))
        .where(listed).order_by(games.c.updated.desc(), games.c.rowid.desc()).limit(limit)
    ).all()
    result = []
    for row in rows:
        if row.summary_version == row.version and row.summary is not None:
            winners = tuple(json.loads(row.summary))
        else:
            stored = load(db, row.id)
            winners = tuple(score(stored.game).winners) if stored and stored.cursor else ()
            with transaction(db):
                db.execute(update(games).where(games.c.id == row.id).values(
                    summary=json.dumps(list(winners)), summary_version=row.version))
        result.append(GameSummary(
            id=row.id, share=row.share, role=row.role or "edit", name=row.name,
            variant=row.variant,
            players=tuple(json.loads(row.setup)["players"]), winners=winners,
            actions=row.cursor, created=row.created, updated=row.updated,
        ))
    return result


def recent_names(db: Connection, device: str | None = None, limit: int = 12) -> list[str]:
    """Player names of the device's latest games (``device`` None: of any game), most recent
    first, each once."""
    names: dict[str, None] = {}
    edited = select(device_games.c.game_id).where(device_games.c.device == device,
                                                  device_games.c.role == "edit")
    rows = db.scalars(
        select(games.c.setup).where(true() if device is None else games.c.id.in_(edited))
        .order_by(games.c.created.desc(), games.c.rowid.desc()).limit(30))
    for setup in rows:
        for player in json.loads(setup)["players"]:
            names.setdefault(player["name"], None)
    return list(names)[:limit]
