"""A tap sent again, its first answer lost on the way (bad Wi-Fi), counts once: the page gives
each tap an id (field ``tap``), the server keeps the ids of the taps it applied with the game's
change, in the same transaction, and answers a repeat with what it said the first time. On
SQLite and PostgreSQL, across a restart, and for two sends of one tap at the same moment."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select, text

from scorer.game import ClaimRoute, Game, Player, SetExpressOrder
from scorer.web import create_app, db, store
from tests.hardening.databases import database
from tests.web.conftest import Client, lane_class, message, players
from tests.web.test_play import ANN_LONDON_ISTANBUL, BOB_LONDON_ISTANBUL
from tests.web.test_tap_answer import page_version, version

TAP = "0123456789abcdef0123456789abcdef"


def score(client: Client, game: str) -> dict:
    return client.get(f"/api/games/{game}/score").get_json()


def test_a_claim_sent_again_with_its_id_is_answered_as_the_first_time_and_applied_once(
    client, europe
):
    v = page_version(client, europe)
    tap = {"player": "Ann", "do": "claim", "v": v, "tap": TAP}
    first = client.hx(f"/games/{europe}/routes/paris--zurich", tap)
    again = client.hx(f"/games/{europe}/routes/paris--zurich", tap)  # the first answer lost
    assert first.status_code == again.status_code == 200
    assert message(again.text) == message(first.text)
    assert message(first.text).startswith("Ann claims Paris–Zürich")
    assert version(again.text) == version(first.text) == str(int(v) + 1)
    # The phone still shows the version before: the repeat brings what changed since.
    assert again.text.count("data-route-id=") == 1 and 'id="board"' not in again.text
    assert "own-red" in lane_class(again.text, "paris--zurich")
    assert score(client, europe)["players"][0]["routes"] == ["paris--zurich"]
    # Without the id the same request is a new tap, judged on the game as it is.
    fresh = client.hx(f"/games/{europe}/routes/paris--zurich", {**tap, "tap": ""})
    assert fresh.status_code == 422
    assert "already claimed by Ann" in message(fresh.text)


@pytest.fixture
def express(client: Client) -> str:
    """An Express game where Ann then Bob joined London and Constantinople."""
    return client.api_game({
        "variant": "express", "players": players("Ann:red", "Bob:blue"),
        "claims": [{"player": "Ann", "route": r} for r in ANN_LONDON_ISTANBUL]
        + [{"player": "Bob", "route": r} for r in BOB_LONDON_ISTANBUL]})


def test_an_express_move_sent_again_moves_once(client, express):
    v = page_version(client, express)
    tap = {"move": "Bob", "dir": "up", "v": v, "tap": TAP}
    first = client.hx(f"/games/{express}/express", tap)
    again = client.hx(f"/games/{express}/express", tap)
    assert first.status_code == again.status_code == 200
    assert message(again.text) == message(first.text)
    assert message(first.text).startswith("Europe Express order: Bob, Ann.")
    assert version(again.text) == str(int(v) + 1)
    assert score(client, express)["express_order"] == ["Bob", "Ann"]


def test_an_undo_sent_again_undoes_one_step_and_says_so_again(client, europe):
    for lane in ("paris--zurich", "berlin--wien"):
        client.hx(f"/games/{europe}/routes/{lane}", {"player": "Ann", "do": "claim"})
    tap = {"cursor": "2", "tap": TAP}
    first = client.hx(f"/games/{europe}/undo", tap)
    again = client.hx(f"/games/{europe}/undo", tap)
    assert first.status_code == again.status_code == 200
    assert message(first.text) == message(again.text) == "Undone: Ann claims Berlin–Wien."
    assert score(client, europe)["players"][0]["routes"] == ["paris--zurich"]


def test_a_ticket_s_second_city_sent_again_gives_one_ticket_and_leaves_no_city_picked(
    client, europe
):
    tap = {"player": "Bob", "mode": "ticket", "first_city": "Paris", "tap": TAP}
    first = client.hx(f"/games/{europe}/cities/Wien", tap)
    again = client.hx(f"/games/{europe}/cities/Wien", tap)
    assert message(first.text) == message(again.text) == "Bob takes the ticket Paris–Wien."
    assert 'id="first-city" value=""' in again.text
    assert len(score(client, europe)["players"][1]["tickets"]) == 1


def test_a_refused_tap_is_not_remembered_and_is_judged_again(client, usa):
    client.hx(f"/games/{usa}/routes/helena--seattle", {"player": "Bob", "do": "claim"})
    tap = {"player": "Ann", "do": "claim", "tap": TAP}
    assert client.hx(f"/games/{usa}/routes/helena--seattle", tap).status_code == 422
    client.hx(f"/games/{usa}/undo")  # Bob's claim taken back meanwhile
    again = client.hx(f"/games/{usa}/routes/helena--seattle", tap)
    assert again.status_code == 200
    assert message(again.text).startswith("Ann claims Helena–Seattle")


def test_a_malformed_tap_id_is_no_id(client, europe):
    tap = {"player": "Ann", "do": "claim", "tap": "short"}
    assert client.hx(f"/games/{europe}/routes/paris--zurich", tap).status_code == 200
    assert client.hx(f"/games/{europe}/routes/paris--zurich", tap).status_code == 422


def test_the_taps_applied_are_known_to_the_app_after_a_restart(app, client, europe):
    tap = {"player": "Ann", "do": "claim", "tap": TAP}
    first = client.hx(f"/games/{europe}/routes/paris--zurich", tap)
    restarted = create_app({key: app.config[key] for key in
                            ("TESTING", "DATABASE", "DATABASE_URL", "SECRET_KEY")})
    again = Client(restarted.test_client()).hx(f"/games/{europe}/routes/paris--zurich", tap)
    assert again.status_code == 200
    assert message(again.text) == message(first.text)
    assert score(client, europe)["players"][0]["routes"] == ["paris--zurich"]


def new_express(conn) -> str:  # type: ignore[no-untyped-def]
    return store.create(conn, Game.new(
        "express", [Player("Ann", "red"), Player("Bob", "blue")], (10, 7, 4, 2)))


def test_two_sends_of_one_tap_at_the_same_moment_apply_it_once(tmp_path):
    path = database(tmp_path, "twice.sqlite3")
    setup = db.connect(path)
    db.migrate(setup)
    game_id = new_express(setup)
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def send() -> None:
        conn = db.connect(path)
        try:
            barrier.wait(timeout=10)
            # Taking the order from the claims is accepted every time: only the id keeps it
            # from being two steps.
            with store.once(conn, game_id, TAP) as tap:
                store.record(conn, game_id, SetExpressOrder(None))
                tap.said = "Order set."
            outcomes.append("applied")
        except store.TapDone as done:
            outcomes.append(f"answered: {done.said}")
        finally:
            conn.close()

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["answered: Order set."] * 3 + ["applied"]
    stored = store.load(setup, game_id)
    assert stored.cursor == len(stored.log) == 1


def test_a_tap_whose_change_fails_leaves_no_id_and_no_cached_change(tmp_path):
    conn = db.connect(database(tmp_path, "fail.sqlite3"))
    db.migrate(conn)
    game_id = new_express(conn)
    with pytest.raises(RuntimeError), store.once(conn, game_id, TAP) as tap:
        store.record(conn, game_id, ClaimRoute("Ann", "paris--zurich"))
        tap.said = "Ann claims Paris–Zürich."
        raise RuntimeError("the answer could not be made")
    assert store.tap_said(conn, game_id, TAP) is None
    stored = store.load(conn, game_id)
    assert stored.version == 0 and stored.game.claims == ()


def test_only_the_last_taps_of_a_game_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "TAPS_KEPT", 3)
    conn = db.connect(database(tmp_path, "kept.sqlite3"))
    db.migrate(conn)
    game_id = new_express(conn)
    for i, lane in enumerate(["paris--zurich", "berlin--wien", "dieppe--london",
                              "lisboa--madrid", "roma--venezia"]):
        with store.once(conn, game_id, f"{i:032d}") as tap:
            store.record(conn, game_id, ClaimRoute("Ann", lane))
            tap.said = lane
    kept = conn.scalars(select(db.taps.c.message).order_by(db.taps.c.version)).all()
    assert kept == ["berlin--wien", "dieppe--london", "lisboa--madrid", "roma--venezia"]
    store.delete(conn, game_id)
    assert conn.scalar(select(func.count()).select_from(db.taps)) == 0


def test_a_database_of_the_version_before_gets_the_taps_table_keeping_its_games(tmp_path):
    conn = db.connect(database(tmp_path, "before-taps.sqlite3"))
    with db.transaction(conn):  # the schema as it was: every table but taps, version 4
        db.metadata.create_all(conn, tables=[t for t in db.metadata.sorted_tables
                                             if t.name != "taps"])
        conn.execute(db.schema_version.insert().values(version=4))
    game_id = new_express(conn)
    store.record(conn, game_id, ClaimRoute("Ann", "paris--zurich"))
    assert db.migrate(conn) == db.SCHEMA_VERSION == 5
    assert store.load(conn, game_id).game.claims[0].route == "paris--zurich"
    with store.once(conn, game_id, TAP) as tap:
        store.record(conn, game_id, ClaimRoute("Bob", "berlin--wien"))
        tap.said = "Bob claims Berlin–Wien."
    assert store.tap_said(conn, game_id, TAP) == "Bob claims Berlin–Wien."
    assert conn.scalar(text("SELECT COUNT(*) FROM schema_version")) == 1
