"""Faster ways in (issue 27 item 1), on a phone: a route by its two cities on the whole board,
a route typed ("par fra"), and a tap between lanes answered by the place magnified."""

import re

from playwright.sync_api import expect

FOUR = [("Ann", "red"), ("Bob", "blue"), ("Cat", "green"), ("Dan", "yellow")]


def owned_by(color: str) -> re.Pattern[str]:
    return re.compile(rf"\bown-{color}\b")


def test_two_cities_tapped_on_the_whole_board_claim_the_route_between_them(
    phone, table, shot
):
    table.new_game("europe", FOUR)
    table.select("Bob")
    table.tap_city("Wien", zoom=False)
    expect(table.message()).to_contain_text("Wien: now tap the route's other city.")
    expect(table.city("Wien")).to_have_class(re.compile(r"\bpicked\b"))
    shot(phone, "first-city-picked")
    # the other end, a finger's width off its dot: the nearest city Wien has a lane to
    dot = table.city("München").locator(".dot").bounding_box()
    with phone.expect_response(lambda r: "/cities/" in r.url):
        phone.touchscreen.tap(dot["x"] + dot["width"] / 2 + 9, dot["y"] + dot["height"] / 2 + 7)
    expect(table.lane("munchen--wien")).to_have_class(owned_by("blue"))
    expect(table.message()).to_contain_text("Bob claims München–Wien")
    expect(table.city("Wien")).not_to_have_class(re.compile(r"\bpicked\b"))
    shot(phone, "munchen-wien-claimed")

    # a double: both lanes offered, one tap on the lane wanted
    table.tap_city("Paris", zoom=False)
    table.tap_city("Frankfurt", zoom=False)
    buttons = phone.locator("#lane-choice [data-pick-route]")
    expect(buttons).to_have_count(2)
    shot(phone, "double-offered")
    with phone.expect_response(lambda r: "/routes/" in r.url):
        phone.locator('#lane-choice [data-pick-route="frankfurt--paris--2"]').tap()
    expect(table.lane("frankfurt--paris--2")).to_have_class(owned_by("blue"))
    expect(table.lane("frankfurt--paris")).not_to_have_class(re.compile(r"\bown\b"))
    bob = next(p for p in table.score()["players"] if p["name"] == "Bob")
    assert sorted(bob["routes"]) == ["frankfurt--paris--2", "munchen--wien"]
    assert phone.problems == []


def test_a_typed_route_offers_its_lanes_and_enter_claims_a_single_one(phone, table, shot):
    table.new_game("europe", FOUR)
    table.select("Cat")
    box = phone.locator("form[data-route-search] input[name=q]")
    box.tap()
    box.type("par fra")
    lanes = phone.locator("#route-results [data-offer-route]")
    expect(lanes).to_have_count(2)
    shot(phone, "par-fra-typed")
    with phone.expect_response(lambda r: "/routes/frankfurt--paris" in r.url):
        phone.locator('#route-results [data-offer-route="frankfurt--paris"]').tap()
    expect(table.lane("frankfurt--paris")).to_have_class(owned_by("green"))
    expect(box).to_have_value("")

    # a single route: Enter claims it, the box emptied for the next one
    box.tap()
    box.type("zur mun")
    with phone.expect_response(lambda r: "/routes/munchen--zurich" in r.url):
        box.press("Enter")
    expect(table.lane("munchen--zurich")).to_have_class(owned_by("green"))
    expect(table.message()).to_contain_text("Cat claims München–Zürich")
    expect(box).to_have_value("")
    shot(phone, "zur-mun-entered")
    cat = next(p for p in table.score()["players"] if p["name"] == "Cat")
    assert sorted(cat["routes"]) == ["frankfurt--paris", "munchen--zurich"]
    assert phone.problems == []


def test_enter_claims_the_first_route_the_finder_offers_a_taken_one_listed_last(
    phone, table, shot
):
    game = table.api_game({"variant": "europe", "players": [
        {"name": n, "color": c} for n, c in FOUR]})
    phone.goto(f"/games/{game}")
    box = phone.locator("form[data-route-search] input[name=q]")
    box.tap()
    # "mars pa" names Marseille-Paris and Marseille-Pamplona: more of Paris is typed
    box.type("mars pa")
    routes = phone.locator("#route-results [data-found-route]")
    expect(routes).to_have_count(2)
    expect(routes.first).to_have_attribute("data-found-route", "Marseille–Paris")
    expect(routes.first.locator("[data-offer-route]")).to_have_attribute("data-enter", "")
    shot(phone, "mars-pa-best-first")
    with phone.expect_response(lambda r: "/routes/marseille--paris" in r.url):
        box.press("Enter")
    expect(table.lane("marseille--paris")).to_have_class(owned_by("red"))
    expect(box).to_have_value("")

    # the same words again: Marseille-Paris is taken, Marseille-Pamplona comes first
    box.type("mars pa")
    expect(routes.first).to_have_attribute("data-found-route", "Marseille–Pamplona")
    with phone.expect_response(lambda r: "/routes/marseille--pamplona" in r.url):
        box.press("Enter")
    expect(table.lane("marseille--pamplona")).to_have_class(owned_by("red"))
    assert sorted(table.score(game)["players"][0]["routes"]) == [
        "marseille--pamplona", "marseille--paris"]
    assert phone.problems == []


# A point of the whole board about as near two lanes of different routes (screen px), found
# on the page: the lanes' hit lines in screen coordinates, a grid of points over the map.
FIND_BETWEEN = """() => {
  const svg = document.querySelector('#board svg');
  const ctm = svg.getScreenCTM();
  const lanes = [...svg.querySelectorAll('a[data-route-id]')].map(a => ({
    id: a.dataset.routeId, route: a.dataset.routeId.replace(/--2$/, ''),
    pts: a.querySelector('polyline').getAttribute('points').trim().split(/\\s+/).map(p => {
      const [x, y] = p.split(',').map(Number);
      return new DOMPoint(x, y).matrixTransform(ctm);
    })}));
  const seg = (p, a, b) => {
    const dx = b.x - a.x, dy = b.y - a.y, l = dx * dx + dy * dy;
    const t = l ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l)) : 0;
    return Math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
  };
  const dist = (p, lane) => Math.min(...lane.pts.slice(1).map((q, i) => seg(p, lane.pts[i], q)));
  const cities = [...svg.querySelectorAll('a[data-city] .dot')].map(d => {
    const r = d.getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2};
  });
  const box = document.getElementById('viewport').getBoundingClientRect();
  for (let y = box.top + 20; y < box.bottom - 20; y += 2) {
    for (let x = box.left + 20; x < box.right - 20; x += 2) {
      const p = {x, y};
      if (cities.some(c => Math.hypot(c.x - x, c.y - y) < 14)) continue;
      const d = lanes.map(l => ({id: l.id, route: l.route, d: dist(p, l)}))
        .sort((a, b) => a.d - b.d);
      if (d[0].d > 1.5 && d[0].d < 5 && d[1].route !== d[0].route && d[1].d - d[0].d < 0.5
          && d[2].d > 10) return {x, y, lanes: [d[0].id, d[1].id]};
    }
  }
  return null;
}"""


def test_a_tap_between_lanes_of_two_routes_shows_them_magnified_to_tap_again(
    phone, table, shot
):
    table.new_game("europe", FOUR)
    table.whole_board()
    spot = phone.evaluate(FIND_BETWEEN)
    assert spot, "no place on the whole board lies between two routes' lanes"
    phone.touchscreen.tap(spot["x"], spot["y"])
    choice = phone.locator("#lane-choice")
    expect(choice.locator("[data-loupe] svg")).to_be_visible()
    expect(choice.locator("[data-pick-route]")).to_have_count(2)
    shot(phone, "between-two-routes-magnified")
    assert table.score()["players"][0]["routes"] == []

    # the lane wanted, tapped on the magnified board: ~4 times as far from its neighbour
    wanted = spot["lanes"][1]
    spaces = choice.locator(f'[data-loupe] a[data-route-id="{wanted}"] .sp')
    middle = spaces.nth(spaces.count() // 2).bounding_box()
    with phone.expect_response(lambda r: f"/routes/{wanted}" in r.url):
        phone.touchscreen.tap(middle["x"] + middle["width"] / 2,
                              middle["y"] + middle["height"] / 2)
    expect(choice).to_have_count(0)
    expect(table.lane(wanted)).to_have_class(owned_by("red"))
    assert table.score()["players"][0]["routes"] == [wanted]
    assert phone.problems == []


# A point of the whole board (in board units) a few px off a single lane X, with a single lane
# Y of another route as the next nearest, a little farther, and no third lane near: X taken by
# another player, a tap there means Y.
FIND_BESIDE = """() => {
  const svg = document.querySelector('#board svg');
  const ctm = svg.getScreenCTM(), k = Math.hypot(ctm.a, ctm.b);
  const all = [...svg.querySelectorAll('a[data-route-id]')].map(a => a.dataset.routeId);
  const single = id => !id.endsWith('--2') && !all.includes(id + '--2');
  const lanes = all.map(id => ({id, pts: svg.querySelector(
    `a[data-route-id="${id}"] polyline`).getAttribute('points').trim().split(/\\s+/)
    .map(p => p.split(',').map(Number))}));
  const seg = (p, a, b) => {
    const dx = b[0] - a[0], dy = b[1] - a[1], l = dx * dx + dy * dy;
    const t = l ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l)) : 0;
    return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
  };
  const dist = (p, lane) => Math.min(...lane.pts.slice(1).map((q, i) => seg(p, lane.pts[i], q)));
  const cities = [...svg.querySelectorAll('a[data-city] .dot')].map(
    d => [+d.getAttribute('cx'), +d.getAttribute('cy')]);
  const step = 2 / k;
  for (let y = 40; y < 1160; y += step) {
    for (let x = 40; x < 1780; x += step) {
      const p = [x, y];
      if (cities.some(c => Math.hypot(c[0] - x, c[1] - y) * k < 16)) continue;
      const d = lanes.map(l => ({id: l.id, d: dist(p, l) * k})).sort((a, b) => a.d - b.d);
      if (d[0].d > 3 && d[0].d < 4 && d[1].d > d[0].d + 3.5 && d[1].d < d[0].d + 6
          && d[2].d > d[1].d + 6 && single(d[0].id) && single(d[1].id)) {
        return {x, y, taken: d[0].id, meant: d[1].id};
      }
    }
  }
  return null;
}"""


def _tap_just_off_a_claimed_lane(phone, table, owner: str) -> tuple[dict, str]:
    """On the whole board, a tap just off a lane that ``owner`` holds, with a free lane
    beside it (FIND_BESIDE): the spot (lane ``taken``, lane ``meant``) and the game."""
    table.new_game("europe", FOUR)
    table.whole_board()
    spot = phone.evaluate(FIND_BESIDE)
    assert spot, "no place on the whole board lies just off a lane with another beside it"
    game = table.api_game({"variant": "europe", "players": [
        {"name": n, "color": c} for n, c in FOUR],
        "claims": [{"player": owner, "route": spot["taken"]}]})
    phone.goto(f"/games/{game}")
    table.whole_board()
    at = phone.evaluate("""([x, y]) => {
      const p = new DOMPoint(x, y).matrixTransform(document.querySelector('#board svg')
        .getScreenCTM());
      return [p.x, p.y];
    }""", [spot["x"], spot["y"]])
    with phone.expect_response(lambda r: "/routes/" in r.url):
        phone.touchscreen.tap(at[0], at[1])
    return spot, game


def test_a_tap_beside_another_players_lane_claims_the_free_lane_beside_it(
    phone, table, shot
):
    spot, game = _tap_just_off_a_claimed_lane(phone, table, "Bob")
    expect(table.lane(spot["meant"])).to_have_class(owned_by("red"))
    expect(table.lane(spot["taken"])).to_have_class(owned_by("blue"))
    expect(table.message().locator("[data-error]")).to_have_count(0)
    shot(phone, "free-lane-beside-bobs-claimed")
    ann = table.score(game)["players"][0]
    assert ann["routes"] == [spot["meant"]]
    assert phone.problems == []


def test_a_lane_claimed_by_a_tap_offers_the_lane_beside_it_to_take_instead_in_one_tap(
    phone, table, shot
):
    # Frankfurt-Paris is a double ~5 px apart on the whole board: a finger landing ~8 px off
    # where it aims takes one lane as often as the other, and the answer offers the other.
    table.new_game("europe", FOUR)
    table.tap_lane("frankfurt--paris", zoom=False)
    expect(table.lane("frankfurt--paris")).to_have_class(owned_by("red"))
    offer = phone.locator("#instead")
    expect(offer).to_contain_text("Not this one?")
    other = offer.locator('[data-instead-route="frankfurt--paris--2"]')
    expect(other).to_have_text(re.compile(r"^(upper|lower|left|right) lane$"))
    box = other.bounding_box()
    assert box["height"] >= 44 and box["y"] + box["height"] <= 844  # in view, finger-sized
    shot(phone, "other-lane-offered")
    phone.wait_for_timeout(300)  # the answer settled: the offer stays
    expect(offer).to_have_count(1)
    with phone.expect_response(lambda r: "/routes/frankfurt--paris--2" in r.url):
        other.tap()
    expect(table.lane("frankfurt--paris--2")).to_have_class(owned_by("red"))
    expect(table.lane("frankfurt--paris")).not_to_have_class(re.compile(r"\bown\b"))
    expect(table.message()).to_contain_text(
        "Ann claims Frankfurt–Paris (white) instead of Frankfurt–Paris (orange): +4 points, "
        "42 trains left.")
    expect(offer).to_have_count(0)
    shot(phone, "other-lane-taken")
    assert table.score()["players"][0]["routes"] == ["frankfurt--paris--2"]
    assert table.trains_left("Ann") == 42

    # one step: Undo brings back the lane the tap claimed
    with phone.expect_response(lambda r: "/undo" in r.url):
        phone.locator("[data-undo]").first.tap()
    expect(table.lane("frankfurt--paris")).to_have_class(owned_by("red"))
    expect(table.message()).to_contain_text("instead of")
    assert table.score()["players"][0]["routes"] == ["frankfurt--paris"]

    # another player selected: the offer made for Ann's lane goes
    table.tap_lane("berlin--frankfurt", zoom=False)
    expect(offer).to_have_count(1)
    table.select("Bob")
    expect(offer).to_have_count(0)
    assert phone.problems == []


def test_the_lane_to_take_instead_is_offered_in_french(new_table, shot):
    table = new_table(locale="fr-FR")
    phone = table.page
    table.new_game("europe", FOUR)
    table.tap_lane("frankfurt--paris", zoom=False)
    offer = phone.locator("#instead")
    expect(offer).to_contain_text("Pas celle-ci ?")
    expect(offer.locator("[data-instead-route]")).to_have_text(re.compile(r"^voie (du|de) "))
    with phone.expect_response(lambda r: "/routes/frankfurt--paris--2" in r.url):
        offer.locator('[data-instead-route="frankfurt--paris--2"]').tap()
    expect(table.message()).to_contain_text(
        "Ann prend Frankfurt–Paris (blanc) au lieu de Frankfurt–Paris (orange)")
    assert phone.problems == []


def test_a_tap_just_off_the_players_own_lane_claims_the_free_lane_beside_it(
    phone, table, shot
):
    # Ann's own lane this time: released by a tap on it, not by one that falls beside it
    spot, game = _tap_just_off_a_claimed_lane(phone, table, "Ann")
    expect(table.lane(spot["meant"])).to_have_class(owned_by("red"))
    expect(table.lane(spot["taken"])).to_have_class(owned_by("red"))
    shot(phone, "free-lane-beside-anns-own-claimed")
    assert sorted(table.score(game)["players"][0]["routes"]) == sorted(
        [spot["taken"], spot["meant"]])
    assert phone.problems == []


# A point of the whole board (screen px) 13-19 px from the nearest lane, in the open: the next
# lane over 8 px farther, no city within 30 px.
FIND_OPEN = """() => {
  const svg = document.querySelector('#board svg');
  const ctm = svg.getScreenCTM();
  const lanes = [...svg.querySelectorAll('a[data-route-id]')].map(a => ({
    id: a.dataset.routeId,
    pts: a.querySelector('polyline').getAttribute('points').trim().split(/\\s+/).map(p => {
      const [x, y] = p.split(',').map(Number);
      return new DOMPoint(x, y).matrixTransform(ctm);
    })}));
  const seg = (p, a, b) => {
    const dx = b.x - a.x, dy = b.y - a.y, l = dx * dx + dy * dy;
    const t = l ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l)) : 0;
    return Math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
  };
  const dist = (p, lane) => Math.min(...lane.pts.slice(1).map((q, i) => seg(p, lane.pts[i], q)));
  const cities = [...svg.querySelectorAll('a[data-city] .dot')].map(d => {
    const r = d.getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2};
  });
  const box = document.getElementById('viewport').getBoundingClientRect();
  for (let y = box.top + 30; y < box.bottom - 30; y += 2) {
    for (let x = box.left + 30; x < box.right - 30; x += 2) {
      if (cities.some(c => Math.hypot(c.x - x, c.y - y) < 30)) continue;
      const d = lanes.map(l => ({id: l.id, d: dist({x, y}, l)})).sort((a, b) => a.d - b.d);
      if (d[0].d > 13 && d[0].d < 19 && d[1].d > d[0].d + 8) return {x, y, lane: d[0].id};
    }
  }
  return null;
}"""


def test_a_tap_in_the_open_a_finger_and_a_half_from_a_lane_claims_it(phone, table, shot):
    table.new_game("europe", FOUR)
    table.whole_board()
    spot = phone.evaluate(FIND_OPEN)
    assert spot, "no place on the whole board lies 13-19 px from one lane only"
    with phone.expect_response(lambda r: "/routes/" in r.url):
        phone.touchscreen.tap(spot["x"], spot["y"])
    expect(table.lane(spot["lane"])).to_have_class(owned_by("red"))
    shot(phone, "lane-claimed-from-the-open")
    assert table.score()["players"][0]["routes"] == [spot["lane"]]
    assert phone.problems == []
