"""Oversized request bodies against the production server (``make serve``'s waitress command),
alone and behind nginx (the shipped configuration, tests/hardening/proxy.py): refused with 413,
and refused before they are read whole, so that a phone cannot make the server take in (and
spool to disk) far more than a game file or a photo."""

from __future__ import annotations

import socket
import time

import pytest

from tests.hardening.databases import database
from tests.hardening.live import LOOPBACK, Phone, ServerProcess, players
from tests.hardening.proxy import behind_nginx, needs_nginx

FIFTY_MB = 50 * 1024 * 1024


@pytest.fixture(scope="module", params=["waitress", pytest.param("nginx", marks=needs_nginx)])
def server(request, tmp_path_factory):  # type: ignore[no-untyped-def]
    """What the phones talk to (its ``port``): make serve, or nginx in front of it."""
    folder = tmp_path_factory.mktemp("limits")
    if request.param == "nginx":
        with behind_nginx(folder, database(folder, "db.sqlite3")) as proxied:
            yield proxied
        return
    server = ServerProcess(database(folder, "db.sqlite3"), threads=4).start()
    yield server
    server.stop()


def raw_post(port: int, path: str, headers: dict[str, str], body: bytes,
             wait: float) -> bytes:
    """Send a request's head and ``body`` (maybe less than it announces); return what the server
    answers within ``wait`` seconds (b"" if nothing)."""
    with socket.create_connection((LOOPBACK, port), timeout=wait) as conn:
        head = "".join(f"{k}: {v}\r\n" for k, v in {"Host": f"{LOOPBACK}:{port}", **headers}
                       .items())
        conn.sendall(f"POST {path} HTTP/1.1\r\n{head}\r\n".encode() + body)
        try:
            return conn.recv(200)
        except TimeoutError:
            return b""


def test_a_game_file_over_the_limit_sent_whole_gets_413(server):
    body = b'{"variant": "usa", "pad": "' + b"x" * (1024 * 1024) + b'"}'
    answer = raw_post(server.port, "/api/games", {
        "Content-Type": "application/json", "Content-Length": str(len(body)),
        "Connection": "close"}, body, wait=10)
    assert answer.startswith(b"HTTP/1.1 413")


def test_a_chunked_game_file_over_the_limit_gets_413(server):
    chunk = b"x" * (64 * 1024)
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(6)) + b"0\r\n\r\n"
    answer = raw_post(server.port, "/api/games", {
        "Content-Type": "application/json", "Transfer-Encoding": "chunked",
        "Connection": "close"}, body, wait=10)
    assert answer.startswith(b"HTTP/1.1 413")


@pytest.mark.parametrize(("path", "ctype"), [
    ("/api/games", "application/json"),
    ("/games/{game}/routes/paris--zurich", "application/x-www-form-urlencoded"),
    ("/games/{game}/scan", "multipart/form-data; boundary=x"),
])
def test_a_body_announced_too_big_is_refused_before_it_is_sent(server, path, ctype):
    game = Phone(server.port).new_game({"variant": "europe", "players": players("Ann", "Bob")})
    start = time.monotonic()
    answer = raw_post(server.port, path.replace("{game}", game), {
        "Content-Type": ctype, "Content-Length": str(FIFTY_MB)}, b"x" * 1024, wait=1.5)
    assert answer.startswith(b"HTTP/1.1 413"), answer
    assert time.monotonic() - start < 1.5
