"""``koloda serve``: start the web app (lobby, tables, score sheet) on this machine."""

from __future__ import annotations

import argparse
import errno
import os
import socket

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
    """Take the port, open the store, print the address and run the server until interrupted.

    The port is taken first, so that a port in use is the one thing said ("port 8000 on 127.0.0.1 is in
    use"), before any address is printed; the server then runs on that very socket."""
    import gc

    import uvicorn

    from koloda.store.open import open_store
    from koloda.web import logs
    from koloda.web.app import create_app
    from koloda.web.limits import Limits
    from koloda.web.protocol import timed

    if not 0 <= args.port <= 65535:
        raise RequestError(f"bad port {args.port}: expected 0-65535", field="port")
    if args.bot_delay < 0:
        raise RequestError(f"bad --bot-delay {args.bot_delay}: expected 0 or more seconds", field="bot_delay")
    if args.bot_workers is not None and args.bot_workers < 0:
        raise RequestError(f"bad --bot-workers {args.bot_workers}: expected 0 or more", field="bot_workers")
    if args.redis is not None and not args.redis.startswith(("redis://", "rediss://", "unix://")):
        raise RequestError(f"bad --redis {args.redis!r}: expected a redis:// URL", field="redis")
    limits = Limits().with_assignments(args.limit)
    sock = listen(args.host, args.port)  # a port in use is said before anything else
    try:
        store = open_store(args.db)
        app = create_app(
            store, bot_delay=args.bot_delay, bot_workers=args.bot_workers, redis=args.redis, limits=limits
        )
        port = sock.getsockname()[1]
        host = f"[{args.host}]" if ":" in args.host else args.host
        print(
            f"koloda: serving on http://{host}:{port}/ (database {store.location}); Ctrl+C stops", flush=True
        )
        # The long-lived objects of 1,000 tables made each full collection of the garbage collector
        # stop the event loop for 0.2-0.4 s, about once a second: collect the young generations as
        # usual, the whole heap once in seventy million allocations (some minutes), and never the
        # objects of the start-up, frozen here (docs/performance.md, "The web app under load").
        gc.freeze()
        gc.set_threshold(700, 10, 10_000)
        app.state.telemetry.watch_collector()
        config = uvicorn.Config(
            app,
            host=args.host,
            port=port,
            log_config=logs.config(args.log_level, limits),
            access_log=False,
            http=timed(limits),  # a slow client's request has a time limit (uvicorn's has none)
            ws="websockets-sansio",
            # a message past Limits.message is refused with a frame; one 16 times larger is not even read
            # (the protocol closes the socket with 1009)
            ws_max_size=16 * limits.message,
        )
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
    return 0


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening; a port in use or an address this machine does not
    have is a RequestError that says so."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise RequestError(f"cannot listen on {host!r}: {exc}", field="host") from None
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    if os.name != "nt":  # a restarted server takes its port again at once (Windows' flag means sharing it)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise RequestError(
                f"port {port} on {host} is in use (another koloda serve?): stop that program or give"
                f" another --port",
                field="port",
            ) from None
        raise RequestError(f"cannot listen on {host} port {port}: {exc.strerror}", field="port") from None
    sock.set_inheritable(True)
    return sock
