"""Faster ways in (issue 27 item 1), on a phone: a route by its two cities on the whole board,
a route typed ("par fra"), a tap on the whole board taking the likeliest lane, the next
likeliest a tap away ("Not this one?")."""

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


def test_a_city_picked_by_a_tap_meant_for_a_lane_offers_the_lanes_there(phone, table, shot):
    # On the whole board a finger aiming at a short lane's middle now and then lands on one
    # of its cities (18 of 240 routes in benchmarks/gestures.py, seeds 1-5): the lane is then
    # one tap away, as after a lane taken wrongly.
    table.new_game("europe", FOUR)
    table.whole_board()
    dot = table.city("Wien").locator(".dot").bounding_box()
    with phone.expect_response(lambda r: "/cities/Wien" in r.url):
        phone.touchscreen.tap(dot["x"] + dot["width"] / 2 + 2, dot["y"] + dot["height"] / 2 + 3)
    expect(table.city("Wien")).to_have_class(re.compile(r"\bpicked\b"))
    offer = phone.locator("#instead [data-instead-route]")
    expect(offer.first).to_be_visible()
    lanes = [b.get_attribute("data-instead-route") for b in offer.all()]
    assert lanes and all("wien" in lane for lane in lanes)
    shot(phone, "lanes-offered-by-a-city")
    with phone.expect_response(lambda r: f"/routes/{lanes[0]}" in r.url):
        offer.first.tap()
    expect(table.lane(lanes[0])).to_have_class(owned_by("red"))
    expect(phone.locator("#board a[data-city].picked")).to_have_count(0)  # the city dropped
    assert table.score()["players"][0]["routes"] == [lanes[0]]
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


# Every lane's hit line of the whole board in screen px (svg, lanes), for the searches below.
SCREEN_LANES = """  const svg = document.querySelector('#board svg');
  const ctm = svg.getScreenCTM();
  const lanes = [...svg.querySelectorAll('a[data-route-id]')].map(a => ({
    id: a.dataset.routeId, route: a.dataset.routeId.replace(/--2$/, ''),
    pts: a.querySelector('polyline').getAttribute('points').trim().split(/\\s+/).map(p => {
      const [x, y] = p.split(',').map(Number);
      return new DOMPoint(x, y).matrixTransform(ctm);
    })}));
"""


# A point of the whole board about as near two lanes of different routes (screen px), found
# on the page: the lanes' hit lines in screen coordinates, a grid of points over the map.
FIND_BETWEEN = "() => {\n" + SCREEN_LANES + """  const seg = (p, a, b) => {
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


def test_a_tap_between_lanes_of_two_routes_claims_one_and_offers_the_other_instead(
    phone, table, shot
):
    # As near one lane as the other, the tap says nothing about which was meant: asking
    # (the place magnified, a tap on the lane there) cost a second tap every time, one lane
    # taken with the other a tap away costs it one time in two.
    table.new_game("europe", FOUR)
    table.whole_board()
    spot = phone.evaluate(FIND_BETWEEN)
    assert spot, "no place on the whole board lies between two routes' lanes"
    with phone.expect_response(lambda r: "/routes/" in r.url):
        phone.touchscreen.tap(spot["x"], spot["y"])
    expect(phone.locator("#board a.own")).to_have_count(1)
    expect(phone.locator("#lane-choice")).to_have_count(0)
    claimed = table.score()["players"][0]["routes"]
    assert len(claimed) == 1 and claimed[0] in spot["lanes"]
    other = next(lane for lane in spot["lanes"] if lane != claimed[0])
    offered = phone.locator(f'#instead [data-instead-route="{other}"]')
    expect(offered).to_be_visible()
    shot(phone, "between-two-routes-one-taken")
    with phone.expect_response(lambda r: f"/routes/{other}" in r.url):
        offered.tap()
    expect(table.lane(other)).to_have_class(owned_by("red"))
    assert table.score()["players"][0]["routes"] == [other]
    assert phone.problems == []


# A point of the whole board (screen px) near the end of a lane A and a little farther from
# the middle of a lane B of another route, in the open (no city within a finger, no third
# lane near): the finger was nearest A, but a player aiming at A's middle lands there far
# less often than one aiming at B's.
FIND_END_BESIDE_MIDDLE = "() => {\n" + SCREEN_LANES + """
  // distance to the lane, and how far along it (0-1) its nearest point lies
  const near = (p, lane) => {
    let best = {d: Infinity, at: 0}, run = 0;
    const len = lane.pts.slice(1).reduce((s, q, i) => s + Math.hypot(q.x - lane.pts[i].x,
                                                                      q.y - lane.pts[i].y), 0);
    lane.pts.slice(1).forEach((b, i) => {
      const a = lane.pts[i], dx = b.x - a.x, dy = b.y - a.y, l = dx * dx + dy * dy;
      const t = l ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l)) : 0;
      const d = Math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
      if (d < best.d) best = {d, at: (run + t * Math.sqrt(l)) / len};
      run += Math.sqrt(l);
    });
    return best;
  };
  const cities = [...svg.querySelectorAll('a[data-city] .dot')].map(d => {
    const r = d.getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2};
  });
  const box = document.getElementById('viewport').getBoundingClientRect();
  for (let y = box.top + 20; y < box.bottom - 20; y += 1) {
    for (let x = box.left + 20; x < box.right - 20; x += 1) {
      const p = {x, y};
      if (cities.some(c => Math.hypot(c.x - x, c.y - y) < 10)) continue;
      const d = lanes.map(l => ({id: l.id, route: l.route, ...near(p, l)}))
        .sort((a, b) => a.d - b.d);
      const [a, b, c] = d;
      if (a.d > 2.5 && a.d < 4 && (a.at < 0.15 || a.at > 0.85) && b.route !== a.route
          && b.d > a.d + 1 && b.d < a.d + 3 && Math.abs(b.at - 0.5) < 0.1 && c.d > b.d + 6) {
        return {x, y, end: a.id, middle: b.id};
      }
    }
  }
  return null;
}"""


def test_a_tap_near_one_lanes_end_and_a_little_farther_from_anothers_middle_claims_that_one(
    phone, table, shot
):
    table.new_game("europe", FOUR)
    table.whole_board()
    spot = phone.evaluate(FIND_END_BESIDE_MIDDLE)
    assert spot, "no place on the whole board lies by a lane's end and another's middle"
    with phone.expect_response(lambda r: f"/routes/{spot['middle']}" in r.url):
        phone.touchscreen.tap(spot["x"], spot["y"])
    expect(table.lane(spot["middle"])).to_have_class(owned_by("red"))
    # the nearer lane, a tap away
    expect(phone.locator(f'#instead [data-instead-route="{spot["end"]}"]')).to_be_visible()
    shot(phone, "middle-beside-an-end-taken")
    assert table.score()["players"][0]["routes"] == [spot["middle"]]
    assert phone.problems == []


def test_the_offer_to_take_another_lane_keeps_off_the_whole_board(phone, table, shot):
    # At the bottom of the screen it covered the south of the whole map, and a tap meant for
    # a lane there took a lane from the offer instead.
    table.new_game("europe", FOUR)
    table.tap_lane("wien--zagrab", zoom=False)
    offer = phone.locator("#instead")
    expect(offer.locator("[data-instead-route]")).to_have_count(4)
    shot(phone, "offer-under-the-map")
    board, row = phone.locator("#viewport").bounding_box(), offer.bounding_box()
    assert row["y"] >= board["y"] + board["height"] or row["y"] + row["height"] <= board["y"]
    assert row["y"] + row["height"] <= 844
    for button in offer.locator("[data-instead-route]").all():
        assert button.bounding_box()["height"] >= 44  # finger-sized
    assert phone.problems == []


# On the whole board, a lane ("tap") whose middle printed space has a lane of a double
# ("other") nearest after its own, within 12 px, the double's other lane ("held") left out:
# with "held" Ann's, a tap on "tap" used to offer "other".
NEAR_A_DOUBLE = """() => {
  const svg = document.querySelector('#board svg'), ctm = svg.getScreenCTM();
  const lanes = [...svg.querySelectorAll('a[data-route-id]')].map(a => ({
    el: a, id: a.dataset.routeId, route: a.dataset.routeId.replace(/--2$/, ''),
    pts: a.querySelector('polyline').getAttribute('points').trim().split(/\\s+/).map(p => {
      const [x, y] = p.split(',').map(Number); return new DOMPoint(x, y).matrixTransform(ctm);
    })}));
  const seg = (p, a, b) => {
    const dx = b.x - a.x, dy = b.y - a.y, l = dx * dx + dy * dy;
    const t = l ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l)) : 0;
    return Math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
  };
  const dist = (p, lane) => Math.min(...lane.pts.slice(1).map((q, i) => seg(p, lane.pts[i], q)));
  for (const tap of lanes) {
    const spaces = tap.el.querySelectorAll('.sp');
    const r = spaces[Math.floor(spaces.length / 2)].getBoundingClientRect();
    const p = {x: r.x + r.width / 2, y: r.y + r.height / 2};
    for (const held of lanes) {
      const other = lanes.find(l => l !== held && l.route === held.route);
      if (!other || held.route === tap.route) continue;
      const near = lanes.filter(l => l !== tap && l !== held)
        .map(l => ({id: l.id, d: dist(p, l)})).sort((a, b) => a.d - b.d)[0];
      if (near.id === other.id && near.d < 12) {
        return {tap: tap.id, held: held.id, other: other.id};
      }
    }
  }
  return null;
}"""


def test_the_other_lane_of_a_double_the_player_holds_is_not_offered(phone, table, shot):
    # One player may never own both lanes of a double: its other lane is no lane for Ann to
    # take instead once she holds one.
    table.new_game("europe", FOUR)
    table.whole_board()
    spot = phone.evaluate(NEAR_A_DOUBLE)
    assert spot, "no lane's middle lies next to a lane of a double"
    game = table.api_game({"variant": "europe", "players": [
        {"name": n, "color": c} for n, c in FOUR],
        "claims": [{"player": "Ann", "route": spot["held"]}]})
    phone.goto(f"/games/{game}")
    table.tap_lane(spot["tap"], zoom=False)
    expect(table.lane(spot["tap"])).to_have_class(owned_by("red"))
    offer = phone.locator("#instead [data-instead-route]")
    expect(offer.first).to_be_visible()
    # (read at once: the offer goes by itself after a while)
    offered = [b.get_attribute("data-instead-route") for b in offer.all()]
    assert offered and spot["other"] not in offered
    assert sorted(table.score(game)["players"][0]["routes"]) == sorted(
        [spot["held"], spot["tap"]])
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
    expect(offer.locator('[data-instead-route="frankfurt--paris--2"]')).to_have_text(
        re.compile(r"^voie (du|de) "))
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
