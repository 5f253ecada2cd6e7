"""What a phone downloads: answers compressed, static files named by content and kept."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import brotli


def test_pages_and_tap_answers_are_compressed_for_slow_wifi(client, europe):
    page = client.get(f"/games/{europe}", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert page.headers["Content-Encoding"] == "br"
    html = brotli.decompress(page.data).decode()
    assert html.count("data-route-id=") == 101
    assert len(page.data) < len(html) / 5
    tap = client.raw.post(f"/games/{europe}/routes/paris--zurich", data={"player": "Ann"},
                          headers={"HX-Request": "true", "X-CSRF-Token": client.token,
                                   "Accept-Encoding": "gzip"})
    assert tap.headers["Content-Encoding"] == "gzip"
    assert "own-red" in gzip.decompress(tap.data).decode()
    plain = client.get(f"/games/{europe}")
    assert "Content-Encoding" not in plain.headers
    assert "Accept-Encoding" in plain.headers["Vary"]


def test_a_game_page_and_its_files_weigh_under_60_kb_on_a_phone(client, europe):
    accept = {"Accept-Encoding": "gzip, deflate, br"}
    page = client.get(f"/games/{europe}", headers=accept)
    html = brotli.decompress(page.data).decode()
    files = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    assert len(files) >= 3
    weight = len(page.data) + sum(len(client.get(f, headers=accept).data) for f in files)
    assert weight < 60_000, f"{weight} bytes"


def test_static_files_are_named_by_content_and_kept_for_good(client, europe):
    html = client.get(f"/games/{europe}").text
    script = re.search(r'src="(/static/app\.js\?v=[0-9a-f]{12})"', html)
    assert script, "app.js is not named by its content"
    kept = client.get(script.group(1))
    assert kept.status_code == 200
    assert "immutable" in kept.headers["Cache-Control"]
    # an old name (the file changed since) or no name is checked again, not kept
    for url in ("/static/app.js?v=000000000000", "/static/app.js"):
        again = client.get(url)
        assert again.status_code == 200
        assert "immutable" not in again.headers.get("Cache-Control", ""), url


def test_scripts_go_to_the_phone_without_their_whole_line_comments(client, europe):
    page = client.get(f"/games/{europe}").text
    src = re.search(r'src="(/static/app\.js\?v=\w+)"', page).group(1)
    script = client.get(src).get_data(as_text=True)
    assert "function queueTap(" in script
    assert not [line for line in script.splitlines() if line.lstrip().startswith("//")]
    source = Path(__file__).resolve().parents[2] / "static" / "app.js"
    assert len(script) < 0.8 * len(source.read_text(encoding="utf-8"))
