"""The Thousand score file (JSON Lines, docs/thousand-score-file.md): read, check, score and write.

The first line names the players (and may name a preset and options); every next line is one deal:

>>> text = '''{"players": ["Аня", "Боря", "Вера"]}
... {"declarer": "Аня", "bid": 120, "points": {"Аня": 85, "Боря": 25, "Вера": 10}, "marriages": {"Аня": [60]}}
... {"declarer": "Вера", "bid": 110, "bomb": true}'''
>>> game = parse_score_file(text)
>>> game.book.totals
(180, 90, 10)
>>> parse_score_file(text.replace('"bid": 110', '"bid": 95'))
Traceback (most recent call last):
...
koloda.thousand.sheet.scorefile.ScoreFileError: line 3: bid 95 is below the lowest bid 100
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from koloda.errors import KolodaError
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import DealInput, Gender, ScoreBook, ScoringError, guess_gender

HEADER_KEYS = frozenset({"players", "preset", "options"})
DEAL_KEYS = frozenset({"declarer", "bid", "bomb", "points", "marriages", "sitting"})


class ScoreFileError(KolodaError):
    """A score file line that cannot be read or scored; the message names the line."""


class _AssignmentError(ScoreFileError):
    """An ``--option key=value`` that cannot be applied to the file's options."""


@dataclass(frozen=True)
class Player:
    """A player's name and the grammatical gender used in Russian ('выполнил'/'выполнила')."""

    name: str
    gender: Gender

    @classmethod
    def named(cls, name: str, gender: Gender | None = None) -> Player:
        return cls(name, gender if gender is not None else guess_gender(name))

    def to_json(self) -> str | dict[str, str]:
        """The plain name, or ``{"name", "gender"}`` when the guess from the name would be wrong."""
        return (
            self.name
            if guess_gender(self.name) == self.gender
            else {"name": self.name, "gender": self.gender}
        )


@dataclass
class ScoredGame:
    """A score file read and scored: the players, the options and the book with every deal."""

    players: tuple[Player, ...]
    book: ScoreBook

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(player.name for player in self.players)

    @property
    def genders(self) -> tuple[Gender, ...]:
        return tuple(player.gender for player in self.players)


def check_players(players: Sequence[Player]) -> tuple[Player, ...]:
    """2 to 4 players with distinct, non-empty names."""
    if not 2 <= len(players) <= 4:
        raise ScoringError(
            f"Thousand needs 2 to 4 players, not {len(players)}",
            f"в тысячу играют от 2 до 4 игроков, а не {len(players)}",
        )
    seen: set[str] = set()
    for player in players:
        if not player.name.strip() or player.name != player.name.strip():
            raise ScoringError(
                f"a player's name must be non-empty without outer spaces: {player.name!r}",
                f"имя игрока не может быть пустым или с пробелами по краям: {player.name!r}",
            )
        if player.name in seen:
            raise ScoringError(
                f"two players are named {player.name!r}", f"два игрока с именем {player.name!r}"
            )
        seen.add(player.name)
    return tuple(players)


def load_score_file(
    path: str | Path, *, preset: str | None = None, assignments: Iterable[str] = ()
) -> ScoredGame:
    """Read and score a score file; ScoreFileError names the file, the line and the problem."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScoreFileError(f"{path}: cannot read the score file: {exc}") from None
    try:
        return parse_score_file(text, preset=preset, assignments=assignments)
    except ScoreFileError as exc:
        raise ScoreFileError(f"{path}: {exc}") from None


def parse_score_file(text: str, *, preset: str | None = None, assignments: Iterable[str] = ()) -> ScoredGame:
    """Score the lines of a score file; ``preset`` and ``assignments`` override the file's own."""
    game: ScoredGame | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if game is None:
                game = _header(data, preset, assignments)
            else:
                game.book.apply(deal_from_json(data, game.players, game.book))
        except json.JSONDecodeError as exc:
            raise ScoreFileError(f"line {number}: not valid JSON: {exc.msg} (column {exc.colno})") from None
        except _AssignmentError as exc:  # the command line's fault, not the file's line
            raise ScoreFileError(f"with the options given: {exc}") from None
        except KolodaError as exc:
            raise ScoreFileError(f"line {number}: {exc}") from None
    if game is None:
        raise ScoreFileError("the score file is empty: the first line must name the players")
    return game


def _header(data: Any, preset: str | None, assignments: Iterable[str]) -> ScoredGame:
    if not isinstance(data, dict):
        raise ScoreFileError('the first line must be an object like {"players": ["Аня", "Боря", "Вера"]}')
    _no_unknown(data, HEADER_KEYS, "the first line")
    players = check_players([_player(item) for item in _get(data, "players", list, "the first line")])
    name = preset if preset is not None else data.get("preset", "default")
    if not isinstance(name, str):
        raise ScoreFileError(f"preset must be a name, not {name!r}")
    options = ThousandOptions.preset(name)
    file_options = data.get("options", {})
    if not isinstance(file_options, dict):
        raise ScoreFileError(f"options must be an object, not {file_options!r}")
    options = options.replace(**file_options)
    try:
        options = options.with_assignments(assignments)
    except KolodaError as exc:
        raise _AssignmentError(str(exc)) from None
    return ScoredGame(players, ScoreBook(options, len(players)))


def _player(item: Any) -> Player:
    if isinstance(item, str):
        return Player.named(item)
    if isinstance(item, dict):
        _no_unknown(item, frozenset({"name", "gender"}), "a player")
        gender = item.get("gender")
        if gender not in ("f", "m", None):
            raise ScoreFileError(f'a player\'s gender must be "f" or "m", not {gender!r}')
        return Player.named(_get(item, "name", str, "a player"), gender)
    raise ScoreFileError(f'a player must be a name or {{"name": ..., "gender": "f"|"m"}}, not {item!r}')


def deal_from_json(data: Any, players: Sequence[Player], book: ScoreBook) -> DealInput:
    """One deal line (names, not seats) as a DealInput, checked against the book (ScoringError if bad)."""
    if not isinstance(data, dict):
        raise ScoreFileError(f"a deal must be a JSON object, not {data!r}")
    _no_unknown(data, DEAL_KEYS, "a deal")
    seats = {player.name: seat for seat, player in enumerate(players)}

    def seat_of(name: Any, what: str) -> int:
        if name not in seats:
            raise ScoreFileError(f"{what} {name!r} is not a player ({', '.join(seats)})")
        return seats[name]

    if book.winner is not None:
        raise ScoreFileError(f"the game is over: {players[book.winner].name} has won; no deal may follow")
    declarer = seat_of(_get(data, "declarer", str, "a deal"), "declarer")
    sitting = seat_of(data["sitting"], "sitting") if "sitting" in data else None
    if (sitting is None) != (len(players) != 4):
        raise ScoreFileError('with 4 players, and only then, a deal names the dealer who sat out ("sitting")')
    if sitting == declarer:
        raise ScoreFileError(f"{players[declarer].name} cannot both sit out and declare")
    bid: Any = data.get("bid")
    bomb = data.get("bomb", False)
    if bomb is True:
        extra = sorted(DEAL_KEYS & data.keys() - {"declarer", "bid", "bomb", "sitting"})
        if extra:
            raise ScoreFileError(f"a bomb is not played: it has no {', '.join(extra)}")
        if not book.bomb_allowed(declarer):
            limit = book.options.bombs_per_game
            raise ScoreFileError(f"{players[declarer].name} has used the bombs allowed per game ({limit})")
        return DealInput(declarer=declarer, bid=bid, bomb=True, sitting=sitting)
    if bomb is not False:
        raise ScoreFileError(f"bomb must be true or false, not {bomb!r}")
    points_map = _get(data, "points", dict, "a deal")
    for name in points_map:
        seat_of(name, "points of")
    missing = [p.name for seat, p in enumerate(players) if p.name not in points_map and seat != sitting]
    if missing:
        raise ScoreFileError(f"points has no entry for {', '.join(missing)}")
    points = tuple(points_map.get(player.name, 0) for player in players)
    marriages_map = data.get("marriages", {})
    if not isinstance(marriages_map, dict):
        raise ScoreFileError(f'marriages must be an object like {{"Аня": [60]}}, not {marriages_map!r}')
    for name, values in marriages_map.items():
        seat_of(name, "marriages of")
        if not isinstance(values, list):
            raise ScoreFileError(f"the marriages of {name} must be a list of values, not {values!r}")
        if values and seats[name] == sitting:
            raise ScoreFileError(f"{name} sat out and cannot declare a marriage")
    marriages = tuple(tuple(marriages_map.get(player.name, ())) for player in players)
    return DealInput(
        declarer=declarer,
        bid=bid,
        points=points,
        marriages=marriages if any(marriages) else (),
        sitting=sitting,
    )


def deal_to_json(deal: DealInput, names: Sequence[str]) -> dict[str, Any]:
    """A DealInput as a deal line's object (names, not seats)."""
    data: dict[str, Any] = {"declarer": names[deal.declarer], "bid": deal.bid}
    if deal.bomb:
        data["bomb"] = True
    else:
        data["points"] = {name: deal.points[seat] for seat, name in enumerate(names)}
        marriages = {
            name: list(deal.marriages_of(seat)) for seat, name in enumerate(names) if deal.marriages_of(seat)
        }
        if marriages:
            data["marriages"] = marriages
    if deal.sitting is not None:
        data["sitting"] = names[deal.sitting]
    return data


def dump_score_file(players: Sequence[Player], options: ThousandOptions, deals: Iterable[DealInput]) -> str:
    """The score file of a game: a header with the options that differ from the defaults, one line a deal."""
    defaults = ThousandOptions().to_dict()
    changed = {key: value for key, value in options.to_dict().items() if defaults.get(key) != value}
    header: dict[str, Any] = {"players": [player.to_json() for player in players]}
    if changed:
        header["options"] = changed
    names = [player.name for player in players]
    lines = [header, *(deal_to_json(deal, names) for deal in deals)]
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def _get(data: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in data:
        raise ScoreFileError(f"{where} has no {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ScoreFileError(f"{key!r} must be {_KINDS.get(kind, kind.__name__)}, not {value!r}")
    return value


_KINDS = {str: "a name (string)", list: "a list", dict: "an object", int: "a whole number"}


def _no_unknown(data: Mapping[str, Any], known: frozenset[str], where: str) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise ScoreFileError(
            f"{where} has unknown keys {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
