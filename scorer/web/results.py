"""Results: every figure per player, the ranking, the winners, and longest paths on the map."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from scorer.web import store
from scorer.web.common import get_game, get_shared, live_context, scoresheet
from scorer.web.i18n import translate_tiebreak

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
    ranks = {}
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
    return render_template(
        "pages/results.html", **context, ranked=[by_name[n] for n in sheet.ranking], ranks=ranks,
        tiebreak=translate_tiebreak(sheet.tiebreak), selected=selected, shown=shown,
        watch=not editable,
    )


@bp.get("/games/<game_id>/results")
def results(game_id: str) -> str:
    return render_results(get_game(game_id), editable=True)


@bp.get("/watch/<share>/results")
def watch_results(share: str) -> str:
    return render_results(get_shared(share), editable=False)
