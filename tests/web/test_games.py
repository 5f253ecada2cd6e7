"""Home page and history, new game, import/export, rename, delete, language switch."""

from __future__ import annotations

import io
import json
import re

from scorer.rules import VARIANTS
from tests.web.conftest import message, players

TITLES = [v.title for v in VARIANTS.values()]


def new_game_form(**fields: str) -> dict[str, str]:
    form = {"variant": "europe", "name_0": "Ann", "color_0": "red", "name_1": "Bob",
            "color_1": "blue", "bonus_0": "20", "bonus_1": "15", "bonus_2": "10", "bonus_3": "5"}
    form.update(fields)
    return form


def test_the_new_game_form_offers_every_variant_five_colours_and_express_cards(client):
    page = client.get("/games/new").text
    assert re.findall(r'name="variant" value="([^"]+)"', page) == list(VARIANTS)
    assert re.findall(r'value="([^"]+)"[^>]*data-express-cards', page) == ["express"]
    for color in ("red", "blue", "green", "yellow", "black"):
        assert f'<option value="{color}"' in page
    assert [m for m in re.findall(r'name="bonus_\d" value="(\d+)"', page)] == [
        "20", "15", "10", "5"]
    assert 'action="/games"' in page and 'method="post"' in page


def test_creating_a_game_opens_its_board(client):
    answer = client.post("/games", new_game_form(game_name="Friday"))
    assert answer.status_code == 303
    page = client.get(answer.headers["Location"]).text
    assert "Friday" in page and 'data-player="Ann"' in page and 'data-player="Bob"' in page
    assert page.count("data-route-id=") == 101


def test_the_new_game_form_refuses_bad_setups_and_keeps_what_was_typed(client):
    cases = [
        (new_game_form(name_1=""), "played by 2 to 5 players, not 1"),
        (new_game_form(color_1="red"), "both play red"),
        (new_game_form(name_1="ann"), "Two players are called"),
        (new_game_form(variant="monopoly"), "Choose USA, Europe, Express, USA 1910, "),
        (new_game_form(variant="monopoly"), f"Choose {', '.join(TITLES[:-1])} or {TITLES[-1]}."),
        (new_game_form(variant="express", bonus_0="x", bonus_1="1", bonus_2="1",
                       bonus_3="1"), "whole numbers"),
        (new_game_form(variant="express", bonus_0="5", bonus_1="15", bonus_2="10",
                       bonus_3="5"), "descending order"),
        (new_game_form(variant="express", name_2="C", color_2="green", name_3="D",
                       color_3="yellow", name_4="E", color_4="black"), "2 to 4 players"),
        (new_game_form(color_1="purple"), "not a train colour"),
        (new_game_form(name_1="x" * 60), "too long"),
    ]
    for form, text in cases:
        answer = client.post("/games", form, follow_redirects=True)
        assert answer.status_code == 422, text
        assert text in answer.text.replace("&#39;", "'"), text
        assert 'value="Ann"' in answer.text
    assert "game-item" not in client.get("/").text


def test_express_stores_the_bonus_card_values(client):
    answer = client.post("/games", new_game_form(
        variant="express", bonus_0="12", bonus_1="9", bonus_2="6", bonus_3="3"))
    game_id = answer.headers["Location"].rsplit("/", 1)[1]
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["express_bonus_values"] == [12, 9, 6, 3]


def test_recent_player_names_are_offered_again(client):
    client.post("/games", new_game_form(name_0="Zoé", name_1="Yann"))
    page = client.get("/games/new").text
    assert '<option value="Zoé">' in page and 'data-fill-name="Yann"' in page


def test_the_history_lists_date_board_players_and_winner(client):
    game = client.api_game({"variant": "usa", "players": players("Ann:red", "Bob:blue"),
                            "claims": [{"player": "Bob", "route": "helena--seattle"}]})
    client.api_game({"variant": "europe", "players": players("Cy:green", "Di:black")})
    page = client.get("/").text
    item = re.search(rf'<li class="game-item" data-game-id="{game}">(.*?)</li>', page, re.S)
    assert item, page
    text = item.group(1)
    assert "USA" in text and "Ann" in text and "Bob" in text and "Winner: Bob" in text
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", text)
    assert "Not started" in page


def test_renaming_a_game(client, europe):
    answer = client.post(f"/games/{europe}/rename", {"name": "  Sunday final  "})
    assert answer.status_code == 303
    assert "Sunday final" in client.get("/").text
    client.post(f"/games/{europe}/rename", {"name": "   "})
    page = client.get(f"/games/{europe}").text
    assert "A game needs a name." in page and "Sunday final" in page


def test_deleting_asks_for_confirmation_first(client, europe):
    confirm = client.get(f"/games/{europe}/delete")
    assert confirm.status_code == 200 and "data-confirm-delete" in confirm.text
    assert client.post(f"/games/{europe}/delete").status_code == 400
    assert client.get(f"/games/{europe}").status_code == 200
    done = client.post(f"/games/{europe}/delete", {"confirm": "yes"})
    assert done.status_code == 303
    assert "deleted" in client.get("/").text
    assert client.get(f"/games/{europe}").status_code == 404
    assert client.raw.get(f"/api/games/{europe}/score").status_code == 404


def test_export_gives_the_game_file_of_the_spec_and_import_reads_it_back(client):
    game_file = {
        "variant": "europe", "players": players("Ann:red", "Bob:blue"),
        "claims": [{"player": "Ann", "route": "paris--zurich"},
                   {"player": "Bob", "from": "Zürich", "to": "München"},
                   {"player": "Ann", "route": "munchen--wien"}],
        "stations": [{"player": "Ann", "city": "Zurich"}],
        "tickets": [{"player": "Ann", "from": "Paris", "to": "Wien"}],
    }
    game = client.api_game(game_file)
    exported = client.get(f"/games/{game}/export.json")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["Content-Disposition"]
    data = exported.get_json()
    assert data["claims"][1] == {"player": "Bob", "route": "munchen--zurich"}
    del data["name"]  # a file without its game's name is named after the file
    upload = {"file": (io.BytesIO(json.dumps(data).encode()), "saturday.json")}
    answer = client.post("/games/import", upload, content_type="multipart/form-data")
    assert answer.status_code == 303
    new_id = answer.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{new_id}/score").get_json() == client.get(
        f"/api/games/{game}/score").get_json()
    assert "saturday" in client.get("/").text
    assert client.hx(f"/games/{new_id}/undo").status_code == 200  # imported as a log


def test_import_of_a_pasted_file_and_its_errors(client):
    ok = client.post("/games/import", {"json": json.dumps(
        {"variant": "usa", "players": players("A:red", "B:blue")})})
    assert ok.status_code == 303
    bad_json = client.post("/games/import", {"json": "{not json"})
    assert bad_json.status_code == 422
    assert "This is not a game file: the body is not valid JSON. Was it copied whole?" in (
        bad_json.text)
    assert 'action="/games/import#import"' in bad_json.text  # the page opens on the error
    empty = client.post("/games/import", {"json": "  "})
    assert empty.status_code == 422 and "Choose a game file or paste one first." in empty.text
    bad_city = client.post("/games/import", {"json": json.dumps({
        "variant": "usa", "players": players("A:red", "B:blue"),
        "tickets": [{"player": "A", "from": "Gotham", "to": "Denver"}]})})
    assert bad_city.status_code == 422 and "Unknown city" in bad_city.text


def test_the_language_follows_the_browser_and_the_switch(client):
    french = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
    assert 'lang="fr"' in french.text and "Nouvelle partie" in french.text
    english = client.get("/", headers={"Accept-Language": "de,en;q=0.5"})
    assert "New game" in english.text
    switch = client.post("/lang", {"lang": "fr", "next": "/games/new"})
    assert switch.status_code == 303 and switch.headers["Location"] == "/games/new"
    assert "lang=fr" in switch.headers["Set-Cookie"]
    page = client.get("/", headers={"Accept-Language": "en"})
    assert "Nouvelle partie" in page.text


def test_the_language_switch_only_redirects_inside_the_site(client):
    answer = client.post("/lang", {"lang": "en", "next": "//evil.example/x"})
    assert answer.headers["Location"] == "/"
    unknown = client.post("/lang", {"lang": "xx", "next": "/"})
    assert "Set-Cookie" not in unknown.headers or "lang=" not in unknown.headers["Set-Cookie"]


def test_game_pages_in_french(client, europe):
    headers = {"Accept-Language": "fr"}
    page = client.get(f"/games/{europe}", headers=headers).text
    assert "Annuler" in page and "Billets" in page and "wagons" in page
    answer = client.raw.post(f"/games/{europe}/routes/paris--zurich",
                             data={"player": "Ann", "do": "claim"},
                             headers={**headers, "HX-Request": "true",
                                      "X-CSRF-Token": client.token})
    assert message(answer.text) == "Ann prend Paris–Zürich : +4 points, il reste 42 wagons."
    refused = client.raw.post(f"/games/{europe}/routes/paris--zurich",
                              data={"player": "Bob", "do": "claim"},
                              headers={**headers, "HX-Request": "true",
                                       "X-CSRF-Token": client.token})
    assert message(refused.text) == "Paris–Zürich est déjà prise par Ann."


def test_renaming_from_the_history_returns_to_the_history(client, europe):
    answer = client.post(f"/games/{europe}/rename", {"name": "Rematch", "back": "history"})
    assert answer.status_code == 303 and answer.headers["Location"] == "/"
    page = client.get("/").text
    assert "Rematch" in page and f'action="/games/{europe}/rename"' in page


def test_an_export_carries_the_game_name_and_import_takes_it_back(client):
    answer = client.post("/games", new_game_form(game_name="Friday at Zoé's"))
    game = answer.headers["Location"].rsplit("/", 1)[1]
    exported = client.get(f"/games/{game}/export.json")
    data = exported.get_json()
    assert data["name"] == "Friday at Zoé's" and list(data)[:2] == ["name", "variant"]
    assert 'filename="Friday-at-Zo-s.json"' in exported.headers["Content-Disposition"]
    upload = {"file": (io.BytesIO(json.dumps(data).encode()), "download.json")}
    imported = client.post("/games/import", upload, content_type="multipart/form-data")
    new_id = imported.headers["Location"].rsplit("/", 1)[1]
    assert "<h1 title=\"Friday at Zoé&#39;s\">" in client.get(f"/games/{new_id}").text


def test_a_refused_new_game_form_comes_back_by_a_redirect_so_a_reload_posts_nothing(client):
    refused = client.post("/games", new_game_form(color_1="red"))
    assert refused.status_code == 303 and refused.headers["Location"] == "/games/new"
    shown = client.get("/games/new")
    assert shown.status_code == 422
    assert "both play red" in shown.text.replace("&#39;", "'") and 'value="Ann"' in shown.text
    reloaded = client.get("/games/new")  # a reload: the empty form, and nothing posted
    assert reloaded.status_code == 200 and "both play red" not in reloaded.text
    assert "game-item" not in client.get("/").text
