"""``koloda thousand sheet``: a score keeper for a game of Thousand played with real cards.

:class:`Sheet` is the logic (players, deals, undo, exports), saved after every change in the one store
(:mod:`koloda.store`), so that a closed terminal loses nothing and the web app's score sheet page shows
the same sheets (a sheet started in one goes on in the other); :func:`run_sheet` is the thin prompt
loop, driven by ``read``/``write`` functions so that tests feed it lines.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal, TypeVar

from koloda.errors import IllegalActionError, KolodaError, NotFoundError, RecordError, RequestError
from koloda.i18n import Lang, Msg, say
from koloda.names import person_name
from koloda.store import Store, edit_link
from koloda.term import Quit, Read, Write, ask
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import (
    DECK_POINTS,
    DealInput,
    DealScore,
    ScoreBook,
    ScoringError,
    check_bid,
    marriage_values,
)
from koloda.thousand.sheet.scorefile import (
    Player,
    ScoredGame,
    check_players,
    deal_to_json,
    dump_score_file,
    stored_game,
)
from koloda.thousand.sheet.table import csv_table, markdown_table, screen_table, status_line, winner_line

T = TypeVar("T")
Format = Literal["md", "csv", "jsonl"]
FORMATS: tuple[Format, ...] = ("md", "csv", "jsonl")


def load_game(store: Store, sheet_id: int) -> ScoredGame:
    """A stored score sheet, every deal scored again from its lines (NotFoundError if there is none)."""
    return stored_game(*store.load_sheet(sheet_id))


class Sheet:
    """One game's score sheet: every change is scored by a ScoreBook and saved in the store at once."""

    def __init__(self, store: Store, game_id: int, game: ScoredGame) -> None:
        self.store = store
        self.game_id = game_id
        self.game = game

    @classmethod
    def new(cls, store: Store, players: Sequence[Player], options: ThousandOptions) -> Sheet:
        """Start a game and save it."""
        players = check_players(players)
        book = ScoreBook(options, len(players))
        sheet_id = store.create_sheet([player.to_json() for player in players], options.to_dict())
        return cls(store, sheet_id, ScoredGame(tuple(players), book))

    @classmethod
    def load(cls, store: Store, game_id: int) -> Sheet:
        """A saved game, every deal scored again from the stored lines."""
        return cls(store, game_id, load_game(store, game_id))

    @classmethod
    def resume(cls, store: Store) -> Sheet:
        """The most recently started saved game that has not ended, kept in the terminal or the browser."""
        for game_id in reversed(store.sheet_ids()):
            sheet = cls.load(store, game_id)
            if not sheet.game.book.is_over:
                return sheet
        raise NotFoundError(f"no unfinished game to resume in {store.location}")

    @property
    def book(self) -> ScoreBook:
        return self.game.book

    def link(self) -> str:
        """The sheet's edit link: a browser that opens it keeps the score too (docs/web.md, "Edit keys")."""
        return edit_link("sheet", self.game_id, self.store.sheet_key(self.game_id))

    def add(self, deal: DealInput) -> DealScore:
        """Score a deal and save it; a bad deal raises ScoringError and nothing is saved."""
        score = self.book.apply(deal)
        try:
            line = deal_to_json(deal, self.game.names)
            self.store.add_sheet_deal(self.game_id, len(self.book.deals), line, summary=self.game.summary())
        except RecordError as exc:
            self.book.undo()
            raise RecordError(f"the deal was not saved: {exc}") from None
        return score

    def undo(self) -> DealScore:
        """Take back the last deal, in the book and in the store."""
        seq = len(self.book.deals)
        score = self.book.undo()
        self.store.remove_sheet_deal(self.game_id, seq, summary=self.game.summary())
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
    store: Store,
    *,
    options: ThousandOptions | None = None,
    resume: bool = False,
    sheet_id: int | None = None,
    lang: Lang = "ru",
    read: Read = input,
    write: Write = print,
) -> int:
    """The interactive sheet: players, then deal after deal until the game ends or the user quits.

    ``resume`` goes on with the last unfinished sheet, ``sheet_id`` with that one (finished or not), kept
    in the terminal or in the browser alike.
    """
    if (resume or sheet_id is not None) and options is not None:
        raise RequestError("--resume continues a saved game with its own options; drop --preset/--option")
    sheet: Sheet | None = None
    try:
        if resume or sheet_id is not None:
            sheet = Sheet.resume(store) if sheet_id is None else Sheet.load(store, sheet_id)
            write(say(lang, "sheet.resuming", id=sheet.game_id))
        else:
            players = ask(say(lang, "sheet.ask_players"), _parse_players, read=read, write=write, lang=lang)
            sheet = Sheet.new(store, players, options or ThousandOptions())
        write(say(lang, "sheet.edit_link", link=sheet.link()))
        _loop(sheet, lang, read, write)
    except Quit:
        if sheet is None:  # left before the players were entered: nothing was started
            return 0
        write(say(lang, "sheet.saved", id=sheet.game_id))
    return 0


def _loop(sheet: Sheet, lang: Lang, read: Read, write: Write) -> None:
    while True:
        _show(sheet, lang, write)
        try:
            if sheet.book.is_over:
                ask(
                    say(lang, "sheet.ask_command"),
                    lambda text: _command(sheet, text, lang, write),
                    read=read,
                    write=write,
                    lang=lang,
                )
                continue
            deal = _ask_deal(sheet, lang, read, write)
        except _Command:
            continue
        try:
            sheet.add(deal)
        except ScoringError as exc:
            write(say(lang, "sheet.deal_refused", reason=exc.text(lang)))


def _show(sheet: Sheet, lang: Lang, write: Write) -> None:
    write(screen_table(sheet.game, lang, marks=True))
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
        raise RequestError(Msg("sheet.no_command"))
    head = words[0].lower()
    if head in UNDO_WORDS:
        if not sheet.book.deals:
            raise IllegalActionError(Msg("sheet.nothing_to_undo"))
        sheet.undo()
        write(say(lang, "sheet.undone"))
        raise _Command
    if head in EXPORT_WORDS:
        parts = text.split(maxsplit=2)
        fmt = next((f for f in FORMATS if len(parts) == 3 and parts[1] == f), None)
        if fmt is None:
            raise RequestError(Msg("sheet.export_usage"))
        path = Path(parts[2])
        try:
            path.write_text(sheet.export(fmt, lang), encoding="utf-8")
        except OSError as exc:
            raise RecordError(Msg("sheet.cannot_write", path=path, reason=exc)) from None
        write(say(lang, "sheet.written", path=path))
        raise _Command
    raise RequestError(Msg("sheet.unknown_command", text=repr(text)))


def _parse_players(text: str) -> list[Player]:
    players = []
    for item in text.split(","):
        name, _, gender = item.strip().partition("/")
        code = {"ж": "f", "f": "f", "м": "m", "m": "m", "": None}.get(gender.strip().lower(), "?")
        if code == "?":
            raise RequestError(Msg("sheet.bad_gender", item=repr(item.strip())))
        players.append(Player.named(person_name(name), code))  # type: ignore[arg-type]  # None, "f" or "m"
    check_players(players)
    return players


def _seat_parser(sheet: Sheet, default: int | None = None) -> Callable[[str], int]:
    names = sheet.game.names

    def parse(text: str) -> int:
        text = text.strip()
        if not text and default is not None:
            return default
        if text.isascii() and text.isdigit() and len(text) <= 2 and 1 <= int(text) <= len(names):
            return int(text) - 1
        for seat, name in enumerate(names):
            if text.lower() == name.lower():
                return seat
        raise RequestError(Msg("sheet.no_player", text=repr(text), names=", ".join(names)))

    return parse


def _ask_deal(sheet: Sheet, lang: Lang, read: Read, write: Write) -> DealInput:
    book, names = sheet.book, sheet.game.names
    number = len(book.deals) + 1
    seat_of = _seat_parser(sheet)

    def declarer_or_command(text: str) -> int:
        try:
            return seat_of(text)
        except KolodaError:
            if text.split() and text.split()[0].lower() in UNDO_WORDS | EXPORT_WORDS:
                _command(sheet, text, lang, write)
            raise

    declarer = ask(
        say(lang, "sheet.ask_declarer", number=number), declarer_or_command, read=read, write=write, lang=lang
    )
    sitting = None
    if book.players == 4:
        previous = book.deals[-1].deal.sitting if book.deals else None
        default = 0 if previous is None else (previous + 1) % 4
        sitting = ask(
            say(lang, "sheet.ask_sitting", name=names[default]),
            _seat_parser(sheet, default),
            read=read,
            write=write,
            lang=lang,
        )
    bid = ask(
        say(lang, "sheet.ask_bid"),
        lambda text: check_bid(book.options, _int(text)),
        read=read,
        write=write,
        lang=lang,
    )
    if book.bomb_allowed(declarer) and ask(
        say(lang, "sheet.ask_bomb"), _yes_no, read=read, write=write, lang=lang
    ):
        return DealInput(declarer=declarer, bid=bid, bomb=True, sitting=sitting)
    playing = [seat for seat in range(book.players) if seat != sitting]
    points = [0] * book.players
    left = DECK_POINTS
    for seat in playing[:-1]:
        points[seat] = ask(
            say(lang, "sheet.ask_points", name=names[seat], left=left),
            functools.partial(_int_range, low=0, high=left),
            read=read,
            write=write,
            lang=lang,
        )
        left -= points[seat]
    points[playing[-1]] = left
    write(say(lang, "sheet.rest", name=names[playing[-1]], left=left))
    if sitting is not None:
        points[sitting] = ask(
            say(lang, "sheet.ask_talon", name=names[sitting]),
            lambda text: _int_range(text or "0", low=0, high=DECK_POINTS),
            read=read,
            write=write,
            lang=lang,
        )
    marriages: list[tuple[int, ...]] = [() for _ in range(book.players)]
    allowed = marriage_values(book.options)
    for seat in playing:
        marriages[seat] = ask(
            say(lang, "sheet.ask_marriages", name=names[seat], allowed=" ".join(map(str, allowed))),
            lambda text: _marriages(text, allowed),
            read=read,
            write=write,
            lang=lang,
        )
    return DealInput(
        declarer=declarer,
        bid=bid,
        points=tuple(points),
        marriages=tuple(marriages) if any(marriages) else (),
        sitting=sitting,
    )


def _int(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise RequestError(Msg("sheet.not_whole", text=repr(text))) from None


def _int_range(text: str, *, low: int, high: int) -> int:
    value = _int(text)
    if not low <= value <= high:
        raise RequestError(Msg("sheet.not_in_range", low=low, high=high, value=value))
    return value


def _yes_no(text: str) -> bool:
    answer = text.strip().lower()
    if answer in YES:
        return True
    if answer in NO:
        return False
    raise RequestError(Msg("sheet.yes_no", text=repr(text)))


def _marriages(text: str, allowed: tuple[int, ...]) -> tuple[int, ...]:
    values = tuple(_int(item) for item in text.replace(",", " ").split())
    for value in values:
        if value not in allowed:
            raise RequestError(Msg("sheet.not_marriage", value=value, allowed=", ".join(map(str, allowed))))
    if len(set(values)) != len(values):
        raise RequestError(Msg("sheet.marriage_twice"))
    return values
