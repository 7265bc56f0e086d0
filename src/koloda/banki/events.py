"""The referee's events and their canonical text notation (``docs/rules/banki.md``, section Notation).

An event is what players tell the referee happened in the yard. ``str(event)`` is the canonical text
and :meth:`Event.parse` reads it back (also the Russian keywords):

>>> e = Event.parse("tag Аня hand heel")
>>> str(e), Event.parse(str(e)) == e
('tag Аня hand heel', True)
>>> str(Event.parse("попал Боря копьём"))
'hit Боря spear'
>>> str(Event.parse("kick Вера 12,50"))
'kick Вера 12.5'

Player names are checked against the game by the state (:meth:`BankiState.parse_event`), not here.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Literal

from koloda import names
from koloda.errors import NotationError
from koloda.i18n import N_, Lang, Msg

Kind = Literal[
    "kick", "count", "counted", "hit", "miss", "reset", "back", "pick", "bring", "tag", "knock",
    "foul", "cross", "snatch", "guarded", "last", "order", "join", "leave",
]  # fmt: skip
KINDS: tuple[Kind, ...] = (
    "kick", "count", "counted", "hit", "miss", "reset", "back", "pick", "bring", "tag", "knock",
    "foul", "cross", "snatch", "guarded", "last", "order", "join", "leave",
)  # fmt: skip
MEANS = ("stick", "hand")
PARTS = ("head", "torso", "arm", "leg", "heel")
WHERE = ("pile", "field")
FOULS = ("grab", "line")

#: Russian spellings of every keyword (lower case) -> the canonical English keyword.
ALIASES: dict[str, str] = {
    "пинок": "kick",
    "считалка": "count",
    "выпал": "counted",
    "попал": "hit",
    "мимо": "miss",
    "поставил": "reset",
    "вернулся": "back",
    "поднял": "pick",
    "пришёл": "join",
    "пришел": "join",
    "ушёл": "leave",
    "ушел": "leave",
    "принёс": "bring",
    "принес": "bring",
    "осалил": "tag",
    "сбил": "knock",
    "нарушение": "foul",
    "крест": "cross",
    "выхватил": "snatch",
    "уберёг": "guarded",
    "уберег": "guarded",
    "последний": "last",
    "приказ": "order",
    "копьём": "spear",
    "копьем": "spear",
    "куча": "pile",
    "поле": "field",
    "палкой": "stick",
    "рукой": "hand",
    "ногой": "foot",
    "голова": "head",
    "туловище": "torso",
    "рука": "arm",
    "нога": "leg",
    "пятка": "heel",
    "чужая": "grab",
    "линия": "line",
}
#: Each keyword as a Russian page or terminal writes it: the first Russian spelling of ALIASES.
RUSSIAN: dict[str, str] = {}
for _word, _keyword_ in ALIASES.items():
    RUSSIAN.setdefault(_keyword_, _word)


def in_words(text: str, lang: Lang) -> str:
    """An event line with its keywords in ``lang`` (names and distances as they are; an order's own
    words too): what the Russian page shows and fills in, and :meth:`Event.parse` reads back.

    >>> in_words("tag Аня hand heel", "ru"), in_words("hit Боря spear", "ru"), in_words("kick Аня 7", "en")
    ('осалил Аня рукой пятка', 'попал Боря копьём', 'kick Аня 7')
    >>> str(Event.parse(in_words("tag Аня hand heel", "ru")))
    'tag Аня hand heel'
    """
    if lang == "en":
        return text
    words = text.split(" ")
    keep = 2 if words[0] == "order" else len(words)  # what the winner orders is his own words
    return " ".join(RUSSIAN.get(word, word) if i < keep else word for i, word in enumerate(words))


#: Words that cannot be player names, so that every event reads one way only.
RESERVED = frozenset(
    {*KINDS, "spear", "foot", *MEANS, *PARTS, *WHERE, *FOULS, *ALIASES, "undo", "help", "quit"}
)
_NAME = re.compile(r"^[^\W\d][\w-]*$")
_DISTANCE = re.compile(r"^(\d{1,4})(?:[.,](\d{1,2}))?$")


@dataclass(frozen=True)
class Event:
    """One thing that happened; fields not used by a kind stay ``None``/``False``."""

    kind: Kind
    player: str | None = None  # the player the event is about
    other: str | None = None  # the second player: whose stick is brought (bring) or crossed (cross)
    centimetres: int | None = None  # kick: distance of the kicked stick
    spear: bool = False  # hit/miss: thrown spear-style (M15)
    where: str | None = None  # miss in the Chelyabinsk game: "pile" or "field" (C4)
    means: str | None = None  # tag: "stick" or "hand"; knock: "hand" or "foot" (refused, M11)
    part: str | None = None  # tag: the body part touched
    foul: str | None = None  # foul: "grab" (another's stick, M12) or "line" (crossed the line, M13)
    text: str | None = None  # order: what the winner orders

    def __str__(self) -> str:
        words: list[str] = [self.kind]
        if self.player is not None:
            words.append(self.player)
        if self.other is not None:
            words.append(self.other)
        if self.centimetres is not None:
            metres, cm = divmod(self.centimetres, 100)
            words.append(f"{metres}.{cm:02d}".rstrip("0").rstrip(".") if cm else str(metres))
        if self.spear:
            words.append("spear")
        words += [w for w in (self.where, self.means, self.part, self.foul, self.text) if w is not None]
        return " ".join(words)

    def __repr__(self) -> str:
        return f"Event.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Event:
        """Read an event in canonical or Russian notation; NotationError says what is wrong."""
        words = text.split()
        if not words:
            raise NotationError(Msg("banki.notation.empty", kinds=", ".join(KINDS)))
        kind = _keyword(words[0])
        if kind not in KINDS:
            raise NotationError(
                Msg("banki.notation.unknown", word=words[0], text=text, kinds=", ".join(KINDS))
            )
        args = words[1:]
        if kind == "order":
            if len(args) < 2:
                raise NotationError(Msg("banki.notation.form", text=text, form="order NAME WHAT TO DO"))
            return cls("order", player=_name(args[0], text), text=" ".join(args[1:]))
        args = [_keyword(word) for word in args]
        if kind in ("count", "reset", "guarded"):
            _arity(text, args, 0, kind)
            return cls(kind)
        if kind == "knock" and len(args) == 2:  # M11: 'knock NAME hand|foot' is said only to be refused
            _choice(text, args[1], ("hand", "foot"), N_("banki.notation.what.means"))
            return cls("knock", player=_name(args[0], text), means=args[1])
        if kind in ("counted", "back", "pick", "knock", "snatch", "last", "join", "leave"):
            _arity(text, args, 1, f"{kind} NAME")
            return cls(kind, player=_name(args[0], text))
        if kind in ("bring", "cross"):
            _arity(text, args, 2, f"{kind} NAME OTHER")
            return cls(kind, player=_name(args[0], text), other=_name(args[1], text))
        if kind == "kick":
            _arity(text, args, 2, "kick NAME METRES")
            match = _DISTANCE.match(args[1])
            if match is None:
                raise NotationError(Msg("banki.notation.distance", text=text, distance=args[1]))
            cm = int(match.group(1)) * 100 + int((match.group(2) or "0").ljust(2, "0"))
            return cls("kick", player=_name(args[0], text), centimetres=cm)
        if kind == "tag":
            _arity(text, args, 3, "tag NAME stick|hand PART")
            _choice(text, args[1], MEANS, N_("banki.notation.what.means"))
            _choice(text, args[2], PARTS, N_("banki.notation.what.part"))
            return cls("tag", player=_name(args[0], text), means=args[1], part=args[2])
        if kind == "foul":
            _arity(text, args, 2, "foul NAME grab|line")
            _choice(text, args[1], FOULS, N_("banki.notation.what.foul"))
            return cls("foul", player=_name(args[0], text), foul=args[1])
        # hit / miss NAME [spear] [pile|field]
        form = f"{kind} NAME [spear] [pile|field]"
        if not args:
            raise NotationError(Msg("banki.notation.form", text=text, form=form))
        rest = args[1:]
        spear = "spear" in rest
        where = [word for word in rest if word != "spear"]
        if rest.count("spear") > 1 or len(where) > 1:
            raise NotationError(Msg("banki.notation.form", text=text, form=form))
        if where:
            _choice(text, where[0], WHERE, N_("banki.notation.what.where"))
        return cls(kind, player=_name(args[0], text), spear=spear, where=where[0] if where else None)

    def players(self) -> tuple[str, ...]:
        """The player names the event mentions."""
        return tuple(name for name in (self.player, self.other) if name is not None)


def check_name(name: str) -> str:
    """A player name (koloda.names: composed, no character that does not show or turns the text), one word
    starting with a letter, not a keyword of the notation; the name in its composed form."""
    try:
        name = names.clean(name)
    except names.BadName as exc:
        raise NotationError(exc.detail) from None
    if not _NAME.match(name):
        raise NotationError(Msg("banki.notation.name", name=name))
    if name.lower() in RESERVED:
        raise NotationError(Msg("banki.notation.reserved", name=name))
    return name


def _keyword(word: str) -> str:
    lowered = word.lower()
    return ALIASES.get(lowered, lowered if lowered in RESERVED else word)


def _name(word: str, text: str) -> str:
    try:
        return check_name(word)
    except NotationError as exc:
        raise NotationError(Msg("banki.notation.in", text=text, reason=exc.detail)) from None


def _arity(text: str, args: list[str], count: int, form: str) -> None:
    if len(args) != count:
        raise NotationError(Msg("banki.notation.form", text=text, form=form))


def _choice(text: str, word: str, allowed: tuple[str, ...], what: str) -> None:
    """``what`` is the catalog's key of the word's part of the event."""
    if word not in allowed:
        raise NotationError(
            Msg("banki.notation.choice", text=text, what=Msg(what), word=word, allowed=", ".join(allowed))
        )


# -- the stages of a game, and the events each allows ------------------------------------------------------


class Phase(enum.Enum):
    """The stages of a game; the events each allows are in ``PHASE_EVENTS``."""

    COUNT = "count"  # C1: counting out the first driver
    KICK = "kick"  # G2, M3, C3: kicking sticks off the toe for the order (and, M3, the driver)
    THROW = "throw"  # M4 / C7: throws at the can
    RACE = "race"  # M5-M13: fetching sticks while the driver tags
    DRIVER_THROW = "driver-throw"  # C8: the driver's own throw
    RUN = "run"  # C9: the run to the first line; the last one drives
    OVER = "over"  # M19, C10


PHASE_EVENTS: dict[Phase, tuple[str, ...]] = {
    Phase.COUNT: ("count", "counted"),
    Phase.KICK: ("kick",),
    # G9: "join" and "leave" only before a round's first event; C7 adds "back" (fetched between throws)
    Phase.THROW: ("hit", "miss", "reset", "cross", "join", "leave"),
    Phase.RACE: ("back", "pick", "bring", "tag", "knock", "reset", "foul", "cross"),
    Phase.DRIVER_THROW: ("snatch", "guarded"),
    Phase.RUN: ("last",),
    Phase.OVER: ("order",),
}


class Stick(enum.Enum):
    """Where a player's stick is."""

    HAND = "hand"  # behind the line with the stick: ready to throw, safe from tags
    FIELD = "field"  # out on the field: its owner must fetch it
    CARRIED = "carried"  # M16 (tag_means "holding"): picked up on the field, not yet back behind the line
    PILE = "pile"  # C4: in the driver's pile
