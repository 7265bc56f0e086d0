"""Thousand's side of the OpenSpiel registration (:mod:`koloda.rl.openspiel`): chance, views, resampling.

Seat 0 deals (as ``new_game``). Chance nodes deal the 24 cards (outcome = card id 0-23) as rule G3 does:
7 to each of the three playing seats from the dealer's left, then the talon of 3. If rule G4 voids the
deal, 24 more chance nodes deal again, so a history always replays.

The information state tensor is the observation tensor (docs/rl.md) followed by the seat's dealt cards
(24) and the cards each seat has played this deal (4 x 24, seats relative to the observer).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Self

import numpy as np
import numpy.typing as npt

from koloda.rl.thousand_encoding import ThousandAdapter
from koloda.thousand.actions import CARDS, NUM_ACTIONS, PASS, action_text, card_played, mask_ids
from koloda.thousand.deal import NEXT, is_void
from koloda.thousand.knowledge import DealTracker, ThousandKnowledge
from koloda.thousand.options import ThousandOptions
from koloda.thousand.state import ThousandState
from koloda.thousand.tensor import OBS_SIZE
from koloda.thousand.worlds import sample_deal

DEALT = OBS_SIZE
PLAYED_BY = OBS_SIZE + 24
INFO_SIZE = OBS_SIZE + 24 + 4 * 24


class ThousandSpec:
    """Thousand with fixed options and table size, for :class:`koloda.rl.openspiel.KolodaSpielGame`."""

    num_actions = NUM_ACTIONS
    chance_outcomes_max = 24
    obs_size = OBS_SIZE
    info_size = INFO_SIZE

    def __init__(self, options: ThousandOptions, players: int) -> None:
        self.options, self.players = options, players
        self.adapter = ThousandAdapter(players, **options.to_dict())
        nxt = NEXT[players, 0]
        first = nxt[0]
        self.receivers = [first] * 7 + [nxt[first]] * 7 + [nxt[nxt[first]]] * 7
        self._void: dict[tuple[int, ...], bool] = {}

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        # fixed for its game (its caches are keyed by value): a state's clone() shares it, not copies it
        return self

    def utility_bounds(self) -> tuple[float, float]:
        """A deal moves a total by at most a 600 contract plus the barrel, bolt and dump penalties."""
        return -2000.0, 2000.0

    # -- chance ----------------------------------------------------------------------------------------

    def _cards(self, cards: Sequence[int]) -> tuple[list[int], int]:
        """The hands and the talon (bitmasks) of 24 chance outcomes."""
        hands = [0] * self.players
        for seat, c in zip(self.receivers, cards, strict=False):
            hands[seat] |= 1 << c
        return hands, sum(1 << c for c in cards[21:24])

    def _deal(self, cards: Sequence[int]) -> ThousandState:
        hands, talon = self._cards(cards)
        deal = {"dealer": 0, "hands": hands, "talon": talon, "seed": 0}
        return ThousandState(self.options, self.players, "deal", None, deal)

    def _is_void(self, cards: Sequence[int]) -> bool:
        key = tuple(cards)
        void = self._void.get(key)
        if void is None:
            if len(self._void) > 1024:
                self._void.clear()
            void = self._void[key] = is_void(self.options, *self._cards(cards))  # rule G4 deals it again
        return void

    def chance_outcomes(self, chance: Sequence[int]) -> list[int]:
        done = len(chance) % 24
        if done == 0 and chance and not self._is_void(chance[-24:]):
            return []
        dealt = set(chance[len(chance) - done :])
        return [c for c in range(24) if c not in dealt]

    def chance_text(self, chance: Sequence[int], outcome: int) -> str:
        return f"deal {CARDS[outcome]}"

    def start(self, chance: Sequence[int]) -> DealTracker:
        return DealTracker(self._deal(chance[-24:]))

    def resample(self, tracker: DealTracker, seat: int, rng: random.Random) -> tuple[list[int], list[int]]:
        world, actions = sample_deal(tracker.knowledge(seat), rng)
        hands = [mask_ids(h) for h in world.hands]
        chance = [hands[q].pop(0) for q in self.receivers]
        chance += mask_ids(world.talon)
        return chance, actions

    # -- views -----------------------------------------------------------------------------------------

    def action_text(self, action: int) -> str:
        return action_text(action)

    def encode(
        self, tracker: DealTracker, seat: int, out: npt.NDArray[np.float32], perfect_recall: bool
    ) -> None:
        out[:OBS_SIZE] = self.adapter.encode(tracker.state, seat)
        if not perfect_recall:
            return
        for c in range(24):
            if tracker.hands[seat] >> c & 1:
                out[DEALT + c] = 1
        n = self.players
        for q, a in tracker.actions:
            if 0 <= a < PASS:
                out[PLAYED_BY + 24 * ((q - seat) % n) + card_played(a)] = 1

    def encode_dealing(self, chance: Sequence[int], seat: int, out: npt.NDArray[np.float32]) -> None:
        for c in self._own_dealt(chance, seat):
            out[c] = 1

    def _own_dealt(self, chance: Sequence[int], seat: int) -> list[int]:
        done = len(chance) % 24
        current = chance[len(chance) - done :]
        return [c for k, c in enumerate(current) if k < 21 and self.receivers[k] == seat]

    def dealing_text(self, chance: Sequence[int], seat: int) -> str:
        own = " ".join(str(CARDS[c]) for c in sorted(self._own_dealt(chance, seat)))
        return f"seat {seat} dealing {len(chance) % 24}/24 hand: {own}"

    def view_text(self, tracker: DealTracker, seat: int, perfect_recall: bool) -> str:
        if not perfect_recall:
            return self.adapter.render(tracker.state, seat)
        known: ThousandKnowledge = tracker.knowledge(seat)
        talon = (
            " ".join(str(CARDS[c]) for c in range(24) if known.talon >> c & 1) if known.talon >= 0 else "?"
        )
        head = (
            f"seat {seat} dealer {known.dealer} totals {list(known.book.totals)} "
            f"hand {' '.join(str(CARDS[c]) for c in range(24) if known.hand >> c & 1)} talon {talon}"
        )
        moves = [f"{q}:{action_text(a) if a >= 0 else f'gift>{-a} ?'}" for q, a in known.actions]
        return head + " | " + " ".join(moves)
