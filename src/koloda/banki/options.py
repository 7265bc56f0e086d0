"""The two regional variants of banki as data: one frozen, validated options object with presets.

Every field is one rule choice of ``docs/rules/banki.md``; the defaults are the Moscow description
(rules M1-M19 and the common rules G1-G8), the ``chelyabinsk`` preset the Chelyabinsk one (C1-C10).
Per-rank privileges are tuples parallel to ``ranks`` (one entry per rank, lowest rank first).

>>> BankiOptions.preset("chelyabinsk").ranks[-1]
'marshal'
>>> BankiOptions().privileges("general")
('hand', 'heels')
>>> BankiOptions.from_mapping({"tag_means": ["any"]})
Traceback (most recent call last):
...
koloda.errors.OptionsError: tag_means needs one entry per rank (10), not 1
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from koloda.errors import OptionsError
from koloda.i18n import N_, Msg
from koloda.options import Options, OptionText

MOSCOW_RANKS = (
    "private",
    "corporal",
    "sergeant",
    "lieutenant",
    "captain",
    "major",
    "colonel",
    "general",
    "marshal",
    "sunny",
)
CHELYABINSK_RANKS = ("soldier", "sergeant", "lieutenant", "captain", "major", "colonel", "general", "marshal")
#: The ladder by card ranks (line 3: «nuo armijos ... iki kortų (devynių tūzų-Dievas)»; G3: «kareivis
#: (devynis)», «generolas (karalius)»): nine to ace, and "god" the goal.
CARD_RANKS = ("nine", "ten", "jack", "queen", "king", "ace", "god")
#: The referee's own limit of players (the web page's buttons are tested for it): neither text caps
#: Moscow's or Chelyabinsk's game (M1: «Kiek jums patinka, plius vienas vairuotojas»).
MAX_PLAYERS = 30

#: How the driver may touch a player of a rank (rules G3, M16-M18): by stick or hand, one of them, never, or
#: by either but only while the player holds his stick out on the field (M16's other reading, event `pick`).
TAG_MEANS = ("any", "stick", "hand", "none", "holding")
#: Which body parts count for a rank (rule G3); the head never counts (rule G4).
TAG_PARTS = ("any", "legs", "heels")
_RANK_ID = re.compile(r"^[a-z][a-z0-9_-]*$")


@dataclass(frozen=True)
class BankiOptions(Options):
    """The rules of one regional variant of banki; see ``docs/rules/banki.md`` for every field."""

    # How a round runs: "moscow" = the tag-and-knock race back (M4-M13), "chelyabinsk" = the pile (C4-C9).
    style: Literal["moscow", "chelyabinsk"] = "moscow"
    # The ladder, lowest first; whoever reaches the last rank ends the game (M14, M19, C2, C10).
    ranks: tuple[str, ...] = MOSCOW_RANKS
    # Distance of each rank's throwing line from the can, in metres (M2, C2).
    lines: tuple[float, ...] = (20, 18, 16, 14, 12, 10, 8, 6, 4, 2)
    # Ranks that may throw spear-style (M15).
    spear_ranks: tuple[str, ...] = ("lieutenant",)
    # What jumps a rank (two steps up) for a spear rank: a spear hit, any hit, or nothing (M15).
    spear_jump: Literal["spear_hit", "any_hit", "none"] = "spear_hit"
    # Per rank: how the driver may tag that rank, one of TAG_MEANS (G3, M16-M18).
    tag_means: tuple[str, ...] = ("any", "any", "any", "any", "any", "any", "stick", "hand", "none", "none")
    # Per rank: which body parts count, one of TAG_PARTS (G3).
    tag_parts: tuple[str, ...] = ("any", "any", "any", "any", "any", "any", "any", "heels", "any", "any")
    # Ranks that may not knock the can in the race back (M18).
    no_knock_ranks: tuple[str, ...] = ("marshal",)
    # Ranks that may fetch other players' sticks (M12, M18).
    fetch_others_ranks: tuple[str, ...] = ("marshal",)
    # Ranks that may not be made the driver at all (M18): a tag, foul or crossed stick naming one is refused.
    never_drive_ranks: tuple[str, ...] = ("marshal",)
    # The first driver: the shortest toe kick (G2, M3) or a counting-out rhyme drawn from the seed (C1).
    first_driver: Literal["shortest_kick", "counting"] = "shortest_kick"
    # Whether a stick landing across another makes its thrower the driver (G7).
    crossed_sticks: bool = True
    # Whether snatching a stick from the pile during the driver's own throw promotes (C8).
    snatch_promotes: bool = True
    # Whether the winner gives orders once the game is over (C10).
    winner_orders: bool = False
    # Players including the driver (G1: «4-10 žmonių žaidė»; M1: as many as you like): at least, at most.
    min_players: int = 4
    max_players: int = MAX_PLAYERS

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "moscow": {},
        "chelyabinsk": {
            "style": "chelyabinsk",
            "ranks": CHELYABINSK_RANKS,
            "lines": (10, 9, 8, 7, 6, 5, 4, 3),
            "spear_ranks": (),
            "spear_jump": "none",
            "tag_means": ("none",) * 8,
            "tag_parts": ("any",) * 8,
            "no_knock_ranks": (),
            "fetch_others_ranks": (),
            "never_drive_ranks": (),
            "first_driver": "counting",
            "winner_orders": True,
        },
        # M16 read as "not tagged while he has no stick in his hand": the colonel is tagged, by either
        # means, only after `pick NAME` (his stick picked up out on the field)
        "moscow-stick-in-hand": {
            "tag_means": ("any", "any", "any", "any", "any", "any", "holding", "hand", "none", "none"),
        },
        # the Moscow game on the ladder of card ranks: only G3's nine (anywhere) and king (the heels) are
        # told; the last rank, "god", ends the game
        "cards": {
            "ranks": CARD_RANKS,
            "lines": (20, 17, 14, 11, 8, 5, 2),
            "spear_ranks": (),
            "spear_jump": "none",
            "tag_means": ("any", "any", "any", "any", "any", "any", "none"),
            "tag_parts": ("any", "any", "any", "any", "heels", "any", "any"),
            "no_knock_ranks": (),
            "fetch_others_ranks": (),
            "never_drive_ranks": (),
        },
    }

    #: Each option's rule (docs/rules/banki.md) and the catalog keys of its label and help.
    TEXTS: ClassVar[Mapping[str, OptionText]] = {
        "style": OptionText("M4, C4", N_("option.banki.style"), N_("option.banki.style.help")),
        "ranks": OptionText("M14, C2", N_("option.banki.ranks"), N_("option.banki.ranks.help")),
        "lines": OptionText("M2, C2", N_("option.banki.lines"), N_("option.banki.lines.help")),
        "spear_ranks": OptionText("M15", N_("option.banki.spear_ranks"), N_("option.banki.spear_ranks.help")),
        "spear_jump": OptionText("M15", N_("option.banki.spear_jump"), N_("option.banki.spear_jump.help")),
        "tag_means": OptionText(
            "G3, M16-M18", N_("option.banki.tag_means"), N_("option.banki.tag_means.help")
        ),
        "tag_parts": OptionText("G3", N_("option.banki.tag_parts"), N_("option.banki.tag_parts.help")),
        "no_knock_ranks": OptionText(
            "M18", N_("option.banki.no_knock_ranks"), N_("option.banki.no_knock_ranks.help")
        ),
        "fetch_others_ranks": OptionText(
            "M12, M18", N_("option.banki.fetch_others_ranks"), N_("option.banki.fetch_others_ranks.help")
        ),
        "never_drive_ranks": OptionText(
            "M18", N_("option.banki.never_drive_ranks"), N_("option.banki.never_drive_ranks.help")
        ),
        "first_driver": OptionText(
            "G2, C1", N_("option.banki.first_driver"), N_("option.banki.first_driver.help")
        ),
        "crossed_sticks": OptionText(
            "G7", N_("option.banki.crossed_sticks"), N_("option.banki.crossed_sticks.help")
        ),
        "snatch_promotes": OptionText(
            "C8", N_("option.banki.snatch_promotes"), N_("option.banki.snatch_promotes.help")
        ),
        "winner_orders": OptionText(
            "C10", N_("option.banki.winner_orders"), N_("option.banki.winner_orders.help")
        ),
        "min_players": OptionText("G1", N_("option.banki.min_players"), N_("option.banki.min_players.help")),
        "max_players": OptionText("G1", N_("option.banki.max_players"), N_("option.banki.max_players.help")),
    }

    def validate(self) -> None:
        ranks = self.ranks
        if len(ranks) < 2:
            raise OptionsError(Msg("banki.options.ranks_few", ranks=list(ranks)))
        for rank in ranks:
            if not _RANK_ID.match(rank):
                raise OptionsError(Msg("banki.options.rank_word", rank=repr(rank)))
        if len(set(ranks)) != len(ranks):
            raise OptionsError(Msg("banki.options.ranks_same", ranks=list(ranks)))
        for name in ("lines", "tag_means", "tag_parts"):
            values = getattr(self, name)
            if len(values) != len(ranks):
                raise OptionsError(
                    Msg("banki.options.per_rank", name=name, ranks=len(ranks), count=len(values))
                )
        if any(line <= 0 for line in self.lines):
            raise OptionsError(Msg("banki.options.lines_positive", lines=list(self.lines)))
        if any(near >= far for far, near in zip(self.lines, self.lines[1:], strict=False)):
            raise OptionsError(Msg("banki.options.lines_closer", lines=list(self.lines)))
        for name, allowed in (("tag_means", TAG_MEANS), ("tag_parts", TAG_PARTS)):
            for rank, value in zip(ranks, getattr(self, name), strict=True):
                if value not in allowed:
                    raise OptionsError(
                        Msg(
                            "banki.options.tag_value",
                            name=name,
                            rank=repr(rank),
                            value=repr(value),
                            allowed=", ".join(allowed),
                        )
                    )
        for name in ("spear_ranks", "no_knock_ranks", "fetch_others_ranks", "never_drive_ranks"):
            for rank in getattr(self, name):
                if rank not in ranks:
                    raise OptionsError(
                        Msg("banki.options.not_a_rank", name=name, rank=repr(rank), ranks=", ".join(ranks))
                    )
        for rank in self.never_drive_ranks:
            means = self.tag_means[ranks.index(rank)]
            if means != "none":
                raise OptionsError(
                    Msg("banki.options.never_drive_tagged", rank=repr(rank), means=repr(means))
                )
        if self.style == "chelyabinsk":
            for rank, means in zip(ranks, self.tag_means, strict=True):
                if means != "none":
                    raise OptionsError(
                        Msg("banki.options.chelyabinsk_tags", rank=repr(rank), means=repr(means))
                    )
        if not 2 <= self.min_players <= self.max_players <= MAX_PLAYERS:
            raise OptionsError(
                Msg(
                    "banki.options.players",
                    most=MAX_PLAYERS,
                    least=self.min_players,
                    greatest=self.max_players,
                )
            )

    def privileges(self, rank: str) -> tuple[str, str]:
        """(tag means, tag parts) of a rank."""
        index = self.ranks.index(rank)
        return self.tag_means[index], self.tag_parts[index]
