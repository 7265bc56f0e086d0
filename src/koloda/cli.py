"""The ``koloda`` command.

Every registered game (:mod:`koloda.registry`) gets ``koloda <game> simulate`` and ``koloda <game>
replay`` from here, and adds its own commands (``play``...) through its spec; the yard game's referee
(``banki``), tournaments and the web server add theirs. Bad input of any kind is one line on stderr and
exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from koloda import __version__, completion, console, registry, verify
from koloda.banki import cli as banki_cli
from koloda.bots import tournament
from koloda.errors import KolodaError, RecordError, RequestError
from koloda.game import GameRecord, GameSpec
from koloda.i18n import LANGS
from koloda.lessons import GAMES as LESSON_GAMES
from koloda.lessons import cli as lessons_cli
from koloda.options import add_option_arguments
from koloda.simulate import match_lines, simulate_matches
from koloda.web import cli as web_cli


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="koloda", description="Play, score and study Bank, Thousand and banki."
    )
    parser.add_argument("--version", action="version", version=f"koloda {__version__}")
    parser.set_defaults(func=None)  # every command sets its own
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for spec in registry.games():
        add_game_commands(subparsers, spec)
    banki_cli.register(subparsers)
    tournament.register(subparsers)
    verify.register(subparsers)
    web_cli.register(subparsers)
    completion.register(subparsers)
    return parser


def add_game_commands(subparsers: Any, spec: GameSpec) -> None:
    """``koloda <game>`` with ``simulate``, ``replay`` and the game's own commands."""
    title = spec.titles["en"]
    parser = subparsers.add_parser(spec.name, help=f"{title} ({spec.titles['ru']})", description=title)
    commands = parser.add_subparsers(dest=f"{spec.name}_command", metavar="COMMAND", required=True)

    noun = spec.match_name
    simulate = commands.add_parser(
        "simulate", help=f"bots play whole {noun}, or random bots single deals; prints figures"
    )
    add_option_arguments(simulate, spec.options_class)
    counts = ", ".join(map(str, spec.player_counts))
    simulate.add_argument(
        "--players", type=int, default=spec.default_players, help=f"{counts} (default {spec.default_players})"
    )
    simulate.add_argument(
        "--bots",
        help=f"bot levels or specs, one per seat or one for all (easy, medium, hard, random...): {noun}",
    )
    simulate.add_argument(
        f"--{noun}", type=int, dest="matches", help=f"how many whole {noun} the bots play (default 10)"
    )
    simulate.add_argument("--max-deals", type=int, default=500, help=f"deals at most in one of the {noun}")
    simulate.add_argument(
        "--records", type=Path, help=f"a directory to write the record of each of the {noun}"
    )
    simulate.add_argument("--deals", type=int, help="without --bots: random bots play this many deals (1000)")
    simulate.add_argument("--seed", type=int, default=0, help="the first seed (default 0)")
    simulate.add_argument("--lang", choices=LANGS, default="ru", help="language (default ru)")
    simulate.add_argument("--json", action="store_true", help="print one JSON object")
    simulate.set_defaults(func=lambda args: _simulate(args, spec))

    replay = commands.add_parser("replay", help="replay a game record and print the result")
    replay.add_argument("file", type=Path, help="a game record (JSON, docs/api.md)")
    replay.add_argument("--lang", choices=LANGS, default="ru", help="language (default ru)")
    replay.set_defaults(func=lambda args: _replay(args, spec))

    spec.add_commands(commands)
    if spec.name in LESSON_GAMES:  # koloda <game> learn (issue 31, docs/learn.md)
        lessons_cli.add_command(commands, spec)


def _simulate(args: argparse.Namespace, spec: GameSpec) -> int:
    if args.seed < 0:
        raise RequestError(f"--seed must not be negative, not {args.seed}", field="seed")
    options = spec.options(args.preset, args.option)
    noun = spec.match_name
    if args.bots is not None or args.matches is not None:
        if args.deals is not None:
            raise RequestError(
                f"--deals is for random single deals: with --bots give --{noun}", field="deals"
            )
        bots = [b.strip() for b in (args.bots or "random").split(",") if b.strip()]
        figures = simulate_matches(
            spec,
            options,
            players=args.players,
            bots=bots,
            matches=10 if args.matches is None else args.matches,
            seed=args.seed,
            max_deals=args.max_deals,
            records=args.records,
            progress=True,  # on stderr, and only when it is a terminal: --json's stdout stays one object
        )
        if args.json:
            print(json.dumps(figures, ensure_ascii=False))
            return 0
        for line in match_lines(spec, figures, args.lang):
            print(line)
        return 0
    if args.records is not None:
        raise RequestError(f"--records writes whole {noun}: give --bots", field="records")
    deals = 1000 if args.deals is None else args.deals
    figures = spec.simulate(
        options, players=args.players, deals=deals, seed=args.seed, progress=not args.json
    )
    if args.json:
        print(json.dumps(figures))
        return 0
    for line in spec.simulate_lines(figures):
        print(line)
    return 0


def _replay(args: argparse.Namespace, spec: GameSpec) -> int:
    record = GameRecord.load(args.file, game=spec.name)
    try:
        state = spec.replay(record)
    except KolodaError as exc:  # bad options, players or actions: say which file holds them
        raise RecordError(f"{args.file}: {exc}") from None
    print(spec.replay_summary(state, args.lang))
    return 0


def one_line(text: str) -> str:
    """A message on one line: control characters it quotes from the input are shown escaped.

    >>> print(one_line("unknown key '\\r'"))
    unknown key '\\r'
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def main(argv: Sequence[str] | None = None) -> int:
    console.fit_streams()  # a terminal without suits or Cyrillic gets stand-ins, not UnicodeEncodeError
    parser = build_parser()
    completion.complete(parser)  # the shell asking for completions (koloda completion): answered, exit
    args = parser.parse_args(argv)
    func = args.func
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except KolodaError as exc:  # bad input: one clear line, never a traceback
        print(f"koloda: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
