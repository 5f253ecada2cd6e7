"""make serve's app, each answer telling the CPU time its request took in the server's thread
(``Server-Timing: cpu;dur=<ms>``), for ``benchmarks/load.py``: a thread's CPU time does not
grow when other work shares the cores, unlike a latency.

``load.py`` starts the Makefile's ``make serve`` command with ``--call
benchmarks.server_timing:create_app`` in place of ``scorer.web:create_app``; the app is the
same. What a worker thread spends is counted from the moment waitress hands it the request
until the status line: the view, the database, the templates, the compression. Waitress's own
thread (reading and writing the sockets) is not; ``load.py`` gives the whole process's CPU too.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask

from scorer.web import create_app as create_terminus


def create_app() -> Flask:
    app = create_terminus()
    inner = app.wsgi_app

    def timed(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        start = time.thread_time()

        def start_timed(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            spent = (time.thread_time() - start) * 1000
            headers.append(("Server-Timing", f"cpu;dur={spent:.3f}"))
            return start_response(status, headers, *exc_info)

        return inner(environ, start_timed)

    app.wsgi_app = timed  # type: ignore[method-assign]
    return app
