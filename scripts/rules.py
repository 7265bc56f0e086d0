"""docs/rules/<game>.md from the one source of each game's rules, src/koloda/rules/<game>.en.md (issue 31).

    .venv/bin/python scripts/rules.py build    # write docs/rules/<game>.md for every game
    .venv/bin/python scripts/rules.py check    # what tests/learn asserts: every file is what build writes

The source holds the document and the pages at once (koloda.rules: ``[[...]]`` for the document only,
``{{...}}`` and ```cards blocks for the page only); edit the source, never docs/rules, and build.
"""

from __future__ import annotations

import sys
from pathlib import Path

from koloda import rules

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "rules"


def stale() -> list[str]:
    """The documents that differ from what their source makes."""
    return [
        game
        for game in rules.GAMES
        if (DOCS / f"{game}.md").read_text(encoding="utf-8") != rules.for_docs(game)
    ]


def main(argv: list[str]) -> int:
    if argv == ["build"]:
        for game in rules.GAMES:
            (DOCS / f"{game}.md").write_text(rules.for_docs(game), encoding="utf-8")
        return 0
    if argv == ["check"]:
        found = stale()
        for game in found:
            print(f"docs/rules/{game}.md is not what its source makes: run scripts/rules.py build")
        return 1 if found else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
