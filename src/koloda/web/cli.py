"""``koloda serve``: start the web app (lobby, tables, score sheet) on this machine."""

from __future__ import annotations

import argparse

from koloda.errors import RequestError
from koloda.store.paths import add_db_argument

LOG_LEVELS = ("debug", "info", "warning", "error")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``koloda serve``."""
    parser = subparsers.add_parser(
        "serve",
        help="play Bank and Thousand in the browser; keep a Thousand score sheet",
        description="Start the web app. Everything is stored in the one store: a SQLite file in the data"
        " directory (KOLODA_DATA_DIR, else the user's), where koloda thousand sheet and koloda banki keep"
        " theirs, unless --db names another database.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    add_db_argument(parser)
    parser.add_argument(
        "--bot-delay", type=float, default=0.6, help="seconds a bot waits before it moves (default 0.6)"
    )
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="change one limit on what a client may ask, e.g. messages=200 (repeatable; docs/web.md, Limits)",
    )
    parser.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        default="info",
        help="info: a JSON line per table event and every warning; warning: the warnings only (default info)",
    )
    parser.set_defaults(func=serve)


def serve(args: argparse.Namespace) -> int:
    """Open the store, print the address and run the server until interrupted."""
    import uvicorn

    from koloda.store.open import open_store
    from koloda.web import logs
    from koloda.web.app import create_app
    from koloda.web.limits import Limits

    if not 0 <= args.port <= 65535:
        raise RequestError(f"bad port {args.port}: expected 0-65535", field="port")
    if args.bot_delay < 0:
        raise RequestError(f"bad --bot-delay {args.bot_delay}: expected 0 or more seconds", field="bot_delay")
    limits = Limits().with_assignments(args.limit)
    store = open_store(args.db)
    app = create_app(store, bot_delay=args.bot_delay, limits=limits)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(
        f"koloda: serving on http://{host}:{args.port}/ (database {store.location}); Ctrl+C stops", flush=True
    )
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_config=logs.config(args.log_level, limits),
        access_log=False,
        ws="websockets-sansio",
        # a message past Limits.message is refused with a frame; one 16 times larger is not even read
        # (the protocol closes the socket with 1009)
        ws_max_size=16 * limits.message,
    )
    return 0
