"""Hostile game files: whatever the JSON, the core answers with a ScorerError, never a crash."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.__main__ import main
from scorer.errors import ScorerError
from scorer.game import Game
from scorer.scoring import score

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                 max_size=4),
    max_leaves=20,
)

CITIES = ["Paris", "Wien", "zurich", "München", "Gotham", "", "Berlin", "Roma", "Istanbul",
          "Kristiansand", "stavanger", "Lieksa", "Murmansk", "Copenhagen", "Oslo"]
ROUTES = ["paris--zurich", "munchen--wien", "munchen--zurich", "budapest--wien",
          "budapest--wien--2", "nope--nope", "kristiansand--stavanger",
          "kristiansand--stavanger--2", "lieksa--murmansk"]
# Lone surrogates too: JSON can carry them ("\ud800") though they are not text.
names = st.sampled_from(["Ann", "Bob", "ann", "Zed", "", "Cat"]) | st.text(
    st.characters(exclude_categories=()), max_size=50)

claim = st.one_of(
    st.fixed_dictionaries({"player": names, "route": st.sampled_from(ROUTES) | json_values}),
    st.fixed_dictionaries({"player": names, "from": st.sampled_from(CITIES),
                           "to": st.sampled_from(CITIES)},
                          optional={"color": st.sampled_from(["red", "gray", "x", 3])}),
    json_values,
)
ticket = st.fixed_dictionaries(
    {"player": names, "from": st.sampled_from(CITIES), "to": st.sampled_from(CITIES)},
    optional={"points": st.integers(-5, 200) | json_values},
)
game_files = st.fixed_dictionaries(
    {
        "variant": st.sampled_from(["usa", "europe", "express", "EUROPE", "mars",
                                    "europe-1912-mega", "usa-1910", "nordic"]) | json_values,
        "players": st.lists(
            st.fixed_dictionaries({"name": names,
                                   "color": st.sampled_from(["red", "blue", "green", "pink"])})
            | json_values, max_size=6),
    },
    optional={
        "claims": st.lists(claim, max_size=8) | json_values,
        "stations": st.lists(st.fixed_dictionaries({"player": names,
                                                    "city": st.sampled_from(CITIES)}),
                             max_size=4) | json_values,
        "tickets": st.lists(ticket, max_size=4) | json_values,
        "express_bonus_values": st.lists(st.integers(-5, 120), max_size=5) | json_values,
        "express_order": st.lists(names, max_size=5) | json_values,
        "longest_path_bonus": st.booleans() | json_values,
    },
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(game_files, json_values))
def test_any_game_file_scores_or_raises_a_scorer_error(data):
    try:
        game = Game.from_json(data)
    except ScorerError as exc:
        assert str(exc)
        return
    sheet = score(game).to_json()
    json.dumps(sheet)
    assert Game.from_json(game.to_json()).to_json() == game.to_json()


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.one_of(game_files, st.binary(max_size=64).map(lambda b: b.decode("latin-1"))))
def test_the_cli_answers_any_file_with_a_score_or_exit_2(tmp_path, capsys, data):
    path = tmp_path / "fuzz.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    code = main(["score", str(path)])
    out = json.loads(capsys.readouterr().out)
    assert (code, "winners" in out) in ((0, True), (2, False))
    if code == 2:
        assert out["error"]
