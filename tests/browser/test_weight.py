"""What a phone downloads for the game page, on the table's bad Wi-Fi."""

from __future__ import annotations

from urllib.parse import urlsplit

THREE = [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"},
         {"name": "Cleo", "color": "green"}]


def test_the_game_page_weighs_little_and_its_files_come_once(phone, table):
    """First visit: the page and its files under 60 kB over the network (compressed); the
    next visit brings the page alone, the styles and scripts come from the phone's cache."""
    game_id = table.api_game({"variant": "europe", "players": THREE})
    visits: list[dict[str, int]] = []
    # bytes of each response's body over the network; Chromium counts none (<= 0) for the cache
    phone.on("requestfinished", lambda r: visits[-1].__setitem__(
        urlsplit(r.url).path, max(r.sizes()["responseBodySize"], 0)))
    for _ in range(2):
        visits.append({})
        phone.goto(f"/games/{game_id}")
        phone.wait_for_load_state("networkidle")
    first, second = visits
    files = [path for path in first if path.startswith("/static/")]
    assert len(files) >= 3, first
    assert sum(first.values()) < 60_000, first
    assert all(second.get(path, 0) == 0 for path in files), second
    assert second[f"/games/{game_id}"] < 25_000, second
