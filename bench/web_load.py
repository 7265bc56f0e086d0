"""The web app under load: N tables of bots and M tables of scripted people, over real websockets to
real ``koloda serve`` processes on 127.0.0.1 (issue 15, point 4).

Each table of bots (Bank, three easy bots, a bot moving every ``--bot-delay`` seconds as in play) has one
spectator socket asking for patches (in a second process of the benchmark, so that the people's frames
are not queued behind a thousand tables' frames in the process that measures them); each people's table
(Bank, two human seats) has both seats connected, each person acting ``--think`` seconds after its turn
comes. Latency is a person's action → the other seat receiving it (both sockets in this process: one
clock). With ``--nodes 2`` the servers share a PostgreSQL database and a Redis (started here from
Debian's packages, scripts/services.py), the tables are spread over both nodes, and the two seats of each
people's table sit on different nodes.

Printed over the measured window (after ``--warmup``): actions/s (every table), the latency's p50/p99,
the servers' CPU (% of one core, bot workers included) and RSS, the load average of the machine (it is
shared: read the figures with it), and errors (error frames, closed sockets, failed requests).

    .venv/bin/python bench/web_load.py --tables 1000 --people 50
    .venv/bin/python bench/web_load.py --tables 2000 --people 50 --nodes 2
    .venv/bin/python bench/web_load.py --tables 500 --people 50 --db postgresql   # one node, as two use
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import services

TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass
class Figures:
    actions: int = 0  # actions seen in the window (one per event of a table)
    latencies: list[float] = field(default_factory=list)  # seconds
    errors: dict[str, int] = field(default_factory=dict)
    measuring: bool = False

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def tree(pid: int) -> list[int]:
    """A process and its descendants (the bot workers and the writer: started by a thread of the server,
    so they are listed as children of that thread's task, not the main one's)."""
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            try:
                todo.extend(int(child) for child in (task / "children").read_text().split())
            except (OSError, ValueError):
                continue
    return out


def usage(pids: list[int]) -> tuple[float, int, float]:
    """CPU seconds used so far and resident bytes, summed over ``pids`` and their descendants, and the
    CPU seconds of ``pids`` alone (the servers' event loops: the bots and the writer are descendants)."""
    cpu, rss, loops = 0.0, 0, 0.0
    for root in pids:
        for pid in tree(root):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                used = (int(fields[11]) + int(fields[12])) / TICKS
                cpu += used
                loops += used if pid == root else 0.0
                rss += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
            except OSError:
                continue
    return cpu, rss, loops


async def create(http: httpx.AsyncClient, url: str, request: dict[str, Any], figures: Figures) -> Any:
    for _ in range(5):
        try:
            answer = await http.post(url + "/api/tables", json=request)
            if answer.status_code == 201:
                return answer.json()
            figures.error(f"create {answer.status_code}")
        except httpx.HTTPError as exc:
            figures.error(f"create {type(exc).__name__}")
        await asyncio.sleep(0.5)
    raise RuntimeError("cannot create tables")


HISTOGRAMS = (
    "koloda_commit_seconds",
    "koloda_action_seconds",
    "koloda_loop_lag_seconds",
    "koloda_gc_pause_seconds",
)


async def scrape(http: httpx.AsyncClient, urls: list[str]) -> dict[str, dict[float, float]]:
    """The cumulative buckets of the servers' histograms (summed over the nodes)."""
    out: dict[str, dict[float, float]] = {name: {} for name in HISTOGRAMS}
    for url in urls:
        for line in (await http.get(url + "/metrics")).text.splitlines():
            name, _, rest = line.partition('_bucket{le="')
            if name in out:
                bound, _, count = rest.partition('"} ')
                edge = float("inf") if bound == "+Inf" else float(bound)
                out[name][edge] = out[name].get(edge, 0.0) + float(count)
    return out


def quantile(before: dict[float, float], after: dict[float, float], q: float) -> float | None:
    """The bucket bound (ms) under which ``q`` of the window's observations fell (a histogram's
    quantile: an upper bound, to the buckets' resolution)."""
    edges = sorted(after)
    counts = [after[edge] - before.get(edge, 0.0) for edge in edges]
    if not counts or counts[-1] <= 0:
        return None
    for edge, count in zip(edges, counts, strict=True):
        if count >= q * counts[-1]:
            return edge * 1000
    return None  # pragma: no cover - the +Inf bucket holds every observation


async def lateness(samples: list[float], stop: asyncio.Event) -> None:
    """This process's own loop lag (a latency it measures includes it): how late a 50 ms timer wakes."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        due = loop.time() + 0.05
        await asyncio.sleep(0.05)
        samples.append(loop.time() - due)


def ws_url(url: str, table_id: int) -> str:
    return url.replace("http://", "ws://") + f"/ws/{table_id}"


async def spectate(url: str, table_id: int, figures: Figures, stop: asyncio.Event) -> None:
    """A spectator of a table of bots: counts its events (patches, not decoded beyond the type)."""
    try:
        async with connect(ws_url(url, table_id), max_size=2**22, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "hello", "patch": True}))
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except TimeoutError:
                    continue
                if figures.measuring and isinstance(text, str):
                    if text.startswith('{"type": "event"'):
                        figures.actions += 1
                    elif text.startswith('{"type": "error"'):
                        figures.error(json.loads(text).get("code", "error"))
    except Exception as exc:
        if not stop.is_set():
            figures.error(f"spectator {type(exc).__name__}")


def watchers(tables: list[tuple[str, int]], measuring: Any, stop: Any, out: Any) -> None:
    """The spectators of the bot tables, in a process of their own, counting events while ``measuring``
    is set, until ``stop``; ``out`` gets their count and errors."""
    figures = Figures()

    async def main() -> None:
        stopping = asyncio.Event()
        tasks = [asyncio.create_task(spectate(url, table, figures, stopping)) for url, table in tables]
        while not stop.is_set():
            figures.measuring = measuring.is_set()
            await asyncio.sleep(0.02)
        stopping.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())
    out.put((figures.actions, figures.errors))


@dataclass
class Seat:
    ws: ClientConnection
    view: dict[str, Any] | None = None
    v: int = 0
    acted: int = -1  # the last version this seat acted at


async def person(
    seat: Seat, other_sent: dict[int, float], mine_sent: dict[int, float], figures: Figures, think: float
) -> None:
    """One scripted person: on its turn, waits ``think`` seconds and plays its first legal action; on an
    action of the other seat, records the latency."""
    while True:
        text = await seat.ws.recv()
        frame = json.loads(text)
        kind = frame.get("type")
        if kind == "error":
            figures.error(frame.get("code", "error"))
            continue
        if kind not in ("sync", "event"):
            continue
        seat.v, seat.view = frame["v"], frame["view"]
        sent = other_sent.pop(seat.v, None)
        if kind == "event" and sent is not None and figures.measuring:
            figures.latencies.append(time.perf_counter() - sent)
            figures.actions += 1
        if frame["table"]["over"]:
            return
        actions = seat.view["actions"]
        if actions and seat.acted < seat.v:  # once a version (a sync of the seats repeats a version)
            seat.acted = seat.v
            await asyncio.sleep(think)
            mine_sent[seat.v + 1] = time.perf_counter()
            await seat.ws.send(json.dumps({"type": "act", "v": seat.v, "action": actions[0][0]}))


async def people_table(urls: list[str], made: dict[str, Any], figures: Figures, think: float) -> None:
    """Two people at one table, each seat on its own node when there are two."""
    tokens = [link.split("token=")[1] for link in made["links"]]
    sent: list[dict[int, float]] = [{}, {}]
    try:
        async with (
            connect(ws_url(urls[0], made["id"]), open_timeout=60) as w0,
            connect(ws_url(urls[-1], made["id"]), open_timeout=60) as w1,
        ):
            seats = [Seat(w0), Seat(w1)]
            for seat, token in zip(seats, tokens, strict=True):
                await seat.ws.send(json.dumps({"type": "hello", "token": token}))
            await asyncio.gather(
                person(seats[0], sent[1], sent[0], figures, think),
                person(seats[1], sent[0], sent[1], figures, think),
            )
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        figures.error(f"person {type(exc).__name__}")


async def run(args: argparse.Namespace, urls: list[str], pids: list[int]) -> dict[str, Any]:
    figures = Figures()
    stop = asyncio.Event()
    bots = {"game": "bank", "players": 3, "seats": [{"kind": "bot", "level": "easy"}] * 3}
    people = {"game": "bank", "players": 2, "seats": [{"name": "A"}, {"name": "B"}]}
    limits = httpx.Limits(max_connections=16)
    tasks: list[asyncio.Task[None]] = []
    start = time.monotonic()
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        gate = asyncio.Semaphore(8)

        async def one(index: int, request: dict[str, Any]) -> dict[str, Any]:
            async with gate:
                return dict(await create(http, urls[index % len(urls)], request, figures))

        made_bots = await asyncio.gather(*(one(i, bots | {"seed": i}) for i in range(args.tables)))
        made_people = await asyncio.gather(*(one(i, people | {"seed": i}) for i in range(args.people)))
    created = time.monotonic() - start
    # The spectators in a process of their own: the people's frames are not queued behind a thousand
    # tables' frames in the measuring process (a person's browser receives its own table's only).
    context = multiprocessing.get_context("spawn")
    measuring, stopping, out = context.Event(), context.Event(), context.Queue()
    watched = [(urls[index % len(urls)], made["id"]) for index, made in enumerate(made_bots)]
    watching = context.Process(
        target=watchers, args=(watched if args.watch else [], measuring, stopping, out), name="watchers"
    )
    watching.start()
    for index, made in enumerate(made_people):
        order = urls if index % 2 == 0 else urls[::-1]
        tasks.append(asyncio.create_task(people_table(order, made, figures, args.think)))
    await asyncio.sleep(args.warmup)
    async with httpx.AsyncClient(timeout=60) as http:
        histograms0 = await scrape(http, urls)
    client_lag: list[float] = []
    tasks.append(asyncio.create_task(lateness(client_lag, stop)))
    figures.measuring = True
    measuring.set()
    cpu0, _, loops0 = usage(pids)
    t0 = time.perf_counter()
    rss = 0
    for _ in range(int(args.seconds)):
        await asyncio.sleep(1)
        rss = max(rss, usage(pids)[1])
    elapsed = time.perf_counter() - t0
    cpu1, _, loops1 = usage(pids)
    figures.measuring = False
    measuring.clear()
    async with httpx.AsyncClient(timeout=60) as http:
        histograms1 = await scrape(http, urls)
    stop.set()
    stopping.set()
    watched_actions, watched_errors = await asyncio.to_thread(out.get, True, 60)
    await asyncio.to_thread(watching.join, 30)
    figures.actions += watched_actions
    for what, count in watched_errors.items():
        figures.errors[what] = figures.errors.get(what, 0) + count
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies = sorted(figures.latencies)

    def cut(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000

    return {
        "nodes": len(urls),
        "bot_tables": args.tables,
        "people_tables": args.people,
        "bot_delay_s": args.bot_delay,
        "db": args.db_kind,
        "create_s": round(created, 1),
        "window_s": round(elapsed, 1),
        "actions_per_s": round(figures.actions / elapsed, 1),
        "latency_n": len(latencies),
        "latency_p50_ms": round(cut(0.5), 1) if latencies else None,
        "latency_p99_ms": round(cut(0.99), 1) if latencies else None,
        "latency_mean_ms": round(statistics.fmean(latencies) * 1000, 1) if latencies else None,
        # where a latency goes (bucket bounds, ms): the servers' commit, action (checks to broadcast) and
        # loop lag, and this process's own loop lag (it receives every frame of every table)
        **{
            f"{name[7:-8]}_p{int(q * 100)}_ms": quantile(histograms0[name], histograms1[name], q)
            for name in HISTOGRAMS
            for q in (0.5, 0.99)
        },
        "gc_pauses": histograms1["koloda_gc_pause_seconds"].get(math.inf, 0)
        - histograms0["koloda_gc_pause_seconds"].get(math.inf, 0),
        "client_lag_p99_ms": round(sorted(client_lag)[int(0.99 * len(client_lag))] * 1000, 1)
        if client_lag
        else None,
        "server_cpu_pct": round(100 * (cpu1 - cpu0) / elapsed, 1),
        "server_cpu_ms_per_action": round(1000 * (cpu1 - cpu0) / max(1, figures.actions), 3),
        "loop_cpu_ms_per_action": round(1000 * (loops1 - loops0) / max(1, figures.actions), 3),
        "server_rss_mb": round(rss / 2**20, 1),
        "errors": figures.errors,
        "loadavg": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100, help="tables of bots (default 100)")
    parser.add_argument("--people", type=int, default=10, help="tables of two scripted people (default 10)")
    parser.add_argument("--nodes", type=int, default=1, choices=(1, 2), help="koloda serve processes")
    parser.add_argument(
        "--db",
        choices=("sqlite", "postgresql"),
        default=None,
        help="sqlite: one node's default; postgresql: PostgreSQL and Redis, as many nodes use (the default"
        " with --nodes 2; with --nodes 1, the one node to compare two nodes with)",
    )
    parser.add_argument("--bot-delay", type=float, default=0.6, help="a bot's pause before a move (0.6)")
    parser.add_argument("--bot-workers", type=int, default=None, help="bot processes per node")
    parser.add_argument("--think", type=float, default=0.5, help="a person's pause before acting (0.5)")
    parser.add_argument("--warmup", type=float, default=10, help="seconds before measuring (10)")
    parser.add_argument("--seconds", type=float, default=30, help="seconds measured (30)")
    parser.add_argument("--no-watch", dest="watch", action="store_false", help="no spectator per bot table")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--logs", type=Path, default=None, help="copy the nodes' logs into this folder")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # a socket per seat and spectator
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    folder = Path(tempfile.mkdtemp(prefix="koloda-load-", dir=os.environ.get("KOLODA_BENCH_DIR")))
    started: list[Any] = []
    nodes: list[services.Node] = []
    try:
        extra = [] if args.bot_workers is None else ["--bot-workers", str(args.bot_workers)]
        # every simulated player and spectator comes from 127.0.0.1: the limits per address would count
        # a thousand clients as one (the limits per connection stay)
        extra += [f"--limit={key}=0" for key in ("address_messages", "connections", "requests", "creations")]
        if args.db is None:
            args.db = "sqlite" if args.nodes == 1 else "postgresql"
        if args.db == "sqlite" and args.nodes > 1:
            parser.error("two nodes share PostgreSQL and Redis: --db postgresql")
        if args.db == "sqlite":
            args.db_kind = "sqlite on disk"
            db = str(folder / "load.sqlite3")
        else:
            if not (services.have_postgres() and services.have_redis()):
                print("PostgreSQL and Redis are needed: apt-get install postgresql redis-server")
                return 2
            postgres = services.Postgres(folder / "pg").start()  # durable: fsync on, on disk
            started.append(postgres)
            redis = services.Redis(folder / "redis").start()
            started.append(redis)
            args.db_kind = "postgresql on disk"
            db = postgres.url()
            extra += ["--redis", redis.url]
        nodes = [services.Node(db, folder, bot_delay=args.bot_delay, extra=extra) for _ in range(args.nodes)]
        result = asyncio.run(run(args, [node.url for node in nodes], [n.process.pid for n in nodes]))
    finally:
        for node in nodes:
            node.stop()
        for service in reversed(started):
            service.stop()
        if args.logs is not None:
            args.logs.mkdir(parents=True, exist_ok=True)
            for log in folder.glob("node-*.log"):
                shutil.copy(log, args.logs / log.name)
        shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>18}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
