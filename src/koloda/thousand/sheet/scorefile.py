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

from koloda.errors import KolodaError, RecordError
from koloda.i18n import N_, Msg
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import DealInput, Gender, ScoreBook, ScoringError, guess_gender

HEADER_KEYS = frozenset({"players", "preset", "options"})
DEAL_KEYS = frozenset({"declarer", "bid", "bomb", "points", "marriages", "sitting"})


class ScoreFileError(RecordError):
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

    def summary(self) -> dict[str, Any]:
        """What a list of sheets shows of this one: how many deals, the totals, whether it is over. The
        store keeps it with the sheet at every write (koloda.store, revision 0006), so that the list
        scores nothing."""
        return {"deals": len(self.book.deals), "totals": list(self.book.totals), "over": self.book.is_over}


def stored_game(players: Sequence[Any], options: Mapping[str, Any], deals: Sequence[Any]) -> ScoredGame:
    """A sheet as the store keeps it (its players' JSON, its options, its deal lines), every deal scored
    again; a line that does not score raises as :func:`deal_from_json` and the score book do."""
    people = tuple(
        Player.named(item) if isinstance(item, str) else Player.named(item["name"], item["gender"])
        for item in players
    )
    game = ScoredGame(people, ScoreBook(ThousandOptions.from_mapping(options), len(people)))
    for deal in deals:
        game.book.apply(deal_from_json(deal, people, game.book))
    return game


def stored_summary(
    players: Sequence[Any], options: Mapping[str, Any], deals: Sequence[Any]
) -> dict[str, Any]:
    """:meth:`ScoredGame.summary` of a stored sheet; one that does not score (a line this koloda refuses)
    is summed up as its number of lines, its totals and its end unknown (None)."""
    try:
        return stored_game(players, options, deals).summary()
    except (KolodaError, TypeError, KeyError, ValueError):
        return {"deals": len(deals), "totals": None, "over": None}


def check_players(players: Sequence[Player]) -> tuple[Player, ...]:
    """2 to 4 players with distinct, non-empty names."""
    if not 2 <= len(players) <= 4:
        raise ScoringError(Msg("scorefile.players", count=len(players)))
    seen: set[str] = set()
    for player in players:
        if not player.name.strip() or player.name != player.name.strip():
            raise ScoringError(Msg("scorefile.name", name=repr(player.name)))
        if player.name in seen:
            raise ScoringError(Msg("scorefile.same_name", name=repr(player.name)))
        seen.add(player.name)
    return tuple(players)


def load_score_file(
    path: str | Path, *, preset: str | None = None, assignments: Iterable[str] = ()
) -> ScoredGame:
    """Read and score a score file; ScoreFileError names the file, the line and the problem."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScoreFileError(Msg("scorefile.unreadable", path=path, reason=exc)) from None
    try:
        return parse_score_file(text, preset=preset, assignments=assignments)
    except ScoreFileError as exc:
        raise ScoreFileError(Msg("scorefile.in_file", path=path, reason=exc.detail)) from None


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
            reason = Msg("scorefile.json", reason=exc.msg, column=exc.colno)
            raise ScoreFileError(Msg("scorefile.line", number=number, reason=reason)) from None
        except _AssignmentError as exc:  # the command line's fault, not the file's line
            raise ScoreFileError(Msg("scorefile.assignments", reason=exc.detail)) from None
        except KolodaError as exc:
            raise ScoreFileError(Msg("scorefile.line", number=number, reason=exc.detail)) from None
    if game is None:
        raise ScoreFileError(Msg("scorefile.empty"))
    return game


def _header(data: Any, preset: str | None, assignments: Iterable[str]) -> ScoredGame:
    if not isinstance(data, dict):
        raise ScoreFileError(Msg("scorefile.header"))
    _no_unknown(data, HEADER_KEYS, N_("scorefile.where.header"))
    players = check_players(
        [_player(item) for item in _get(data, "players", list, N_("scorefile.where.header"))]
    )
    name = preset if preset is not None else data.get("preset", "default")
    if not isinstance(name, str):
        raise ScoreFileError(Msg("scorefile.preset", name=repr(name)))
    options = ThousandOptions.preset(name)
    file_options = data.get("options", {})
    if not isinstance(file_options, dict):
        raise ScoreFileError(Msg("scorefile.options", options=repr(file_options)))
    options = options.replace(**file_options)
    try:
        options = options.with_assignments(assignments)
    except KolodaError as exc:
        raise _AssignmentError(exc.detail) from None
    return ScoredGame(players, ScoreBook(options, len(players)))


def _player(item: Any) -> Player:
    if isinstance(item, str):
        return Player.named(item)
    if isinstance(item, dict):
        _no_unknown(item, frozenset({"name", "gender"}), N_("scorefile.where.player"))
        gender = item.get("gender")
        if gender not in ("f", "m", None):
            raise ScoreFileError(Msg("scorefile.gender", gender=repr(gender)))
        return Player.named(_get(item, "name", str, N_("scorefile.where.player")), gender)
    raise ScoreFileError(Msg("scorefile.player", item=repr(item)))


def deal_from_json(data: Any, players: Sequence[Player], book: ScoreBook) -> DealInput:
    """One deal line (names, not seats) as a DealInput, checked against the book (ScoringError if bad)."""
    if not isinstance(data, dict):
        raise ScoreFileError(Msg("scorefile.deal", data=repr(data)))
    _no_unknown(data, DEAL_KEYS, N_("scorefile.where.deal"))
    seats = {player.name: seat for seat, player in enumerate(players)}

    def seat_of(name: Any, what: str) -> int:
        if not isinstance(name, str) or name not in seats:  # a list or an object is not a name either
            raise ScoreFileError(
                Msg("scorefile.not_player", what=Msg(what), name=repr(name), names=", ".join(seats))
            )
        return seats[name]

    if book.winner is not None:
        raise ScoreFileError(Msg("scorefile.over", name=players[book.winner].name))
    declarer = seat_of(_get(data, "declarer", str, N_("scorefile.where.deal")), N_("scorefile.what.declarer"))
    sitting = seat_of(data["sitting"], N_("scorefile.what.sitting")) if "sitting" in data else None
    if (sitting is None) != (len(players) != 4):
        raise ScoreFileError(Msg("scorefile.sitting"))
    if sitting == declarer:
        raise ScoreFileError(Msg("scorefile.sitting_declares", name=players[declarer].name))
    bid: Any = data.get("bid")
    bomb = data.get("bomb", False)
    if bomb is True:
        extra = sorted(DEAL_KEYS & data.keys() - {"declarer", "bid", "bomb", "sitting"})
        if extra:
            raise ScoreFileError(Msg("scorefile.bomb_extra", keys=", ".join(extra)))
        if not book.bomb_allowed(declarer):
            limit = book.options.bombs_per_game
            raise ScoreFileError(Msg("scorefile.bombs_used", name=players[declarer].name, allowed=limit))
        return DealInput(declarer=declarer, bid=bid, bomb=True, sitting=sitting)
    if bomb is not False:
        raise ScoreFileError(Msg("scorefile.bomb", bomb=repr(bomb)))
    points_map = _get(data, "points", dict, N_("scorefile.where.deal"))
    for name in points_map:
        seat_of(name, N_("scorefile.what.points"))
    missing = [p.name for seat, p in enumerate(players) if p.name not in points_map and seat != sitting]
    if missing:
        raise ScoreFileError(Msg("scorefile.points_missing", names=", ".join(missing)))
    points = tuple(points_map.get(player.name, 0) for player in players)
    marriages_map = data.get("marriages", {})
    if not isinstance(marriages_map, dict):
        raise ScoreFileError(Msg("scorefile.marriages", marriages=repr(marriages_map)))
    for name, values in marriages_map.items():
        seat_of(name, N_("scorefile.what.marriages"))
        if not isinstance(values, list):
            raise ScoreFileError(Msg("scorefile.marriages_list", name=name, values=repr(values)))
        if values and seats[name] == sitting:
            raise ScoreFileError(Msg("scorefile.sitting_marriage", name=name))
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
    """``data[key]`` of the type ``kind``; ``where`` is the catalog key of the part it is in."""
    if key not in data:
        raise ScoreFileError(Msg("scorefile.no_key", where=Msg(where), key=repr(key)))
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ScoreFileError(Msg("scorefile.kind", key=repr(key), kind=Msg(KINDS[kind]), value=repr(value)))
    return value


KINDS = {
    str: N_("scorefile.kind.str"),
    list: N_("scorefile.kind.list"),
    dict: N_("scorefile.kind.dict"),
    int: N_("scorefile.kind.int"),
}


def _no_unknown(data: Mapping[str, Any], known: frozenset[str], where: str) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise ScoreFileError(
            Msg(
                "scorefile.unknown_keys",
                where=Msg(where),
                keys=", ".join(unknown),
                known=", ".join(sorted(known)),
            )
        )
