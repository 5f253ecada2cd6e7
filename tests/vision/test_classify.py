"""Lane decisions from space probabilities (no photo needed)."""

import numpy as np

from scorer.boards import load_board
from scorer.vision.classify import lane_results, sibling_side
from scorer.vision.model import CLASSES
from scorer.vision.sample import space_table

USA = load_board("usa")


def probabilities(board, colours: dict[str, list[str | None]], sure: float = 0.9) -> np.ndarray:
    """Space probabilities: ``sure`` on the given colour per space, empty everywhere else."""
    routes, _, owner_of = space_table(board)
    probs = np.full((len(owner_of), len(CLASSES)), (1 - sure) / (len(CLASSES) - 1))
    probs[:, 0] = sure
    for i, route in enumerate(routes):
        for row, colour in zip(np.flatnonzero(owner_of == i), colours.get(route.id, ()),
                               strict=False):
            if colour is not None:
                probs[row] = (1 - sure) / (len(CLASSES) - 1)
                probs[row, CLASSES.index(colour)] = sure
    return probs


def owners(results) -> dict[str, str | None]:
    return {r.route: r.owner for r in results}


def test_a_lane_covered_by_one_colour_is_owned_and_others_are_empty():
    probs = probabilities(USA, {"denver--omaha": ["red"] * 4})
    got = owners(lane_results(probs, USA))
    assert got["denver--omaha"] == "red"
    assert {k for k, v in got.items() if v} == {"denver--omaha"}


def test_a_half_covered_lane_is_doubtful_not_claimed():
    results = lane_results(probabilities(USA, {"denver--omaha": ["red", "red", None, None]}), USA)
    lane = next(r for r in results if r.route == "denver--omaha")
    assert lane.owner is None and lane.confidence < 0.5


def test_one_colour_seen_on_both_lanes_of_a_double_goes_to_the_lane_it_covers_better():
    probs = probabilities(USA, {"new-york--washington": ["blue", "blue"],
                                "new-york--washington--2": ["blue", "blue"]})
    routes, _, owner_of = space_table(USA)
    second = next(i for i, r in enumerate(routes) if r.id == "new-york--washington--2")
    probs[owner_of == second, CLASSES.index("blue")] = 0.8
    probs[owner_of == second, 0] = 0.12
    got = owners(lane_results(probs, USA))
    assert got["new-york--washington"] == "blue"
    assert got["new-york--washington--2"] is None


def test_two_colours_on_the_two_lanes_of_a_double_are_both_kept():
    probs = probabilities(USA, {"new-york--washington": ["blue", "blue"],
                                "new-york--washington--2": ["red", "red"]})
    got = owners(lane_results(probs, USA))
    assert (got["new-york--washington"], got["new-york--washington--2"]) == ("blue", "red")


def test_the_two_lanes_of_a_double_lie_on_opposite_sides_of_each_other():
    routes, _, _ = space_table(USA)
    side = dict(zip((r.id for r in routes), sibling_side(USA), strict=True))
    assert side["new-york--washington"] == -side["new-york--washington--2"] != 0
    assert side["denver--omaha"] == 0
