"""The one translation catalog (koloda.i18n, docs/architecture.md, "Text and languages"): every key the
code and the pages use has a text in both languages, with the same parameters and every plural form; the
compiled catalog is the one the .po files give; and the texts a person reads come from it, not from string
literals."""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog

from koloda.errors import IllegalActionError, NotationError, OptionsError
from koloda.i18n import LANGS, Msg, known, plural_forms, say, template, words

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "koloda"
CYRILLIC = re.compile("[А-Яа-яЁё]")


def tool() -> ModuleType:
    """scripts/i18n.py, the catalog's tool (Babel), as a module."""
    spec = importlib.util.spec_from_file_location("koloda_i18n_tool", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_every_key_has_both_languages_the_same_parameters_every_plural_form_and_is_compiled() -> None:
    problems = list(tool().problems())
    assert not problems, "\n".join(problems)


def test_the_checks_find_a_missing_translation_other_parameters_and_missing_plural_forms() -> None:
    checks = tool()
    english, russian = Catalog(locale="en"), Catalog(locale="ru")
    english.add("demo.empty", "empty")
    russian.add("demo.empty", "")
    english.add("demo.params", "{name} won {points}")
    russian.add("demo.params", "{name} выиграл")
    english.add(("demo.plural", "demo.plural"), ("{n} deal", "{n} deals"))
    russian.add(("demo.plural", "demo.plural"), ("{n} кон", "{n} кона"))
    english.add("demo.n", "{n} deals")
    russian.add("demo.n", "{n} конов")
    found = [
        line
        for message in russian
        if message.id
        for line in checks._entry_problems("ru", russian, message, english)
    ]
    assert any("'demo.empty' has an empty translation" in line for line in found), found
    assert any("'demo.params' form 0 has parameters ['name']" in line for line in found), found
    assert any("'demo.plural' has 2 plural forms, not 3" in line for line in found), found
    assert any("'demo.n' uses {n}" in line for line in found), found


def test_the_compiled_catalog_is_checked_against_the_po_files(tmp_path: Path) -> None:
    checks = tool()
    catalog = checks.read("ru")
    catalog.add("demo.new", "новое")
    assert checks.compiled(catalog) != (checks.LOCALE / "ru" / "LC_MESSAGES" / "koloda.mo").read_bytes()


@pytest.mark.parametrize(
    ("n", "ru", "en"),
    [
        (1, "1 игрок", "1 player"),
        (2, "2 игрока", "2 players"),
        (4, "4 игрока", "4 players"),
        (5, "5 игроков", "5 players"),
        (11, "11 игроков", "11 players"),
        (21, "21 игрок", "21 players"),
        (22, "22 игрока", "22 players"),
        (112, "112 игроков", "112 players"),
    ],
)
def test_russian_says_its_three_plural_forms(n: int, ru: str, en: str) -> None:
    assert plural_forms("ru") == 3 and plural_forms("en") == 2
    assert say("ru", "bank.cli.players", n=n) == ru and say("en", "bank.cli.players", n=n) == en


def test_a_message_says_itself_in_both_languages_with_its_parameters_in_the_same_language() -> None:
    reason = Msg("thousand.scoring.marriage_twice", value=60)
    wrapped = Msg("sheet.deal_refused", reason=reason)
    assert str(wrapped) == (
        "Deal not recorded: the marriage 60 is declared twice in one deal (there is one of each)."
        " Enter it again."
    )
    assert (
        wrapped.text("ru")
        == "Кон не записан: марьяж 60 объявлен в одном коне дважды (он в колоде один). Введите его снова."
    )
    assert say("ru", "banki.cant_tag_rank", name="Аня", rank=Msg("banki.rank.marshal")).endswith(
        "маршалов не салят вообще"
    )
    assert not known("no.such.key") and say("ru", "no.such.key") == "no.such.key"


@pytest.mark.parametrize("kind", [NotationError, IllegalActionError, OptionsError])
def test_every_error_of_the_family_says_itself_in_english_and_russian(kind: type) -> None:
    err = kind(Msg("thousand.why.follow", seat=1, suit="♥"))
    assert str(err) == "seat 1 must follow suit ♥ (rule G11)" and err.translated
    assert err.text("ru") == "место 1 должно ходить в масть ♥ (правило G11)" and err.text("en") == str(err)
    plain = kind("a message with no translation")
    assert not plain.translated and plain.text("ru") == "a message with no translation"


def test_the_engines_refuse_in_both_languages() -> None:
    from koloda.bank import new_game as new_bank
    from koloda.thousand import new_game as new_thousand

    bank = new_bank(players=2, seed=5, scope="deal")
    with pytest.raises(IllegalActionError) as illegal:
        bank.apply(-1)
    assert str(illegal.value).startswith("illegal action -1: not a Bank action id")
    assert illegal.value.text("ru").startswith("ход -1 невозможен: это не номер хода Банка")
    with pytest.raises(NotationError) as notation:
        new_thousand(players=3, seed=1).parse_action("что-то")
    assert "bad action 'что-то'" in str(notation.value)
    assert notation.value.text("ru").startswith("ход «что-то» не понят")
    with pytest.raises(OptionsError) as options:
        new_bank(players=5, seed=1)
    assert str(options.value) == "Bank is for 2-4 players, not 5"
    assert options.value.text("ru") == "в Банк играют от 2 до 4 игроков, а не 5"


# -- the texts a person reads come from the catalog ---------------------------------------------------

#: Cyrillic string literals that are not text but notation or data, by file: what a person may type (input
#: aliases of moves, events, commands and answers), the Russian letters of cards, the names that the
#: Russian verb's gender is guessed from, and the alphabet a terminal without Cyrillic gets in Latin letters.
#: Anything else in Russian belongs in the catalog.
NOTATION: dict[str, set[str]] = {
    "console.py": {"абвгдеёжзийклмнопрстуфхцчшщъыьэюя"},
    "bank/actions.py": {"взять", "беру", "брать", "козырь", "пас", "хватит"},
    "banki/cli.py": {"отмена", "состояние", "помощь", "выход"},
    "banki/events.py": {
        *("пинок", "считалка", "выпал", "попал", "мимо", "поставил", "вернулся", "принёс", "принес"),
        *("осалил", "сбил", "нарушение", "крест", "выхватил", "уберёг", "уберег", "последний", "приказ"),
        *("копьём", "копьем", "куча", "поле", "палкой", "рукой", "ногой", "голова", "туловище", "рука"),
        *("нога", "пятка", "чужая", "линия", "поднял", "пришёл", "пришел", "ушёл", "ушел"),
    },
    "cards.py": {"В", "Д", "К", "Т", "ПКБЧ"},
    "term.py": {"выход", "выйти", "помощь"},
    "thousand/actions.py": {"пас", "бомба"},
    "thousand/scoring.py": {"а", "я"},  # the endings of female names, and the list of male names below
    "thousand/sheet/terminal.py": {"отмена", "отменить", "экспорт", "д", "да", "н", "нет", "ж", "м"},
}
MALE_NAMES = re.compile(r"^[а-яё ]+$")  # thousand/scoring.py's _MALE_NAMES: names, lower case


def cyrillic_literals(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module with Cyrillic letters, docstrings (and their doctests) aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and CYRILLIC.search(node.value)
    ]


def test_no_russian_text_in_the_code_outside_the_catalog() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        for line, value in cyrillic_literals(path):
            allowed = NOTATION.get(name, set())
            if value in allowed or (name == "thousand/scoring.py" and MALE_NAMES.match(value)):
                continue
            found.append(f"koloda/{name}:{line}: {value!r}")
    assert not found, "Russian text outside the catalog (koloda/locale):\n" + "\n".join(found)


def test_the_allowed_russian_literals_are_still_there() -> None:
    """The list above is kept short and true: every word it allows is still in its file."""
    for name, allowed in NOTATION.items():
        values = {value for _, value in cyrillic_literals(PACKAGE / name)}
        assert allowed <= values, (name, allowed - values)


def test_the_pages_and_their_scripts_hold_no_words() -> None:
    static = PACKAGE / "web" / "static"
    texts = {
        path.name: path.read_text(encoding="utf-8") for path in [*static.glob("*.js"), *static.glob("*.html")]
    }
    for name, text in texts.items():
        assert not CYRILLIC.search(text), f"{name} has Russian text: the words come from the server"
    literals = {
        literal
        for name, text in texts.items()
        if name.endswith(".js")
        for literal in re.findall(r'"((?:[^"\\\n]|\\.)*)"|`([^`]*)`', text)
        for literal in literal
        if literal
    }
    copies = sorted(
        (lang, key, text)
        for lang in LANGS
        for key, text in words(lang).items()
        if len(text) > 3 and " " in text and any(text in literal for literal in literals)
    )
    assert not copies, f"the scripts copy the catalog's words: {copies}"
    assert "WORDS = {" not in texts["common.js"]


def test_every_browser_template_is_plain() -> None:
    for lang in LANGS:
        for key, text in words(lang).items():
            assert template(lang, key) == text
            assert not re.search(r"\{[^}]*[!:.\[]", text), (lang, key, text)
