"""``koloda thousand sheet``: a score keeper for a game of Thousand played with real cards.

:class:`Sheet` is the logic (players, deals, undo, exports), saved after every change in a
:class:`SheetStore` (SQLite), so that a closed terminal loses nothing; :func:`run_sheet` is the thin
prompt loop, driven by ``read``/``write`` functions so that tests feed it lines.
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, TypeVar

from koloda.errors import KolodaError
from koloda.i18n import Lang
from koloda.term import Quit, Read, Write, ask, say
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scorefile import (
    Player,
    ScoredGame,
    check_players,
    deal_from_json,
    deal_to_json,
    dump_score_file,
)
from koloda.thousand.scoring import (
    DECK_POINTS,
    DealInput,
    DealScore,
    ScoreBook,
    ScoringError,
    check_bid,
    marriage_values,
)
from koloda.thousand.table import csv_table, markdown_table, status_line, winner_line

T = TypeVar("T")
Format = Literal["md", "csv", "jsonl"]
FORMATS: tuple[Format, ...] = ("md", "csv", "jsonl")
DB_NAME = "thousand-sheet.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS deals (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    deal TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
"""


def default_db_path(environ: Mapping[str, str]) -> Path:
    """KOLODA_DATA_DIR if set (tests), else the user's data directory (platformdirs)."""
    directory = environ.get("KOLODA_DATA_DIR")
    if not directory:
        import platformdirs

        directory = platformdirs.user_data_dir("koloda")
    return Path(directory) / DB_NAME


class SheetStore:
    """The SQLite file of saved games; every write is committed at once."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path)
            self._db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise KolodaError(f"cannot open the score sheet database {str(self.path)!r}: {exc}") from None

    def __enter__(self) -> SheetStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def create_game(self, players: Sequence[Player], options: ThousandOptions) -> int:
        players_json = json.dumps([player.to_json() for player in players], ensure_ascii=False)
        with self._db:
            cursor = self._db.execute(
                "INSERT INTO games (created, players, options) VALUES (?, ?, ?)",
                (
                    datetime.now(UTC).isoformat(timespec="seconds"),
                    players_json,
                    json.dumps(options.to_dict()),
                ),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def add_deal(self, game: int, seq: int, deal: dict[str, Any]) -> None:
        with self._db:
            self._db.execute(
                "INSERT INTO deals (game, seq, deal) VALUES (?, ?, ?)",
                (game, seq, json.dumps(deal, ensure_ascii=False)),
            )

    def remove_deal(self, game: int, seq: int) -> None:
        with self._db:
            self._db.execute("DELETE FROM deals WHERE game = ? AND seq = ?", (game, seq))

    def games(self) -> list[int]:
        """Saved game ids, newest last."""
        return [row[0] for row in self._db.execute("SELECT id FROM games ORDER BY id")]

    def load(self, game: int) -> tuple[list[Any], dict[str, Any], list[Any]]:
        """(players, options, deals) of a saved game, as stored (JSON values)."""
        row = self._db.execute("SELECT players, options FROM games WHERE id = ?", (game,)).fetchone()
        if row is None:
            raise KolodaError(f"no saved game {game} in {str(self.path)!r}")
        deals = self._db.execute("SELECT deal FROM deals WHERE game = ? ORDER BY seq", (game,))
        return json.loads(row[0]), json.loads(row[1]), [json.loads(deal) for (deal,) in deals]


class Sheet:
    """One game's score sheet: every change is scored by a ScoreBook and saved in the store at once."""

    def __init__(self, store: SheetStore, game_id: int, game: ScoredGame) -> None:
        self.store = store
        self.game_id = game_id
        self.game = game

    @classmethod
    def new(cls, store: SheetStore, players: Sequence[Player], options: ThousandOptions) -> Sheet:
        """Start a game and save it."""
        players = check_players(players)
        book = ScoreBook(options, len(players))
        return cls(store, store.create_game(players, options), ScoredGame(tuple(players), book))

    @classmethod
    def load(cls, store: SheetStore, game_id: int) -> Sheet:
        """A saved game, every deal scored again from the stored lines."""
        players_json, options_json, deals = store.load(game_id)
        players = tuple(
            Player.named(item) if isinstance(item, str) else Player.named(item["name"], item["gender"])
            for item in players_json
        )
        game = ScoredGame(players, ScoreBook(ThousandOptions.from_mapping(options_json), len(players)))
        for deal in deals:
            game.book.apply(deal_from_json(deal, players, game.book))
        return cls(store, game_id, game)

    @classmethod
    def resume(cls, store: SheetStore) -> Sheet:
        """The most recent saved game that has not ended."""
        for game_id in reversed(store.games()):
            sheet = cls.load(store, game_id)
            if not sheet.game.book.is_over:
                return sheet
        raise KolodaError(f"no unfinished game to resume in {str(store.path)!r}")

    @property
    def book(self) -> ScoreBook:
        return self.game.book

    def add(self, deal: DealInput) -> DealScore:
        """Score a deal and save it; a bad deal raises ScoringError and nothing is saved."""
        score = self.book.apply(deal)
        try:
            self.store.add_deal(self.game_id, len(self.book.deals), deal_to_json(deal, self.game.names))
        except sqlite3.Error as exc:
            self.book.undo()
            raise KolodaError(f"the deal was not saved: {exc}") from None
        return score

    def undo(self) -> DealScore:
        """Take back the last deal, in the book and in the store."""
        seq = len(self.book.deals)
        score = self.book.undo()
        self.store.remove_deal(self.game_id, seq)
        return score

    def export(self, fmt: Format, lang: Lang = "ru") -> str:
        """The table as Markdown (with the winner), CSV, or the JSON Lines score file."""
        if fmt == "md":
            line = winner_line(self.game, lang)
            return markdown_table(self.game, lang, marks=True) + ("\n\n" + line if line else "") + "\n"
        if fmt == "csv":
            return csv_table(self.game, lang)
        return dump_score_file(self.game.players, self.book.options, (s.deal for s in self.book.deals))


# -- the prompt loop ----------------------------------------------------------------------------------

UNDO_WORDS = frozenset({"undo", "отмена", "отменить"})
EXPORT_WORDS = frozenset({"export", "экспорт"})
YES = frozenset({"y", "yes", "д", "да"})
NO = frozenset({"n", "no", "н", "нет", ""})


class _Command(Exception):
    """A command typed at the declarer prompt was handled; start the deal again."""


def run_sheet(
    store: SheetStore,
    *,
    options: ThousandOptions | None = None,
    resume: bool = False,
    lang: Lang = "ru",
    read: Read = input,
    write: Write = print,
) -> int:
    """The interactive sheet: players, then deal after deal until the game ends or the user quits."""
    if resume and options is not None:
        raise KolodaError("--resume continues a saved game with its own options; drop --preset/--option")
    try:
        if resume:
            sheet = Sheet.resume(store)
            write(say(lang, f"Продолжаем игру {sheet.game_id}.", f"Resuming game {sheet.game_id}."))
        else:
            players = ask(
                say(
                    lang,
                    "Игроки через запятую (2–4; пол, если имя обманчиво: Саша/ж): ",
                    "Players, comma-separated (2-4; gender if the name misleads: Sasha/f): ",
                ),
                functools.partial(_parse_players, lang=lang),
                read=read,
                write=write,
            )
            sheet = Sheet.new(store, players, options or ThousandOptions())
        _loop(sheet, lang, read, write)
    except Quit:
        write(
            say(
                lang,
                "Сохранено. Продолжить: koloda thousand sheet --resume",
                "Saved. To go on: koloda thousand sheet --resume",
            )
        )
    return 0


def _loop(sheet: Sheet, lang: Lang, read: Read, write: Write) -> None:
    while True:
        _show(sheet, lang, write)
        try:
            if sheet.book.is_over:
                ask(
                    say(
                        lang,
                        "Игра окончена. Команда (отмена, экспорт md|csv|jsonl ФАЙЛ, выход): ",
                        "Game over. Command (undo, export md|csv|jsonl FILE, quit): ",
                    ),
                    lambda text: _command(sheet, text, lang, write),
                    read=read,
                    write=write,
                )
                continue
            deal = _ask_deal(sheet, lang, read, write)
        except _Command:
            continue
        try:
            sheet.add(deal)
        except ScoringError as exc:
            write(
                say(
                    lang,
                    f"Кон не записан: {exc.text(lang)}. Введите его снова.",
                    f"Deal not recorded: {exc}. Enter it again.",
                )
            )


def _show(sheet: Sheet, lang: Lang, write: Write) -> None:
    write(markdown_table(sheet.game, lang, marks=True))
    status = status_line(sheet.game, lang)
    if status:
        write(status)
    line = winner_line(sheet.game, lang)
    if line:
        write(line)


def _command(sheet: Sheet, text: str, lang: Lang, write: Write) -> None:
    """Handle undo and export; raises _Command when done, KolodaError (asked again) when not understood."""
    words = text.split()
    if not words:
        raise KolodaError(say(lang, "введите команду", "type a command"))
    head = words[0].lower()
    if head in UNDO_WORDS:
        if not sheet.book.deals:
            raise KolodaError(say(lang, "отменять нечего", "there is no deal to undo"))
        sheet.undo()
        write(say(lang, "Последний кон отменён.", "The last deal was taken back."))
        raise _Command
    if head in EXPORT_WORDS:
        parts = text.split(maxsplit=2)
        fmt = next((f for f in FORMATS if len(parts) == 3 and parts[1] == f), None)
        if fmt is None:
            raise KolodaError(say(lang, "экспорт md|csv|jsonl ФАЙЛ", "export md|csv|jsonl FILE"))
        path = Path(parts[2])
        try:
            path.write_text(sheet.export(fmt, lang), encoding="utf-8")
        except OSError as exc:
            raise KolodaError(
                say(lang, f"не записать {path}: {exc}", f"cannot write {path}: {exc}")
            ) from None
        write(say(lang, f"Записано: {path}", f"Written: {path}"))
        raise _Command
    raise KolodaError(say(lang, f"неизвестная команда: {text!r}", f"unknown command: {text!r}"))


def _parse_players(text: str, lang: Lang) -> list[Player]:
    players = []
    for item in text.split(","):
        name, _, gender = item.strip().partition("/")
        code = {"ж": "f", "f": "f", "м": "m", "m": "m", "": None}.get(gender.strip().lower(), "?")
        if code == "?":
            raise KolodaError(
                say(
                    lang,
                    f"после '/' пишется пол: ж или м (f или m): {item.strip()!r}",
                    f"gender after '/' must be ж/м or f/m: {item.strip()!r}",
                )
            )
        players.append(Player.named(name.strip(), code))  # type: ignore[arg-type]  # None, "f" or "m"
    _in_lang(check_players, lang)(players)
    return players


def _in_lang(check: Callable[..., T], lang: Lang) -> Callable[..., T]:
    """``check`` with its ScoringError shown in the interface language (ask() prints the message)."""

    def checked(*args: Any) -> T:
        try:
            return check(*args)
        except ScoringError as exc:
            raise KolodaError(exc.text(lang)) from None

    return checked


def _seat_parser(sheet: Sheet, lang: Lang, default: int | None = None) -> Callable[[str], int]:
    names = sheet.game.names

    def parse(text: str) -> int:
        text = text.strip()
        if not text and default is not None:
            return default
        if text.isdigit() and 1 <= int(text) <= len(names):
            return int(text) - 1
        for seat, name in enumerate(names):
            if text.lower() == name.lower():
                return seat
        raise KolodaError(
            say(
                lang,
                f"нет такого игрока: {text!r} ({', '.join(names)})",
                f"no such player: {text!r} ({', '.join(names)})",
            )
        )

    return parse


def _ask_deal(sheet: Sheet, lang: Lang, read: Read, write: Write) -> DealInput:
    book, names = sheet.book, sheet.game.names
    number = len(book.deals) + 1
    seat_of = _seat_parser(sheet, lang)

    def declarer_or_command(text: str) -> int:
        try:
            return seat_of(text)
        except KolodaError:
            if text.split() and text.split()[0].lower() in UNDO_WORDS | EXPORT_WORDS:
                _command(sheet, text, lang, write)
            raise

    declarer = ask(
        say(
            lang,
            f"Кон {number}. Играющий (имя или номер; отмена, экспорт md|csv|jsonl ФАЙЛ, выход): ",
            f"Deal {number}. Declarer (name or number; undo, export md|csv|jsonl FILE, quit): ",
        ),
        declarer_or_command,
        read=read,
        write=write,
    )
    sitting = None
    if book.players == 4:
        previous = book.deals[-1].deal.sitting if book.deals else None
        default = 0 if previous is None else (previous + 1) % 4
        sitting = ask(
            say(
                lang,
                f"Кто сидит (сдающий) [{names[default]}]: ",
                f"Who sits out (the dealer) [{names[default]}]: ",
            ),
            _seat_parser(sheet, lang, default),
            read=read,
            write=write,
        )
    bid = ask(
        say(lang, "Заказ: ", "Bid: "),
        lambda text: _in_lang(check_bid, lang)(book.options, _int(text, lang)),
        read=read,
        write=write,
    )
    if book.bomb_allowed(declarer) and ask(
        say(lang, "Бомба? (д/н) [н]: ", "Bomb? (y/n) [n]: "),
        lambda text: _yes_no(text, lang),
        read=read,
        write=write,
    ):
        return DealInput(declarer=declarer, bid=bid, bomb=True, sitting=sitting)
    playing = [seat for seat in range(book.players) if seat != sitting]
    points = [0] * book.players
    left = DECK_POINTS
    for seat in playing[:-1]:
        points[seat] = ask(
            say(
                lang,
                f"{names[seat]}: очки за карты (0–{left}): ",
                f"{names[seat]}: card points (0-{left}): ",
            ),
            functools.partial(_int_range, low=0, high=left, lang=lang),
            read=read,
            write=write,
        )
        left -= points[seat]
    points[playing[-1]] = left
    write(
        say(
            lang,
            f"{names[playing[-1]]}: {left} (остаток до 120)",
            f"{names[playing[-1]]}: {left} (the rest of 120)",
        )
    )
    if sitting is not None:
        points[sitting] = ask(
            say(lang, f"{names[sitting]}: очки с прикупа [0]: ", f"{names[sitting]}: talon points [0]: "),
            lambda text: _int_range(text or "0", low=0, high=DECK_POINTS, lang=lang),
            read=read,
            write=write,
        )
    marriages: list[tuple[int, ...]] = [() for _ in range(book.players)]
    allowed = marriage_values(book.options)
    for seat in playing:
        marriages[seat] = ask(
            say(
                lang,
                f"{names[seat]}: марьяжи ({' '.join(map(str, allowed))}; пусто — нет): ",
                f"{names[seat]}: marriages ({' '.join(map(str, allowed))}; empty: none): ",
            ),
            lambda text: _marriages(text, allowed, lang),
            read=read,
            write=write,
        )
    return DealInput(
        declarer=declarer,
        bid=bid,
        points=tuple(points),
        marriages=tuple(marriages) if any(marriages) else (),
        sitting=sitting,
    )


def _int(text: str, lang: Lang) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise KolodaError(
            say(lang, f"нужно целое число, а не {text!r}", f"a whole number, please, not {text!r}")
        ) from None


def _int_range(text: str, *, low: int, high: int, lang: Lang) -> int:
    value = _int(text, lang)
    if not low <= value <= high:
        raise KolodaError(
            say(
                lang, f"число от {low} до {high}, а не {value}", f"a number from {low} to {high}, not {value}"
            )
        )
    return value


def _yes_no(text: str, lang: Lang) -> bool:
    answer = text.strip().lower()
    if answer in YES:
        return True
    if answer in NO:
        return False
    raise KolodaError(say(lang, f"ответьте д или н, а не {text!r}", f"answer y or n, not {text!r}"))


def _marriages(text: str, allowed: tuple[int, ...], lang: Lang) -> tuple[int, ...]:
    values = tuple(_int(item, lang) for item in text.replace(",", " ").split())
    for value in values:
        if value not in allowed:
            raise KolodaError(
                say(
                    lang,
                    f"{value} — не марьяж ({', '.join(map(str, allowed))})",
                    f"{value} is not a marriage ({', '.join(map(str, allowed))})",
                )
            )
    if len(set(values)) != len(values):
        raise KolodaError(say(lang, "один марьяж дважды", "the same marriage twice"))
    return values
