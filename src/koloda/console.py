"""Printing on a terminal that cannot show every character: readable stand-ins, never an error.

Python encodes what koloda prints in the encoding of the terminal or the pipe. Where that is not UTF-8
(Windows' ``cp1252`` when the output goes to a file or a pipe, an ASCII locale, ``PYTHONIOENCODING``), the
suits and Cyrillic have no code, and printing them would raise ``UnicodeEncodeError``. :func:`fit_streams`
(called by ``koloda`` before anything is printed) gives such a stream the error handler
:data:`HANDLER`, which writes a stand-in for each character the encoding lacks and leaves the rest alone:

- a suit is its letter (``♠ ♣ ♦ ♥`` are ``S C D H``, the notation koloda reads), and a card with a Russian
  rank gets the Latin one, so that a card reads as a card and can be typed back (``Т♠`` is ``AS``, not
  ``TS``, which would be the ten);
- Russian is written in Latin letters, the common English-language way (BGN/PCGN without its marks:
  ``ж zh``, ``х kh``, ``ц ts``, ``ч ch``, ``ш sh``, ``щ shch``, ``ё yo``, ``й y``, ``ы y``, ``ю yu``,
  ``я ya``; ``ъ`` and ``ь`` are left out);
- punctuation becomes its ASCII look-alike (``«»`` ``"``, ``—`` ``-``, ``…`` ``...``, ``→`` ``->``);
- anything else is its accent-free letter where it has one, else ``?``.

A character the encoding has is written as it is: on cp1252 ``«»`` and ``—`` stay, on a Russian code page
the Cyrillic stays. The stand-ins are all ASCII, so every encoding can write them.

>>> fallback("Т♠ 10♥ Д♦ В♣ К♥")
'AS 10H QD JC KH'
>>> fallback("Сдача 3, сдаёт Бот 1 — «пас»")
'Sdacha 3, sdayot Bot 1 - "pas"'
>>> fallback("Тысяча: Щука, Жора, Юля, Эльф, объём", "cp1252")
'Tysyacha: Shchuka, Zhora, Yulya, Elf, obyom'
>>> "Т♠ «пас» — 5".encode("cp1252", HANDLER).decode("cp1252")
'AS «pas» — 5'
"""

from __future__ import annotations

import codecs
import io
import sys
import unicodedata
from typing import TextIO, TypeGuard

from koloda.cards import Rank, Suit

#: The name of the error handler (``codecs.register_error``); registered when this module is imported.
HANDLER = "koloda-fallback"

#: The Russian alphabet and, letter for letter, its Latin stand-ins ("" for the hard and soft signs).
ALPHABET = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
_LATIN = [
    *("a", "b", "v", "g", "d", "e", "yo", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p"),
    *("r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"),
]
CYRILLIC = {
    letter: case(latin)
    for small, latin in zip(ALPHABET, _LATIN, strict=True)
    for letter, case in ((small, str), (small.upper(), str.capitalize))
}

#: The suits (and the white ones koloda reads) by their Latin letters: ``♠ ♣ ♦ ♥`` are ``S C D H``.
SUITS = {suit.symbol: suit.letter for suit in Suit} | {"♤": "S", "♧": "C", "♢": "D", "♡": "H"}

#: The Russian rank letters of cards (``В Д К Т``), written before a suit: their Latin letters.
CARD_RANKS = {rank.russian: rank.latin for rank in Rank if rank.russian != rank.latin}

PUNCTUATION = {
    "«": '"',
    "»": '"',
    "„": '"',
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
    "—": "-",
    "–": "-",
    "−": "-",
    "…": "...",
    "→": "->",
    "←": "<-",
    "·": "|",
    "±": "+/-",
    "√": "sqrt",
    "×": "x",
    "≤": "<=",
    "≥": ">=",
    "№": "No.",
    "\u00a0": " ",
    # the terminal's table view (koloda.screen): rich's lines and boxes, the mark of the player to act
    "▶": ">",
    "✓": "+",  # a lesson done (koloda <game> learn --list)
    "─": "-",
    "━": "=",
    "│": "|",
    **dict.fromkeys("┌┐└┘├┤┬┴┼╭╮╰╯", "+"),
}


#: Every character outside ASCII that koloda prints; a stream that cannot encode one of them gets the
#: handler.
PRINTED = "".join(SUITS) + "".join(CYRILLIC) + "".join(PUNCTUATION)


def stand_in(text: str, index: int) -> str:
    """The ASCII stand-in of ``text[index]`` (a card's rank letter looks at the character after it)."""
    char = text[index]
    if char in CARD_RANKS and text[index + 1 : index + 2] in SUITS:
        return CARD_RANKS[char]
    for table in (SUITS, CYRILLIC, PUNCTUATION):
        if char in table:
            return table[char]
    plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
    return plain or "?"


def _fallback(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object
    return "".join(stand_in(text, i) for i in range(error.start, error.end)), error.end


codecs.register_error(HANDLER, _fallback)


def fallback(text: str, encoding: str = "ascii") -> str:
    """``text`` as a stream in ``encoding`` with the handler writes it."""
    return text.encode(encoding, HANDLER).decode(encoding)


def needs_fallback(encoding: str) -> bool:
    """Whether a stream in ``encoding`` lacks a character koloda prints.

    >>> needs_fallback("utf-8"), needs_fallback("cp1252"), needs_fallback("ascii")
    (False, True, True)
    """
    try:
        PRINTED.encode(encoding)
    except UnicodeEncodeError:
        return True
    except LookupError:  # an encoding Python does not know: leave the stream as it is
        return False
    return False


#: The error handlers Python gives the standard streams by default; one set on purpose
#: (``PYTHONIOENCODING=cp1252:replace``) is left alone.
_DEFAULT_ERRORS = frozenset({"strict", "surrogateescape", "backslashreplace"})


def fit_streams(
    stdout: TextIO | None = None, stderr: TextIO | None = None, stdin: TextIO | None = None
) -> None:
    """Give stdout and stderr the handler if their encoding lacks a character koloda prints; and stdin,
    in such an encoding, ``errors="replace"``, so that a line it cannot decode is refused like any wrong
    entry instead of stopping the program."""
    for stream in (stdout or sys.stdout, stderr or sys.stderr):
        if _fits(stream):
            stream.reconfigure(errors=HANDLER)
    stream = stdin or sys.stdin
    if _fits(stream):
        stream.reconfigure(errors="replace")


def _fits(stream: object) -> TypeGuard[io.TextIOWrapper]:
    """Whether ``stream`` is a text stream koloda should reconfigure (it can, and its encoding lacks a
    character koloda prints, and its errors are Python's default)."""
    return (
        isinstance(stream, io.TextIOWrapper)
        and stream.errors in _DEFAULT_ERRORS
        and needs_fallback(stream.encoding)
    )
