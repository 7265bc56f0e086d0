"""The live tables: the one authority that checks, stores and broadcasts every action.

A :class:`Room` is one table in memory (its state rebuilt by replaying the stored actions); the
:class:`Hub` owns the rooms, the group committer (:mod:`koloda.web.committer`), the bots' worker
processes (:mod:`koloda.web.botpool`) and the bus to the other nodes (:mod:`koloda.web.bus`). Every
message to a client is built for that client from ``observe(state, seat)`` (or the public view), never
from the state itself.

Each accepted action is stored, then applied, then announced; the version of a table is the number of
actions it has accepted, so a client that sends the version it saw is refused when the table moved on.
The store is the judge between nodes: of two actions with the same number only the first is stored; the
other node's room reads what was stored and refuses its client with ``stale`` and a resync.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from koloda import registry, seeds
from koloda.bots.base import Fault, RandomBot
from koloda.errors import ConflictError, IllegalActionError, KolodaError, NotFoundError, RecordError
from koloda.game import GameSpec, GameState
from koloda.i18n import LANGS, addressed
from koloda.store import SeatRecord, Store, TableRecord
from koloda.web import tables
from koloda.web.botpool import BotPool, Table, default_workers
from koloda.web.bus import Bus
from koloda.web.clients import REVOKED, Client
from koloda.web.committer import Committer
from koloda.web.refusals import refuse, wrap
from koloda.web.schemas import NewTable, SeatRequest, game_options
from koloda.web.storecalls import off_loop, unavailable
from koloda.web.tables import all_bots_end
from koloda.web.telemetry import Telemetry, event
from koloda.web.views import public_view, seat_view

LOG = logging.getLogger("koloda.web")
TOKEN_BYTES = 24  # 192 random bits per seat link
# Bots move on a beat of this many seconds (their pause is rounded up to it): the moves of many tables
# then go to the workers in one write, come back in one, and are stored in one group.
BOT_BEAT = 0.02
TICK = 0.05  # the loop's lateness is sampled this often (koloda_loop_lag_seconds)


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
    # the bot's pause: the beat its move is due at (Hub._beats), the seat and the version it moves at
    bot_due: int | None = None
    bot_seat: int = 0
    bot_version: int = 0

    @functools.cached_property
    def follow(self) -> Table:
        """What a bot worker needs to follow the table (koloda.web.botpool)."""
        record = self.record
        return Table(record.id, self.game, record.players, record.options, record.seed)

    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.record.seats]

    @property
    def over(self) -> bool:
        """The match is over, or the table was closed before its end: no action may follow."""
        return self.record.closed is not None or self.state.is_over()

    def seat_of(self, token: str) -> int:
        """The seat whose secret token this is."""
        for seat, record in enumerate(self.record.seats):
            if secrets.compare_digest(record.token.encode(), token.encode("utf-8", "surrogatepass")):
                return seat
        raise refuse("bad_token", field="token", id=self.record.id)

    def revoke_stale(self) -> None:
        """Close the sockets whose link no longer holds their seat (another link took it: join)."""
        for client in list(self.clients):
            if client.seat is not None and client.token != self.record.seats[client.seat].token:
                self.clients.discard(client)
                client.drop(REVOKED)

    def info(self) -> dict[str, Any]:
        """The public facts of the table (koloda.web.tables.info)."""
        return tables.info(self.record, self.over, self.version)

    def message(self, seat: int | None) -> dict[str, Any]:
        """The full message for one seat: the table, its view, the scores (sent as ``sync`` or
        ``event``, or patched: koloda.web.frames)."""
        view = public_view(self.game, self.state) if seat is None else seat_view(self.game, self.state, seat)
        return {
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

    def advance(self, texts: list[str]) -> None:
        """Apply actions another writer stored (their canonical text) after this room's version."""
        state = self.state.copy()
        for text in texts:
            state.apply(state.parse_action(text))
        self.state = state
        self.actions.extend(texts)


class Hub:
    """All live rooms over one store; bots think in worker processes so no table waits for another."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.6,
        bot_seconds: float = 10.0,
        bot_workers: int | None = None,
        bus: Bus | None = None,
        telemetry: Telemetry | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.clock = clock  # a bot's time and a client's stalled send are measured on it (tests: their own)
        self.telemetry = Telemetry() if telemetry is None else telemetry
        self.telemetry.tables.read = lambda: len(self.rooms)
        self.bot_delay = bot_delay
        self.bot_seconds = bot_seconds  # a bot taking longer for a move is replaced by its fallback
        self.rooms: dict[int, Room] = {}
        self.node = secrets.token_hex(6)  # this process, among the nodes on the bus
        self.bus = bus or Bus()
        self.committer = Committer(store)
        self.bots = BotPool(default_workers() if bot_workers is None else bot_workers, clock=clock)
        self._loading: dict[int, asyncio.Future[Room]] = {}
        self._ticker: asyncio.Task[None] | None = None
        self._beats: dict[int, list[Room]] = {}  # the rooms whose bot is due at a beat (its number)

    async def start(self) -> None:
        await self.bus.start(self)
        self._ticker = asyncio.create_task(self._tick())

    async def _tick(self) -> None:
        """Samples the loop's lateness for /metrics (a table waits as long as the loop's busiest spell),
        and once a second drops the clients whose socket has not taken a frame for too long."""
        loop = asyncio.get_running_loop()
        ticks = 0
        while True:
            due = loop.time() + TICK
            await asyncio.sleep(TICK)
            now = loop.time()
            self.telemetry.loop_lag.observe(max(0.0, now - due))
            ticks += 1
            if ticks % round(1 / TICK) == 0:
                self.drop_stalled()

    def drop_stalled(self) -> None:
        """Drop every client whose socket has not taken a frame for too long (by :attr:`clock`)."""
        now = self.clock()
        for room in self.rooms.values():
            for client in [c for c in room.clients if c.stalled(now)]:
                client.drop()

    async def close(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
        for room in self.rooms.values():
            room.bot_due = None
            if room.bot_task is not None:
                room.bot_task.cancel()
        await self.bus.close()
        await self.committer.close()
        await self.bots.close()

    # -- tables ------------------------------------------------------------------------------------

    async def create_table(self, request: NewTable) -> tuple[Room, list[str]]:
        """Create a table from a lobby request; returns the room and every seat's secret token."""
        game = registry.get(request.game)
        seats = _seats(request.seats, request.players)
        options = game_options(game.options_class, request.preset, request.options)
        options = all_bots_end(game, options, all(seat.bot is not None for seat in seats))
        # Deals from a secret nobody can guess; a number of the host's only where every seat is his to
        # give (no seat open to the lobby), and then shown to every seat (Room.fairness).
        if request.seed is not None and any(seat.open for seat in seats):
            raise refuse("seed_not_private", field="seed")
        seed: seeds.Seed = seeds.new_secret() if request.seed is None else request.seed
        try:
            game.new_game(options, players=request.players, seed=seed)
        except KolodaError as exc:
            raise wrap("bad_options", exc, field="options") from None
        create = functools.partial(self.store.create_table, host_seed=request.seed is not None)
        table_id = await self._store(create, game.name, request.players, options.to_dict(), seed, seats)
        room = self._open(await self._store(self.store.load_table, table_id))
        self.rooms[table_id] = room
        event("create", table=table_id, game=game.name, players=request.players, version=0)
        self._schedule_bot(room)
        return room, [seat.token for seat in seats]

    async def room(self, table_id: int) -> Room:
        """The live room of a table, loaded from the store (and replayed) on first use."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        loading = self._loading.get(table_id)
        if loading is not None:  # another request is loading it: the same room for both
            return await asyncio.shield(loading)
        future: asyncio.Future[Room] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            try:
                record = await self._store(self.store.load_table, table_id)
            except NotFoundError:
                raise refuse("unknown_table", id=table_id) from None
            try:
                room = self._open(record)
            except KolodaError as exc:  # a record this koloda cannot replay: say so, change nothing
                raise wrap("bad_record", exc, id=table_id) from None
            self.rooms[table_id] = room
            future.set_result(room)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: the waiters, if any, get it too
            raise
        finally:
            del self._loading[table_id]
        self._schedule_bot(room)
        return room

    def _open(self, record: TableRecord) -> Room:
        game = registry.get(record.game)
        state = game.replay(tables.game_record(record, record.actions))
        return Room(record, game, state, list(record.actions))

    async def _store(self, call: Any, *args: Any) -> Any:
        """A call of the store off the event loop; a database that cannot be reached is a 503."""
        return await off_loop(unavailable, call, *args)

    async def summaries(self) -> list[dict[str, Any]]:
        """The stored tables, newest first, with who sits where (for the lobby)."""
        return list(await self._store(self._summaries))

    def _summaries(self) -> list[dict[str, Any]]:  # on a worker thread
        out = []
        for table_id in reversed(self.store.table_ids()[-50:]):
            room = self.rooms.get(table_id)
            if room is not None:
                out.append(room.info())
                continue
            record = self.store.load_table(table_id)
            out.append(tables.info(record, None, len(record.actions)))  # not loaded: over unknown
        return out

    async def join(self, table_id: int, seat: int, name: str | None = None) -> str:
        """Take a free seat the host opened to the lobby; returns its new token (the seat's link until
        then stops working, so whoever sits holds the only key)."""
        room = await self.room(table_id)
        if not seat < room.record.players:
            raise refuse("bad_seat", field="seat", id=table_id, last=room.record.players - 1, seat=seat)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        async with room.lock:  # two people clicking the same free seat: one gets it, on any node
            await self._change_seat(
                room,
                seat,
                lambda old: replace(old, taken=True, name=name or old.name, token=token),
                refuse_taken=True,
            )
            event("join", table=table_id, seat=seat, version=room.version)
            room.revoke_stale()  # the seat's old link, if anyone had it open, is closed now
            self.broadcast(room, "sync")  # not an action: the version stays
        return token

    async def attach(self, room: Room, client: Client) -> None:
        """A client of the room: its link's seat found under the room's lock (so that a link a join
        replaces meanwhile cannot slip in), the seat no longer free in the lobby once its link is opened."""
        async with room.lock:
            if client.token is not None:
                seat = client.seat = room.seat_of(client.token)
                if not room.record.seats[seat].taken:
                    await self._change_seat(
                        room, seat, lambda old: replace(old, taken=True), refuse_taken=False
                    )
                    event("sit", table=room.record.id, seat=seat, version=room.version)
                if room.record.seats[seat].token != client.token:  # another node's join came first
                    raise refuse("revoked", field="token", id=room.record.id, number=seat + 1)
            room.clients.add(client)

    async def close_table(self, room: Room, token: str) -> None:
        """Close a table before its end, from a seat's link: a person's own game, every other seat a bot or
        never taken (a table of people ends with its match). Its secret is revealed (Room.fairness)."""
        async with room.lock:
            seat = room.seat_of(token)
            if room.over:
                return
            people = [s for n, s in enumerate(room.record.seats) if n != seat and s.bot is None and s.taken]
            if people:
                raise refuse("close_with_people", id=room.record.id, name=people[0].name)
            when = await self._store(self.store.close_table, room.record.id)
            room.record = replace(room.record, closed=when)
            room.bot_due = None
            event("close", table=room.record.id, seat=seat, version=room.version)
            self.broadcast(room, "sync")
            await self.bus.publish({"table": room.record.id, "seats": True})
        await self.bus.release(room.record.id)

    async def _change_seat(self, room: Room, seat: int, change: Any, *, refuse_taken: bool) -> SeatRecord:
        """Write one seat's change unless another writer changed the seats first (then read them again
        and judge once more); returns the seat as it was before."""
        for _ in range(5):
            before = room.record.seats
            record = before[seat]
            if refuse_taken and (record.bot is not None or record.taken):
                raise refuse("seat_taken", field="seat", number=seat + 1, id=room.record.id)
            if refuse_taken and not record.open:
                raise refuse("seat_by_link", field="seat", number=seat + 1, id=room.record.id)
            if not refuse_taken and record.taken:
                return record
            seats = list(before)
            seats[seat] = change(record)
            try:
                await self._store(self.store.set_seats, room.record.id, seats, before)
            except ConflictError:
                fresh = await self._store(self.store.load_table, room.record.id)
                room.record = replace(room.record, seats=fresh.seats)
                continue
            room.record = replace(room.record, seats=tuple(seats))
            await self.bus.publish({"table": room.record.id, "seats": True})
            return record
        raise refuse("busy_table", id=room.record.id)

    # -- play --------------------------------------------------------------------------------------

    async def act(
        self, room: Room, seat: int | None, version: int, action: int | str, *, token: str | None = None
    ) -> None:
        """Check, store, apply and announce one action; a refusal raises and changes nothing. ``token``: the
        link a person's action came with, checked again here under the lock (a join may have given the seat
        a new link while this action waited); a bot's action has none (the hub moves its seat)."""
        started = time.perf_counter()
        async with room.lock:
            state = room.state
            if seat is None:
                raise refuse("spectator")
            if token is not None and token != room.record.seats[seat].token:
                raise refuse("revoked", field="token", id=room.record.id, number=seat + 1)
            if room.record.closed is not None:
                raise refuse("table_closed", id=room.record.id)
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
            if chosen not in state.legal_actions():  # the engine says why, on a copy: "you must ..."
                try:
                    state.copy().apply(chosen)
                except IllegalActionError as exc:
                    raise wrap("illegal", IllegalActionError(addressed(exc.detail)), field="action") from None
                raise refuse("illegal_id", field="action", action=chosen)  # pragma: no cover - engines agree
            if not self.bus.healthy:  # the other nodes would not hear of it
                raise refuse("bus_unavailable")
            text = state.action_text(chosen)
            bot = room.record.seats[seat].bot is not None
            committing = time.perf_counter()
            try:  # stored before announced, in a group with other tables' actions, off the loop
                await self.committer.append(room.record.id, room.version + 1, text, person=not bot)
            except ConflictError:  # another node stored this number first: take what it stored
                await self._refresh(room)
                raise refuse("stale", field="v", current=room.version, yours=version) from None
            except RecordError as exc:
                raise wrap("store_unavailable", exc) from None
            commit = time.perf_counter() - committing
            state.apply(chosen)  # a legal action, stored: applied in place (no copy of the state a move)
            room.actions.append(text)
            # Still under the lock: every client gets the versions in order, each once.
            self.broadcast(room, "event")
            await self.bus.publish({"table": room.record.id, "v": room.version, "action": text})
            self.telemetry.acted(
                table=room.record.id,
                seat=seat,
                version=room.version,
                latency=time.perf_counter() - started,
                commit=commit,
                bot=bot,
                over=state.is_over(),
            )
        self._after_move(room)

    def broadcast(self, room: Room, kind: str) -> None:
        """Queue every client of the room its own view (a client too slow to take it is dropped)."""
        messages: dict[int | None, dict[str, Any]] = {}
        cache: dict[Any, str] = {}
        for client in list(room.clients):
            if client.dropped:
                room.clients.discard(client)
                continue
            message = messages.get(client.seat)
            if message is None:
                message = messages[client.seat] = room.message(client.seat)
            client.message(kind, message, cache)

    async def _refresh(self, room: Room) -> None:
        """Read what other writers stored after this room's version, apply it and announce it (under the
        room's lock)."""
        try:
            texts = await self._store(self.store.actions_since, room.record.id, room.version)
        except KolodaError:  # the database is away: the next action or resync tries again
            return
        if texts:
            room.advance(texts)
            self.broadcast(room, "event")

    # -- the other nodes (koloda.web.bus) -----------------------------------------------------------

    def follows(self, table_id: int) -> bool:
        return table_id in self.rooms

    async def on_event(self, event: dict[str, Any]) -> None:
        """Another node committed an action (or changed seats) of a table: bring the room up to it."""
        room = self.rooms.get(int(event.get("table", -1)))
        if room is None:
            return
        async with room.lock:
            if event.get("seats"):
                try:
                    fresh = await self._store(self.store.load_table, room.record.id)
                except KolodaError:
                    return
                room.record = replace(room.record, seats=fresh.seats, closed=fresh.closed)
                room.revoke_stale()
                self.broadcast(room, "sync")
                return
            version = int(event.get("v", 0))
            if version <= room.version:
                return
            if version == room.version + 1:
                room.advance([str(event["action"])])
                self.broadcast(room, "event")
            else:  # missed some: the store has them all
                await self._refresh(room)
        self._after_move(room)

    async def on_resync(self) -> None:
        """The bus missed messages: read every room again."""
        for room in list(self.rooms.values()):
            async with room.lock:
                await self._refresh(room)
                try:
                    fresh = await self._store(self.store.load_table, room.record.id)
                except KolodaError:
                    continue
                if fresh.seats != room.record.seats or fresh.closed != room.record.closed:
                    room.record = replace(room.record, seats=fresh.seats, closed=fresh.closed)
                    room.revoke_stale()
                    self.broadcast(room, "sync")
            self._after_move(room)

    async def on_orphans(self, tables: list[int]) -> None:
        """Tables whose bots no node drives (their node died): load them here and drive them."""
        for table_id in tables:
            try:
                room = await self.room(table_id)
            except KolodaError:
                continue
            async with room.lock:
                await self._refresh(room)
            self._after_move(room)

    # -- bots --------------------------------------------------------------------------------------

    def _after_move(self, room: Room) -> None:
        if room.over:
            asyncio.get_running_loop().create_task(self.bus.release(room.record.id))
        else:
            self._schedule_bot(room)

    def _schedule_bot(self, room: Room) -> None:
        seat = room.state.current_player
        if seat is None or room.record.seats[seat].bot is None or room.record.closed is not None:
            return
        if room.bot_due is not None or (room.bot_task is not None and not room.bot_task.done()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # created outside the server loop: the first client's visit starts the bot
            return
        # A pause so that people can follow the bots, ending on a beat. The rooms due at a beat wait in
        # one list for one timer, and a move's task starts after the pause: a task asleep, or a timer
        # (with its context), at each of 1,000 tables outlived the collector's young generations.
        if self.bot_delay <= 0:  # no pause (tests): the move at once
            room.bot_task = loop.create_task(self._bot_move(room, seat, room.version))
            return
        beat = _beat_after(loop.time(), self.bot_delay)
        room.bot_due, room.bot_seat, room.bot_version = beat, seat, room.version
        due = self._beats.get(beat)
        if due is None:
            due = self._beats[beat] = []
            loop.call_at(beat * BOT_BEAT, self._beat, beat)
        due.append(room)

    def _beat(self, beat: int) -> None:
        """The bots due at this beat start their moves."""
        loop = asyncio.get_running_loop()
        for room in self._beats.pop(beat, ()):
            if room.bot_due == beat:
                room.bot_due = None
                room.bot_task = loop.create_task(self._bot_move(room, room.bot_seat, room.bot_version))

    async def _bot_move(self, room: Room, seat: int, version: int) -> None:
        if room.version != version or not await self.bus.hold(room.record.id):
            room.bot_task = None  # moved on, or another node drives this table's bots
            return
        level = room.record.seats[seat].bot
        assert level is not None
        table = room.record.id

        def fault(what: Fault) -> None:  # recorded with the table, said in the log; the next bot moves
            room.faults.append(what)
            LOG.warning("table %d, seat %d: %s; a fallback bot plays the move", table, seat + 1, what)

        def fallback() -> int:
            return RandomBot(seed).choose(room.game.observe(room.state, seat), room.state.legal_actions())

        # Same table, seat and move: same bot, so a restarted server makes the same choices.
        seed = seeds.derive(
            room.record.seed,
            f"bot:{version}:{seat}",
            lambda number: (number * 1_000_003 + version * 31 + seat) % 2**32,
        )
        try:
            action, faults = await self.bots.move(
                room.follow, room.actions, seat, level, seed, self.bot_seconds
            )
        except TimeoutError:  # stuck for good: its worker is left to finish, its move is not waited for
            faults = [Fault(level, "overran", f"no move after {2 * self.bot_seconds:g} s")]
            action = fallback()
        except Exception as exc:  # the worker died or cannot be reached: a random move, said
            faults = [Fault(level, "raised", f"{type(exc).__name__}: {exc}")]
            action = fallback()
        for what in faults:
            fault(what)
        room.bot_task = None
        try:
            await self.act(room, seat, version, action)
        except KolodaError:  # the table moved on meanwhile, or the store is away: try again later
            await asyncio.sleep(self.bot_delay if room.version != version else 1.0)
            self._schedule_bot(room)


def _beat_after(now: float, delay: float) -> int:
    """The first beat (a multiple of :data:`BOT_BEAT` of the loop's clock, by its number) at least
    ``delay`` after ``now``."""
    return math.ceil((now + delay) / BOT_BEAT)


def _seats(requests: list[SeatRequest] | None, players: int) -> list[SeatRecord]:
    """The new seats, each with its secret token; a seat without a name gets 'Player n' or 'Bot n'."""
    seats = []
    for index, seat in enumerate(requests or [SeatRequest()] * players, start=1):
        bot = seat.kind == "bot"
        name = seat.name or f"{'Bot' if bot else 'Player'} {index}"
        token = secrets.token_urlsafe(TOKEN_BYTES)
        seats.append(SeatRecord(name, token, seat.level if bot else None, bot, open=seat.open and not bot))
    return seats
