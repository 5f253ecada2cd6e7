"""A Switzerland game on a phone (390 x 844): the board drawn whole at its own shape, lanes
claimed by tap (a route into a country, both lanes of a double with 3 players), and a ticket to
the countries taken by tapping a city then a flag, its value shown per destination."""

from playwright.sync_api import expect

from tests.browser.test_play import owned_by

THREE = [("Ann", "red"), ("Bob", "blue"), ("Cat", "green")]


def test_a_swiss_game_made_on_a_phone_claims_lanes_and_a_country_ticket_by_tap(
    phone, table, shot
):
    game_id = table.new_game("switzerland", THREE)
    expect(phone.locator(".map-switzerland")).to_have_count(1)
    box = phone.locator("#viewport").bounding_box()
    assert box["width"] >= 320, box
    shot(phone, "opened")

    table.tap_lane("osterreich-1--st-gallen")  # 4 long, into Austria
    expect(table.lane("osterreich-1--st-gallen")).to_have_class(owned_by("red"))
    expect(table.message()).to_contain_text("Ann claims")
    table.tap_lane("zug--zurich")
    table.select("Bob")
    table.tap_lane("zug--zurich--2")  # the other lane: open with 3 players
    expect(table.lane("zug--zurich--2")).to_have_class(owned_by("blue"))
    shot(phone, "claimed")
    assert (table.trains_left("Ann"), table.trains_left("Bob")) == (35, 39)

    table.select("Ann")
    table.mode("ticket")
    table.tap_city("Zürich")
    expect(table.message()).to_contain_text("Zürich: now tap the ticket's other city")
    table.tap_city("Österreich 1")  # a flag: the country
    shot(phone, "ticket")
    expect(table.message()).to_contain_text(
        "Ann takes the ticket Zürich–France / Deutschland / Österreich / Italia")
    # Ann's St. Gallen-Austria route joins no Zürich: the ticket loses its lowest value, 3
    expect(table.tickets_of("Ann")).to_contain_text("Zürich – France / Deutschland")
    expect(table.tickets_of("Ann").locator("[data-ticket-points]")).to_have_text("−3")
    sheet = table.score(game_id)
    assert [p["route_points"] for p in sheet["players"][:2]] == [7 + 1, 1]
    assert phone.problems == []
