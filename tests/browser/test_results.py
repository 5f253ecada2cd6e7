"""The results view on a phone: the totals the JSON API computes, and the longest path."""

import re

from playwright.sync_api import expect

from scorer.boards import load_board

FIGURE_EIGHT = [
    "helena--seattle", "portland--seattle", "portland--salt-lake-city",
    "helena--salt-lake-city", "denver--helena", "denver--salt-lake-city",
]


def shown_totals(page) -> dict[str, int]:
    cards = page.locator("[data-player]:has([data-total])")
    return {
        card.get_attribute("data-player"): int(card.locator("[data-total]").get_attribute(
            "data-total"))
        for card in cards.all()
    }


def test_results_show_the_totals_of_the_score_api_and_the_winner(phone, table, shot):
    game_id = table.api_game({
        "variant": "usa",
        "players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"},
                    {"name": "Cat", "color": "green"}],
        "claims": [{"player": "Ann", "route": r} for r in FIGURE_EIGHT]
        + [{"player": "Bob", "route": "duluth--omaha"},
           {"player": "Cat", "route": "kansas-city--omaha"}],
        "tickets": [{"player": "Ann", "from": "Denver", "to": "El Paso"},
                    {"player": "Bob", "from": "Duluth", "to": "Omaha", "points": 3}],
    })
    phone.goto(f"/games/{game_id}")
    phone.locator("[data-results-link]").tap()
    phone.wait_for_url(f"**/games/{game_id}/results")
    shot(phone, "results")

    api = table.score(game_id)
    assert shown_totals(phone) == {p["name"]: p["total"] for p in api["players"]}
    # Ann: 15 + 1 + 15 + 4 + 7 + 4 route points, Denver–El Paso failed (-4), +10 longest.
    assert shown_totals(phone)["Ann"] == 52
    expect(phone.locator("[data-winners]")).to_have_attribute("data-winners", "Ann")
    expect(phone.locator("[data-winners]")).to_contain_text("Ann wins")
    assert phone.problems == []


def figure_eight_results(phone, table) -> str:
    """Ann holds the figure eight, Bob one route; the phone opens the results."""
    game_id = table.api_game({
        "variant": "usa",
        "players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}],
        "claims": [{"player": "Ann", "route": r} for r in FIGURE_EIGHT]
        + [{"player": "Bob", "route": "duluth--omaha"}],
    })
    phone.goto(f"/games/{game_id}/results")
    return game_id


def test_the_longest_path_view_draws_the_whole_figure_eight(phone, table, shot):
    game_id = figure_eight_results(phone, table)
    path = phone.locator('#path-view [data-path-player="Ann"]')
    expect(path).to_have_attribute("data-length", "23")
    cities = path.locator(".path-cities li").all_inner_texts()
    assert {cities[0], cities[-1]} == {"Helena", "Salt Lake City"}
    for route in FIGURE_EIGHT:
        expect(phone.locator(f'#path-view [data-route-id="{route}"]')).to_have_class(
            re.compile(r"\bon-path\b"))
    expect(phone.locator('#path-view [data-route-id="duluth--omaha"]')).not_to_have_class(
        re.compile(r"\bon-path\b"))
    phone.locator("#path-view").scroll_into_view_if_needed()
    shot(phone, "longest-path-ann")

    phone.locator('[data-player="Bob"] summary').tap()  # his sheet holds the button
    phone.locator('[data-show-path="Bob"]').tap()
    expect(phone.locator('#path-view [data-path-player="Bob"]')).to_have_attribute(
        "data-length", "2")
    expect(phone.locator('#path-view [data-route-id="duluth--omaha"]')).to_have_class(
        re.compile(r"\bon-path\b"))
    expect(phone.locator('#path-view [data-route-id="helena--seattle"]')).not_to_have_class(
        re.compile(r"\bon-path\b"))
    shot(phone, "longest-path-bob")
    api = {p["name"]: p["longest_path"]["length"] for p in table.score(game_id)["players"]}
    assert api == {"Ann": 23, "Bob": 2}


def _inside(box, frame) -> bool:
    middle_x, middle_y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return (frame["x"] <= middle_x <= frame["x"] + frame["width"]
            and frame["y"] <= middle_y <= frame["y"] + frame["height"])


def test_the_longest_path_map_zooms_with_buttons_onto_the_path(phone, table, shot):
    figure_eight_results(phone, table)
    view = phone.locator("#path-view")
    viewport = view.locator(".viewport")
    view.scroll_into_view_if_needed()
    expect(viewport).not_to_have_class(re.compile(r"\bzoomed\b"))  # opens on the whole path
    space = view.locator('[data-route-id="helena--seattle"] .sp').first
    whole = space.bounding_box()["width"]

    view.locator('[data-zoom="in"]').tap()
    expect(viewport).to_have_class(re.compile(r"\bzoomed\b"))
    shot(phone, "path-zoomed-in")
    assert space.bounding_box()["width"] >= 1.25 * whole  # the buttons take a column
    assert _inside(space.bounding_box(), viewport.bounding_box()), "+ lost the path from view"
    view.locator('[data-zoom="out"]').tap()
    expect(viewport).not_to_have_class(re.compile(r"\bzoomed\b"))
    view.locator('[data-zoom="in"]').tap()
    view.locator('[data-zoom="fit"]').tap()
    expect(viewport).not_to_have_class(re.compile(r"\bzoomed\b"))

    # The view of another player's path arrives by htmx: its buttons work too.
    phone.locator('[data-player="Bob"] summary').tap()  # his sheet holds the button
    phone.locator('[data-show-path="Bob"]').tap()
    expect(view.locator('[data-path-player="Bob"]')).to_be_visible()
    view = phone.locator("#path-view")
    view.locator('[data-zoom="in"]').tap()
    expect(view.locator(".viewport")).to_have_class(re.compile(r"\bzoomed\b"))
    bob = view.locator('[data-route-id="duluth--omaha"] .sp').first
    assert _inside(bob.bounding_box(), view.locator(".viewport").bounding_box())
    shot(phone, "bob-path-zoomed-in")
    assert phone.problems == []


def europe_four_players() -> dict:
    """A 4-player Europe game of 48 routes, one lane of each city pair, dealt in turn."""
    board = load_board("europe")
    names = ("Ann", "Bob", "Cat", "Dmitri")
    seen: set[frozenset[str]] = set()
    claims = []
    for route in sorted(board.routes.values(), key=lambda r: r.id):
        if frozenset((route.a, route.b)) in seen or len(claims) == 48:
            continue
        seen.add(frozenset((route.a, route.b)))
        claims.append({"player": names[len(claims) % 4], "route": route.id})
    return {"variant": "europe",
            "players": [{"name": n, "color": c}
                        for n, c in zip(names, ("red", "blue", "green", "yellow"), strict=True)],
            "claims": claims,
            "stations": [{"player": "Cat", "city": "Paris"}],
            "tickets": [{"player": "Ann", "from": "Amsterdam", "to": "Wilno"}]}


def test_the_results_start_with_the_ranking_and_fold_each_sheet(phone, table, shot):
    game_file = europe_four_players()
    game_id = table.api_game(game_file)
    phone.goto(f"/games/{game_id}/results")
    shot(phone, "ranking")
    api = {p["name"]: p["total"] for p in table.score(game_id)["players"]}
    order = sorted(api, key=api.get, reverse=True)
    assert len(set(api.values())) == 4, api  # no tie: four places

    lines = phone.locator("[data-ranking] > li")
    assert [li.get_attribute("data-place") for li in lines.all()] == ["1", "2", "3", "4"]
    assert [li.locator("[data-player]").get_attribute("data-player")
            for li in lines.all()] == order
    ranking = phone.locator("[data-ranking]").bounding_box()
    assert ranking["y"] < 250  # the first thing under the title
    assert ranking["y"] + ranking["height"] < 844  # every line on the first screen
    for li, name in zip(lines.all(), order, strict=True):
        expect(li.locator(".total")).to_have_text(str(api[name]))
        gap = api[name] - api[order[0]]
        expect(li.locator(".gap")).to_have_text(f"−{-gap}" if gap else "")
    expect(phone.locator(".figures").first).not_to_be_visible()  # folded
    height = phone.evaluate("document.documentElement.scrollHeight")
    assert height < 2_000, height  # four open sheets took ~3,900 px

    # The summary box wraps: nothing scrolls sideways, the page nor the box.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = phone.locator("[data-summary]")
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth")
    assert box.evaluate("b => b.scrollHeight <= b.clientHeight + 1")  # all of it shows
    box.scroll_into_view_if_needed()
    shot(phone, "summary")

    # A tap on a line opens that player's sheet; each length line names its routes.
    bob = phone.locator('[data-player="Bob"]')
    bob.locator("summary").tap()
    expect(bob.locator(".figures")).to_be_visible()
    shot(phone, "bob-sheet")
    board = load_board("europe")
    routes = [board.routes[c["route"]] for c in game_file["claims"] if c["player"] == "Bob"]
    for length in {r.length for r in routes}:
        named = sorted(f"{r.a} – {r.b}" for r in routes if r.length == length)
        line = bob.locator(f'[data-route-group="{length}"]')
        expect(line).to_contain_text(f"{len(named)} × {length} train")
        expect(line.locator("[data-route-names]")).to_have_text(", ".join(named))
    expect(phone.locator('[data-player="Ann"] .figures')).not_to_be_visible()
    assert phone.problems == []
