"""Bank's side of the OpenSpiel registration (:mod:`koloda.rl.openspiel`): chance nodes, views, resampling.

Chance nodes, in order: the first dealer (if ``first_dealer`` is not fixed; outcome = seat), the trump
suits the set-up draws at random (rule 3; outcome = suit 0-3 ♠ ♣ ♦ ♥; one per seat for set-up 1, in
seat order), then all 36 cards (outcome = card id): four rounds of one card to each seat from the
dealer's left, the open card, and the stock from the top (rule 2.3).

The information state tensor is the observation tensor (docs/rl.md) followed by the seat's dealt cards
(36), the cards it took from the stock (36) and the cards each seat has laid this deal (4 x 36, seats
relative to the observer).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Self

import numpy as np
import numpy.typing as npt

from koloda.bank import tables as T
from koloda.bank.actions import action_text, cards_of_action
from koloda.bank.knowledge import DealTracker
from koloda.bank.options import BankOptions
from koloda.bank.tensor import OBS_SIZE
from koloda.bank.worlds import deal_state, sample_deal
from koloda.cards import DECK_36, Suit
from koloda.errors import OptionsError
from koloda.rl.bank_encoding import BankAdapter

DEALT = OBS_SIZE
RECEIVED = OBS_SIZE + 36
LAID = OBS_SIZE + 72
INFO_SIZE = OBS_SIZE + 72 + 4 * 36
_TRUMP_PICKS = {"own": None, "one": 1, "two": 2, "none": 0, "senior-junior": 0}


class BankSpec:
    """Bank with fixed options and table size, for :class:`koloda.rl.openspiel.KolodaSpielGame`."""

    num_actions = T.NUM_ACTIONS
    chance_outcomes_max = 36
    obs_size = OBS_SIZE
    info_size = INFO_SIZE

    def __init__(self, options: BankOptions, players: int) -> None:
        options.check_players(players)
        if options.trump_choice != "random":
            raise OptionsError(
                "python_koloda_bank draws trumps at chance nodes: option trump_choice must be 'random'"
            )
        self.options, self.players = options, players
        self.adapter = BankAdapter(players, **options.to_dict())
        self.dealer_node = options.first_dealer is None
        named = options.trump_suit_values()
        picks = _TRUMP_PICKS[options.trumps]
        self.trump_picks = 0 if named else (players if picks is None else picks)
        self.named_trumps = tuple(int(s) for s in named)
        self.deal_start = int(self.dealer_node) + self.trump_picks

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        # fixed for its game (its caches are keyed by value): a state's clone() shares it, not copies it
        return self

    def utility_bounds(self) -> tuple[float, float]:
        """Rules 7.1-7.7: at most all 124 card points and every bonus (279); at least minus a hand's points
        and the largest fine (124 + 6 x 36)."""
        return -340.0, 280.0

    # -- chance ----------------------------------------------------------------------------------------

    def chance_outcomes(self, chance: Sequence[int]) -> list[int]:
        k = len(chance)
        if k < int(self.dealer_node):
            return list(range(self.players))
        if k < self.deal_start:
            picked = chance[int(self.dealer_node) : k]
            return [s for s in range(4) if s not in picked]
        if k < self.deal_start + 36:
            dealt = set(chance[self.deal_start :])
            return [c for c in range(36) if c not in dealt]
        return []

    def chance_text(self, chance: Sequence[int], outcome: int) -> str:
        k = len(chance)
        if k < int(self.dealer_node):
            return f"dealer {outcome}"
        if k < self.deal_start:
            return f"trump {Suit(outcome).letter}"
        return f"deal {DECK_36[outcome]}"

    def _dealer(self, chance: Sequence[int]) -> int:
        if self.dealer_node:
            return chance[0]
        assert self.options.first_dealer is not None
        return self.options.first_dealer

    def _receivers(self, dealer: int) -> list[int]:
        """Who gets the k-th dealt card (rule 2.3): four rounds from the dealer's left."""
        n = self.players
        return [(dealer + 1 + k) % n for k in range(n)] * 4

    def start(self, chance: Sequence[int]) -> DealTracker:
        dealer = self._dealer(chance)
        suits = self.named_trumps or tuple(chance[int(self.dealer_node) : self.deal_start])
        if self.options.trumps == "senior-junior" and not suits:
            suits = (int(Suit.SPADES), int(Suit.DIAMONDS))  # rule 3.4, as the engine
        cards = chance[self.deal_start :]
        hands: list[list[int]] = [[] for _ in range(self.players)]
        for seat, card in zip(self._receivers(dealer), cards, strict=False):
            hands[seat].append(card)
        dealt = 4 * self.players
        state = deal_state(
            self.options, dealer, suits, hands, cards[dealt], cards[dealt + 1 :], keep_layout=True
        )
        return DealTracker(state)

    def resample(self, tracker: DealTracker, seat: int, rng: random.Random) -> tuple[list[int], list[int]]:
        world = sample_deal(tracker.knowledge(seat), rng)
        chance: list[int] = []
        if self.dealer_node:
            chance.append(world.dealer)
        if self.trump_picks:
            chance.extend(world.trump_suits)
        hands = [T.cards_of(h) for h in world.hands]
        for seat_k in self._receivers(world.dealer):
            chance.append(hands[seat_k].pop(0))
        chance.append(world.bank[0])
        chance.extend(reversed(world.stock))
        return chance, [a for _, a in tracker.actions]

    # -- views -----------------------------------------------------------------------------------------

    def action_text(self, action: int) -> str:
        return action_text(action)

    def encode(
        self, tracker: DealTracker, seat: int, out: npt.NDArray[np.float32], perfect_recall: bool
    ) -> None:
        out[:OBS_SIZE] = self.adapter.encode(tracker.state, seat)
        if not perfect_recall:
            return
        n = self.players
        for c in T.cards_of(tracker.dealt[seat]):
            out[DEALT + c] = 1
        for _, q, c in tracker.pops:
            if q == seat:
                out[RECEIVED + c] = 1
        for q, a in tracker.actions:
            for c in cards_of_action(a):
                out[LAID + 36 * ((q - seat) % n) + c] = 1

    def encode_dealing(self, chance: Sequence[int], seat: int, out: npt.NDArray[np.float32]) -> None:
        for c in self._own_dealt(chance, seat):
            out[c] = 1  # the observer's hand block

    def _own_dealt(self, chance: Sequence[int], seat: int) -> list[int]:
        if len(chance) <= self.deal_start:
            return []
        receivers = self._receivers(self._dealer(chance))
        return [
            c for k, c in enumerate(chance[self.deal_start :]) if k < len(receivers) and receivers[k] == seat
        ]

    def dealing_text(self, chance: Sequence[int], seat: int) -> str:
        public = [self.chance_text(chance[:k], c) for k, c in enumerate(chance[: self.deal_start])]
        own = " ".join(str(DECK_36[c]) for c in self._own_dealt(chance, seat))
        dealt = max(0, len(chance) - self.deal_start)
        return f"seat {seat} dealing {dealt}/36 {' '.join(public)} hand: {own}"

    def view_text(self, tracker: DealTracker, seat: int, perfect_recall: bool) -> str:
        if not perfect_recall:
            return self.adapter.render(tracker.state, seat)
        known = tracker.knowledge(seat)
        head = (
            f"seat {seat} dealer {known.dealer} trumps {''.join(Suit(s).letter for s in known.trump_suits)} "
            f"open {DECK_36[known.open_card]} dealt {' '.join(str(DECK_36[c]) for c in known.dealt)}"
        )
        got = {t: c for t, q, c in known.pops if q == seat}
        moves = []
        for t, (q, a) in enumerate(known.actions):
            text = f"{q}:{self.action_text(a)}"
            if t in got:
                text += f"[{DECK_36[got[t]]}]"
            moves.append(text)
        return head + " | " + " ".join(moves)
