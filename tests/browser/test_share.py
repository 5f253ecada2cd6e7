"""The share link: another phone follows the game live and can change nothing."""

import re

from playwright.sync_api import expect


def watch_link(table, game_id: str) -> str:
    table.page.goto(f"/games/{game_id}/share")
    expect(table.page.locator("[data-qr] svg")).to_be_visible()
    return table.page.locator("[data-watch-link]").get_attribute("href")


def test_the_read_only_link_follows_the_game_but_a_tap_changes_nothing(
    phone, table, new_table, shot
):
    game_id = table.new_game("usa", [("Ann", "red"), ("Bob", "blue")])
    url = watch_link(table, game_id)
    shot(phone, "share-page")
    assert game_id not in url

    watcher = new_table()
    viewer = watcher.page
    viewer.goto(url)
    expect(viewer.locator("h1")).to_contain_text("read only")
    expect(viewer.locator("[data-undo], [data-redo]")).to_have_count(0)
    expect(viewer.locator("a[data-route-id], [data-route-id][hx-post]")).to_have_count(0)
    expect(viewer.locator("[hx-post]")).to_have_count(0)

    watcher.tap_lane("helena--seattle", zoom=False, answered=False)
    viewer.locator('[data-player="Ann"]').first.tap()
    watcher.tap_city("Denver", zoom=False, answered=False)
    viewer.wait_for_timeout(300)
    expect(watcher.lane("helena--seattle")).not_to_have_class(re.compile(r"\bown\b"))
    assert viewer.url == url
    shot(viewer, "watch-after-taps")
    assert all(p["routes"] == [] for p in table.score(game_id)["players"])

    # The players' phone claims a lane: the watching phone shows it on its next poll.
    phone.goto(f"/games/{game_id}")
    table.tap_lane("helena--seattle", zoom=False)
    expect(table.lane("helena--seattle")).to_have_class(re.compile(r"\bown-red\b"))
    expect(watcher.lane("helena--seattle")).to_have_class(re.compile(r"\bown-red\b"))
    expect(viewer.locator('[data-player="Ann"] [data-trains-left]').first).to_have_text("39")
    shot(viewer, "watch-follows-the-claim")
    assert viewer.problems == []


def test_the_share_token_opens_no_door_to_the_edit_endpoints(phone, table):
    game_id = table.new_game("usa", [("Ann", "red"), ("Bob", "blue")])
    url = watch_link(table, game_id)
    share = url.rstrip("/").rsplit("/", 1)[-1]
    phone.goto(url)
    token = phone.evaluate(
        "JSON.parse(document.body.getAttribute('hx-headers') || '{}')['X-CSRF-Token'] || ''")
    headers = {"X-CSRF-Token": token, "HX-Request": "true"}
    for path in (f"/games/{share}/routes/helena--seattle", f"/watch/{share}/routes/helena--seattle",
                 f"/games/{share}/undo", f"/games/{share}/tickets"):
        response = phone.request.post(path, headers=headers,
                                      form={"player": "Ann", "a": "Denver", "b": "El Paso"})
        assert response.status in (403, 404, 405), (path, response.status)
    assert all(p["routes"] == [] and p["tickets"] == []
               for p in table.score(game_id)["players"])

    results = phone.goto(f"{url}/results")
    assert results.status == 200
    expect(phone.locator('[data-player="Ann"] [data-total]')).to_have_attribute("data-total", "0")
