"""The rule sets as data: a variant is a small frozen object looked up by name.

``VARIANTS`` is the one registry: forms, CLI choices and error messages list what it holds, so
a new rule set is one entry here (plus its board or deck data file).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from scorer.boards import Board, load_board
from scorer.errors import BoardDataError, UnknownVariant
from scorer.messages import Message, Names

PIECE_COLORS = ("red", "blue", "green", "yellow", "black")

ROUTE_POINTS: Mapping[int, int] = MappingProxyType(
    {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}
)
# Nordic Countries prints 1-6 and its one 9-long route, worth 27 (rules.md).
NORDIC_POINTS: Mapping[int, int] = MappingProxyType(
    {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 9: 27}
)
# The end-of-game bonuses a rule set may score, by key (Variant.bonuses gives a set's own, with
# their names; scoring.BONUS_RULES scores each). The cards a player holds (longest path,
# Globetrotter) may break a tie; the Europe Express cards and the Grand Tour do not.
BONUS_KEYS = ("longest", "express", "globetrotter", "grand_tour")
CARD_BONUSES = ("longest", "globetrotter")
# The tie-break keys a variant may name (see Variant.tiebreak).
TIEBREAK_KEYS = ("tickets", "stations", *CARD_BONUSES)

# The names of the bonuses that are the same in every set that has them.
GLOBETROTTER = "Globetrotter"
EUROPE_EXPRESS = "Europe Express"
GRAND_TOUR = "Grand Tour"
# How the load check names a card bonus in its refusal.
_CARD_LABELS = {"longest": "longest-path", "globetrotter": "Globetrotter"}


@dataclass(frozen=True)
class Variant:
    """Everything that differs between the rule sets: trains, stations, deck, bonuses, ties."""

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
    # Points of the longest-path bonus card (0: the set has none) and the card's name.
    longest_bonus: int = 10
    bonus_name: str = "Longest path"
    # Points of the Globetrotter card (most completed tickets; 0: the set has none).
    globetrotter_bonus: int = 0
    # Europe Express bonus cards (London – Istanbul, one per player, in the order taken).
    express_cards: bool = False
    express_ends: tuple[str, str] = ("London", "Constantinople")
    express_values: tuple[int, ...] = (20, 15, 10, 5)
    # The ticket deck: (file in scorer/boards/decks, deck in it); None: the board's own tickets.
    deck: tuple[str, str] | None = None
    # Tie-break keys after points, in order: "tickets" (most completed), "stations" (fewest
    # placed), "longest" and "globetrotter" (holder of that bonus card).
    tiebreak: tuple[str, ...] = ("tickets", "longest")
    # Points per route length: must hold every length of the board (checked by ``board``).
    points_table: Mapping[int, int] = field(default_factory=lambda: ROUTE_POINTS)
    # BoardGameGeek's game (id, name) the set is logged as in BG Stats: the base game of its
    # box, the set's own title going as the play's board.
    bgg_game: tuple[int, str] = (9209, "Ticket to Ride")
    # India's Grand Tour: points by how many tickets a player joins by two paths sharing no
    # route (index: that count; the last for that many and more); (): the set has none.
    grand_tour: tuple[int, ...] = ()

    def route_points(self, length: int) -> int:
        return self.points_table[length]

    def doubles_open(self, player_count: int) -> bool:
        """Whether both lanes of a double route can be used with this many players."""
        return player_count >= self.doubles_from_players

    def board(self) -> Board:
        """The board this set is played on, holding the set's own ticket deck.

        Raises BoardDataError when the board and the set do not fit each other: a route length
        the set's points table lacks, a tie-break key unknown or for a bonus the set does not
        have, a Grand Tour table not starting at 0, more players than piece colours.
        """
        return _fitted_board(self)

    @property
    def deck_title(self) -> str:
        """What to call the set's ticket deck: the set's name when it brings its own."""
        return self.title if self.deck else load_board(self.board_name).title

    @property
    def bonuses(self) -> tuple[tuple[str, str], ...]:
        """The end-of-game bonuses the set scores, as (key, name), in the score sheet's order."""
        found = ((self.longest_bonus, "longest", self.bonus_name),
                 (self.express_cards, "express", EUROPE_EXPRESS),
                 (self.globetrotter_bonus, "globetrotter", GLOBETROTTER),
                 (self.grand_tour, "grand_tour", GRAND_TOUR))
        return tuple((key, name) for has, key, name in found if has)

    def bonus_title(self, key: str) -> str:
        """The name of the bonus a key (``BONUS_KEYS``, a tie-break key too) stands for."""
        return dict(self.bonuses)[key]

    def without_longest_bonus(self) -> Variant:
        """The set as a table plays it without the longest-path bonus card (a setup choice,
        rules.md): no card, so no tie-break step for its holder either."""
        return replace(self, longest_bonus=0,
                       tiebreak=tuple(key for key in self.tiebreak if key != "longest"))


USA = Variant(
    name="usa", title="USA", board_name="usa", trains=45, min_players=2, max_players=5,
    doubles_from_players=4, bonus_name="Longest path",
)
EUROPE = Variant(
    name="europe", title="Europe", board_name="europe", trains=45, min_players=2,
    max_players=5, doubles_from_players=4, stations=3, bonus_name="European Express",
    tiebreak=("tickets", "stations", "longest"), bgg_game=(14996, "Ticket to Ride: Europe"),
)
EXPRESS = Variant(
    name="express", title="Express", board_name="europe", trains=27, min_players=2,
    max_players=4, doubles_from_players=3, express_cards=True, longest_bonus=0,
    bonus_name="Europe Express", tiebreak=("tickets",),
    bgg_game=(14996, "Ticket to Ride: Europe"),
)
USA_1910 = Variant(
    name="usa-1910", title="USA 1910", board_name="usa", trains=45, min_players=2,
    max_players=5, doubles_from_players=4, longest_bonus=0, globetrotter_bonus=15,
    deck=("usa-1910", "1910"), tiebreak=("tickets", "globetrotter"),
)
USA_MEGA = Variant(
    name="usa-mega", title="USA 1910 Mega Game", board_name="usa", trains=45, min_players=2,
    max_players=5, doubles_from_players=4, globetrotter_bonus=15,
    deck=("usa-1910", "mega"), tiebreak=("tickets", "longest", "globetrotter"),
)
USA_BIG_CITIES = Variant(
    name="usa-big-cities", title="USA 1910 Big Cities", board_name="usa", trains=45,
    min_players=2, max_players=5, doubles_from_players=4, longest_bonus=0,
    deck=("usa-1910", "big_cities"), tiebreak=("tickets",),
)
# Europe 1912: everything as Europe (stations, the European Express, its tie-break) but the deck.
EUROPE_1912_EXTENDED = replace(
    EUROPE, name="europe-1912-extended", title="Europe 1912 Extended",
    deck=("europe-1912", "extended"),
)
EUROPE_1912_MEGA = replace(
    EUROPE, name="europe-1912-mega", title="Europe 1912 Mega", deck=("europe-1912", "mega"),
)
EUROPE_1912_BIG_CITIES = replace(
    EUROPE, name="europe-1912-big-cities", title="Europe 1912 Big Cities",
    deck=("europe-1912", "big_cities"),
)
# Nordic Countries: a board of its own for 2-3 players, its 9-long route, the Globetrotter +10
# and no longest-path card; with 3 players both lanes of a double are open.
NORDIC = Variant(
    name="nordic", title="Nordic Countries", board_name="nordic", trains=40, min_players=2,
    max_players=3, doubles_from_players=3, longest_bonus=0, globetrotter_bonus=10,
    tiebreak=("tickets",), points_table=NORDIC_POINTS,
    bgg_game=(31627, "Ticket to Ride: Nordic Countries"),
)

# India: 2-4 players, doubles open with 4, the Indian Express (longest path) +10 and the Grand
# Tour: 5, 10, 20, 30, 40 points for 1 to 5 or more tickets joined by two paths sharing no route.
INDIA = Variant(
    name="india", title="India", board_name="india", trains=45, min_players=2, max_players=4,
    doubles_from_players=4, bonus_name="Indian Express", grand_tour=(0, 5, 10, 20, 30, 40),
)
# Switzerland: 2-3 players, 40 trains, doubles open with 3, the longest path +10; its tickets to
# and between the neighbouring countries are board data (Ticket.ends, Board.countries). An
# expansion map played with a base game's pieces: logged as Ticket to Ride, its title the board.
SWITZERLAND = Variant(
    name="switzerland", title="Switzerland", board_name="switzerland", trains=40,
    min_players=2, max_players=3, doubles_from_players=3, bonus_name="Longest path",
)

VARIANTS: Mapping[str, Variant] = MappingProxyType({
    v.name: v for v in (USA, EUROPE, EXPRESS, USA_1910, USA_MEGA, USA_BIG_CITIES,
                        EUROPE_1912_EXTENDED, EUROPE_1912_MEGA, EUROPE_1912_BIG_CITIES, NORDIC,
                        SWITZERLAND, INDIA)
})


def _fitted_board(variant: Variant) -> Board:
    # Checked at every load (a set of lengths, microseconds): a variant made by replace() for
    # a test or a setup choice is checked as it is.
    board = load_board(variant.board_name, variant.deck)
    problems = []
    lengths = sorted({r.length for r in board.routes.values()} - set(variant.points_table))
    if lengths:
        problems.append(f"its points table has no entry for route length "
                        f"{', '.join(map(str, lengths))} (give the set a points_table)")
    unknown = [key for key in variant.tiebreak if key not in TIEBREAK_KEYS]
    if unknown:
        problems.append(f"unknown tie-break keys {unknown} (known: {', '.join(TIEBREAK_KEYS)})")
    if "stations" in variant.tiebreak and not variant.stations:
        problems.append("a stations tie-break without stations")
    held = dict(variant.bonuses)
    for key in (k for k in variant.tiebreak if k in CARD_BONUSES and k not in held):
        problems.append(f"a {_CARD_LABELS[key]} tie-break without the {_CARD_LABELS[key]} bonus")
    if variant.grand_tour and (variant.grand_tour[0] != 0 or len(variant.grand_tour) < 2):
        problems.append(f"a Grand Tour table {variant.grand_tour} that does not start at 0 points "
                        f"for no ticket")
    if not 1 <= variant.min_players <= variant.max_players <= len(PIECE_COLORS):
        problems.append(f"{variant.min_players}-{variant.max_players} players with "
                        f"{len(PIECE_COLORS)} piece colours")
    if problems:
        raise BoardDataError("Rule set {variant!r} does not fit board {board!r}: {problems}",
                             variant=variant.name, board=board.name,
                             problems="; ".join(problems))
    return board


def find_variant(name: str) -> Variant:
    """The variant of this name (``usa``, ``europe``, ``usa-1910``, …; any case)."""
    try:
        return VARIANTS[str(name).strip().lower()]
    except KeyError:
        raise UnknownVariant(
            str(name), Message("(choose {variants})", {"variants": Names(tuple(VARIANTS), "or")}),
        ) from None


def board_has_stations(board_name: str) -> bool:
    """Whether some rule set played on this board uses stations (the photo looks for them)."""
    return any(v.stations for v in VARIANTS.values() if v.board_name == board_name)
