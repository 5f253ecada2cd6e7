"""Sharing: the QR code and read-only link, live read-only pages that cannot edit."""

from __future__ import annotations

import re


def watch_link(client, game_id: str) -> str:
    page = client.get(f"/games/{game_id}/share").text
    return re.search(r'href="http://localhost(/watch/[^"]+)" data-watch-link', page).group(1)


def test_the_share_page_has_a_qr_code_of_the_read_only_link(client, europe):
    page = client.get(f"/games/{europe}/share")
    assert page.status_code == 200
    qr = re.search(r"<figure class=\"qr\" data-qr><svg.*?</svg>", page.text, re.S)
    assert qr and "<path" in qr.group(0)
    link = watch_link(client, europe)
    assert europe not in link
    assert len(link.rsplit("/", 1)[1]) >= 20


def test_the_read_only_page_follows_the_game_and_never_shows_the_edit_link(client, europe):
    link = watch_link(client, europe)
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann"})
    page = client.get(link).text
    assert europe not in page
    assert "hx-post" not in page and 'method="post" action="/games' not in page
    assert page.count("data-route-id=") == 101
    assert re.search(r"class=\"lane [^\"]*own own-red\" data-route-id=\"paris--zurich\"", page)
    assert "every 2s" in page


def test_read_only_polling_answers_204_until_something_changes(client, europe):
    link = watch_link(client, europe)
    page = client.get(link).text
    poll = re.search(r'hx-get="([^"]+/live\?v=\d+)"', page).group(1).replace("&amp;", "&")
    assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
    client.hx(f"/games/{europe}/cities/Wien", {"player": "Bob", "mode": "stations"})
    changed = client.get(poll, headers={"HX-Request": "true"})
    assert changed.status_code == 200
    assert "has-station" in changed.text and europe not in changed.text
    assert client.get(poll).status_code == 200  # without htmx: the whole page


def test_the_read_only_token_cannot_edit(client, europe):
    share = watch_link(client, europe).rsplit("/", 1)[1]
    for url in (f"/games/{share}/routes/paris--zurich", f"/games/{share}/undo",
                f"/games/{share}/delete", f"/games/{share}/rename"):
        assert client.hx(url, {"player": "Ann", "confirm": "yes", "name": "x"}).status_code \
            == 404, url
    assert client.get(f"/games/{share}").status_code == 404
    assert client.get("/watch/" + europe).status_code == 404


def test_read_only_results(client, europe):
    link = watch_link(client, europe)
    client.hx(f"/games/{europe}/routes/paris--zurich", {"player": "Ann"})
    page = client.get(link + "/results")
    assert page.status_code == 200
    assert 'data-player="Ann"' in page.text and europe not in page.text
    assert client.get(link + "/results?player=Ann").status_code == 200
