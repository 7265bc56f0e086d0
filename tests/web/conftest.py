"""Fixtures of the web tests: an in-process app client, a real server in a subprocess, a real Chromium."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")  # starlette's TestClient still works with httpx

from starlette.testclient import TestClient  # noqa: E402

from koloda.web.app import create_app  # noqa: E402
from koloda.web.store import SqlStore  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app over a fresh SQLite file, bots moving at once."""
    app = create_app(SqlStore(f"sqlite:///{tmp_path / 'web.sqlite3'}"), bot_delay=0)
    with TestClient(app) as test_client:
        yield test_client


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``koloda serve`` in a subprocess on a loopback port; can be killed and started again on its DB."""

    def __init__(self, db: Path, bot_delay: float = 0.05) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "KOLODA_DATA_DIR": str(self.db.parent)}
        command = [sys.executable, "-m", "koloda", "serve", "--port", str(self.port)]
        self.process = subprocess.Popen(
            [*command, "--db", f"sqlite:///{self.db}", "--bot-delay", str(self.bot_delay)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            if self.process.stdout is not None:
                self.process.stdout.close()
            self.process = None


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


def shot(page: object, name: str) -> None:
    """Save a screenshot of the page as a test artifact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)  # type: ignore[attr-defined]
