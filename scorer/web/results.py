"""Results: every figure per player, the ranking, the winners, and longest paths on the map."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from scorer.game import Game
from scorer.scoring import PlayerScore, Scoresheet, route_groups, score_track
from scorer.web import bgstats, store
from scorer.web.common import get_game, get_shared, live_context, rules_title, scoresheet
from scorer.web.i18n import _, plural, signed, translate
from scorer.web.records import finished

bp = Blueprint("results", __name__)


def render_results(stored: store.StoredGame, editable: bool) -> str:
    """The results page; ``?player=`` shows that player's longest path (and any tied with it)."""
    sheet = scoresheet(stored)
    by_name = {p.name: p for p in sheet.players}
    selected = request.args.get("player")
    if selected in by_name:
        length = by_name[selected].path.length
        shown = [by_name[selected]] + [
            p for p in sheet.players if p.name != selected and length and p.path.length == length
        ]
    else:
        selected = None
        longest = max((p.path.length for p in sheet.players), default=0)
        shown = [p for p in sheet.players if longest and p.path.length == longest]
    highlight = frozenset(str(key) for p in shown for key in p.path.keys)
    context = live_context(stored, editable=False, highlight=highlight)
    ranks = places(sheet)
    game = stored.game
    groups = {p.name: route_groups(game, p) for p in sheet.players}
    ranked = [by_name[n] for n in sheet.ranking]
    return render_template(
        "pages/results.html", **context, ranked=ranked, ranks=ranks,
        leader=ranked[0].total if ranked else 0, route_names=route_names,
        tiebreak=translate(sheet.tiebreak_message), selected=selected, shown=shown,
        watch=not editable, groups=groups, track=track_text, station_uses=station_uses,
        most_tickets=max(p.tickets_completed for p in sheet.players),
        summary=summary_text(stored.name, game, sheet, ranks, groups),
        bgstats=bgstats.play_link(bgstats.play_data(stored, sheet, ranks))
        if finished(game) else None,
    )


def places(sheet: Scoresheet) -> dict[str, int]:
    """Each player's place: 1 for every winner, players tied below the winners share one."""
    by_name = {p.name: p for p in sheet.players}
    ranks: dict[str, int] = {}
    for index, name in enumerate(sheet.ranking):
        player = by_name[name]
        previous = by_name[sheet.ranking[index - 1]] if index else None
        if name in sheet.winners:
            ranks[name] = 1
        elif (previous is not None and previous.name not in sheet.winners
              and previous.total == player.total):
            ranks[name] = ranks[previous.name]  # tied below the winners
        else:
            ranks[name] = index + 1
    return ranks


def route_names(game: Game, player: PlayerScore) -> dict[int, list[str]]:
    """The player's routes by length, named by their cities, to point at on the board."""
    names: dict[int, list[str]] = {}
    for route_id in player.routes:
        route = game.board.routes[route_id]
        names.setdefault(route.length, []).append(f"{route.a} – {route.b}")
    return {length: sorted(found) for length, found in names.items()}


def track_text(total: int) -> str:
    """Where the player's marker should stand on the board's score track."""
    space, laps = score_track(total)
    if laps > 0:
        return plural(laps, "{space}, after {count} full lap", "{space}, after {count} full laps",
                      space=space)
    if laps < 0:
        return _("{space}, behind the start", space=space)
    return str(space)


def station_uses(game: Game, player: PlayerScore) -> list[tuple[str, str | None]]:
    """Each station the player placed, with the route it borrows (None: none helps)."""
    borrowed = {b.city: game.board.routes[b.route] for b in player.borrowed_routes}
    return [(city, f"{borrowed[city].a}–{borrowed[city].b}" if city in borrowed else None)
            for city in game.stations_of(player.name)]


def summary_text(name: str, game: Game, sheet: Scoresheet, ranks: dict[str, int],
                 groups: dict[str, tuple[tuple[int, int, int], ...]]) -> str:
    """The results as plain text to paste into a chat: each player's score sheet in short."""
    winners = sheet.winners
    lines = [f"{name} · {rules_title(game)}",
             _("{name} wins!", name=winners[0]) if len(winners) == 1
             else _("Shared win: {names}.", names=", ".join(winners))]
    tiebreak = translate(sheet.tiebreak_message)
    if tiebreak:
        lines.append(tiebreak)
    by_name = {p.name: p for p in sheet.players}
    track, nothing = _("score track"), _("nothing")
    for player_name in sheet.ranking:
        p = by_name[player_name]
        lines.append("")
        lines.append(f"{ranks[p.name]}. {p.name}: {p.total} "
                     f"({track} {track_text(p.total)})")
        routes = ", ".join(f"{n}×{length} = {n * each}" for length, n, each in groups[p.name])
        lines.append(f"  {_('Routes')} {p.route_points}" + (f": {routes}" if routes else ""))
        if p.tickets:
            tickets = ", ".join(f"{t.a}–{t.reached or t.b} {signed(t.score)}" for t in p.tickets)
            lines.append(f"  {_('Tickets')} {signed(p.ticket_points)}: {tickets}")
        if game.variant.stations:
            uses = "; ".join(f"{city} → {route or nothing}"
                             for city, route in station_uses(game, p))
            lines.append(f"  {_('Stations')} {signed(p.station_points)}"
                         + (f" ({uses})" if uses else ""))
        for bonus in sheet.bonuses:  # every bonus of the set this player holds
            if bonus.of(p.name):
                label = _("Europe Express card") if bonus.key == "express" else _(bonus.name)
                lines.append(f"  {label} {signed(bonus.of(p.name))}")
    return "\n".join(lines) + "\n"


@bp.get("/games/<game_id>/results")
def results(game_id: str) -> str:
    return render_results(get_game(game_id), editable=True)


@bp.get("/watch/<share>/results")
def watch_results(share: str) -> str:
    return render_results(get_shared(share), editable=False)
