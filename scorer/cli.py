"""What the command lines share: the ``detect`` options (mounted by ``scorer detect`` and by
``python -m scorer.vision.cli``) and the quiet end when the reader closes the pipe.

A module of its own so that ``scorer.__main__`` and ``scorer.vision.cli`` both import it and
neither imports the other; it loads neither OpenCV nor the detector.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from scorer.boards import BOARD_NAMES

EXIT_CLOSED_PIPE = 141  # what a shell reports for a program that SIGPIPE ended (128 + 13)


def add_detect_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``detect`` options: the photo, its map, the game's colours, corners, overlay."""
    parser.add_argument("photo", help="photo of the board (JPEG, PNG, WebP, HEIC)")
    parser.add_argument("--map", required=True, choices=BOARD_NAMES)
    parser.add_argument("--colors", help="piece colours in the game, e.g. red,blue")
    parser.add_argument("--corners", help="x,y,x,y,x,y,x,y: TL, TR, BR, BL in photo pixels")
    parser.add_argument("--overlay", help="write an annotated JPEG here")
    parser.add_argument("--json", action="store_true", help="print JSON (the only output)")


def quiet_on_closed_pipe(command: Callable[[], int]) -> int:
    """Run a command; a reader that stops early (``| head``) ends it quietly, no traceback."""
    try:
        code = command()
        sys.stdout.flush()  # inside the try: a short output is still in the buffer here
    except BrokenPipeError:
        # Python flushes stdout again on exit; with the pipe closed that would fail too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_CLOSED_PIPE
    return code
