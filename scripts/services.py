"""PostgreSQL, Redis and nginx from Debian's packages, started by hand on loopback in a folder of ours, and
koloda's own server beside them (:class:`Node`).

The tests (the PostgreSQL store, many nodes, faults), ``scripts/cluster.py`` and ``bench/`` use these to
run the servers a deployment of many nodes has (docs/deploy.md) on this machine: nothing is installed
here (``scripts/test.sh`` installs the packages when they are missing), nothing listens beyond 127.0.0.1,
and each server lives in its own folder and stops with :meth:`stop`.

PostgreSQL refuses to run as root: as root, its folder is given to the ``postgres`` user the package made
and its commands run as that user (``runuser``).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

PG_BINS = [Path("/usr/lib/postgresql/15/bin"), Path("/usr/local/bin")]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port(port: int, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing answers on 127.0.0.1:{port} after {seconds:g} s")


def _pg_bin(name: str) -> Path | None:
    for folder in PG_BINS:
        if (folder / name).exists():
            return folder / name
    return None


def have_postgres() -> bool:
    return _pg_bin("initdb") is not None and _pg_bin("pg_ctl") is not None


def have_redis() -> bool:
    return shutil.which("redis-server") is not None


def have_nginx() -> bool:
    return shutil.which("nginx") is not None or Path("/usr/sbin/nginx").exists()


class Postgres:
    """A PostgreSQL cluster in ``folder`` on a loopback port, trusting local connections."""

    def __init__(self, folder: Path, port: int | None = None, *, durable: bool = True) -> None:
        self.durable = durable  # False: no fsync (what only a crash of the machine would lose)
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self._as:  # the postgres user cannot enter root's private folders: a folder of its own in /tmp
            folder = Path(tempfile.mkdtemp(prefix="koloda-pg-"))
            shutil.chown(folder, "postgres", "postgres")
        self.folder = folder
        self.port = port or free_port()
        self.data = folder / "data"

    def url(self, database: str = "koloda") -> str:
        return f"postgresql+psycopg://koloda@127.0.0.1:{self.port}/{database}"

    def _run(self, *command: str | Path) -> None:
        done = subprocess.run([*self._as, *map(str, command)], capture_output=True, timeout=120)
        if done.returncode:
            raise RuntimeError(
                f"{Path(command[0]).name} failed: {done.stderr.decode(errors='replace')[-800:]}"
            )

    def start(self) -> Postgres:
        initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
        assert initdb is not None and pg_ctl is not None, "PostgreSQL is not installed"
        self.folder.mkdir(parents=True, exist_ok=True)
        if not self.data.exists():
            self._run(
                initdb, "-D", self.data, "-U", "koloda", "--auth=trust", "-E", "UTF8", "--no-instructions"
            )
        self.resume()
        self.create("koloda")
        return self

    def resume(self) -> None:
        """Start the server on its folder (again, after :meth:`pause`)."""
        pg_ctl = _pg_bin("pg_ctl")
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if not self.durable:  # what only a crash of the machine would lose; never synchronous_commit=off,
            # whose commits a killed server (pause) loses
            options += " -c fsync=off -c full_page_writes=off"
        log = self.folder / "log"
        self._run(pg_ctl or "pg_ctl", "-D", self.data, "-o", options, "-l", log, "-w", "start")

    def pause(self) -> None:
        """Stop the server at once (``immediate``: as if it had died); :meth:`resume` starts it again."""
        self._run(_pg_bin("pg_ctl") or "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")

    def create(self, database: str) -> str:
        """A new empty database; its URL."""
        import psycopg

        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=koloda dbname=postgres", autocommit=True
        ) as c:
            exists = c.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone()
            if not exists:
                c.execute(f'CREATE DATABASE "{database}"')
        return self.url(database)

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        if self.data.exists():
            subprocess.run(
                [*self._as, str(_pg_bin("pg_ctl")), "-D", str(self.data), "-m", "fast", "-w", "stop"],
                capture_output=True,
                timeout=60,
            )
        shutil.rmtree(self.folder, ignore_errors=True)


class Redis:
    """A Redis server on a loopback port, keeping nothing on disk."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.folder = folder
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        self.folder.mkdir(parents=True, exist_ok=True)
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.folder)]
        log = (self.folder / "redis.log").open("ab")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        wait_port(self.port)
        return self

    def pause(self) -> None:
        """Kill it (as if it had died); :meth:`start` starts it again on the same port."""
        self.stop(kill=True)

    def stop(self, kill: bool = False) -> None:
        if self.process is not None:
            self.process.kill() if kill else self.process.terminate()
            self.process.wait(timeout=20)
            self.process = None


NGINX_CONF = """
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
{user}
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    upstream koloda {{
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://koloda;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 1h;
            proxy_next_upstream error timeout;
        }}
    }}
}}
"""


class Nginx:
    """nginx in front of the nodes at ``upstreams`` (loopback ports), websockets upgraded."""

    def __init__(self, folder: Path, upstreams: list[int], port: int | None = None) -> None:
        self.folder = folder
        self.upstreams = upstreams
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def config(self) -> str:
        servers = "\n".join(
            f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=2s;" for port in self.upstreams
        )
        user = "user root;" if os.geteuid() == 0 else ""
        return NGINX_CONF.format(folder=self.folder, servers=servers, port=self.port, user=user)

    def start(self) -> Nginx:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "nginx.conf").write_text(self.config(), encoding="utf-8")
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        command = [binary, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"), "-g", "daemon off;"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_port(self.port)
        return self

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=20)
            if self.process.stderr is not None:
                self.process.stderr.close()
            self.process = None


class Node:
    """``koloda serve`` in a subprocess on a free loopback port over ``db`` (a SQLite file or a database
    URL), its log in ``folder``; ``extra``: more arguments (``--redis URL``: one node of many)."""

    def __init__(self, db: str, folder: Path, *, bot_delay: float = 0.1, extra: Sequence[str] = ()) -> None:
        self.port = free_port()
        command = [sys.executable, "-m", "koloda", "serve", "--port", str(self.port), "--db", db]
        command += ["--bot-delay", str(bot_delay), *extra]
        self.log = (folder / f"node-{self.port}.log").open("ab")
        env = {**os.environ, "KOLODA_DATA_DIR": str(folder)}
        self.process = subprocess.Popen(command, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        wait_port(self.port, 60)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self, kill: bool = False) -> None:
        """Stop it (``kill``: at once, as a crash would) and wait for it to end."""
        if self.alive():
            self.process.kill() if kill else self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
