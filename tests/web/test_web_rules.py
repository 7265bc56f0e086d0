"""The browser's copy of the rules (koloda/web/static/rules-*.js), which keeps score and referees while the
phone is offline, answers every case of the project's scoring and referee tests as the Python engines do:
the scores and every word of the sheet's table, each refusal in both languages, the referee's page after
every event (what it says, what comes next, the events offered). The cases are recorded from the tests as
they run (rules_recorder.py), so a new test's cases are held to it too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import rules_cases

from koloda import i18n
from koloda.web.offline import RULES_SCRIPTS, plural_table, rules_data

STATIC = Path(rules_cases.__file__).parents[2] / "src" / "koloda" / "web" / "static"


def both_pages_data() -> dict[str, Any]:
    """The rules' data of the sheet page and the referee page together (the runner uses both)."""
    sheet, banki = rules_data("sheet.html"), rules_data("banki.html")
    words = {lang: {**sheet["words"][lang], **banki["words"][lang]} for lang in i18n.LANGS}
    return {**sheet, **banki, "words": words}


def differences(python: list[Any], browser: list[Any], cases: list[Any], kind: str) -> list[str]:
    """The first cases whose answers differ, each with the step and both answers."""
    out = []
    for index, (ours, theirs) in enumerate(zip(python, browser, strict=True)):
        if ours != theirs:
            steps = cases[index].get("steps") if isinstance(cases[index], dict) else None
            if isinstance(ours, list) and steps is not None:
                at = next(i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b)
                step = steps[at] if at < len(steps) else "the page at the end"
                out.append(f"{kind} {index}, step {at} {step}:\n  python {ours[at]}\n  browser {theirs[at]}")
            else:
                out.append(f"{kind} {index} {cases[index]}:\n  python {ours}\n  browser {theirs}")
        if len(out) == 3:
            break
    return out


@pytest.mark.timeout(1200)  # it runs the scoring and referee tests once more (2 minutes on a busy machine)
def test_the_browsers_rules_answer_every_recorded_case_as_the_engines_do(
    browser: Any, tmp_path: Path
) -> None:
    cases = rules_cases.collect(tmp_path / "cases.json")
    steps = {kind: sum(len(session["steps"]) for session in cases[kind]) for kind in ("books", "games")}
    # the recorder saw the tests (the seed's deals, the rule scenarios, the property tests' random deals)
    assert steps["books"] > 1000 and len(cases["lines"]) > 100 and steps["games"] > 1000, steps
    assert cases["skipped"] == {}, cases["skipped"]  # every case a test made could be carried to the browser
    cases["names"] = list(rules_cases.NAMES)
    cases["drawn"] = [rules_cases.drawn(session["state"]) for session in cases["games"]]
    page = browser.new_page()
    try:
        page.set_content("<!doctype html><title>rules</title>")
        for script in RULES_SCRIPTS:
            page.add_script_tag(path=str(STATIC / script))
        page.add_script_tag(path=str(Path(__file__).parent / "rules_runner.js"))
        theirs = page.evaluate("([data, cases]) => runCases(data, cases)", [both_pages_data(), cases])
    finally:
        page.close()
    ours = rules_cases.answers(cases)
    for kind in ("books", "lines", "games"):
        assert len(ours[kind]) == len(theirs[kind]) == len(cases[kind])
        assert ours[kind] == theirs[kind], "\n".join(differences(ours[kind], theirs[kind], cases[kind], kind))


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_plural_table_gives_every_count_its_form(lang: i18n.Lang) -> None:
    """The pages choose a plural form by a table of the counts 0 to 199 (koloda.web.offline.plural_table):
    any other count takes the form of 100 + count mod 100, which is what the catalog's formula gives."""
    table = plural_table(lang)
    for n in range(-2000, 20000):
        assert table[n if 0 <= n < 200 else 100 + n % 100] == i18n.plural_form(lang, n), n
