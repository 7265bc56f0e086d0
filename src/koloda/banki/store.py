"""Where a game in progress is kept: a JSON game record, rewritten after every event.

The file is ``<data dir>/banki/game.json``; the data dir is ``$KOLODA_DATA_DIR`` when set (tests), else
``platformdirs.user_data_dir("koloda")``. Writes go to a temporary file that then replaces the record,
so a crash mid-write never loses the saved game.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from koloda.banki.state import GAME, BankiState, replay
from koloda.errors import RecordError
from koloda.game import GameRecord


def data_dir() -> Path:
    """koloda's data directory: ``$KOLODA_DATA_DIR`` or the platform's user data directory."""
    override = os.environ.get("KOLODA_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir("koloda"))


def default_path() -> Path:
    return data_dir() / "banki" / "game.json"


def save(state: BankiState, path: Path) -> None:
    """Write the game's record atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(state.record().dumps() + "\n", encoding="utf-8")
    os.replace(temporary, path)


def load(path: Path) -> BankiState:
    """The saved game, replayed; RecordError if there is none or it does not replay."""
    if not path.exists():
        raise RecordError(f"no saved game at {str(path)!r}; start one with 'koloda banki new'")
    record = GameRecord.load(path, game=GAME)
    try:
        return replay(record)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
