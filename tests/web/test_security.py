"""CSRF tokens, escaping, size limits, unguessable ids, response headers."""

from __future__ import annotations

import re

from tests.web.conftest import players


def test_a_form_post_without_the_token_is_refused_and_changes_nothing(client, europe):
    for data, headers in (({}, {}), ({"csrf_token": "forged"}, {}),
                          ({}, {"X-CSRF-Token": "forged", "HX-Request": "true"})):
        answer = client.raw.post(f"/games/{europe}/routes/paris--zurich",
                                 data={"player": "Ann", **data}, headers=headers)
        assert answer.status_code == 400
        assert "expired" in answer.text
    assert client.get(f"/api/games/{europe}/score").get_json()["players"][0]["routes"] == []


def test_every_post_form_carries_the_token_and_htmx_sends_it_in_a_header(client, europe):
    page = client.get(f"/games/{europe}").text
    forms = re.findall(r'<form[^>]*method="post"[^>]*>(.*?)</form>', page, re.S)
    assert forms
    assert all(f'name="csrf_token" value="{client.token}"' in form for form in forms)
    assert f'hx-headers=\'{{"X-CSRF-Token": "{client.token}"}}\'' in page


def test_every_htmx_request_has_a_plain_fallback(client, europe):
    for url in ("/", f"/games/{europe}", f"/games/{europe}/results", "/games/new"):
        page = client.get(url).text
        for tag in re.findall(r"<(?:form|a|button|div|input)\b[^>]*\bhx-(?:post|get)=[^>]*>", page):
            if tag.startswith("<form"):
                assert "action=" in tag and "method=" in tag, tag
            elif tag.startswith("<a"):
                assert "href=" in tag, tag
            else:
                raise AssertionError(f"hx request on an element without fallback: {tag}")


def test_names_are_escaped_everywhere(client):
    game = client.api_game({"variant": "usa",
                            "players": players("<script>x</script>:red", "B&B:blue")})
    for url in (f"/games/{game}", f"/games/{game}/results", "/"):
        page = client.get(url).text
        assert "<script>x</script>" not in page
        assert "&lt;script&gt;x&lt;/script&gt;" in page


def test_oversized_bodies_are_refused(client):
    answer = client.raw.post("/api/games", data=b"{" + b" " * 400_000 + b"}",
                             content_type="application/json")
    assert answer.status_code == 413
    assert "error" in answer.get_json()


def test_pages_send_protective_headers(client):
    headers = client.get("/").headers
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"


def test_game_ids_are_long_random_tokens(client):
    ids = {client.api_game({"variant": "usa", "players": players("A:red", "B:blue")})
           for _ in range(3)}
    assert len(ids) == 3 and all(len(i) >= 20 for i in ids)


def test_pages_load_htmx_from_the_site_itself(client):
    page = client.get("/").text
    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert scripts and all(s.startswith("/static/") for s in scripts)
    htmx = next(s for s in scripts if "htmx" in s)
    assert re.search(r"htmx-\d+\.\d+\.\d+\.min\.js(\?v=[0-9a-f]+)?$", htmx)
    assert client.get(htmx).status_code == 200


def test_pages_need_nothing_from_another_site(client, europe):
    """Tables have bad Wi-Fi: no CDN, no font or script from elsewhere."""
    for url in ("/", "/games/new", f"/games/{europe}", f"/games/{europe}/results"):
        page = client.get(url).text
        assert not re.findall(r'(?:src|href)="(?:https?:)?//', page), url
    css = client.get("/static/app.css").text
    assert "url(" not in css and "@import" not in css
