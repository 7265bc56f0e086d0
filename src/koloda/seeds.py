"""Where every shuffle comes from: the seed a game records, and the streams of draws made from it.

A seed is one of two kinds, and a record says which by its type:

- a **secret** (a ``str`` of 64 lowercase hex digits: 256 bits from :mod:`secrets`). Tables of the web
  app, games in the terminal and banki games deal from one. Each use of it (a deal, the match's set-up, a
  counting-out) is its own :class:`Stream`: HMAC-SHA256 keyed by the secret over the use's label and a
  block counter, read as 32-bit words. Nobody who lacks the secret can tell the next card from the cards
  seen so far (that would break HMAC-SHA256), and nobody can search the secrets (2^256 of them). Before
  the first deal a table publishes the secret's :func:`commitment`; when the match ends it reveals the
  secret, and anyone can recompute every deal (``koloda verify``, koloda.verify).
- a **number** (an ``int`` >= 0): the research interfaces, ``simulate``, the tests and golden records, and
  a seed that the host of a private table chooses. These keep Python's Mersenne Twister, seeded as
  before, so that every record made with a number replays as it did and simulation stays as fast. A
  number is no secret: whoever knows it, or searches the 2^31 that a person picks from, knows every hand
  (docs/web.md, "Fair shuffles").

>>> import random
>>> secret = "00" * 32
>>> commitment(secret)[:16]
'60e05bd1b195af2f'
>>> deck = list(range(6))
>>> draws(secret, "doc", random.Random).shuffle(deck)
>>> deck
[3, 5, 2, 4, 1, 0]
>>> number(secret, "bot:1") == number(secret, "bot:1") != number(secret, "bot:2")
True
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
import struct
from collections.abc import Callable, MutableSequence
from typing import Any, Protocol, TypeAlias

from koloda.errors import RecordError

#: A game's seed: a secret (str) or a number (int); see the module's text.
Seed: TypeAlias = int | str

SECRET_BYTES = 32  # 256 bits
_SECRET = re.compile(r"[0-9a-f]{64}")
_WORDS = struct.Struct(">8I")  # one HMAC-SHA256 block: eight big-endian 32-bit words


class Draws(Protocol):
    """What the deals ask of a stream of draws (``random.Random`` has both)."""

    def randrange(self, stop: int, /) -> int: ...

    def shuffle(self, x: MutableSequence[Any], /) -> None: ...


def new_secret() -> str:
    """A fresh secret seed (256 bits from the operating system's generator)."""
    return secrets.token_hex(SECRET_BYTES)


def is_secret(seed: object) -> bool:
    return isinstance(seed, str) and _SECRET.fullmatch(seed) is not None


def check(seed: object, what: str = "the seed") -> Seed:
    """``seed`` if it is a seed of either kind, else a RecordError naming it."""
    if type(seed) is int and seed >= 0:
        return seed
    if is_secret(seed):
        assert isinstance(seed, str)
        return seed
    raise RecordError(
        f"{what} must be a non-negative integer or a secret of 64 lowercase hex digits, not {seed!r}"
    )


def commitment(secret: str) -> str:
    """The public promise of a secret: the SHA-256 of its 64 hex digits as text, in hex. Anyone can check
    it (``printf %s SECRET | sha256sum``); nobody can find the secret from it."""
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


class Stream:
    """The draws of one use of a secret: unpredictable without the secret, the same every time with it.

    Block ``i`` (from 0) is HMAC-SHA256(key = the secret's 32 bytes, message = the label in UTF-8, a zero
    byte, ``i`` as 8 big-endian bytes); each block is eight 32-bit big-endian words, used in order. A
    number below ``n`` (n > 1) takes the top ``(n - 1).bit_length()`` bits of the next word and draws
    again while the result is ``n`` or more (so every number is equally likely); below 1 it is 0, with
    no word used. :meth:`shuffle` is Fisher-Yates from the end, as ``random.shuffle``: for ``i`` from
    ``len - 1`` down to 1, swap item ``i`` with item ``below(i + 1)``. ``koloda/web/static/fair.js``
    computes the same in the browser.
    """

    __slots__ = ("_block", "_key", "_prefix", "_words")

    def __init__(self, secret: str, label: str) -> None:
        self._key = bytes.fromhex(secret)
        self._prefix = label.encode("utf-8") + b"\x00"
        self._block = 0
        self._words: list[int] = []

    def _word(self) -> int:
        if not self._words:
            digest = hmac.digest(self._key, self._prefix + self._block.to_bytes(8, "big"), "sha256")
            self._block += 1
            self._words = list(_WORDS.unpack(digest))
            self._words.reverse()  # popped from the end: the first word first
        return self._words.pop()

    def below(self, n: int) -> int:
        """A number from 0 to ``n - 1``, every one equally likely (1 <= n <= 2^32)."""
        if not 1 <= n <= 1 << 32:
            raise ValueError(f"cannot draw below {n}")
        if n == 1:
            return 0
        shift = 32 - (n - 1).bit_length()
        while True:
            value = self._word() >> shift
            if value < n:
                return value

    def randrange(self, stop: int, /) -> int:
        return self.below(stop)

    def shuffle(self, x: MutableSequence[Any], /) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]


def draws(seed: Seed, label: str, fast: Callable[[int], random.Random]) -> Draws:
    """The draws of one use of ``seed``: a :class:`Stream` of a secret under ``label``; for a number, the
    Mersenne Twister the game has always seeded from it (``fast(seed)``, as it was before secrets, so that
    old records replay)."""
    return Stream(seed, label) if isinstance(seed, str) else fast(seed)


def number(secret: str, label: str) -> int:
    """A 32-bit number drawn from a secret under ``label`` (a bot's seed at a table, say): as secret as
    the secret, and the same every time."""
    return int.from_bytes(hmac.digest(bytes.fromhex(secret), label.encode("utf-8"), "sha256")[:4], "big")


def derive(seed: Seed, label: str, fast: Callable[[int], int]) -> int:
    """A number for one use of ``seed`` (a bot's seed): :func:`number` for a secret, ``fast(seed)`` (the
    formula kept for number seeds) for a number."""
    return number(seed, label) if isinstance(seed, str) else fast(seed)


def bot_seed(seed: Seed, seat: int) -> int:
    """The seed of the bot at ``seat`` of a game in the terminal (``seed * 10 + seat`` for a number, as
    before secrets, so that a game played again from its number meets the same bots)."""
    return derive(seed, f"bot:{seat}", lambda number: number * 10 + seat)
