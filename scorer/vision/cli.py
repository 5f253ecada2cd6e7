"""``scorer detect PHOTO --map usa|europe [--colors ...] [--corners ...] [--overlay OUT.jpg]``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scorer.boards import load_board
from scorer.cli import add_detect_arguments, quiet_on_closed_pipe
from scorer.errors import ScorerError
from scorer.vision import decode, detect, overlay_jpeg


def run(args: argparse.Namespace) -> int:
    """Print the detection JSON; on a ScorerError print {"error": ...} and return 2."""
    try:
        try:
            data = Path(args.photo).read_bytes()
        except OSError as exc:
            raise ScorerError(f"Cannot read the photo {args.photo}: {exc.strerror}.") from None
        board = load_board(args.map)
        colors = args.colors.split(",") if getattr(args, "colors", None) else None
        corners = _parse_corner_text(args.corners) if getattr(args, "corners", None) else None
        detection = detect(data, board, colors=colors, corners=corners)
        if getattr(args, "overlay", None):
            Path(args.overlay).write_bytes(overlay_jpeg(decode(data), detection, board))
    except ScorerError as exc:
        print(json.dumps({"error": str(exc)}, ensure_ascii=False))
        return 2
    print(json.dumps(detection.to_json(), ensure_ascii=False))
    return 0


def _parse_corner_text(text: str) -> list[float]:
    try:
        values = [float(v) for v in text.replace(";", ",").split(",") if v.strip()]
    except ValueError:
        raise ScorerError(f"--corners must be eight numbers x,y,... not {text!r}.") from None
    if len(values) != 8:
        raise ScorerError(f"--corners must be eight numbers (four x,y points), got {len(values)}.")
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scorer detect", description=__doc__)
    add_detect_arguments(parser)
    args = parser.parse_args(argv)
    return quiet_on_closed_pipe(lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
