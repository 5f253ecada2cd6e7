"""Board data: cities, routes (with their train spaces), tickets, loaded from package data."""

from scorer.boards.board import (
    BOARD_NAMES,
    PHOTO_BOARDS,
    SPACE_SIZE,
    Board,
    City,
    Route,
    Space,
    Ticket,
    load_board,
    load_deck,
    normalize_name,
)

__all__ = [
    "BOARD_NAMES",
    "PHOTO_BOARDS",
    "SPACE_SIZE",
    "Board",
    "City",
    "Route",
    "Space",
    "Ticket",
    "load_board",
    "load_deck",
    "normalize_name",
]
