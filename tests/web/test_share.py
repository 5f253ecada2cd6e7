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


def test_a_share_page_asked_for_at_127_0_0_1_links_to_the_servers_network_address(app, client,
                                                                                     europe):
    app.config["LAN_URL"] = "http://192.168.1.23:8000"
    page = client.get(f"/games/{europe}/share", base_url="http://127.0.0.1:8000").text
    assert re.search(r'href="http://192\.168\.1\.23:8000/watch/[\w-]+" data-watch-link', page)
    assert 'href="http://192.168.1.23:8000/games/' in page  # the edit link too
    assert "data-share-warning" not in page


def test_a_share_page_on_this_computer_only_warns_that_the_phones_cannot_open_it(client, europe):
    page = client.get(f"/games/{europe}/share", base_url="http://127.0.0.1:8000").text
    assert "data-share-warning" in page
    assert "the other phones cannot open http://127.0.0.1:8000" in page
    french = client.get(f"/games/{europe}/share", base_url="http://localhost:8000",
                        headers={"Accept-Language": "fr"}).text
    assert "les autres téléphones ne peuvent pas ouvrir http://localhost:8000" in french


def test_a_share_page_opened_at_the_network_address_keeps_it(app, client, europe):
    app.config["LAN_URL"] = "http://192.168.1.23:8000"
    page = client.get(f"/games/{europe}/share", base_url="http://10.0.0.7:8000").text
    assert re.search(r'href="http://10\.0\.0\.7:8000/watch/[\w-]+" data-watch-link', page)
    assert "data-share-warning" not in page


def test_make_run_serves_the_wifi_and_says_where_the_phones_go():
    import subprocess
    from pathlib import Path

    from scorer.web import lan

    root = Path(__file__).resolve().parents[2]
    dry = subprocess.run(["make", "-n", "run"], cwd=root, capture_output=True, text=True).stdout
    assert "--host 0.0.0.0" in dry
    kept = subprocess.run(["make", "-n", "run", "HOST=127.0.0.1"], cwd=root,
                          capture_output=True, text=True).stdout
    assert "--host 127.0.0.1" in kept
    message, url = lan.announce("0.0.0.0", 8000, "192.168.1.23")
    assert url == "http://192.168.1.23:8000"
    assert "Phones on this Wi-Fi open http://192.168.1.23:8000" in message
    assert "make run HOST=127.0.0.1" in message
    assert "█" in lan.terminal_qr(url)
    message, url = lan.announce("127.0.0.1", 8000, "192.168.1.23")
    assert url is None and message.startswith("Only this computer can open")
    assert lan.announce("0.0.0.0", 8000, None)[1] is None
    assert lan.is_loopback("localhost") and lan.is_loopback("::1")
    assert not lan.is_loopback("192.168.1.23")
