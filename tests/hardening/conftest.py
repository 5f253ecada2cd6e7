"""Fixtures of the hardening tests: an app on a temporary database served by waitress on a
free loopback port, and phones (HTTP clients with their own session) to tap on it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from flask import Flask

from scorer.web import create_app
from tests.hardening.databases import app_config
from tests.hardening.live import Phone, thread_server


@pytest.fixture
def app(tmp_path) -> Flask:  # type: ignore[no-untyped-def]
    return create_app({**app_config(tmp_path), "SECRET_KEY": "hardening-tests"})


@pytest.fixture
def port(app: Flask) -> Iterator[int]:
    with thread_server(app, threads=8) as port:
        yield port


@pytest.fixture
def phones(port: int) -> Iterator[Callable[[], Phone]]:
    """Make phones that have loaded the home page (so they hold a session and its token)."""
    made: list[Phone] = []

    def make() -> Phone:
        phone = Phone(port).open()
        made.append(phone)
        return phone

    yield make
    for phone in made:
        phone.close()
