"""Real-browser fixtures: the app on a loopback port, Debian's Chromium, a phone context.

Each pytest process (each xdist worker) starts its own server on a free port with its own
SQLite file under a temporary instance folder, and its own Chromium; tests get a fresh
browser context (cookies, language) per phone. Screenshots go to ``test-output/browser/``.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "browser"
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 2,
}
# Pages answer from a local server: anything slower than this is a hang, not a slow page.
TIMEOUT_MS = 10_000
# A second tap on the same lane or city sooner than this is a double tap, counted once by the
# page (static/app.js DOUBLE_TAP_MS); a player who taps again on purpose has first looked at
# the answer, which takes longer. (With a margin for the way from here to the page.)
DOUBLE_TAP_S = 0.35


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app served by werkzeug in a background thread; yields its base URL."""
    from werkzeug.serving import make_server

    from scorer.web import create_app
    from tests.hardening.databases import app_config

    instance = tmp_path_factory.mktemp("instance")
    app = create_app({
        "TESTING": True,
        **app_config(instance),
        "SECRET_KEY": "browser-tests",
        # one address makes every test's games: the quota has its own tests (tests/hardening)
        "GAMES_PER_HOUR": 100_000,
    })
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium per test process."""
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Chromium at {CHROMIUM}")
    from playwright.sync_api import expect, sync_playwright

    # The machine is shared: give answers time under load before calling them missing.
    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_phone(browser: Any, live_server: str) -> Iterator[Callable[..., Any]]:
    """Make a page in a fresh phone-sized touch context: ``new_phone(locale="fr-FR")``.

    The page records uncaught script errors and console errors in ``page.problems`` so a
    test can check that htmx and the page scripts ran cleanly (the CSP blocks inline code).
    A refused tap answers 422 on purpose: Chromium's "Failed to load resource" line for it
    is not a problem.
    """
    contexts = []

    def make(locale: str = "en-US", **options: Any) -> Any:
        context = browser.new_context(
            **PHONE, locale=locale, base_url=live_server, **options,
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.problems = []
        page.on("pageerror", lambda exc: page.problems.append(f"pageerror: {exc}"))
        page.on("console", lambda msg: msg.type == "error"
                and not msg.text.startswith("Failed to load resource")
                and page.problems.append(f"console: {msg.text}"))
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def phone(new_phone: Callable[..., Any]) -> Any:
    """An English phone page (390 x 844, touch)."""
    return new_phone()


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    """``shot(page, "step")`` saves a full-viewport screenshot for this test, numbered."""
    folder = SHOTS / re.sub(r"[^\w.-]+", "_", request.node.name)
    counter = iter(range(1, 1000))

    def take(page: Any, step: str) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{next(counter):02d}-{step}.png"
        page.screenshot(path=str(path))
        return path

    return take


class Table:
    """Drives the app on one phone page the way a player does: taps, a few typed fields."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self._tapped: dict[str, float] = {}  # lane or city -> when it was last tapped

    @property
    def game_id(self) -> str:
        match = re.search(r"/games/([^/?#]+)", self.page.url)
        assert match, f"not on a game page: {self.page.url}"
        return match.group(1)

    def new_game(self, variant: str, players: list[tuple[str, str]], name: str = "") -> str:
        """Fill the new-game form by tapping and typing; returns the new game's id."""
        page = self.page
        page.goto("/games/new")
        page.locator(f'input[name="variant"][value="{variant}"]').check()
        for index, (player, color) in enumerate(players):
            page.locator(f'input[name="name_{index}"]').fill(player)
            page.locator(f'select[name="color_{index}"]').select_option(color)
        if name:
            page.locator('input[name="game_name"]').fill(name)
        page.locator('form.new-game button[type="submit"]').tap()
        page.wait_for_url(re.compile(r"/games/(?!new)[^/?#]+$"))
        return self.game_id

    def api_game(self, game_file: dict[str, Any]) -> str:
        """A game made through the JSON API (for flows that start mid-game)."""
        response = self.page.request.post("/api/games", data=game_file)
        assert response.status == 201, response.text()
        return response.json()["id"]

    def score(self, game_id: str | None = None) -> dict[str, Any]:
        response = self.page.request.get(f"/api/games/{game_id or self.game_id}/score")
        assert response.ok, response.text()
        return response.json()

    def lane(self, route_id: str) -> Any:
        return self.page.locator(f'[data-route-id="{route_id}"]')

    def tap_lane(self, route_id: str, zoom: bool = True, answered: bool = True) -> None:
        """Tap the lane on its middle printed space, where a finger would go (the centre of
        a bent lane's bounding box can be open sea or a city).

        With ``zoom`` the board is first zoomed in and dragged so the lane sits mid-screen,
        as a player does: on the whole board the two lanes of a double are ~5 px apart and
        Chromium's touch adjustment can send the tap to the neighbouring lane.
        ``answered``: wait for the server's answer (a read-only page sends nothing).
        """
        spaces = self.lane(route_id).locator(".sp")
        middle = spaces.nth(spaces.count() // 2)
        if zoom:
            self.bring_into_view(middle)
        else:
            self.whole_board()
        self._tap(middle, "/routes/" if answered else None, again=route_id)

    def tap_city(self, name: str, zoom: bool = True, answered: bool = True) -> None:
        dot = self.city(name).locator(".dot")
        if zoom:
            self.bring_into_view(dot)
        else:
            self.whole_board()
        self._tap(dot, "/cities/" if answered else None, again=f"city {name}")

    def _tap(self, target: Any, answer_path: str | None, again: str = "") -> None:
        """Tap, then (for a path) wait for the answer, so the next tap finds the page settled.

        ``again``: what is tapped; a second tap on it waits out the double-tap time, as a
        player who looks at the answer before tapping again does.
        """
        if again:
            wait = self._tapped.get(again, 0.0) + DOUBLE_TAP_S - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        if answer_path is None:
            target.tap()
        else:
            with self.page.expect_response(lambda r: answer_path in r.url):
                target.tap()
        if again:  # made by now: the next tap on it is counted from here
            self._tapped[again] = time.monotonic()
        if answer_path is not None:
            self.page.wait_for_load_state()

    def whole_board(self) -> None:
        """Show the whole board (the ⤢ button); a phone opens on part of it, zoomed in."""
        from playwright.sync_api import expect

        viewport = self.page.locator("#viewport")
        if "zoomed" not in (viewport.get_attribute("class") or ""):
            return
        viewport.scroll_into_view_if_needed()
        self.page.locator('[data-zoom="fit"]').tap()
        expect(viewport).not_to_have_class(re.compile(r"\bzoomed\b"))

    def bring_into_view(self, target: Any, zoom_taps: int = 3) -> None:
        """Zoom the board in (the + button) and drag it until ``target`` is mid-board."""
        page = self.page
        viewport = page.locator("#viewport")
        viewport.scroll_into_view_if_needed()
        if "zoomed" not in (viewport.get_attribute("class") or ""):
            for _ in range(zoom_taps):
                page.locator('[data-zoom="in"]').tap()
        for _ in range(6):
            view, box = viewport.bounding_box(), target.bounding_box()
            if view is None or box is None:  # the board was being swapped by an answer
                target.wait_for(state="visible")
                continue
            cx, cy = view["x"] + view["width"] / 2, view["y"] + view["height"] / 2
            dx = cx - (box["x"] + box["width"] / 2)
            dy = cy - (box["y"] + box["height"] / 2)
            if "sideways" in (viewport.get_attribute("class") or ""):
                dy = 0  # the board fills the height: it only moves sideways
            if abs(dx) < 20 and abs(dy) < 20:
                return
            # Drags stay inside the board so each ends as a drag, not a tap elsewhere.
            dx = max(-view["width"] * 0.4, min(view["width"] * 0.4, dx))
            dy = max(-view["height"] * 0.4, min(view["height"] * 0.4, dy))
            page.mouse.move(cx - dx / 2, cy - dy / 2)
            page.mouse.down()
            page.mouse.move(cx + dx / 2, cy + dy / 2, steps=6)
            page.mouse.up()

    def city(self, name: str) -> Any:
        return self.page.locator(f'[data-city="{name}"]')

    def player_button(self, name: str) -> Any:
        return self.page.locator(f'#players [data-player="{name}"]')

    def select(self, name: str) -> None:
        from playwright.sync_api import expect

        self._tap(self.player_button(name), "/player")
        expect(self.player_button(name)).to_have_attribute("aria-pressed", "true")

    def trains_left(self, name: str) -> int:
        return int(self.player_button(name).locator("[data-trains-left]").inner_text())

    def tickets_of(self, name: str) -> Any:
        """A player's block in the ticket list (its marker attribute is not part of the spec)."""
        return self.page.locator(
            f'#tickets :is([data-player="{name}"], [data-ticket-player="{name}"])')

    def mode(self, mode: str) -> None:
        """Tap the mode switch above the map (routes, stations, ticket)."""
        from playwright.sync_api import expect

        label = self.page.locator(".modes label").filter(
            has=self.page.locator(f'input[value="{mode}"]'))
        label.tap()
        expect(label.locator("input")).to_be_checked()

    def search_deck(self, query: str) -> Any:
        """Type in the deck search box and tap Search; returns the results block."""
        form = self.page.locator("#add-ticket form.search")
        form.locator("input[type=search]").fill(query)
        form.locator("button[type=submit]").tap()
        return self.page.locator("#ticket-results")

    def message(self) -> Any:
        return self.page.locator("#message")


@pytest.fixture
def table(phone: Any) -> Table:
    """The English phone, driven as a player would."""
    return Table(phone)


@pytest.fixture
def new_table(new_phone: Callable[..., Any]) -> Callable[..., Table]:
    """Another phone at the table: ``new_table(locale="fr-FR")``; its page is ``.page``."""
    return lambda **options: Table(new_phone(**options))
