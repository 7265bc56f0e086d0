"""The translation catalog's tools (Babel; docs/architecture.md, "Text and languages"): find the keys the
code uses, bring the ``.po`` files up to date with them, compile them, and check them.

    .venv/bin/python scripts/i18n.py update    # add the keys the code uses (empty), drop unused ones
    .venv/bin/python scripts/i18n.py compile   # .po -> .mo, what koloda reads at run time
    .venv/bin/python scripts/i18n.py check     # what tests/i18n asserts: complete, consistent, compiled

Keys are found with Babel's Python extractor (``pybabel extract`` with the same keywords works too: the
message id is the 2nd argument of ``say``, the 1st of ``Msg`` and ``N_``) and, in the web pages'
JavaScript and HTML, as quoted strings that start with a browser prefix (koloda.i18n.BROWSER).
"""

from __future__ import annotations

import io
import re
import string
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "koloda"
LOCALE = PACKAGE / "locale"
STATIC = PACKAGE / "web" / "static"
DOMAIN = "koloda"
LANGS = ("en", "ru")
KEYWORDS = {"say": (2,), "Msg": (1,), "N_": (1,)}
BROWSER = ("web.", "bank.bonus.", "option.")  # koloda.i18n.BROWSER: the keys the pages use
_PREFIXES = "|".join(map(re.escape, BROWSER))
WEB_KEY = re.compile(rf"""["'`]((?:{_PREFIXES})[\w.-]+)["'`]""")
WIDTH = 110


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


def write(catalog: Catalog, lang: str) -> None:
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, sort_output=True, omit_header=False, no_location=True)
    po_path(lang).write_bytes(out.getvalue())


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


# -- the keys the code uses ----------------------------------------------------------------------------


def used_keys() -> dict[str, str]:
    """Every key the code uses, with one place that uses it."""
    found: dict[str, str] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(PACKAGE), [("**.py", "python")], keywords=KEYWORDS, comment_tags=()
    ):
        key = message[0] if isinstance(message, tuple) else message
        if key:
            found.setdefault(key, f"koloda/{filename}:{lineno}")
    for path in sorted([*STATIC.glob("*.js"), *STATIC.glob("*.html")]):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for key in WEB_KEY.findall(line):
                found.setdefault(key, f"{path.relative_to(ROOT)}:{number}")
    return found


# -- checks ------------------------------------------------------------------------------------------------


def fields(template: str) -> set[str]:
    """The names of a ``str.format`` template's parameters."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, (list, tuple)) else [message.string or ""]


def problems() -> Iterator[str]:
    """Everything wrong with the catalog, one line each (none: the catalog is complete and compiled)."""
    catalogs = {lang: read(lang) for lang in LANGS}
    used = used_keys()
    english = catalogs["en"]
    for lang, catalog in catalogs.items():
        keys = {
            message.id if isinstance(message.id, str) else message.id[0] for message in catalog if message.id
        }
        for key in sorted(set(used) - keys):
            yield f"{lang}: no entry for {key!r} (used at {used[key]})"
        for key in sorted(keys - set(used)):
            yield f"{lang}: {key!r} is used nowhere"
        for message in catalog:
            if not message.id:
                continue
            yield from _entry_problems(lang, catalog, message, english)
        if mo_path(lang).read_bytes() != compiled(catalog):
            yield f"{lang}: {mo_path(lang).relative_to(ROOT)} is stale: run scripts/i18n.py compile"


def _entry_problems(lang: str, catalog: Catalog, message: Message, english: Catalog) -> Iterable[str]:
    key = message.id if isinstance(message.id, str) else message.id[0]
    plural = isinstance(message.id, (list, tuple))
    texts = forms(message)
    if message.fuzzy:
        yield f"{lang}: {key!r} is marked fuzzy"
    if any(not text.strip() for text in texts):
        yield f"{lang}: {key!r} has an empty translation"
    if plural and len(texts) != catalog.num_plurals:
        yield f"{lang}: {key!r} has {len(texts)} plural forms, not {catalog.num_plurals}"
    try:
        names = [fields(text) for text in texts]
    except ValueError as exc:
        yield f"{lang}: {key!r} is not a valid template: {exc}"
        return
    for form in names:
        if plural and "n" not in form:
            yield f"{lang}: {key!r} is plural, so every form says {{n}}"
        if not plural and "n" in form:
            yield f"{lang}: {key!r} uses {{n}}, which only plural messages use"
    reference = english.get(message.id)
    if reference is None:
        if lang != "en":
            yield f"{lang}: {key!r} has no English entry"
        return
    if isinstance(reference.id, (list, tuple)) != plural:
        yield f"{lang}: {key!r} is {'plural' if plural else 'singular'} but not in English"
    expected = set().union(*(fields(text) for text in forms(reference)))
    for number, found in enumerate(names):
        if found != expected:
            yield f"{lang}: {key!r} form {number} has parameters {sorted(found)}; English: {sorted(expected)}"
    if key.startswith(BROWSER):
        for text in texts:
            if re.search(r"\{[^}]*[!:.\[]", text):
                yield f"{lang}: {key!r} goes to the browser, whose templates take plain {{name}} only"


# -- commands ----------------------------------------------------------------------------------------------


def update() -> None:
    """Add every used key missing from a .po file (empty, to be translated), and drop unused ones."""
    used = used_keys()
    for lang in LANGS:
        catalog = read(lang)
        keys = {
            message.id if isinstance(message.id, str) else message.id[0] for message in catalog if message.id
        }
        for key in sorted(set(used) - keys):
            catalog.add(key, "")
            print(f"{lang}: added {key} (used at {used[key]})")
        for message in list(catalog):
            key = message.id if isinstance(message.id, str) else message.id[0]
            if key and key not in used:
                catalog.delete(message.id)
                print(f"{lang}: dropped {key}")
        write(catalog, lang)


def compile_all() -> None:
    for lang in LANGS:
        mo_path(lang).write_bytes(compiled(read(lang)))


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        found = list(problems())
        for line in found:
            print(line)
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
