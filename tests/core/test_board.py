import re
from pathlib import Path

import pytest

from scorer.boards import BOARD_NAMES, load_board, normalize_name
from scorer.boards.board import board_counts, board_from_json, load_board_file, route_id
from scorer.errors import BoardDataError, UnknownCity, UnknownRoute

COUNTED = ("cities", "routes", "city_pairs", "double_pairs", "train_spaces_total",
           "routes_by_length", "tunnels", "ferries", "tickets")


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_board_counts_match_the_reference_invariants(name):
    board = load_board(name)
    counts = board_counts(board)
    for key in COUNTED:
        assert counts[key] == board.invariants[key], key
    for key in ("ticket_cards", "countries"):  # stated by the boards that have them
        assert counts[key] == board.invariants.get(key, counts[key]), key


def test_invariants_state_the_known_figures():
    assert board_counts(load_board("usa"))["train_spaces_total"] == 309
    europe = board_counts(load_board("europe"))
    assert (europe["cities"], europe["routes"], europe["tunnels"], europe["ferries"]) == (
        47, 101, 18, 13)


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_every_route_has_one_space_per_train_and_keeps_its_sources(name):
    board = load_board(name)
    assert board.sources
    for route in board.routes.values():
        assert len(route.spaces) == route.length
        assert route.a in board.cities and route.b in board.cities


@pytest.mark.parametrize(
    ("board", "typed", "printed"),
    [
        ("europe", "zurich", "Zürich"),
        ("europe", "ZÜRICH", "Zürich"),
        ("europe", "Istanbul", "Constantinople"),
        ("europe", "København", "Kobenhavn"),
        ("europe", "munich", "München"),
        ("usa", "St. Louis", "Saint Louis"),
        ("usa", "saint louis", "Saint Louis"),
        ("usa", "montreal", "Montréal"),
        ("usa", "new york city", "New York"),
    ],
)
def test_city_names_match_without_case_accents_and_through_aliases(board, typed, printed):
    assert load_board(board).city(typed) == printed


def test_unknown_city_suggests_the_nearest_name():
    with pytest.raises(UnknownCity) as err:
        load_board("europe").city("Zurch")
    assert str(err.value) == "Unknown city 'Zurch' on the Europe board. Did you mean Zürich?"


def test_unknown_route_is_named_in_the_error():
    with pytest.raises(UnknownRoute, match="paris--zurch"):
        load_board("europe").route("paris--zurch")


def test_lanes_of_a_double_come_first_lane_first():
    lanes = load_board("usa").lanes("Denver", "Salt Lake City")
    assert [r.id for r in lanes] == ["denver--salt-lake-city", "denver--salt-lake-city--2"]


def test_normalize_name_folds_letters_unicode_does_not_decompose():
    assert normalize_name("København") == normalize_name("Kobenhavn") == "kobenhavn"


def _data():
    import json
    from importlib import resources

    return json.loads(resources.files("scorer.boards").joinpath("usa.json").read_text())


def test_a_route_to_an_unknown_city_is_refused_on_load():
    data = _data()
    data["routes"][0]["b"] = "Gotham"
    with pytest.raises(BoardDataError, match="Gotham"):
        board_from_json(data)


def test_a_route_whose_length_differs_from_its_spaces_is_refused_on_load():
    data = _data()
    data["routes"][0]["length"] += 1
    with pytest.raises(BoardDataError, match="spaces"):
        board_from_json(data)


def test_lanes_of_one_double_may_differ_in_length():
    # Nordic Countries prints three such pairs (Kristiansand-Stavanger 2 and 3, rules.md)
    data = _data()
    second = next(r for r in data["routes"] if r["id"].endswith("--2"))
    second["length"] += 1
    second["spaces"].append([0, 0, 0])
    board = board_from_json(data)
    first, other = board.lanes(board.routes[second["id"]].a, board.routes[second["id"]].b)
    assert other.length == first.length + 1


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Mo I Rana", "Trondheim", "mo-i-rana--trondheim"), ("Zürich", "Paris", "paris--zurich"),
    ("Saint Louis", "Sault St. Marie", "saint-louis--sault-st-marie"),
    ("København", "Århus", "arhus--kobenhavn"),
])
def test_route_ids_are_the_two_city_names_in_alphabetical_order(a, b, expected):
    assert route_id(a, b) == expected


def test_a_route_id_that_breaks_the_rule_is_refused_on_load():
    data = _data()
    data["routes"][0]["id"] = "charleston--atlanta"
    with pytest.raises(BoardDataError, match="should be named atlanta--charleston"):
        board_from_json(data)


def test_a_lane_whose_spaces_do_not_match_its_length_is_still_refused():
    data = _data()
    data["routes"][0]["spaces"].append([0, 0, 0])
    with pytest.raises(BoardDataError, match="spaces"):
        board_from_json(data)


def test_a_ticket_to_an_unknown_city_is_refused_on_load():
    data = _data()
    data["tickets"][0]["a"] = "Atlantis"
    with pytest.raises(BoardDataError, match="Atlantis"):
        board_from_json(data)


def test_a_board_file_can_be_loaded_from_any_path(tmp_path):
    import json

    path = tmp_path / "mini.json"
    path.write_text(json.dumps(_data()))
    assert len(load_board_file(path).routes) == 100


def test_an_unreadable_board_file_is_a_board_error(tmp_path):
    with pytest.raises(BoardDataError):
        load_board_file(tmp_path / "missing.json")


def test_unknown_board_name_lists_the_boards():
    with pytest.raises(BoardDataError, match=f"Boards: {', '.join(BOARD_NAMES)}") as refused:
        load_board("mars")
    assert "nordic" in str(refused.value)


def test_the_boards_size_is_written_only_in_the_board_data():
    # the locator, the renderer and their tests take it from Board.size_cm / Board.aspect
    root = Path(__file__).resolve().parents[2]
    copies = [str(p.relative_to(root)) for folder in ("scorer", "benchmarks", "scripts", "tests")
              for p in sorted((root / folder).rglob("*.py"))
              if re.search(r"\b(79\.5|52\.5)\b", p.read_text(encoding="utf-8"))]
    assert copies == []


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_the_boards_aspect_is_its_width_over_its_height(name):
    board = load_board(name)
    frame = board.board_frame
    assert board.size_cm == (frame["width_cm"], frame["height_cm"])
    assert board.aspect == pytest.approx(frame["width_cm"] / frame["height_cm"])
