"""The ASGI app: pages, the JSON API and the websocket of play (Starlette).

>>> from koloda.store.sql import SqlStore
>>> app = create_app(SqlStore("sqlite://"))
>>> [route.path for route in app.routes][:5]
['/', '/table/{id}', '/sheet', '/sheet/{id}', '/banki']
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from koloda import registry
from koloda.bots.base import LEVELS
from koloda.i18n import LANGS
from koloda.store import Store
from koloda.web import banki, sheets
from koloda.web.hub import Client, Hub, Room, WebError

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096  # bytes: no legal message comes near it


def _error(exc: WebError) -> JSONResponse:
    return JSONResponse(
        {"error": exc.code, "message": str(exc), "message_ru": exc.ru}, status_code=exc.status
    )


async def _body(request: Request) -> Any:
    try:
        return json.loads(await request.body())
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise WebError("bad_json", "the request body is not valid JSON") from None


def _int(text: str, what: str) -> int:
    if not text.isdigit():
        raise WebError(f"unknown_{what}", f"no {what} {text!r}", 404)
    return int(text)


def create_app(store: Store, *, bot_delay: float = 0.6) -> Starlette:
    """The web app over ``store``; bots wait ``bot_delay`` seconds before each move."""
    hub: Hub | None = None

    def the_hub() -> Hub:
        assert hub is not None, "the app is used outside its lifespan"
        return hub

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        nonlocal hub
        hub = Hub(store, bot_delay=bot_delay)
        app.state.hub = hub
        try:
            yield
        finally:
            hub.close()

    def page(name: str) -> Any:
        async def handler(request: Request) -> Response:
            return FileResponse(STATIC / name, media_type="text/html")

        return handler

    async def games(request: Request) -> Response:
        return JSONResponse(
            {
                game.name: {
                    "title": {lang: game.titles[lang] for lang in LANGS},
                    "players": [min(game.player_counts), max(game.player_counts)],
                    "counts": list(game.player_counts),
                    "presets": game.options_class.preset_names(),
                    "options": [list(row) for row in game.options_class.describe()],
                    "defaults": game.options_class().to_dict(),
                }
                for game in registry.games()
            }
            | {"levels": list(LEVELS)}
        )

    async def tables(request: Request) -> Response:
        try:
            if request.method == "GET":
                return JSONResponse(the_hub().summaries())
            room, tokens = the_hub().create_table(await _body(request))
        except WebError as exc:
            return _error(exc)
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
        try:
            room = await the_hub().room(_int(request.path_params["id"], "table"))
        except WebError as exc:
            return _error(exc)
        return JSONResponse(room.info())

    async def join(request: Request) -> Response:
        try:
            table_id = _int(request.path_params["id"], "table")
            body = await _body(request)
            if not isinstance(body, dict):
                raise WebError("bad_request", 'join with {"seat": n, "name": "..."}')
            token = await the_hub().join(table_id, body.get("seat"), body.get("name"))
        except WebError as exc:
            return _error(exc)
        return JSONResponse({"token": token, "link": f"/table/{table_id}?token={token}"})

    async def sheet_list(request: Request) -> Response:
        try:
            if request.method == "POST":
                sheet_id = sheets.create_sheet(store, await _body(request))
                return JSONResponse(sheets.sheet_json(sheet_id, sheets.load_sheet(store, sheet_id)), 201)
        except WebError as exc:
            return _error(exc)
        return JSONResponse(
            [
                {"id": sheet_id, "players": list(game.names), "deals": len(game.book.deals)}
                for sheet_id, game in (
                    (i, sheets.load_sheet(store, i)) for i in reversed(store.sheet_ids()[-50:])
                )
            ]
        )

    async def sheet(request: Request) -> Response:
        try:
            sheet_id = _int(request.path_params["id"], "sheet")
            action = request.path_params.get("action")
            if action == "deals":
                game = sheets.add_deal(store, sheet_id, await _body(request))
            elif action == "undo":
                game = sheets.undo_deal(store, sheet_id)
            elif action is None:
                game = sheets.load_sheet(store, sheet_id)
            else:
                raise WebError("not_found", f"no sheet action {action!r}; actions: deals, undo", 404)
        except WebError as exc:
            return _error(exc)
        return JSONResponse(sheets.sheet_json(sheet_id, game))

    async def export(request: Request) -> Response:
        try:
            sheet_id = _int(request.path_params["id"], "sheet")
            fmt = request.path_params["fmt"]
            lang = request.query_params.get("lang", "ru")
            if lang not in ("ru", "en"):
                raise WebError("bad_request", f"lang must be 'ru' or 'en', not {lang!r}")
            text = sheets.export(sheets.load_sheet(store, sheet_id), fmt, "ru" if lang == "ru" else "en")
        except WebError as exc:
            return _error(exc)
        return PlainTextResponse(
            text,
            media_type=sheets.FORMATS[fmt] + "; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="thousand-{sheet_id}.{fmt}"'},
        )

    async def banki_list(request: Request) -> Response:
        try:
            if request.method == "POST":
                game_id = banki.create(store, await _body(request))
                return JSONResponse(banki.to_json(game_id, banki.load(store, game_id)), 201)
        except WebError as exc:
            return _error(exc)
        return JSONResponse(
            [
                {"id": game_id, "names": store.load_banki(game_id)[0]}
                for game_id in reversed(store.banki_ids()[-50:])
            ]
        )

    async def banki_game(request: Request) -> Response:
        try:
            game_id = _int(request.path_params["id"], "game")
            action = request.path_params.get("action")
            if action == "events":
                body = await _body(request)
                if not isinstance(body, dict):
                    raise WebError("bad_request", 'an event is {"event": "hit Аня"}')
                state = banki.add_event(store, game_id, body.get("event"))
            elif action == "undo":
                state = banki.undo(store, game_id)
            elif action is None:
                state = banki.load(store, game_id)
            else:
                raise WebError("not_found", f"no banki action {action!r}; actions: events, undo", 404)
        except WebError as exc:
            return _error(exc)
        return JSONResponse(banki.to_json(game_id, state))

    async def play(websocket: WebSocket) -> None:
        await websocket.accept()
        with suppress(WebSocketDisconnect):
            await _play(the_hub(), websocket)

    routes = [
        Route("/", page("index.html")),
        Route("/table/{id}", page("table.html")),
        Route("/sheet", page("sheet.html")),
        Route("/sheet/{id}", page("sheet.html")),
        Route("/banki", page("banki.html")),
        Route("/banki/{id}", page("banki.html")),
        Route("/api/games", games),
        Route("/api/tables", tables, methods=["GET", "POST"]),
        Route("/api/tables/{id}", table),
        Route("/api/tables/{id}/join", join, methods=["POST"]),
        Route("/api/sheets", sheet_list, methods=["GET", "POST"]),
        Route("/api/sheets/{id}", sheet),
        Route("/api/sheets/{id}/{action:str}", sheet, methods=["POST"]),
        Route("/api/sheets/{id}/export/{fmt}", export),
        Route("/api/banki", banki_list, methods=["GET", "POST"]),
        Route("/api/banki/{id}", banki_game),
        Route("/api/banki/{id}/{action:str}", banki_game, methods=["POST"]),
        WebSocketRoute("/ws/{id}", play),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


async def _receive(websocket: WebSocket) -> dict[str, Any]:
    """The next message as a JSON object, or WebError naming what is wrong with it."""
    text = await websocket.receive_text()
    if len(text.encode()) > MAX_MESSAGE:
        raise WebError("bad_message", f"a message may be at most {MAX_MESSAGE} bytes")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise WebError("bad_json", "that message is not valid JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise WebError("bad_message", 'a message is a JSON object with a "type"')
    return data


async def _play(hub: Hub, websocket: WebSocket) -> None:
    """One connection: a hello (token or none, last version seen), then actions and resync requests."""

    async def send(message: dict[str, Any]) -> None:
        await websocket.send_json(message)

    try:
        room = await hub.room(_int(websocket.path_params["id"], "table"))
        hello = await _receive(websocket)
        if hello["type"] != "hello":
            raise WebError(
                "bad_message", 'the first message must be {"type": "hello", "token": ..., "v": ...}'
            )
        token = hello.get("token")
        seat = None if token is None else room.seat_of(token)
    except WebError as exc:
        await send(exc.to_json())
        await websocket.close(code=4000 + exc.status)
        return
    if seat is not None:
        hub.take(room, seat)
    client = Client(seat, send)
    room.clients.add(client)
    try:
        await _resync(room, client, hello.get("v"))
        while True:
            try:
                message = await _receive(websocket)
                await _handle(hub, room, client, message)
            except WebError as exc:
                await send(exc.to_json())
                await send(room.message("sync", seat))  # the refused client sees the table as it is
    finally:
        room.clients.discard(client)


async def _resync(room: Room, client: Client, version: object) -> None:
    if version == room.version:
        await client.send({"type": "uptodate", "v": room.version})
    else:
        await client.send(room.message("sync", client.seat))


async def _handle(hub: Hub, room: Room, client: Client, message: dict[str, Any]) -> None:
    kind = message["type"]
    if kind == "act":
        await hub.act(room, client.seat, message.get("v"), message.get("action"))
    elif kind == "sync":
        await _resync(room, client, message.get("v"))
    elif kind == "ping":
        await client.send({"type": "pong", "v": room.version})
    else:
        raise WebError("bad_message", f"unknown message type {kind!r}; types: act, sync, ping")
