"""A hint when you are stuck (issue 31): the move the coach rates best for the seat to move, from that
seat's observation only, with a budget small enough to answer in a few seconds, and one line of why.

:func:`suggest` asks the game's coach (:mod:`koloda.coach.bank`, :mod:`koloda.coach.thousand`: the raters
of docs/analysis.md) for the value of every legal move, on :data:`BUDGETS` worlds instead of the
analysis' hundreds, and takes the best; the reason (:func:`reason`) is said from the position and the move
by rules of thumb that are facts of the position, checked on the rater's own kind of worlds where they
depend on hidden cards ("likely takes the bank: 27 points"). A forced move is the move, and a choice the
coach cannot rate (Bank's choice of trumps) is the hard bot's.

>>> from koloda import registry
>>> from koloda.game import GameRecord
>>> bank = registry.get("bank")
>>> deal = {"hands": [["KD", "9S", "QC"], ["10D", "7C", "JH"]], "open": "AD", "stock": ["9C"], "dealer": 0}
>>> state = bank.replay(GameRecord("bank", 2, {"trumps": "none"}, ("10D",), deal=deal, scope="deal"))
>>> hint = suggest(bank, bank.observe(state, 0), state.legal_actions(), bank.options_class(), seed=1)
>>> hint.text, hint.reason.text("en")
('KD', 'the only move')
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from koloda.bank import tables as BT
from koloda.bank.actions import cards_of_action
from koloda.bank.observe import BankObservation
from koloda.bank.options import BankOptions
from koloda.bank.worlds import WorldSampler
from koloda.cards import Card, CardsShown
from koloda.game import GameSpec, Observation
from koloda.i18n import Lang, Msg, Shown
from koloda.options import Options
from koloda.thousand import actions as TA
from koloda.thousand.observe import ThousandObservation

#: The coach's budget for a hint, per game (its raters' settings): a few seconds of one core at most.
BUDGETS: dict[str, dict[str, int]] = {
    "bank": {"batch": 32, "least": 64, "most": 128, "playouts": 1536},
    "thousand": {"worlds": 32, "talons": 48},
}
#: Worlds drawn to say what a Bank move does to the next player.
BANK_WORLDS = 24


@dataclass(frozen=True)
class Hint:
    """The move suggested, its notation, why (a message in every language), and the coach's values of the
    legal moves (empty when it could not rate them)."""

    action: int
    text: str
    reason: Msg
    values: Mapping[int, float]

    def to_json(self, spec: GameSpec) -> dict[str, Any]:
        return {
            "action": self.action,
            "text": self.text,
            "words": {lang: spec.action_words(self.action, lang) for lang in ("en", "ru")},
            "reason": {lang: self.reason.text(lang) for lang in ("en", "ru")},
        }


class _Move(Shown):
    """A move said as people say it in each language (the game's ``action_words``)."""

    __slots__ = ("action", "spec")

    def __init__(self, spec: GameSpec, action: int) -> None:
        self.spec, self.action = spec, action

    def text(self, lang: Lang) -> str:
        return self.spec.action_words(self.action, lang)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Move) and (self.spec.name, self.action) == (other.spec.name, other.action)

    __hash__ = None  # type: ignore[assignment]


def suggest(
    spec: GameSpec,
    observation: Observation,
    legal: Sequence[int],
    options: Options,
    *,
    seed: int,
    budget: Mapping[str, int] | None = None,
) -> Hint:
    """The coach's best move for the observing seat, and why. ``legal`` are its legal moves (the seat is
    to move), ``options`` the table's (public); ``budget``: the rater's settings (default
    :data:`BUDGETS`)."""
    if len(legal) == 1:
        return Hint(legal[0], spec.action_text(legal[0]), Msg("hint.only"), {})
    rng = random.Random(seed)
    rater = spec.rater(options, **dict(BUDGETS[spec.name] if budget is None else budget))
    values = rater.values(observation, legal, rng)
    if not values:  # not rated (Bank's choice of trumps): the hard bot's choice
        action = spec.guarded_bot("hard", seed, options).choose(observation, list(legal))
        return Hint(action, spec.action_text(action), Msg("hint.bot"), {})
    best = max(values, key=lambda a: (values[a], -a))
    return Hint(
        best, spec.action_text(best), reason(spec, observation, best, values, options, rng), dict(values)
    )


def margin(values: Mapping[int, float], best: int) -> tuple[float, int | None]:
    """How much better the best move is rated than the next best, and which that is."""
    others = [a for a in values if a != best]
    if not others:
        return 0.0, None
    second = max(others, key=lambda a: values[a])
    return values[best] - values[second], second


def reason(
    spec: GameSpec,
    view: Observation,
    action: int,
    values: Mapping[int, float],
    options: Options,
    rng: random.Random,
) -> Msg:
    """Why ``action``, in one line."""
    if isinstance(view, BankObservation) and isinstance(options, BankOptions):
        said = bank_reason(view, action, options, rng)
    elif isinstance(view, ThousandObservation):
        said = thousand_reason(view, action)
    else:
        said = None
    if said is not None:
        return said
    gap, second = margin(values, action)
    if second is None or gap < 1:
        return Msg("hint.even")
    return Msg("hint.better", points=round(gap), other=_Move(spec, second))


# -- Bank ----------------------------------------------------------------------------------------------


def bank_reason(view: BankObservation, action: int, options: BankOptions, rng: random.Random) -> Msg | None:
    """What a Bank move does: goes out, takes the bank now, lays an 8 or four of a kind, leaves the next
    player without a cover in most of the worlds the seat's view allows (the bank would be his), a 7."""
    seat = view.seat
    assert seat is not None
    if action == BT.DRAW:
        return Msg("hint.bank.draw")
    if action == BT.PASS:
        return Msg("hint.bank.add_nothing") if view.phase == "extra-move" else Msg("hint.bank.fail")
    if action >= BT.CHOOSE0:
        return None
    cards = cards_of_action(action)
    if len(cards) == len(view.hand):
        return Msg("hint.bank.out", place=len(view.places) + 1)
    sampler = WorldSampler(options)
    worlds = [w for w in (sampler(view, rng) for _ in range(BANK_WORLDS)) if w is not None]
    if worlds:
        before = worlds[0].captured_pts[seat]
        after = worlds[0].copy()
        after.apply(action)
        if after.captured_pts[seat] > before:  # four kings covered: taken at once, in every world alike
            return Msg("hint.bank.takes", points=after.captured_pts[seat] - before)
    top = cards[-1]
    if action < BT.FOUR0 and top % 9 == BT.EIGHT:
        return Msg("hint.bank.eight")
    if BT.FOUR0 <= action < BT.RUN0:
        return Msg("hint.bank.four")
    fails = 0
    for world in worlds:
        world.apply(action)
        nxt = world.current_player
        if nxt is not None and nxt != seat and all(a in (BT.DRAW, BT.PASS) for a in world.legal_actions()):
            fails += 1
    if worlds and fails * 2 >= len(worlds):
        points = sum(BT.CARD_POINTS[c] for c in (*(Card.parse(t).index for t in view.bank), *cards))
        return Msg("hint.bank.likely", points=points, percent=round(100 * fails / len(worlds)))
    if top % 9 == BT.SEVEN and view.seven != "none":
        return Msg("hint.bank.seven")
    return None


# -- Thousand ------------------------------------------------------------------------------------------


def _winner(cards: Sequence[tuple[int, int]], trump: int | None) -> int:
    """The seat taking a trick of ``(seat, card id)`` so far (rule G11)."""
    led = cards[0][1] // 6

    def key(item: tuple[int, int]) -> tuple[int, int]:
        suit = item[1] // 6
        return (2 if suit == trump else 1 if suit == led else 0, TA.STRENGTH[item[1]])

    return max(cards, key=key)[0]


def thousand_reason(view: ThousandObservation, action: int) -> Msg | None:
    """What a Thousand move does: a marriage declared, a trick taken or given up, a marriage kept for the
    lead; in the auction and after it, what the coach weighed."""
    seat = view.seat
    assert seat is not None
    if view.phase == "bidding":
        return (
            Msg("hint.thousand.pass")
            if action == TA.PASS
            else Msg("hint.thousand.bid", bid=TA.action_bid(action))
        )
    if view.phase == "giving":
        gift = TA.CARDS[(action - TA.GIVE) // 2]
        return Msg("hint.thousand.gift", card=CardsShown((gift,), symbols=True))
    if view.phase == "contract":
        return (
            Msg("hint.thousand.bomb")
            if action == TA.BOMB
            else Msg("hint.thousand.contract", bid=TA.action_bid(action))
        )
    if TA.MARRY <= action < TA.ACES:
        suit = (action - TA.MARRY) // 2
        return Msg("hint.thousand.marriage", suit="♠♣♦♥"[suit], points=TA.MARRIAGE_VALUES[suit])
    if action >= TA.ACES:
        return Msg("hint.thousand.aces")
    card = TA.card_played(action)
    hand = {TA.CARD_IDS[c] for c in view.hand}
    trick = [(s, TA.CARD_IDS[c]) for s, c in view.trick.cards] if view.trick is not None else []
    trump = None if view.trump is None else int(view.trump)
    if trick:
        played = [*trick, (seat, card)]
        points = sum(TA.POINTS[c] for _, c in played)
        if _winner(played, trump) == seat:
            if len(played) == 3:
                return Msg("hint.thousand.takes", points=points)
            return Msg("hint.thousand.beats")
        cards = [TA.card_played(a) for a in view.legal_actions if a < TA.PASS]
        lost = len(played) == 3 and not any(_winner([*trick, (seat, c)], trump) == seat for c in cards)
        if lost and TA.POINTS[card] == min(TA.POINTS[c] for c in cards):  # nothing takes it: the cheapest
            return Msg("hint.thousand.gives", points=TA.POINTS[card])
    for suit in range(4):
        queen, king = suit * 6 + TA.FACE_QUEEN, suit * 6 + TA.FACE_QUEEN + 1
        if queen in hand and king in hand and card not in (queen, king):
            return Msg("hint.thousand.keeps", suit="♠♣♦♥"[suit])
    return None
