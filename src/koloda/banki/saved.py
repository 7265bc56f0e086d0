"""banki games kept in the one store (:mod:`koloda.store`): the terminal referee and the web page alike.

A game is kept as its names, options and seed, and the accepted events one row each, written before the
referee answers; it is rebuilt by replaying them, so a game started on the phone goes on in the terminal
and the other way round.

>>> from koloda.store.sql import SqlStore
>>> store = SqlStore("sqlite://")
>>> from koloda.banki import new_game
>>> state = new_game(["Ann", "Bob", "Cat", "Dan"], seed=4)
>>> game_id = create(store, state)
>>> state.apply(state.parse_event("kick Ann 9"))
>>> record_event(store, game_id, state)
>>> load(store, game_id) == state, unfinished(store)
(True, 1)
"""

from __future__ import annotations

from koloda.banki.state import GAME, BankiState, replay
from koloda.errors import RecordError
from koloda.game import GameRecord
from koloda.store import Store


def create(store: Store, state: BankiState) -> int:
    """Store a new game (and any events it already has); its id."""
    game_id = store.create_banki(list(state.names), state.options.to_dict(), state.seed)
    for seq, event in enumerate(state.history, start=1):
        store.add_banki_event(game_id, seq, str(event))
    return game_id


def load(store: Store, game_id: int) -> BankiState:
    """A stored game, its events replayed (NotFoundError: there is none; RecordError: it does not replay)."""
    names, options, seed, events = store.load_banki(game_id)
    record = GameRecord(GAME, len(names), options, tuple(events), seed=seed, meta={"names": names})
    try:
        return replay(record)
    except RecordError as exc:
        raise RecordError(f"banki game {game_id} in {store.location}: {exc}") from None


def record_event(store: Store, game_id: int, state: BankiState, key: str | None = None) -> None:
    """Store the event the state has just accepted (its last), with its idempotency key if it has one."""
    store.add_banki_event(game_id, len(state.history), str(state.history[-1]), key)


def record_undo(store: Store, game_id: int, state: BankiState) -> None:
    """Forget the event the state has just taken back."""
    store.remove_banki_event(game_id, len(state.history) + 1)


def unfinished(store: Store) -> int | None:
    """The most recently started game that is not over, kept in the terminal or the browser (or None)."""
    for game_id in reversed(store.banki_ids()):
        if not load(store, game_id).is_over():
            return game_id
    return None
