"""The ASGI app: pages, the JSON API and the websocket of play (Starlette).

>>> from koloda.store.sql import SqlStore
>>> app = create_app(SqlStore("sqlite://"))
>>> [route.path for route in app.routes][:5]
['/', '/table/{id}', '/sheet', '/sheet/{id}', '/banki']
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from koloda import registry, verify
from koloda.bots.base import LEVELS
from koloda.errors import KolodaError
from koloda.i18n import LANGS
from koloda.store import Store
from koloda.web import banki, coach, entries, guard, hints, learn, offline, refusals, schemas, sheets
from koloda.web.bus import RedisBus
from koloda.web.clients import Client
from koloda.web.guard import Gate, Guard, Verdict
from koloda.web.hub import Hub, Room
from koloda.web.limits import Limits
from koloda.web.pages import etagged, page_html, path_id, read_body
from koloda.web.schemas import Act, ExportQuery, Hello, NoQuery, Ping, Sync
from koloda.web.tables import fairness, game_record
from koloda.web.telemetry import Telemetry

STATIC = Path(__file__).parent / "static"

M = TypeVar("M", bound=BaseModel)


_id = path_id


def _limits(request: Request) -> Limits:
    limits: Limits = request.app.state.limits
    return limits


async def _body(request: Request, model: type[M], *, options: bool = False) -> M:
    """The request's JSON body as ``model`` (at most Limits.body bytes: the guard counts them); mistakes
    under ``options`` or ``preset`` are bad_options, others bad_request."""
    return schemas.body(await _raw(request), model, _limits(request), keys=_OPTIONS if options else None)


_OPTIONS = {"options": "options_shape", "preset": "options_shape"}


_raw = read_body


def _query(request: Request, model: type[M]) -> M:
    """The request's query string as ``model`` (the API takes none but the export's ``lang``)."""
    return schemas.query(request.query_params.multi_items(), model)


async def _refused(request: Request, exc: Exception) -> Response:
    """Every refusal as JSON: the family's errors, and Starlette's own (no such route or method)."""
    headers = None
    if isinstance(exc, HTTPException):
        headers = exc.headers
        path = refusals.shown(request.url.path, 80)
        if exc.status_code in (404, 405):
            key = "not_found" if exc.status_code == 404 else "method_not_allowed"
            exc = refusals.refuse(key, method=request.method, path=path)
        else:
            status = exc.status_code
            exc = refusals.refuse("bad_request", reason=exc.detail)
            exc.status = status
    assert isinstance(exc, KolodaError)
    request.app.state.telemetry.refused("http", exc.code)
    return JSONResponse(refusals.body(exc), status_code=exc.status, headers=headers)


def _entry(key: str | None, seq: int, again: bool) -> dict[str, Any]:
    """What the answer to an entry sent with a key adds: the key, the line it is, and whether it had come
    before (docs/web.md, "Offline"); nothing without a key."""
    return {} if key is None else {"entry": {"key": key, "seq": seq, "again": again}}


def create_app(
    store: Store,
    *,
    bot_delay: float = 0.6,
    bot_seconds: float = 10.0,
    bot_workers: int | None = None,
    redis: str | None = None,
    limits: Limits | None = None,
    coach_settings: dict[str, Any] | None = None,
) -> Starlette:
    """The web app over ``store``; bots wait ``bot_delay`` seconds before each move, think in
    ``bot_workers`` processes (None: one per core but one; 0: threads of this process), and a bot that
    takes more than ``bot_seconds`` for a move is replaced by its fallback for that move. ``redis`` (a
    URL) makes this process one node of many sharing ``store`` (docs/deploy.md). ``limits``: what one
    client may ask (koloda.web.limits; the defaults when None). ``coach_settings``: the coach's raters'
    settings (how many worlds; their defaults when None: docs/analysis.md)."""
    hub: Hub | None = None
    the_coach: coach.Coach | None = None
    the_hints = hints.Hints(store)
    limits = Limits() if limits is None else limits
    telemetry = Telemetry()

    def the_hub() -> Hub:
        assert hub is not None, "the app is used outside its lifespan"
        return hub

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        nonlocal hub, the_coach
        bus = RedisBus(redis) if redis is not None else None
        hub = Hub(
            store,
            bot_delay=bot_delay,
            bot_seconds=bot_seconds,
            bot_workers=bot_workers,
            bus=bus,
            telemetry=telemetry,
        )
        the_coach = coach.Coach(store, settings=coach_settings)
        app.state.hub = hub
        app.state.coach = the_coach
        app.state.hints = the_hints
        await hub.start()
        try:
            yield
        finally:
            await hub.close()
            the_coach.close()
            the_hints.close()

    def page(name: str, text: str | None = None, media_type: str = "text/html; charset=utf-8") -> Any:
        return etagged((page_html(name) if text is None else text).encode(), media_type)

    manifest = (STATIC / "manifest.webmanifest").read_text(encoding="utf-8")

    async def games(request: Request) -> Response:
        _query(request, NoQuery)
        return JSONResponse(
            {
                game.name: {
                    "title": {lang: game.titles[lang] for lang in LANGS},
                    "players": [min(game.player_counts), max(game.player_counts)],
                    "counts": list(game.player_counts),
                    "presets": game.options_class.preset_names(),
                    "options": [list(row) for row in game.options_class.describe()],
                    "defaults": game.options_class().to_dict(),
                    "schema": game.options_class.schema(),
                    "preset_values": game.options_class.preset_values(),
                }
                for game in registry.games()
            }
            | {"levels": list(LEVELS)}
        )

    async def tables(request: Request) -> Response:
        _query(request, NoQuery)
        if request.method == "GET":
            return JSONResponse(await the_hub().summaries())
        with guard.creation(request.scope, limits):
            room, tokens = await the_hub().create_table(await _body(request, schemas.NewTable, options=True))
        return JSONResponse(
            {
                "id": room.record.id,
                "spectate": f"/table/{room.record.id}",
                "links": [
                    None if seat.bot else f"/table/{room.record.id}?token={token}"
                    for seat, token in zip(room.record.seats, tokens, strict=True)
                ],
            },
            status_code=201,
        )

    async def table(request: Request) -> Response:
        _query(request, NoQuery)
        room = await the_hub().room(_id(request.path_params["id"], "unknown_table"))
        return JSONResponse(room.info())

    async def join(request: Request) -> Response:
        _query(request, NoQuery)
        table_id = _id(request.path_params["id"], "unknown_table")
        body = await _body(request, schemas.Join)
        token = await the_hub().join(table_id, body.seat, body.name)
        return JSONResponse({"token": token, "link": f"/table/{table_id}?token={token}"})

    async def close_table(request: Request) -> Response:
        """Close a person's own game (every other seat a bot or never taken) before its end; its secret is
        revealed."""
        _query(request, NoQuery)
        room = await the_hub().room(_id(request.path_params["id"], "unknown_table"))
        await the_hub().close_table(room, (await _body(request, schemas.CloseTable)).token)
        return JSONResponse(room.info())

    async def table_fairness(request: Request) -> Response:
        """The table's shuffles (docs/web.md, "Fair shuffles"): the commitment from the start; once it is
        over, the secret, the game record and every deal recomputed from the secret (koloda.verify)."""
        _query(request, NoQuery)
        table_id = _id(request.path_params["id"], "unknown_table")
        room = await the_hub().room(table_id)
        facts = fairness(room.record, room.over)
        if not room.over:
            return JSONResponse({**facts, "revealed": False, "record": None, "deals": None, "ok": None})
        record = game_record(room.record, room.actions)
        report = await asyncio.to_thread(verify.check, record)
        return JSONResponse(
            {
                **facts,
                "revealed": True,
                "record": record.to_json(),
                "deals": [deal.to_json() for deal in report.deals],
                "ok": report.ok,
                "failure": report.failure,
            }
        )

    async def table_record(request: Request) -> Response:
        """The table's game record with its secret, once the table is over (for ``koloda verify``)."""
        _query(request, NoQuery)
        table_id = _id(request.path_params["id"], "unknown_table")
        room = await the_hub().room(table_id)
        if not room.over:
            raise refusals.refuse("not_revealed", id=table_id)
        record = game_record(room.record, room.actions)
        shown = await asyncio.to_thread(store.hints, table_id)  # the hints its seats were shown (issue 31)
        if shown:
            record = dataclasses.replace(record, meta={**record.meta, "hints": shown})
        return Response(
            record.dumps() + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="table-{table_id}.json"'},
        )

    async def analysis(request: Request) -> Response:
        """A seat's analysis of a finished table (docs/analysis.md, "In the web app"): 200 with it once
        computed, 202 with the progress until then (the page asks again)."""
        _query(request, NoQuery)
        table_id = _id(request.path_params["id"], "unknown_table")
        body = await _body(request, schemas.Analyse)
        room = await the_hub().room(table_id)
        if body.seat >= room.record.players:
            raise refusals.refuse("bad_seat", id=table_id, last=room.record.players - 1, seat=body.seat)
        if body.token is not None:
            if room.seat_of(body.token) != body.seat:
                raise refusals.refuse("bad_token", field="token", id=table_id)
        elif not coach.public(room.record):
            raise refusals.refuse("analysis_private", id=table_id)
        if not room.state.is_over():
            raise refusals.refuse("game_not_over", id=table_id)
        assert the_coach is not None, "the app is used outside its lifespan"
        answer = the_coach.ask(dataclasses.replace(room.record, actions=tuple(room.actions)), body.seat)
        return JSONResponse(answer, status_code=200 if answer["status"] == "done" else 202)

    async def sheet_list(request: Request) -> Response:
        _query(request, NoQuery)
        if request.method == "POST":
            with guard.creation(request.scope, limits):
                sheet_id = sheets.create_sheet(store, await _body(request, schemas.NewSheet, options=True))
            return JSONResponse(sheets.sheet_json(sheet_id, sheets.load_sheet(store, sheet_id)), 201)
        return JSONResponse(
            [
                {"id": sheet_id, "players": list(game.names), "deals": len(game.book.deals)}
                for sheet_id, game in (
                    (i, sheets.load_sheet(store, i)) for i in reversed(store.sheet_ids()[-50:])
                )
            ]
        )

    async def sheet_options(request: Request) -> Response:
        _query(request, NoQuery)
        return JSONResponse(sheets.options_json())

    async def sheet(request: Request) -> Response:
        _query(request, NoQuery)
        sheet_id = _id(request.path_params["id"], "unknown_sheet")
        action = request.path_params.get("action")
        if action == "deals":
            # The deal line is any JSON value: the score file's reader checks it.
            key = entries.key_of(request.headers.get(entries.HEADER))
            line = schemas.parse_json(await _raw(request), limits)
            game, seq, again = sheets.add_deal(store, sheet_id, line, key)
            return JSONResponse(sheets.sheet_json(sheet_id, game) | _entry(key, seq, again))
        elif action == "undo":
            schemas.no_body(await _raw(request))
            game = sheets.undo_deal(store, sheet_id)
        elif action is None:
            game = sheets.load_sheet(store, sheet_id)
        else:
            raise refusals.refuse("not_found", path=refusals.shown(request.url.path, 80))
        return JSONResponse(sheets.sheet_json(sheet_id, game))

    async def export(request: Request) -> Response:
        lang = _query(request, ExportQuery).lang
        sheet_id = _id(request.path_params["id"], "unknown_sheet")
        fmt = request.path_params["fmt"]
        if fmt not in sheets.FORMATS:
            raise refusals.refuse(
                "bad_format", field="format", format=refusals.shown(fmt), formats=", ".join(sheets.FORMATS)
            )
        text = sheets.export(sheets.load_sheet(store, sheet_id), fmt, "ru" if lang == "ru" else "en")
        return PlainTextResponse(
            text,
            media_type=sheets.FORMATS[fmt] + "; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="thousand-{sheet_id}.{fmt}"'},
        )

    async def banki_list(request: Request) -> Response:
        _query(request, NoQuery)
        if request.method == "POST":
            with guard.creation(request.scope, limits):
                game_id = banki.create(store, await _body(request, schemas.NewBanki, options=True))
            return JSONResponse(banki.answer(game_id, banki.load(store, game_id)), 201)
        return JSONResponse(
            [
                {"id": game_id, "names": store.load_banki(game_id)[0]}
                for game_id in reversed(store.banki_ids()[-50:])
            ]
        )

    async def banki_options(request: Request) -> Response:
        _query(request, NoQuery)
        return JSONResponse(banki.options_json())

    async def banki_game(request: Request) -> Response:
        _query(request, NoQuery)
        game_id = _id(request.path_params["id"], "unknown_game")
        action = request.path_params.get("action")
        if action == "events":
            key = entries.key_of(request.headers.get(entries.HEADER))
            raw = await _raw(request)
            event = schemas.body(raw, schemas.BankiEvent, limits, keys={"event": "event_shape"})
            state, seq, again = banki.add_event(store, game_id, event.event, key)
            return JSONResponse(banki.answer(game_id, state) | _entry(key, seq, again))
        elif action == "undo":
            schemas.no_body(await _raw(request))
            state = banki.undo(store, game_id)
        elif action is None:
            state = banki.load(store, game_id)
        else:
            raise refusals.refuse("not_found", path=refusals.shown(request.url.path, 80))
        return JSONResponse(banki.answer(game_id, state))

    async def play(websocket: WebSocket) -> None:
        await websocket.accept()
        with suppress(WebSocketDisconnect):
            await _play(the_hub(), websocket, Gate(websocket.scope, limits), limits)

    async def table_options(table_id: int) -> tuple[str, dict[str, Any]]:
        room = await the_hub().room(table_id)
        return room.record.game, room.record.options

    async def metrics(request: Request) -> Response:
        _query(request, NoQuery)
        return PlainTextResponse(telemetry.metrics(), media_type="text/plain; version=0.0.4; charset=utf-8")

    async def healthz(request: Request) -> Response:
        _query(request, NoQuery)
        return JSONResponse(
            {"status": "ok", "uptime": round(telemetry.up(), 3), "tables": len(the_hub().rooms)},
            headers={"Cache-Control": "no-store"},
        )

    routes = [
        Route("/", page("index.html")),
        Route("/table/{id}", page("table.html")),
        Route("/sheet", page("sheet.html")),
        Route("/sheet/{id}", page("sheet.html")),
        Route("/banki", page("banki.html")),
        Route("/banki/{id}", page("banki.html")),
        Route(
            "/sw.js",
            page(
                "sw.js",
                offline.service_worker(page_html, learn.shell_pages()),
                "text/javascript; charset=utf-8",
            ),
        ),
        Route("/manifest.webmanifest", page("manifest", manifest, "application/manifest+json")),
        Route("/api/games", games),
        Route("/api/tables", tables, methods=["GET", "POST"]),
        Route("/api/tables/{id}", table),
        Route("/api/tables/{id}/join", join, methods=["POST"]),
        Route("/api/tables/{id}/close", close_table, methods=["POST"]),
        Route("/api/tables/{id}/fairness", table_fairness),
        Route("/api/tables/{id}/record", table_record),
        Route("/api/tables/{id}/analysis", analysis, methods=["POST"]),
        Route("/api/sheets", sheet_list, methods=["GET", "POST"]),
        Route("/api/sheets/options", sheet_options),
        Route("/api/sheets/{id}", sheet),
        Route("/api/sheets/{id}/{action:str}", sheet, methods=["POST"]),
        Route("/api/sheets/{id}/export/{fmt}", export),
        Route("/api/banki", banki_list, methods=["GET", "POST"]),
        Route("/api/banki/options", banki_options),
        Route("/api/banki/{id}", banki_game),
        Route("/api/banki/{id}/{action:str}", banki_game, methods=["POST"]),
        *hints.routes(the_hub, lambda: the_hints),
        *learn.routes(table_options),
        Route("/metrics", metrics),
        Route("/healthz", healthz),
        WebSocketRoute("/ws/{id}", play),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {KolodaError: _refused, HTTPException: _refused}
    middleware = [Middleware(Guard, limits=limits, telemetry=telemetry)]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers, middleware=middleware)
    app.state.limits = limits
    app.state.telemetry = telemetry
    return app


async def _receive(websocket: WebSocket, gate: Gate, limits: Limits) -> Hello | Act | Sync | Ping | None:
    """The next message, checked (a refusal names what is wrong with it); text or binary frames. None: a
    message over the rate, dropped unread (the gate refused the first of them with a frame)."""
    frame = await websocket.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000), frame.get("reason"))
    verdict = gate.admit()
    if verdict is Verdict.CLOSE:
        raise _Closing(gate.refusal())
    if verdict is Verdict.REFUSE:
        raise _Throttled(gate.refusal())
    if verdict is Verdict.DROP:
        return None
    raw = frame.get("text")
    return schemas.message(raw if raw is not None else frame.get("bytes") or b"", limits)


class _Throttled(Exception):
    """The first message over a rate: refused with a frame, and no resync (that is what a flood costs)."""

    def __init__(self, refusal: KolodaError) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


class _Closing(_Throttled):
    """Still sending over the rate after Limits.excess refusals: the socket is closed (4429)."""


async def _play(hub: Hub, websocket: WebSocket, gate: Gate, limits: Limits) -> None:
    """One connection: a hello (token or none, last version seen), then actions and resync requests.
    Every frame to the client goes through its bounded queue (koloda.web.clients)."""
    telemetry: Telemetry = websocket.app.state.telemetry

    async def send(message: dict[str, Any]) -> None:
        await websocket.send_json(message)

    async def close(code: int) -> None:
        await websocket.close(code=code)

    async def refused(exc: KolodaError) -> None:  # before the client's queue exists
        telemetry.refused("ws", exc.code)
        await send(refusals.frame(exc))

    try:
        room = await hub.room(_id(websocket.path_params["id"], "unknown_table"))
        hello = await _receive(websocket, gate, limits)
        if not isinstance(hello, Hello):
            raise refusals.refuse("first_hello")
        client = Client(None, websocket.send_text, close, patch=hello.patch, token=hello.token)
        await hub.attach(room, client)  # the link's seat, under the room's lock
    except (KolodaError, _Throttled) as exc:
        refusal = exc.refusal if isinstance(exc, _Throttled) else exc
        await refused(refusal)
        await websocket.close(code=guard.close_code(refusal))
        return
    seat = client.seat
    try:
        _resync(room, client, hello.v)
        while not client.dropped:
            try:
                message = await _receive(websocket, gate, limits)
                if message is None:
                    telemetry.refused("ws", "rate_limited")
                    continue
                await _handle(hub, room, client, message)
            except _Closing as exc:
                telemetry.refused("ws", exc.refusal.code)
                guard.LOG.warning("closed a websocket of %s: %s", gate.quota.key, exc.refusal)
                await websocket.close(code=guard.close_code(exc.refusal))
                return
            except _Throttled as exc:
                telemetry.refused("ws", exc.refusal.code)
                client.send(refusals.frame(exc.refusal))
            except KolodaError as exc:
                telemetry.refused("ws", exc.code)
                client.send(refusals.frame(exc))
                room.revoke_stale()  # a link another one replaced (on another node, say) sees no more
                if not client.dropped:
                    client.message("sync", room.message(seat))  # the refused client sees the table as it is
    finally:
        room.clients.discard(client)
        await client.stop()


def _resync(room: Room, client: Client, version: int | None) -> None:
    if version == room.version:
        client.send({"type": "uptodate", "v": room.version})
    else:
        client.message("sync", room.message(client.seat))


async def _handle(hub: Hub, room: Room, client: Client, message: Hello | Act | Sync | Ping) -> None:
    if isinstance(message, Act):
        await hub.act(room, client.seat, message.v, message.action, token=client.token)
    elif isinstance(message, Sync):
        _resync(room, client, message.v)
    elif isinstance(message, Ping):
        client.send({"type": "pong", "v": room.version})
    else:
        raise refusals.refuse("hello_again")
