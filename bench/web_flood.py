"""One client floods the web app; do the other tables notice? (issue 15, point 6; docs/performance.md)

    python bench/web_flood.py [--tables 8] [--seconds 5] [--rounds 5] [--pace 0.2] [--limit K=V] [--json]

Starts ``koloda serve`` on a free port of 127.0.0.1 over a fresh SQLite file, with its default limits, and
creates ``--tables`` Bank tables of two people. Each table's people connect from their own loopback
address (127.0.1.N: each table is another home) and play: the seat to move waits ``--pace`` seconds, then
plays its first legal action. The latency of an action is from its sending by one seat to the ``event``
frame of that version at the other seat.

Two phases of ``--seconds`` each, quiet and flood, cut into ``--rounds`` slices taken in turn (so that
what else the machine runs weighs on both alike). In the flood's slices another process, from 127.0.0.3,
sends messages to its own table as fast as it can (a full ``sync``, a ``ping``, a stale ``act`` in turn),
reconnecting whenever the server closes its socket; in the quiet ones it is stopped (SIGSTOP). For each
phase: the people's actions, latency p50/p99 (ms), the server's CPU (% of one core), the log lines written
(table events and the rest apart); for the flood: the messages written per second of flood and the close
codes the flooder saw. ``--limit KEY=VALUE`` is passed to the server (``messages=0`` and the like show the
flood unchecked). All traffic is to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

FLOOD_FROM = "127.0.0.3"


def people_address(table: int) -> str:
    """The loopback address the people of the table ``table`` (0, 1, ...) connect from."""
    return f"127.0.1.{table % 250 + 1}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile (nearest rank) of ``values``; NaN for none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Phase:
    """What the people saw during one phase (its slices added up), and what the server spent."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.seconds = 0.0
        self.cpu = 0.0  # the server's CPU seconds
        self.event_lines = 0
        self.other_lines = 0

    def figures(self) -> dict[str, Any]:
        return {
            "actions": len(self.latencies),
            "p50_ms": round(percentile(self.latencies, 0.5) * 1000, 1),
            "p99_ms": round(percentile(self.latencies, 0.99) * 1000, 1),
            "max_ms": round(max(self.latencies, default=math.nan) * 1000, 1),
            "errors": dict(Counter(self.errors)),
            "server_cpu_pct": round(100 * self.cpu / self.seconds),
            "event_lines": self.event_lines,
            "other_lines": self.other_lines,
        }


class Table:
    """Two people at one table: seat 0 and seat 1, each with its own socket."""

    def __init__(self, url: str, table_id: int, tokens: list[str], address: str, pace: float) -> None:
        self.url = url
        self.id = table_id
        self.tokens = tokens
        self.address = address
        self.pace = pace
        self.sent: dict[int, float] = {}  # version -> when the action that makes it was sent
        self.phase: Phase | None = None
        self.over = False

    async def seat(self, seat: int, stop: asyncio.Event) -> None:
        ws_url = self.url.replace("http://", "ws://") + f"/ws/{self.id}"
        async with connect(ws_url, local_addr=(self.address, 0)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.tokens[seat]}))
            while not stop.is_set():
                try:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=0.5))
                except TimeoutError:
                    continue
                if frame["type"] == "error":
                    if self.phase is not None:
                        self.phase.errors.append(frame["code"])
                    continue
                if frame["type"] not in ("sync", "event"):
                    continue
                version = frame["v"]
                started = self.sent.pop(version, None)
                if frame["type"] == "event" and started is not None and self.phase is not None:
                    self.phase.latencies.append(time.perf_counter() - started)
                if frame["table"]["over"]:
                    self.over = True
                    return
                actions = frame["view"]["actions"]
                if actions and frame["seat"] == seat:
                    await asyncio.sleep(self.pace)
                    self.sent[version + 1] = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "v": version, "action": actions[0][0]}))


async def flood(url: str, table_id: int) -> dict[str, Any]:
    """Send messages to table ``table_id`` as fast as possible until SIGTERM, reading (and dropping) what
    the server says so as to see its close at once, and connecting again each time it closes. Says
    ``ready`` on stdout once the first socket is open, then, at the end, the figures as JSON."""
    ws_url = url.replace("http://", "ws://") + f"/ws/{table_id}"
    messages = [json.dumps(m) for m in ({"type": "sync"}, {"type": "ping"}, {"type": "act", "v": 0})]
    sent = connects = 0
    closes: Counter[str] = Counter()
    done = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, done.set)
    ready = False

    async def drain(ws: Any) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for _ in ws:
                pass

    while not done.is_set():
        try:
            async with connect(ws_url, local_addr=(FLOOD_FROM, 0)) as ws:
                connects += 1
                if not ready:
                    print("ready", flush=True)
                    ready = True
                reader = asyncio.create_task(drain(ws))
                await ws.send(json.dumps({"type": "hello"}))
                while not done.is_set():
                    for _ in range(100):
                        await ws.send(messages[sent % 3])
                        sent += 1
                    await asyncio.sleep(0)  # let the reader see the server's close
                reader.cancel()
        except ConnectionClosed as closed:
            closes[str(closed.rcvd.code if closed.rcvd else closed.sent.code if closed.sent else 1006)] += 1
        except (InvalidHandshake, OSError) as exc:
            closes[type(exc).__name__] += 1
            await asyncio.sleep(0.01)
    return {"sent": sent, "connects": connects, "closes": closes}


class Server:
    """``koloda serve`` on a free port of 127.0.0.1, its log in a file."""

    def __init__(self, data: Path, limits: list[str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = data / "server.log"
        env = {**os.environ, "KOLODA_DATA_DIR": str(data)}
        command = [
            sys.executable,
            "-m",
            "koloda",
            "serve",
            "--port",
            str(self.port),
            "--db",
            str(data / "f.db"),
        ]
        command += [f"--limit={limit}" for limit in limits]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start: " + self.log.read_text(errors="replace")[-2000:])

    def lines(self) -> tuple[int, int]:
        """Log lines so far: (table events, the rest)."""
        events = other = 0
        for line in self.log.read_text(encoding="utf-8", errors="replace").splitlines():
            if '"logger": "koloda.web.events"' in line:
                events += 1
            else:
                other += 1
        return events, other

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)


def create_tables(url: str, count: int) -> list[tuple[int, list[str], str]]:
    """``count`` Bank tables of two people, each created from its people's address."""
    out = []
    for index in range(count):
        address = people_address(index)
        transport = httpx.HTTPTransport(local_address=address)
        with httpx.Client(transport=transport, base_url=url, timeout=10) as http:
            body = {"game": "bank", "players": 2, "seed": 100 + index, "seats": [{}, {}]}
            made = http.post("/api/tables", json=body)
            made.raise_for_status()
            data = made.json()
            out.append((data["id"], [link.split("token=")[1] for link in data["links"]], address))
    return out


async def measure(
    url: str, server: Server, tables: int, seconds: float, pace: float, rounds: int, flooder_nice: int
) -> dict[str, Any]:
    made = create_tables(url, tables + 1)  # the last one is the flooder's
    people = [Table(url, table_id, tokens, address, pace) for table_id, tokens, address in made[:-1]]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(table.seat(seat, stop)) for table in people for seat in (0, 1)]
    command = [
        sys.executable,
        __file__,
        "--flooder",
        url,
        str(made[-1][0]),
        "--flooder-nice",
        str(flooder_nice),
    ]
    flooder = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE)
    assert flooder.stdout is not None
    ready = await asyncio.wait_for(flooder.stdout.readline(), timeout=30)
    assert ready == b"ready\n", ready
    os.kill(flooder.pid, signal.SIGSTOP)  # it floods only in the flood's slices
    await asyncio.sleep(1.0)  # everyone connected and playing
    phases = {"quiet": Phase("quiet"), "flood": Phase("flood")}
    try:
        for _ in range(rounds):
            for phase in phases.values():
                if phase.name == "flood":
                    os.kill(flooder.pid, signal.SIGCONT)
                lines, cpu, started = server.lines(), cpu_seconds(server.process.pid), time.monotonic()
                for table in people:
                    table.phase = phase
                await asyncio.sleep(seconds / rounds)
                for table in people:
                    table.phase = None
                if phase.name == "flood":
                    os.kill(flooder.pid, signal.SIGSTOP)
                phase.seconds += time.monotonic() - started
                phase.cpu += cpu_seconds(server.process.pid) - cpu
                after = server.lines()
                phase.event_lines += after[0] - lines[0]
                phase.other_lines += after[1] - lines[1]
    finally:
        os.kill(flooder.pid, signal.SIGCONT)
        flooder.terminate()
        out, _ = await asyncio.wait_for(flooder.communicate(), timeout=30)
    result: dict[str, Any] = {
        "tables": tables,
        "seconds": seconds,
        "rounds": rounds,
        "pace": pace,
        "flooder_nice": flooder_nice,
        **{name: phase.figures() for name, phase in phases.items()},
    }
    result["flooder"] = json.loads(out)
    result["flooder"]["rate"] = round(result["flooder"]["sent"] / phases["flood"].seconds)
    result["tables_over"] = sum(table.over for table in people)
    stop.set()
    await asyncio.wait(tasks, timeout=5)
    for task in tasks:
        task.cancel()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=8, help="tables of two people (default 8)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of each phase (default 5)")
    parser.add_argument(
        "--rounds", type=int, default=5, help="quiet and flood slices taken in turn (default 5)"
    )
    parser.add_argument("--pace", type=float, default=0.2, help="seconds a person waits before acting")
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a limit of the server (koloda serve --limit), e.g. messages=0 to see the flood unchecked",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--flooder-nice",
        type=int,
        default=10,
        help="niceness the flooder adds to its own: it stands for a client on another machine, and should "
        "not take the CPU the server and the people's client need (default 10)",
    )
    parser.add_argument("--flooder", nargs=2, metavar=("URL", "TABLE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.flooder:
        url, table = args.flooder
        os.nice(args.flooder_nice)
        print(json.dumps(asyncio.run(flood(url, int(table)))))
        return
    if not 1 <= args.tables <= 200 or not 0 < args.seconds <= 120 or not 1 <= args.rounds <= 100:
        parser.error("--tables 1-200, --seconds up to 120, --rounds 1-100")
    with tempfile.TemporaryDirectory(prefix="koloda-flood-") as data:
        server = Server(Path(data), args.limit)
        try:
            result = asyncio.run(
                measure(
                    server.url, server, args.tables, args.seconds, args.pace, args.rounds, args.flooder_nice
                )
            )
        finally:
            server.stop()
    result["load_average"] = os.getloadavg()[0]
    if args.json:
        print(json.dumps(result))
        return
    flooder = result["flooder"]
    print(
        f"{args.tables} tables of two people, an action every {args.pace} s, {args.seconds} s a phase "
        f"in {args.rounds} slices, "
        f"limits {args.limit or 'the defaults'}"
    )
    for name in ("quiet", "flood"):
        phase = result[name]
        print(
            f"{name:>6}: {phase['actions']} actions, p50 {phase['p50_ms']} ms, p99 {phase['p99_ms']} ms, "
            f"max {phase['max_ms']} ms, server CPU {phase['server_cpu_pct']}%, log lines "
            f"{phase['event_lines']} table events + {phase['other_lines']} others, errors {phase['errors']}"
        )
    print(
        f"flooder: {flooder['sent']} messages ({flooder['rate']}/s), {flooder['connects']} connections, "
        f"closes {flooder['closes']}; load average {result['load_average']:.1f}"
    )


if __name__ == "__main__":
    main()
