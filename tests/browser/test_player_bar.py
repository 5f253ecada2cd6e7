"""The player bar at the top of the game: players' names read in full on a 390 px phone."""

import pytest

FIVE = [("Annabelle", "red"), ("Bartholomew", "blue"), ("Maximilian", "green"),
        ("Dominique", "yellow"), ("Genevieve", "black")]

# Every player in the bar: its name's drawn and full widths, its box.
BAR = """() => Array.from(document.querySelectorAll('#players .player')).map(p => {
    const name = p.querySelector('.nm'), box = p.getBoundingClientRect();
    return {name: name.textContent, shown: name.clientWidth, full: name.scrollWidth,
            left: box.left, right: box.right, height: box.height};
})"""


@pytest.mark.parametrize(("count", "page_name", "locale"), [
    (5, "game", "en-US"), (5, "game", "fr-FR"), (5, "watch", "en-US"), (4, "game", "en-US"),
    (3, "game", "en-US"),
])
def test_players_names_show_in_full_with_big_tap_targets(
        new_table, shot, count, page_name, locale):
    table = new_table(locale=locale)
    phone = table.page
    game_id = table.api_game({"variant": "europe",
                              "players": [{"name": n, "color": c} for n, c in FIVE[:count]]})
    phone.goto(f"/games/{game_id}/share")
    watch = phone.locator("[data-watch-link]").get_attribute("href")
    phone.goto(f"/games/{game_id}" if page_name == "game" else watch)
    shot(phone, f"{count}-players-{page_name}-{locale}")
    bar = phone.evaluate(BAR)
    assert [p["name"] for p in bar] == [n for n, _ in FIVE[:count]]
    cut = [p["name"] for p in bar if p["full"] > p["shown"]]
    assert cut == [], f"names cut short on a 390 px phone: {cut}"
    assert all(p["height"] >= 44 for p in bar), [(p["name"], p["height"]) for p in bar]
    assert all(p["left"] >= 0 and p["right"] <= 390 for p in bar), bar
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
