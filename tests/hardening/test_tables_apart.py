"""Each table sees only its own games (issue 16), over HTTP on waitress: the history lists the
games a device made or opened by their link; the read-only link never leads to the edit link;
a home server keeps listing the games it had; a client cannot make games without limit."""

from __future__ import annotations

import json
import re

from sqlalchemy import update

from scorer.game import Game, Player
from scorer.web import create_app, store
from scorer.web.db import games, get_db, transaction
from tests.hardening.databases import app_config
from tests.hardening.live import Phone, players, thread_server

GAME = {"variant": "europe", "players": players("Annabelle", "Bartholomew"),
        "name": "Table seven"}


def test_a_device_lists_its_own_games_and_no_other_tables(phones):
    ann, stranger = phones(), phones()
    game = ann.new_game(GAME)
    share = re.search(r"/watch/([\w-]+)", ann.get(f"/games/{game}/share").text).group(1)
    mine, theirs = ann.get("/").text, stranger.get("/").text
    assert game in mine and "Table seven" in mine
    for secret in (game, share, "Table seven", "Annabelle", "Bartholomew"):
        assert secret not in theirs
    assert "Annabelle" not in stranger.get("/games/new").text  # nor its players' names
    assert "Annabelle" in ann.get("/games/new").text


def test_the_read_only_link_never_leads_to_the_edit_link(phones):
    ann, watcher = phones(), phones()
    game = ann.new_game(GAME)
    share = re.search(r"/watch/([\w-]+)", ann.get(f"/games/{game}/share").text).group(1)
    page = watcher.get(f"/watch/{share}")
    assert page.status == 200 and game not in page.text
    history = watcher.get("/").text
    assert f"/watch/{share}" in history and "Table seven" in history  # listed, read-only
    assert game not in history
    for path in ("/games/new", "/", f"/watch/{share}/live"):
        assert game not in watcher.get(path).text


def test_a_device_that_opens_the_edit_link_lists_the_game(phones):
    ann, bob = phones(), phones()
    game = ann.new_game(GAME)
    assert game not in bob.get("/").text
    assert bob.get(f"/games/{game}").status == 200  # a kept link opens its game
    assert f"/games/{game}" in bob.get("/").text
    # and keeps the edit link when it opens the read-only one afterwards
    share = re.search(r"/watch/([\w-]+)", bob.get(f"/games/{game}/share").text).group(1)
    bob.get(f"/watch/{share}")
    assert f"/games/{game}" in bob.get("/").text


def _game_from_before(app) -> str:  # type: ignore[no-untyped-def]
    with app.app_context():
        db = get_db()
        game_id = store.create(db, Game.new("usa", [Player("Zed", "red"),
                                                    Player("Yan", "blue")]), "From before")
        with transaction(db):
            db.execute(update(games).where(games.c.id == game_id).values(before_devices=1))
    return game_id


def test_games_from_before_stay_listed_at_home_and_by_link_when_hosting(tmp_path):
    home = create_app({**app_config(tmp_path, "home.sqlite3"), "SECRET_KEY": "t"})
    hosted = create_app({**app_config(tmp_path, "hosted.sqlite3"), "SECRET_KEY": "t",
                         "OLD_GAMES": "by-link"})
    for app, listed in ((home, True), (hosted, False)):
        old = _game_from_before(app)
        with thread_server(app, threads=4) as port:
            phone = Phone(port).open()
            try:
                assert (old in phone.get("/").text) is listed
                assert phone.get(f"/games/{old}").status == 200
                assert old in phone.get("/").text
            finally:
                phone.close()


def test_a_client_cannot_make_games_without_limit(tmp_path):
    app = create_app({**app_config(tmp_path), "SECRET_KEY": "t", "GAMES_PER_HOUR": 3})
    with thread_server(app, threads=4) as port:
        phone = Phone(port).open()
        try:
            made = [phone.post_json("/api/games", GAME) for _ in range(3)]
            refused = phone.post_json("/api/games", GAME)
            form = phone.post("/games", {"variant": "usa", "name_0": "A", "color_0": "red",
                                         "name_1": "B", "color_1": "blue"}, hx=False)
        finally:
            phone.close()
    assert [a.status for a in made] == [201] * 3
    assert refused.status == 429 and "Too many new games" in json.loads(refused.body)["error"]
    assert form.status == 429 and "Too many new games" in form.text
    with app.app_context():
        assert len(store.history(get_db())) == 3
