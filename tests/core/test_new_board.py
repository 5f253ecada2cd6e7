"""Adding a board is its data file plus one registry entry: proved on a copy of the package
with a three-city test board, through the CLI and the new-game form."""

import json
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import scorer
from scorer.errors import BoardDataError
from scorer.game import Game
from scorer.rules import NORDIC, ROUTE_POINTS, USA, VARIANTS

MINI = {
    "map": "mini", "title": "Mini", "edition": "a test board",
    "art_frame": {"width": 300, "height": 200},
    "board_frame": {"ax": 0.1, "bx": 0.0, "ay": 0.1, "by": 0.0},
    "cities": [{"name": "Alpha", "x": 10, "y": 10}, {"name": "Beta", "x": 110, "y": 10},
               {"name": "Gamma", "x": 110, "y": 110}],
    "routes": [
        {"id": "alpha--beta", "a": "Alpha", "b": "Beta", "length": 2, "color": "red",
         "spaces": [[40, 10, 0], [80, 10, 0]]},
        {"id": "beta--gamma", "a": "Beta", "b": "Gamma", "length": 3, "color": "gray",
         "spaces": [[110, 35, 90], [110, 60, 90], [110, 85, 90]]},
    ],
    "tickets": [{"a": "Alpha", "b": "Gamma", "points": 5}],
}
ENTRY = ('    Variant(name="mini", title="Mini", board_name="mini", trains=7, min_players=2,\n'
         '            max_players=3, doubles_from_players=3),\n')
# The registry's tuple of variants, whatever it holds today: the entry goes at its end.
REGISTRY = re.compile(r"(\n    v\.name: v for v in \((?:[^()]*))(\)\n\}\))")

FORM = """
from scorer.web import create_app
app = create_app({"TESTING": True, "DATABASE": "mini.sqlite3", "DATABASE_URL": "",
                  "SECRET_KEY": "x"})
client = app.test_client()
print(client.get("/games/new").text)
# A finished game (Ann 2 trains left): its results page, with its BG Stats link, is a page.
made = client.post("/api/games", json={
    "variant": "mini", "players": [{"name": "Ann", "color": "red"},
                                   {"name": "Bob", "color": "blue"}],
    "claims": [{"player": "Ann", "route": "alpha--beta"},
               {"player": "Ann", "route": "beta--gamma"}]})
results = client.get(f"/games/{made.get_json()['id']}/results")
print("RESULTS", results.status_code, "data-bgstats" in results.text)
"""


def python(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=folder, capture_output=True, text=True,
                          env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin"}, timeout=120)


def test_a_board_file_and_one_registry_entry_make_a_playable_board(tmp_path):
    package = tmp_path / "scorer"
    shutil.copytree(Path(scorer.__file__).parent, package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    for folder in ("templates", "static"):  # the app finds them beside the package
        (tmp_path / folder).symlink_to(Path(scorer.__file__).parents[1] / folder)
    (package / "boards" / "mini.json").write_text(json.dumps(MINI))
    rules = (package / "rules.py").read_text()
    rules, entries = REGISTRY.subn(r"\1, _NEW\2", rules)
    assert entries == 1
    (package / "rules.py").write_text(
        rules.replace("\nVARIANTS:", "\n_NEW = (\n" + ENTRY + ")[0]\n\nVARIANTS:"))
    (tmp_path / "game.json").write_text(json.dumps({
        "variant": "mini", "players": [{"name": "Ann", "color": "red"},
                                       {"name": "Bob", "color": "blue"}],
        "claims": [{"player": "Ann", "from": "alpha", "to": "beta"},
                   {"player": "Ann", "route": "beta--gamma"}],
        "tickets": [{"player": "Ann", "from": "Alpha", "to": "Gamma"}]}))

    scored = python(tmp_path, "-m", "scorer", "score", "game.json")
    assert scored.returncode == 0, scored.stdout + scored.stderr
    ann = json.loads(scored.stdout)["players"][0]
    # 2 + 4 route points, the deck's 5, the longest path's 10; 10 - 5 trains left
    assert (ann["route_points"], ann["ticket_points"], ann["trains_left"]) == (6, 5, 2)
    assert ann["total"] == 21

    refused = python(tmp_path, "-m", "scorer", "detect", "photo.jpg", "--map", "mars")
    assert "'mini'" in refused.stdout
    (tmp_path / "game.json").write_text(json.dumps({"variant": "pluto", "players": []}))
    unknown = python(tmp_path, "-m", "scorer", "score", "game.json")
    assert " or mini)" in unknown.stdout  # the registry's last entry

    form = python(tmp_path, "-c", FORM)
    assert form.returncode == 0, form.stderr
    assert 'name="variant" value="mini"' in form.stdout and "<b>Mini</b>" in form.stdout
    assert "RESULTS 200 True" in form.stdout


def test_a_board_file_must_say_its_own_name_as_map(tmp_path):
    package = tmp_path / "scorer"
    shutil.copytree(Path(scorer.__file__).parent, package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    (package / "boards" / "mini.json").write_text(json.dumps({**MINI, "map": "tiny"}))
    loaded = python(tmp_path, "-c", "from scorer.boards import load_board; load_board('mini')")
    assert 'Board file mini.json says "map": \'tiny\'; the two must be the same.' in (
        loaded.stderr)


def test_a_rule_set_whose_points_table_misses_a_length_of_its_board_is_refused_at_load():
    # Nordic's 9-long route under the default table: refused when the board loads, not a
    # KeyError when someone claims it
    with pytest.raises(BoardDataError, match="no entry for route length 9"):
        replace(NORDIC, points_table=ROUTE_POINTS).board()
    with pytest.raises(BoardDataError, match="'nordic' does not fit board 'nordic'"):
        Game.new(replace(NORDIC, points_table=ROUTE_POINTS), [("Ann", "red"), ("Bob", "blue")])


@pytest.mark.parametrize(("changes", "problem"), [
    ({"tiebreak": ("tickets", "globetrotter")}, "Globetrotter tie-break without"),
    ({"tiebreak": ("tickets", "most-trains")}, "unknown tie-break keys ['most-trains']"),
    ({"tiebreak": ("stations",)}, "stations tie-break without stations"),
    ({"max_players": 6}, "2-6 players with 5 piece colours"),
])
def test_a_rule_set_that_does_not_fit_is_refused_at_load(changes, problem):
    with pytest.raises(BoardDataError, match=re.escape(problem)):
        replace(USA, **changes).board()


def test_every_rule_set_of_the_registry_fits_its_board():
    for variant in VARIANTS.values():
        assert variant.board().routes
