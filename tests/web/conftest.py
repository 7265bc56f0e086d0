"""Fixtures of the web tests: an in-process app client, a real server in a subprocess, a real Chromium."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")  # starlette's TestClient still works with httpx

from starlette.testclient import TestClient  # noqa: E402
from web_helpers import CHROMIUM, CHROMIUM_ARGS, Server, app_client  # noqa: E402


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app over a fresh SQLite file, bots moving at once."""
    yield from app_client(tmp_path, bot_delay=0)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "web.sqlite3")
    srv.start()
    yield srv
    srv.kill()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
