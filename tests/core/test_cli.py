import json
import subprocess
import sys

import pytest

from scorer.__main__ import main
from scorer.rules import VARIANTS
from tests.core import europe_1912_game, mega_game

GAME = {
    "variant": "europe",
    "players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}],
    "claims": [{"player": "Ann", "route": "paris--zurich"},
               {"player": "Ann", "route": "munchen--wien"},
               {"player": "Bob", "from": "Zürich", "to": "München"}],
    "stations": [{"player": "Ann", "city": "Zurich"}],
    "tickets": [{"player": "Ann", "from": "Paris", "to": "Wien"},
                {"player": "Bob", "from": "Wien", "to": "Berlin", "points": 5}],
}


def run(tmp_path, capsys, content, *flags):
    path = tmp_path / "game.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    code = main(["score", str(path), *flags])
    return code, capsys.readouterr().out


def test_score_prints_the_score_json(tmp_path, capsys):
    code, out = run(tmp_path, capsys, GAME)
    data = json.loads(out)
    assert code == 0
    assert data["winners"] == ["Ann"] and data["tiebreak"] is None
    assert data["players"][0]["total"] == 34
    assert data["players"][0]["borrowed_routes"] == [{"city": "Zürich",
                                                      "route": "munchen--zurich"}]


def test_text_output_shows_every_figure_and_the_winner(tmp_path, capsys):
    code, out = run(tmp_path, capsys, GAME, "--text")
    assert code == 0
    assert "Ann (red)" in out and "34" in out and "Winner: Ann" in out
    assert "station in Zürich uses munchen--zurich" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ("", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ({**GAME, "claims": [{"player": "Ann", "from": "Gotham", "to": "Wien"}]},
         "Unknown city 'Gotham'"),
        ({**GAME, "claims": GAME["claims"] + [{"player": "Bob", "route": "paris--zurich"}]},
         "already claimed by Ann"),
        ('{"variant": "usa", "players": [{"name": "Ann\\ud800", "color": "red"}, '
         '{"name": "Bob", "color": "blue"}]}', "not text"),
    ],
)
def test_invalid_input_exits_2_with_a_json_error(tmp_path, capsys, content, message):
    code, out = run(tmp_path, capsys, content)
    assert code == 2
    assert message in json.loads(out)["error"]


def test_a_missing_file_exits_2(tmp_path, capsys):
    assert main(["score", str(tmp_path / "nope.json")]) == 2
    assert "Cannot read" in json.loads(capsys.readouterr().out)["error"]


def test_bad_arguments_exit_2_with_a_json_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["score"])
    assert exit_.value.code == 2
    assert "error" in json.loads(capsys.readouterr().out)


def test_python_dash_m_scorer_is_the_same_program(tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(GAME))
    done = subprocess.run([sys.executable, "-m", "scorer", "score", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and json.loads(done.stdout)["winners"] == ["Ann"]
    bad = subprocess.run([sys.executable, "-m", "scorer", "score", str(path) + "x"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_score_reads_a_mega_game_and_prints_the_hand_counted_figures(tmp_path, capsys):
    code, out = run(tmp_path, capsys, mega_game.GAME)
    data = json.loads(out)
    assert code == 0 and data["variant"] == "usa-mega"
    assert {p["name"]: (p["longest_bonus"], p["globetrotter_bonus"], p["total"])
            for p in data["players"]} == {
        name: (figures[5], figures[6], figures[7])
        for name, figures in mega_game.EXPECTED.items()}
    assert data["tiebreak"] == mega_game.TIEBREAK


def test_score_reads_a_europe_1912_game_with_and_without_the_longest_path_bonus(
    tmp_path, capsys
):
    code, out = run(tmp_path, capsys, europe_1912_game.GAME, "--text")
    assert code == 0
    ann = next(line for line in out.splitlines() if line.startswith("Ann (red)"))
    assert ann.split()[-3:] == ["43", "10", "126"]  # longest path, its card, total
    assert "Winner: Carl" in out and europe_1912_game.TIEBREAK in out
    code, out = run(tmp_path, capsys, {**europe_1912_game.GAME, "longest_path_bonus": False})
    data = json.loads(out)
    assert code == 0 and data["longest_path_bonus"] is False
    assert {p["name"]: p["total"] for p in data["players"]} == (
        europe_1912_game.TOTALS_WITHOUT_BONUS)


def test_text_output_counts_the_globetrotter_in_the_bonus_column(tmp_path, capsys):
    code, out = run(tmp_path, capsys, mega_game.GAME, "--text")
    assert code == 0
    ann = next(line for line in out.splitlines() if line.startswith("Ann (red)"))
    assert ann.split()[-2:] == ["25", "86"]  # longest path 10 + Globetrotter 15, total
    assert "Winner: Ann" in out and mega_game.TIEBREAK in out


def test_an_unknown_variant_lists_every_rule_set(tmp_path, capsys):
    code, out = run(tmp_path, capsys, {**GAME, "variant": "usa-1911"})
    assert code == 2
    *first, last = VARIANTS
    assert f"{', '.join(first)} or {last}" in json.loads(out)["error"]


def test_score_reads_the_nordic_worked_example(tmp_path, capsys):
    from tests.core.test_nordic import HAND_COUNT, WORKED

    code, out = run(tmp_path, capsys, WORKED, "--text")
    assert code == 0
    bob = next(line for line in out.splitlines() if line.startswith("Bob (blue)"))
    assert bob.split()[-2:] == ["10", "79"]  # the Globetrotter, total
    assert "Winner: Bob" in out
    code, out = run(tmp_path, capsys, {**WORKED, "claims": [
        *WORKED["claims"], {"player": "Ann", "from": "Kristiansand", "to": "Stavanger"}]})
    assert code == 2 and "already" in json.loads(out)["error"]
    code, out = run(tmp_path, capsys, WORKED)
    assert {p["name"]: p["total"] for p in json.loads(out)["players"]} == {
        name: figures[-1] for name, figures in HAND_COUNT.items()}
