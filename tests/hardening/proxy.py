"""nginx in front of ``make serve``, for the tests: the configuration the repository ships
(``deploy/nginx``) run unprivileged (no port under 1024, nothing under /etc or /var) on loopback
ports, in a temporary prefix of its own.

``Nginx.plain(folder, ports)`` serves the shipped server settings (``terminus-server.conf``,
with ``terminus-http.conf``) over plain HTTP; ``Nginx.site(folder, ports, cert, key)`` serves the
shipped site file (``terminus.conf``: TLS, the redirect from HTTP, the server that closes unknown
names) with only its addresses and paths replaced. ``behind_nginx`` starts ``make
serve-behind-proxy``'s server and nginx in front of it. Tests that need nginx are marked
``needs_nginx``: skipped, saying why, where it is not installed (``.ci/run`` installs it).
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.hardening.live import LOOPBACK, ROOT, ServerProcess

NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.path.exists(p)), None)
needs_nginx = pytest.mark.skipif(
    NGINX is None, reason="nginx is not installed (apt-get install nginx; .ci/run installs it)")
# TERMINUS_TEST_NGINX names another copy of the folder: a setting taken out there must make
# its test fail (docs/reliability.md).
DEPLOY = Path(os.environ.get("TERMINUS_TEST_NGINX") or ROOT / "deploy" / "nginx").resolve()
# The settings docs/hosting.md gives for /etc/nginx/nginx.conf (Debian's 768 connections would
# let 1,100 trickling heads fill nginx itself).
WORKER_CONNECTIONS = 4096
WORKER_RLIMIT_NOFILE = 8192


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])


def upstream(ports: Sequence[int]) -> str:
    """terminus.conf's upstream block, its servers the given loopback ports."""
    block = re.search(r"^upstream terminus \{.*?^\}", (DEPLOY / "terminus.conf").read_text(),
                      re.M | re.S)
    assert block, "no upstream terminus block in deploy/nginx/terminus.conf"
    servers = "".join(f"    server {LOOPBACK}:{port};\n" for port in ports)
    text, count = re.subn(r"^\s*server 127\.0\.0\.1:8000;\n", servers, block.group(0),
                          flags=re.M)
    assert count == 1, block.group(0)
    return text


def _replace(text: str, old: str, new: str, flags: int = re.M) -> str:
    """``text`` with every ``old`` (a regular expression) replaced; it must be there."""
    text, count = re.subn(old, new, text, flags=flags)
    assert count, f"{old!r} is no longer in deploy/nginx/terminus.conf"
    return text


@dataclass
class Nginx:
    """One nginx (a master and one worker) in ``folder``, serving ``http`` (the body of its
    http block, with ``@PORT@`` and ``@TLS_PORT@`` for the ports it listens on)."""

    folder: Path
    http: str
    port: int = 0
    tls_port: int = 0
    process: subprocess.Popen[bytes] | None = None

    @classmethod
    def plain(cls, folder: Path, ports: Sequence[int]) -> Nginx:
        """The shipped server settings over plain HTTP, in front of the app's ``ports``."""
        http = (f"include {DEPLOY}/terminus-http.conf;\n{upstream(ports)}\n"
                f"server {{\n    listen {LOOPBACK}:@PORT@;\n"
                f"    include {DEPLOY}/terminus-server.conf;\n}}\n")
        return cls(folder, http)

    @classmethod
    def site(cls, folder: Path, ports: Sequence[int], cert: Path, key: Path) -> Nginx:
        """The shipped site file, its addresses and paths replaced: HTTP on ``port``, HTTPS on
        ``tls_port``, the certificate given, the app's ``ports``."""
        text = (DEPLOY / "terminus.conf").read_text()
        text = _replace(text, r"^upstream terminus \{.*?^\}", "UPSTREAM", re.M | re.S)
        text = text.replace("UPSTREAM", upstream(ports))
        text = _replace(text, r"^\s*listen \[::\].*\n", "")  # IPv6 may be off on the machine
        text = _replace(text, r"listen 80( default_server)?;", rf"listen {LOOPBACK}:@PORT@\1;")
        text = _replace(text, r"listen 443 ssl", f"listen {LOOPBACK}:@TLS_PORT@ ssl")
        text = _replace(text, r"/etc/nginx/terminus/", f"{DEPLOY}/")
        text = _replace(text, r"/etc/letsencrypt/live/scores\.example\.org/fullchain\.pem",
                        str(cert))
        text = _replace(text, r"/etc/letsencrypt/live/scores\.example\.org/privkey\.pem",
                        str(key))
        text = _replace(text, r"root /var/www/html;", f"root {folder / 'www'};")
        return cls(folder, text)

    def config(self) -> str:
        prefix = self.folder
        user = "user root;\n" if os.geteuid() == 0 else ""  # workers must reach the prefix
        temp = "".join(f"{kind}_temp_path {prefix / kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        return (f"daemon off;\nworker_processes 1;\n{user}"
                f"worker_rlimit_nofile {WORKER_RLIMIT_NOFILE};\n"
                f"pid {prefix / 'nginx.pid'};\nerror_log {prefix / 'error.log'} info;\n"
                f"events {{\n    worker_connections {WORKER_CONNECTIONS};\n}}\n"
                f"http {{\n{temp}access_log {prefix / 'access.log'};\n"
                + self.http.replace("@PORT@", str(self.port))
                .replace("@TLS_PORT@", str(self.tls_port)) + "}\n")

    def start(self, timeout: float = 15.0) -> Nginx:
        assert NGINX, "nginx is not installed"
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "www").mkdir(exist_ok=True)
        for attempt in range(3):  # a free port may be taken again before nginx binds it
            self.port, self.tls_port = free_port(), free_port()
            conf = self.folder / "nginx.conf"
            conf.write_text(self.config())
            with open(self.folder / "nginx.out", "ab") as out:
                self.process = subprocess.Popen(
                    [NGINX, "-p", f"{self.folder}/", "-e", str(self.folder / "error.log"),
                     "-c", str(conf)], stdout=out, stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and self.process.poll() is None:
                try:
                    socket.create_connection((LOOPBACK, self.port), timeout=1).close()
                    return self
                except OSError:
                    time.sleep(0.05)
            self.stop()
            if "Address already in use" not in self.log() or attempt == 2:
                break
        raise RuntimeError(f"nginx did not start: {self.log()[-2000:]}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # fast shutdown: connections dropped
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)

    def log(self) -> str:
        return "".join(path.read_text("utf-8", "replace")
                       for path in (self.folder / "nginx.out", self.folder / "error.log")
                       if path.exists())


@dataclass
class Proxied:
    """make serve-behind-proxy and nginx in front of it: ``port`` is nginx's."""

    server: ServerProcess
    nginx: Nginx

    @property
    def port(self) -> int:
        return self.nginx.port


@contextmanager
def behind_nginx(folder: Path, database: Path | str, threads: int = 4,
                 env: Mapping[str, str] | None = None) -> Iterator[Proxied]:
    """``make serve-behind-proxy`` on ``database`` with the shipped nginx settings in front
    (plain HTTP on loopback)."""
    server = ServerProcess(database, threads=threads, env=env,
                           target="serve-behind-proxy").start()
    nginx = None
    try:
        nginx = Nginx.plain(Path(folder) / "nginx", [server.port]).start()
        yield Proxied(server, nginx)
    finally:
        if nginx is not None:
            nginx.stop()
        server.stop()


def more_open_files(needed: int) -> bool:
    """Raise this process's soft limit of open files to ``needed``; False where the hard
    limit is lower."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < needed:
        return False
    if soft != resource.RLIM_INFINITY and soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    return True


class Trickle:
    """``count`` connections from ``source`` to ``port`` that trickle a byte every ``every``
    seconds (issue 26: each is never silent long enough for an idle timeout): half in their
    request's head, half in the body of a whole head (a game file). ``tick()`` sends the bytes
    that are due and reads what the server said; what each got is kept, ``CLOSED`` once the
    server closed it, with the time since the start."""

    CLOSED = b"<closed>"

    def __init__(self, port: int, count: int, every: float = 8.0,
                 source: str = LOOPBACK) -> None:
        self.heads: dict[socket.socket, bytes] = {}
        self.bodies: dict[socket.socket, bytes] = {}
        self.closed_after: dict[socket.socket, float] = {}
        self.every = every
        for i in range(count):
            sock = socket.create_connection((LOOPBACK, port), timeout=5,
                                            source_address=(source, 0))
            if i % 2:
                sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: "
                             b"application/json\r\nContent-Length: 1000\r\n\r\n{")
                self.bodies[sock] = b""
            else:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Trickle: ")
                self.heads[sock] = b""
            sock.setblocking(False)
        self.start = self.sent = time.monotonic()

    @property
    def age(self) -> float:
        return time.monotonic() - self.start

    def tick(self) -> None:
        if time.monotonic() - self.sent >= self.every:
            self.sent = time.monotonic()
            for sock in (*self.heads, *self.bodies):
                try:
                    sock.send(b"x")
                except OSError:  # closed by the server: read below
                    pass
        for socks in (self.heads, self.bodies):
            for sock in [s for s, got in socks.items() if not got.endswith(self.CLOSED)]:
                try:
                    data = sock.recv(4096)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                socks[sock] += data or self.CLOSED
                if not data:
                    self.closed_after[sock] = self.age

    def refused(self) -> int:
        """Bodies answered 429 (nginx's limits)."""
        return sum(got.startswith(b"HTTP/1.1 429") for got in self.bodies.values())

    def open_heads(self) -> int:
        return sum(not got.endswith(self.CLOSED) for got in self.heads.values())

    def close(self) -> None:
        for sock in (*self.heads, *self.bodies):
            sock.close()

    def __enter__(self) -> Trickle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
