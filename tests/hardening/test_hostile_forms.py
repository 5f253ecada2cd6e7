"""Hostile form posts and query strings: random and huge field values on every form, HTML in
names shown as text, unknown routes and cities, posts without a valid CSRF token, posts under a
read-only share link. Never a 500, and a refused post changes nothing.

Each test runs on the app (Flask's test client) and over HTTP through nginx in front of
``make serve-behind-proxy`` (the shipped configuration, tests/hardening/proxy.py): never a 5xx
either way, the same answers but where nginx refuses a request first (a NUL in the path)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.web import create_app
from tests.hardening.databases import app_config, database
from tests.hardening.live import HttpClient
from tests.hardening.proxy import behind_nginx, needs_nginx

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
NAMES = [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"},
         {"name": "Cleo", "color": "green"}]


class Browser:
    """A client (the app's test client, or HTTP through nginx) with its session's CSRF token;
    posts as a plain form or as htmx."""

    def __init__(self, raw, proxied: bool = False) -> None:  # type: ignore[no-untyped-def]
        self.raw = raw
        self.proxied = proxied
        self.token = TOKEN.search(self.raw.get("/").text).group(1)

    def get(self, url: str, **kwargs: Any):  # type: ignore[no-untyped-def]
        return self.raw.get(url, **kwargs)

    def post(self, url: str, data: dict | None = None, *, hx: bool = False,
             token: str | None = "session"):  # type: ignore[no-untyped-def]
        token = self.token if token == "session" else token
        data, headers = dict(data or {}), {}
        if hx:
            headers["HX-Request"] = "true"
            if token is not None:
                headers["X-CSRF-Token"] = token
        elif token is not None:
            data["csrf_token"] = token
        return self.raw.post(url, data=data, headers=headers)

    def game(self, variant: str = "europe", players: list | None = None) -> str:
        answer = self.raw.post("/api/games", json={"variant": variant,
                                                   "players": players or NAMES})
        assert answer.status_code == 201
        return answer.get_json()["id"]

    def state(self, game_id: str) -> tuple[int, bytes]:
        """What a refused post must leave alone: the game file and the board version."""
        page = self.get(f"/games/{game_id}").text
        version = int(re.search(r'data-version="(\d+)"', page).group(1))
        return version, self.get(f"/games/{game_id}/export.json").data


@pytest.fixture(scope="module", params=["app", pytest.param("nginx", marks=needs_nginx)])
def new_browser(request, tmp_path_factory):  # type: ignore[no-untyped-def]
    """Makes browsers, each a session of its own, on one app: Flask's test client, or HTTP
    through nginx."""
    folder = tmp_path_factory.mktemp("forms")
    if request.param == "app":
        app = create_app({**app_config(folder), "SECRET_KEY": "hostile-forms"})
        yield lambda: Browser(app.test_client())
        return
    made: list[HttpClient] = []

    def make(port: int) -> Browser:
        made.append(HttpClient(port))
        return Browser(made[-1], proxied=True)

    with behind_nginx(folder, database(folder)) as proxied:
        yield lambda: make(proxied.port)
        for client in made:
            client.close()
    assert proxied.server.errors() == []


@pytest.fixture(scope="module")
def browser(new_browser) -> Browser:  # type: ignore[no-untyped-def]
    return new_browser()


# --- random field values on every form --------------------------------------------------

SPECIAL = ["", " ", "Ann", "Bob", "Cleo", "ann", "Paris", "Wien", "zurich", "Zürich",
           "paris--zurich", "munchen--wien", "claim", "unclaim", "station", "unstation", "pick",
           "routes", "stations", "ticket", "up", "down", "yes", "usa", "europe", "express",
           "red", "blue", "fr", "en", "-1", "0", "5", "99999999999999999999999999", "1e5",
           "NaN", "١٢", "<script>alert(1)</script>", '"><b>x</b>', "\x00", "\u202e", "%00",
           "../../etc/passwd", "//evil.example", "/\\evil.example", "null", "{}", "[]"]
short_values = st.sampled_from(SPECIAL) | st.text(max_size=60)
# Huge values: 60 000 of them (360 kB encoded) fit a form body, not a URL (waitress caps the
# request line at 256 kB, and the test client spends seconds quoting it).
values = short_values | st.sampled_from([100, 5_000, 60_000]).map(lambda n: "é<" * n)
query_values = short_values | st.sampled_from([100, 2_000]).map(lambda n: "é<" * n)

FORMS = {
    "/games": ["variant", "game_name", *(f"{k}_{i}" for i in range(5) for k in ("name", "color")),
               *(f"bonus_{i}" for i in range(4))],
    "/games/import": ["json", "game_name"],
    "/lang": ["lang", "next"],
    "/games/{game}/rename": ["name"],
    "/games/{game}/player": ["player", "mode", "first_city"],
    "/games/{game}/routes/{route}": ["player", "do", "mode", "first_city"],
    "/games/{game}/cities/{city}": ["player", "do", "mode", "first_city"],
    "/games/{game}/tickets": ["player", "a", "b", "points", "mode", "first_city"],
    "/games/{game}/tickets/remove": ["player", "a", "b"],
    "/games/{game}/express": ["reset", "move", "dir"],
    "/games/{game}/undo": ["cursor"],
    "/games/{game}/redo": ["cursor"],
    "/games/{game}/patterns": ["patterns"],
    "/games/{game}/scan/{scan}/lanes/{route}": ["owner"],
    "/games/{game}/scan/{scan}/apply": [],
    "/games/{game}/scan/{scan}/accept": [],
    "/games/{game}/scan/{scan}/stations": ["city", "owner"],
    "/games/{game}/scan/{scan}/corners": [f"c{i}" for i in range(8)],
}
PAGES = {
    "/games/{game}": ["player", "a", "b"],
    "/games/{game}/live": ["v", "player", "mode", "first_city"],
    "/games/{game}/tickets/search": ["q", "player"],
    "/games/{game}/routes/{route}": [],
    "/games/{game}/cities/{city}": [],
    "/games/{game}/results": ["player", "highlight", "path"],
    "/games/{game}/scan/{scan}": ["lane"],
}
segments = st.sampled_from(["paris--zurich", "budapest--wien--2", "Wien", "Zürich", "nope",
                            "scan123"]) | st.text(min_size=1, max_size=40)


@st.composite
def requests(draw: st.DrawFn, table: dict[str, list[str]],
             values: st.SearchStrategy[str] = values) -> tuple[str, dict[str, str]]:
    template = draw(st.sampled_from(sorted(table)))
    path = template.replace("{game}", "GAME")
    for name in ("route", "city", "scan"):
        path = path.replace("{" + name + "}", quote(draw(segments), safe=""))
    known = table[template]
    fields = {name: draw(values) for name in known if draw(st.booleans())}
    fields.update(draw(st.dictionaries(st.text(max_size=10), values, max_size=2)))
    return path, fields


FUZZ = settings(max_examples=80, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
_games: dict[str, str] = {}


def some_game(browser: Browser, variant: str) -> str:
    """One game per variant for the whole module, made again if a fuzzed post deleted it."""
    game = _games.get(variant)
    if game is None or browser.get(f"/api/games/{game}").status_code == 404:
        game = _games[variant] = browser.game(variant)
    return game


@FUZZ
@given(requests(FORMS), st.booleans(), st.sampled_from(["europe", "express"]))
def test_any_values_in_any_form_never_crash_and_the_game_still_renders(browser, request_,
                                                                       hx, variant):
    game = some_game(browser, variant)
    path, fields = request_
    answer = browser.post(path.replace("GAME", game), fields, hx=hx)
    assert answer.status_code < 500, (path, fields, answer.text[:300])
    assert browser.get(f"/games/{game}").status_code == 200
    assert browser.get("/").status_code == 200


@settings(FUZZ, max_examples=40)
@given(requests(PAGES, query_values), st.booleans())
def test_any_query_string_on_any_page_never_crashes(browser, request_, hx):
    game = some_game(browser, "europe")
    path, fields = request_
    headers = {"HX-Request": "true"} if hx else {}
    answer = browser.get(f"{path.replace('GAME', game)}?{urlencode(fields)}", headers=headers)
    assert answer.status_code < 500, (path, fields, answer.text[:300])


def test_unknown_route_and_city_taps_are_refused_with_a_message_and_change_nothing(browser):
    game = browser.game()
    before = browser.state(game)
    for path in ("routes/nope--nowhere", "routes/paris--zurich--9", "cities/Gotham",
                 "routes/" + "x" * 5000, "cities/%00"):
        answer = browser.post(f"/games/{game}/{path}", {"player": "Ann", "do": "claim"}, hx=True)
        shown = browser.get(f"/games/{game}/{path}").status_code
        if browser.proxied and "%00" in path:  # nginx refuses a NUL in a path itself
            assert answer.status_code == shown == 400
            continue
        assert answer.status_code == 422, path
        assert 'class="msg' in answer.text
        assert shown == 404
    assert browser.state(game) == before


# --- HTML in names ------------------------------------------------------------------------

PLAYER_HTML = "<img src=x onerror=alert(1)>"
OTHER_HTML = '"><svg onload=alert(2)>'
GAME_HTML = "<script>alert('game')</script>"


def test_html_in_player_and_game_names_is_shown_as_text_on_every_page(browser):
    created = browser.post("/games", {
        "variant": "europe", "game_name": GAME_HTML, "name_0": PLAYER_HTML, "color_0": "red",
        "name_1": OTHER_HTML, "color_1": "blue"})
    assert created.status_code == 303
    game = created.headers["Location"].rsplit("/", 1)[1]
    share = re.search(r"/watch/([\w-]+)", browser.get(f"/games/{game}/share").text).group(1)
    claim = browser.post(f"/games/{game}/routes/paris--zurich",
                         {"player": PLAYER_HTML, "do": "claim"}, hx=True)
    ticket = browser.post(f"/games/{game}/tickets",
                          {"player": OTHER_HTML, "a": "Paris", "b": "Wien"}, hx=True)
    assert claim.status_code == ticket.status_code == 200
    refused = browser.post(f"/games/{game}/routes/paris--zurich",
                           {"player": OTHER_HTML, "do": "unclaim"}, hx=True)
    assert refused.status_code == 422
    pages = [claim, ticket, refused] + [browser.get(url) for url in (
        "/", f"/games/{game}", f"/games/{game}/results", f"/games/{game}/share",
        f"/games/{game}/routes/paris--zurich", f"/games/{game}/cities/Paris",
        f"/games/{game}/tickets/search?q=par", f"/games/{game}/delete", f"/watch/{share}",
        f"/watch/{share}/results")]
    for page in pages:
        assert page.status_code in (200, 422)
        for raw in (PLAYER_HTML, OTHER_HTML, GAME_HTML, "<svg onload", "<img src=x"):
            assert raw not in page.text, (page.request.path, raw)
    game_page = browser.get(f"/games/{game}").text
    assert "&lt;img src=x onerror=alert(1)&gt;" in game_page
    assert "&#34;&gt;&lt;svg onload=alert(2)&gt;" in game_page
    assert "&lt;script&gt;alert(&#39;game&#39;)&lt;/script&gt;" in browser.get("/").text
    # The names are still the names: the API gives them back unchanged.
    names = [p["name"] for p in browser.get(f"/api/games/{game}").get_json()["players"]]
    assert names == [PLAYER_HTML, OTHER_HTML]


# --- CSRF ---------------------------------------------------------------------------------

GOOD_POSTS = [
    ("/games/{game}/routes/paris--zurich", {"player": "Ann", "do": "claim"}),
    ("/games/{game}/cities/Wien", {"player": "Ann", "do": "station"}),
    ("/games/{game}/tickets", {"player": "Ann", "a": "Paris", "b": "Wien"}),
    ("/games/{game}/tickets/remove", {"player": "Bob", "a": "Budapest", "b": "Sofia"}),
    ("/games/{game}/undo", {}),
    ("/games/{game}/redo", {}),
    ("/games/{game}/rename", {"name": "Renamed"}),
    ("/games/{game}/delete", {"confirm": "yes"}),
    ("/games/{game}/player", {"player": "Bob"}),
]


@pytest.mark.parametrize("hx", [True, False], ids=["htmx", "form"])
@pytest.mark.parametrize("token", [None, "", "forged-token"], ids=["none", "empty", "forged"])
@pytest.mark.parametrize(("path", "fields"), GOOD_POSTS, ids=[p for p, _ in GOOD_POSTS])
def test_a_post_without_the_sessions_csrf_token_is_refused_and_changes_nothing(
        new_browser, browser, path, fields, token, hx):
    game = browser.game()
    # A ticket to remove and an action to undo, so that every post would change something.
    assert browser.post(f"/games/{game}/tickets",
                        {"player": "Bob", "a": "Budapest", "b": "Sofia"}).status_code == 303
    if path.endswith("/redo"):
        browser.post(f"/games/{game}/undo")
    before = browser.state(game)
    other = new_browser()  # another session's valid token is forged for this one
    sent = other.token if token == "forged-token" else token
    answer = browser.post(path.replace("{game}", game), fields, hx=hx, token=sent)
    assert answer.status_code == 400
    assert browser.state(game) == before
    # With the token, the same post goes through (so the refusal was the token's doing).
    assert browser.post(path.replace("{game}", game), fields, hx=hx).status_code in (200, 303)


def test_new_game_and_import_without_a_csrf_token_create_nothing(browser):
    count = len(re.findall(r'href="/games/[\w-]+"', browser.get("/").text))
    new = browser.post("/games", {"variant": "usa", "name_0": "Ann", "color_0": "red",
                                  "name_1": "Bob", "color_1": "blue"}, token=None)
    imported = browser.post("/games/import", {
        "json": '{"variant": "usa", "players": [{"name": "A", "color": "red"},'
                ' {"name": "B", "color": "blue"}]}'}, token=None)
    assert new.status_code == imported.status_code == 400
    assert len(re.findall(r'href="/games/[\w-]+"', browser.get("/").text)) == count


# --- the read-only share link -------------------------------------------------------------

def test_nothing_under_a_share_link_can_edit_and_it_never_shows_the_edit_id(browser):
    game = browser.game()
    share = re.search(r"/watch/([\w-]+)", browser.get(f"/games/{game}/share").text).group(1)
    before = browser.state(game)
    for suffix in ("", "/live", "/results", "/routes/paris--zurich", "/cities/Wien",
                   "/tickets", "/undo", "/rename", "/delete", "/scan"):
        for method in ("post", "put", "delete", "patch"):
            answer = getattr(browser.raw, method)(
                f"/watch/{share}{suffix}", data={"csrf_token": browser.token,
                                                 "player": "Ann", "do": "claim"})
            assert answer.status_code in (404, 405), (method, suffix)
    # The share token is not a game id: the edit routes do not know it.
    for path, fields in GOOD_POSTS:
        answer = browser.post(path.replace("{game}", share), fields, hx=True)
        assert answer.status_code == 404, path
    assert browser.state(game) == before
    for page in (f"/watch/{share}", f"/watch/{share}/live?v=-1", f"/watch/{share}/results",
                 f"/api/games/{share}", f"/api/games/{share}/score"):
        answer = browser.get(page, headers={"HX-Request": "true"})
        assert answer.status_code == 200, page
        assert game not in answer.text, page


# --- oversized bodies ---------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/games", "/games/import", "/games/GAME/routes/paris--zurich",
                                  "/games/GAME/tickets", "/lang"])
def test_a_form_over_the_body_limit_is_refused_with_413_and_changes_nothing(browser, path):
    game = browser.game()
    before = browser.state(game)
    answer = browser.post(path.replace("GAME", game), {"a": "x" * (300 * 1024)}, hx=False)
    assert answer.status_code == 413
    assert "Too much data" in answer.text
    assert browser.state(game) == before


def test_an_import_of_deeply_nested_json_is_refused_not_a_500(browser):
    answer = browser.post("/games/import", {"json": "[" * 50_000})
    assert answer.status_code == 422
