"""Faults at a larger scale than the suite's tests (tests/web/test_web_faults.py), with figures (issue 15,
point 5), all on 127.0.0.1:

1. ``kill``: two nodes on PostgreSQL (fsync on) + Redis, ``--tables`` tables of bots (Bank, one deal)
   started on node 1, one spectator each on node 1; node 1 is killed (SIGKILL) mid-game. Printed: the
   actions the spectators saw announced, how many of them the database lacks (must be 0), the seconds
   until node 2 drove every table again, and until every game was over.
2. ``redis`` and ``postgres``: the service is stopped for ``--outage`` seconds while a person plays on
   node 1. Printed: the actions refused (and their code), whether the node lived, and the seconds from
   the service's return to the next applied action (no restart).
3. ``disk``: one node on SQLite in a small tmpfs (needs the right to mount one; skipped otherwise: the
   suite's test fills a SQLite file by ``max_page_count`` instead). A table is played until the disk is
   full. Printed: the refusal, whether the node lived, the stored actions against the acknowledged ones,
   and SQLite's integrity check.

    .venv/bin/python bench/faults.py [--tables 20] [--outage 5] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import services

from koloda.store.sql import SqlStore

BOTS = {
    "game": "bank",
    "players": 3,
    "seats": [{"kind": "bot", "level": "easy"}] * 3,
    "options": {"max_deals": 1},
}
PEOPLE = {"game": "bank", "players": 2, "seats": [{"name": "A"}, {"name": "B"}], "seed": 5}


class Node(services.Node):
    def ws(self, table_id: int) -> ClientConnection:
        return connect(f"ws://127.0.0.1:{self.port}/ws/{table_id}", open_timeout=30)


def recv(ws: ClientConnection, timeout: float = 20) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return frame


def drain(ws: ClientConnection, seen: int) -> int:
    try:
        while True:
            seen = max(seen, int(recv(ws, 0.01).get("v") or 0))
    except (TimeoutError, ConnectionClosed):
        return seen


def versions(node: Node, ids: list[int]) -> list[dict[str, Any]]:
    return [httpx.get(f"{node.url}/api/tables/{t}", timeout=30).json() for t in ids]


def kill_one_node(folder: Path, tables: int) -> dict[str, Any]:
    postgres = services.Postgres(folder / "pg").start()
    redis = services.Redis(folder / "redis").start()
    nodes = [Node(postgres.url(), folder, extra=["--redis", redis.url]) for _ in range(2)]
    try:
        a, b = nodes
        ids = [
            httpx.post(a.url + "/api/tables", json=BOTS | {"seed": s}, timeout=30).json()["id"]
            for s in range(tables)
        ]
        stack = contextlib.ExitStack()
        sockets = [stack.enter_context(a.ws(t)) for t in ids]
        for ws in sockets:
            ws.send(json.dumps({"type": "hello"}))
        seen = [0] * tables
        deadline = time.monotonic() + 60
        while min(seen) < 5 and time.monotonic() < deadline:
            seen = [drain(ws, v) for ws, v in zip(sockets, seen, strict=True)]
            time.sleep(0.1)
        a.stop(kill=True)
        killed = time.monotonic()
        acknowledged = [drain(ws, v) for ws, v in zip(sockets, seen, strict=True)]
        stack.close()
        at_kill = [t["version"] for t in versions(b, ids)]
        resumed = over = None
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            now = versions(b, ids)
            if resumed is None and all(
                t["version"] > v or t["over"] for t, v in zip(now, at_kill, strict=True)
            ):
                resumed = time.monotonic() - killed
            if all(t["over"] for t in now):
                over = time.monotonic() - killed
                break
            time.sleep(0.5)
        store = SqlStore(postgres.url())
        stored = [len(store.load_table(t).actions) for t in ids]
        store.close()
        return {
            "tables": tables,
            "acknowledged_actions": sum(acknowledged),
            "acknowledged_missing_from_db": sum(
                max(0, ack - got) for ack, got in zip(acknowledged, stored, strict=True)
            ),
            "resumed_on_node_2_s": None if resumed is None else round(resumed, 1),
            "every_game_over_s": None if over is None else round(over, 1),
            "games_over": sum(t["over"] for t in versions(b, ids)),
        }
    finally:
        for node in nodes:
            node.stop()
        redis.stop()
        postgres.stop()


def act(ws: ClientConnection, frame: dict[str, Any]) -> list[dict[str, Any]]:
    ws.send(json.dumps({"type": "act", "v": frame["v"], "action": frame["view"]["actions"][0][0]}))
    ws.send(json.dumps({"type": "ping"}))
    frames = [recv(ws)]
    while frames[-1]["type"] != "pong":
        frames.append(recv(ws))
    return frames


def outage(
    node: Node, gone: Callable[[], object], back: Callable[[], object], seconds: float
) -> dict[str, Any]:
    """A person acts every 0.2 s through ``seconds`` of the service gone; then until an action is applied."""
    made = httpx.post(node.url + "/api/tables", json=PEOPLE, timeout=30).json()
    tokens = [link.split("token=")[1] for link in made["links"]]
    with node.ws(made["id"]) as spectator:
        spectator.send(json.dumps({"type": "hello"}))
        mover = recv(spectator)["view"]["current_player"]
    refused: dict[str, int] = {}
    with node.ws(made["id"]) as ws:
        ws.send(json.dumps({"type": "hello", "token": tokens[mover]}))
        frame = recv(ws)
        gone()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            frames = act(ws, frame)
            for f in frames:
                if f["type"] == "error":
                    refused[f["code"]] = refused.get(f["code"], 0) + 1
            frame = next(f for f in reversed(frames) if "view" in f)
            if not frame["view"]["actions"]:
                break  # applied (the service was not missed yet) and not this seat's turn any more
            time.sleep(0.2)
        alive = node.alive()
        back()
        returned = time.monotonic()
        recovered = None
        while time.monotonic() < returned + 60:
            frames = act(ws, frame)
            if not any(f["type"] == "error" for f in frames):
                recovered = time.monotonic() - returned
                break
            frame = next(f for f in reversed(frames) if "view" in f)
            time.sleep(0.1)
    return {
        "outage_s": seconds,
        "refused": refused,
        "node_alive": alive and node.alive(),
        "applied_again_after_s": None if recovered is None else round(recovered, 2),
    }


def services_gone(folder: Path, seconds: float) -> dict[str, Any]:
    postgres = services.Postgres(folder / "pg2").start()
    redis = services.Redis(folder / "redis2").start()
    nodes = [Node(postgres.url(), folder, extra=["--redis", redis.url]) for _ in range(2)]
    try:
        return {
            "redis": outage(nodes[0], redis.pause, lambda: redis.start(), seconds),
            "postgres": outage(nodes[0], postgres.pause, postgres.resume, seconds),
        }
    finally:
        for node in nodes:
            node.stop()
        redis.stop()
        postgres.stop()


def full_disk(folder: Path) -> dict[str, Any]:
    disk = folder / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)], capture_output=True
    )
    if mounted.returncode:
        return {"skipped": "cannot mount a tmpfs here: " + mounted.stderr.decode(errors="replace").strip()}
    db = disk / "full.sqlite3"
    node = None
    try:
        node = Node(str(db), folder)
        made = httpx.post(
            node.url + "/api/tables",
            json={"game": "thousand", "players": 3, "seed": 2, "seats": [{}, {}, {}]},
            timeout=30,
        )
        if made.status_code != 201:
            return {"refused_at_creation": made.status_code}
        table = made.json()
        tokens = [link.split("token=")[1] for link in table["links"]]
        stack = contextlib.ExitStack()
        sockets = [stack.enter_context(node.ws(table["id"])) for _ in tokens]
        for ws, token in zip(sockets, tokens, strict=True):
            ws.send(json.dumps({"type": "hello", "token": token}))
        frames = [recv(ws) for ws in sockets]
        acknowledged, error = 0, None
        for _ in range(20000):
            mover = frames[0]["view"]["current_player"]
            if mover is None:
                break
            sockets[mover].send(
                json.dumps(
                    {"type": "act", "v": acknowledged, "action": frames[mover]["view"]["actions"][0][0]}
                )
            )
            answer = recv(sockets[mover])
            if answer["type"] == "error":
                error = answer
                break
            acknowledged = answer["v"]
            frames = [answer if seat == mover else recv(ws) for seat, ws in enumerate(sockets)]
        stack.close()
        alive = node.alive()
        node.stop()
        node = None
        with contextlib.closing(sqlite3.connect(db)) as check:  # closed: the tmpfs can be unmounted
            integrity = check.execute("PRAGMA integrity_check").fetchone()[0]
            stored = check.execute("SELECT count(*) FROM actions").fetchone()[0]
        return {
            "disk": "tmpfs 256 KiB",
            "acknowledged_actions": acknowledged,
            "stored_actions": stored,
            "refusal": None if error is None else f"{error['code']}: {error['message']}",
            "node_alive": alive,
            "integrity_check": integrity,
        }
    finally:
        if node is not None:
            node.stop()
        subprocess.run(["umount", str(disk)], capture_output=True)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=20, help="tables of bots when a node is killed (20)")
    parser.add_argument("--outage", type=float, default=5.0, help="seconds Redis or PostgreSQL is gone (5)")
    parser.add_argument("--only", choices=("kill", "services", "disk"), help="one fault only")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if not (services.have_postgres() and services.have_redis()):
        print("faults: install first: apt-get install postgresql redis-server", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="koloda-faults-"))
    result: dict[str, Any] = {"loadavg": [round(x, 2) for x in os.getloadavg()]}
    try:
        if args.only in (None, "kill"):
            result["kill_one_of_two_nodes"] = kill_one_node(folder, args.tables)
        if args.only in (None, "services"):
            result |= services_gone(folder, args.outage)
        if args.only in (None, "disk"):
            result["full_disk"] = full_disk(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        for key, value in result.items():
            print(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
