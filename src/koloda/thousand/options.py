"""The options of Thousand: one frozen, validated object, defaults from the seed's home rules.

Scoring fields come first (docs/rules/thousand.md, Part I, rules S1-S14); the game engine adds its
fields below the marked line. Presets: ``home`` (the defaults), ``tournament``, ``russian``.

>>> ThousandOptions.preset("tournament").rounding
'tournament'
>>> ThousandOptions().with_assignments(["barrel=on", "barrel_deals=1"]).barrel_deals
1
>>> ThousandOptions(barrel_fall_reset=3)
Traceback (most recent call last):
...
koloda.errors.OptionsError: barrel_fall_reset needs barrel=true (there is no barrel to fall from)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from koloda.errors import OptionsError
from koloda.i18n import N_, Msg
from koloda.options import Options, OptionText

Rounding = Literal["home", "tournament", "russian"]
Rule800 = Literal["home", "tournament", "off"]
BarrelFailed = Literal["minus_bid", "fall", "both"]
BidCap = Literal["marriage", "marriages_held", "none"]  # G6
MustBeat = Literal["no", "led", "winning"]  # G12
SittingScores = Literal["talon", "aces_marriage", "nothing"]  # G2


@dataclass(frozen=True)
class ThousandOptions(Options):
    """Every rule choice of Thousand; each default is the reading of the seed's home rules."""

    # --- scoring (issue 3): docs/rules/thousand.md Part I ---
    target: int = 1000  # S8: a declarer who makes his contract and reaches this wins
    defender_cap: int = 990  # S9: a score that is not a made contract stops here
    rounding: Rounding = "home"  # S4: defenders' points: home 5+ up to tens, tournament 6+ up, russian to 5
    rule_800: Rule800 = "home"  # S5: home: no defence from the line; tournament: defence capped at it
    threshold_800: int = 800  # S5: where the 800 rule's line lies
    barrel: bool = False  # S6: the barrel: a score reaching barrel_threshold is frozen there
    barrel_threshold: int = 880  # S6: where the barrel stands
    barrel_deals: int | None = 3  # S6: deals on the barrel to make a contract in; None: no limit
    barrel_fall: int = 120  # S6: points lost on falling off the barrel when the deals run out
    barrel_failed: BarrelFailed = "minus_bid"  # S6: a failed contract on the barrel: -bid, -fall, or both
    bomb_points: int = 60  # S7: each defender's points when the declarer calls a bomb
    bombs_per_game: int | None = 1  # S7: bombs one player may call in one game; None: unlimited
    bid_step: Literal[5, 10] = 5  # S2: bids are multiples of this (5 Russian, 10 Polish)
    min_bid: int = 100  # S2: the lowest bid
    sitting_as_defender: bool = True  # S10: 4 players: the sitting dealer's points rounded like defence
    bolts: int | None = None  # S11 (house): this many scoreless deals cost bolt_penalty; None: off
    bolt_penalty: int = 120  # S11 (house): what the bolts cost
    dump: bool = False  # S12 (house): a total of exactly 555 or -555 falls to 0
    barrel_fall_reset: int | None = None  # S13 (house): this many falls from the barrel reset to 0; None: off

    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "home": {},
        "tournament": {"rounding": "tournament", "rule_800": "tournament", "bid_step": 10},
        "russian": {"rounding": "russian", "rule_800": "off", "barrel": True},
    }

    def validate(self) -> None:
        """Reject scoring combinations that cannot be played; the game engine extends this."""
        if self.target <= 0:
            raise OptionsError(Msg("thousand.options.target", target=self.target))
        if not 0 < self.defender_cap < self.target:
            raise OptionsError(
                Msg("thousand.options.defender_cap", cap=self.defender_cap, target=self.target)
            )
        if self.rule_800 != "off" and not 0 < self.threshold_800 <= self.defender_cap:
            raise OptionsError(
                Msg("thousand.options.threshold_800", threshold=self.threshold_800, cap=self.defender_cap)
            )
        if self.barrel and not 0 < self.barrel_threshold < self.target:
            raise OptionsError(
                Msg("thousand.options.barrel_threshold", threshold=self.barrel_threshold, target=self.target)
            )
        if self.barrel_deals is not None and self.barrel_deals < 1:
            raise OptionsError(Msg("thousand.options.barrel_deals", deals=self.barrel_deals))
        for name in ("barrel_fall", "bomb_points", "bolt_penalty"):
            if getattr(self, name) < 0:
                raise OptionsError(Msg("thousand.options.negative", name=name, value=getattr(self, name)))
        if self.bombs_per_game is not None and self.bombs_per_game < 0:
            raise OptionsError(Msg("thousand.options.bombs_per_game", bombs=self.bombs_per_game))
        if self.min_bid <= 0 or self.min_bid % self.bid_step:
            raise OptionsError(Msg("thousand.options.min_bid_step", bid=self.min_bid, step=self.bid_step))
        if self.min_bid > 120:
            raise OptionsError(Msg("thousand.options.min_bid_high", bid=self.min_bid))
        if self.bolts is not None and self.bolts < 1:
            raise OptionsError(Msg("thousand.options.bolts", bolts=self.bolts))
        if self.barrel_fall_reset is not None:
            if not self.barrel:
                raise OptionsError(Msg("thousand.options.fall_reset_barrel"))
            if self.barrel_fall_reset < 1:
                raise OptionsError(Msg("thousand.options.fall_reset", reset=self.barrel_fall_reset))
        self._refuse_unused()
        self._validate_game()

    def _refuse_unused(self) -> None:
        """An option that only matters when another one is on, set away from its default while that one
        is off, changes nothing: a mistake the player wants to hear of."""
        barrel, line, bolts = self.barrel, self.rule_800 != "off", self.bolts is not None
        for name, needs, on in (
            ("barrel_threshold", N_("thousand.options.needs.barrel"), barrel),
            ("barrel_deals", N_("thousand.options.needs.barrel"), barrel),
            ("barrel_fall", N_("thousand.options.needs.barrel"), barrel),
            ("barrel_failed", N_("thousand.options.needs.barrel"), barrel),
            ("threshold_800", N_("thousand.options.needs.rule_800"), line),
            ("bolt_penalty", N_("thousand.options.needs.bolts"), bolts),
        ):
            value = getattr(self, name)
            if not on and value != self.__dataclass_fields__[name].default:
                raise OptionsError(
                    Msg("thousand.options.unused", name=name, value=repr(value), needs=Msg(needs))
                )

    # --- the game (issue 4): fields added by the game engine below ---
    redeal_four_nines: bool = True  # G4: a hand with all four nines is dealt again
    redeal_hand_under: int = 0  # G4: a hand worth fewer card points is dealt again; 0: off (some rules: 13)
    redeal_talon_under: int = 0  # G4: a talon worth fewer card points is dealt again; 0: off (some rules: 6)
    redeal_talon_two_nines: bool = False  # G4: a talon holding two nines or more is dealt again
    bid_cap: BidCap = "marriage"  # G6: 120 without a marriage in hand; marriages_held: 120 + held; none
    talon_hidden_at_100: bool = False  # G7: the talon is shown to the opponents only above the lowest bid
    must_beat: MustBeat = "no"  # G12: no duty; led: beat the card led; winning: beat the winning card
    marriage_needs_trick: bool = True  # G9: a marriage is declared only by a player who has taken a trick
    marriage_optional: bool = True  # G9: a held marriage may be led without declaring it
    ace_marriage: bool = False  # G10: the four aces, declared by leading one of them, score 200
    show_past_tricks: bool = True  # G15: views show every finished trick, else only the last one
    sitting_scores: SittingScores = "talon"  # G2: 4 players: the sitting dealer's points from the talon
    max_deals: int | None = None  # G16 (koloda): the game ends after this many deals; None: at the target

    #: Each option's rule (docs/rules/thousand.md) and the catalog keys of its label and help.
    TEXTS: ClassVar[Mapping[str, OptionText]] = {
        "target": OptionText("S8", N_("option.thousand.target"), N_("option.thousand.target.help")),
        "defender_cap": OptionText(
            "S9", N_("option.thousand.defender_cap"), N_("option.thousand.defender_cap.help")
        ),
        "rounding": OptionText("S4", N_("option.thousand.rounding"), N_("option.thousand.rounding.help")),
        "rule_800": OptionText("S5", N_("option.thousand.rule_800"), N_("option.thousand.rule_800.help")),
        "threshold_800": OptionText(
            "S5", N_("option.thousand.threshold_800"), N_("option.thousand.threshold_800.help")
        ),
        "barrel": OptionText("S6", N_("option.thousand.barrel"), N_("option.thousand.barrel.help")),
        "barrel_threshold": OptionText(
            "S6", N_("option.thousand.barrel_threshold"), N_("option.thousand.barrel_threshold.help")
        ),
        "barrel_deals": OptionText(
            "S6", N_("option.thousand.barrel_deals"), N_("option.thousand.barrel_deals.help")
        ),
        "barrel_fall": OptionText(
            "S6", N_("option.thousand.barrel_fall"), N_("option.thousand.barrel_fall.help")
        ),
        "barrel_failed": OptionText(
            "S6", N_("option.thousand.barrel_failed"), N_("option.thousand.barrel_failed.help")
        ),
        "bomb_points": OptionText(
            "S7", N_("option.thousand.bomb_points"), N_("option.thousand.bomb_points.help")
        ),
        "bombs_per_game": OptionText(
            "S7", N_("option.thousand.bombs_per_game"), N_("option.thousand.bombs_per_game.help")
        ),
        "bid_step": OptionText("S2", N_("option.thousand.bid_step"), N_("option.thousand.bid_step.help")),
        "min_bid": OptionText("S2", N_("option.thousand.min_bid"), N_("option.thousand.min_bid.help")),
        "sitting_as_defender": OptionText(
            "S10", N_("option.thousand.sitting_as_defender"), N_("option.thousand.sitting_as_defender.help")
        ),
        "bolts": OptionText("S11", N_("option.thousand.bolts"), N_("option.thousand.bolts.help")),
        "bolt_penalty": OptionText(
            "S11", N_("option.thousand.bolt_penalty"), N_("option.thousand.bolt_penalty.help")
        ),
        "dump": OptionText("S12", N_("option.thousand.dump"), N_("option.thousand.dump.help")),
        "barrel_fall_reset": OptionText(
            "S13", N_("option.thousand.barrel_fall_reset"), N_("option.thousand.barrel_fall_reset.help")
        ),
        "redeal_four_nines": OptionText(
            "G4", N_("option.thousand.redeal_four_nines"), N_("option.thousand.redeal_four_nines.help")
        ),
        "redeal_hand_under": OptionText(
            "G4", N_("option.thousand.redeal_hand_under"), N_("option.thousand.redeal_hand_under.help")
        ),
        "redeal_talon_under": OptionText(
            "G4", N_("option.thousand.redeal_talon_under"), N_("option.thousand.redeal_talon_under.help")
        ),
        "redeal_talon_two_nines": OptionText(
            "G4",
            N_("option.thousand.redeal_talon_two_nines"),
            N_("option.thousand.redeal_talon_two_nines.help"),
        ),
        "bid_cap": OptionText("G6", N_("option.thousand.bid_cap"), N_("option.thousand.bid_cap.help")),
        "talon_hidden_at_100": OptionText(
            "G7", N_("option.thousand.talon_hidden_at_100"), N_("option.thousand.talon_hidden_at_100.help")
        ),
        "must_beat": OptionText("G12", N_("option.thousand.must_beat"), N_("option.thousand.must_beat.help")),
        "marriage_needs_trick": OptionText(
            "G9", N_("option.thousand.marriage_needs_trick"), N_("option.thousand.marriage_needs_trick.help")
        ),
        "marriage_optional": OptionText(
            "G9", N_("option.thousand.marriage_optional"), N_("option.thousand.marriage_optional.help")
        ),
        "ace_marriage": OptionText(
            "G10", N_("option.thousand.ace_marriage"), N_("option.thousand.ace_marriage.help")
        ),
        "show_past_tricks": OptionText(
            "G15", N_("option.thousand.show_past_tricks"), N_("option.thousand.show_past_tricks.help")
        ),
        "sitting_scores": OptionText(
            "G2", N_("option.thousand.sitting_scores"), N_("option.thousand.sitting_scores.help")
        ),
        "max_deals": OptionText("G16", N_("option.thousand.max_deals"), N_("option.thousand.max_deals.help")),
    }

    def _validate_game(self) -> None:
        """G4: redeal thresholds that would void most deals are refused."""
        if not 0 <= self.redeal_hand_under <= 20:
            raise OptionsError(Msg("thousand.options.redeal_hand", value=self.redeal_hand_under))
        if not 0 <= self.redeal_talon_under <= 10:
            raise OptionsError(Msg("thousand.options.redeal_talon", value=self.redeal_talon_under))
        if self.max_deals is not None and self.max_deals < 1:
            raise OptionsError(Msg("thousand.options.max_deals", value=self.max_deals))
