"""The records' host view (every game of the server) through the servers as the Makefile runs
them (issue 26, item 1): never under ``make serve``, whatever the proxy headers, Host and
trusted-proxy options; under ``make run`` for the machine's own browser only, and for no request
that a proxy passed on.

Every test phone is a loopback peer, as every visitor is behind a proxy on the same machine
(nginx's ``proxy_pass http://127.0.0.1:8000``); the headers are those a proxy sends, or a client
that fakes them."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from tests.hardening.live import Phone, ServerProcess
from tests.hardening.proxy import behind_nginx, needs_nginx
from tests.web.test_records import express_file

# What a proxy adds, or a visitor writes to look like the machine itself.
ARRANGEMENTS: dict[str, dict[str, str]] = {
    "no proxy header": {},
    "X-Forwarded-For": {"X-Forwarded-For": "203.0.113.9"},
    "X-Forwarded-For of loopback": {"X-Forwarded-For": "127.0.0.1"},
    "X-Forwarded-For, two hops": {"X-Forwarded-For": "127.0.0.1, 203.0.113.9"},
    "Forwarded": {"Forwarded": "for=203.0.113.9;proto=https"},
    "Forwarded of loopback": {"Forwarded": 'for=127.0.0.1;host="127.0.0.1:8000";proto=http'},
    "X-Real-IP": {"X-Real-IP": "203.0.113.9"},
    "X-Forwarded-Proto": {"X-Forwarded-Proto": "https"},
    "X-Forwarded-Host": {"X-Forwarded-Host": "localhost"},
    "Via": {"Via": "1.1 proxy"},
    "nginx's usual set": {"X-Real-IP": "203.0.113.9", "X-Forwarded-For": "203.0.113.9",
                          "X-Forwarded-Proto": "https"},
}
LOOPBACK_HOSTS = ("127.0.0.1:{port}", "localhost:{port}", "[::1]:{port}")
OTHER_HOSTS = ("scores.example.org", "192.168.1.5:{port}")
# Options of a proxy on the same machine that ends TLS (docs/hosting.md).
TRUSTED_XFF = ('--trusted-proxy=127.0.0.1 '
               '--trusted-proxy-headers="x-forwarded-for x-forwarded-proto"')
TRUSTED_FORWARDED = '--trusted-proxy=127.0.0.1 --trusted-proxy-headers="forwarded"'
# Headers waitress removes from a peer it does not trust, before the app sees them.
REMOVED_BY_WAITRESS = {"X-Forwarded-For", "X-Forwarded-For of loopback",
                       "X-Forwarded-For, two hops", "Forwarded", "Forwarded of loopback",
                       "X-Forwarded-Proto", "X-Forwarded-Host"}


def _another_table(port: int) -> None:
    """Another table's finished game (Zoe's) on the server."""
    table = Phone(port)
    try:
        table.new_game(express_file("Zoe", "Yann"))
    finally:
        table.close()


@contextmanager
def server(tmp_path, **options) -> Iterator[int]:  # type: ignore[no-untyped-def]
    """A server as the Makefile runs it, with another table's finished game on it."""
    process = ServerProcess(tmp_path / "host.sqlite3", threads=4, **options).start()
    try:
        _another_table(process.port)
        yield process.port
    finally:
        process.stop()
    assert process.errors() == []


def scope(port: int, host: str, headers: Mapping[str, str]) -> str:
    """Whose records a new device sees at ``host`` with ``headers``: server or device."""
    phone = Phone(port)
    try:
        answer = phone.request("GET", "/records", headers={"Host": host.format(port=port),
                                                           **headers})
    finally:
        phone.close()
    assert answer.status == 200, (host, headers, answer.status)
    found = re.search(r'data-scope="(\w+)"', answer.text)
    assert found, answer.text[:300]
    # Zoe as a record, not the letters: a random token on the page (a CSRF token) may hold them
    assert ('data-record-player="Zoe"' in answer.text) is (found.group(1) == "server")
    return found.group(1)


def scopes(port: int) -> dict[tuple[str, str], str]:
    """The scope of every arrangement of proxy headers at every Host."""
    return {(name, host): scope(port, host, headers)
            for name, headers in ARRANGEMENTS.items()
            for host in LOOPBACK_HOSTS + OTHER_HOSTS}


def test_make_serve_shows_no_host_view_whatever_the_headers(tmp_path):
    # As run, and behind a same-machine proxy trusted for either kind of header.
    for options in ("", TRUSTED_XFF, TRUSTED_FORWARDED):
        with server(tmp_path / str(len(options)), options=options) as port:
            seen = scopes(port)
        assert {where for where, s in seen.items() if s != "device"} == set(), options


def test_make_run_shows_every_game_to_its_own_machine_only(tmp_path):
    with server(tmp_path, target="run") as port:
        seen = scopes(port)
    assert {where for where, s in seen.items() if s == "server"} == {
        ("no proxy header", host) for host in LOOPBACK_HOSTS}


def test_turned_on_under_waitress_a_header_only_ever_takes_the_view_away(tmp_path):
    """``TERMINUS_HOST_VIEW=true`` on waitress (make serve keeps it false): a request that
    names a proxy never gets the view, nor one whose peer a trusted proxy's header makes
    loopback. But the headers waitress removes from an untrusted peer never reach the app: the
    view then goes to every visitor of a same-machine proxy, which is why no setting of
    ``make serve`` turns it on."""
    on = {"TERMINUS_HOST_VIEW": "true"}
    with server(tmp_path / "plain", env=on) as port:
        plain = scopes(port)
    with server(tmp_path / "trusted", env=on, options=TRUSTED_XFF) as port:
        trusted = scopes(port)
    assert {where for where, s in plain.items() if s == "server"} == {
        (name, host) for name in {"no proxy header"} | REMOVED_BY_WAITRESS
        for host in LOOPBACK_HOSTS}
    # Trusted, waitress keeps X-Forwarded-For and -Proto (and takes the peer from the first):
    # the loopback address a visitor writes in them gives no view.
    kept = {"X-Forwarded-For", "X-Forwarded-For of loopback", "X-Forwarded-For, two hops",
            "X-Forwarded-Proto"}
    assert {where for where, s in trusted.items() if s == "server"} == {
        (name, host) for name in {"no proxy header"} | (REMOVED_BY_WAITRESS - kept)
        for host in LOOPBACK_HOSTS}


@needs_nginx
def test_through_nginx_no_visitor_gets_the_host_view_even_turned_on(tmp_path):
    """Through the shipped nginx configuration in front of make serve-behind-proxy: every
    visitor is a loopback peer of the app, at a loopback Host if it asks for one. The view
    stays off, and even turned on (TERMINUS_HOST_VIEW=true, which make serve never does) goes
    to nobody: nginx always writes X-Forwarded-For, which refuses it."""
    for env in ({}, {"TERMINUS_HOST_VIEW": "true"}):
        folder = tmp_path / str(len(env))
        with behind_nginx(folder, folder / "host.sqlite3", env=env) as proxied:
            _another_table(proxied.port)
            seen = scopes(proxied.port)
        assert proxied.server.errors() == []
        assert {where for where, s in seen.items() if s != "device"} == set(), env
