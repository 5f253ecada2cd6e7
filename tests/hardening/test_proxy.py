"""nginx in front of ``make serve`` (issue 26, item 2), with the configuration the repository
ships (``deploy/nginx``, run on loopback by ``tests/hardening/proxy.py``): what a public instance
relies on it for.

One address (127.0.0.1) misbehaves; the other tables come from another one (127.0.0.2, a client
socket bound to it), as nginx counts per address. Each test fails without the setting it is
about: ``TERMINUS_TEST_NGINX=folder`` runs them on another copy of the configuration
(docs/reliability.md)."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from scorer.boards import load_board
from tests.hardening.databases import database, on_postgres
from tests.hardening.live import (
    LOOPBACK,
    Phone,
    ServerProcess,
    makefile_variable,
    players,
    single_lanes,
)
from tests.hardening.proxy import Nginx, Trickle, behind_nginx, more_open_files, needs_nginx

pytestmark = needs_nginx

OTHER = "127.0.0.2"  # another table, as nginx sees it
# the bodies' test's own address: the module's nginx is shared, and an earlier test's 1,100
# trickling connections from 127.0.0.1 may still hold its per-address limits (a 429, not a 413)
BODIES = "127.0.0.3"
TRICKLERS = 1_100  # over make serve's 1,000 connections: alone, waitress locks every table out
TRICKLE_EVERY = 8.0  # seconds between two bytes: under every idle timeout, nginx's and waitress'
GAME = {"variant": "europe", "players": players("Ann", "Bob")}
PUBLIC = "scores.example.org"
# nginx's own limits answer before the app is asked: the PostgreSQL pass need not repeat them.
nginx_alone = pytest.mark.skipif(on_postgres(), reason="nginx's limits alone: the SQLite pass "
                                                       "runs it")


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("proxy")
    with behind_nginx(folder, database(folder)) as proxied:
        yield proxied
    assert proxied.server.errors() == []


@nginx_alone
def test_trickling_connections_from_one_address_leave_every_other_table_served(proxied):
    """1,100 connections from one address trickle a byte every 8 s: half in their request's
    head, half in the body of a complete head. nginx closes the heads (whole within 10 s),
    refuses all but 20 of the bodies (429), and another address's page and tap answer in under
    2 s all along (waitress alone: locked out for as long as they trickle)."""
    if not more_open_files(TRICKLERS + 500):
        pytest.skip(f"{TRICKLERS + 500} open files needed (ulimit -Hn)")
    table = Phone(proxied.port, source=OTHER, timeout=10).open()
    game = table.new_game(GAME)
    took: list[float] = []
    try:
        with Trickle(proxied.port, TRICKLERS, TRICKLE_EVERY) as trickle:
            while trickle.age < 2.5 * TRICKLE_EVERY:
                trickle.tick()
                table.close()  # a new connection each time, as a phone that comes to the table
                for page in (f"/games/{game}", "/"):
                    answer = table.get(page)
                    assert answer.status == 200, answer.status
                    took.append(answer.seconds)
                claim = table.post(f"/games/{game}/routes/paris--zurich", {
                    "player": "Ann", "do": "claim" if len(took) % 4 else "unclaim"})
                assert claim.status in (200, 422), claim.status
                took.append(claim.seconds)
                time.sleep(0.5)
            trickle.tick()
    finally:
        table.close()
    assert max(took) < 2, sorted(took)[-5:]
    bodies = Counter(got[:12] for got in trickle.bodies.values())
    assert trickle.refused() >= len(trickle.bodies) - 20, bodies
    # A byte every 8 s renews no timer: every trickled head was closed after 10 s.
    assert trickle.open_heads() == 0, Counter(got[:12] for got in trickle.heads.values())


@nginx_alone
def test_a_flood_from_one_address_gets_429_while_another_address_is_served(proxied):
    table = Phone(proxied.port, source=OTHER).open()
    game = table.new_game(GAME)
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def flood() -> None:
        phone = Phone(proxied.port, source=LOOPBACK)
        try:
            for _ in range(300):
                status = phone.get(f"/games/{game}/live?v=0", hx=True).status
                with lock:
                    statuses[status] += 1
        finally:
            phone.close()

    floods = [threading.Thread(target=flood) for _ in range(4)]
    start = time.monotonic()
    for thread in floods:
        thread.start()
    served = []
    while any(thread.is_alive() for thread in floods):
        served.append(table.get(f"/games/{game}/live?v=0", hx=True).status)
        time.sleep(0.02)
    for thread in floods:
        thread.join()
    elapsed = time.monotonic() - start
    table.close()
    assert set(served) <= {200, 204}, Counter(served)
    assert set(statuses) <= {200, 204, 429}, statuses
    # 200 at once, then 50 a second: the rest answered by nginx, never reaching the app.
    passed = statuses[200] + statuses[204]
    assert passed <= 200 + 50 * elapsed + 10, (statuses, elapsed)
    assert statuses[429] == 1200 - passed > 600, (statuses, elapsed)


def _post(port: int, path: str, headers: dict[str, str], body: bytes,
          wait: float = 15) -> tuple[int, dict[str, str], bytes]:
    """A request sent whole (or its head and a first part of what it announces) from
    ``BODIES``: the status, headers and body of the answer."""
    conn = http.client.HTTPConnection(LOOPBACK, port, timeout=wait, source_address=(BODIES, 0))
    try:
        conn.putrequest("POST", path)
        for name, value in {"Content-Length": str(len(body)), **headers}.items():
            conn.putheader(name, value)
        conn.endheaders()
        try:
            conn.send(body)
        except (BrokenPipeError, ConnectionResetError):  # refused before it was all sent
            pass
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        conn.close()


def _photo_form(token: str, photo: bytes) -> tuple[str, bytes]:
    boundary = "terminus-proxy-test"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n"
            f"{token}\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; "
            f"filename=\"board.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n").encode()
    return (f"multipart/form-data; boundary={boundary}",
            body + photo + f"\r\n--{boundary}--\r\n".encode())


def test_photos_up_to_26_mib_pass_and_other_bodies_stay_small(proxied):
    phone = Phone(proxied.port, source=OTHER).open()
    game = phone.new_game(GAME)
    cookie = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
    phone.close()
    json_type = {"Content-Type": "application/json"}
    # A game file over the app's 256 kB, under nginx's 1 MiB: the app's own words, in JSON.
    status, _, body = _post(proxied.port, "/api/games", json_type, b"[" + b" " * 300_000)
    assert status == 413 and "error" in json.loads(body)
    # Over 1 MiB anywhere but the photo uploads: nginx refuses it.
    status, headers, body = _post(proxied.port, "/api/games", json_type, b" " * (2 << 20))
    assert status == 413 and b"nginx" in body and "json" not in headers["content-type"]
    form = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
    status, _, body = _post(proxied.port, f"/games/{game}/routes/paris--zurich", form,
                            b"a=" + b"x" * (2 << 20))
    assert status == 413 and b"nginx" in body
    # A photo of 25 MiB (the app's limit) reaches the app, which reads its first bytes: not an
    # image, 415.
    kind, photo = _photo_form(phone.token, b"not a photo".ljust(25 << 20, b"x"))
    assert len(photo) > 25 << 20
    upload = {"Content-Type": kind, "Cookie": cookie}
    status, _, body = _post(proxied.port, f"/games/{game}/scan", upload, photo, wait=60)
    assert status == 415 and b"not an image we can read" in body, (status, body[:300])
    # Over 26 MiB, announced: refused from the head, before it is sent.
    start = time.monotonic()
    status, _, body = _post(proxied.port, f"/games/{game}/scan",
                            {**upload, "Content-Length": str(27 << 20)}, b"x" * 1024)
    assert status == 413 and b"nginx" in body and time.monotonic() - start < 2


def test_the_app_takes_the_client_address_and_scheme_from_nginx_only(tmp_path):
    """Behind nginx, make serve-behind-proxy counts new games per client address (nginx's
    X-Forwarded-For), not all under nginx's own 127.0.0.1; a scheme or an address a client
    writes in its own headers is replaced by nginx's."""
    with behind_nginx(tmp_path, database(tmp_path),
                      env={"TERMINUS_GAMES_PER_HOUR": "2"}) as proxied:
        one = Phone(proxied.port, source=LOOPBACK)
        made = [one.post_json("/api/games", GAME).status for _ in range(2)]
        # Another address written in the request: still the same client.
        faked = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}
        made.append(one.request("POST", "/api/games", json.dumps(GAME).encode(),
                                {"Content-Type": "application/json", **faked}).status)
        other = Phone(proxied.port, source=OTHER)
        theirs = other.post_json("/api/games", GAME).status
        home = Phone(proxied.port, source=OTHER)
        cookies = home.request("GET", "/", headers=faked).headers["set-cookie"]
        for phone in (one, other, home):
            phone.close()
    assert made == [201, 201, 429]  # one address, whatever it writes
    assert theirs == 201  # another address has its own count
    assert "Secure" not in cookies  # plain HTTP, whatever the client says


def test_make_serve_behind_proxy_is_make_serve_trusting_nginx():
    # Under make test, make's own variables would have the inner make name its directory.
    alone = {key: value for key, value in os.environ.items()
             if key not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    printed = subprocess.run(
        ["make", "--no-print-directory", "-n", "serve-behind-proxy", "PORT=8123"],
        cwd=Path(__file__).parent.parent.parent, env=alone, capture_output=True, text=True,
        check=True).stdout
    command = printed.strip().splitlines()[-1]
    assert "waitress-serve --listen=127.0.0.1:8123" in command
    assert makefile_variable("PROXY_OPTIONS") in command


# --- the shipped site file: TLS --------------------------------------------------------------

def _certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    try:
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                        "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj",
                        f"/CN={PUBLIC}", "-addext", f"subjectAltName=DNS:{PUBLIC}",
                        "-keyout", str(key), "-out", str(cert)],
                       check=True, capture_output=True)
    except FileNotFoundError:
        pytest.skip("no openssl command to make a certificate with (apt-get install openssl)")
    return cert, key


def _https(port: int, cert: Path, path: str, name: str = PUBLIC, method: str = "GET",
           body: bytes | None = None,
           headers: dict[str, str] | None = None) -> tuple[int, dict[str, list[str]], bytes]:
    context = ssl.create_default_context(cafile=str(cert))
    conn = http.client.HTTPSConnection(name, port, context=context, timeout=10)
    raw = socket.create_connection((LOOPBACK, port), timeout=10)
    conn.sock = context.wrap_socket(raw, server_hostname=name)
    try:
        conn.request(method, path, body=body, headers={"Host": name, **(headers or {})})
        answer = conn.getresponse()
        found: dict[str, list[str]] = {}
        for key, value in answer.getheaders():
            found.setdefault(key.lower(), []).append(value)
        return answer.status, found, answer.read()
    finally:
        conn.close()


def _plain(port: int, path: str, host: str) -> bytes:
    """What nginx answers on plain HTTP (b"" if it closes the connection unanswered)."""
    got = b""
    with socket.create_connection((LOOPBACK, port), timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
                     .encode())
        try:
            while chunk := sock.recv(65536):
                got += chunk
        except ConnectionResetError:  # closed unanswered (444, reset_timedout_connection)
            pass
    return got


def test_the_site_file_ends_tls_and_the_app_knows_it(tmp_path):
    """deploy/nginx/terminus.conf as shipped, its addresses and certificate paths replaced:
    HTTPS to the public name reaches the app, which sets Secure cookies; HTTP moves to HTTPS
    but for certbot's challenges; another name gets no answer at all."""
    cert, key = _certificate(tmp_path)
    env = {"TERMINUS_PUBLIC_URL": f"https://{PUBLIC}",
           "TERMINUS_TRUSTED_HOSTS": json.dumps([PUBLIC])}
    server = ServerProcess(database(tmp_path), threads=4, env=env,
                           target="serve-behind-proxy").start()
    nginx = None
    challenge = tmp_path / "nginx" / "www" / ".well-known" / "acme-challenge"
    try:
        nginx = Nginx.site(tmp_path / "nginx", [server.port], cert, key).start()
        challenge.mkdir(parents=True)
        (challenge / "token").write_text("certbot's proof")
        status, headers, page = _https(nginx.tls_port, cert, "/")
        created, _, _ = _https(nginx.tls_port, cert, "/api/games", method="POST",
                               body=json.dumps(GAME).encode(),
                               headers={"Content-Type": "application/json",
                                        "Origin": f"https://{PUBLIC}"})
        foreign, _, _ = _https(nginx.tls_port, cert, "/api/games", method="POST",
                               body=json.dumps(GAME).encode(),
                               headers={"Content-Type": "application/json",
                                        "Origin": "https://evil.example"})
        moved = _plain(nginx.port, "/games/new?x=1", PUBLIC)
        proof = _plain(nginx.port, "/.well-known/acme-challenge/token", PUBLIC)
        unknown_http = _plain(nginx.port, "/", "evil.example")
        with pytest.raises(ssl.SSLError):
            _https(nginx.tls_port, cert, "/", name="evil.example")
        context = ssl.create_default_context(cafile=str(cert))
        context.set_alpn_protocols(["h2", "http/1.1"])
        with context.wrap_socket(socket.create_connection((LOOPBACK, nginx.tls_port)),
                                 server_hostname=PUBLIC) as tls:
            protocols = (tls.version(), tls.selected_alpn_protocol())
    finally:
        if nginx is not None:
            nginx.stop()
        server.stop()
    assert status == 200 and b"csrf_token" in page
    cookies = headers["set-cookie"]
    assert len(cookies) >= 2 and all("Secure" in cookie for cookie in cookies), cookies
    assert headers["strict-transport-security"] == ["max-age=63072000"]
    assert (created, foreign) == (201, 403)  # the API's origin rule on TERMINUS_PUBLIC_URL
    assert re.match(rb"HTTP/1.1 301", moved), moved[:200]
    assert f"Location: https://{PUBLIC}/games/new?x=1".encode() in moved
    assert proof.endswith(b"certbot's proof")
    assert unknown_http == b""
    assert protocols in {("TLSv1.3", "h2"), ("TLSv1.2", "h2")}
    assert server.errors() == []


def test_the_service_file_runs_make_serve_behind_proxy_and_systemd_reads_it(tmp_path):
    unit = Path(__file__).parent.parent.parent / "deploy" / "systemd" / "terminus@.service"
    text = unit.read_text()
    assert "ExecStart=/usr/bin/make serve-behind-proxy PORT=%i" in text
    assert int(re.search(r"^LimitNOFILE=(\d+)$", text, re.M).group(1)) >= 4096
    if not shutil.which("systemd-analyze"):
        pytest.skip("no systemd-analyze to read the service file with")
    (tmp_path / unit.name).write_text(text)
    checked = subprocess.run(["systemd-analyze", "verify", str(tmp_path / "terminus@8000.service")],
                             capture_output=True, text=True)
    assert unit.name not in checked.stdout + checked.stderr, checked.stdout + checked.stderr


# --- several app processes: a game's requests to one ----------------------------------------

def test_a_games_requests_go_to_one_process_so_a_tap_from_behind_gets_only_the_changes(
        tmp_path):
    """Two app processes behind the shipped nginx: every request of a game reaches the same
    one (the upstream hashes the game's id), which wrote the versions a phone missed, so the
    phone's tap from behind is answered with what they changed. Round robin (the upstream
    without its hash) sends the other phone's taps to both, and the tap gets the whole board."""
    where = database(tmp_path)
    europe = load_board("europe")  # lanes without a sibling: a claim redraws no other lane
    anns = [r for r in single_lanes(20) if not europe.siblings(europe.route(r))][:3]
    servers = [ServerProcess(where, threads=4, log=tmp_path / f"server-{k}.log",
                             target="serve-behind-proxy") for k in range(2)]
    nginx = None
    try:
        for server in servers:  # one after the other: the first makes the schema
            server.start()
        nginx = Nginx.plain(tmp_path / "nginx", [server.port for server in servers]).start()
        ann, bob = Phone(nginx.port).open(), Phone(nginx.port).open()
        games = [ann.new_game(GAME) for _ in range(4)]  # some on each process
        for game in games:
            first = re.search(r'data-version="(\d+)"', bob.get(f"/games/{game}").text).group(1)
            for k, lane in enumerate(anns):
                claimed = ann.post(f"/games/{game}/routes/{lane}",
                                   {"player": "Ann", "do": "claim", "v": str(k)})
                assert claimed.status == 200, claimed.text[:300]
            # Bob's page still shows the game as it began: three versions behind
            answer = bob.post(f"/games/{game}/routes/paris--zurich",
                              {"player": "Bob", "do": "claim", "v": first})
            assert answer.status == 200, answer.text[:300]
            assert set(re.findall(r'data-route-id="([^"]+)"', answer.text)) == {
                *anns, "paris--zurich"}
        ann.close()
        bob.close()
    finally:
        if nginx is not None:
            nginx.stop()
        for server in servers:
            server.stop()
    assert [line for server in servers for line in server.errors()] == []
