"""Many nodes on this machine, started and checked (docs/deploy.md): PostgreSQL, Redis, two ``koloda
serve`` nodes and nginx in front of them with the websocket upgrade, all on 127.0.0.1.

The check, through nginx: a table is created, its two seats connect (through nginx, which spreads them
over the nodes, and once on each node directly), an action taken on one node reaches the seat on the
other; a table of bots plays; one node is killed and the table's bots go on on the other while nginx
sends every new request to the survivor. Then everything is stopped and its folder removed, unless
``--keep`` (then it runs until Ctrl+C, printing the address to open in a browser).

    .venv/bin/python scripts/cluster.py          # start, check, stop
    .venv/bin/python scripts/cluster.py --keep   # start, check, serve until Ctrl+C
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
import services


def say(text: str) -> None:
    print(f"cluster: {text}", flush=True)


def frame(ws: ClientConnection) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ws.recv(timeout=20))
    return data


def ws_url(url: str, table_id: int) -> str:
    return url.replace("http://", "ws://") + f"/ws/{table_id}"


def check(front: str, nodes: list[services.Node]) -> None:
    """What docs/deploy.md promises of many nodes, through the front and on each node."""
    games = httpx.get(front + "/api/games", timeout=20)
    assert games.status_code == 200, games.text
    request = {"game": "bank", "players": 2, "seats": [{"name": "A"}, {"name": "B"}], "seed": 3}
    made = httpx.post(front + "/api/tables", json=request, timeout=20).json()
    tokens = [link.split("token=")[1] for link in made["links"]]
    with connect(ws_url(front, made["id"])) as through_front:
        through_front.send(json.dumps({"type": "hello"}))
        mover = frame(through_front)["view"]["current_player"]
        with (
            connect(ws_url(nodes[0].url, made["id"])) as first,
            connect(ws_url(nodes[1].url, made["id"])) as second,
        ):
            first.send(json.dumps({"type": "hello", "token": tokens[mover]}))
            legal = frame(first)["view"]["actions"]
            second.send(json.dumps({"type": "hello", "token": tokens[1 - mover]}))
            frame(second)
            first.send(json.dumps({"type": "act", "v": 0, "action": legal[0][0]}))
            seen = frame(second)
            assert seen["type"] == "event" and seen["v"] == 1, seen
        for _ in range(10):  # the seats taken (sync, v 0), then the action
            seen = frame(through_front)
            if seen["v"] == 1:
                break
        assert seen["v"] == 1, seen
    say("an action on node 1 reached a seat on node 2 and a spectator through nginx")
    bots = {"game": "bank", "players": 3, "seats": [{"kind": "bot", "level": "easy"}] * 3, "seed": 4}
    table_id = httpx.post(nodes[0].url + "/api/tables", json=bots, timeout=20).json()["id"]
    time.sleep(2)
    before = httpx.get(f"{nodes[1].url}/api/tables/{table_id}", timeout=20).json()["version"]
    assert before > 0, "the bots of node 1 did not move"
    nodes[0].stop(kill=True)
    say(f"node 1 killed at version {before} of a table of bots")
    deadline = time.monotonic() + 30
    after = before
    while time.monotonic() < deadline and after <= before + 3:
        time.sleep(1)
        answer = httpx.get(f"{front}/api/tables/{table_id}", timeout=20)
        assert answer.status_code == 200, answer.text  # nginx sends it to the survivor
        after = answer.json()["version"]
    assert after > before + 3, f"the bots stopped at version {after}"
    say(f"node 2 took the bots over: version {after}; nginx answers from node 2")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--keep", action="store_true", help="after the check, serve until Ctrl+C")
    args = parser.parse_args()
    missing = [
        name
        for name, have in (
            ("postgresql", services.have_postgres()),
            ("redis-server", services.have_redis()),
            ("nginx", services.have_nginx()),
        )
        if not have
    ]
    if missing:
        print(f"cluster: install first: apt-get install {' '.join(missing)}", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="koloda-cluster-"))
    started: list[Any] = []
    nodes: list[services.Node] = []
    try:
        postgres = services.Postgres(folder / "pg").start()
        started.append(postgres)
        redis = services.Redis(folder / "redis").start()
        started.append(redis)
        say(f"PostgreSQL on port {postgres.port}, Redis on port {redis.port}")
        nodes = [services.Node(postgres.url(), folder, extra=["--redis", redis.url]) for _ in range(2)]
        nginx = services.Nginx(folder / "nginx", [node.port for node in nodes]).start()
        started.append(nginx)
        say(f"nodes on ports {nodes[0].port} and {nodes[1].port}, nginx on {nginx.url}")
        check(nginx.url, nodes)
        say("every check passed")
        if args.keep:
            say(f"open {nginx.url}/ (Ctrl+C stops everything)")
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        for node in nodes:
            node.stop()
        for service in reversed(started):
            service.stop()
        shutil.rmtree(folder, ignore_errors=True)
        say("stopped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
