"""The ASGI app: pages, the JSON API and the websocket of play (Starlette).

>>> from koloda.store.sql import SqlStore
>>> app = create_app(SqlStore("sqlite://"))
>>> [route.path for route in app.routes][:5]
['/', '/table/{id}', '/sheet', '/sheet/{id}', '/banki']
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from koloda import registry, verify
from koloda.bots.base import LEVELS
from koloda.errors import KolodaError, StoreError
from koloda.i18n import LANGS
from koloda.store import Store
from koloda.web import (
    banki,
    coach,
    editkeys,
    entries,
    guard,
    hints,
    learn,
    offline,
    refusals,
    schemas,
    sheets,
    storecalls,
)
from koloda.web.bus import RedisBus
from koloda.web.guard import Gate, Guard
from koloda.web.hub import Hub
from koloda.web.limits import Limits
from koloda.web.pages import etagged, page_html, read_body
from koloda.web.play import play_socket
from koloda.web.refusals import path_id
from koloda.web.schemas import ExportQuery, NoQuery, PageQuery
from koloda.web.storecalls import off_loop
from koloda.web.tables import fairness, game_record
from koloda.web.telemetry import Telemetry

STATIC = Path(__file__).parent / "static"
LOG = logging.getLogger("koloda.web")
M = TypeVar("M", bound=BaseModel)


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
    if isinstance(exc, StoreError):  # the database cannot be used now: 503, try again
        exc = storecalls.refused(exc)
    assert isinstance(exc, KolodaError)
    request.app.state.telemetry.refused("http", exc.code)
    return JSONResponse(refusals.body(exc), status_code=exc.status, headers=headers)


async def _left(request: Request, exc: Exception) -> Response:
    """The client went away before its body arrived: nobody is there to answer; one line in the log."""
    LOG.info("a client left in mid-body: %s %s", request.method, refusals.shown(request.url.path, 80))
    return Response(status_code=400)


#: The headers of an answer that holds a secret (a seat's token, an edit key): no cache may keep it.
NO_STORE = {"Cache-Control": "no-store"}


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
    clock: Callable[[], float] = time.monotonic,
) -> Starlette:
    """The web app over ``store``; bots wait ``bot_delay`` seconds before each move, think in
    ``bot_workers`` processes (None: one per core but one; 0: threads of this process), and a bot that
    takes more than ``bot_seconds`` for a move is replaced by its fallback for that move. ``redis`` (a
    URL) makes this process one node of many sharing ``store`` (docs/deploy.md). ``limits``: what one
    client may ask (koloda.web.limits; the defaults when None). ``coach_settings``: the coach's raters'
    settings (how many worlds; their defaults when None: docs/analysis.md). ``clock``: what every time
    limit is measured on (rates, a send outstanding, a bot's time, the health probe; tests pass their
    own)."""
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
            clock=clock,
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

    async def list_tables(request: Request) -> Response:
        _query(request, NoQuery)
        return JSONResponse(await the_hub().summaries())

    async def new_table(request: Request) -> Response:
        _query(request, NoQuery)
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
            headers=NO_STORE,
        )

    async def table(request: Request) -> Response:
        _query(request, NoQuery)
        room = await the_hub().room(path_id(request.path_params["id"], "unknown_table"))
        return JSONResponse(room.info())

    async def join(request: Request) -> Response:
        _query(request, NoQuery)
        table_id = path_id(request.path_params["id"], "unknown_table")
        body = await _body(request, schemas.Join)
        token = await the_hub().join(table_id, body.seat, body.name)
        return JSONResponse({"token": token, "link": f"/table/{table_id}?token={token}"}, headers=NO_STORE)

    async def close_table(request: Request) -> Response:
        """Close a person's own game (every other seat a bot or never taken) before its end; its secret is
        revealed."""
        _query(request, NoQuery)
        room = await the_hub().room(path_id(request.path_params["id"], "unknown_table"))
        await the_hub().close_table(room, (await _body(request, schemas.CloseTable)).token)
        return JSONResponse(room.info())

    async def table_fairness(request: Request) -> Response:
        """The table's shuffles (docs/web.md, "Fair shuffles"): the commitment from the start; once it is
        over, the secret, the game record and every deal recomputed from the secret (koloda.verify)."""
        _query(request, NoQuery)
        table_id = path_id(request.path_params["id"], "unknown_table")
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
        table_id = path_id(request.path_params["id"], "unknown_table")
        room = await the_hub().room(table_id)
        if not room.over:
            raise refusals.refuse("not_revealed", id=table_id)
        record = game_record(room.record, room.actions)
        shown = await off_loop(store.hints, table_id)  # the hints its seats were shown (issue 31)
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
        table_id = path_id(request.path_params["id"], "unknown_table")
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
        answer = await the_coach.ask(dataclasses.replace(room.record, actions=tuple(room.actions)), body.seat)
        return JSONResponse(answer, status_code=200 if answer["status"] == "done" else 202)

    # The score sheets and banki games call the store on a worker thread (off_loop); a database that
    # cannot be used is 503 there as at the tables (koloda.web.storecalls, _refused).
    async def list_sheets(request: Request) -> Response:
        asked = _query(request, PageQuery)
        return JSONResponse(await off_loop(sheets.page, store, asked.below, asked.size))

    async def new_sheet(request: Request) -> Response:
        _query(request, NoQuery)
        with guard.creation(request.scope, limits):
            made = await _body(request, schemas.NewSheet, options=True)
            sheet_id, key = await off_loop(sheets.create_sheet, store, made)
        game = await off_loop(sheets.load_sheet, store, sheet_id)
        secret = {"key": key, "link": editkeys.link("sheet", sheet_id, key)}
        return JSONResponse(sheets.sheet_json(sheet_id, game) | secret, status_code=201, headers=NO_STORE)

    async def sheet_options(request: Request) -> Response:
        _query(request, NoQuery)
        return JSONResponse(sheets.options_json())

    async def sheet(request: Request) -> Response:
        _query(request, NoQuery)
        sheet_id = path_id(request.path_params["id"], "unknown_sheet")
        game = await off_loop(sheets.load_sheet, store, sheet_id)
        return JSONResponse(sheets.sheet_json(sheet_id, game))

    async def sheet_deal(request: Request) -> Response:
        _query(request, NoQuery)
        sheet_id = path_id(request.path_params["id"], "unknown_sheet")
        key = entries.key_of(request.headers.get(entries.HEADER))
        # The deal line is any JSON value: the score file's reader checks it.
        line = schemas.parse_json(await _raw(request), limits)
        edit = request.headers.get(editkeys.HEADER)
        game, seq, again = await off_loop(sheets.add_deal, store, sheet_id, line, edit, key)
        return JSONResponse(sheets.sheet_json(sheet_id, game) | _entry(key, seq, again))

    async def sheet_undo(request: Request) -> Response:
        _query(request, NoQuery)
        sheet_id = path_id(request.path_params["id"], "unknown_sheet")
        schemas.no_body(await _raw(request))
        game = await off_loop(sheets.undo_deal, store, sheet_id, request.headers.get(editkeys.HEADER))
        return JSONResponse(sheets.sheet_json(sheet_id, game))

    async def export(request: Request) -> Response:
        lang = _query(request, ExportQuery).lang
        sheet_id = path_id(request.path_params["id"], "unknown_sheet")
        fmt = request.path_params["fmt"]
        if fmt not in sheets.FORMATS:
            raise refusals.refuse(
                "bad_format", field="format", format=refusals.shown(fmt), formats=", ".join(sheets.FORMATS)
            )
        game = await off_loop(sheets.load_sheet, store, sheet_id)
        text = await off_loop(sheets.export, game, fmt, "ru" if lang == "ru" else "en")
        return PlainTextResponse(
            text,
            media_type=sheets.FORMATS[fmt] + "; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="thousand-{sheet_id}.{fmt}"'},
        )

    async def list_banki(request: Request) -> Response:
        asked = _query(request, PageQuery)
        return JSONResponse(await off_loop(banki.page, store, asked.below, asked.size))

    async def new_banki(request: Request) -> Response:
        _query(request, NoQuery)
        with guard.creation(request.scope, limits):
            made = await _body(request, schemas.NewBanki, options=True)
            game_id, key = await off_loop(banki.create, store, made)
        state = await off_loop(banki.load, store, game_id)
        secret = {"key": key, "link": editkeys.link("banki", game_id, key)}
        return JSONResponse(banki.answer(game_id, state) | secret, status_code=201, headers=NO_STORE)

    async def banki_options(request: Request) -> Response:
        _query(request, NoQuery)
        return JSONResponse(banki.options_json())

    async def banki_game(request: Request) -> Response:
        _query(request, NoQuery)
        game_id = path_id(request.path_params["id"], "unknown_game")
        return JSONResponse(await off_loop(_banki_json, game_id))

    def _banki_json(game_id: int) -> dict[str, Any]:  # on a worker thread: replaying and describing the game
        return banki.answer(game_id, banki.load(store, game_id))

    async def banki_event(request: Request) -> Response:
        _query(request, NoQuery)
        game_id = path_id(request.path_params["id"], "unknown_game")
        key = entries.key_of(request.headers.get(entries.HEADER))
        raw = await _raw(request)
        event = schemas.body(raw, schemas.BankiEvent, limits, keys={"event": "event_shape"})
        edit = request.headers.get(editkeys.HEADER)
        state, seq, again = await off_loop(banki.add_event, store, game_id, event.event, edit, key)
        return JSONResponse(banki.answer(game_id, state) | _entry(key, seq, again))

    async def banki_undo(request: Request) -> Response:
        _query(request, NoQuery)
        game_id = path_id(request.path_params["id"], "unknown_game")
        schemas.no_body(await _raw(request))
        state = await off_loop(banki.undo, store, game_id, request.headers.get(editkeys.HEADER))
        return JSONResponse(banki.answer(game_id, state))

    async def play(websocket: WebSocket) -> None:
        await websocket.accept()
        with suppress(WebSocketDisconnect):
            await play_socket(the_hub(), websocket, Gate(websocket.scope, limits, clock), limits)

    async def table_options(table_id: int) -> tuple[str, dict[str, Any]]:
        room = await the_hub().room(table_id)
        return room.record.game, room.record.options

    async def metrics(request: Request) -> Response:
        _query(request, NoQuery)
        return PlainTextResponse(telemetry.metrics(), media_type="text/plain; version=0.0.4; charset=utf-8")

    probe = storecalls.Probe(store, clock=clock)

    async def healthz(request: Request) -> Response:
        """200 while the server serves and its database takes a write; else 503 (a proxy or a monitor
        takes the node out), the reason in the log."""
        _query(request, NoQuery)
        healthy = await probe.healthy()
        return JSONResponse(
            {
                "status": "ok" if healthy else "unavailable",
                "store": "ok" if healthy else "cannot write",
                "uptime": round(telemetry.up(), 3),
                "tables": len(the_hub().rooms),
            },
            status_code=200 if healthy else 503,
            headers=NO_STORE,
        )

    # Every route names its methods (GET takes HEAD too, which answers as GET does without the body): a
    # handler is never reached by a method it does not serve.
    get = ["GET"]
    post = ["POST"]
    routes = [
        Route("/", page("index.html"), methods=get),
        Route("/table/{id}", page("table.html"), methods=get),
        Route("/sheet", page("sheet.html"), methods=get),
        Route("/sheet/{id}", page("sheet.html"), methods=get),
        Route("/banki", page("banki.html"), methods=get),
        Route("/banki/{id}", page("banki.html"), methods=get),
        Route(
            "/sw.js",
            page(
                "sw.js",
                offline.service_worker(page_html, learn.shell_pages()),
                "text/javascript; charset=utf-8",
            ),
            methods=get,
        ),
        Route("/manifest.webmanifest", page("manifest", manifest, "application/manifest+json"), methods=get),
        Route("/api/games", games, methods=get),
        Route("/api/tables", list_tables, methods=get),
        Route("/api/tables", new_table, methods=post),
        Route("/api/tables/{id}", table, methods=get),
        Route("/api/tables/{id}/join", join, methods=post),
        Route("/api/tables/{id}/close", close_table, methods=post),
        Route("/api/tables/{id}/fairness", table_fairness, methods=get),
        Route("/api/tables/{id}/record", table_record, methods=get),
        Route("/api/tables/{id}/analysis", analysis, methods=post),
        Route("/api/sheets", list_sheets, methods=get),
        Route("/api/sheets", new_sheet, methods=post),
        Route("/api/sheets/options", sheet_options, methods=get),
        Route("/api/sheets/{id}", sheet, methods=get),
        Route("/api/sheets/{id}/deals", sheet_deal, methods=post),
        Route("/api/sheets/{id}/undo", sheet_undo, methods=post),
        Route("/api/sheets/{id}/export/{fmt}", export, methods=get),
        Route("/api/banki", list_banki, methods=get),
        Route("/api/banki", new_banki, methods=post),
        Route("/api/banki/options", banki_options, methods=get),
        Route("/api/banki/{id}", banki_game, methods=get),
        Route("/api/banki/{id}/events", banki_event, methods=post),
        Route("/api/banki/{id}/undo", banki_undo, methods=post),
        *hints.routes(the_hub, lambda: the_hints),
        *learn.routes(table_options),
        Route("/metrics", metrics, methods=get),
        Route("/healthz", healthz, methods=get),
        WebSocketRoute("/ws/{id}", play),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {KolodaError: _refused, HTTPException: _refused, ClientDisconnect: _left}
    middleware = [Middleware(Guard, limits=limits, telemetry=telemetry, clock=clock)]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers, middleware=middleware)
    app.state.limits = limits
    app.state.telemetry = telemetry
    return app
