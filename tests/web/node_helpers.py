"""Helpers of the tests of many nodes: websocket clients of real servers, and the tables they play."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from web_helpers import Server
from websockets.sync.client import ClientConnection, connect


def open_ws(server: Server, table_id: int) -> ClientConnection:
    return connect(f"{server.ws}/ws/{table_id}", open_timeout=10)


def recv(ws: ClientConnection, timeout: float = 15) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return frame


def hello(ws: ClientConnection, token: str | None = None, v: int | None = None) -> dict[str, Any]:
    ws.send(json.dumps({"type": "hello", "token": token, "v": v}))
    return recv(ws)


def until(
    ws: ClientConnection, predicate: Any, seconds: float = 60, first: dict[str, Any] | None = None
) -> Any:
    """Read frames until one satisfies ``predicate`` (bounded in time)."""
    if first is not None and predicate(first):
        return first
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        frame = recv(ws, timeout=max(0.1, deadline - time.monotonic()))
        if predicate(frame):
            return frame
    raise AssertionError("no such frame in time")


def new_table(server: Server, **request: Any) -> dict[str, Any]:
    made = httpx.post(server.url + "/api/tables", json=request, timeout=20)
    assert made.status_code == 201, made.text
    data: dict[str, Any] = made.json()
    return data


def token_of(link: str) -> str:
    return link.split("token=")[1]


def table(server: Server, table_id: int) -> dict[str, Any]:
    answer = httpx.get(f"{server.url}/api/tables/{table_id}", timeout=20)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data
