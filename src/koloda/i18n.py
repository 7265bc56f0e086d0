"""Languages and the one translation catalog: every text a person reads, in Russian and English.

:data:`Lang` is defined here once. The texts live in gettext catalogs, one per language, in
``koloda/locale/<lang>/LC_MESSAGES/koloda.po`` (edited by people) and the ``koloda.mo`` compiled from
it beside it (what runs: ``python scripts/i18n.py compile``; a test fails when a ``.mo`` is stale).
A message id is a key such as ``bank.cli.winner``, and every key has a text in every language: English
is a translation like Russian, so both are checked the same way (docs/architecture.md, "Text and languages").

Texts are ``str.format`` templates with named parameters. A plural message (Russian has three forms,
«1 игрок, 2 игрока, 5 игроков») is chosen by the parameter ``n``, which no other message uses:

>>> say("ru", "bank.cli.players", n=2), say("ru", "bank.cli.players", n=5), say("en", "bank.cli.players", n=1)
('2 игрока', '5 игроков', '1 player')

A :class:`Msg` is a message not yet said: a key and its parameters, said later in either language
(the error family carries one, koloda.errors). A parameter that is itself a Msg is said in the same
language; a format spec picks another form of it where the catalog has one (``{rank:object}`` is the
key ``<rank's key>.object``, else the rank's plain form):

>>> reason = Msg("thousand.scoring.bid_low", bid=95, low=100)
>>> str(reason), reason.text("ru")
('bid 95 is below the lowest bid 100', 'заказ 95 меньше наименьшего (100)')

The browser gets the texts of the keys under :data:`BROWSER` from the server (:func:`words`), never a
copy in JavaScript.
"""

from __future__ import annotations

import functools
import gettext
import struct
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Literal

Lang = Literal["ru", "en"]
LANGS: tuple[Lang, ...] = ("ru", "en")

DOMAIN = "koloda"
#: The keys the web pages use (their prefixes): sent to the browser by :func:`words`. ``option.`` holds the
#: label and help of every game's options (koloda.options.OptionText), which the pages' forms show.
BROWSER = ("web.", "bank.bonus.", "option.")


class Msg:
    """A message id with its parameters, said in a language by :meth:`text` (``str()`` is English)."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, /, **params: object) -> None:
        self.key = key
        self.params: Mapping[str, object] = params

    def text(self, lang: Lang) -> str:
        """The message in ``lang``."""
        return say(lang, self.key, **self.params)

    def __str__(self) -> str:
        return self.text("en")

    def __repr__(self) -> str:
        params = "".join(f", {name}={value!r}" for name, value in self.params.items())
        return f"Msg({self.key!r}{params})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Msg):
            return NotImplemented
        return (self.key, dict(self.params)) == (other.key, dict(other.params))

    __hash__ = None  # type: ignore[assignment]  # the parameters may be unhashable


class Shown:
    """A parameter said in each language's own notation (cards: ``Д♥`` in Russian, ``QH`` in English): a
    message holding one says it with :meth:`text` in the message's language, like a parameter that is a
    :class:`Msg` (koloda.cards.CardsShown)."""

    __slots__ = ()

    def text(self, lang: Lang) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text("en")


def N_(key: str) -> str:
    """Mark a key that is said later (a table of keys): the catalog's tools find it here."""
    return key


def say(lang: Lang, key: str, /, **params: object) -> str:
    """The message ``key`` in ``lang``, its parameters filled in (``n`` chooses a plural form).

    A key the catalog lacks in ``lang`` is said in English, and one it lacks altogether is the key itself
    (the catalog's tests make sure neither happens).
    """
    template = _catalog(lang).template(key, params.get("n"))
    values = {name: _Said(v, lang) if isinstance(v, (Msg, Shown)) else v for name, v in params.items()}
    return template.format_map(values)


def template(lang: Lang, key: str, n: int | None = None) -> str:
    """The template of ``key`` in ``lang``, unfilled (the form for ``n`` of a plural message)."""
    return _catalog(lang).template(key, n)


def known(key: str) -> bool:
    """Whether the catalog has ``key`` (in English, which every key has)."""
    return _catalog("en").has(key)


def words(lang: Lang) -> dict[str, str]:
    """The browser's texts in ``lang``: every key under :data:`BROWSER`, its template unfilled."""
    catalog = _catalog(lang)
    return {key: catalog.template(key, None) for key in catalog.ids() if key.startswith(BROWSER)}


#: A reason that names the seat acting is said to the person who made the move in the second person (the
#: terminal's prompts, the web's refusal of a seat's own action): these keys have a form ``KEY.you`` ("you
#: must follow suit ♥", not "seat 0 must follow suit ♥").
ADDRESSED = (
    N_("thousand.why.beat.you"),
    N_("thousand.why.follow.you"),
    N_("thousand.why.marriage_pair.you"),
    N_("thousand.why.no_bomb.you"),
    N_("thousand.why.not_held.you"),
    N_("thousand.why.phase.you"),
    N_("thousand.why.trump.you"),
    N_("bank.why.not_held.you"),
    N_("bank.why.suit_taken.you"),
    N_("bank.illegal_for.you"),  # without the seat's number
    N_("thousand.refused.you"),  # without the action's number
)


def addressed(detail: Msg | str) -> Msg | str:
    """The engine's reason for refusing the person's own move, in words for that person: no seat number,
    no action number (see :data:`ADDRESSED`).

    >>> print(addressed(Msg("thousand.why.follow", seat=0, suit="♥")))
    you must follow suit ♥ (rule G11)
    >>> print(addressed(Msg("thousand.refused", action="9S", id=0, reason=Msg("thousand.why.over"))))
    '9S' is refused: the game is over
    """
    if not isinstance(detail, Msg):
        return detail
    params = {
        name: addressed(value) if isinstance(value, Msg) else value for name, value in detail.params.items()
    }
    key = detail.key + ".you" if known(detail.key + ".you") else detail.key
    return Msg(key, **params)


def plural_forms(lang: Lang) -> int:
    """How many plural forms ``lang`` has (English 2, Russian 3)."""
    return _catalog(lang).nplurals


def plural_form(lang: Lang, n: int) -> int:
    """Which plural form of ``lang`` a count ``n`` takes (the catalog's ``Plural-Forms`` formula).

    >>> [plural_form("ru", n) for n in (1, 2, 5, 11, 21)], plural_form("en", 1), plural_form("en", 0)
    ([0, 1, 2, 2, 0], 0, 1)
    """
    return _catalog(lang).plural(n)


def entries(lang: Lang, prefixes: tuple[str, ...]) -> dict[str, str | list[str]]:
    """Every key under ``prefixes`` with its template in ``lang`` (English where ``lang`` lacks it), a plural
    message as the list of its forms: what a page needs to say the engines' messages itself."""
    english = _catalog("en")
    out: dict[str, str | list[str]] = {}
    for key in english.ids():
        if key.startswith(prefixes):
            found = _catalog(lang).messages.get(key, english.messages[key])
            out[key] = found if isinstance(found, str) else list(found)
    return out


class _Said:
    """A Msg (or :class:`Shown`) parameter while a template of ``lang`` is filled: a spec names one of a
    Msg's forms."""

    __slots__ = ("lang", "msg")

    def __init__(self, msg: Msg | Shown, lang: Lang) -> None:
        self.msg, self.lang = msg, lang

    def __format__(self, spec: str) -> str:
        if spec and isinstance(self.msg, Msg):
            form = f"{self.msg.key}.{spec}"
            if _catalog(self.lang).has(form):
                return say(self.lang, form, **self.msg.params)
        return self.msg.text(self.lang)

    def __str__(self) -> str:
        return self.msg.text(self.lang)

    def __repr__(self) -> str:  # ``{action!r}``: the text quoted
        return repr(self.msg.text(self.lang))


class _Catalog:
    """One language's compiled catalog (a GNU ``.mo`` file, as Babel writes it), in memory.

    Singular messages map a key to its template, plural ones to a tuple of forms chosen by the
    language's plural formula (the catalog's ``Plural-Forms`` header, read by gettext's ``c2py``).
    """

    def __init__(self, data: bytes, fallback: _Catalog | None) -> None:
        self.fallback = fallback
        self.messages: dict[str, str | tuple[str, ...]] = {}
        header = ""
        order = "<" if data[:4] == b"\xde\x12\x04\x95" else ">"
        _magic, _revision, count, ids_at, strs_at = struct.unpack(order + "5I", data[:20])
        for i in range(count):
            id_len, id_at = struct.unpack(order + "2I", data[ids_at + 8 * i : ids_at + 8 * i + 8])
            str_len, str_at = struct.unpack(order + "2I", data[strs_at + 8 * i : strs_at + 8 * i + 8])
            msgid = data[id_at : id_at + id_len].decode()
            msgstr = data[str_at : str_at + str_len].decode()
            if not msgid:
                header = msgstr
            elif "\x00" in msgid:  # a plural entry: "key\0plural key", its forms joined by NUL
                self.messages[msgid.split("\x00")[0]] = tuple(msgstr.split("\x00"))
            else:
                self.messages[msgid] = msgstr
        self.nplurals, self.plural = _plural_forms(header)

    def ids(self) -> list[str]:
        return sorted(self.messages)

    def has(self, key: str) -> bool:
        return key in self.messages

    def template(self, key: str, n: object) -> str:
        found = self.messages.get(key)
        if found is None:
            return self.fallback.template(key, n) if self.fallback is not None else key
        if isinstance(found, str):
            return found
        index = self.plural(n) if type(n) is int else len(found) - 1
        return found[min(index, len(found) - 1)]


def _plural_forms(header: str) -> tuple[int, Callable[[int], int]]:
    for line in header.splitlines():
        name, _, value = line.partition(":")
        if name.strip().lower() == "plural-forms":
            parts = dict(part.strip().split("=", 1) for part in value.split(";") if "=" in part)
            return int(parts["nplurals"]), gettext.c2py(parts["plural"])
    return 2, lambda n: int(n != 1)


@functools.cache
def _catalog(lang: Lang) -> _Catalog:
    fallback = None if lang == "en" else _catalog("en")
    path = resources.files("koloda") / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    return _Catalog(path.read_bytes(), fallback)
