"""The colour-blind switch: each player's lanes told apart by more than colour, checked on a
screenshot as a player with a red-green deficiency (deuteranopia) sees it."""

import io

import numpy as np
from PIL import Image
from playwright.sync_api import expect

PLAYERS = [{"name": "Ann", "color": "red"}, {"name": "Gus", "color": "green"},
           {"name": "Bob", "color": "blue"}, {"name": "Dan", "color": "black"}]


def grey_spaces(page, route_id: str) -> np.ndarray:
    """The middle of the lane's middle space as grey levels, from a screenshot."""
    box = page.locator(f'#board [data-route-id="{route_id}"] .sp').nth(1).bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    png = page.screenshot(clip={"x": cx - 3, "y": cy - 3, "width": 6, "height": 6})
    return np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=float)


def zoom_in(page, table) -> None:
    """The lanes big on the screen, as a player zooms in to look."""
    table.bring_into_view(table.lane("berlin--warszawa").locator(".sp").nth(1))
    for _ in range(3):
        page.locator('[data-zoom="in"]').tap()
    table.bring_into_view(table.lane("berlin--warszawa").locator(".sp").nth(1))


def texture(grey: np.ndarray) -> float:
    """How much a space varies inside (a plain fill ~0, a pattern much more)."""
    return float(grey.std())


def test_with_patterns_on_red_and_green_lanes_differ_for_a_red_green_deficiency(
    phone, table, shot
):
    game_id = table.api_game({"variant": "europe", "players": PLAYERS, "claims": [
        {"player": "Ann", "route": "berlin--warszawa"},
        {"player": "Gus", "route": "berlin--warszawa--2"}]})
    cdp = phone.context.new_cdp_session(phone)
    cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": "deuteranopia"})
    phone.goto(f"/games/{game_id}")
    zoom_in(phone, table)
    red, green = grey_spaces(phone, "berlin--warszawa"), grey_spaces(phone, "berlin--warszawa--2")
    shot(phone, "deuteranopia-plain")
    # As a red-green deficiency sees them, both plain fills are alike.
    assert np.abs(red - green).mean() < 10

    with phone.expect_navigation():
        phone.locator("[data-patterns-switch]").tap()
    expect(phone.locator("main")).to_have_class("game-page patterns")
    zoom_in(phone, table)
    shot(phone, "deuteranopia-patterns")
    red, green = grey_spaces(phone, "berlin--warszawa"), grey_spaces(phone, "berlin--warszawa--2")
    # Not the same marks: white stripes across one, a white grid around the other's squares.
    assert max(texture(red), texture(green)) > 25
    assert np.abs(red - green).mean() > 20
    # Kept on this device; the switch turns it off again.
    phone.reload()
    expect(phone.locator("[data-patterns-switch]")).to_have_attribute("aria-pressed", "true")
    assert not phone.problems
