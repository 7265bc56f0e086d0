"""Issue 16: one scenario per reading of Bank that became an option (and the bug of rule 5.2 against 5.5),
each quoting the sentence of the seed it reads (``docs/rules/bank.md`` names the rule)."""

from __future__ import annotations

from typing import Any

import pytest
from test_bank_rules import c, deal, legal, play

from koloda.bank import BankOptions, from_deal, new_game, observe, replay
from koloda.bank.scoring import penalty
from koloda.errors import IllegalActionError, OptionsError


def test_rule_5_5_a_trump_king_alone_onto_an_empty_bank_stays() -> None:
    """«Если игрок заканчивает козырным Королем, то Банк забирает себе.» against «Банк из одной карты не
    забирается при условии если это Ваша карта»: going out on a trump king led onto an empty bank leaves
    that one-card bank (the issue's example: 58 points, not 63); ``trump_king_alone=taken`` takes it."""
    layout = {
        "hands": [["QS", "KH"], ["9D", "7C"]],
        "open": "KS",
        "stock": ["6C"],
        "dealer": 1,
        "trump_suits": ["H", "S"],
    }
    for reading, score in (("stays", 58), ("taken", 63)):
        state = from_deal(layout, BankOptions(opening="strict", trump_king_alone=reading))
        play(state, "QS", "draw", "pass")  # seat 1 cannot cover the QS: seat 0 takes KS + QS (8)
        assert state.current_player == 0 and state.bank == []  # a free lead (rule 5.3)
        play(state, "KH")  # his trump king, his last card: first out on a king, 20 + 30
        assert state.is_over() and state.returns() == [score, 0]


def test_rule_5_5_a_trump_king_still_takes_a_bank_of_two_cards() -> None:
    """«Если игрок заканчивает козырным Королем, то Банк забирает себе.»"""
    state = deal([["KH"], ["QC", "9S"]], "10H", dealer=1, trumps="one", trump_suits=["H"], opening="strict")
    play(state, "KH")
    assert state.captured_pts == [15, 0]


# -- rule 4.5: what may follow an 8 ----------------------------------------------------------------------


@pytest.mark.parametrize("follow", ["card", "any"])
def test_rule_4_5_one_more_card_after_an_eight(follow: str) -> None:
    """«В любой момент разрешается положить восьмерку и после этого выложить еще одну карту по
    вышеуказанным правилам.» — one more card (``eight_follow=card``, the default): one single card that
    covers, and the turn ends even if it is an 8; ``any`` (before record version 2): any move, another 8
    with a further card, four of a kind, a run."""
    hand = ["8H", "8C", "7H", "9S", "9C", "9D", "9H"]
    state = deal([hand, ["6S"]], "KD", dealer=1, opening="strict", eight_follow=follow)
    play(state, "8H")
    fours = ["9C+9D+9H+9S", "9S+9D+9H+9C", "9S+9C+9H+9D", "9S+9C+9D+9H"]
    assert legal(state) == ["8C", "7H", *(fours if follow == "any" else []), "pass"]
    play(state, "8C")  # another 8 covers the 8 by its rank
    if follow == "card":
        assert state.current_player == 1 and state.phase == "move"  # the added card ends the turn
    else:
        assert state.current_player == 0 and state.phase == "extra-move"  # and gives one more move
    if follow == "card":
        again = deal([hand, ["6S"]], "KD", dealer=1, opening="strict")
        play(again, "8H")
        with pytest.raises(IllegalActionError):
            play(again, "9S+9C+9D+9H")


def test_rule_4_5_an_eight_after_four_of_a_kind_still_gets_its_card() -> None:
    """«Также разрешается класть в любой момент 4 карты одного достоинства, после выкладывания которых,
    делается еще один ход» — the extra move after four of a kind may be an 8, which gets its one card."""
    state = deal([["9S", "9C", "9D", "9H", "8D", "7D", "AS"], ["6S"]], "AC", dealer=1)
    play(state, "9S+9C+9H+9D", "8D")
    assert state.current_player == 0 and legal(state) == ["7D", "pass"]


@pytest.mark.parametrize(
    ("reading", "added"), [("lenient", ["AS", "KH", "pass"]), ("strict", ["KH", "pass"])]
)
def test_rule_4_5_the_card_beneath_an_eight_on_the_open_card(reading: str, added: list[str]) -> None:
    """«положить восьмерку и после этого выложить еще одну карту по вышеуказанным правилам» under
    ``eight_then=cover-beneath``: the added card covers the open card, so the lenient opening of rule 4.2
    (any card of its suit) still applies to it (``eight_opening=lenient``) or not (``strict``)."""
    state = deal(
        [["8H", "AS", "KH"], ["6D"]], "KS", dealer=1, eight_then="cover-beneath", eight_opening=reading
    )
    assert state.current_player == 0  # the AS is the only spade: the higher card moves first (rule 4.1)
    play(state, "8H")
    assert state.target == c("KS") and legal(state) == added
    play(state, "pass")
    assert state.target == c("8H") and not state.opening  # the next player covers the 8, not leniently


def test_rule_4_5_eight_opening_needs_the_reading_it_changes() -> None:
    with pytest.raises(OptionsError, match="eight_opening"):
        BankOptions(eight_opening="strict")
    with pytest.raises(OptionsError, match="eight_opening"):
        BankOptions(eight_then="cover-beneath", opening="strict", eight_opening="strict")


# -- rule 4.7: the extra move after a run ---------------------------------------------------------------


@pytest.mark.parametrize(("reading", "after"), [("optional", ["6H", "pass"]), ("compulsory", ["6H"])])
def test_rule_4_7_the_extra_move_after_a_run(reading: str, after: list[str]) -> None:
    """«Разрешается выложить в любой момент 4 карты, которые идут подряд по достоинству» — the text gives a
    run no extra move; with ``run_extra_move=true`` it is optional, or compulsory like a four's («после
    выкладывания которых, делается еще один ход») under ``run_extra=compulsory``."""
    state = deal(
        [["JH", "9H", "8H", "7H", "6H"], ["6S"]], "QH", dealer=1, run_extra_move=True, run_extra=reading
    )
    play(state, "JH+9H+8H+7H")  # the J covers the Q, the 7 is on top; the 6H covers it
    assert state.current_player == 0 and legal(state) == after
    if reading == "compulsory":
        with pytest.raises(IllegalActionError, match=r"rule 4\.7"):
            play(state, "pass")
    with pytest.raises(OptionsError, match="run_extra"):
        BankOptions(run_extra="compulsory")


# -- rule 5.4: four kings and compound moves -------------------------------------------------------------


def _kings(**options: Any) -> Any:
    """Seat 0 lays four kings and adds nothing; seat 1 moves next."""
    hands = [["KS", "KC", "KD", "KH", "9C"], ["8H", "7H", "7S", "7C", "7D", "6C"], ["JC", "QC"]]
    state = deal(hands, "AD", dealer=2, **options)
    play(state, "KS+KC+KD+KH", "pass")
    assert state.four_kings and state.current_player == 1
    return state


def test_rule_5_4_an_eight_on_four_kings_takes_at_once_or_after_its_card() -> None:
    """«Если игрок накрывает четырех Королей положенных за один ход, то игрок забирает Банк себе.» — the 8
    takes the bank as it is laid (``four_kings_capture=at-once``), or the 8 and its added card together
    cover the kings and take the bank with them (``after-move``)."""
    state = _kings()
    play(state, "8H")
    assert state.captured_pts[1] == 12 + 20 and state.current_player == 2
    state = _kings(four_kings_capture="after-move")
    play(state, "8H")
    assert state.captured_pts[1] == 0 and state.current_player == 1 and legal(state) == ["7H", "pass"]
    play(state, "7H")
    assert state.captured_pts[1] == 12 + 20 and state.bank == [] and state.current_player == 2
    state = _kings(four_kings_capture="after-move")
    play(state, "8H", "pass")  # the 8 alone covered them
    assert state.captured_pts[1] == 12 + 20 and state.current_player == 2


def test_rule_5_4_four_of_a_kind_on_four_kings_takes_before_its_extra_move() -> None:
    """«Если игрок накрывает четырех Королей ...» with «4 карты одного достоинства, после выкладывания
    которых, делается еще один ход»: at once the four take the bank and end the turn; after-move they take
    it, then the extra move leads a new bank."""
    state = _kings()
    play(state, "7S+7C+7D+7H")
    assert state.captured_pts[1] == 12 + 20 and state.bank == [] and state.current_player == 2
    state = _kings(four_kings_capture="after-move")
    play(state, "7S+7C+7D+7H")
    assert state.captured_pts[1] == 12 + 20 and state.current_player == 1 and state.target < 0
    assert legal(state) == ["6C", "8H", "pass"]  # a free lead (rule 5.3), or nothing


@pytest.mark.parametrize(("reading", "mover"), [("void", 2), ("acts", 0)])
def test_rule_4_8_a_seven_that_took_four_kings(reading: str, mover: int) -> None:
    """«Следующий игрок, который ходит после игрока выложившего 7, может выполнить любой из 4-х вариантов
    действий»: four 7s laid on four kings take the bank; the 7 on top of them is gone with it, so its skip
    is void (``seven_captured=void``), or it still skips the next player (``acts``)."""
    state = _kings(seven_captured=reading)
    play(state, "7S+7C+7D+7H")  # at once (the default): the turn ends with the bank taken
    assert state.bank == [] and state.current_player == mover
    with pytest.raises(OptionsError, match="seven_captured"):
        BankOptions(seven="none", seven_captured="acts")


# -- rules 7.6-7.8: penalties, who lost ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "pointy", "pointless"),
    [
        # 7C 8D JS (1 point, two zero-point cards) and 7C 8D (no points)
        ({"penalty": "hand-points-and-fine", "fine": "fixed-zero-only"}, 1, 31),
        (
            {"penalty": "hand-points-and-fine", "fine": "per-card-zero-only", "penalty_per_card": 6},
            1 + 12,
            12,
        ),
        ({"penalty": "hand-points-and-fine", "fine": "split"}, 1 + 6, 6 + 31),
        ({"penalty": "flat-fine", "penalty_fixed": 48}, 48, 48),
    ],
)
def test_rule_7_7_the_readings_of_variant_2(options: dict[str, Any], pointy: int, pointless: int) -> None:
    """«Вариант 2. Игрок, который проиграл, получает штрафные очки равные количеству оставшихся очков в
    картах на руках и вариант а) за каждую карту без очков или вариант б) при их отсутствии.» and a):
    «фиксированный штраф ... независимо от количества очков и карт»: the fixed amount only for a hand
    without points, the per-card amount only for zero-point cards, both (``split``), or a flat fine."""
    opts = BankOptions.from_mapping(options)
    hand = 1 << c("7C") | 1 << c("8D")
    assert penalty(opts, hand | 1 << c("JS"), True) == pointy
    assert penalty(opts, hand, True) == pointless
    assert penalty(opts, 0, True) == 0  # a player who went out has nothing left to pay for


def _stuck(**options: Any) -> Any:
    """Nobody can cover the open 9S: all three fail against it with the stock empty (a stuck end)."""
    state = deal([["QD"], ["AC"], ["JH"]], "9S", dealer=2, scope="match", **options)
    play(state, "pass", "pass", "pass")
    assert state.results[0].stuck
    return state


@pytest.mark.parametrize("dealer_reading", ["most-points", "nobody"])
@pytest.mark.parametrize(("reading", "penalties"), [("most-points", (0, 12, 0)), ("nobody", (0, 0, 0))])
def test_rule_7_8_who_pays_after_a_stuck_end(
    reading: str, penalties: tuple[int, ...], dealer_reading: str
) -> None:
    """001: «Вариант 1. Игрок, который проиграл, получает штрафные очки равные количеству оставшихся очков в
    картах на руках.» with only the loser paying (``penalty_who=loser``): after a stuck end the one who pays
    is the holder of most points in hand (the AC, 12), or nobody (``stuck_payer``), whoever deals next."""
    state = _stuck(stuck_payer=reading, stuck_loser=dealer_reading, penalty_who="loser")
    assert state.results[0].penalties == penalties
    assert state.dealer == (1 if dealer_reading == "most-points" else 0)  # rule 2.2's part, apart


@pytest.mark.parametrize(("reading", "loser", "dealer"), [("most-points", 1, 1), ("nobody", None, 0)])
def test_rule_2_2_who_lost_a_stuck_deal_deals_next(reading: str, loser: int | None, dealer: int) -> None:
    """001: «сдатчиком становится игрок по любому из 5-и вариантов договоренностей между игроками: Игрок,
    который проиграл партию или игру» after a stuck end: the loser, who deals next, is the holder of most
    points in hand (the AC, seat 1), or, if only the last player left holding cards loses, nobody
    (``stuck_loser``): the next deal goes to the dealer's left. Who pays is another option (rule 7.8): here
    nobody is fined and still the holder of most points deals, a reading record version 2 did not offer."""
    state = _stuck(stuck_loser=reading, stuck_payer="nobody", penalty_who="loser")
    result = state.results[0]
    assert result.loser == loser and result.penalties == (0, 0, 0) and state.dealer == dealer


@pytest.mark.parametrize(
    ("options", "refused"),
    [
        (
            {"loser": "lowest-score", "stuck_loser": "nobody"},
            "'stuck_loser' applies only with loser 'last-holder'",
        ),
        ({"stuck_payer": "nobody"}, "'stuck_payer' applies only with penalty_who 'loser'"),
        (
            {"penalty_who": "loser", "loser": "lowest-score", "stuck_payer": "nobody"},
            "and loser 'last-holder'",
        ),
    ],
)
def test_rules_2_2_and_7_8_the_stuck_readings_need_the_options_they_refine(
    options: dict[str, str], refused: str
) -> None:
    """A reading of who lost a stuck deal is refused where no stuck deal's loser is looked for: under
    ``loser=lowest-score`` every deal has one, and with every holder paying nobody pays as the loser."""
    with pytest.raises(OptionsError, match=refused) as refusal:
        BankOptions.from_mapping(options)
    russian = refusal.value.text("ru")
    assert "действует только при" in russian and russian.split("'")[1] in ("stuck_loser", "stuck_payer")
    assert BankOptions(penalty_who="loser", stuck_payer="nobody").stuck_loser == "most-points"


def test_rule_7_8_the_loser_as_the_lowest_score() -> None:
    """«Игрок, который проиграл партию или игру» read as "came off worst": the lowest score of the deal
    before penalties (``loser=lowest-score``): seat 1, out second with 10, rather than the last holder,
    seat 2, who took a bank of 22."""
    hands = [["JS"], ["9D", "7D"], ["AH", "10H", "9C", "6C"]]
    for reading, loser in (("last-holder", 2), ("lowest-score", 1)):
        state = deal(hands, "QS", dealer=2, loser=reading, penalty_who="loser")
        play(state, "JS", "pass")  # seat 0 out first; seat 1 fails, seat 0 takes QS + JS
        play(state, "AH", "pass", "10H", "pass")  # seat 2 takes AH + 10H
        play(state, "9C", "9D", "pass", "7D")  # seat 1 takes the 9s and goes out second
        result = state.results[-1]
        assert result.scores == (24, 10, 22) and result.loser == loser


# -- rule 8.2: who deals the tie deal ---------------------------------------------------------------------


@pytest.mark.parametrize(("reading", "dealer"), [("agreed", 2), ("tied", 0)])
def test_rule_8_2_who_deals_the_tie_deal(reading: str, dealer: int) -> None:
    """«Если количество очков у победителей равное, то играется еще одна партия для выявления победителя»
    with ``tie=tied-only``: the agreed dealer (the loser, seat 2) deals though he sits the deal out, or the
    deal passes to the next tied player clockwise (seat 0)."""
    state = deal([["JS"], ["9S"], ["AH", "AD"]], "QS", dealer=2, scope="match", totals=[230, 236, 0],
                 tie="tied-only", tie_dealer=reading)  # fmt: skip
    play(state, "JS", "9S")
    assert state.active == (0, 1) and state.dealer == dealer
    with pytest.raises(OptionsError, match="tie_dealer"):
        BankOptions(tie_dealer="tied")


# -- rule 3.2: trumps chosen after the deal ---------------------------------------------------------------


def test_rule_3_2_trumps_chosen_after_the_deal() -> None:
    """«И перед раздачей карт игроки выбирают набор козырей» read as the order of the choosing, not its moment
    (``trump_choice=in-turn-after-deal``): the first deal is dealt, then each player from the dealer's left,
    seeing his cards, names a suit nobody has taken; the cards are those the choice before the deal gets."""
    before = new_game(BankOptions(trump_choice="in-turn", first_dealer=0), players=3, seed=5)
    after = new_game(BankOptions(trump_choice="in-turn-after-deal", first_dealer=0), players=3, seed=5)
    assert after.phase == "choose-trump" and after.deal_no == 1 and after.current_player == 1
    assert [h.bit_count() for h in after.hands] == [4, 4, 4] and len(observe(after, 1).hand) == 4
    for suit in ("H", "S", "C"):
        before.apply(before.parse_action(f"trump {suit}"))
        after.apply(after.parse_action(f"trump {suit}"))
    assert after.phase == "move" and after.trump_suits == before.trump_suits == (1, 3, 0)
    assert after.hands == before.hands and after.current_player == before.current_player
    assert after.deal_start == 3 and observe(after, 0).history == ()


#: An explicit deal that names no trump suits: seat 1 holds the nearest lower spade to the open AS (rule
#: 4.1), and his 7C covers the AS only if clubs are his trump.
OPEN_SUITS: dict[str, Any] = {
    "hands": [["6H", "KD"], ["7C", "9S"]],
    "open": "AS",
    "stock": ["9D"],
    "dealer": 1,
}


@pytest.mark.parametrize("choice", ["in-turn", "in-turn-after-deal"])
def test_rule_3_2_an_explicit_deal_with_trumps_chosen_in_turn(choice: str) -> None:
    """«У каждого игрока разный козырь.» with the suits chosen in turn: an explicit deal that names none
    leaves them open, and the choosing is played, from the dealer's left, before the cards are laid out
    (``in-turn``) or after (``in-turn-after-deal``); the record replays it, choices and all."""
    state = from_deal(OPEN_SUITS, BankOptions(trump_choice=choice))
    assert state.phase == "choose-trump" and state.current_player == 0 and state.trump_suits == ()
    dealt = choice == "in-turn-after-deal"
    assert [len(state.hand(p)) for p in (0, 1)] == ([2, 2] if dealt else [0, 0])
    play(state, "trump H", "trump C")
    assert state.phase == "move" and state.trump_suits == (3, 1) and state.deal_no == 1
    assert [{str(card) for card in state.hand(p)} for p in (0, 1)] == [{"6H", "KD"}, {"7C", "9S"}]
    assert state.current_player == 1 and legal(state) == ["9S", "7C"]  # clubs are his trump
    play(state, "7C")
    record = state.record()
    assert record.deal == OPEN_SUITS and record.actions == ("trump H", "trump C", "7C")
    assert replay(record) == state and replay(record).record() == record


def test_rule_3_2_suits_an_explicit_deal_names_are_taken_as_chosen() -> None:
    """Under a choice in turn, suits the deal names are the suits already chosen: nothing is left to choose
    (a position set up after the choosing, or a world a search bot sampled from one)."""
    named = {**OPEN_SUITS, "trump_suits": ["H", "D"]}
    for choice in ("in-turn", "in-turn-after-deal"):
        state = from_deal(named, BankOptions(trump_choice=choice))
        assert state.phase == "move" and state.trump_suits == (3, 2) and legal(state) == ["9S"]
        play(state, "9S")
        assert replay(state.record()) == state
    with pytest.raises(OptionsError, match="one suit per player"):
        from_deal({**OPEN_SUITS, "trump_suits": ["H"]}, BankOptions(trump_choice="in-turn"))


def test_the_literal_preset_reads_runs_of_any_suits() -> None:
    """«4 карты, которые идут подряд по достоинству» names no suit: the literal preset takes runs of any
    suits (the bonus of rule 7.5 still needs one suit: «четырьмя последовательными картами одной масти»)."""
    assert BankOptions.preset("literal").runs == "any-suits"


def test_every_option_is_in_the_rules_documents_table_and_offered_by_the_lobby() -> None:
    """Issue 16's checks: every option is in the options table of docs/rules/bank.md with its values, in
    ``describe()`` and in the schema the web lobby builds its controls from."""
    import re
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "rules" / "bank.md").read_text(encoding="utf-8")
    start = doc.index("| option | values | default | rule |")
    table = doc[start : doc.index("\n\n", start)]
    listed = re.findall(r"^\| `(\w+)` \| ([^|]+) \|", table, re.MULTILINE)
    schema = BankOptions.schema()
    assert [name for name, _ in listed] == [row["name"] for row in schema]
    assert [name for name, _, _ in BankOptions.describe()] == [row["name"] for row in schema]
    for (name, values), row in zip(listed, schema, strict=True):
        for choice in row.get("choices", []):
            assert f"`{choice}`" in values, (name, choice)
