"""Helpers shared by the store's tests: where the fixtures of koloda 0.1.0 are, typing at prompts."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
RELEASE_DB = FIXTURES / "release-0.1.0" / "koloda-web.sqlite3"
LEGACY_DIR = FIXTURES / "legacy-data-dir"


def feed(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> None:
    """What the person types at the next prompts of a command (its standard input); then the input ends."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
