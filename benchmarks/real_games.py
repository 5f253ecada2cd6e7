"""Real games played on Board Game Arena, scored by Terminus and compared with BGA's own figures.

    .venv/bin/python benchmarks/real_games.py

Each ``real_games/<name>.json`` is a game file (``../shared/spec/game-format.md``) written from a
BGA game log: the claims in the order played, every player's tickets (their points left to the
rule set's deck). ``<name>.expected.json`` holds what the log says: each player's route points,
trains used, ticket points and tickets completed, the longest path's length, the bonuses and
the total. Prints one line per player and figure, and exits 1 when one differs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer import Game, score  # noqa: E402

FOLDER = Path(__file__).with_name("real_games")


def ours(player: dict) -> dict:
    """A player's score JSON in the expected file's terms."""
    return {key: player["longest_path"]["length"] if key == "longest_path_length" else player[key]
            for key in ("route_points", "trains_used", "ticket_points", "tickets_completed",
                        "longest_path_length", "globetrotter_bonus", "longest_bonus", "total")}


def main() -> int:
    differ = 0
    for path in sorted(FOLDER.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
        sheet = score(Game.from_json(json.loads(path.read_text(encoding="utf-8")))).to_json()
        print(f"{path.stem}: {expected['source']}")
        got = {p["name"]: ours(p) for p in sheet["players"]}
        for name, figures in expected["players"].items():
            for key, want in figures.items():
                mark = "" if got[name][key] == want else "   <-- differs"
                differ += bool(mark)
                print(f"  {name:<14} {key:<20} BGA {want:>4}  Terminus {got[name][key]:>4}{mark}")
        print(f"  winners: {', '.join(sheet['winners'])}; tie-break: {sheet['tiebreak']}")
    print("every figure as BGA's" if not differ else f"{differ} figures differ")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
