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
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from koloda import registry
from koloda.bots.base import LEVELS, Fault, RandomBot
from koloda.errors import IllegalActionError, KolodaError, OptionsError
from koloda.game import GameRecord, GameSpec, GameState
from koloda.store import SeatRecord, Store, TableRecord
from koloda.web.views import public_view, seat_view

LOG = logging.getLogger("koloda.web")
TOKEN_BYTES = 24  # 192 random bits per seat link
MAX_NAME = 40


class WebError(KolodaError):
    """A refused request or message; ``code`` names the reason for programs, the message for people."""

    def __init__(self, code: str, message: str, status: int = 400, ru: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.ru = ru  # the Russian message, where the refusing code has one

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "error", "code": self.code, "message": str(self)}
        if self.ru is not None:
            data["message_ru"] = self.ru
        return data


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

    def seat_of(self, token: object) -> int:
        """The seat whose secret token this is."""
        if isinstance(token, str):
            for seat, record in enumerate(self.record.seats):
                if secrets.compare_digest(record.token, token):
                    return seat
        raise WebError("bad_token", f"that link is not a seat of table {self.record.id}", 403)

    def info(self) -> dict[str, Any]:
        """The public facts of the table: game, players, options, who sits where, whether it is over."""
        return {
            "id": self.record.id,
            "game": self.game.name,
            "players": self.record.players,
            "options": self.record.options,
            "seats": [
                {"name": seat.name, "bot": seat.bot, "taken": seat.taken} for seat in self.record.seats
            ],
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
        self, store: Store, *, bot_delay: float = 0.6, bot_threads: int = 2, bot_seconds: float = 10.0
    ) -> None:
        self.store = store
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

    def create_table(self, request: Any) -> tuple[Room, list[str]]:
        """Create a table from a lobby request; returns the room and every seat's secret token."""
        if not isinstance(request, Mapping):
            raise WebError("bad_request", "a new table must be a JSON object")
        known = {"game", "players", "preset", "options", "seats", "seed"}
        unknown = sorted(set(request) - known)
        if unknown:
            raise WebError(
                "bad_request", f"unknown key {unknown[0]!r}; known keys: {', '.join(sorted(known))}"
            )
        game = _checked(registry.get, request.get("game"))
        players = request.get("players")
        if type(players) is not int or players not in game.player_counts:
            raise WebError(
                "bad_request", f"players must be {game.counts_text} for {game.name}, not {players!r}"
            )
        preset = request.get("preset", "default")
        options_map = request.get("options", {})
        if not isinstance(options_map, Mapping):
            raise WebError("bad_options", f"options must be a JSON object, not {options_map!r}")
        try:
            base = game.options_class.preset(preset) if isinstance(preset, str) else None
            if base is None:
                raise OptionsError(f"preset must be a name, not {preset!r}")
            options = base.replace(**options_map)
        except KolodaError as exc:
            raise WebError("bad_options", str(exc)) from None
        seed = request.get("seed")
        if seed is None:
            seed = secrets.randbits(31)
        elif type(seed) is not int or not 0 <= seed < 2**62:
            raise WebError("bad_request", f"seed must be a non-negative integer, not {seed!r}")
        seats = _seats(request.get("seats"), players)
        try:
            game.new_game(options, players=players, seed=seed)
        except KolodaError as exc:
            raise WebError("bad_options", str(exc)) from None
        table_id = self.store.create_table(game.name, players, options.to_dict(), seed, seats)
        room = self._open(self.store.load_table(table_id))
        self.rooms[table_id] = room
        self._schedule_bot(room)
        return room, [seat.token for seat in seats]

    async def room(self, table_id: object) -> Room:
        """The live room of a table, loaded from the store (and replayed) on first use."""
        if type(table_id) is not int:
            raise WebError("unknown_table", f"no table {table_id!r}", 404)
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        async with self._loading:
            room = self.rooms.get(table_id)
            if room is None:
                try:
                    record = self.store.load_table(table_id)
                except KolodaError:
                    raise WebError("unknown_table", f"no table {table_id}", 404) from None
                try:
                    room = self._open(record)
                except KolodaError as exc:  # a record this koloda cannot replay: say so, change nothing
                    raise WebError("bad_record", f"table {table_id} does not replay: {exc}", 500) from None
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
                    "seats": [{"name": s.name, "bot": s.bot, "taken": s.taken} for s in record.seats],
                    "over": None,  # not loaded: unknown until someone opens it
                    "version": len(record.actions),
                    "created": record.created,
                }
            )
        return out

    async def join(self, table_id: object, seat: object, name: object = None) -> str:
        """Take a free human seat from the lobby; returns its token."""
        room = await self.room(table_id)
        if type(seat) is not int or not 0 <= seat < room.record.players:
            raise WebError("bad_seat", f"no seat {seat!r} at table {room.record.id}")
        async with room.lock:  # two people clicking the same free seat: one gets it
            record = room.record.seats[seat]
            if record.bot is not None or record.taken:
                raise WebError("seat_taken", f"seat {seat + 1} of table {room.record.id} is not free", 409)
            self._set_seat(room, seat, replace(record, taken=True, name=_name(name, record.name)))
            await self.broadcast(room, "sync")  # not an action: the version stays
        return record.token

    def take(self, room: Room, seat: int) -> None:
        """A seat's link was opened: the seat is no longer free in the lobby."""
        if not room.record.seats[seat].taken:
            self._set_seat(room, seat, replace(room.record.seats[seat], taken=True))

    def _set_seat(self, room: Room, seat: int, new: SeatRecord) -> None:
        seats = list(room.record.seats)
        seats[seat] = new
        self.store.set_seats(room.record.id, seats)
        room.record = replace(room.record, seats=tuple(seats))

    # -- play --------------------------------------------------------------------------------------

    async def act(self, room: Room, seat: int | None, version: object, action: object) -> None:
        """Check, store, apply and announce one action; a refusal raises WebError and changes nothing."""
        async with room.lock:
            state = room.state
            if seat is None:
                raise WebError("spectator", "spectators watch; only a seat's link can play")
            if state.is_over():
                raise WebError("game_over", "the game is over; no action may follow")
            if type(version) is not int:
                raise WebError(
                    "bad_message", f"an action needs the version 'v' it was chosen at, not {version!r}"
                )
            if version != room.version:
                raise WebError(
                    "stale",
                    f"the table has moved on: version {room.version}, yours {version}; here it is now",
                )
            if state.current_player != seat:
                who = state.current_player
                raise WebError(
                    "not_your_turn", f"it is not your turn: seat {None if who is None else who + 1} moves"
                )
            if type(action) is int:
                if action not in state.legal_actions():
                    raise WebError("illegal", f"action {action} is not legal now")
                chosen = action
            elif isinstance(action, str):
                chosen = _checked(state.parse_action, action, code="bad_action")
            else:
                raise WebError("bad_message", f"an action is an id or notation text, not {action!r}")
            after = state.copy()
            try:
                after.apply(chosen)
            except IllegalActionError as exc:
                raise WebError("illegal", str(exc)) from None
            text = state.action_text(chosen)
            self.store.append_action(room.record.id, room.version + 1, text)  # stored before announced
            room.state = after
            room.actions.append(text)
            # Still under the lock: every client gets the versions in order, each once.
            await self.broadcast(room, "event")
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
        except WebError:  # the table moved on meanwhile (a legal move is never refused otherwise)
            self._schedule_bot(room)


def _checked(func: Callable[..., Any], *args: Any, code: str = "bad_request") -> Any:
    try:
        return func(*args)
    except KolodaError as exc:
        raise WebError(code, str(exc)) from None


def _name(value: object, default: str) -> str:
    if value is None:
        return default
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > MAX_NAME:
        raise WebError("bad_request", f"a name must be 1-{MAX_NAME} characters, not {value!r}")
    return value.strip()


def _seats(value: object, players: int) -> list[SeatRecord]:
    if value is None:
        value = [{"kind": "human"}] * players
    if not isinstance(value, list) or len(value) != players:
        raise WebError("bad_request", f"seats must be a list of {players} seats, not {value!r}")
    seats = []
    for index, item in enumerate(value):
        if not isinstance(item, Mapping) or set(item) - {"kind", "level", "name"}:
            raise WebError(
                "bad_request",
                f'seat {index + 1} must be {{"kind": "human"|"bot", "level", "name"}}, not {item!r}',
            )
        kind = item.get("kind", "human")
        level = item.get("level", "medium")
        if kind == "bot":
            if level not in LEVELS:
                raise WebError(
                    "bad_request",
                    f"seat {index + 1}: unknown bot level {level!r}; levels: {', '.join(LEVELS)}",
                )
            default = f"Bot {index + 1}"
        elif kind == "human":
            level = None
            default = f"Player {index + 1}"
        else:
            raise WebError("bad_request", f"seat {index + 1}: kind must be 'human' or 'bot', not {kind!r}")
        name = _name(item.get("name"), default)
        seats.append(SeatRecord(name, secrets.token_urlsafe(TOKEN_BYTES), level, kind == "bot"))
    return seats
