"""Helpers shared by the web tests: creating tables, reading websocket frames until a condition."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
from starlette.testclient import TestClient

from koloda.store.sql import SqlStore
from koloda.web.app import create_app
from koloda.web.hub import Hub

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run on a loop of its own, in a thread (a session fixture may run a loop in this one)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, main).result(timeout=60)


def app_client(where: Path | str, bot_delay: float, **settings: Any) -> Iterator[TestClient]:
    """The app over a database (a URL, or a fresh SQLite file in a folder), bots pausing ``bot_delay``
    seconds a move (and ``create_app``'s other settings: ``limits``...). Like the pages, the client says
    every body is JSON (a request that changes something must: the guard's tests send other types)."""
    url = where if isinstance(where, str) else f"sqlite:///{where / 'web.sqlite3'}"
    app = create_app(SqlStore(url), bot_delay=bot_delay, **settings)
    with TestClient(app, headers={"content-type": "application/json"}) as test_client:
        yield test_client


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


def hub(client: TestClient) -> Hub:
    """The live hub of an app under TestClient."""
    found: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return found


def create(client: TestClient, **request: Any) -> dict[str, Any]:
    """Create a table through the API; asserts it was created."""
    response = client.post("/api/tables", json=request)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def tokens(client: TestClient, table_id: int) -> list[str]:
    """Every seat's token, bots' included (read from the store, as a test may)."""
    return [seat.token for seat in hub(client).store.load_table(table_id).seats]


#: The header every change of a score sheet or a banki game carries: its edit key (koloda.web.editkeys).
EDIT_KEY = "koloda-edit-key"


def editing(made: dict[str, Any]) -> dict[str, str]:
    """The headers of a change of the sheet or game whose creation answered ``made`` (its edit key)."""
    return {EDIT_KEY: made["key"]}


def until(ws: Any, predicate: Any, limit: int = 2000, first: dict[str, Any] | None = None) -> dict[str, Any]:
    """Read frames until one satisfies ``predicate``, starting with ``first`` (the hello's answer) if
    given: bots that move at once may have got there before the socket said hello."""
    if first is not None and predicate(first):
        return first
    for _ in range(limit):
        frame: dict[str, Any] = ws.receive_json()
        if predicate(frame):
            return frame
    raise AssertionError("no such frame")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``koloda serve`` in a subprocess on a loopback port; can be killed and started again on its DB.
    ``db`` is a SQLite file or a database URL; ``extra`` more arguments (``--redis URL``: one node of
    many). Its log (one JSON object a line) goes to ``log`` in ``data_dir`` (the database's folder by
    default), never to a pipe nobody reads."""

    def __init__(
        self,
        db: Path | str,
        bot_delay: float = 0.05,
        extra: tuple[str, ...] = (),
        data_dir: Path | None = None,
    ) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.extra = extra
        self.data_dir = data_dir or (db.parent if isinstance(db, Path) else Path.cwd())
        self.port = free_port()
        self.log = self.data_dir / ("server.log" if isinstance(db, Path) else f"serve-{self.port}.log")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "KOLODA_DATA_DIR": str(self.data_dir)}
        command = [sys.executable, "-m", "koloda", "serve", "--port", str(self.port)]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                # a path, as people type
                [*command, "--db", str(self.db), "--bot-delay", str(self.bot_delay), *self.extra],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("the server did not start: " + self.log.read_text(errors="replace")[-2000:])

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def lines(self) -> list[dict[str, Any]]:
        """The server's log so far, one JSON object a line (the line that names the address excepted)."""
        out = []
        for line in self.log.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("{"):
                out.append(json.loads(line))
        return out


def checked_page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    """A page in a new context of ``browser``; after the test, no script error on it and nothing the
    Content-Security-Policy refused (a fixture's body: ``yield from checked_page(browser, size)``)."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda message: errors.extend(csp_violations([message])))
    yield page
    context.close()
    assert not errors, errors


def csp_violations(messages: list[Any]) -> list[str]:
    """The console messages (Playwright's) that say the Content-Security-Policy refused something."""
    return [m.text for m in messages if m.type == "error" and "Content Security Policy" in m.text]


def shot(page: object, name: str) -> None:
    """Save a screenshot of the page as a test artifact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)  # type: ignore[attr-defined]


def alive(pid: int) -> bool:
    """A process that exists and is not a zombie (Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
