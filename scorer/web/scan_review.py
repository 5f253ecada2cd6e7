"""The review's model: each lane as the review shows it (read, corrected, now in the game),
the players' totals after Apply, the checks that would stop it, and the cards' crops."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from scorer.errors import ScorerError
from scorer.game import SetOwners
from scorer.web import store
from scorer.web.common import refuse
from scorer.web.db import get_db, scan_files
from scorer.web.i18n import _, color_name
from scorer.web.scan_photos import glared, outside_every_photo, photo_count, rectified_name
from scorer.web.svg import board_shapes, hit_line


@dataclass(frozen=True)
class LaneView:
    id: str
    a: str
    b: str
    color: str  # printed colour, to tell the lanes of a double apart
    double: bool
    detected: str | None  # player name the photo says (None: empty)
    proposed: str | None  # after the players' corrections
    current: str | None  # owner in the game now
    confidence: float  # of the photo's reading; for a doubtful lane not a figure to show
    doubtful: bool  # read doubtfully and not yet checked by a player: asked to check
    seen: str | None = None  # the piece colour on the photo, even one no player has
    by_hand: bool = False  # set by a player on this review, whatever the photo said
    unsure: bool = False  # read doubtfully, checked or not: it stays in the list of checks
    length: int = 0
    # the card's choices, likeliest first for the crop (None: nobody), every player once
    choices: tuple[str | None, ...] = ()
    outside: bool = False  # partly outside every photo: the board itself says

    @property
    def change(self) -> str | None:
        if self.proposed == self.current:
            return None
        if self.current is None:
            return "add"
        return "remove" if self.proposed is None else "change"


# --- storage ---------------------------------------------------------------------------------


def lane_views(stored: store.StoredGame, result: dict[str, Any]) -> list[LaneView]:
    from scorer.vision.config import DEFAULT as VISION  # the detector's doubt, not OpenCV's
    game = stored.game
    proposed = result.get("proposed", {})
    players = {p.name for p in game.players}
    by_colour = {p.color: p.name for p in game.players}
    outside = outside_every_photo(result)
    views = []
    for route in game.board.routes.values():
        read = result["lanes"].get(route.id, {"owner": None, "confidence": 0.0, "color": None})
        detected = read["owner"]
        current = game.owner(route.id)
        # a lane no photo shows whole, read as nobody: the photos say nothing of it, and the
        # review keeps the game's owner unless the players set it
        unread = route.id in outside and detected is None
        choice = proposed.get(route.id, current if unread else detected)
        if choice is not None and choice not in players:
            choice = None
        seen = read.get("color")
        stray = seen is not None and detected is None  # a colour not in the game
        unsure = read["confidence"] < VISION.doubt_below or stray
        views.append(LaneView(
            id=route.id, a=route.a, b=route.b, color=route.color,
            double=bool(game.board.siblings(route)), detected=detected, proposed=choice,
            current=current, confidence=float(read["confidence"]),
            doubtful=route.id not in proposed and unsure, seen=seen,
            by_hand=route.id in proposed, unsure=unsure, length=route.length,
            choices=tuple(dict.fromkeys((current, *_choices(read, by_colour)))) if unread
            else _choices(read, by_colour), outside=route.id in outside,
        ))
    return views


def _choices(read: dict[str, Any], by_colour: dict[str, str]) -> tuple[str | None, ...]:
    """The owners a card offers, the crop's likeliest reading first and its second next (a
    colour no player has, or empty: nobody), then nobody and each player in the game's order.
    A reading stored before the detector ranked them leads with the colour it saw."""
    ranked = (read.get("likely", read.get("color") or "empty"), read.get("second", "empty"))
    order = [by_colour.get(colour) for colour in ranked] + [None, *by_colour.values()]
    return tuple(dict.fromkeys(order))


def owner_changes(lanes: list[LaneView]) -> tuple[tuple[str, str | None], ...]:
    """What Apply sets: every lane whose owner on the review differs from the game's, doubtful
    or not (the review shows each lane with the owner Apply gives it)."""
    return tuple((lane.id, lane.proposed) for lane in lanes if lane.change)


def _stations_shown(stored: store.StoredGame, result: dict[str, Any]) -> dict[str, str]:
    """City -> owner of every station the review shows: read on the photo, then corrected
    (``proposed_stations``, None: no station; scans older than it have none)."""
    names = {p.name for p in stored.game.players}
    shown = {city: owner for city, owner in result.get("stations", {}).items() if owner in names}
    # no photo shows these cities: the game's stations there stay as they are
    for city in outside_every_photo(result, "unseen_cities"):
        if stored.game.station_at(city) is not None:
            shown[city] = stored.game.station_at(city)
    for city, owner in result.get("proposed_stations", {}).items():
        if owner in names:
            shown[city] = owner
        else:
            shown.pop(city, None)
    return shown


def station_changes(stored: store.StoredGame, result: dict[str, Any]) -> list[tuple]:
    """(city, owner shown, current owner) for each city where they differ (Europe)."""
    game = stored.game
    if not game.variant.stations:
        return []
    found = _stations_shown(stored, result)
    cities = set(found) | {s.city for s in game.stations}
    return sorted((c, found.get(c), game.station_at(c)) for c in cities
                  if found.get(c) != game.station_at(c))


# --- views ----------------------------------------------------------------------------------


def review_context(stored: store.StoredGame, scan_id: str, result: dict[str, Any],
                    pick: str | None = None) -> dict:
    """Everything the review shows. ``pick``: a lane the players opened (a tap on the map
    without JavaScript, a lane named by a check); else the card is the first lane to check."""
    game = stored.game
    lanes = lane_views(stored, result)
    by_id = {lane.id: lane for lane in lanes}
    views = set(get_db().scalars(select(scan_files.c.name).where(
        scan_files.c.game_id == stored.id, scan_files.c.scan_id == scan_id,
        scan_files.c.name.like("rectified%"))).all())
    colors = {p.name: p.color for p in game.players}
    shapes = board_shapes(game.board.name)
    routes = game.board.routes
    to_check = sorted((lane for lane in lanes if lane.doubtful), key=lambda lane: lane.confidence)
    unsure = [lane for lane in lanes if lane.unsure]
    card = by_id.get(pick or "") or (to_check[0] if to_check else None)
    stations = station_changes(stored, result)
    shown_stations = _stations_shown(stored, result) if game.variant.stations else {}
    players = player_summary(stored, lanes)
    return {
        "stored": stored, "game": game, "scan_id": scan_id, "shapes": shapes,
        "lanes": by_id, "colors": colors, "hit_lines": {r: hit_line(routes[r]) for r in by_id},
        "doubtful": to_check, "card": card, "card_choices": _card_choices(card, colors),
        "crop": _crop(routes[card.id]) if card else None,
        "crop_cities": _cities_in(shapes, _crop(routes[card.id])) if card else [],
        "card_lane": next(s for s in shapes.lanes if s.id == card.id) if card else None,
        "progress": (len(unsure) - len(to_check) + 1, len(unsure)),
        "checked": [lane for lane in unsure if not lane.doubtful],
        "changes": [lane for lane in lanes if lane.change and not lane.unsure],
        "claimed": sum(lane.proposed is not None for lane in lanes),
        "counts": {kind: sum(lane.change == kind for lane in lanes)
                   for kind in ("add", "change", "remove")},
        "players": players, "checks": _checks(stored, lanes, players, stations),
        "stations": stations, "shown_stations": shown_stations,
        "station_rows": [(city, shown_stations.get(city), game.station_at(city)) for city in
                         sorted(set(shown_stations) | {s.city for s in game.stations}
                                | set(result.get("stations", {}))
                                | set(result.get("proposed_stations", {})))]
        if game.variant.stations else [],
        "cities": {c.name: c for c in shapes.cities} if game.variant.stations else {},
        "photos": photo_count(result), "glared": glared(result),
        "has_photo": rectified_name(1) in views, "crops": [
            name for name in map(rectified_name, range(1, photo_count(result) + 1))
            if name in views],
        "elapsed_ms": result.get("detection", {}).get("elapsed_ms"),
    }


def _card_choices(card: LaneView | None, colors: dict[str, str]) -> tuple[str | None, ...]:
    """The card's buttons in order: a lane to check leads with the crop's likeliest owner; a
    lane opened or checked already with the owner shown, then nobody, then each player."""
    if card is None:
        return ()
    if card.doubtful and card.choices:
        return card.choices
    return tuple(dict.fromkeys([card.proposed, None, *colors]))


def player_summary(stored: store.StoredGame, lanes: list[LaneView]) -> list[dict]:
    """Per player, the lanes, trains and route points the game will hold after Apply."""
    variant = stored.game.variant
    out = []
    for player in stored.game.players:
        mine = [lane for lane in lanes if lane.proposed == player.name]
        out.append({
            "name": player.name, "color": player.color, "lanes": len(mine),
            "trains": sum(lane.length for lane in mine),
            "points": sum(variant.route_points(lane.length) for lane in mine),
        })
    return out


def _checks(stored: store.StoredGame, lanes: list[LaneView], players: list[dict],
            stations: list[tuple]) -> list[dict]:
    """What would stop Apply, in the table's words, with the lanes to look at first."""
    game = stored.game
    checks = []
    for player in players:
        if player["trains"] <= game.variant.trains:
            continue
        suspects = sorted((lane for lane in lanes if lane.proposed == player["name"]
                           and not lane.by_hand), key=lambda lane: lane.confidence)[:4]
        checks.append({"text": _(
            "The photo counts {count} {color} pieces for {player}, who has only {trains}: "
            "the box's spare pieces may be on the board. Set the lanes that are not "
            "{player}'s to nobody; the least sure first:", count=player["trains"],
            color=color_name(player["color"]), player=player["name"],
            trains=game.variant.trains), "lanes": suspects})
    if game.variant.stations:
        shown = [found for _city, found, _now in stations] + [
            s.player for s in game.stations if s.city not in {c for c, *_ in stations}]
        for player in players:
            count = shown.count(player["name"])
            if count > game.variant.stations:
                checks.append({"text": _(
                    "The review gives {player} {count} stations, and a player has {stations}: "
                    "set the wrong ones to nobody under Stations.", player=player["name"],
                    count=count, stations=game.variant.stations), "lanes": []})
    by_id = {lane.id: lane for lane in lanes}
    open_doubles = game.variant.doubles_open(len(game.players))
    for lane in lanes:
        other = next((by_id[r.id] for r in game.board.siblings(game.board.routes[lane.id])
                      if r.id > lane.id), None)
        if other is None or lane.proposed is None or other.proposed is None:
            continue
        pair = sorted((lane, other), key=lambda item: item.confidence)
        if lane.proposed == other.proposed:
            text = _("The photo gives {player} both lanes of {a}–{b}: one player never owns "
                     "both. Set the wrong one to nobody; the less sure first:",
                     player=lane.proposed, a=lane.a, b=lane.b)
        elif not open_doubles:
            text = _("The photo shows both lanes of {a}–{b} taken, but with {count} players only "
                     "one may be used: pieces of one lane are often seen on the other. Set the "
                     "wrong one to nobody; the less sure first:", a=lane.a, b=lane.b,
                     count=len(game.players))
        else:
            continue
        checks.append({"text": text, "lanes": pair})
    changes = owner_changes(lanes)
    if checks or not (changes or stations):
        return checks
    try:
        game.copy().apply(SetOwners(changes, tuple((c, found) for c, found, _now in stations)))
    except ScorerError as exc:
        checks.append({"text": refuse(exc), "lanes": []})
    return checks


def _crop(route: Any) -> str:
    """The view box of the card's zoomed crop: the lane with some board around it."""
    xs = [s.x for s in route.spaces]
    ys = [s.y for s in route.spaces]
    width = max(max(xs) - min(xs) + 140, 280.0)
    height = max(max(ys) - min(ys) + 140, width * 0.75)
    width = max(width, height / 0.75)
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    return f"{cx - width / 2:.0f} {cy - height / 2:.0f} {width:.0f} {height:.0f}"


def _cities_in(shapes: Any, view_box: str) -> list:
    """The cities inside a crop's view box, to draw beside the lane as printed."""
    x, y, width, height = (float(v) for v in view_box.split())
    return [c for c in shapes.cities if x <= c.x <= x + width and y <= c.y <= y + height]
