"""The lessons (issue 31, koloda.lessons): every lesson played through (the right moves finish it, every wrong
move tried is refused with a reason that names the rule, in both languages), the lessons' checks catch a
lesson that would mislead, Bank's lessons fit in about ten minutes, and the terminal plays them and keeps
what is done."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from koloda import lessons, rules
from koloda.errors import RecordError
from koloda.lessons import Lesson, Run, Step, check

ALL = [lesson for game in lessons.GAMES for lesson in lessons.lessons(game)]
#: The rule a reason names: "(rule 4.3)", "(rules S6, S8)", «(правило G11, ...)».
NAMED = {
    "en": re.compile(r"\brules? ([A-Z]?\d+(?:\.\d+)?)"),
    "ru": re.compile(r"\bправил[оа] ([A-Z]?\d+(?:\.\d+)?)"),
}


def test_there_are_the_lessons_the_issue_asks_for() -> None:
    assert [lesson.id for lesson in lessons.lessons("bank")] == [
        *("cover", "trumps", "eight", "four", "run", "seven", "bank", "out", "points"),
    ]
    assert [lesson.id for lesson in lessons.lessons("thousand")] == [
        *("auction", "talon", "marriage", "follow", "contract", "barrel"),
    ]
    # trumps of each set-up that has trumps: own, one for all, senior and junior
    assert [part.options.get("trumps", "own") for part in lessons.lesson("bank", "trumps").parts] == [
        "own",
        "one",
        "senior-junior",
    ]


@pytest.mark.parametrize("lesson", ALL, ids=[f"{lesson.game}-{lesson.id}" for lesson in ALL])
def test_every_lesson_plays_through_and_refuses_every_wrong_move_with_its_rule(lesson: Lesson) -> None:
    run = Run(lesson)
    known = set(rules.page(lesson.game, "en").rules)
    refused = 0
    while not run.done:
        step = run.step
        assert run.state.current_player == lesson.seat
        for text in (*step.tries, *step.offer):
            version = run.state.version
            said = run.move(run.parse(text))  # a wrong move changes nothing
            assert not said.ok and run.state.version == version and run.step is step, text
            for lang, pattern in NAMED.items():
                named = pattern.findall(said.why(lang))
                assert named and set(named) <= known, (lang, text, said.why(lang))
            assert said.rule in known
            refused += 1
        assert run.move(run.parse(step.play)).ok
    assert refused > 0 or lesson.id in ("four",)  # each lesson tries at least one wrong move


def test_a_lesson_ends_where_it_teaches() -> None:
    points = Run(lessons.lesson("bank", "points"))
    for step in lessons.lesson("bank", "points").steps:
        points.move(points.parse(step.play))
    view = points.view
    assert view.results[-1].scores == (38, -27)  # what the lesson's last words say
    barrel = Run(lessons.lesson("thousand", "barrel"))
    barrel.move(barrel.parse("105"))
    assert barrel.view.totals == (560, 420, 880) and barrel.view.standings[2].barrel == 0


def _broken(lesson: Lesson, **change: object) -> Lesson:
    part = lesson.parts[0]
    step = dataclasses.replace(part.steps[0], **change)
    return dataclasses.replace(lesson, parts=(dataclasses.replace(part, steps=(step, *part.steps[1:])),))


def test_the_checks_refuse_a_lesson_that_would_mislead() -> None:
    cover = lessons.lesson("bank", "cover")
    check(cover)
    with pytest.raises(RecordError, match="step 1: the right move '9H' is not legal here"):
        check(_broken(cover, play="9H"))
    with pytest.raises(RecordError, match="step 1: 'QS' is not refused"):
        check(_broken(cover, tries=("QS",)))
    with pytest.raises(RecordError, match=r"rule '9\.9' is not a rule"):
        check(_broken(cover, rule="9.9"))
    with pytest.raises(RecordError, match="step 2: seat 1 is to move"):
        check(_broken(cover, then=()))
    with pytest.raises(RecordError, match="a scripted move is not legal"):
        check(_broken(cover, then=("9C",)))
    eight = lessons.lesson("bank", "eight")
    words = {lang: dataclasses.replace(w, other={}) for lang, w in eight.words.items()}
    with pytest.raises(RecordError, match="step 2: other moves are legal here"):
        check(dataclasses.replace(eight, words=words))


def test_the_word_files_are_checked_too() -> None:
    with pytest.raises(RecordError, match="'steps' must say each of the lesson's 3 steps"):
        lessons._words({"title": "t", "goal": "g", "done": "d", "steps": ["a"]}, "cover", 3, "bank.en.toml")
    with pytest.raises(RecordError, match="unknown key 'titel'"):
        lessons._words({"titel": "t"}, "cover", 1, "bank.en.toml")
    with pytest.raises(RecordError, match="'play' and 'rule' must be strings"):
        lessons._step({"play": 7, "rule": "4.3"}, "bank.toml: lesson 'x'.part[0].step[0]")


def test_bank_is_learnt_in_about_ten_minutes() -> None:
    """Reading every word of Bank's lessons at 180 words a minute, and 5 seconds a move (with one wrong
    move tried for each), take under ten minutes."""
    for lang in ("ru", "en"):
        seconds = 0.0
        for lesson in lessons.lessons("bank"):
            words = lesson.words[lang]
            text = " ".join([words.title, words.goal, words.done, *words.steps])
            seconds += len(text.split()) / 180 * 60
            seconds += sum(5 * (1 + bool(step.tries or step.offer)) for step in lesson.steps)
        assert seconds < 600, (lang, seconds)


def test_steps_offer_only_moves_the_page_would_not_show_otherwise() -> None:
    for lesson in ALL:
        run = Run(lesson)
        while not run.done:
            legal = set(run.state.legal_actions())
            assert not {run.parse(text) for text in run.step.offer} & legal, (lesson.id, run.step_no)
            run.move(run.parse(run.step.play))


def _learn(data: Path, *args: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KOLODA_DATA_DIR": str(data), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "koloda", *args],
        input=typed,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def test_the_terminal_plays_a_lesson_refuses_with_the_rule_and_keeps_what_is_done(tmp_path: Path) -> None:
    done = _learn(
        tmp_path, "bank", "learn", "--lang", "en", "--lesson", "cover", typed="9h\n?\nqs\n6d\n6h\nq\n"
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Lesson 1 of 9: Covering" in out and "  Boris: K♠" in out
    assert "illegal action 9H: 9H does not cover KS (rule 4.3)\nRule 4.3 The cover rule. A card covers" in out
    assert "That is the whole of covering" in out
    assert json.loads((tmp_path / "learn.json").read_text()) == {"bank": ["cover"]}
    listed = _learn(tmp_path, "bank", "learn", "--list", "--lang", "ru").stdout.splitlines()
    assert listed[0].startswith("✓ 1. Как крыть (cover): Покройте верхнюю карту: на одно значение младше")
    assert listed[1].startswith("· 2. Козыри (trumps)")
    # the next run starts with the first lesson not done
    resumed = _learn(tmp_path, "bank", "learn", "--lang", "ru", typed="q\n")
    assert "Урок 2 из 9: Козыри" in resumed.stdout
    assert _learn(tmp_path, "bank", "learn", "--reset").returncode == 0
    assert json.loads((tmp_path / "learn.json").read_text()) == {}


def test_a_thousand_lesson_in_the_terminal_in_russian(tmp_path: Path) -> None:
    done = _learn(
        tmp_path, "thousand", "learn", "--lang", "ru", "--lesson", "auction", typed="125\n105\npass\nq\n"
    )
    assert done.returncode == 0, done.stderr
    assert "с этими картами можно заявить не больше 120 (правило G6" in done.stdout
    assert "Правило G6. Предел заявки и наибольшая заявка — Прочтение:" in done.stdout
    assert "Играет Боря на 120." in done.stdout


def test_a_progress_file_that_is_not_ours_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "learn.json").write_text("[1, 2]")
    found = _learn(tmp_path, "bank", "learn", "--list")
    assert found.returncode == 2 and "is not a record of lessons done" in found.stderr
    (tmp_path / "learn.json").unlink()
    assert (
        _learn(tmp_path, "bank", "learn", "--lesson", "nope")
        .stderr.strip()
        .endswith(
            "no lesson 'nope' of bank; the lessons: cover, trumps, eight, four, run, seven, bank, out, points"
        )
    )


def test_a_step_is_a_value() -> None:
    assert Step("QS", "4.3").tries == () and Step("QS", "4.3") == Step("QS", "4.3")


def test_a_thousand_deal_may_start_from_the_totals_of_a_game_in_progress() -> None:
    from koloda.thousand.options import ThousandOptions
    from koloda.thousand.state import from_deal

    deal = {
        "dealer": 0,
        "hands": ["9S JS QS KC QD 9D 10H", "AS 10S AH KH QH JC 9C", "KS AC 10C QC JD AD JH"],
        "talon": "KD 10D 9H",
    }
    assert from_deal(deal).book.totals == (0, 0, 0)
    started = from_deal({**deal, "totals": [420, 880, 560]}, ThousandOptions(barrel=True, rule_800="off"))
    assert started.book.totals == (420, 880, 560) and started.book.seats[1].barrel == 0  # on the barrel
    assert started.record().deal["totals"] == [420, 880, 560]  # and its record replays from there
    with pytest.raises(RecordError, match="'totals' must be 3 whole numbers"):
        from_deal({**deal, "totals": [1, 2]})
    with pytest.raises(RecordError, match="above 999"):
        from_deal({**deal, "totals": [1200, 0, 0]})
