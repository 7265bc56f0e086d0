"""Terminal helpers shared by every interactive command: language, colour, cards, prompts, progress.

The interactive loops take ``read`` and ``write`` functions instead of touching stdin/stdout, so that
tests drive them by feeding lines.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TextIO, TypeVar

from koloda.bots.base import Fault
from koloda.cards import Card
from koloda.errors import KolodaError, RequestError
from koloda.i18n import Lang, Msg, addressed

Read = Callable[[str], str]
Write = Callable[[str], None]
T = TypeVar("T")

_RED = "\x1b[31m"
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"


class Quit(Exception):
    """The player asked to leave (``quit``/``выход``, end of input or Ctrl-C at a prompt)."""


QUIT_WORDS = frozenset({"quit", "exit", "q", "выход", "выйти"})
#: What asks a move prompt for the legal moves.
HELP_WORDS = frozenset({"?", "help", "помощь"})


def moves_asked(text: str, moves: list[str]) -> None:
    """At a move prompt, ``?`` (or help) is answered with the legal moves, as a message the prompt shows."""
    if text.strip().lower() in HELP_WORDS:
        raise RequestError(Msg("term.legal_moves", moves=", ".join(moves)))


def colour_enabled(stream: TextIO | None = None) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (no-color.org)."""
    stream = stream or sys.stdout
    return "NO_COLOR" not in os.environ and hasattr(stream, "isatty") and stream.isatty()


def card_text(card: Card, lang: Lang = "en", colour: bool = False) -> str:
    """A card with its Unicode suit, in Russian or Latin ranks, red suits in red when colour is on.

    >>> card_text(Card.parse("10H"), "ru")
    '10♥'
    >>> card_text(Card.parse("AS"), "ru"), card_text(Card.parse("AS"), "en")
    ('Т♠', 'A♠')
    """
    text = card.text("russian" if lang == "ru" else "latin", "symbol")
    if colour and card.suit.is_red:
        return f"{_RED}{text}{_RESET}"
    return text


def cards_line(cards: Iterable[Card], lang: Lang = "en", colour: bool = False) -> str:
    return " ".join(card_text(card, lang, colour) for card in cards)


def bold(text: str, colour: bool) -> str:
    return f"{_BOLD}{text}{_RESET}" if colour else text


def dim(text: str, colour: bool) -> str:
    return f"{_DIM}{text}{_RESET}" if colour else text


def ask(
    prompt: str,
    parse: Callable[[str], T],
    *,
    read: Read = input,
    write: Write = print,
    lang: Lang = "en",
    complete: Sequence[str] = (),
    blank_asks_again: bool = False,
) -> T:
    """Prompt until ``parse`` accepts the answer; a KolodaError's message is shown (in ``lang``) and the
    prompt repeated. ``complete``: the words the Tab key completes, where the terminal allows it.
    ``blank_asks_again``: an empty line is no answer (a move prompt): the prompt is asked again, nothing
    refused (where an empty line means something, such as a default, it goes to ``parse``).

    >>> answers = iter(["x", "7"])
    >>> ask("n? ", int_in(1, 9), read=lambda _: next(answers), write=print)
    not a number from 1 to 9: 'x'
    7
    """
    while True:
        try:
            with completing(complete) if read is input else contextlib.nullcontext():
                line = read(prompt)
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
        if line.strip().lower() in QUIT_WORDS:
            raise Quit
        if blank_asks_again and not line.strip():
            continue
        try:
            return parse(line)
        except KolodaError as exc:
            write(exc.text(lang))


@contextlib.contextmanager
def completing(words: Sequence[str]) -> Iterator[None]:
    """Tab completes ``words`` at the prompt while the block runs: GNU readline or libedit, on a terminal
    (nothing happens where there is neither, as on Windows' console without pyreadline)."""
    try:
        import readline
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    if not words or not sys.stdin.isatty():
        yield
        return
    choices = sorted(set(words))

    def complete(text: str, state: int) -> str | None:
        found = [word for word in choices if word.lower().startswith(text.lower())]
        return found[state] if state < len(found) else None

    old, delims = readline.get_completer(), readline.get_completer_delims()
    readline.set_completer(complete)
    readline.set_completer_delims(" \t\n")
    libedit = "libedit" in (readline.__doc__ or "")
    readline.parse_and_bind("bind ^I rl_complete" if libedit else "tab: complete")
    try:
        yield
    finally:
        readline.set_completer(old)
        readline.set_completer_delims(delims)


def refusal(reason: KolodaError, moves: Iterable[str]) -> KolodaError:
    """A refused entry at a move prompt: why (the engine's reason, which quotes the entry), and what is
    legal; ``text(lang)`` says it in the interface's language (``ask`` shows it so).

    >>> from koloda.cards import Card
    >>> try:
    ...     Card.parse("9Z")
    ... except KolodaError as exc:
    ...     print(refusal(exc, ["7♥", "пас"]).text("ru"))  # doctest: +NORMALIZE_WHITESPACE
    Так нельзя: неверная карта «9Z»: неверная масть «Z»: нужна одна из S C D H, ♠ ♣ ♦ ♥
    или П К Т Б Ч. Можно: 7♥, пас

    A reason the catalog cannot say in Russian (a plain-text message) is shown as it is, in English.
    """
    kind = type(reason)  # the same kind of error: the engine's reason, in the interface's words
    return kind(Msg("term.refused", reason=addressed(reason.detail), moves=", ".join(moves)))


def note_fault(fault: Fault) -> None:
    """A bot failed to make a move and a fallback made it: said on stderr, and the game goes on."""
    print(f"koloda: {fault}; a fallback bot moved instead", file=sys.stderr)


def int_in(low: int, high: int) -> Callable[[str], int]:
    """A parser for :func:`ask` that accepts a whole number in [low, high]."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise RequestError(Msg("term.not_a_number", low=low, high=high, text=repr(text))) from None
        if not low <= value <= high:
            raise RequestError(Msg("term.not_a_number", low=low, high=high, text=repr(text)))
        return value

    return parse


class Progress:
    """A one-line progress bar on stderr, shown only when stderr is a terminal."""

    def __init__(self, total: int, label: str = "", stream: TextIO | None = None) -> None:
        self.total = max(total, 1)
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.done = 0
        self._last = 0.0

    def advance(self, count: int = 1) -> None:
        self.done += count
        now = time.monotonic()
        if self.enabled and (now - self._last > 0.1 or self.done >= self.total):
            self._last = now
            width = 30
            filled = width * min(self.done, self.total) // self.total
            bar = "#" * filled + "-" * (width - filled)
            self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total}")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def track(items: Iterable[T], total: int, label: str = "") -> Iterator[T]:
    """Iterate with a progress bar (see :class:`Progress`)."""
    with Progress(total, label) as progress:
        for item in items:
            yield item
            progress.advance()
