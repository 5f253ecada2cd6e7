"""Europe stations: a piece standing on a city, not the city's dot nor a train reaching in."""

import cv2
import numpy as np
import pytest

from scorer.boards import load_board
from scorer.vision.model import CLASSES
from scorer.vision.register import city_dots
from scorer.vision.sample import PAPER_LAB, space_table
from scorer.vision.stations import find_stations

EUROPE = load_board("europe")
ART_WIDTH, ART_HEIGHT = EUROPE.art_frame["width"], EUROPE.art_frame["height"]
PAPER = (200.0, 128.0, 140.0)
RED = (90.0, 180.0, 165.0)
# the printed city dot under a warm cast: within reach of the red pieces' colour
WARM_DOT = (115.0, 162.0, 160.0)
GREY_DOT = (150.0, 128.0, 128.0)
# green pieces in a dim photo, normalised: within station_near_piece of the paper itself
WASHED_GREEN = (125.0, 116.0, 141.0)


def rectangle(img: np.ndarray, x: float, y: float, length: float, width: float,
              angle: float, colour: tuple[float, float, float]) -> None:
    box = cv2.boxPoints(((x, y), (length, width), angle)).astype(np.int32)
    cv2.fillConvexPoly(img, box, colour)


def board_with(red_routes: list[str], dot: tuple[float, float, float] = WARM_DOT,
               piece: str = "red", look: tuple[float, float, float] = RED,
               paper: tuple[float, float, float] = PAPER, dot_radius: int = 10,
               spread: float = 0.0, ring: tuple[float, float, float] | None = None,
               ) -> tuple[np.ndarray, np.ndarray]:
    """A rectified Lab board: paper, every city's dot (widened by blur; printed ``spread``
    larger than the board's data about the map's centre; its outer 5 px a ``ring`` of another
    colour, if given), trains of ``piece`` colour looking ``look`` on routes (red by default)."""
    routes, spaces, owner_of = space_table(EUROPE)
    lab = np.zeros((ART_HEIGHT, ART_WIDTH, 3), np.float32)
    lab[:] = paper
    for x, y in printed_dots(spread):
        cv2.circle(lab, (round(x), round(y)), dot_radius, ring or dot, -1)
        cv2.circle(lab, (round(x), round(y)), dot_radius - 5 if ring else dot_radius, dot, -1)
    probs = np.zeros((len(spaces), len(CLASSES)))
    probs[:, 0] = 1.0
    for i, route in enumerate(routes):
        if route.id in red_routes:
            for row in np.flatnonzero(owner_of == i):
                x, y, angle = spaces[row]
                rectangle(lab, x, y, 60, 21, angle, look)
                probs[row] = 0.0
                probs[row, CLASSES.index(piece)] = 0.99
    return lab, probs


def printed_dots(spread: float) -> np.ndarray:
    """Where the cities' dots are printed on a map ``spread`` larger than the board's data."""
    data = np.array([(c.x, c.y) for c in EUROPE.cities.values()])
    return data + spread * (data - (ART_WIDTH / 2, ART_HEIGHT / 2))


def slip_toward(lab: np.ndarray, route_id: str, city: str, slip: float) -> None:
    """The route's piece next to ``city`` slid toward it, as a leaning, sloppy piece looks."""
    c = EUROPE.cities[city]
    end = min(EUROPE.routes[route_id].spaces, key=lambda s: np.hypot(s.x - c.x, s.y - c.y))
    step = np.array([c.x - end.x, c.y - end.y])
    x, y = np.array([end.x, end.y]) + slip * step / np.linalg.norm(step)
    rectangle(lab, x, y, 60, 21, end.angle, RED)


def test_a_red_station_is_found_on_its_city():
    lab, probs = board_with(["kyiv--smolensk"])
    rectangle(lab, EUROPE.cities["Zürich"].x, EUROPE.cities["Zürich"].y, 27, 21, 30, RED)
    found = {(s.city, s.owner) for s in find_stations(lab, probs, EUROPE)}
    assert ("Zürich", "red") in found


def test_empty_city_dots_close_to_a_piece_colour_are_not_stations():
    lab, probs = board_with(["kyiv--smolensk"])
    rectangle(lab, EUROPE.cities["Zürich"].x, EUROPE.cities["Zürich"].y, 27, 21, 30, RED)
    found = {(s.city, s.owner) for s in find_stations(lab, probs, EUROPE)}
    assert found == {("Zürich", "red")}


def test_red_trains_reaching_into_a_city_are_not_a_red_station_there():
    lab, probs = board_with(["cadiz--madrid", "lisboa--madrid", "kyiv--smolensk"], dot=GREY_DOT)
    slip_toward(lab, "cadiz--madrid", "Madrid", 12)
    slip_toward(lab, "lisboa--madrid", "Madrid", 12)
    rectangle(lab, EUROPE.cities["Zürich"].x, EUROPE.cities["Zürich"].y, 27, 21, 30, RED)
    found = {(s.city, s.owner) for s in find_stations(lab, probs, EUROPE)}
    assert "Madrid" not in {city for city, _ in found}
    assert ("Zürich", "red") in found


def test_a_piece_lying_beside_a_city_dot_that_stays_in_sight_is_not_a_station():
    lab, probs = board_with(["kyiv--smolensk"], dot=GREY_DOT)
    madrid = EUROPE.cities["Madrid"]
    # covers the lower half of the disk: enough colour, but the upper half of the dot shows
    rectangle(lab, madrid.x, madrid.y + 11, 60, 21, 0, RED)
    rectangle(lab, EUROPE.cities["Zürich"].x, EUROPE.cities["Zürich"].y, 27, 21, 30, RED)
    found = {(s.city, s.owner) for s in find_stations(lab, probs, EUROPE)}
    assert found == {("Zürich", "red")}


def test_stations_set_down_a_little_off_their_city_dots_are_still_found():
    lab, probs = board_with(["kyiv--smolensk"])
    for city, (dx, dy), angle in [("Zürich", (3, 0), 0), ("Madrid", (0, -3), 70),
                                  ("Wien", (2, 2), 135)]:
        c = EUROPE.cities[city]
        rectangle(lab, c.x + dx, c.y + dy, 27, 21, angle, RED)
    found = {(s.city, s.owner) for s in find_stations(lab, probs, EUROPE)}
    assert found == {("Zürich", "red"), ("Madrid", "red"), ("Wien", "red")}


def test_a_piece_colour_washed_out_nearly_to_the_paper_finds_no_station_on_bare_paper():
    """A dim photo's green pieces, normalised, come out grey-green, and its small city dots
    show as specks: bare paper round a city is within reach of that green, but nearer
    the paper, so it is no station; a station of that colour still is."""
    lab, probs = board_with(["kyiv--smolensk"], piece="green", look=WASHED_GREEN,
                            paper=PAPER_LAB, dot_radius=3)
    zurich = EUROPE.cities["Zürich"]
    rectangle(lab, zurich.x, zurich.y, 27, 21, 30, WASHED_GREEN)
    found = {(s.city, s.owner) for s in find_stations(lab, probs, EUROPE)}
    assert found == {("Zürich", "green")}


BLUE = (80.0, 133.0, 90.0)
BLACK = (12.0, 129.0, 126.0)
# a blue station's shaded side: dark, bluish, nearer the black pieces' look than the blue's
SHADED_BLUE = (40.0, 129.0, 114.0)


def test_a_blue_station_whose_shaded_half_reads_black_is_blue():
    lab, probs = board_with(["kyiv--smolensk", "berlin--essen"], piece="blue", look=BLUE)
    black_lab, black_probs = board_with(["danzig--riga"], piece="black", look=BLACK)
    lab[(black_lab == BLACK).all(axis=2)] = BLACK
    probs = np.maximum(probs, black_probs)
    probs[:, 0] = 1.0 - probs[:, 1:].sum(axis=1)
    roma = EUROPE.cities["Roma"]
    cv2.circle(lab, (int(roma.x), int(roma.y)), 16, BLUE, -1)
    cv2.rectangle(lab, (int(roma.x) - 16, int(roma.y)), (int(roma.x) + 16, int(roma.y) + 16),
                  SHADED_BLUE, -1)
    found = {s.city: s.owner for s in find_stations(lab, probs, EUROPE)}
    assert found.get("Roma") == "blue"


@pytest.mark.parametrize("lit, shade, cut, owner", [
    # 0.39 of the disk lit blue, 0.61 in shade read black (a darker photo: Roma under gamma 1.6)
    (BLUE, SHADED_BLUE, -2, "blue"),
    # a black station with red beside it on 0.26 of the disk (0.34 of what black covers)
    (RED, BLACK, -5, "black"),
])
def test_a_station_mostly_in_shade_is_its_lit_colour_and_a_black_one_stays_black(
        lit, shade, cut, owner):
    lab, probs = board_with(["kyiv--smolensk", "berlin--essen"], piece="blue", look=BLUE)
    for piece, look, route in (("black", BLACK, "danzig--riga"), ("red", RED, "paris--zurich")):
        more_lab, more_probs = board_with([route], piece=piece, look=look)
        lab[(more_lab == look).all(axis=2)] = look
        probs = np.maximum(probs, more_probs)
    probs[:, 0] = 1.0 - probs[:, 1:].sum(axis=1)
    roma = EUROPE.cities["Roma"]
    x, y = int(roma.x), int(roma.y)
    cv2.circle(lab, (x, y), 16, shade, -1)
    top = lab[y - 16:y + cut, x - 16:x + 17]
    disk = np.zeros((33, 33), np.uint8)
    cv2.circle(disk, (16, 16), 16, 1, -1)
    top[disk[:16 + cut].astype(bool)] = lit
    found = {s.city: s.owner for s in find_stations(lab, probs, EUROPE)}
    assert found.get("Roma") == owner


def test_city_dots_printed_off_the_boards_data_are_found_where_they_are_printed():
    lab, _ = board_with([], dot=GREY_DOT, spread=0.012)
    dots = city_dots(lab, EUROPE)
    assert dots.seen.all()
    assert np.abs(dots.centres - printed_dots(0.012)).max() <= 1.0


def test_a_hidden_city_dot_is_placed_where_the_print_offset_of_the_others_puts_it():
    lab, _ = board_with([], dot=GREY_DOT, spread=0.012)
    lisboa = list(EUROPE.cities).index("Lisboa")
    x, y = printed_dots(0.012)[lisboa]
    rectangle(lab, x, y, 27, 21, 30, RED)
    dots = city_dots(lab, EUROPE)
    assert not dots.seen[lisboa]
    assert dots.seen.sum() == len(EUROPE.cities) - 1
    # Lisboa's dot is printed 10 px west of its data; the fit must carry that far
    assert np.hypot(*(dots.centres[lisboa] - (x, y))) <= 1.5


RING = (70.0, 140.0, 145.0)


def test_a_train_beside_a_city_dot_printed_off_its_data_is_not_a_station():
    """Madrid's dot printed 11 px west of its data: a train lying just east of the dot covers
    most of the data's disk, and the dot's dark ring, not its centre, is what is left in it, but
    the dot shows where it is printed, so no station stands there."""
    lab, probs = board_with(["kyiv--smolensk"], dot=GREY_DOT, spread=0.016, dot_radius=12,
                            ring=RING)
    madrid = EUROPE.cities["Madrid"]
    rectangle(lab, madrid.x + 8, madrid.y, 60, 21, 80, RED)
    zurich = printed_dots(0.016)[list(EUROPE.cities).index("Zürich")]
    rectangle(lab, *zurich, 27, 21, 30, RED)
    found = {(s.city, s.owner) for s in find_stations(lab, probs, EUROPE)}
    assert found == {("Zürich", "red")}


def test_a_train_lying_over_part_of_a_city_dot_is_not_a_station():
    """The train covers Wien's disk from just above the dot's centre down: most of the disk is
    red and little of the dot's centre colour is left in it, but the upper part of the dot shows
    where it is printed."""
    lab, probs = board_with(["kyiv--smolensk"], dot=GREY_DOT, dot_radius=12, ring=RING)
    wien = EUROPE.cities["Wien"]
    rectangle(lab, wien.x, wien.y + 9, 60, 21, 0, RED)
    zurich = EUROPE.cities["Zürich"]
    rectangle(lab, zurich.x, zurich.y, 27, 21, 30, RED)
    found = {(s.city, s.owner) for s in find_stations(lab, probs, EUROPE)}
    assert found == {("Zürich", "red")}
