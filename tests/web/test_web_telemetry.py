"""What the server says about itself: /metrics in Prometheus' text format, /healthz, one structured log
line per table event, and a log that a flood cannot fill (koloda.web.telemetry, koloda.web.logs)."""

from __future__ import annotations

import io
import json
import logging
import re
import time
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient
from web_helpers import CHROMIUM, Server, create, csp_violations, editing, hub, tokens, until

from koloda.web.limits import Limits
from koloda.web.logs import JsonFormatter, LogThrottle, config

#: A sample line of the text exposition format: a name, labels, a number.
SAMPLE = re.compile(r'^([a-z_]+)(\{(?:[a-z_]+="(?:[^"\\]|\\.)*",?)*\})? (-?[0-9.e+-]+|\+Inf|NaN)$')


def parse(text: str) -> dict[str, float]:
    """The samples of a /metrics page, each line checked against the format; HELP and TYPE precede."""
    samples: dict[str, float] = {}
    typed: set[str] = set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            typed.add(line.split()[2])
            continue
        if line.startswith("# HELP "):
            continue
        match = SAMPLE.match(line)
        assert match, line
        family = re.sub(r"_(bucket|sum|count)$", "", match.group(1))
        assert family in typed or match.group(1) in typed, line
        samples[match.group(1) + (match.group(2) or "")] = float(match.group(3))
    return samples


def test_metrics_count_tables_connections_actions_commits_and_refusals(client: TestClient) -> None:
    made = create(client, game="bank", players=2, seed=3, seats=[{}, {}])
    secret = tokens(client, made["id"])
    client.post("/api/tables", content=b"{")  # one refusal
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": secret[0]})
        frame = ws.receive_json()
        seat = frame["view"]["current_player"]
        samples = parse(client.get("/metrics").text)
        assert samples["koloda_connections"] == 1 and samples["koloda_tables"] == 1
        with client.websocket_connect(f"/ws/{made['id']}") as other:
            other.send_json({"type": "hello", "token": secret[1]})
            other.receive_json()
            mover = ws if seat == 0 else other
            mover.send_json({"type": "act", "v": 0, "action": frame["view"]["legal_actions"][0]})
            until(mover, lambda f: f["type"] == "event")
            mover.send_json({"type": "act", "v": 0, "action": 0})  # stale now: refused
            until(mover, lambda f: f["type"] == "error")
    samples = parse(client.get("/metrics").text)
    assert samples["koloda_actions_total"] == 1 and samples["koloda_connections"] == 0
    assert (
        samples["koloda_commit_seconds_count"] == 1
        and samples['koloda_commit_seconds_bucket{le="+Inf"}'] == 1
    )
    assert 0 < samples["koloda_commit_seconds_sum"] < 5
    buckets = [v for k, v in samples.items() if k.startswith("koloda_action_seconds_bucket")]
    assert buckets == sorted(buckets) and buckets[-1] == 1  # cumulative
    assert samples['koloda_refusals_total{channel="http",code="bad_json"}'] == 1
    assert samples['koloda_refusals_total{channel="ws",code="stale"}'] == 1
    assert samples["koloda_actions_per_second"] == pytest.approx(1 / 60)
    assert 10 * 2**20 < samples["process_resident_memory_bytes"] < 8 * 2**30  # this process's RSS
    assert client.get("/metrics").headers["content-type"].startswith("text/plain; version=0.0.4")


def test_healthz_answers_while_the_server_serves(client: TestClient) -> None:
    create(client, game="bank", players=2)
    answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.json()["status"] == "ok" and answer.json()["tables"] == 1
    assert client.get("/healthz?x=1").status_code == 400


def test_one_structured_line_per_table_event(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="koloda.web.events")
    hub(client).bot_delay = 3600
    made = create(client, game="bank", players=2, seats=[{}, {"open": True}])
    client.post(f"/api/tables/{made['id']}/join", json={"seat": 1})
    secret = tokens(client, made["id"])
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": secret[0]})
        frame = ws.receive_json()
        if frame["view"]["current_player"] == 0:
            ws.send_json({"type": "act", "v": 0, "action": frame["view"]["legal_actions"][0]})
            until(ws, lambda f: f["type"] == "event")
    lines = [record.__dict__["fields"] for record in caplog.records if record.name == "koloda.web.events"]
    kinds = [line["event"] for line in lines]
    assert kinds[:3] == ["create", "join", "sit"]
    assert lines[0] == {"event": "create", "table": 1, "game": "bank", "players": 2, "version": 0}
    if "act" in kinds:
        act = lines[kinds.index("act")]
        assert (act["table"], act["seat"], act["version"], act["by"]) == (1, 0, 1, "person")
        assert act["latency_ms"] >= act["commit_ms"] > 0
    formatted = json.loads(JsonFormatter().format(caplog.records[-1]))
    assert formatted["logger"] == "koloda.web.events" and formatted["table"] == 1 and "time" in formatted


def test_a_flood_of_one_kind_of_line_is_throttled_and_the_rest_counted() -> None:
    clock = [0.0]
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(LogThrottle(lines=3, window=10, clock=lambda: clock[0]))
    log = logging.getLogger("koloda.test.flood")
    log.addHandler(handler)
    log.propagate = False
    try:
        for n in range(10_000):
            log.warning("bad request from %s", f"10.0.0.{n % 250}")
        log.warning("another kind")
        events = logging.getLogger("koloda.web.events")  # table events are never throttled
        events.addHandler(handler)
        events.propagate, level = False, events.level
        events.setLevel(logging.INFO)
        for n in range(10):
            events.info("act", extra={"fields": {"event": "act", "version": n}})
        events.removeHandler(handler)
        events.propagate = True
        events.setLevel(level)
        clock[0] = 4.0  # one more of the flooded kind is allowed after 10 / 3 s
        log.warning("bad request from %s", "10.0.0.1")
    finally:
        log.removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    flooded = [line for line in lines if line.get("message", "").startswith("bad request")]
    assert len(flooded) == 4 and flooded[-1]["suppressed"] == 9997
    assert sum(1 for line in lines if line.get("event") == "act") == 10
    assert any(line.get("message") == "another kind" for line in lines)


def test_serve_logs_json_lines_and_exposes_metrics(tmp_path: Any) -> None:
    server = Server(tmp_path / "web.sqlite3", bot_delay=0.0)
    server.start()
    try:
        made = httpx.post(
            server.url + "/api/tables", json={"game": "bank", "players": 2, "seats": [{"kind": "bot"}] * 2}
        )
        assert made.status_code == 201
        deadline = 200
        while deadline and parse(httpx.get(server.url + "/metrics").text)["koloda_actions_total"] < 5:
            deadline -= 1
            httpx.get(server.url + "/healthz")
        assert deadline
        samples = parse(httpx.get(server.url + "/metrics").text)
        # the loop's lag is sampled every 50 ms and koloda serve times the collector's pauses
        assert samples["koloda_loop_lag_seconds_count"] > 0 and samples["koloda_gc_pause_seconds_count"] > 0
        lags = samples["koloda_loop_lag_seconds_count"]
        assert samples['koloda_loop_lag_seconds_bucket{le="+Inf"}'] == lags
        # info lines are written in blocks, within FLUSH_SECONDS: wait for them before the kill (a bound
        # only: a busy machine may be slow to write them, and nothing here is timed)
        waited = time.monotonic()
        while time.monotonic() - waited < 60:
            if sum(line.get("event") == "act" for line in server.lines()) >= 5:
                break
            time.sleep(0.05)
    finally:
        server.kill()
    lines = server.lines()
    acts = [line for line in lines if line.get("event") == "act"]
    assert (
        len(acts) >= 5
        and acts[0]["by"] == "bot"
        and {"table", "seat", "version", "latency_ms"} <= set(acts[0])
    )
    assert [line["version"] for line in acts] == list(range(1, len(acts) + 1))
    assert all(line["level"] in ("info", "warning") for line in lines)


def test_logging_config_throttles_every_handler() -> None:
    settings = config("info", Limits(log_lines=7, log_window=3))
    assert settings["filters"]["throttle"]["lines"] == 7 and settings["handlers"]["stderr"]["filters"] == [
        "throttle"
    ]
    assert settings["loggers"]["koloda"]["level"] == "INFO"


def test_the_pages_run_under_the_content_security_policy(server: Server, browser: Any) -> None:
    """No page's script or style is refused by the policy: the lobby, a table, the score sheet with its
    chart (whose legend once had an inline style), banki."""
    assert CHROMIUM
    made = httpx.post(server.url + "/api/sheets", json={"players": ["Аня", "Боря", "Вера"]}).json()
    sheet = made["id"]
    deal = {"declarer": "Аня", "bid": 100, "points": {"Аня": 60, "Боря": 40, "Вера": 20}}
    assert (
        httpx.post(f"{server.url}/api/sheets/{sheet}/deals", json=deal, headers=editing(made)).status_code
        == 200
    )
    table = httpx.post(server.url + "/api/tables", json={"game": "bank", "players": 2}).json()["id"]
    context = browser.new_context()
    page = context.new_page()
    messages: list[Any] = []
    errors: list[str] = []
    page.on("console", lambda message: messages.append(message))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        for path, ready in [
            ("/", "#seats .seat-row"),
            (f"/table/{table}", "body[data-v]"),
            (f"/sheet/{sheet}", ".legend .swatch.seat-2"),
            ("/banki", "#lang"),
        ]:
            page.goto(server.url + path)
            page.wait_for_selector(ready, state="attached")
            if path.startswith("/sheet/"):  # the class gives the colour the inline style gave (the mark's)
                swatch = "getComputedStyle(document.querySelector('.swatch.seat-1')).color"
                assert page.evaluate(swatch) == "rgb(214, 39, 40)"
    finally:
        context.close()
    assert not csp_violations(messages) and not errors, (csp_violations(messages), errors)


def test_the_end_of_a_game_is_a_line_of_its_own(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="koloda.web.events")
    bots = [{"kind": "bot", "level": "easy"}] * 2
    made = create(client, game="bank", players=2, seed=3, options={"target": 20}, seats=bots)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello"})
        over = until(ws, lambda f: f["table"]["over"])

    def events() -> list[dict[str, Any]]:
        return [record.__dict__["fields"] for record in caplog.records if record.name == "koloda.web.events"]

    deadline = time.monotonic() + 60  # the line follows the frame: the bot's task writes it after sending
    while events()[-1]["event"] != "over" and time.monotonic() < deadline:
        time.sleep(0.01)
    lines = events()
    acts = [line for line in lines if line["event"] == "act"]
    assert [line["version"] for line in acts] == list(range(1, over["v"] + 1))  # one line per action
    assert lines[-1] == {"event": "over", "table": made["id"], "version": over["v"]}
    assert [line["event"] for line in lines].count("over") == 1
