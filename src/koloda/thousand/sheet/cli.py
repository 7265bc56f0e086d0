"""``koloda thousand score`` and ``koloda thousand sheet``: the score of a game played with real cards.

These commands use the score engine (:mod:`koloda.thousand.scoring`) and the score sheet, not the card
game; :class:`koloda.thousand.spec.ThousandSpec` adds them to ``koloda thousand``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from koloda.i18n import LANGS, Lang
from koloda.options import add_option_arguments
from koloda.store.paths import add_db_argument
from koloda.thousand.options import ThousandOptions
from koloda.thousand.sheet.scorefile import load_score_file
from koloda.thousand.sheet.table import json_result, markdown_table, winner_line


def add_commands(commands: Any) -> None:
    """Add ``score`` and ``sheet`` to ``koloda thousand``."""
    score = commands.add_parser("score", help="score a JSON Lines score file and print the table")
    score.add_argument("file", type=Path, help="the score file (docs/thousand-score-file.md)")
    _add_options_arguments(score)
    score.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    score.set_defaults(func=_score)

    sheet = commands.add_parser("sheet", help="keep the score of a game played with real cards")
    _add_options_arguments(sheet)
    sheet.add_argument(
        "--resume", action="store_true", help="continue the last unfinished sheet (terminal or browser)"
    )
    sheet.add_argument("--sheet", type=int, metavar="ID", help="continue this sheet (its number)")
    add_db_argument(sheet)
    sheet.set_defaults(func=_sheet)


def _add_options_arguments(parser: argparse.ArgumentParser) -> None:
    add_option_arguments(parser, ThousandOptions, preset=None)  # None: the file's preset, else the default
    parser.add_argument("--lang", choices=LANGS, default="ru", help="language of the table (default ru)")


def _score(args: argparse.Namespace) -> int:
    game = load_score_file(args.file, preset=args.preset, assignments=args.option)
    lang: Lang = args.lang
    if args.json:
        print(json.dumps(json_result(game, lang), ensure_ascii=False))
        return 0
    print(markdown_table(game, lang, marks=True))
    line = winner_line(game, lang)
    if line:
        print(line)
    return 0


def _sheet(args: argparse.Namespace) -> int:
    from koloda.store.open import open_store
    from koloda.thousand.sheet.terminal import run_sheet

    options = None
    if args.preset is not None or args.option:
        options = ThousandOptions.preset(args.preset or "default").with_assignments(args.option)
    with open_store(args.db) as store:
        return run_sheet(store, options=options, resume=args.resume, sheet_id=args.sheet, lang=args.lang)
