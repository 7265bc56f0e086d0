"""``koloda verify`` (koloda.verify): a revealed secret against its commitment, every deal recomputed."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from koloda import seeds, verify
from koloda.cli import main
from koloda.game import GameRecord, GameState
from koloda.registry import get

SECRET = "c3" * 32


def played(game: str, players: int, actions: int, seed: seeds.Seed = SECRET) -> GameState:
    spec = get(game)
    state = spec.new_game(players=players, seed=seed)
    rng = random.Random(5)
    while not state.is_over() and state.version < actions:
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("game", "players"), [("bank", 2), ("bank", 4), ("thousand", 3), ("thousand", 4)])
def test_every_deal_is_recomputed_with_each_seat_s_hand_as_it_saw_it(game: str, players: int) -> None:
    spec = get(game)
    state = played(game, players, 400)
    report = verify.check(state.record(), seeds.commitment(SECRET))
    assert report.ok and report.kind == "secret" and report.commitment == seeds.commitment(SECRET)
    assert len(report.deals) == (state.deal_no if game == "bank" else state.deal_number)  # type: ignore[attr-defined]
    assert len(report.deals) >= 2
    # each deal's hands are the seats' observations at the action the deal began
    for deal in report.deals:
        at = spec.replay(dataclasses.replace(state.record(), actions=state.record().actions[: deal.version]))
        dealt = spec.dealt(at)
        assert dealt is not None and dealt.label == deal.label and dealt.dealer == deal.dealer
        for seat in deal.seats:
            assert list(deal.hands[seat]) == spec.observe(at, seat).to_json()["hand"]


def test_a_different_secret_fails_even_when_the_record_claims_its_commitment() -> None:
    record = played("thousand", 3, 60).record()
    forged = "c4" * 32
    # a server that swaps the secret afterwards cannot match the commitment published at the start
    swapped = dataclasses.replace(record, seed=forged, meta={"commitment": seeds.commitment(forged)})
    report = verify.check(swapped, seeds.commitment(SECRET))
    assert not report.ok and "does not match the commitment" in str(report.failure)
    # and with the commitment it published, the cards played are not the cards that secret deals
    report = verify.check(swapped, seeds.commitment(forged))
    assert not report.ok and "does not replay" in str(report.failure)


def test_a_number_seed_cannot_be_promised() -> None:
    record = played("bank", 2, 30, seed=17).record()
    assert verify.check(record).ok and verify.check(record).kind == "number"
    assert "no commitment" in str(verify.check(record, seeds.commitment(SECRET)).failure)


def test_the_command_says_it_in_the_language_asked_and_exits_by_the_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "record.json"
    played("bank", 3, 80).record().save(path)
    assert main(["verify", str(path), "--commitment", seeds.commitment(SECRET)]) == 0
    out = capsys.readouterr().out
    assert ("Проверено" in out and "Сдача 1" in out and "♠" in out) or "♣" in out
    assert main(["verify", str(path), "--commitment", seeds.commitment("00" * 32), "--lang", "en"]) == 1
    assert "NOT verified" in capsys.readouterr().out
    assert main(["verify", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


@pytest.mark.parametrize(
    ("content", "args", "said"),
    [
        ("{", [], "not valid JSON"),
        ('{"game": "bank"}', [], "players"),
        (None, ["--commitment", "xyz"], "--commitment must be 64 hex digits"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, args: list[str], said: str
) -> None:
    path = tmp_path / "record.json"
    if content is None:
        played("bank", 2, 10).record().save(path)
    else:
        path.write_text(content)
    assert main(["verify", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1


def test_a_banki_record_replays_its_counting_out_from_the_secret() -> None:
    from koloda.banki import BankiOptions, new_game

    options = BankiOptions(first_driver="counting")  # C1: the first driver counted out from the seed
    drawn = set()
    for secret in (SECRET, "c4" * 32, "c5" * 32, "c6" * 32):
        state = new_game(["Аня", "Боря", "Вера", "Гоша"], options, seed=secret)
        state.apply(state.parse_event("count"))
        record = state.record()
        assert isinstance(record, GameRecord)
        assert verify.check(record, seeds.commitment(secret)).ok
        assert not verify.check(record, seeds.commitment(SECRET if secret != SECRET else "c4" * 32)).ok
        drawn.add(state.counting_out())
    assert len(drawn) > 1  # the count is the secret's, not a constant
