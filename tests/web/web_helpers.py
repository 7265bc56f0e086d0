"""Helpers shared by the web tests: creating tables, reading websocket frames until a condition."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from koloda.web.hub import Hub


def hub(client: TestClient) -> Hub:
    """The live hub of an app under TestClient."""
    found: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return found


def create(client: TestClient, **request: Any) -> dict[str, Any]:
    """Create a table through the API; asserts it was created."""
    response = client.post("/api/tables", json=request)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def tokens(client: TestClient, table_id: int) -> list[str]:
    """Every seat's token, bots' included (read from the store, as a test may)."""
    return [seat.token for seat in hub(client).store.load_table(table_id).seats]


def until(ws: Any, predicate: Any, limit: int = 2000) -> dict[str, Any]:
    """Read frames until one satisfies ``predicate``."""
    for _ in range(limit):
        frame: dict[str, Any] = ws.receive_json()
        if predicate(frame):
            return frame
    raise AssertionError("no such frame")
