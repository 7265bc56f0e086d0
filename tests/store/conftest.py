"""Fixtures of the store's tests: copies of what koloda 0.1.0 saved (``fixtures/``, see its README) and
what it held then (``fixtures/expected.json``). ``fixtures/make_fixtures.py`` runs only on the code of
0.1.0, never here."""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest
from store_helpers import FIXTURES, LEGACY_DIR, RELEASE_DB

warnings.filterwarnings("ignore", message=".*httpx2.*")  # starlette's TestClient still works with httpx
import starlette.testclient  # noqa: E402, F401  # imported once here, where the filter holds

# Not test modules: make_fixtures.py and make_revision_000N.py (they need the code of older commits) and
# this file (--doctest-modules would import it as "conftest", a name tests/web/conftest.py may have taken).
collect_ignore = [
    "fixtures/make_fixtures.py",
    "fixtures/make_revision_0002.py",
    "fixtures/make_revision_0005.py",
    "conftest.py",
]


def reworded() -> list[tuple[str, str]]:
    """The texts of 0.1.0 that issue 20 put in plainer words on purpose (the 800 line, the barrel, a banki
    player's throwing line), each with what the catalog says now: ``expected`` reads them so, and every
    other word must still be as 0.1.0 wrote it."""
    from koloda.i18n import Lang, say

    old: tuple[tuple[Lang, str, str, str], ...] = (
        ("en", "800 line (no defence points): —", "Barrel 880: —", "private, 20 m"),
        ("ru", "Линия 800 (защита не в счёт): —", "Бочка 880: —", "рядовой, 20 м"),
    )
    pairs = []
    for lang, line_800, barrel, private in old:
        nobody = say(lang, "thousand.table.nobody")
        pairs += [
            (line_800, say(lang, "thousand.table.line_800", line=800, who=nobody)),
            (barrel, say(lang, "thousand.table.barrel", threshold=880, who=nobody)),
            (private, say(lang, "banki.describe.line", rank=private.split(",")[0], metres="20")),
        ]
    return pairs


@pytest.fixture
def expected() -> dict[str, Any]:
    text = (FIXTURES / "expected.json").read_text(encoding="utf-8")
    for old, new in reworded():
        assert old in text, old  # the list stays true
        text = text.replace(old, new)
    data: dict[str, Any] = json.loads(text)
    return data


@pytest.fixture
def release_db(tmp_path: Path) -> Path:
    """A copy of the web app's database made by koloda 0.1.0."""
    copy = tmp_path / "release" / "koloda-web.sqlite3"
    copy.parent.mkdir()
    shutil.copyfile(RELEASE_DB, copy)
    return copy


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The data directory of someone who used koloda 0.1.0 in the terminal and in the browser: its web
    database, its terminal score sheets and its banki game file; KOLODA_DATA_DIR points at it."""
    directory = tmp_path / "data"
    shutil.copytree(LEGACY_DIR, directory)
    shutil.copyfile(RELEASE_DB, directory / "koloda-web.sqlite3")
    monkeypatch.setenv("KOLODA_DATA_DIR", str(directory))
    return directory
