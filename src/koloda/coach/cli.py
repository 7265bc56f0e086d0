"""``koloda <game> analyse``: the coach on the command line (docs/analysis.md). A game adds the command
from its spec's ``add_commands`` with its own rater."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from koloda.coach import RaterFactory, analyse_record
from koloda.errors import KolodaError, RecordError, RequestError
from koloda.game import GameRecord, GameSpec
from koloda.i18n import LANGS


def add_command(commands: Any, spec: GameSpec, make_rater: RaterFactory) -> None:
    """Add ``koloda <game> analyse RECORD --seat N``."""
    parser = commands.add_parser(
        "analyse", help="rate every decision of one seat in a game record and show the better move"
    )
    parser.add_argument("file", type=Path, help="a game record (JSON, docs/api.md)")
    parser.add_argument("--seat", type=int, required=True, help="the seat whose decisions are rated (from 0)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the sampled worlds (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--lang", choices=LANGS, default="ru", help="language (default ru)")
    parser.set_defaults(func=lambda args: _analyse(args, spec, make_rater))


def _analyse(args: argparse.Namespace, spec: GameSpec, make_rater: RaterFactory) -> int:
    if args.seed < 0:
        raise RequestError(f"--seed must not be negative, not {args.seed}", field="seed")
    record = GameRecord.load(args.file, game=spec.name)
    try:
        options = spec.options_class.from_mapping(record.options)
        analysis = analyse_record(
            spec, record, args.seat, make_rater(options), seed=args.seed, progress=True, lang=args.lang
        )
    except RequestError:
        raise
    except KolodaError as exc:  # bad options or actions: say which file holds them
        raise RecordError(f"{args.file}: {exc}") from None
    if args.json:
        print(json.dumps(analysis.to_json(), ensure_ascii=False))
        return 0
    for line in analysis.lines(args.lang, lambda text: spec.action_words(spec.parse_action(text), args.lang)):
        print(line)
    return 0
