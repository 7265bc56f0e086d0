"""Hidden information stays hidden: over many bot games played through the websocket, every frame sent
to a seat is exactly that seat's view of the stored game at the frame's version, and no frame names a
card in another seat's hand (or in the stock, or in a hidden talon) that the rules do not show it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import app_client, create, editing, hub, tokens

from koloda.cards import DECK_36
from koloda.game import GameRecord, GameState
from koloda.registry import get
from koloda.thousand.actions import GIVE, mask_cards
from koloda.web.views import public_view, seat_view

CARD = re.compile(r"(?<![0-9A-Z])(10|[6-9JQKA])[SCDH](?![a-z])")
LIMIT = 120  # versions watched per game: several deals of Thousand, most of a Bank deal or more


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """conftest's client with bots moving every 10 ms: with no pause a loaded machine let the bots play
    most of the LIMIT versions before the sockets connected, leaving few frames to check."""
    yield from app_client(tmp_path, bot_delay=0.01)


def states_by_version(game: str, record: Any) -> list[GameState]:
    """The state after each number of stored actions, replayed from the stored record."""
    web_game = get(game)
    start = GameRecord(game, record.players, record.options, (), seed=record.seed)
    state = web_game.replay(start)
    states = [state.copy()]
    for text in record.actions:
        state.apply(state.parse_action(text))
        states.append(state.copy())
    return states


def hidden_from(game: str, state: Any, seat: int | None) -> set[str]:
    """Cards a seat (None: a spectator) may not see: the others' hands, the stock, a talon the rules keep
    face down; less what the rules show it (a talon shown to all, the cards it gave away itself)."""
    web_game = get(game)
    players = state.players
    hidden = {
        str(c) for other in range(players) if other != seat for c in web_game.observe(state, other).hand
    }
    if game == "bank":
        hidden |= {str(DECK_36[c]) for c in state.stock}
        return hidden
    if seat is None:  # a spectator sees the talon when a defender does
        seat = next(s for s in range(players) if s != state.declarer)
        hidden |= {str(c) for c in web_game.observe(state, seat).hand}
    view = web_game.observe(state, seat)
    talon = {str(c) for c in mask_cards(state._talon)}
    if view.talon is None:
        hidden |= talon
    else:
        hidden -= {str(c) for c in view.talon}
    if view.declarer == seat:  # the declarer knows the cards he gave (rule G7)
        given = [a for a in state._history[state._deal_start :] if a >= GIVE and a < GIVE + 48]
        hidden -= {str(mask_cards(1 << ((a - GIVE) // 2))[0]) for a in given}
    return hidden


@pytest.mark.parametrize(
    ("game", "players", "seed"),
    [
        ("bank", 2, 1),
        ("bank", 3, 2),
        ("bank", 4, 3),
        ("bank", 3, 4),
        ("thousand", 3, 5),
        ("thousand", 4, 6),
        ("thousand", 3, 7),
        ("thousand", 4, 8),
    ],
)
def test_no_frame_shows_a_seat_a_card_it_may_not_see(
    client: TestClient, game: str, players: int, seed: int
) -> None:
    made = create(
        client, game=game, players=players, seed=seed, seats=[{"kind": "bot", "level": "easy"}] * players
    )
    secret = tokens(client, made["id"])
    frames: list[tuple[int | None, dict[str, Any]]] = []
    sockets = [client.websocket_connect(f"/ws/{made['id']}") for _ in range(players + 1)]
    try:
        opened = [ws.__enter__() for ws in sockets]
        for seat, ws in enumerate(opened):
            ws.send_json({"type": "hello", "token": secret[seat]} if seat < players else {"type": "hello"})
        for seat, ws in enumerate(opened):
            while True:
                frame = ws.receive_json()
                frames.append((seat if seat < players else None, frame))
                if frame["v"] >= LIMIT or frame["table"]["over"]:
                    break
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)
    record = hub(client).store.load_table(made["id"])
    states = states_by_version(game, record)
    web_game = get(game)
    for seat, frame in frames:
        state = states[frame["v"]]
        if seat is None:
            assert frame["view"] == public_view(web_game, state)
        else:
            assert frame["view"] == seat_view(web_game, state, seat)
        hidden = hidden_from(game, state, seat)
        shown = {m.group(0) for m in CARD.finditer(json.dumps(frame, ensure_ascii=False))}
        assert not shown & hidden, (seat, frame["v"], sorted(shown & hidden))
    assert len(frames) > LIMIT


@pytest.mark.parametrize("game", ["bank", "thousand"])
def test_the_check_sees_a_leak(game: str) -> None:
    # The check above is not vacuous: another seat's view, sent to seat 0, is caught.
    web_game = get(game)
    state = web_game.new_game(web_game.options_class(), players=3, seed=9)
    leaked = json.dumps(seat_view(web_game, state, 1))
    assert {m.group(0) for m in CARD.finditer(leaked)} & hidden_from(game, state, 0)
    assert {m.group(0) for m in CARD.finditer(leaked)} & hidden_from(game, state, None)


def test_no_answer_but_the_creation_shows_an_edit_key(client: TestClient) -> None:
    """An edit key (issue 28) is given once, in the answer that creates its sheet or game: no read, list,
    export, page, metric or websocket frame shows it, nor a seat's token, after that."""
    sheet = client.post("/api/sheets", json={"players": ["Аня", "Боря", "Вера"]}).json()
    game = client.post("/api/banki", json={"names": ["Аня", "Боря", "Вера", "Гена"], "seed": 2}).json()
    deal = {"declarer": "Аня", "bid": 100, "bomb": True}
    assert client.post("/api/sheets/1/deals", json=deal, headers=editing(sheet)).is_success
    assert client.post("/api/banki/1/events", json={"event": "kick Аня 7"}, headers=editing(game)).is_success
    made = create(client, game="bank", players=2, seed=3, seats=[{"name": "Аня"}, {"kind": "bot"}])
    secrets = [sheet["key"], game["key"], *tokens(client, made["id"])]
    answers = [
        client.request(method, path)
        for method in ("GET", "HEAD")
        for path in (
            "/api/sheets",
            "/api/sheets?limit=1",
            "/api/sheets/1",
            "/api/sheets/1/export/md",
            "/api/sheets/1/export/csv",
            "/api/sheets/1/export/jsonl",
            "/api/banki",
            "/api/banki/1",
            "/api/tables",
            f"/api/tables/{made['id']}",
            "/sheet/1",
            "/banki/1",
            "/metrics",
            "/healthz",
        )
    ]
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello"})
        frame = ws.receive_text()
    for text in [*(answer.text for answer in answers), frame]:
        assert not [secret for secret in secrets if secret in text]
    assert all(answer.status_code == 200 for answer in answers)
