"""Slow and idle clients (issue 16): the production server (``make serve``'s waitress command,
as a child process), alone and behind nginx (the shipped configuration), keeps answering the
tables while hundreds of connections sit on half-sent requests, and closes such connections
once they stay silent. Connections that trickle: test_proxy.py."""

from __future__ import annotations

import socket
import time

from tests.hardening.live import LOOPBACK, Phone, ServerProcess, serve_command
from tests.hardening.proxy import behind_nginx, needs_nginx

HALF_SENT = 300  # connections: three times waitress' default limit, which locked everyone out


def _half_sent(port: int, count: int) -> list[socket.socket]:
    held = []
    for _ in range(count):
        sock = socket.create_connection((LOOPBACK, port), timeout=5)
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n")
        held.append(sock)
    return held


def _half_sent_lock_nobody_out(port: int) -> None:
    held: list[socket.socket] = []
    try:
        held = _half_sent(port, HALF_SENT)
        start = time.monotonic()
        phone = Phone(port, timeout=10)
        try:
            answer = phone.get("/")
        finally:
            phone.close()
        took = time.monotonic() - start
    finally:
        for sock in held:
            sock.close()
    assert answer.status == 200
    assert took < 3, took


def test_hundreds_of_half_sent_requests_do_not_lock_the_tables_out(tmp_path):
    server = ServerProcess(tmp_path / "slow.sqlite3", threads=4).start()
    try:
        _half_sent_lock_nobody_out(server.port)
    finally:
        server.stop()


@needs_nginx
def test_hundreds_of_half_sent_requests_through_nginx_lock_nobody_out(tmp_path):
    with behind_nginx(tmp_path, tmp_path / "slow.sqlite3") as proxied:
        _half_sent_lock_nobody_out(proxied.port)


def test_the_server_closes_silent_connections_and_takes_many():
    _env, command = serve_command(4)
    options = dict(word.split("=", 1) for word in command if word.startswith("--") and "=" in word)
    assert int(options["--connection-limit"]) >= 1000
    assert int(options["--channel-timeout"]) <= 30
    assert "--asyncore-use-poll" in command  # select() stops at 1,024 descriptors
