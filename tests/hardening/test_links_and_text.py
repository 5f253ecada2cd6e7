"""Links, hosts, cookies and text (issue 16), over HTTP on waitress: redirects lead only to this
site's paths; control characters are refused in every text field (on PostgreSQL too, where a
NUL gave a 500); links and the API's origin rule follow a configured public address, not the
Host header; cookies are Secure over TLS; a game holds no more than a table could; errors name
the item they are about."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlencode

import pytest

from scorer.web import create_app, store
from scorer.web.db import get_db
from tests.hardening.databases import app_config
from tests.hardening.live import LOOPBACK, Phone, players, thread_server

GAME = {"variant": "europe", "players": players("Ann", "Bob")}


def lang(phone: Phone, target: str):  # type: ignore[no-untyped-def]
    body = urlencode({"lang": "fr", "next": target, "csrf_token": phone.token}).encode()
    return phone.request("POST", "/lang", body,
                         {"Content-Type": "application/x-www-form-urlencoded"})


@pytest.mark.parametrize("target", [
    "/\t/evil.example", "/\n/evil.example", "/\\evil.example", "//evil.example",
    "/\r\nSet-Cookie: x=1", "https://evil.example/", " /evil", "/ok\x00", "\\/evil.example",
])
def test_the_language_switch_redirects_to_this_sites_paths_only(phones, target):
    phone = phones()
    answer = lang(phone, target)
    if "\x00" in target:  # refused whole, as any form field holding a NUL
        assert answer.status == 400 and "NUL character" in answer.text
        return
    assert answer.status == 303
    assert answer.headers["location"] in ("/", f"http://127.0.0.1:{phone.port}/")


def test_the_language_switch_still_goes_back_to_the_page(phones):
    phone = phones()
    game = phone.new_game(GAME)
    assert lang(phone, f"/games/{game}?mode=routes").headers["location"].endswith(
        f"/games/{game}?mode=routes")


CONTROLS = ["Ann\x00", "A\nB", "An\rn", "Ann\x1b[31m", "Ann\x7f", "An\tn", "An\x85n"]


@pytest.mark.parametrize("name", CONTROLS)
def test_control_characters_are_refused_in_player_names(phones, name):
    phone = phones()
    api = phone.post_json("/api/games", {"variant": "usa", "players": [
        {"name": name, "color": "red"}, {"name": "Bob", "color": "blue"}]})
    assert api.status in (400, 422) and "error" in json.loads(api.body)
    form = refused_form(phone, {"variant": "usa", "name_0": name, "color_0": "red",
                                "name_1": "Bob", "color_1": "blue"})
    assert ("NUL character" if "\x00" in name else "control character") in form.text


def refused_form(phone, fields):  # type: ignore[no-untyped-def]
    """A new-game form that must be refused: a 4xx, or the redirect back to the form (so a
    reload does not post it again) whose page says why; no game is made either way."""
    form = phone.post("/games", fields, hx=False)
    if form.status == 303:
        assert form.headers["location"].endswith("/games/new")
        form = phone.get("/games/new")
        assert form.status in (200, 422)
    else:
        assert form.status in (400, 422)
    return form


@pytest.mark.parametrize("name", CONTROLS)
def test_control_characters_are_refused_in_game_names_and_change_nothing(phones, name):
    phone = phones()
    game = phone.new_game({**GAME, "name": "Kept"})
    api = phone.post_json("/api/games", {**GAME, "name": name})
    assert api.status in (400, 422) and "error" in json.loads(api.body)
    form = refused_form(phone, {"variant": "usa", "game_name": name, "name_0": "A",
                                "color_0": "red", "name_1": "B", "color_1": "blue"})
    assert "character" in form.text
    imported = phone.post("/games/import", {"json": json.dumps(GAME), "game_name": name},
                          hx=False)
    assert imported.status in (400, 422)
    renamed = phone.post(f"/games/{game}/rename", {"name": name}, hx=False)
    assert renamed.status in (303, 400)
    history = phone.get("/").text
    assert "Kept" in history and history.count('data-game-id="') == 1
    for path in ("/", f"/games/{game}", f"/games/{game}/results", f"/api/games/{game}/score"):
        assert phone.get(path).status == 200


def test_a_nul_in_a_query_or_an_id_is_refused_not_a_500(phones):
    phone = phones()
    game = phone.new_game(GAME)
    for path in (f"/games/{game}?q=%00", f"/games/{game}%00", "/watch/x%00y",
                 f"/api/games/{game}%00/score", f"/games/{game}/tickets?q=a%00"):
        assert phone.get(path).status in (400, 404), path


def public_app(tmp_path, **config):  # type: ignore[no-untyped-def]
    return create_app({**app_config(tmp_path), "SECRET_KEY": "t",
                       "PUBLIC_URL": "https://scores.example.org", **config})


def test_share_links_and_the_origin_rule_follow_the_public_address_not_the_host(tmp_path):
    with thread_server(public_app(tmp_path), threads=4) as port:
        phone = Phone(port).open()
        try:
            game = phone.new_game(GAME)
            forged = {"Host": "evil.example"}
            share = phone.request("GET", f"/games/{game}/share", headers=forged).text
            api = phone.request("POST", "/api/games", json.dumps(GAME).encode(), {
                **forged, "Origin": "http://evil.example", "Content-Type": "application/json"})
            own = phone.request("POST", "/api/games", json.dumps(GAME).encode(), {
                **forged, "Origin": "https://scores.example.org",
                "Content-Type": "application/json"})
        finally:
            phone.close()
    assert "https://scores.example.org/watch/" in share and "evil.example" not in share
    assert api.status == 403
    assert own.status == 201


def test_trusted_hosts_refuse_another_host(tmp_path):
    app = public_app(tmp_path, TRUSTED_HOSTS=["scores.example.org", "127.0.0.1"])
    with thread_server(app, threads=4) as port:
        phone = Phone(port).open()
        try:
            refused = phone.request("GET", "/", headers={"Host": "evil.example"})
        finally:
            phone.close()
    assert refused.status == 400


def set_cookies(port: int, headers: dict[str, str]) -> dict[str, str]:
    """The cookies a first visit of the home page sets, by name, with their attributes."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/", headers=headers)
        response = conn.getresponse()
        response.read()
        return {value.split("=", 1)[0]: value.lower()
                for value in response.headers.get_all("Set-Cookie") or []}
    finally:
        conn.close()


def test_cookies_are_secure_over_tls_only(tmp_path):
    app = create_app({**app_config(tmp_path), "SECRET_KEY": "t"})
    # waitress as the README tells to run it behind a proxy that ends TLS
    with thread_server(app, threads=4, trusted_proxy=LOOPBACK,
                       trusted_proxy_headers={"x-forwarded-proto"}) as port:
        plain = set_cookies(port, {})
        tls = set_cookies(port, {"X-Forwarded-Proto": "https"})
    assert set(plain) == set(tls) == {"session", "device"}
    assert not any("secure" in value for value in plain.values())
    assert all("; secure" in value for value in tls.values())


def test_errors_name_the_ticket_they_are_about(phones):
    phone = phones()
    answer = phone.post_json("/api/games", {**GAME, "tickets": [
        {"player": "Ann", "from": "Wien", "to": "Berlin", "points": -4}]})
    assert answer.status == 422
    assert json.loads(answer.body)["error"] == (
        "Ann's ticket Wien–Berlin is worth at least 1 point, not -4.")


def test_a_game_holds_no_more_tickets_than_a_table_could(phones, app):
    phone = phones()
    cities = ["Paris", "Wien", "Berlin", "Roma", "Madrid", "London", "Amsterdam", "Zürich",
              "München", "Venezia", "Athina", "Sofia"]
    tickets = [{"player": "Ann", "from": a, "to": b, "points": 5}
               for i, a in enumerate(cities) for b in cities[i + 1:]]
    assert len(tickets) > 60
    answer = phone.post_json("/api/games", {**GAME, "tickets": tickets})
    assert answer.status == 422
    assert "Ann already holds 60 tickets" in json.loads(answer.body)["error"]
    game = phone.new_game({**GAME, "tickets": tickets[:60]})
    form = phone.post(f"/games/{game}/tickets", {"player": "Ann", "a": "Sofia", "b": "Kyiv",
                                                 "points": "3"})
    assert form.status == 422 and "60 tickets" in form.text
    with app.app_context():
        assert len(store.load(get_db(), game).game.tickets) == 60


def test_a_game_log_holds_no_more_steps_than_a_table_could(phones, monkeypatch):
    monkeypatch.setattr(store, "MAX_ACTIONS", 4)
    phone = phones()
    game = phone.new_game(GAME)
    lanes = ["paris--zurich", "berlin--wien", "madrid--pamplona", "edinburgh--london",
             "roma--venezia"]
    answers = [phone.post(f"/games/{game}/routes/{lane}", {"player": "Ann", "do": "claim"})
               for lane in lanes]
    assert [a.status for a in answers] == [200] * 4 + [422]
    assert "export it and import the file" in answers[-1].text
    exported = phone.get(f"/games/{game}/export.json")
    imported = phone.post("/games/import", {"json": exported.text}, hx=False)
    assert imported.status == 303  # the file comes back as a game: nothing is lost


@pytest.mark.parametrize(("part", "message"), [
    ({"players": [{"name": "", "color": "red"}, {"name": "Bob", "color": "blue"}]},
     "Player 1: field 'name' must be a non-empty text."),
    ({"claims": [{"player": "Ann", "route": "paris--zurich"}, {"player": "Bob"}]},
     "Claim 2 (Bob): field 'from' must be a non-empty text."),
    ({"stations": [{"player": "Ann"}]}, "Station 1 (Ann): field 'city' must be a non-empty text."),
    ({"tickets": [{"player": "Ann", "from": "Paris", "to": "Wien", "points": "x"}]},
     "Ticket 1 (Ann, Paris, Wien): ticket points must be a whole number, not 'x'."),
])
def test_game_file_errors_name_the_item_they_are_about(phones, part, message):
    answer = phones().post_json("/api/games", {**GAME, **part})
    assert answer.status == 422 and json.loads(answer.body)["error"] == message
