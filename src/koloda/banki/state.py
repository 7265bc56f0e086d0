"""The banki referee as a state machine: players enter what happened, the state applies the rules.

Rules are numbered as in ``docs/rules/banki.md`` (G = common, M = Moscow, C = Chelyabinsk). One method
per event checks it and applies it (the Moscow race back in :mod:`koloda.banki.race`, the Chelyabinsk
driver's throw and run in :mod:`koloda.banki.pile`); :meth:`BankiState.apply` works on a copy, so an event
the rules do not allow raises :class:`~koloda.banki.text.RefereeError` (an ``IllegalActionError``) and
changes nothing.

>>> s = new_game(["Аня", "Боря", "Вера", "Гоша"], seed=1)
>>> for line in ["kick Аня 9", "kick Боря 12", "kick Вера 4.5", "kick Гоша 7"]:
...     s.apply(s.parse_event(line))
>>> s.driver_name, s.order_names
('Вера', ['Боря', 'Аня', 'Гоша'])
>>> s.apply(s.parse_event("hit Аня"))
Traceback (most recent call last):
...
koloda.banki.text.RefereeError: 'hit Аня': Аня throws out of turn: it is Боря's throw
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from koloda.banki.events import PHASE_EVENTS, Event, Phase, Stick, check_name
from koloda.banki.options import BankiOptions
from koloda.banki.pile import PileRules
from koloda.banki.race import RaceRules
from koloda.banki.text import RefereeError
from koloda.errors import NotationError, OptionsError, RecordError
from koloda.game import GameRecord
from koloda.i18n import Msg
from koloda.seeds import Seed, draws, is_secret

GAME = "banki"


@dataclass
class BankiState(RaceRules, PileRules):
    """The whole state of a game of banki; players are seats 0..n-1, named by ``names``."""

    options: BankiOptions
    names: tuple[str, ...]
    seed: Seed
    phase: Phase = Phase.KICK
    rank: list[int] = field(default_factory=list)  # index into options.ranks
    driver: int | None = None
    order: list[int] = field(default_factory=list)  # throwing order of everyone but the driver
    kicks: list[tuple[int, ...]] = field(default_factory=list)  # toe-kick distances (cm), re-kicks after
    stick: list[Stick] = field(default_factory=list)
    turn: int = 0  # M: index into order of the next thrower; C: where the search for one starts
    steps: list[int] = field(default_factory=list)  # M10: promotions earned this round
    hit_waiting: list[bool] = field(default_factory=list)  # C5: hit, promoted if back before the reset
    can_up: bool = True
    tagged: int | None = None  # M6: tagged, waiting for the driver's knock
    just_threw: int | None = None  # G7: whose stick was thrown by the last event (for a cross)
    round: int = 1
    winners: list[int] = field(default_factory=list)
    present: list[bool] = field(default_factory=list)  # G9: False for a player who has left
    fresh: bool = False  # G9: the round has had no event yet (players may join or leave)
    starters: int = 0  # G9: how many of ``names`` began the game (the others joined later)
    orders: list[tuple[int, str]] = field(default_factory=list)
    history: list[Event] = field(default_factory=list)
    news: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # what the last event did

    # -- construction --------------------------------------------------------------------------------

    def __post_init__(self) -> None:
        n = len(self.names)
        if not self.rank:
            self.rank = [0] * n
            self.kicks = [()] * n
            self.stick = [Stick.HAND] * n
            self.steps = [0] * n
            self.hit_waiting = [False] * n
            self.present = [True] * n
            self.starters = n
            self.phase = Phase.COUNT if self.options.first_driver == "counting" else Phase.KICK

    def copy(self) -> BankiState:
        """An independent copy (events are immutable, so lists are copied shallowly)."""
        return replace(
            self,
            rank=list(self.rank),
            order=list(self.order),
            kicks=list(self.kicks),
            stick=list(self.stick),
            steps=list(self.steps),
            hit_waiting=list(self.hit_waiting),
            winners=list(self.winners),
            present=list(self.present),
            orders=list(self.orders),
            history=list(self.history),
            news=list(self.news),
        )

    # -- names -----------------------------------------------------------------------------------------

    @property
    def driver_name(self) -> str | None:
        return None if self.driver is None else self.names[self.driver]

    @property
    def order_names(self) -> list[str]:
        return [self.names[seat] for seat in self.order]

    def seat(self, name: str) -> int:
        """The seat of a player name (case does not matter); NotationError if there is no such player."""
        for seat, known in enumerate(self.names):
            if known.casefold() == name.casefold():
                return seat
        raise NotationError(Msg("banki.notation.no_player", name=name, names=", ".join(self.names)))

    def _known(self, name: str) -> bool:
        return any(known.casefold() == name.casefold() for known in self.names)

    def parse_event(self, text: str) -> Event:
        """Parse an event and spell its player names exactly as in the game (the canonical text)."""
        event = Event.parse(text)
        if event.kind == "join" and event.player is not None and not self._known(event.player):
            return event  # G9: a newcomer's name is his own
        canon = {name: self.names[self.seat(name)] for name in event.players()}
        return replace(
            event,
            player=canon.get(event.player or "", event.player),
            other=canon.get(event.other or "", event.other),
        )

    # -- queries ---------------------------------------------------------------------------------------

    def counting_out(self) -> int:
        """C1: the seat the counting rhyme lands on, drawn from the recorded seed (before anyone joins)."""
        return draws(self.seed, "banki:count", random.Random).randrange(self.starters)

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def kickers(self) -> list[int]:
        """Who kicks for the order: everybody (M3), or everybody but the counted-out driver (C3)."""
        return self.players()

    def pending_kickers(self) -> list[int]:
        """Who must kick (again): whoever's kicks do not yet tell them apart from another's (M3)."""
        kickers = self.kickers()
        return [
            p
            for p in kickers
            if any(q != p and self.kicks[q][: len(self.kicks[p])] == self.kicks[p] for q in kickers)
        ]

    def thrower(self) -> int | None:
        """Whose throw it is, or None."""
        if self.phase is not Phase.THROW:
            return None
        if self.options.style == "moscow":
            return self.order[self.turn] if self.turn < len(self.order) else None
        count = len(self.order)
        for step in range(count):  # C7: the next one in order who is behind the line with a stick
            seat = self.order[(self.turn + step) % count]
            if self.stick[seat] is Stick.HAND:
                return seat
        return None

    def allowed_kinds(self) -> tuple[str, ...]:
        """The kinds of event this stage allows (whether a particular one is legal is for ``apply``)."""
        kinds = PHASE_EVENTS[self.phase]
        if self.phase is Phase.THROW and self.options.style == "chelyabinsk":
            kinds = (*kinds, "back")
        return kinds

    # -- applying events -------------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Apply an event; one the rules do not allow raises RefereeError and changes nothing."""
        trial = self.copy()
        trial.news = []
        trial._apply(event)
        trial.history.append(event)
        self.__dict__.update(trial.__dict__)

    def _apply(self, event: Event) -> None:
        text = str(event)
        for name in event.players():
            if name not in self.names and event.kind != "join":
                raise RefereeError(text, "unknown_name", name=name, names=", ".join(self.names))
        if self.phase is Phase.OVER and event.kind != "order":
            raise RefereeError(text, "over", what=event.kind)
        allowed = self.allowed_kinds()
        if event.kind not in allowed:
            raise RefereeError(
                text, "wrong_phase", what=event.kind, phase=self.phase.value, allowed=", ".join(allowed)
            )
        if event.kind in ("join", "leave") and not self.fresh:  # G9: only between rounds
            raise RefereeError(text, "not_between_rounds", what=event.kind)
        last_throw = self.just_threw
        self.just_threw = None
        p = None if event.player is None or event.player not in self.names else self.names.index(event.player)
        q = None if event.other is None else self.names.index(event.other)
        for seat in (p, q):
            if seat is not None and not self.present[seat] and event.kind != "join":
                raise RefereeError(text, "has_left", name=self.names[seat])
        self.fresh = False
        getattr(self, f"_on_{event.kind}")(event, text, p, q, last_throw)

    # -- C1: counting out ------------------------------------------------------------------------------

    def _on_count(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        self._set_first_driver(self.counting_out())

    def _on_counted(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert p is not None
        self._set_first_driver(p)

    def _set_first_driver(self, seat: int) -> None:
        self.driver = seat
        self._news("news_driver_first", name=self.names[seat])
        self.phase = Phase.KICK
        self._settle_kicks()

    # -- G2, M3, C3: kicking sticks off the toe --------------------------------------------------------

    def _on_kick(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert p is not None and event.centimetres is not None
        if p == self.driver:
            raise self._err(text, "driver_no_kick", name=self.names[p])
        if p not in self.pending_kickers():
            raise self._err(text, "not_kicking", name=self.names[p])
        self.kicks[p] = (*self.kicks[p], event.centimetres)
        tied = [s for s in self.kickers() if self.kicks[s] == self.kicks[p]]
        if len(tied) > 1:  # M3: equal kicks are kicked again, between the tied players only
            self._news("news_rekick", names=", ".join(self.names[s] for s in tied))
        self._settle_kicks()

    def _settle_kicks(self) -> None:
        if self.pending_kickers():
            return
        # M3, C3: the farthest kick throws first; M3: the shortest kick drives
        ranked = sorted(self.kickers(), key=lambda s: self.kicks[s], reverse=True)
        if self.driver is None:
            self.driver = ranked.pop()
            self._news("news_driver_first", name=self.names[self.driver])
        self.order = ranked
        self._news("news_order", order=", ".join(self.order_names))
        self._start_round()

    # -- throwing (M4, C4-C7) --------------------------------------------------------------------------

    def _start_round(self) -> None:
        n = len(self.names)
        self.phase = Phase.THROW
        self.stick = [Stick.HAND] * n
        self.steps = [0] * n
        self.hit_waiting = [False] * n
        self.can_up, self.tagged, self.turn = True, None, 0
        self.fresh = True
        self._news("news_round", number=self.round)

    def _check_throw(self, event: Event, text: str, p: int) -> None:
        self._not_driver(text, p)
        thrower = self.thrower()
        if p != thrower:
            if self.options.style == "chelyabinsk" and self.stick[p] is not Stick.HAND:
                raise self._err(text, "not_in_hand", name=self.names[p])
            raise self._err(text, "out_of_turn", name=self.names[p], turn=self._name(thrower))
        if not self.can_up:
            raise self._err(text, "can_down")
        if event.spear and self.rank_id(p) not in self.options.spear_ranks:  # M15
            raise self._err(text, "no_spear", **self._who(p))

    def _on_hit(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert p is not None
        self._check_throw(event, text, p)
        if event.where is not None:
            raise self._err(text, "hit_no_where")
        self.can_up = False
        if self.options.style == "moscow":
            self.stick[p] = Stick.FIELD
            self.steps[p] += self._promotion(p, event)  # M10: counted now, given at the end of the round
            self.just_threw = p
        else:
            self.stick[p] = Stick.PILE  # C4: the driver puts the stick that hit into his pile
            self.hit_waiting[p] = True
        self._after_throw(p)

    def _promotion(self, seat: int, event: Event) -> int:
        """M15: a lieutenant's spear hit jumps a rank; every other hit is one rank (G8, M10)."""
        jump = self.options.spear_jump
        spear_rank = self.rank_id(seat) in self.options.spear_ranks
        if spear_rank and (jump == "any_hit" or (jump == "spear_hit" and event.spear)):
            return 2
        return 1

    def _on_miss(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert p is not None
        self._check_throw(event, text, p)
        if self.options.style == "moscow":
            if event.where is not None:
                raise self._err(text, "where_moscow", kind="miss")
            self.stick[p] = Stick.FIELD
        else:
            if event.where is None:  # C4: a stick that reached the can goes to the pile, else it lies
                raise self._err(text, "where_needed", name=self.names[p])
            self.stick[p] = Stick.PILE if event.where == "pile" else Stick.FIELD
        self.just_threw = p if self.stick[p] is Stick.FIELD else None
        self._after_throw(p)

    def _after_throw(self, p: int) -> None:
        if self.options.style == "moscow":
            self.turn += 1
            if self.turn == len(self.order):  # M5: after the last throw everyone goes for the sticks
                self.phase = Phase.RACE
        else:
            self.turn = (self.order.index(p) + 1) % len(self.order)
            self._check_driver_throw()

    def _on_reset(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        if self.can_up:
            raise self._err(text, "can_up")
        self.can_up = True  # G5, M4: only the driver handles the can, to put it back
        self.hit_waiting = [False] * len(self.names)  # C5: too late for this round's hitters
        if self.options.style == "chelyabinsk":
            self._check_driver_throw()

    def _on_back(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert p is not None
        self._not_driver(text, p)
        if self.stick[p] is Stick.HAND:
            raise self._err(text, "has_stick", name=self.names[p])
        if p == self.tagged:
            raise self._err(text, "is_tagged", name=self.names[p])
        if self.stick[p] is Stick.PILE and self.can_up:  # C6: the driver's hand is on the pile
            raise self._err(text, "stick_in_pile", name=self.names[p])
        self.stick[p] = Stick.HAND
        if self.options.style == "chelyabinsk":
            if self.hit_waiting[p]:  # C5: hit, and back with the stick while the can was away
                self.hit_waiting[p] = False
                self._promote_now(p, 1)
        else:
            self._check_race_over()

    def _on_cross(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert p is not None and q is not None
        if not self.options.crossed_sticks:
            raise self._err(text, "cross_off")
        if last is None:
            raise self._err(text, "cross_nothing")
        if p != last:
            raise self._err(text, "cross_not_last", last=self.names[last])
        if q == p:
            raise self._err(text, "same_player")
        self._not_driver(text, q)
        if self.stick[q] is not Stick.FIELD:
            raise self._err(text, "cross_not_field", name=self.names[q])
        self._may_drive(text, p)  # M18: a marshal is not made the driver by a crossed stick either
        self._end_round(new_driver=p)  # G7: the top stick's thrower drives

    # -- end of a round and of the game ------------------------------------------------------------------

    def _end_round(self, new_driver: int | None) -> None:
        top = len(self.options.ranks) - 1
        for seat, steps in enumerate(self.steps):  # M10: this round's hits promote now
            if steps:
                self.rank[seat] = min(top, self.rank[seat] + steps)
                self._news("news_promoted", **self._who(seat))
        self.steps = [0] * len(self.names)
        winners = [seat for seat in range(len(self.names)) if self.rank[seat] == top and self.present[seat]]
        if winners:  # M19: reaching the last line ends the game
            self._finish(winners)
            return
        old = self.driver
        assert old is not None
        if new_driver is None or new_driver == old:
            self._news("news_driver_stays", name=self.names[old])
        else:  # M9: the new driver leaves the order, the old one throws last
            self.order.remove(new_driver)
            self.order.append(old)
            self.driver = new_driver
            self._news("news_new_driver", name=self.names[new_driver], old=self.names[old])
        self.round += 1
        self._start_round()

    # -- G9: joining and leaving between rounds ---------------------------------------------------------

    def _on_join(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert event.player is not None
        if p is not None and self.present[p]:
            raise self._err(text, "already_playing", name=self.names[p])
        if sum(self.present) >= self.options.max_players:
            raise self._err(text, "too_many", high=self.options.max_players)
        if p is None:  # a newcomer starts on the first rank
            p = len(self.names)
            self.names = (*self.names, event.player)
            self.rank.append(0)
            self.kicks.append(())
            self.stick.append(Stick.HAND)
            self.steps.append(0)
            self.hit_waiting.append(False)
            self.present.append(True)
        self.present[p] = True  # one who comes back keeps his rank
        self.order.append(p)  # and throws last, like a former driver (M9)
        self._news("news_joined", name=self.names[p], rank=self.rank_id(p))
        self.fresh = True

    def _on_leave(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert p is not None
        if sum(self.present) <= 2:  # M1: a driver and one thrower at least
            raise self._err(text, "too_few")
        self.present[p] = False
        if p == self.driver:  # the last in the order, who drove most recently (M9), drives again (M18: one
            may_drive = [s for s in self.order if self.rank_id(s) not in self.options.never_drive_ranks]
            self.driver = (may_drive or self.order)[-1]  # who may be made the driver at all)
            self.order.remove(self.driver)
            self._news("news_left_driver", name=self.names[p], driver=self.names[self.driver])
        else:
            self.order.remove(p)
            self._news("news_left", name=self.names[p])
        self.fresh = True

    def _on_order(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert p is not None and event.text is not None
        if not self.options.winner_orders:
            raise self._err(text, "no_orders")
        if p in self.winners:
            raise self._err(text, "order_winner", name=self.names[p])
        self.orders.append((p, event.text))  # C10: everyone must obey the marshal
        self._news("news_order_given", name=self.names[p], text=event.text)

    # -- history ----------------------------------------------------------------------------------------

    def undo(self) -> Event:
        """Take back the last event (the state is rebuilt from the start); returns the event undone."""
        if not self.history:
            raise RefereeError("undo", "nothing_to_undo")
        rebuilt = new_game(self.names[: self.starters], self.options, seed=self.seed)
        for event in self.history[:-1]:
            rebuilt.apply(event)
        undone = self.history[-1]
        self.__dict__.update(rebuilt.__dict__)
        return undone

    def record(self) -> GameRecord:
        """The game so far as a record; the names are in ``meta`` because events name the players (those who
        began the game: a player who joined later comes in by his ``join`` event, rule G9)."""
        defaults = BankiOptions().to_dict()
        options = {k: v for k, v in self.options.to_dict().items() if defaults[k] != v}
        return GameRecord(
            game=GAME,
            players=self.starters,
            options=options,
            actions=tuple(str(event) for event in self.history),
            seed=self.seed,
            meta={"names": list(self.names[: self.starters])},
        )


def new_game(names: Sequence[str], options: BankiOptions | None = None, *, seed: Seed = 0) -> BankiState:
    """A new game for these players (the driver among them); ``seed`` is used by the counting-out (C1)."""
    options = options or BankiOptions()
    names = tuple(check_name(name) for name in names)
    folded = [name.casefold() for name in names]
    for name in names:
        if folded.count(name.casefold()) > 1:
            raise OptionsError(Msg("banki.same_names", name=name))
    if not options.min_players <= len(names) <= options.max_players:
        raise OptionsError(
            Msg("banki.players", low=options.min_players, high=options.max_players, count=len(names))
        )
    if not (type(seed) is int and seed >= 0) and not is_secret(seed):
        raise OptionsError(Msg("banki.seed", seed=repr(seed)))
    return BankiState(options, names, seed)


def replay(record: GameRecord) -> BankiState:
    """Rebuild a game from its record; RecordError names the first event that does not replay."""
    if record.game != GAME:
        raise RecordError(f"this is a record of {record.game!r}, not of {GAME!r}")
    names = record.meta.get("names")
    if (
        not isinstance(names, list)
        or not all(isinstance(n, str) for n in names)
        or len(names) != record.players
    ):
        raise RecordError(f"a banki record needs meta.names: a list of {record.players} player names")
    if record.seed is None:
        raise RecordError("a banki record needs a 'seed'")
    try:
        state = new_game(names, BankiOptions.from_mapping(record.options), seed=record.seed)
    except (OptionsError, NotationError) as exc:
        raise RecordError(f"bad set-up: {exc}") from None
    for number, text in enumerate(record.actions, start=1):
        try:
            state.apply(state.parse_event(text))
        except (NotationError, RefereeError) as exc:
            raise RecordError(f"event {number} {text!r} does not replay: {exc}") from None
    return state
