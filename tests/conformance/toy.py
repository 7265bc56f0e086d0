"""A toy game, "high card", written as a fourth game would be: its rules, its observation, its options and
its spec, and nothing outside this module (docs/architecture.md, "Adding a game").

Each seat is dealt one card of a small deck (1 to ``deck``); the rest is the stock, face down. In turn,
each seat either keeps its card (``stay``) or, with ``swaps`` on, changes it for the stock's top card
(``swap``). When everyone has acted the cards are shown and the highest card scores a point. A deal is
one round; a match is played to ``target`` points, each deal shuffled from the recorded seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from koloda.errors import IllegalActionError, NotationError, OptionsError, RecordError
from koloda.game import GameRecord, GameSpec, GameState, Observation, Scope, check_seat, replay_actions
from koloda.i18n import Lang
from koloda.options import Options

STAY, SWAP = 0, 1
NAMES = ("stay", "swap")


@dataclass(frozen=True)
class ToyOptions(Options):
    deck: int = 6  # cards 1..deck
    swaps: bool = True  # a seat may change its card for the stock's top
    target: int = 3  # points that win a match

    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {"no-swaps": {"swaps": False}}

    def validate(self) -> None:
        if not 4 <= self.deck <= 20:
            raise OptionsError(f"option 'deck' must be 4-20 cards, not {self.deck}", field="deck")
        if self.target < 1:
            raise OptionsError(f"option 'target' must be at least 1, not {self.target}", field="target")


@dataclass(frozen=True, kw_only=True)
class ToyObservation(Observation):
    hand: tuple[int, ...]  # the seat's own card (none for a spectator)
    stock_size: int
    shown: tuple[int, ...]  # every seat's card, once the deal is over (empty before)
    points: tuple[int, ...]
    history: tuple[tuple[int, str], ...]  # this deal's actions: (seat, text)


class ToyState:
    """A game of high card in progress."""

    def __init__(self, options: ToyOptions, players: int, seed: int, scope: Scope) -> None:
        self.options, self._players, self.seed, self.scope = options, players, seed, scope
        self.points = [0] * players
        self.history: list[tuple[int, int]] = []
        self.deal_no = 0
        self._deal()

    def _deal(self) -> None:
        self.deal_no += 1
        deck = list(range(1, self.options.deck + 1))
        random.Random(f"toy:{self.seed}:{self.deal_no}").shuffle(deck)
        self.hands = [deck.pop() for _ in range(self._players)]
        self.stock = deck
        self.discards: list[int] = []
        self.acted = 0
        self.deal_start = len(self.history)
        self.over = False

    @property
    def players(self) -> int:
        return self._players

    @property
    def current_player(self) -> int | None:
        return None if self.over else (self.deal_no - 1 + self.acted) % self._players

    @property
    def version(self) -> int:
        return len(self.history)

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        return [STAY, SWAP] if self.options.swaps and self.stock else [STAY]

    def apply(self, action: int) -> None:
        if type(action) is not int or action not in self.legal_actions():
            raise IllegalActionError(f"illegal action {action!r}: legal now are {self.legal_actions()}")
        seat = self.current_player
        assert seat is not None
        self.history.append((seat, action))
        if action == SWAP:
            self.discards.append(self.hands[seat])
            self.hands[seat] = self.stock.pop()
        self.acted += 1
        if self.acted < self._players:
            return
        best = max(range(self._players), key=lambda p: self.hands[p])
        self.points[best] += 1
        if self.scope == "deal" or max(self.points) >= self.options.target:
            self.over = True
        else:
            self._deal()

    def is_over(self) -> bool:
        return self.over

    def returns(self) -> list[int]:
        return list(self.points)

    def action_text(self, action: int) -> str:
        return action_text(action)

    def parse_action(self, text: str) -> int:
        return parse_action(text)

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        for name in ("points", "history", "hands", "stock", "discards"):
            setattr(new, name, list(getattr(self, name)))
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ToyState) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]

    def record(self, meta: Mapping[str, Any] | None = None) -> GameRecord:
        texts = tuple(action_text(a) for _, a in self.history)
        options = self.options.to_dict()
        return GameRecord("toy", self._players, options, texts, self.seed, None, self.scope, dict(meta or {}))


def action_text(action: int) -> str:
    if type(action) is not int or action not in (STAY, SWAP):
        raise NotationError(f"bad toy action {action!r}: expected 0 (stay) or 1 (swap)")
    return NAMES[action]


def parse_action(text: str) -> int:
    if not isinstance(text, str) or text.strip().lower() not in NAMES:
        raise NotationError(f"bad toy action {text!r}: expected 'stay' or 'swap'")
    return NAMES.index(text.strip().lower())


class ToySpec(GameSpec):
    name = "toy"
    titles: ClassVar[Mapping[Lang, str]] = {"ru": "Старшая карта", "en": "High card"}
    player_counts = (2, 3)
    default_players = 2
    options_class = ToyOptions

    def new_game(
        self, options: Options | None = None, *, players: int, seed: int, scope: Scope = "match"
    ) -> ToyState:
        opts = self.own_options(options, ToyOptions) or ToyOptions()
        self.check_players(players)
        if type(seed) is not int or seed < 0:
            raise RecordError(f"seed must be a non-negative integer, not {seed!r}")
        if scope not in ("deal", "match"):
            raise RecordError(f"bad scope {scope!r}")
        return ToyState(opts, players, seed, scope)

    def replay(self, record: GameRecord) -> ToyState:
        if record.game != "toy" or record.seed is None:
            raise RecordError("not a record of a toy game with a seed")
        state = self.new_game(
            ToyOptions.from_mapping(record.options),
            players=record.players,
            seed=record.seed,
            scope=record.scope,
        )
        replay_actions(state, record.actions)
        return state

    def observe(self, state: GameState, seat: int | None) -> ToyObservation:
        s = self.own_state(state, ToyState)
        seat = check_seat(s, seat)
        mine = seat is not None and s.current_player == seat
        return ToyObservation(
            seat=seat,
            players=s.players,
            deal=s.deal_no,
            phase="over" if s.over else "play",
            current_player=s.current_player,
            version=s.version,
            legal_actions=tuple(s.legal_actions()) if mine else (),
            hand=() if seat is None else (s.hands[seat],),
            stock_size=len(s.stock),
            shown=tuple(s.hands) if s.over else (),
            points=tuple(s.points),
            history=tuple((p, action_text(a)) for p, a in s.history[s.deal_start :]),
        )

    def redeal_hidden(self, state: GameState, seat: int | None, rng: random.Random) -> ToyState:
        s = self.own_state(state, ToyState).copy()
        if s.over:
            return s  # every card is shown
        others = [p for p in range(s.players) if p != seat]
        cards = [s.hands[p] for p in others] + s.stock
        rng.shuffle(cards)
        for p in others:
            s.hands[p] = cards.pop()
        s.stock = cards
        return s

    def audit(self, state: GameState) -> list[str]:
        s = self.own_state(state, ToyState)
        cards = sorted([*s.hands, *s.stock, *s.discards])
        if cards != list(range(1, s.options.deck + 1)):
            return [f"the cards are {cards}, not 1-{s.options.deck} once each"]
        return []

    def action_text(self, action: int) -> str:
        return action_text(action)

    def parse_action(self, text: str) -> int:
        return parse_action(text)


SPEC = ToySpec()
