"""The ``koloda`` command. Each game adds its own subcommands from its ``cli`` module."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from koloda import __version__
from koloda.errors import KolodaError

#: Command name -> module with ``register(subparsers)``; the module's parsers set ``func``.
COMMANDS: dict[str, str] = {
    "bank": "koloda.bank.cli",
    "thousand": "koloda.thousand.cli",
    "banki": "koloda.banki.cli",
    "tournament": "koloda.tournament",
    "serve": "koloda.web.cli",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="koloda", description="Play, score and study Bank, Thousand and banki."
    )
    parser.add_argument("--version", action="version", version=f"koloda {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS.values():
        importlib.import_module(module).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except KolodaError as exc:  # bad input: a clear message, never a traceback
        print(f"koloda: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
