"""French and English: the core's errors and tie-breaks are rendered in French from their
values (names as typed), plurals follow each language. The catalogue itself is checked in
test_catalogue.py."""

from __future__ import annotations

import html
import re

import pytest

from scorer import Game, score
from scorer.errors import ScorerError
from scorer.game import AddTicket, ClaimRoute, PlaceStation, Player, RemoveStation
from scorer.web import i18n
from tests.web.conftest import message


def refusal(game: Game, action) -> ScorerError:  # type: ignore[no-untyped-def]
    with pytest.raises(ScorerError) as caught:
        game.apply(action)
    return caught.value


def two_player(variant: str, *names: str) -> Game:
    names = names or ("Ann", "Bob")
    return Game.new(variant, [Player(names[0], "red"), Player(names[1], "blue")])


def claimed(variant: str, route: str) -> Game:
    game = two_player(variant)
    game.apply(ClaimRoute("Ann", route))
    return game


@pytest.mark.parametrize(("make", "english", "french"), [
    (lambda: refusal(claimed("europe", "paris--zurich"), ClaimRoute("Bob", "paris--zurich")),
     "Paris–Zürich is already claimed by Ann.",
     "Paris–Zürich est déjà prise par Ann."),
    (lambda: _taken_lane(),
     "Frankfurt–Paris (white) is already claimed by Ann.",
     "Frankfurt–Paris (blanc) est déjà prise par Ann."),
    (lambda: _out_of_trains(),
     "Ann has 3 trains left and cannot claim Atlanta–Miami (length 5).",
     "Il reste 3 wagons à Ann : pas assez pour Atlanta–Miami (longueur 5)."),
    (lambda: refusal(two_player("europe"), PlaceStation("Ann", "Pariss")),
     "Unknown city 'Pariss' on the Europe board. Did you mean Paris?",
     "Ville inconnue « Pariss » sur le plateau Europe. Vouliez-vous dire Paris ?"),
    (lambda: _caught(lambda: Game.new("usa", [Player("Ann", "red"), Player("Bob", "red")])),
     "Ann and Bob both play red: each colour once.",
     "Ann et Bob jouent tous deux rouge : chaque couleur une seule fois."),
    (lambda: refusal(two_player("europe"), RemoveStation("Paris")),
     "There is no station in Paris.", "Il n'y a pas de gare à Paris."),
], ids=["claimed", "claimed-lane-colour", "trains-left", "unknown-city", "same-colour",
        "no-station"])
def test_core_errors_are_rendered_in_french_from_their_values(app, make, english, french):
    error = make()
    assert str(error) == english
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert i18n.translate(error.message) == french
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert i18n.translate(error.message) == english


def _caught(build) -> ScorerError:  # type: ignore[no-untyped-def]
    with pytest.raises(ScorerError) as caught:
        build()
    return caught.value


def _taken_lane() -> ScorerError:
    game = Game.new("europe", [Player(n, c) for n, c in
                               (("Ann", "red"), ("Bob", "blue"), ("Cy", "green"))])
    lane = next(r for r in game.board.routes.values()
                if {r.a, r.b} == {"Frankfurt", "Paris"} and r.color == "white")
    game.apply(ClaimRoute("Ann", lane.id))
    return refusal(game, ClaimRoute("Bob", lane.id))


def _out_of_trains() -> ScorerError:
    """Ann with 3 trains left, trying a route of 5."""
    game = two_player("usa")
    for route in sorted(game.board.routes.values(), key=lambda r: -r.length):
        left = game.trains_left("Ann")
        if left == 3:
            break
        if route.length <= left - 3 and "miami" not in route.id and not any(
                game.owner(s.id) for s in game.board.siblings(route)):
            game.apply(ClaimRoute("Ann", route.id))
    return refusal(game, ClaimRoute("Ann", "atlanta--miami"))


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["0 trains", "1 train", "2 trains"]),
    ("fr", ["0 wagon", "1 wagon", "2 wagons"]),  # French: 0 and 1 take the singular
])
def test_plurals_follow_the_rule_of_each_language(app, lang, expected):
    with app.test_request_context(headers={"Accept-Language": lang}):
        assert [i18n.plural(n, "{count} train", "{count} trains") for n in (0, 1, 2)] == expected


def test_one_of_anything_is_singular_on_the_pages(client, usa):
    answer = client.hx(f"/games/{usa}/routes/atlanta--nashville", {"player": "Ann"})
    assert message(answer.text) == "Ann claims Atlanta–Nashville: +1 point, 44 trains left."
    bar = re.search(r'data-player="Ann".*?</button>', answer.text, re.S).group(0)
    assert re.search(r"<b data-route-points>1</b> pt<", bar), bar
    route = client.get(f"/games/{usa}/routes/dallas--houston").text
    assert "1 space, 1 point" in route and "1 spaces" not in route
    double = client.hx(f"/games/{usa}/routes/dallas--houston--2", {"player": "Bob"})
    assert message(double.text).startswith("Bob claims Dallas–Houston (gray): +1 point")
    french = client.get(f"/games/{usa}/routes/dallas--houston",
                        headers={"Accept-Language": "fr"}).text
    assert "1 case, 1 point" in french


def tie_of(variant: str, first: str, second: str) -> Game:
    """Two players level on points and tickets: the tie-break names both."""
    game = two_player(variant, first, second)
    game.apply(ClaimRoute(first, "berlin--essen"))
    game.apply(ClaimRoute(second, "brindisi--roma"))
    return game


def test_the_tiebreak_is_rendered_in_french_step_by_step(app):
    game = Game.new("europe", [Player("Ann", "red"), Player("Bob", "blue")])
    game.apply(ClaimRoute("Ann", "berlin--essen"))
    game.apply(ClaimRoute("Bob", "kyiv--smolensk"))
    game.apply(PlaceStation("Ann", "Paris"))
    game.apply(PlaceStation("Bob", "Roma"))
    game.apply(PlaceStation("Bob", "Madrid"))
    ann, bob = score(game).players
    game.apply(AddTicket("Bob", "Kyiv", "Smolensk", 1))
    game.apply(AddTicket("Ann", "Berlin", "Essen", bob.total + 1 - ann.total))
    sheet = score(game)
    total = sheet.players[0].total
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert i18n.translate(sheet.tiebreak_message) == (
            f"Ann et Bob sont à égalité avec {total} points ; tous les deux ont réalisé 1 billet "
            "; Ann a posé le moins de gares (Ann 1, Bob 2) : Ann gagne.")
        assert i18n.translate(score(tie_of("europe", "Ann", "Bob")).tiebreak_message) == (
            "Ann et Bob sont à égalité avec 24 points ; tous les deux ont réalisé 0 billet ; "
            "tous les deux ont posé 0 gare ; tous les deux ont le bonus European Express : ils "
            "se partagent la victoire.")
        assert i18n.translate(None) is None


def test_a_player_named_with_and_keeps_the_name_in_the_french_tiebreak(client):
    game = tie_of("express", "Tom and Jerry", "Ann")
    game_id = client.api_game(game.to_json())
    page = client.get(f"/games/{game_id}/results", headers={"Accept-Language": "fr"}).text
    tiebreak = html.unescape(re.search(r"<p class=\"tiebreak\" data-tiebreak>([^<]*)</p>",
                                       page).group(1))
    assert tiebreak == ("Tom and Jerry et Ann sont à égalité avec 2 points ; tous les deux ont "
                        "réalisé 0 billet : ils se partagent la victoire.")
    english = client.get(f"/games/{game_id}/results", headers={"Accept-Language": "en"}).text
    assert score(game).tiebreak in html.unescape(english)
