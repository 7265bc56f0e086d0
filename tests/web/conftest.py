"""Fixtures of the web tests: an in-process app client over SQLite and over PostgreSQL, a real server in a
subprocess, a real Chromium."""

from __future__ import annotations

import itertools
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import services  # scripts/services.py: PostgreSQL, Redis and nginx on loopback

warnings.filterwarnings("ignore", message=".*httpx2.*")  # starlette's TestClient still works with httpx

from starlette.testclient import TestClient  # noqa: E402
from web_helpers import CHROMIUM, CHROMIUM_ARGS, Server, app_client  # noqa: E402

_DATABASES = itertools.count(1)

# Not a test module: --doctest-modules would import this file as "conftest", a name another directory's
# conftest.py may have taken first (`pytest tests/web tests/store` failed to collect).
collect_ignore = ["conftest.py"]


@pytest.fixture(scope="session")
def postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[services.Postgres]:
    """A PostgreSQL server (Debian's, which scripts/test.sh installs) for this test process."""
    if not services.have_postgres():
        pytest.skip("PostgreSQL is not installed: scripts/test.sh installs it (apt-get install postgresql)")
    server = services.Postgres(tmp_path_factory.mktemp("postgres"), durable=False).start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: a SQLite file, or a database of the PostgreSQL server. The tests that take
    it (through ``client``) run on both."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'web.sqlite3'}"
    server: services.Postgres = request.getfixturevalue("postgres")
    return server.create(f"test{next(_DATABASES)}")


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:
    """The app over a fresh database (SQLite, then PostgreSQL), bots moving at once."""
    yield from app_client(store_url, bot_delay=0)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[services.Redis]:
    if not services.have_redis():
        pytest.skip("Redis is not installed: scripts/test.sh installs it (apt-get install redis-server)")
    server = services.Redis(tmp_path_factory.mktemp("redis")).start()
    yield server
    server.stop()


@pytest.fixture
def nodes(
    postgres: services.Postgres, redis_server: services.Redis, tmp_path: Path
) -> Iterator[list[Server]]:
    """Two ``koloda serve`` over a fresh PostgreSQL database and one Redis (docs/deploy.md), bots quick."""
    import redis

    redis.Redis.from_url(redis_server.url).flushall()
    url = postgres.create(f"nodes{next(_DATABASES)}")
    servers = [
        Server(
            url, bot_delay=0.02, extra=("--redis", redis_server.url, "--bot-workers", "1"), data_dir=tmp_path
        )
        for _ in range(2)
    ]
    for server in servers:
        server.start()
    yield servers
    for server in servers:
        server.kill()


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
