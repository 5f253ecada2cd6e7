"""A photo the server refuses says why on the phone (issue 16): the upload form swaps nothing
(hx-swap none), so the refusal comes back as the scan page with its message."""

from __future__ import annotations

from playwright.sync_api import expect

EPS = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n{ } loop\nshowpage\n%%EOF\n"


def test_a_file_that_is_not_a_photo_is_refused_with_a_message_on_the_page(
        phone, table, shot, tmp_path):
    game_id = table.api_game({"variant": "usa", "players": [
        {"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}]})
    drawing = tmp_path / "board.eps"
    drawing.write_bytes(EPS)
    phone.goto(f"/games/{game_id}/scan")
    phone.locator("[data-scan-photo]").set_input_files(str(drawing))
    phone.locator(".scan-form button[type=submit]").tap()
    expect(phone.locator("[data-error]")).to_contain_text(
        "not an image we can read (JPEG, PNG, WebP, HEIC)")
    assert phone.url.endswith(f"/games/{game_id}/scan")
    shot(phone, "refused")
