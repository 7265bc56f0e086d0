"""``koloda serve``: start the web app (lobby, tables, score sheet) on this machine."""

from __future__ import annotations

import argparse

from koloda.errors import RequestError
from koloda.store.paths import add_db_argument


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
        "--bot-workers",
        type=int,
        default=None,
        help="processes the bots think in (default: one per core but one, at least one)",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        default=None,
        help="one node of many sharing --db: events and bot leases through this Redis server"
        " (redis://127.0.0.1:6379/0; needs koloda[cluster]; docs/deploy.md)",
    )
    parser.set_defaults(func=serve)


def serve(args: argparse.Namespace) -> int:
    """Open the store, print the address and run the server until interrupted."""
    import uvicorn

    from koloda.store.open import open_store
    from koloda.web.app import create_app

    if not 0 <= args.port <= 65535:
        raise RequestError(f"bad port {args.port}: expected 0-65535", field="port")
    if args.bot_delay < 0:
        raise RequestError(f"bad --bot-delay {args.bot_delay}: expected 0 or more seconds", field="bot_delay")
    if args.bot_workers is not None and args.bot_workers < 0:
        raise RequestError(f"bad --bot-workers {args.bot_workers}: expected 0 or more", field="bot_workers")
    if args.redis is not None and not args.redis.startswith(("redis://", "rediss://", "unix://")):
        raise RequestError(f"bad --redis {args.redis!r}: expected a redis:// URL", field="redis")
    store = open_store(args.db)
    app = create_app(store, bot_delay=args.bot_delay, bot_workers=args.bot_workers, redis=args.redis)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(
        f"koloda: serving on http://{host}:{args.port}/ (database {store.location}); Ctrl+C stops", flush=True
    )
    uvicorn.run(
        app, host=args.host, port=args.port, log_level="warning", ws="websockets-sansio", ws_max_size=65_536
    )
    return 0
