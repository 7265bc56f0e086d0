"""The agreements of Bank: one frozen, validated options object (docs/rules/bank.md names each rule).

>>> BankOptions().trumps, BankOptions().seven, BankOptions().target
('own', 'skip', 248)
>>> BankOptions.preset("senior-junior").trumps
'senior-junior'
>>> BankOptions(penalty_fixed=30)
Traceback (most recent call last):
...
koloda.errors.OptionsError: option 'penalty_fixed' must be one of 15, 23, 31, 40, 48, 56 (rule 7.7), not 30
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from koloda.cards import Suit
from koloda.errors import NotationError, OptionsError
from koloda.i18n import N_, Msg
from koloda.options import Options, OptionText

FIXED_PENALTIES = (15, 23, 31, 40, 48, 56)
PER_CARD_PENALTIES = (3, 6)
#: How many trump suits each set-up names (rule 3.1); "own" takes one per player or none (random).
_TRUMP_COUNTS = {"own": None, "none": 0, "one": 1, "two": 2, "senior-junior": 2}


@dataclass(frozen=True)
class BankOptions(Options):
    """Every agreement of Bank; the defaults are the source text's defaults and the rules doc's readings."""

    # rule 2.1: the first dealer, None = by lot (from the seed), or a fixed seat
    first_dealer: int | None = None
    # rule 2.2: who deals the next deal (the text's five agreements)
    next_dealer: Literal["loser", "last-finisher", "starter", "max-points", "min-points"] = "loser"
    # rule 3.1: set-up 1 own / 2 none / 3 one / 4 two / 5 senior-junior
    trumps: Literal["own", "none", "one", "two", "senior-junior"] = "own"
    # rules 3.2-3.4: trump suits as letters; empty = drawn from the seed (senior-junior: S senior, D junior)
    trump_suits: tuple[str, ...] = ()
    # rule 3.2: set-up 1's suits at random, or chosen in turn from the dealer's left before deal 1 is dealt
    # ("in-turn") or after it is dealt, each player seeing his cards ("in-turn-after-deal")
    trump_choice: Literal["random", "in-turn", "in-turn-after-deal"] = "random"
    # rule 3.3: in set-up 4 the two trump suits cover each other by the normal rule, or freely
    two_trumps_cover: Literal["suit", "free"] = "suit"
    # rule 4.2: the open card may be covered by any card of its suit ("free") or only by the normal rule
    opening: Literal["free", "strict"] = "free"
    # rule 4.5: the card added after an 8 covers the 8, or the card beneath it
    eight_then: Literal["cover-eight", "cover-beneath"] = "cover-eight"
    # rule 4.5: what may follow an 8: one single card that covers ("card", the text's «еще одну карту»), or
    # any move (another 8 with a further card, four of a kind, a run: koloda before record version 2)
    eight_follow: Literal["card", "any"] = "card"
    # rule 4.5: under eight_then=cover-beneath, the card added after an 8 laid on the open card covers it by
    # the lenient opening of rule 4.2 ("lenient") or by rule 4.3 only ("strict": before record version 2)
    eight_opening: Literal["lenient", "strict"] = "lenient"
    # rule 4.6: the extra move after four of a kind may be declined, or must be made when possible
    four_extra_move: Literal["optional", "compulsory"] = "optional"
    # rule 4.7: runs of one suit or of any suits; whether a run gives an extra move; whether it must be made
    runs: Literal["one-suit", "any-suits"] = "one-suit"
    run_extra_move: bool = False
    run_extra: Literal["optional", "compulsory"] = "optional"
    # rule 4.8: the player after a 7: skip / draw and move / skip and draw / none (no effect)
    seven: Literal["skip", "draw-and-move", "skip-and-draw", "none"] = "skip"
    # rule 4.8: a 7 whose move took the bank (four kings covered, rule 5.4): its effect is void, or acts
    seven_captured: Literal["void", "acts"] = "void"
    # rule 5.3: after a capture the next player leads any card, or must cover the taken top card
    after_capture: Literal["free-lead", "last-top"] = "free-lead"
    # rule 5.4: four kings laid in one move are captured by another player covering them, or by anyone
    four_kings: Literal["other-player", "anyone"] = "other-player"
    # rule 5.4: a compound move on four kings takes the bank at once, or after an 8's added card and before
    # the extra move of four of a kind or a run
    four_kings_capture: Literal["at-once", "after-move"] = "at-once"
    # rule 5.5: going out on a trump king laid alone onto an empty bank: the one-card bank stays (rule 5.2),
    # or is taken (koloda before record version 2)
    trump_king_alone: Literal["stays", "taken"] = "stays"
    # rule 5.6: players who are out still take a bank whose top card is theirs
    out_players_take: bool = True
    # rule 6.3: a bank of two or more cards left at the end goes to its top card's owner, or is set aside
    leftover_bank: Literal["top-owner", "set-aside"] = "top-owner"
    # rules 7.6-7.7: cards left in hand: no penalty (the text's first rule), their points (variant 1), their
    # points and a fine (variant 2), or a flat fine alone (variant 2 a: «независимо от количества очков»)
    penalty: Literal["none", "hand-points", "hand-points-and-fine", "flat-fine"] = "hand-points"
    # rule 7.7: the fine of penalty=hand-points-and-fine: a fixed amount, a per-card amount, "split" (the
    # per-card amount for each zero-point card and the fixed amount for a pointless hand), or one half of
    # split alone: the fixed amount only for a pointless hand, the per-card amount only for zero-point cards
    fine: Literal["fixed", "per-card", "split", "fixed-zero-only", "per-card-zero-only"] = "fixed"
    penalty_fixed: int = 31
    penalty_per_card: int = 3
    # rule 7.8: penalties for every player holding cards at the end, or only for the loser
    penalty_who: Literal["holders", "loser"] = "holders"
    # rules 2.2, 7.8: who lost a deal: the last player left holding cards ("last-holder"), or the player with
    # the lowest score of the deal before penalties ("lowest-score": «проиграл партию» as "came off worst")
    loser: Literal["last-holder", "lowest-score"] = "last-holder"
    # rules 2.2, 7.8: under loser=last-holder, who lost a deal that ended stuck, so deals the next one (rule
    # 2.2) and is named in the deal's result: the holder of most points in hand, or nobody (the "last player
    # only" reading)
    stuck_loser: Literal["most-points", "nobody"] = "most-points"
    # rule 7.8: under penalty_who=loser with loser=last-holder, who pays after a stuck end: the holder of most
    # points in hand, or nobody (record version 2's stuck_loser=nobody decided both)
    stuck_payer: Literal["most-points", "nobody"] = "most-points"
    # rule 8.1: the match target
    target: int = 248
    # rule 8.2: a tie deal is played by everyone, or by the tied players only
    tie: Literal["everyone", "tied-only"] = "everyone"
    # rule 8.2: under tie=tied-only the agreed dealer deals even if he sits the deal out, or the deal passes
    # to the next tied player
    tie_dealer: Literal["agreed", "tied"] = "agreed"
    # rule 8.3: after this many deals without anyone at the target the highest total wins (the text is
    # silent; under the literal readings totals can fall for ever and a match would never end)
    max_deals: int = 50

    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "default": {},
        "no-trumps": {"trumps": "none"},
        "one-trump": {"trumps": "one"},
        "two-trumps": {"trumps": "two"},
        "senior-junior": {"trumps": "senior-junior"},
        # the literal readings of every ambiguous sentence (rules 4.2, 4.5, 4.7, 5.3, 5.4): a harder game
        # that often ends stuck, documented on the health page (docs/bank-health.md); the 8's single added
        # card (rule 4.5) is the default reading anyway
        "literal": {
            "opening": "strict",
            "after_capture": "last-top",
            "eight_then": "cover-beneath",
            "four_kings": "anyone",
            "runs": "any-suits",
        },
        # the strict cover rule only, everything else playable
        "strict": {"opening": "strict"},
        # the text's penalty variant 2 with the most common fixed fine of 31, paid by the loser only
        "fine-31": {
            "penalty": "hand-points-and-fine",
            "fine": "fixed",
            "penalty_fixed": 31,
            "penalty_who": "loser",
        },
        # points in hand are neither counted nor fined (the text's first rule)
        "no-penalty": {"penalty": "none"},
    }

    #: Each option's rule (docs/rules/bank.md) and the catalog keys of its label and help.
    TEXTS: ClassVar[Mapping[str, OptionText]] = {
        "first_dealer": OptionText(
            "2.1", N_("option.bank.first_dealer"), N_("option.bank.first_dealer.help")
        ),
        "next_dealer": OptionText("2.2", N_("option.bank.next_dealer"), N_("option.bank.next_dealer.help")),
        "trumps": OptionText("3.1", N_("option.bank.trumps"), N_("option.bank.trumps.help")),
        "trump_suits": OptionText(
            "3.2-3.4", N_("option.bank.trump_suits"), N_("option.bank.trump_suits.help")
        ),
        "trump_choice": OptionText(
            "3.2", N_("option.bank.trump_choice"), N_("option.bank.trump_choice.help")
        ),
        "two_trumps_cover": OptionText(
            "3.3", N_("option.bank.two_trumps_cover"), N_("option.bank.two_trumps_cover.help")
        ),
        "opening": OptionText("4.2", N_("option.bank.opening"), N_("option.bank.opening.help")),
        "eight_then": OptionText("4.5", N_("option.bank.eight_then"), N_("option.bank.eight_then.help")),
        "eight_follow": OptionText(
            "4.5", N_("option.bank.eight_follow"), N_("option.bank.eight_follow.help")
        ),
        "eight_opening": OptionText(
            "4.5", N_("option.bank.eight_opening"), N_("option.bank.eight_opening.help")
        ),
        "four_extra_move": OptionText(
            "4.6", N_("option.bank.four_extra_move"), N_("option.bank.four_extra_move.help")
        ),
        "runs": OptionText("4.7", N_("option.bank.runs"), N_("option.bank.runs.help")),
        "run_extra_move": OptionText(
            "4.7", N_("option.bank.run_extra_move"), N_("option.bank.run_extra_move.help")
        ),
        "run_extra": OptionText("4.7", N_("option.bank.run_extra"), N_("option.bank.run_extra.help")),
        "seven": OptionText("4.8", N_("option.bank.seven"), N_("option.bank.seven.help")),
        "seven_captured": OptionText(
            "4.8", N_("option.bank.seven_captured"), N_("option.bank.seven_captured.help")
        ),
        "after_capture": OptionText(
            "5.3", N_("option.bank.after_capture"), N_("option.bank.after_capture.help")
        ),
        "four_kings": OptionText("5.4", N_("option.bank.four_kings"), N_("option.bank.four_kings.help")),
        "four_kings_capture": OptionText(
            "5.4", N_("option.bank.four_kings_capture"), N_("option.bank.four_kings_capture.help")
        ),
        "trump_king_alone": OptionText(
            "5.5", N_("option.bank.trump_king_alone"), N_("option.bank.trump_king_alone.help")
        ),
        "out_players_take": OptionText(
            "5.6", N_("option.bank.out_players_take"), N_("option.bank.out_players_take.help")
        ),
        "leftover_bank": OptionText(
            "6.3", N_("option.bank.leftover_bank"), N_("option.bank.leftover_bank.help")
        ),
        "penalty": OptionText("7.6", N_("option.bank.penalty"), N_("option.bank.penalty.help")),
        "fine": OptionText("7.7", N_("option.bank.fine"), N_("option.bank.fine.help")),
        "penalty_fixed": OptionText(
            "7.7", N_("option.bank.penalty_fixed"), N_("option.bank.penalty_fixed.help")
        ),
        "penalty_per_card": OptionText(
            "7.7", N_("option.bank.penalty_per_card"), N_("option.bank.penalty_per_card.help")
        ),
        "penalty_who": OptionText("7.8", N_("option.bank.penalty_who"), N_("option.bank.penalty_who.help")),
        "loser": OptionText("2.2, 7.8", N_("option.bank.loser"), N_("option.bank.loser.help")),
        "stuck_loser": OptionText(
            "2.2, 7.8", N_("option.bank.stuck_loser"), N_("option.bank.stuck_loser.help")
        ),
        "stuck_payer": OptionText("7.8", N_("option.bank.stuck_payer"), N_("option.bank.stuck_payer.help")),
        "target": OptionText("8.1", N_("option.bank.target"), N_("option.bank.target.help")),
        "tie": OptionText("8.2", N_("option.bank.tie"), N_("option.bank.tie.help")),
        "tie_dealer": OptionText("8.2", N_("option.bank.tie_dealer"), N_("option.bank.tie_dealer.help")),
        "max_deals": OptionText("8.3", N_("option.bank.max_deals"), N_("option.bank.max_deals.help")),
    }

    def validate(self) -> None:
        if self.first_dealer is not None and not 0 <= self.first_dealer <= 3:
            raise OptionsError(Msg("bank.options.first_dealer", value=self.first_dealer))
        if self.penalty_fixed not in FIXED_PENALTIES:
            allowed = ", ".join(map(str, FIXED_PENALTIES))
            raise OptionsError(Msg("bank.options.penalty_fixed", allowed=allowed, value=self.penalty_fixed))
        if self.penalty_per_card not in PER_CARD_PENALTIES:
            raise OptionsError(Msg("bank.options.penalty_per_card", value=self.penalty_per_card))
        if self.max_deals < 1:
            raise OptionsError(Msg("bank.options.max_deals", value=self.max_deals))
        if self.target < 1:
            raise OptionsError(Msg("bank.options.target", value=self.target))
        suits = self.trump_suit_values()
        if len(set(suits)) != len(suits):
            raise OptionsError(Msg("bank.options.suit_twice", suits=str(list(self.trump_suits))))
        wanted = _TRUMP_COUNTS[self.trumps]
        if suits and wanted is None and not 2 <= len(suits) <= 4:
            raise OptionsError(Msg("bank.options.own_suits", count=len(suits)))
        if suits and wanted is not None and len(suits) != wanted:
            raise OptionsError(
                Msg("bank.options.suit_count", trumps=repr(self.trumps), wanted=wanted, count=len(suits))
            )
        if self.trump_choice != "random" and (self.trumps != "own" or self.trump_suits):
            raise OptionsError(Msg("bank.options.in_turn", value=repr(self.trump_choice)))
        if self.two_trumps_cover != "suit" and self.trumps != "two":
            raise OptionsError(Msg("bank.options.two_trumps_cover"))
        self._validate_moves()
        self._validate_penalty()
        if self.tie_dealer != "agreed" and self.tie != "tied-only":
            raise OptionsError(Msg("bank.options.tie_dealer"))

    def _validate_moves(self) -> None:
        """Rules 4.5-4.8, 5.4: a reading that applies only under another option is refused without it."""
        if self.eight_opening != "lenient" and (self.eight_then != "cover-beneath" or self.opening != "free"):
            raise OptionsError(Msg("bank.options.eight_opening"))
        if self.run_extra != "optional" and not self.run_extra_move:
            raise OptionsError(Msg("bank.options.run_extra"))
        if self.seven_captured != "void" and self.seven == "none":
            raise OptionsError(Msg("bank.options.seven_captured"))

    def _validate_penalty(self) -> None:
        """Rules 7.6-7.8: an amount or a choice the chosen penalty never uses would be silently ignored."""
        if self.fine != "fixed" and self.penalty != "hand-points-and-fine":
            raise OptionsError(Msg("bank.options.fine", value=repr(self.fine)))
        adds_fixed = self.penalty == "flat-fine" or (
            self.penalty == "hand-points-and-fine" and self.fine in ("fixed", "split", "fixed-zero-only")
        )
        if self.penalty_fixed != 31 and not adds_fixed:
            raise OptionsError(Msg("bank.options.penalty_fixed_needs"))
        adds_per_card = self.penalty == "hand-points-and-fine" and self.fine in (
            "per-card",
            "split",
            "per-card-zero-only",
        )
        if self.penalty_per_card != 3 and not adds_per_card:
            raise OptionsError(Msg("bank.options.penalty_per_card_needs"))
        if self.penalty_who != "holders" and self.penalty == "none":
            raise OptionsError(Msg("bank.options.penalty_who"))
        if self.stuck_loser != "most-points" and self.loser != "last-holder":
            raise OptionsError(Msg("bank.options.stuck_loser"))
        if self.stuck_payer != "most-points" and (self.penalty_who != "loser" or self.loser != "last-holder"):
            raise OptionsError(Msg("bank.options.stuck_payer"))

    def trump_suit_values(self) -> tuple[Suit, ...]:
        """The named trump suits as :class:`Suit` values (validated)."""
        try:
            return tuple(Suit.parse(text) for text in self.trump_suits)
        except NotationError as exc:
            raise OptionsError(Msg("bank.options.trump_suits", reason=exc.detail)) from None

    def check_players(self, players: int) -> None:
        """Reject options that cannot work with this many players (rules 2.1, 3.2)."""
        if not 2 <= players <= 4:
            raise OptionsError(Msg("bank.options.players", players=players))
        if self.first_dealer is not None and self.first_dealer >= players:
            raise OptionsError(
                Msg("bank.options.first_dealer_seat", value=self.first_dealer, players=players)
            )
        if self.trumps == "own" and self.trump_suits and len(self.trump_suits) != players:
            raise OptionsError(Msg("bank.options.own_count", count=len(self.trump_suits), players=players))
