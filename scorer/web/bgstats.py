"""A finished game for BG Stats, the app many tables log their plays in.

BG Stats documents one way in for other apps: a link carrying the play as URL-encoded JSON,
``https://app.bgstatsapp.com/createPlay.html?data=<json>`` (``bgstats://…`` works too), which
opens the app's import dialog on the phone where the players and the game are matched once:
https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/
The fields are the ones that page lists. Every flag is sent, false ones too: BG Stats on Android
refuses a play that leaves one out ("No value for winner"), although the page calls them
optional. ``location`` is left out: the page says BG Stats sets it to the app giving the link.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any
from urllib.parse import quote

from scorer.scoring import Scoresheet
from scorer.web.records import player_key
from scorer.web.store import StoredGame

LINK = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Terminus"


def play_data(stored: StoredGame, sheet: Scoresheet, places: dict[str, int]) -> dict[str, Any]:
    """The play as BG Stats' import reads it: the game, when, every player's total and place."""
    variant = stored.game.variant
    # The rule set's BoardGameGeek game (Variant.bgg_game: the base game of its box, Express as
    # Ticket to Ride: Europe) with its own title as the play's "board", which BG Stats keeps
    # as the variant played.
    bgg_id, title = variant.bgg_game
    by_name = {p.name: p for p in sheet.players}
    return {
        "sourceName": SOURCE_NAME,
        # The same game gives the same id, so BG Stats knows a play it imported before; a hash,
        # as the game's id is its edit link and the link goes to BG Stats' site.
        "sourcePlayId": hashlib.sha256(stored.id.encode()).hexdigest()[:20],
        # The server's local time: a table's own server stands where the table plays.
        "playDate": datetime.fromisoformat(stored.updated).astimezone()
        .strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": 0,  # not timed by the app; BG Stats shows no duration for 0
        "board": variant.title,
        "comments": stored.name,
        "game": {
            "name": title,
            "bggId": bgg_id,
            "sourceGameId": f"ticket-to-ride-{variant.board_name}",
            "highestWins": True,
            "noPoints": False,
        },
        "players": [
            {
                "name": name,
                "sourcePlayerId": player_key(name),
                "score": by_name[name].total,
                "rank": places[name],
                "winner": name in sheet.winners,
                "startPlayer": False,  # the app is not told who started
                "role": "",
            }
            for name in sheet.ranking
        ],
    }


def play_link(data: dict[str, Any]) -> str:
    """The link that opens BG Stats' import dialog on this play."""
    return LINK + quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")
