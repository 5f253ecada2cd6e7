"""Gestures a table needs to enter a board on a phone: taps, zooms and drags per route.

``python benchmarks/gestures.py [--routes 48] [--finger 8] [--seed 1-5]``: serves the app on a
temporary SQLite file, opens a 4-player Europe game in headless Chromium at 390 x 844 (touch)
and enters ``--routes`` routes spread over the players, as a player does, counting every
gesture. A finger does not land where it aims: each tap lands off the aimed point by a normal
error of ``--finger`` CSS px each way (8 px is ~1.3 mm on a 390 px wide phone).

Strategies, each on a fresh game:
- ``whole``: the whole board in view (one tap on ⤢), a tap on the lane's middle space; a
  "which lane?" question costs a tap; a wrong lane or none costs an Undo tap and the tap again.
- ``zoomed``: as the page opens (zoomed in), a drag brings the lane mid-screen when it is not
  in view, then the tap; wrong lanes are handled alike.
- ``sweep``: as ``zoomed``, each player's routes entered across the board, west to east for
  one player, east to west for the next (as a player following their trains does), so the
  board is dragged sideways once or twice per player rather than for most routes.
- ``cities``: the whole board, a tap on each of the route's two cities (routes mode).
- ``typed``: the route finder under the map: the start of both cities typed ("par fra", more
  letters while the route is not the first offered), Enter when the page marks the lane as
  the one Enter claims, else a tap on the lane's button (a double with both lanes free).
  Each key pressed is a tap on the phone's keyboard and is counted as one.

Whatever the strategy, the player answers what the page asks as a player would: a "which
lane?" choice costs a tap on the lane wanted (a cancel when it is not offered); a tap that
picked a city costs a tap on the lane wanted when "Not this one?" offers it beside the
answer, else one on the route's other city (a tap that picked another city is cancelled by a
tap on it); a wrong lane claimed whose answer offers the lane wanted ("Not this one?") costs
a tap on that button, else Undo and again.
Prints gestures per route for each seed (a game and draw of taps) and the taps that landed
wrong, then the figure: the mean over the seeds (target of issue 27: <= 1.5 over seeds 1-5).
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorer.boards import load_board, normalize_name  # noqa: E402
from scorer.web import create_app  # noqa: E402
from scorer.web.play import find_routes  # noqa: E402
from scorer.web.svg import middle  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PLAYERS = [("Ann", "red"), ("Bob", "blue"), ("Cleo", "green"), ("Dmitri", "yellow")]
TARGET = 1.5
RETRIES = 3  # a player who misses three times in a row zooms in (counted) and taps there
STRATEGIES = ("whole", "cities", "typed", "zoomed", "sweep")


def plan(count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` (route, player) claims a 4-player Europe game allows, in a random order."""
    board = load_board("europe")
    rng = random.Random(seed)
    routes = list(board.routes.values())
    rng.shuffle(routes)
    trains = {name: 45 for name, _ in PLAYERS}
    owner: dict[str, str] = {}
    claims = []
    for route in routes:
        if len(claims) == count:
            break
        name = min(trains, key=lambda n: (-trains[n], n))
        if trains[name] < route.length or any(s.id in owner for s in board.siblings(route)):
            continue
        owner[route.id] = name
        trains[name] -= route.length
        claims.append((route.id, name))
    # a table enters one player's routes, then the next player's
    return sorted(claims, key=lambda claim: [n for n, _ in PLAYERS].index(claim[1]))


def across(claims: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The same claims, each player's routes from west to east, the next player's back."""
    board = load_board("europe")
    names = [n for n, _ in PLAYERS]
    ordered = []
    for index, name in enumerate(names):
        routes = [claim for claim in claims if claim[1] == name]
        ordered += sorted(routes, key=lambda claim: middle(board.routes[claim[0]])[0],
                          reverse=index % 2 == 1)
    return ordered


class Player:
    """One phone entering claims; ``gestures`` counts every tap, zoom and drag."""

    def __init__(self, page: Any, finger: float, rng: random.Random) -> None:
        self.page, self.finger, self.rng = page, finger, rng
        self.board = load_board("europe")
        self.gestures = 0
        self.wrong = 0
        self.missed: list[str] = []
        self.seen: list[str] = []  # what the page asked for the route being entered

    def tap_near(self, locator: Any) -> None:
        """A finger aimed at the middle of ``locator``, landing off it by the finger error;
        off the screen (the page scrolled by a zoom), a scroll brings it back first."""
        box = locator.bounding_box()
        if not 0 < box["y"] + box["height"] / 2 < self.page.viewport_size["height"]:
            self.gestures += 1
            locator.scroll_into_view_if_needed()
            box = locator.bounding_box()
        self.tap_at(box["x"] + box["width"] / 2 + self.rng.gauss(0, self.finger),
                    box["y"] + box["height"] / 2 + self.rng.gauss(0, self.finger))

    def city_dot(self, name: str) -> Any:
        return self.page.locator(f'#board a[data-city="{name}"] .dot')

    def answer_page(self, route_id: str) -> None:
        """Do what the page asks after a tap meant for ``route_id``: the lane wanted in a
        choice (else cancel it); after a city picked, the lane wanted when "Not this one?"
        offers it, else the route's other city (another city picked: cancelled by a tap on
        it)."""
        page = self.page
        route = self.board.routes[route_id]
        for _ in range(3):
            choice = page.locator(f'#lane-choice [data-pick-route="{route_id}"]')
            picked = page.locator("#board a[data-city].picked")
            offered = page.locator(f'#instead [data-instead-route="{route_id}"]')
            if choice.count():
                self.seen.append("choice")
                self.tap(choice)
            elif page.locator("#lane-choice").count():  # asked about other lanes: cancel
                self.seen.append("choice without it")
                self.tap(page.locator("#lane-choice button").last)
            elif picked.count() and offered.count():  # the lane meant, offered beside it
                self.seen.append(f"city {picked.get_attribute('data-city')}, lane offered")
                self.tap(offered)
            elif picked.count():
                city = picked.get_attribute("data-city")
                self.seen.append(f"city {city}")
                other = route.b if city == route.a else route.a if city == route.b else city
                self.tap_near(self.city_dot(other))
            else:
                return
            self.settle()

    def tap_at(self, x: float, y: float) -> None:
        self.gestures += 1
        self.page.touchscreen.tap(x, y)

    def tap(self, locator: Any) -> None:
        """Tap a button; one that is off the screen costs a scroll first."""
        before = self.page.evaluate("scrollY")
        locator.scroll_into_view_if_needed()
        if self.page.evaluate("scrollY") != before:
            self.gestures += 1
        box = locator.bounding_box()
        self.tap_at(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    def settle(self) -> None:
        self.page.wait_for_load_state("networkidle")
        self.page.wait_for_timeout(380)  # past the page's double-tap guard

    def select(self, name: str) -> None:
        """The player whose routes come next, from the strip over the map when it shows."""
        strip = self.page.locator(f'#strip [data-pick-player="{name}"]')
        button = strip if strip.is_visible() else self.page.locator(
            f'#players [data-player="{name}"]')
        if button.get_attribute("aria-pressed") != "true":
            self.tap(button)
            self.settle()

    def owned(self) -> set[str]:
        return set(self.page.eval_on_selector_all(
            "#board a.own", "els => els.map(e => e.dataset.routeId)"))

    def drag_into_view(self, target: Any) -> None:
        """Drag the zoomed board (each drag a gesture) until ``target`` is well inside."""
        viewport = self.page.locator("#viewport")
        for _ in range(4):
            view = viewport.bounding_box()
            box = target.bounding_box()
            cx, cy = view["x"] + view["width"] / 2, view["y"] + view["height"] / 2
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            # (the board's whole height in view, "sideways": it only moves sideways)
            sideways = "sideways" in (viewport.get_attribute("class") or "")
            if (view["x"] + 40 < x < view["x"] + view["width"] - 40
                    and (sideways or view["y"] + 40 < y < view["y"] + view["height"] - 40)):
                return
            # one swipe, as long as the screen allows, brings the lane to the middle
            dx = max(-view["width"] * 0.8, min(view["width"] * 0.8, cx - x))
            dy = 0 if sideways else max(-view["height"] * 0.8, min(view["height"] * 0.8, cy - y))
            self.gestures += 1
            self.page.mouse.move(cx - dx / 2, cy - dy / 2)
            self.page.mouse.down()
            self.page.mouse.move(cx + dx / 2, cy + dy / 2, steps=6)
            self.page.mouse.up()
            self.page.wait_for_timeout(150)
            if target.bounding_box() == box:  # the board's edge: it goes no further
                return

    def claim(self, route_id: str, zoomed: bool) -> bool:
        """Claim the lane as a player does; False when even zoomed in it did not take."""
        if self.attempts(route_id, zoomed, RETRIES):
            return True
        if zoomed:
            return False
        # missed three times on the whole board: zoom in, tap there, back to the whole board
        self.tap(self.page.locator('[data-zoom="in"]'))
        self.tap(self.page.locator('[data-zoom="in"]'))
        done = self.attempts(route_id, True, RETRIES)
        self.tap(self.page.locator('[data-zoom="fit"]'))
        self.page.wait_for_timeout(200)
        return done

    def attempts(self, route_id: str, zoomed: bool, tries: int) -> bool:
        page = self.page
        for _ in range(tries):
            spaces = page.locator(f'#board [data-route-id="{route_id}"] .sp')
            middle = spaces.nth(spaces.count() // 2)
            if zoomed:
                page.locator("#viewport").scroll_into_view_if_needed()
                self.drag_into_view(middle)
            before = self.owned()
            self.tap_near(middle)
            self.settle()
            self.answer_page(route_id)
            if self.checked(route_id, before):
                return True
        return False

    def checked(self, route_id: str, before: set[str]) -> bool:
        """Whether the lane (and it alone) was claimed; a wrong lane is undone (a tap)."""
        added = self.owned() - before
        if added == {route_id}:
            return True
        self.seen.append(f"wrong {sorted(added)}")
        self.wrong += 1
        # the answer offers the lane wanted ("Not this one?"): a tap on it takes that instead
        offered = self.page.locator(f'#instead [data-instead-route="{route_id}"]')
        if added and offered.count():
            self.seen.append("instead")
            self.tap(offered)
            self.settle()
            if self.owned() - before == {route_id}:
                return True
        if added or (before - self.owned()):
            self.tap(self.page.locator("[data-undo]").first)
            self.settle()
        return False

    def by_cities(self, route_id: str) -> bool:
        """Tap the route's two cities on the whole board."""
        route = self.board.routes[route_id]
        for _ in range(RETRIES):
            before = self.owned()
            self.tap_near(self.city_dot(route.a))
            self.settle()
            self.answer_page(route_id)
            if self.checked(route_id, before):
                return True
        return False

    def typed(self, route_id: str) -> bool:
        """Type the start of both cities in the route finder; Enter, or the lane's button."""
        page = self.page
        route = self.board.routes[route_id]
        box = page.locator("form[data-route-search] input[name=q]")
        if not page.evaluate("document.activeElement && document.activeElement.name === 'q'"):
            self.tap(box)
        words = [normalize_name(route.a), normalize_name(route.b)]
        before = self.owned()  # (every player's lanes: a route all taken is listed last)
        for letters in range(1, 12):
            text = " ".join(w[:letters] for w in words)
            found = find_routes(self.board, text, taken=before)
            if found and route_id in {lane.id for lane in found[0]}:
                break
        self.gestures += len(text)  # one tap a key
        page.keyboard.type(text)
        page.locator(f'#route-results[data-for="{text}"]').wait_for(state="attached")
        if page.locator(f'#route-results [data-offer-route="{route_id}"][data-enter]').count():
            self.gestures += 1  # Enter: the first route offered has this lane alone to claim
            page.keyboard.press("Enter")
        else:
            self.tap(page.locator(f'#route-results [data-offer-route="{route_id}"]'))
        self.settle()
        return self.checked(route_id, before)


def run(base: str, strategy: str, claims: list[tuple[str, str]], finger: float,
        seed: int, verbose: bool = False) -> Player:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                             args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                      is_mobile=True, device_scale_factor=2, base_url=base)
        page = context.new_page()
        answer = page.request.post("/api/games", data={"variant": "europe", "players": [
            {"name": n, "color": c} for n, c in PLAYERS]})
        page.goto(f"/games/{answer.json()['id']}")
        player = Player(page, finger, random.Random(seed))
        zoomed = strategy in ("zoomed", "sweep")
        if strategy == "sweep":
            claims = across(claims)
        if strategy in ("whole", "cities"):
            page.locator("#viewport").scroll_into_view_if_needed()
            player.tap(page.locator('[data-zoom="fit"]'))
            page.wait_for_timeout(200)
        enter = {"cities": player.by_cities, "typed": player.typed}.get(
            strategy, lambda route_id: player.claim(route_id, zoomed))
        for route_id, name in claims:
            player.select(name)
            spent = player.gestures
            if not enter(route_id):
                player.missed.append(route_id)
            if verbose:
                print(f"    {route_id}: {player.gestures - spent} {player.seen}")
            player.seen = []
        browser.close()
        return player


def seeds(text: str) -> list[int]:
    """``--seed``: one seed (``3``) or a range (``1-5``)."""
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def measure(strategy: str, claims: list[tuple[str, str]], finger: float, seed: int,
            verbose: bool) -> Player:
    """One strategy on a fresh app and game."""
    from werkzeug.serving import make_server

    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "g.sqlite3"),
                          "SECRET_KEY": "gestures"})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            return run(f"http://127.0.0.1:{server.server_port}", strategy, claims, finger,
                       seed, verbose)
        finally:
            server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--routes", type=int, default=48)
    parser.add_argument("--finger", type=float, default=8.0)
    parser.add_argument("--seed", type=seeds, default="1-5", help="a game and draw of taps, "
                        "or a range of them (default 1-5): the figure is their mean")
    parser.add_argument("--verbose", action="store_true", help="each route's gestures and what "
                        "the page asked on the way")
    parser.add_argument("--strategy", choices=[*STRATEGIES, "all"], default="all")
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)

    strategies = list(STRATEGIES) if args.strategy == "all" else [args.strategy]
    print(f"{args.routes} routes of a 4-player Europe game at 390 x 844, finger error "
          f"{args.finger:g} px, seeds {', '.join(map(str, args.seed))}")
    for strategy in strategies:
        gestures = routes = 0
        for seed in args.seed:
            claims = plan(args.routes, seed)
            player = measure(strategy, claims, args.finger, seed, args.verbose)
            gestures, routes = gestures + player.gestures, routes + len(claims)
            print(f"{strategy:>7} seed {seed}: {player.gestures} gestures, "
                  f"{player.gestures / len(claims):.2f} per route, "
                  f"{player.wrong} taps that claimed a wrong lane or none, "
                  f"{len(player.missed)} routes not entered {player.missed}")
        print(f"{strategy:>7}: {gestures / routes:.2f} gestures per route, the mean over "
              f"{len(args.seed)} seed(s) (target <= {TARGET})")


if __name__ == "__main__":
    main()
