"""A real server on loopback and phones that talk to it over HTTP, for the hardening tests
and the benchmarks.

``thread_server(app)`` runs waitress (the production server of ``make serve``) in a thread of
the test process; ``ServerProcess`` runs it as a child process on its own database, to be killed
and restarted. A ``Phone`` is one HTTP client with its own keep-alive connection, session cookie
and CSRF token, posting forms the way htmx does. Only loopback is ever addressed.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from scorer.boards import load_board

LOOPBACK = "127.0.0.1"
ROOT = Path(__file__).resolve().parent.parent.parent
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
VERSION = re.compile(r'id="status" class="status" data-version="(\d+)"')


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes  # decompressed
    seconds: float
    wire: int = 0  # bytes of the body as sent

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def version(self) -> int | None:
        """The game version a page or live partial shows (``data-version`` of the status)."""
        found = VERSION.search(self.text)
        return int(found.group(1)) if found else None


@dataclass
class Phone:
    """One browser: a keep-alive connection, its cookies, and the CSRF token of its session.
    ``source``: the loopback address it connects from (127.0.0.2...: another client, as a proxy
    in front sees it); ``headers``: sent with every request (``Accept-Encoding`` as a browser
    sends it: the answers are then decompressed, their size on the wire kept)."""

    port: int
    timeout: float = 15.0
    source: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)
    token: str = ""
    _conn: http.client.HTTPConnection | None = None

    def open(self) -> Phone:
        """Load the home page, as a phone does first: the session and its CSRF token."""
        page = self.get("/")
        found = TOKEN.search(page.text)
        assert page.status == 200 and found, (page.status, page.text[:200])
        self.token = found.group(1)
        return self

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: Mapping[str, str] | None = None) -> Answer:
        sent = {"Host": f"{LOOPBACK}:{self.port}", **self.headers, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in (1, 2):
            if self._conn is None:
                self._conn = http.client.HTTPConnection(
                    LOOPBACK, self.port, timeout=self.timeout,
                    source_address=(self.source, 0) if self.source else None)
            start = time.perf_counter()
            try:
                self._conn.request(method, path, body=body, headers=sent)
                response = self._conn.getresponse()
                data = response.read()
            except (ConnectionError, http.client.RemoteDisconnected,
                    http.client.CannotSendRequest, http.client.BadStatusLine):
                # The server closed an idle keep-alive connection: open a new one, once.
                self.close()
                if attempt == 2:
                    raise
                continue
            seconds = time.perf_counter() - start
            if response.will_close:
                self.close()
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            wire = len(data)
            encoding = response.headers.get("Content-Encoding") if data else None
            if encoding == "gzip":
                data = gzip.decompress(data)
            elif encoding == "br":
                import brotli  # Flask-Compress's dependency

                data = brotli.decompress(data)
            return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                          data, seconds, wire)
        raise AssertionError("unreachable")

    def get(self, path: str, hx: bool = False) -> Answer:
        return self.request("GET", path, headers={"HX-Request": "true"} if hx else None)

    def post(self, path: str, fields: Mapping[str, str] | None = None, *, hx: bool = True,
             token: bool = True) -> Answer:
        """A form post: as htmx sends it (token in a header) or as a plain form."""
        data = dict(fields or {})
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        if hx:
            headers["HX-Request"] = "true"
            if token:
                headers["X-CSRF-Token"] = self.token
        elif token:
            data.setdefault("csrf_token", self.token)
        return self.request("POST", path, urlencode(data).encode(), headers)

    def post_json(self, path: str, document: Any) -> Answer:
        body = document if isinstance(document, bytes) else json.dumps(document).encode()
        return self.request("POST", path, body, {"Content-Type": "application/json"})

    def new_game(self, game_file: Mapping[str, Any]) -> str:
        answer = self.post_json("/api/games", game_file)
        assert answer.status == 201, answer.text
        return answer.json()["id"]


def players(*names: str) -> list[dict[str, str]]:
    colors = ("red", "blue", "green", "yellow", "black")
    return [{"name": n, "color": c} for n, c in zip(names, colors, strict=False)]


def single_lanes(count: int, board_name: str = "europe") -> list[str]:
    """Short routes (1-2 trains), one lane per pair of cities: no claim can close another."""
    board = load_board(board_name)
    seen: set[frozenset[str]] = set()
    lanes = []
    for route in sorted(board.routes.values(), key=lambda r: (r.length, r.id)):
        pair = frozenset((route.a, route.b))
        if pair not in seen and route.length <= 2:
            seen.add(pair)
            lanes.append(route.id)
    assert len(lanes) >= count
    return lanes[:count]


@contextmanager
def thread_server(app: Any, threads: int = 8, **options: Any) -> Iterator[int]:
    """Serve ``app`` with waitress on a free loopback port in a daemon thread; yields the port.
    ``options``: more of waitress' settings (``trusted_proxy``...)."""
    from waitress.server import create_server

    server = create_server(app, host=LOOPBACK, port=0, threads=threads,
                           **{"channel_timeout": 30, **options})
    closing = threading.Event()

    def run() -> None:
        try:
            server.run()
        except (OSError, ValueError):  # the sockets closed under select() on shutdown
            if not closing.is_set():
                raise

    runner = threading.Thread(target=run, name="waitress", daemon=True)
    runner.start()
    try:
        yield int(server.effective_port)
    finally:
        closing.set()
        server.task_dispatcher.shutdown(timeout=5)
        try:
            server.trigger.pull_trigger(server.close)  # closed by the loop thread itself
        except OSError:  # the loop had already closed its trigger (EBADF): nothing to wake
            pass
        runner.join(5)


def _recipe(target: str, program: str, **values: str) -> tuple[dict[str, str], list[str]]:
    """The line of the Makefile's ``target`` that runs ``program``, its variables replaced
    (``values`` first): the environment assignments written before the program
    (``VAR=value program ...``) and the program's arguments."""
    makefile = (ROOT / "Makefile").read_text()
    variables = dict(re.findall(r"^(\w+)[ \t]*[:?]?=[ \t]*(.*?)[ \t]*$", makefile, re.M))
    variables.update(values)
    recipe = re.search(rf"^{target}:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert recipe, f"no {target} target in the Makefile"
    line = next(ln for ln in recipe.group(1).splitlines() if program in ln)
    line = re.sub(r"\$\((\w+)\)", lambda m: variables.get(m.group(1), ""), line)
    words = shlex.split(line.strip())
    at = next(i for i, w in enumerate(words) if w.endswith(program))
    env = dict(w.split("=", 1) for w in words[:at] if re.match(r"\w+=", w))
    return env, words[at + 1:]


def makefile_variable(name: str) -> str:
    """A variable the Makefile sets (``PROXY_OPTIONS``...), as written there."""
    makefile = (ROOT / "Makefile").read_text()
    found = re.search(rf"^{name}[ \t]*[:?]?=[ \t]*(.*?)[ \t]*$", makefile, re.M)
    assert found, f"no {name} in the Makefile"
    return found.group(1)


def serve_command(threads: int, options: str = "") -> tuple[dict[str, str], list[str]]:
    """The waitress-serve command of the Makefile's ``serve`` target, on a free loopback port,
    with the environment assignments written before it (``VAR=value waitress-serve ...``): the
    tests and benchmarks run the production server with the options the Makefile gives.
    ``options``: SERVE_OPTIONS, as given to make."""
    env, arguments = _recipe("serve", "waitress-serve", HOST=LOOPBACK, PORT="0",
                             THREADS=str(threads), SERVE_OPTIONS=options)
    return env, [sys.executable, "-m", "waitress", *arguments]


def python_command(target: str, **values: str) -> tuple[dict[str, str], list[str]]:
    """The command of a Makefile target that runs the venv's python (``run``, ``backup``,
    ``restore``), ``values`` given to make, with its environment assignments."""
    env, arguments = _recipe(target, "/python", **values)
    return env, [sys.executable, *arguments]


def run_command() -> tuple[dict[str, str], list[str]]:
    """The command of the Makefile's ``run`` target (the table's own server, Flask's), on a
    free loopback port, with its environment assignments."""
    return python_command("run", RUN_HOST=LOOPBACK, PORT="0")


class ServerProcess:
    """``make serve``'s waitress-serve command as a child process on a free loopback port and
    its own database: a SQLite file (TERMINUS_DATABASE) or a ``postgresql://`` URL
    (DATABASE_URL), which several server processes may share. ``options``: make serve's
    SERVE_OPTIONS; ``target="run"``: ``make run``'s server instead (Flask's);
    ``target="serve-behind-proxy"``: make serve trusting nginx on this machine (PROXY_OPTIONS);
    ``factory``: another app factory for waitress to call (a benchmark's wrapper of the app)."""

    def __init__(self, database: Path | str, threads: int = 8, log: Path | None = None,
                 env: Mapping[str, str] | None = None, options: str = "",
                 target: str = "serve", factory: str | None = None) -> None:
        self.url = str(database) if str(database).startswith("postgresql://") else ""
        self.database = None if self.url else Path(database)
        self.threads = threads
        if log is None:
            folder = (Path(tempfile.mkdtemp(prefix="terminus-server-")) if self.url
                      else self.database.parent)
            log = folder / f"{self.database.stem if self.database else 'server'}.log"
        self.log = log
        self.env = dict(env or {})
        self.options = options
        self.target = target
        self.factory = factory
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self, timeout: float = 30.0) -> ServerProcess:
        if self.target == "run":
            make_env, command = run_command()
        else:
            options = self.options
            if self.target == "serve-behind-proxy":
                options = f"{options} {makefile_variable('PROXY_OPTIONS')}"
            make_env, command = serve_command(self.threads, options)
        if self.factory:
            assert "scorer.web:create_app" in command, command
            command = [self.factory if w == "scorer.web:create_app" else w for w in command]
        # An inherited DATABASE_URL must not move a SQLite server to PostgreSQL.
        where = ({"DATABASE_URL": self.url} if self.url
                 else {"DATABASE_URL": "", "TERMINUS_DATABASE": str(self.database)})
        env = {**os.environ, **make_env, **where, "TERMINUS_SECRET_KEY": "hardening-secret",
               "PYTHONUNBUFFERED": "1", **self.env}
        self.log.parent.mkdir(parents=True, exist_ok=True)
        offset = self.log.stat().st_size if self.log.exists() else 0
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        deadline = time.monotonic() + timeout
        # waitress says "Serving on", Flask's server "Running on".
        pattern = re.compile(rf"(?:Serving|Running) on http://{re.escape(LOOPBACK)}:(\d+)")
        while time.monotonic() < deadline:
            found = pattern.search(self.log.read_bytes()[offset:].decode("utf-8", "replace"))
            if found:
                self.port = int(found.group(1))
                return self
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no cleanup at all, as in a power-less crash of the process."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def errors(self) -> list[str]:
        """Tracebacks the app logged (a 500 answer logs 'Exception on ...'): for each, the
        request and the exception's last line."""
        text = self.log.read_text("utf-8", "replace") if self.log.exists() else ""
        found = []
        for block in re.split(r"\n(?=\S.*Exception on )", "\n" + text)[1:]:
            lines = block.strip().splitlines()
            last = next((ln for ln in reversed(lines)
                         if re.match(r"\w[\w.]*(Error|Exception)", ln)), lines[-1])
            found.append(f"{lines[0].split('Exception on ', 1)[-1]}: {last}")
        return found


@dataclass
class HttpAnswer:
    """An answer over HTTP, read as the Flask test client's response is (the tests written
    for one run on the other): ``status_code``, ``text``, ``data``, ``headers``, ``get_json``."""

    answer: Answer
    path: str

    @property
    def status_code(self) -> int:
        return self.answer.status

    @property
    def data(self) -> bytes:
        return self.answer.body

    @property
    def text(self) -> str:
        return self.answer.text

    @property
    def headers(self) -> Any:
        from werkzeug.datastructures import Headers

        return Headers(list(self.answer.headers.items()))

    @property
    def request(self) -> Any:
        return type("Request", (), {"path": self.path})

    def get_json(self) -> Any:
        return self.answer.json()


class HttpClient:
    """The Flask test client's calls (``get``, ``post`` with ``data`` or ``json``, ``put``,
    ``delete``, ``patch``) sent over HTTP to a live server, one cookie jar. The requests come
    from loopback addresses taken in turn, ``SPREAD`` requests each: a test sends them faster
    than any phone, and a proxy's per-address rate limit (tested in test_proxy.py) is not what
    these tests are about."""

    SPREAD = 100

    def __init__(self, port: int) -> None:
        self.phone = Phone(port)
        self.sent = 0

    def open(self, method: str, url: str, data: Mapping[str, str] | None = None,
             json: Any = None, headers: Mapping[str, str] | None = None) -> HttpAnswer:
        source = f"127.0.1.{1 + self.sent // self.SPREAD % 250}"
        if source != self.phone.source:
            self.phone.close()
            self.phone.source = source
        self.sent += 1
        sent, body = dict(headers or {}), None
        if json is not None:
            body = _json_bytes(json)
            sent["Content-Type"] = "application/json"
        elif data is not None:
            body = urlencode(data).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        return HttpAnswer(self.phone.request(method.upper(), url, body, sent), url)

    def get(self, url: str, **kwargs: Any) -> HttpAnswer:
        return self.open("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> HttpAnswer:
        return self.open("POST", url, **kwargs)

    def put(self, url: str, **kwargs: Any) -> HttpAnswer:
        return self.open("PUT", url, **kwargs)

    def delete(self, url: str, **kwargs: Any) -> HttpAnswer:
        return self.open("DELETE", url, **kwargs)

    def patch(self, url: str, **kwargs: Any) -> HttpAnswer:
        return self.open("PATCH", url, **kwargs)

    def close(self) -> None:
        self.phone.close()


def _json_bytes(document: Any) -> bytes:
    return json.dumps(document).encode()
