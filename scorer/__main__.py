"""The command line: ``scorer score``, ``scorer detect``, ``scorer serve``, ``scorer backup``,
``scorer restore``.

Bad input never ends in a traceback: the message goes out as ``{"error": ...}`` with exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from scorer.cli import add_detect_arguments, quiet_on_closed_pipe
from scorer.errors import ScorerError
from scorer.game import Game
from scorer.scoring import Scoresheet, score

EXIT_INPUT = 2


def _fail(message: str) -> int:
    print(json.dumps({"error": message}, ensure_ascii=False))
    return EXIT_INPUT


def read_game_file(path: str) -> Any:
    """The parsed JSON of a game file, or a ScorerError saying why it can't be read."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScorerError(f"Cannot read {path}: {exc}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScorerError(
            f"{path} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}."
        ) from exc


def format_text(sheet: Scoresheet) -> str:
    """A table for people: every figure of every player, then the winners."""
    columns = [
        ("Player", lambda p: f"{p.name} ({p.color})"),
        ("Routes", lambda p: p.route_points),
        ("Tickets", lambda p: f"{p.ticket_points:+d}"),
        ("Done", lambda p: f"{p.tickets_completed}/{len(p.tickets)}"),
        ("Stations", lambda p: p.station_points),
        ("Longest", lambda p: p.path.length),
        ("Bonus", lambda p: sum(points for _, points in p.bonuses)),
        ("Total", lambda p: p.total),
    ]
    rows = [[head for head, _ in columns]]
    rows += [[str(get(p)) for _, get in columns] for p in sheet.players]
    widths = [max(len(row[i]) for row in rows) for i in range(len(columns))]
    lines = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                       for i, (cell, w) in enumerate(zip(row, widths, strict=True)))
             for row in rows]
    lines.insert(1, "-" * len(lines[0]))
    lines.append("")
    for p in sheet.players:
        lines.append(f"{p.name}: routes {', '.join(p.routes) or '-'}")
        for t in p.tickets:
            mark = "done" if t.completed else "missed"
            via = f" (station in {', '.join(t.helped_by)})" if t.helped_by else ""
            reached = f" ({t.reached})" if t.reached else ""
            twice = " (joined twice)" if t.twice else ""
            lines.append(f"  ticket {t.a}-{t.b} {t.score:+d} {mark}{reached}{twice}{via}")
        for b in p.borrowed_routes:
            lines.append(f"  station in {b.city} uses {b.route}")
        if p.path.length:
            lines.append(f"  longest path {p.path.length}: {' - '.join(p.path.cities)}")
        for bonus in sheet.bonuses:
            if bonus.of(p.name):
                lines.append(f"  {bonus.name} {bonus.of(p.name):+d}")
    if sheet.express_order:
        lines.append(f"Europe Express cards: {', '.join(sheet.express_order)}")
    lines.append("")
    lines.append(f"Winner{'s' if len(sheet.winners) > 1 else ''}: {', '.join(sheet.winners)}")
    if sheet.tiebreak:
        lines.append(sheet.tiebreak)
    return "\n".join(lines)


def cmd_score(args: argparse.Namespace) -> int:
    try:
        sheet = score(Game.from_json(read_game_file(args.game)))
    except ScorerError as exc:
        return _fail(str(exc))
    if args.text:
        print(format_text(sheet))
    else:
        print(json.dumps(sheet.to_json(), ensure_ascii=False, indent=2))
    return 0


def cmd_detect(args: argparse.Namespace) -> int:
    from scorer.vision.cli import run  # OpenCV is loaded only when a photo is read

    return run(args)


def cmd_serve(args: argparse.Namespace) -> int:
    from scorer.web import serve  # Flask is loaded only to serve, not to score or detect

    serve(args.host, args.port)
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    from scorer.web.backup import main  # sqlite3 and Flask only for the web app's database

    return main(args)


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as the JSON error of the other commands."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.exit(_fail(f"{message} (try --help)"))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="scorer", description="Ticket to Ride scoring assistant")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("score", help="score a game file (JSON)")
    p.add_argument("game", help="game file, or - for standard input")
    p.add_argument("--text", action="store_true", help="a readable table instead of JSON")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("detect", help="find the claimed routes on a photo of the board")
    add_detect_arguments(p)
    p.set_defaults(func=cmd_detect)

    p = sub.add_parser("serve", help="serve the web app")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("backup", help="copy the SQLite database, even while it is served")
    p.add_argument("target", nargs="?",
                   help="the new file, or a folder for it (default: backups/<UTC "
                        "time>.sqlite3 beside the database)")
    p.set_defaults(func=cmd_backup)

    p = sub.add_parser("restore", help="put a backup in place of the SQLite database (the "
                                       "server stopped; the database is backed up first)")
    p.add_argument("backup", help="a file made by scorer backup")
    p.set_defaults(func=cmd_backup)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return quiet_on_closed_pipe(lambda: args.func(args))


if __name__ == "__main__":
    sys.exit(main())
