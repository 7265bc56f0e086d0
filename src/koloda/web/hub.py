"""The live tables: the one authority that checks, stores and broadcasts every action.

A :class:`Room` is one table in memory (its state rebuilt by replaying the stored actions); the
:class:`Hub` owns the rooms, the store and the bots' thread pool. Every message to a client is built
for that client from ``observe(state, seat)`` (or the public view), never from the state itself.

Each accepted action is stored, then applied, then announced; the version of a table is the number of
actions it has accepted, so a client that sends the version it saw is refused when the table moved on.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from koloda import registry
from koloda.bots.base import Fault, RandomBot
from koloda.errors import IllegalActionError, KolodaError
from koloda.game import GameRecord, GameSpec, GameState
from koloda.i18n import LANGS, addressed
from koloda.store import SeatRecord, Store, TableRecord
from koloda.web.refusals import refuse, wrap
from koloda.web.schemas import NewTable, SeatRequest, game_options
from koloda.web.telemetry import Telemetry, event
from koloda.web.views import public_view, seat_view

LOG = logging.getLogger("koloda.web")
TOKEN_BYTES = 24  # 192 random bits per seat link

Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(eq=False)
class Client:
    """One open connection: its seat (None for a spectator) and how to send it a message."""

    seat: int | None
    send: Send


@dataclass(eq=False)
class Room:
    """One table in play."""

    record: TableRecord
    game: GameSpec
    state: GameState
    actions: list[str]
    clients: set[Client] = field(default_factory=set)
    faults: list[Fault] = field(default_factory=list)  # moves its bots failed to make (a fallback played)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None

    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.record.seats]

    def seat_of(self, token: str) -> int:
        """The seat whose secret token this is."""
        for seat, record in enumerate(self.record.seats):
            if secrets.compare_digest(record.token.encode(), token.encode("utf-8", "surrogatepass")):
                return seat
        raise refuse("bad_token", field="token", id=self.record.id)

    def info(self) -> dict[str, Any]:
        """The public facts of the table: game, players, options, who sits where, whether it is over."""
        return {
            "id": self.record.id,
            "game": self.game.name,
            "players": self.record.players,
            "options": self.record.options,
            "seats": [_public(seat) for seat in self.record.seats],
            "over": self.state.is_over(),
            "version": self.version,
            "created": self.record.created,
        }

    def message(self, kind: str, seat: int | None) -> dict[str, Any]:
        """A full message for one client: the table, its view, the scores (``sync`` or ``event``)."""
        view = public_view(self.game, self.state) if seat is None else seat_view(self.game, self.state, seat)
        return {
            "type": kind,
            "v": self.version,
            "seat": seat,
            "table": self.info(),
            "title": {lang: self.game.titles[lang] for lang in LANGS},  # the game's name for people
            "view": view,
            "scores": self.scores(view),
            "returns": self.state.returns() if self.state.is_over() else None,
        }

    def scores(self, view: dict[str, Any]) -> dict[str, Any]:
        """The game's score table and chart beside the table (public facts only)."""
        return self.game.scores(self.state, self.names)


class Hub:
    """All live rooms over one store; bots think in a thread pool so no table waits for another."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.6,
        bot_threads: int = 2,
        bot_seconds: float = 10.0,
        telemetry: Telemetry | None = None,
    ) -> None:
        self.store = store
        self.telemetry = Telemetry() if telemetry is None else telemetry
        self.telemetry.tables.read = lambda: len(self.rooms)
        self.bot_delay = bot_delay
        self.bot_seconds = bot_seconds  # a bot taking longer for a move is replaced by its fallback
        self.rooms: dict[int, Room] = {}
        self._executor = ThreadPoolExecutor(max_workers=bot_threads, thread_name_prefix="koloda-bot")
        self._loading = asyncio.Lock()

    def close(self) -> None:
        for room in self.rooms.values():
            if room.bot_task is not None:
                room.bot_task.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)

    # -- tables ------------------------------------------------------------------------------------

    def create_table(self, request: NewTable) -> tuple[Room, list[str]]:
        """Create a table from a lobby request; returns the room and every seat's secret token."""
        game = registry.get(request.game)
        options = game_options(game.options_class, request.preset, request.options)
        seed = secrets.randbits(31) if request.seed is None else request.seed
        try:
            game.new_game(options, players=request.players, seed=seed)
        except KolodaError as exc:
            raise wrap("bad_options", exc, field="options") from None
        seats = _seats(request.seats, request.players)
        table_id = self.store.create_table(game.name, request.players, options.to_dict(), seed, seats)
        room = self._open(self.store.load_table(table_id))
        self.rooms[table_id] = room
        event("create", table=table_id, game=game.name, players=request.players, version=0)
        self._schedule_bot(room)
        return room, [seat.token for seat in seats]

    async def room(self, table_id: int) -> Room:
        """The live room of a table, loaded from the store (and replayed) on first use."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        async with self._loading:
            room = self.rooms.get(table_id)
            if room is None:
                try:
                    record = self.store.load_table(table_id)
                except KolodaError:
                    raise refuse("unknown_table", id=table_id) from None
                try:
                    room = self._open(record)
                except KolodaError as exc:  # a record this koloda cannot replay: say so, change nothing
                    raise wrap("bad_record", exc, id=table_id) from None
                self.rooms[table_id] = room
                self._schedule_bot(room)
        return room

    def _open(self, record: TableRecord) -> Room:
        game = registry.get(record.game)
        game_record = GameRecord(
            game=record.game,
            players=record.players,
            options=record.options,
            actions=record.actions,
            seed=record.seed,
            scope="match",
        )
        state = game.replay(game_record)
        return Room(record, game, state, list(record.actions))

    def summaries(self) -> list[dict[str, Any]]:
        """The stored tables, newest first, with who sits where (for the lobby)."""
        out = []
        for table_id in reversed(self.store.table_ids()[-50:]):
            room = self.rooms.get(table_id)
            if room is not None:
                out.append(room.info())
                continue
            record = self.store.load_table(table_id)
            out.append(
                {
                    "id": record.id,
                    "game": record.game,
                    "players": record.players,
                    "options": record.options,
                    "seats": [_public(seat) for seat in record.seats],
                    "over": None,  # not loaded: unknown until someone opens it
                    "version": len(record.actions),
                    "created": record.created,
                }
            )
        return out

    async def join(self, table_id: int, seat: int, name: str | None = None) -> str:
        """Take a free seat the host opened to the lobby; returns its new token (the seat's link until
        then stops working, so whoever sits holds the only key)."""
        room = await self.room(table_id)
        if not seat < room.record.players:
            raise refuse("bad_seat", field="seat", id=table_id, last=room.record.players - 1, seat=seat)
        async with room.lock:  # two people clicking the same free seat: one gets it
            record = room.record.seats[seat]
            if record.bot is not None or record.taken:
                raise refuse("seat_taken", field="seat", number=seat + 1, id=table_id)
            if not record.open:
                raise refuse("seat_by_link", field="seat", number=seat + 1, id=table_id)
            token = secrets.token_urlsafe(TOKEN_BYTES)
            self._set_seat(room, seat, replace(record, taken=True, name=name or record.name, token=token))
            event("join", table=table_id, seat=seat, version=room.version)
            await self.broadcast(room, "sync")  # not an action: the version stays
        return token

    def take(self, room: Room, seat: int) -> None:
        """A seat's link was opened: the seat is no longer free in the lobby."""
        if not room.record.seats[seat].taken:
            self._set_seat(room, seat, replace(room.record.seats[seat], taken=True))
            event("sit", table=room.record.id, seat=seat, version=room.version)

    def _set_seat(self, room: Room, seat: int, new: SeatRecord) -> None:
        seats = list(room.record.seats)
        seats[seat] = new
        self.store.set_seats(room.record.id, seats)
        room.record = replace(room.record, seats=tuple(seats))

    # -- play --------------------------------------------------------------------------------------

    async def act(self, room: Room, seat: int | None, version: int, action: int | str) -> None:
        """Check, store, apply and announce one action; a refusal raises and changes nothing."""
        started = time.perf_counter()
        async with room.lock:
            state = room.state
            if seat is None:
                raise refuse("spectator")
            if state.is_over():
                raise refuse("game_over")
            if version != room.version:
                raise refuse("stale", field="v", current=room.version, yours=version)
            if state.current_player != seat:
                who = state.current_player
                raise refuse("not_your_turn", seat=None if who is None else who + 1)
            if isinstance(action, int):
                if action not in state.legal_actions():
                    raise refuse("illegal_id", field="action", action=action)
                chosen = action
            else:
                try:
                    chosen = state.parse_action(action)
                except KolodaError as exc:
                    raise wrap("bad_action", exc, field="action") from None
            after = state.copy()
            try:
                after.apply(chosen)
            except IllegalActionError as exc:  # the reason said to the seat that moved: "you must ..."
                raise wrap("illegal", IllegalActionError(addressed(exc.detail)), field="action") from None
            text = state.action_text(chosen)
            committing = time.perf_counter()
            self.store.append_action(room.record.id, room.version + 1, text)  # stored before announced
            commit = time.perf_counter() - committing
            room.state = after
            room.actions.append(text)
            # Still under the lock: every client gets the versions in order, each once.
            await self.broadcast(room, "event")
            bot = room.record.seats[seat].bot is not None
            latency = time.perf_counter() - started
            self.telemetry.acted(
                table=room.record.id,
                seat=seat,
                version=room.version,
                latency=latency,
                commit=commit,
                bot=bot,
                over=after.is_over(),
            )
        self._schedule_bot(room)

    async def broadcast(self, room: Room, kind: str) -> None:
        """Send every client of the room its own view; a client whose connection broke is dropped."""
        for client in list(room.clients):
            try:
                await client.send(room.message(kind, client.seat))
            except Exception:  # a closed socket: the client will resync when it comes back
                room.clients.discard(client)

    def _schedule_bot(self, room: Room) -> None:
        seat = room.state.current_player
        if seat is None or room.record.seats[seat].bot is None:
            return
        if room.bot_task is not None and not room.bot_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # created outside the server loop: the first client's visit starts the bot
            return
        room.bot_task = loop.create_task(self._bot_move(room, seat, room.version))

    async def _bot_move(self, room: Room, seat: int, version: int) -> None:
        await asyncio.sleep(self.bot_delay)  # a pause so that people can follow the bots
        if room.version != version:
            return
        level = room.record.seats[seat].bot
        assert level is not None
        observation = room.game.observe(room.state, seat)
        legal = room.state.legal_actions()
        table = room.record.id

        def fault(what: Fault) -> None:  # recorded with the table, said in the log; the next bot moves
            room.faults.append(what)
            LOG.warning("table %d, seat %d: %s; a fallback bot plays the move", table, seat + 1, what)

        # Same table, seat and move: same bot, so a restarted server makes the same choices.
        seed = (room.record.seed * 1_000_003 + version * 31 + seat) % 2**32
        options = room.game.options_class.from_mapping(room.record.options)
        bot = room.game.guarded_bot(level, seed, options, seconds=self.bot_seconds, on_fault=fault)
        loop = asyncio.get_running_loop()
        try:
            move = loop.run_in_executor(self._executor, bot.choose, observation, legal)
            action = await asyncio.wait_for(move, timeout=2 * self.bot_seconds)
        except TimeoutError:  # stuck for good: the thread is left to finish, its move is not waited for
            fault(Fault(level, "overran", f"no move after {2 * self.bot_seconds:g} s"))
            action = RandomBot(seed).choose(observation, legal)
        room.bot_task = None
        try:
            await self.act(room, seat, version, action)
        except KolodaError:  # the table moved on meanwhile (a legal move is never refused otherwise)
            self._schedule_bot(room)


def _seats(requests: list[SeatRequest] | None, players: int) -> list[SeatRecord]:
    """The new seats, each with its secret token; a seat without a name gets 'Player n' or 'Bot n'."""
    seats = []
    for index, seat in enumerate(requests or [SeatRequest()] * players, start=1):
        bot = seat.kind == "bot"
        name = seat.name or f"{'Bot' if bot else 'Player'} {index}"
        token = secrets.token_urlsafe(TOKEN_BYTES)
        seats.append(SeatRecord(name, token, seat.level if bot else None, bot, open=seat.open and not bot))
    return seats


def _public(seat: SeatRecord) -> dict[str, Any]:
    """What everyone may know of a seat: never its token."""
    return {"name": seat.name, "bot": seat.bot, "taken": seat.taken, "open": seat.open}
