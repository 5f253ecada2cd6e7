"""The rule sets as data: a variant is a small frozen object looked up by name."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from scorer.errors import UnknownVariant
from scorer.messages import Message

PIECE_COLORS = ("red", "blue", "green", "yellow", "black")

ROUTE_POINTS: Mapping[int, int] = MappingProxyType(
    {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}
)


@dataclass(frozen=True)
class Variant:
    """Everything that differs between USA, Europe and Express."""

    name: str
    title: str
    board_name: str
    trains: int
    min_players: int
    max_players: int
    # Both lanes of a double may be used from this many players on; below, one lane closes.
    doubles_from_players: int
    stations: int = 0
    station_points: int = 4
    bonus: str = "longest"  # "longest" (a longest-path bonus) or "express" (bonus cards)
    longest_bonus: int = 10
    bonus_name: str = "Longest path"
    express_ends: tuple[str, str] = ("London", "Constantinople")
    express_values: tuple[int, ...] = (20, 15, 10, 5)
    # Tie-break keys after points, in order: "tickets" (most completed), "stations" (fewest
    # placed), "longest" (bonus holder).
    tiebreak: tuple[str, ...] = ("tickets", "longest")
    points_table: Mapping[int, int] = field(default_factory=lambda: ROUTE_POINTS)

    def route_points(self, length: int) -> int:
        return self.points_table[length]

    def doubles_open(self, player_count: int) -> bool:
        """Whether both lanes of a double route can be used with this many players."""
        return player_count >= self.doubles_from_players


USA = Variant(
    name="usa", title="USA", board_name="usa", trains=45, min_players=2, max_players=5,
    doubles_from_players=4, bonus_name="Longest path",
)
EUROPE = Variant(
    name="europe", title="Europe", board_name="europe", trains=45, min_players=2,
    max_players=5, doubles_from_players=4, stations=3, bonus_name="European Express",
    tiebreak=("tickets", "stations", "longest"),
)
EXPRESS = Variant(
    name="express", title="Express", board_name="europe", trains=27, min_players=2,
    max_players=4, doubles_from_players=3, bonus="express", longest_bonus=0,
    bonus_name="Europe Express", tiebreak=("tickets",),
)

VARIANTS: Mapping[str, Variant] = MappingProxyType({v.name: v for v in (USA, EUROPE, EXPRESS)})


def find_variant(name: str) -> Variant:
    """The variant called ``usa``, ``europe`` or ``express`` (any case)."""
    try:
        return VARIANTS[str(name).strip().lower()]
    except KeyError:
        raise UnknownVariant(
            str(name), Message("(choose usa, europe or express)"), ()
        ) from None
