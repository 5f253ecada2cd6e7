"""A second photo on a phone (390 x 844): added from the review, read with the first, every
card cropping both photos, applied as the review shows it."""

from __future__ import annotations

import json
import re

from PIL import Image
from playwright.sync_api import expect

from tests.browser.test_scan_flow import SAMPLES, applied, reviewed, shown_owners
from tests.web.test_scan_photos import under_a_glare_spot


def test_a_second_photo_added_from_the_review_shows_two_crops_on_a_card(phone, table, shot,
                                                                       tmp_path):
    game_id = reviewed(phone, table)
    first_asked = phone.locator("#scan-lanes [data-doubtful]").count()
    other = tmp_path / "other-side.jpg"  # the same board from across the table, another phone
    image = Image.open(SAMPLES / "usa-01.jpg").rotate(180)
    image.resize((image.width * 3 // 5, image.height * 3 // 5)).save(other, quality=80)
    review = phone.url
    add = phone.locator("[data-add-photo]")
    add.scroll_into_view_if_needed()
    expect(add).to_contain_text("Add another photo")
    add.locator("input[type=file]").set_input_files(str(other))
    shot(phone, "add-photo")
    add.locator("button[type=submit]").tap()
    phone.wait_for_url(re.compile(re.escape(review) + "$"), timeout=60_000)
    expect(phone.locator("[data-photos]")).to_have_attribute("data-photos", "2")
    expect(phone.locator("#message")).to_contain_text("Photo added")
    assert phone.locator("#scan-lanes [data-doubtful]").count() <= first_asked
    shot(phone, "review-of-two")
    if not phone.locator("#card").count():  # nothing left in doubt: open a lane's card
        phone.goto(review + "?lane=denver--salt-lake-city--2#card")
    card = phone.locator("#card")
    crops = card.locator("[data-crop]")
    expect(crops).to_have_count(2)
    for crop in crops.all():
        box = crop.bounding_box()
        assert box and box["width"] > 100 and box["x"] + box["width"] <= 390
    card.scroll_into_view_if_needed()
    shot(phone, "two-crops")
    shown = shown_owners(phone)
    after = applied(phone, table, game_id)
    assert after == {r: owner for r, owner in shown.items() if owner}
    assert not phone.problems


def test_a_glared_photo_asks_for_one_from_another_side_on_a_phone(phone, table, shot,
                                                                  tmp_path):
    truth = json.loads((SAMPLES / "usa-01.json").read_text())
    glared = tmp_path / "glared.jpg"
    glared.write_bytes(under_a_glare_spot((SAMPLES / "usa-01.jpg").read_bytes(),
                                          truth["corners"]))
    reviewed(phone, table, photo=glared)
    notice = phone.locator("[data-glare]")
    expect(notice).to_contain_text("A glare spot lies over part of the board")
    notice.scroll_into_view_if_needed()
    box = notice.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
    # the notice sits just above the button that takes the other photo
    add = phone.locator("[data-add-photo]").bounding_box()
    assert add and 0 <= add["y"] - (box["y"] + box["height"]) <= 40
    shot(phone, "glare-notice")
    assert not phone.problems


def test_a_burnt_out_reflection_lists_its_lanes_and_applies_as_shown_on_a_phone(
        phone, table, shot, tmp_path):
    """A lamp's reflection burnt out to white over the board's middle: the review says so
    and lists the lanes under it to check, and Apply sets what the review shows."""
    truth = json.loads((SAMPLES / "usa-01.json").read_text())
    burnt = tmp_path / "burnt.jpg"
    burnt.write_bytes(under_a_glare_spot((SAMPLES / "usa-01.jpg").read_bytes(),
                                         truth["corners"], most=1.8, spread=0.05))
    game_id = reviewed(phone, table, photo=burnt)
    expect(phone.locator("[data-glare]")).to_contain_text("A glare spot lies over part")
    asked = {a.get_attribute("data-route-id")
             for a in phone.locator("#scan-lanes [data-doubtful]").all()}
    assert {"denver--kansas-city", "kansas-city--omaha"} <= asked
    shot(phone, "burnt-review")
    shown = shown_owners(phone)
    assert applied(phone, table, game_id) == {r: owner for r, owner in shown.items() if owner}
    assert not phone.problems
