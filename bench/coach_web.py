"""Other tables' speed while the coach works (issue 17: "other tables keep their speed while it runs").

A ``koloda serve`` on 127.0.0.1 (a subprocess, bots moving at once): bots finish a match (``--game``), then at
another table two people (two websockets of this script) play Bank, 20 actions a second. The
round trip of one action (sent, then its event back on the same socket) is timed for ``--actions``
actions with no analysis running, then again while the worker analyses every seat of the finished match
(the coach's full settings, one seat after another). Printed: p50, p99 and the worst, in milliseconds, for
both, the second measure's seconds, and each seat's analysis status at its end (``running`` or
``waiting``: the worker was busy all through the measure).

    .venv/bin/python bench/coach_web.py [--actions 400] [--game thousand|bank] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

SERVE = [sys.executable, "-m", "koloda", "serve", "--bot-delay", "0"]


PACE = 0.05  # seconds between actions: under the guard's 600 messages in 20 s from one address


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Table:
    """A two-person Bank table played by this script, one socket a seat."""

    def __init__(self, url: str, ws_url: str) -> None:
        made = httpx.post(
            url + "/api/tables",
            json={"game": "bank", "players": 2, "seats": [{"name": "A"}, {"name": "B"}]},
        ).json()
        self.id = made["id"]
        self.sockets: list[ClientConnection] = []
        self.frames: list[dict[str, Any]] = []
        for link in made["links"]:
            ws = connect(f"{ws_url}/ws/{self.id}")
            ws.send(json.dumps({"type": "hello", "token": link.split("token=")[1]}))
            self.sockets.append(ws)
            self.frames.append({})
            self.latest(len(self.frames) - 1, 0)

    def latest(self, seat: int, version: int) -> dict[str, Any]:
        while self.frames[seat].get("v", -1) < version:
            frame = json.loads(self.sockets[seat].recv())
            if frame["type"] == "error":
                raise RuntimeError(frame)
            self.frames[seat] = frame
        return self.frames[seat]

    def act(self) -> float | None:
        """One action of the seat to move, timed; None when the match is over."""
        version = max(frame["v"] for frame in self.frames)
        view = self.latest(0, version)
        if view["table"]["over"]:
            return None
        seat = view["view"]["current_player"]
        frame = self.latest(seat, version)
        action = frame["view"]["actions"][0][0]
        start = time.perf_counter()
        self.sockets[seat].send(json.dumps({"type": "act", "v": version, "action": action}))
        self.latest(seat, version + 1)
        return time.perf_counter() - start

    def close(self) -> None:
        for ws in self.sockets:
            ws.close()


def measure(url: str, ws_url: str, count: int) -> list[float]:
    times: list[float] = []
    table = Table(url, ws_url)
    while len(times) < count:
        took = table.act()
        if took is None:
            table.close()
            table = Table(url, ws_url)
        else:
            times.append(took)
        time.sleep(PACE)
    table.close()
    return times


def figures(times: list[float]) -> dict[str, float]:
    ms = [t * 1000 for t in times]
    return {
        "p50": round(percentile(ms, 0.5), 2),
        "p99": round(percentile(ms, 0.99), 2),
        "max": round(max(ms), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--game", choices=["bank", "thousand"], default="thousand")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    port = free_port()
    url, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        log = (Path(data) / "server.log").open("wb")
        server = subprocess.Popen(
            [*SERVE, "--port", str(port), "--db", f"{data}/db.sqlite3"],
            env={**os.environ, "KOLODA_DATA_DIR": data},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            for _ in range(200):
                try:
                    if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            players = 2 if args.game == "bank" else 3
            bots = [{"kind": "bot", "level": "easy"}] * players
            match = {"game": args.game, "players": players, "seed": 3, "seats": bots}
            made = httpx.post(url + "/api/tables", json=match)
            finished = made.json()["id"]
            while not httpx.get(f"{url}/api/tables/{finished}").json()["over"]:
                time.sleep(0.1)
            measure(url, ws_url, 50)  # warm up
            quiet = measure(url, ws_url, args.actions)
            ask = f"{url}/api/tables/{finished}/analysis"
            for seat in range(players):  # every seat: the worker takes them in turn
                asked = httpx.post(ask, json={"seat": seat}).json()
                assert asked["status"] in ("running", "waiting"), asked
            time.sleep(1.0)  # the worker process starts
            start = time.monotonic()
            busy = measure(url, ws_url, args.actions)
            seconds = time.monotonic() - start
            after = [httpx.post(ask, json={"seat": seat}).json()["status"] for seat in range(players)]
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
            log.close()
    result = {
        "actions": args.actions,
        "cores": os.cpu_count(),
        "quiet_ms": figures(quiet),
        "while_analysing_ms": figures(busy),
        "game": args.game,
        "busy_seconds": round(seconds, 1),
        "analyses_at_end": after,
    }
    if args.json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
