"""One data directory for every command, and what ``--db`` accepts: a file path or a SQLAlchemy URL."""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import platformdirs
import pytest

from koloda.cli import main
from koloda.errors import RequestError
from koloda.store.open import open_store
from koloda.store.paths import DB_NAME, data_dir, database_url, default_path
from koloda.store.sql import SqlStore


def test_the_data_directory_is_the_environment_s_or_the_platform_s(tmp_path: Path) -> None:
    assert data_dir({"KOLODA_DATA_DIR": str(tmp_path)}) == tmp_path
    assert data_dir({}) == Path(platformdirs.user_data_dir("koloda"))
    assert data_dir({"KOLODA_DATA_DIR": ""}) == data_dir({})  # set but empty: not set
    assert default_path({"KOLODA_DATA_DIR": str(tmp_path)}) == tmp_path / DB_NAME


def test_every_command_opens_the_same_database_by_default(tmp_path: Path) -> None:
    environ = {"KOLODA_DATA_DIR": str(tmp_path / "new" / "dir")}
    with open_store(environ=environ) as store:  # the directory is made when missing
        assert store.path == tmp_path / "new" / "dir" / DB_NAME and store.path.exists()


def test_db_is_a_file_path_or_a_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert database_url("games.db") == f"sqlite:///{tmp_path / 'games.db'}"  # what people type
    assert database_url(str(tmp_path / "a b" / "c.db")) == f"sqlite:///{tmp_path / 'a b' / 'c.db'}"
    assert database_url("sqlite:///games.db") == "sqlite:///games.db"
    assert database_url("postgresql+psycopg://koloda@db.example/koloda").startswith("postgresql")
    with open_store("games.db") as store:
        assert store.path == tmp_path / "games.db" and store.sheet_ids() == []
    with open_store("sqlite:///games.db") as store:  # the same file, as a URL
        assert store.path is not None and store.path.resolve() == tmp_path / "games.db"


@pytest.mark.parametrize(
    ("db", "words"),
    [
        ("", "needs a file path or a database URL"),
        ("nonsense://x", "SQLAlchemy knows no database 'nonsense'"),
        ("sqlite://x:y:z", "neither a file path nor a database URL"),
    ],
)
def test_a_db_that_names_no_database_is_a_request_error(db: str, words: str) -> None:
    with pytest.raises(RequestError, match=words) as caught:
        database_url(db)
    assert caught.value.field == "db"


def test_a_url_whose_driver_is_missing_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # pg8000: a PostgreSQL driver koloda does not lock (psycopg is in the dev lock, for the cluster)
    assert importlib.util.find_spec("pg8000") is None
    assert main(["thousand", "sheet", "--db", "postgresql+pg8000://koloda@localhost/koloda"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "koloda: error: cannot open the database postgresql+pg8000://koloda@localhost/koloda"
    )
    assert err.count("\n") == 1


def test_a_missing_directory_in_db_is_refused_not_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["banki", "resume", "--db", str(tmp_path / "no" / "such" / "dir.db")]) == 2
    assert "unable to open database file" in capsys.readouterr().err
    assert not (tmp_path / "no").exists()


def test_serve_takes_a_file_path_for_db(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "KOLODA_DATA_DIR": str(tmp_path / "data")}
    command = [sys.executable, "-m", "koloda", "serve", "--port", str(port), "--db", "games.db"]
    process = subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                made = httpx.post(
                    f"http://127.0.0.1:{port}/api/sheets", json={"players": ["Аня", "Боря"]}, timeout=1
                )
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline and process.poll() is None, "the server did not start"
                time.sleep(0.1)
        assert made.status_code == 201
    finally:
        process.kill()
        output = process.communicate(timeout=10)[0].decode()
    assert f"(database {tmp_path / 'games.db'})" in output
    with SqlStore(f"sqlite:///{tmp_path / 'games.db'}") as store:
        assert store.load_sheet(1)[0] == ["Аня", "Боря"]
    assert not (tmp_path / "data" / DB_NAME).exists()  # --db, not the data directory


def test_koloda_installed_under_a_directory_with_a_percent_sign_opens_its_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Alembic reads the migrations' place through configparser, where "%" is interpolation: a user named
    # "100%" (C:\Users\100%\...) must still get the store
    import shutil

    from koloda.store import migrate

    place = tmp_path / "100% koloda" / "migrations"
    shutil.copytree(migrate.MIGRATIONS, place)
    monkeypatch.setattr(migrate, "MIGRATIONS", place)
    migrate._script.cache_clear()
    try:
        with SqlStore(f"sqlite:///{tmp_path / 'games.db'}") as store:
            assert store.path == tmp_path / "games.db"
        assert migrate._script().dir == str(place)
    finally:
        migrate._script.cache_clear()
