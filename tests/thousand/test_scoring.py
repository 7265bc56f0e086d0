"""Thousand scoring: the seed's worked examples and one scenario per rule of docs/rules/thousand.md Part I."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from koloda.errors import KolodaError, OptionsError
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import DealInput, Note, ScoreBook, ScoringError, round_defence
from koloda.thousand.sheet.scorefile import parse_score_file
from koloda.thousand.sheet.table import markdown_table

SEED = Path(__file__).resolve().parents[2] / "docs" / "sources" / "002_3bd9893b7ac19bb5.txt"
SEED_DEALS = [
    DealInput(declarer=0, bid=120, points=(85, 25, 10), marriages=((60,), (), ())),
    DealInput(declarer=1, bid=100, points=(34, 70, 16)),
    DealInput(declarer=2, bid=110, bomb=True),
]
SEED_FILE = """{"players": ["Аня", "Боря", "Вера"]}
{"declarer": "Аня", "bid": 120, "points": {"Аня": 85, "Боря": 25, "Вера": 10}, "marriages": {"Аня": [60]}}
{"declarer": "Боря", "bid": 100, "points": {"Аня": 34, "Боря": 70, "Вера": 16}}
{"declarer": "Вера", "bid": 110, "bomb": true}
"""


def opts(**changes: object) -> ThousandOptions:
    return ThousandOptions().replace(**changes)


def book_at(totals: tuple[int, ...], options: ThousandOptions | None = None) -> ScoreBook:
    """A book whose players start at the given totals."""
    return ScoreBook(options or ThousandOptions(), len(totals), start=totals)


# -- the seed's worked examples -----------------------------------------------------------------------


def seed_table_rows() -> list[str]:
    lines = SEED.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| Кон |"))
    return [line for line in lines[start:] if line.startswith("|")]


def test_seed_three_deal_table_cell_for_cell() -> None:
    """S14: the seed's table, every cell, from the score file of its three deals."""
    expected = seed_table_rows()
    assert len(expected) == 5  # header, rule, three deals
    ours = markdown_table(parse_score_file(SEED_FILE), "ru").splitlines()
    for want, got in zip(expected, ours, strict=True):
        assert [cell.strip() for cell in got.split("|")] == [cell.strip() for cell in want.split("|")]


def test_seed_table_totals_through_the_engine() -> None:
    book = ScoreBook(ThousandOptions(), 3)
    assert [book.apply(deal).total for deal in SEED_DEALS] == [(120, 30, 10), (150, -70, 30), (210, -10, 30)]


def test_seed_card_sums_are_120() -> None:
    """S3: the seed's own check of the card points."""
    text = SEED.read_text(encoding="utf-8")
    assert "85 + 25 + 10 = 120" in text and "70 + 34 + 16 = 120" in text
    assert all(sum(deal.points) == 120 for deal in SEED_DEALS if not deal.bomb)


@pytest.mark.parametrize(
    ("points", "home", "tournament"), [(25, 30, 20), (34, 30, 30), (35, 40, 30), (36, 40, 40)]
)
def test_seed_rounding_table(points: int, home: int, tournament: int) -> None:
    """S4: the seed's rounding table, through the whole engine (a defender's delta)."""
    for rounding, want in (("home", home), ("tournament", tournament)):
        book = ScoreBook(opts(rounding=rounding), 3)
        score = book.apply(DealInput(declarer=0, bid=100, points=(120 - points, points, 0)))
        assert score.delta[1] == want
        assert score.raw[1] == points


def test_seed_rounding_table_is_the_seeds() -> None:
    """The parametrised table above is the one printed in the seed."""
    text = SEED.read_text(encoding="utf-8")
    for row in ("| 25 | 30 | 20 |", "| 34 | 30 | 30 |", "| 35 | 40 | 30 |", "| 36 | 40 | 40 |"):
        assert row in text


@pytest.mark.parametrize(("points", "want"), [(17, 15), (18, 20)])
def test_seed_russian_rounding(points: int, want: int) -> None:
    """S4: «17 → 15, 18 → 20» under rounding to five."""
    book = ScoreBook(ThousandOptions.preset("russian"), 3)
    assert book.apply(DealInput(declarer=0, bid=100, points=(103 - points, points, 17))).delta[1] == want


def test_russian_rounding_every_ending() -> None:
    assert [round_defence(p, "russian") for p in range(10, 21)] == [
        10,
        10,
        10,
        15,
        15,
        15,
        15,
        15,
        20,
        20,
        20,
    ]


@pytest.mark.parametrize(("rule", "want"), [("home", 820), ("tournament", 800), ("off", 820)])
def test_seed_780_plus_40(rule: str, want: int) -> None:
    """S5: «780 + 40 = 820» (home), «780 + 40 = 800» (tournament)."""
    book = book_at((0, 780, 0), opts(rule_800=rule))
    score = book.apply(DealInput(declarer=0, bid=100, points=(80, 40, 0)))
    assert score.total[1] == want
    assert (Note.LINE_800 in score.notes[1]) == (rule == "tournament")


def test_seed_declarer_reaches_1000_and_wins() -> None:
    """S8: a made contract to 1000 wins; the game is over and a further deal is refused."""
    book = book_at((880, 500, 0))
    score = book.apply(DealInput(declarer=0, bid=120, points=(120, 0, 0)))
    assert score.total[0] == 1000 and score.winner == 0 and book.winner == 0 and book.is_over
    assert Note.WINNER in score.notes[0]
    with pytest.raises(ScoringError, match="the game is over"):
        book.apply(DealInput(declarer=1, bid=100, points=(0, 120, 0)))
    assert book.totals == (1000, 500, 0)


def test_seed_defender_stops_at_990() -> None:
    """S9: a defender cannot reach 1000; he stops at 990 (even under the home 800 rule, crossing the line)."""
    book = book_at((0, 790, 0), opts(rule_800="off"))
    score = book.apply(DealInput(declarer=0, bid=100, points=(0, 120, 0), marriages=((), (100, 80), ())))
    assert score.total[1] == 990 and score.winner is None
    assert Note.CAP in score.notes[1]
    book = book_at(
        (0, 790, 0)
    )  # home 800 rule: 790 is below the line, so the defence counts, but stops at 990
    assert (
        book.apply(DealInput(declarer=0, bid=100, points=(0, 120, 0), marriages=((), (100, 80), ()))).total[1]
        == 990
    )


# -- S1 the declarer --------------------------------------------------------------------------------


def test_s1_surplus_lost_and_short_by_one_costs_the_bid() -> None:
    book = ScoreBook(ThousandOptions(), 3)
    made = book.apply(DealInput(declarer=0, bid=120, points=(85, 25, 10), marriages=((60,), (), ())))
    assert made.delta[0] == 120 and made.raw[0] == 145 and made.made
    short = book.apply(DealInput(declarer=1, bid=105, points=(16, 104, 0)))
    assert short.delta[1] == -105 and short.made is False and Note.FAILED in short.notes[1]
    exact = book.apply(DealInput(declarer=2, bid=105, points=(0, 15, 105)))
    assert exact.delta[2] == 105


def test_s1_declarer_not_rounded() -> None:
    book = ScoreBook(ThousandOptions(), 3)
    score = book.apply(DealInput(declarer=0, bid=100, points=(96, 24, 0)))  # 96 would round to 100
    assert score.delta[0] == -100 and score.rounded[0] == 96


# -- S2 bids and S3 the deal's contents -------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "message"),
    [
        (95, "below the lowest bid 100"),
        (103, "not a multiple of the bid step 5"),
        (405, "more than a declarer"),
    ],
)
def test_s2_bad_bids(bid: int, message: str) -> None:
    book = ScoreBook(ThousandOptions(), 3)
    with pytest.raises(ScoringError, match=message):
        book.apply(DealInput(declarer=0, bid=bid, points=(120, 0, 0)))
    assert book.deals == () and book.totals == (0, 0, 0)


def test_s2_bid_step_10() -> None:
    book = ScoreBook(ThousandOptions.preset("tournament"), 3)
    with pytest.raises(ScoringError, match="multiple of the bid step 10"):
        book.apply(DealInput(declarer=0, bid=105, points=(120, 0, 0)))
    assert book.apply(DealInput(declarer=0, bid=110, points=(120, 0, 0))).delta[0] == 110


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (DealInput(declarer=0, bid=100, points=(80, 30, 0)), "add up to 110, not 120"),
        (DealInput(declarer=0, bid=100, points=(130, -10, 0)), "cannot be negative"),
        (DealInput(declarer=0, bid=100, points=(120, 0)), "for each of the 3 players"),
        (
            DealInput(declarer=0, bid=100, points=(120, 0, 0), marriages=((50,), (), ())),
            "not a marriage value",
        ),
        (
            DealInput(declarer=0, bid=100, points=(120, 0, 0), marriages=((200,), (), ())),
            "not a marriage value",
        ),
        (DealInput(declarer=0, bid=100, points=(100, 20, 0), marriages=((60,), (60,), ())), "declared twice"),
        (DealInput(declarer=0, bid=100, points=(100, 20, 0), marriages=((40, 40), (), ())), "declared twice"),
        (DealInput(declarer=3, bid=100, points=(120, 0, 0)), "not a seat"),
        (DealInput(declarer=0, bid=100, bomb=True, points=(120, 0, 0)), "a bomb has no card points"),
        (DealInput(declarer=0, bid=100, points=(120, 0, 0), sitting=1), "only 4 players"),
    ],
)
def test_s3_bad_deals_change_nothing(deal: DealInput, message: str) -> None:
    book = ScoreBook(ThousandOptions(), 3)
    book.apply(SEED_DEALS[0])
    before = book.copy()
    with pytest.raises(ScoringError, match=message):
        book.apply(deal)
    assert book == before and book.totals == (120, 30, 10)


def test_s3_ace_marriage_only_with_the_option() -> None:
    if "ace_marriage" not in ThousandOptions.__dataclass_fields__:
        pytest.skip("the game's ace_marriage option is not there yet")
    deal = DealInput(declarer=0, bid=300, points=(120, 0, 0), marriages=((200,), (), ()))
    with pytest.raises(ScoringError):
        ScoreBook(opts(ace_marriage=False), 3).apply(deal)
    assert ScoreBook(opts(ace_marriage=True), 3).apply(deal).delta[0] == 300


# -- S4 defenders -----------------------------------------------------------------------------------


def test_s4_each_defender_counts_own_marriages() -> None:
    book = ScoreBook(ThousandOptions(), 3)
    score = book.apply(DealInput(declarer=0, bid=100, points=(100, 14, 6), marriages=((), (40,), ())))
    assert score.raw == (100, 54, 6) and score.delta == (100, 50, 10)
    assert Note.ROUNDED in score.notes[1] and Note.ROUNDED in score.notes[2]


# -- S5 the 800 line --------------------------------------------------------------------------------


@pytest.mark.parametrize(("rule", "want"), [("home", 800), ("tournament", 800), ("off", 840)])
def test_s5_at_the_line(rule: str, want: int) -> None:
    book = book_at((0, 800, 0), opts(rule_800=rule))
    assert book.apply(DealInput(declarer=0, bid=100, points=(80, 40, 0))).total[1] == want


def test_s5_threshold_moves_and_declarer_unaffected() -> None:
    book = book_at((850, 700, 0), opts(threshold_800=700))
    score = book.apply(DealInput(declarer=0, bid=100, points=(100, 20, 0)))
    assert score.total == (950, 700, 0)
    assert Note.LINE_800 in score.notes[1]


def test_s5_bomb_points_are_defence() -> None:
    book = book_at((0, 810, 0))
    assert book.apply(DealInput(declarer=0, bid=100, bomb=True)).delta == (0, 0, 60)


# -- S6 the barrel ----------------------------------------------------------------------------------


def russian(**changes: object) -> ThousandOptions:
    return ThousandOptions.preset("russian").replace(**changes)


def test_s6_climb_by_defence_freezes_at_880() -> None:
    book = book_at((0, 850, 0), russian())
    score = book.apply(DealInput(declarer=0, bid=100, points=(80, 40, 0)))
    assert score.total[1] == 880 and Note.BARREL_ON in score.notes[1] and book.on_barrel(1)
    assert score.barrel[1] == 3
    frozen = book.apply(DealInput(declarer=0, bid=100, points=(80, 40, 0)))
    assert frozen.delta[1] == 0 and frozen.barrel[1] == 2


def test_s6_made_contract_short_of_1000_stays_at_880() -> None:
    book = book_at((0, 850, 0), russian())
    book.apply(DealInput(declarer=0, bid=100, points=(80, 40, 0)))
    score = book.apply(DealInput(declarer=1, bid=100, points=(0, 120, 0)))
    assert score.total[1] == 880 and score.made and score.barrel[1] == 2
    win = book.apply(DealInput(declarer=1, bid=120, points=(0, 120, 0)))
    assert win.total[1] == 1000 and win.winner == 1 and Note.BARREL not in win.notes[1]


def test_s6_deals_run_out_fall_120() -> None:
    book = book_at((0, 850, 0), russian())
    book.apply(DealInput(declarer=0, bid=100, points=(80, 40, 0)))
    for left in (2, 1):
        assert book.apply(DealInput(declarer=0, bid=100, points=(120, 0, 0))).barrel[1] == left
    fall = book.apply(DealInput(declarer=0, bid=100, points=(120, 0, 0)))
    assert fall.total[1] == 760 and Note.BARREL_FALL in fall.notes[1] and not book.on_barrel(1)


def test_s6_barrel_deals_option() -> None:
    book = book_at((0, 850, 0), russian(barrel_deals=1, barrel_fall=200))
    book.apply(DealInput(declarer=0, bid=100, points=(80, 40, 0)))
    assert book.apply(DealInput(declarer=0, bid=100, points=(120, 0, 0))).total[1] == 680
    endless = book_at((0, 850, 0), russian(barrel_deals=None))
    endless.apply(DealInput(declarer=0, bid=100, points=(80, 40, 0)))
    for _ in range(10):
        endless.apply(DealInput(declarer=2, bid=100, points=(0, 0, 120)))
    assert endless.totals[1] == 880 and endless.on_barrel(1)


@pytest.mark.parametrize(("failed", "want"), [("minus_bid", 770), ("fall", 760), ("both", 650)])
def test_s6_failed_contract_on_the_barrel(failed: str, want: int) -> None:
    book = book_at((0, 850, 0), russian(barrel_failed=failed))
    book.apply(DealInput(declarer=0, bid=100, points=(80, 40, 0)))
    score = book.apply(DealInput(declarer=1, bid=110, points=(20, 100, 0)))
    assert score.total[1] == want and not book.on_barrel(1) and Note.BARREL_FALL in score.notes[1]


def test_s6_contract_over_880_freezes_the_declarer() -> None:
    book = book_at((790, 0, 0), russian())
    score = book.apply(DealInput(declarer=0, bid=120, points=(120, 0, 0)))
    assert score.total[0] == 880 and book.on_barrel(0) and score.delta[0] == 90


def test_s6_off_by_default_no_freeze() -> None:
    book = book_at((790, 0, 0))
    assert book.apply(DealInput(declarer=0, bid=120, points=(120, 0, 0))).total[0] == 910


# -- S7 the bomb ------------------------------------------------------------------------------------


def test_s7_bomb_limit_per_player() -> None:
    book = ScoreBook(ThousandOptions(), 3)
    assert book.bomb_allowed(0)
    assert book.apply(DealInput(declarer=0, bid=100, bomb=True)).delta == (0, 60, 60)
    assert not book.bomb_allowed(0) and book.bomb_allowed(1)
    with pytest.raises(ScoringError, match="used the bombs allowed"):
        book.apply(DealInput(declarer=0, bid=100, bomb=True))
    book.undo()
    assert book.bomb_allowed(0)


def test_s7_unlimited_and_custom_points() -> None:
    book = ScoreBook(opts(bombs_per_game=None, bomb_points=50), 3)
    for _ in range(5):
        book.apply(DealInput(declarer=0, bid=100, bomb=True))
    assert book.totals == (0, 250, 250)
    none = ScoreBook(opts(bombs_per_game=0), 3)
    assert not none.bomb_allowed(2)


def test_s7_bomb_on_the_barrel_gives_nothing() -> None:
    book = book_at((0, 850, 0), russian())
    book.apply(DealInput(declarer=0, bid=100, points=(80, 40, 0)))
    assert book.apply(DealInput(declarer=2, bid=100, bomb=True)).delta[1] == 0


# -- S8 S9 --------------------------------------------------------------------------------------------


def test_s8_made_short_of_target_does_not_win() -> None:
    book = book_at((890, 0, 0))
    score = book.apply(DealInput(declarer=0, bid=105, points=(120, 0, 0)))
    assert score.total[0] == 995 and score.winner is None and not book.is_over


def test_s8_winner_keeps_total_above_1000() -> None:
    book = book_at((920, 0, 0))
    assert book.apply(DealInput(declarer=0, bid=120, points=(120, 0, 0))).total[0] == 1040


def test_s9_defender_above_990_by_contract_gets_nothing() -> None:
    book = book_at((0, 995, 0), opts(rule_800="off"))
    assert book.apply(DealInput(declarer=0, bid=100, points=(100, 20, 0))).delta[1] == 0


def test_s9_other_cap() -> None:
    book = book_at((0, 780, 0), opts(rule_800="off", defender_cap=900))
    assert (
        book.apply(DealInput(declarer=0, bid=100, points=(0, 120, 0), marriages=((), (100,), ()))).total[1]
        == 900
    )


# -- S10 four players ---------------------------------------------------------------------------------


def test_s10_sitting_dealer() -> None:
    book = ScoreBook(ThousandOptions(), 4)
    deal = DealInput(declarer=0, bid=100, points=(100, 10, 10, 23), sitting=3)
    score = book.apply(deal)
    assert score.delta == (100, 10, 10, 20) and Note.SITTING in score.notes[3]
    plain = ScoreBook(opts(sitting_as_defender=False), 4)
    assert plain.apply(deal).delta[3] == 23
    with pytest.raises(ScoringError, match="sitting dealer must be a seat"):
        book.apply(DealInput(declarer=0, bid=100, points=(100, 10, 10, 0)))
    with pytest.raises(ScoringError, match="cannot both sit out and declare"):
        book.apply(DealInput(declarer=3, bid=100, points=(100, 10, 10, 0), sitting=3))
    with pytest.raises(ScoringError, match="sat out and cannot declare a marriage"):
        book.apply(
            DealInput(declarer=0, bid=100, points=(100, 10, 10, 0), marriages=((), (), (), (40,)), sitting=3)
        )
    bomb = book.apply(DealInput(declarer=1, bid=100, bomb=True, sitting=2))
    assert bomb.delta == (60, 0, 0, 60)


# -- S11-S13 house rules ------------------------------------------------------------------------------


def test_s11_bolts() -> None:
    book = ScoreBook(opts(bolts=3), 3)
    zero = DealInput(declarer=0, bid=100, points=(110, 10, 0))
    first, second = book.apply(zero), book.apply(zero)
    assert Note.BOLT in first.notes[2] and book.seats[2].bolts == 2 and second.total[2] == 0
    third = book.apply(zero)
    assert Note.BOLT_PENALTY in third.notes[2] and third.total[2] == -120 and book.seats[2].bolts == 0
    assert book.seats[1].bolts == 0  # took points every deal
    off = ScoreBook(ThousandOptions(), 3)
    for _ in range(3):
        off.apply(zero)
    assert off.totals[2] == 0


def test_s11_bomb_is_a_bolt_and_barrel_deals_are_not() -> None:
    book = ScoreBook(opts(bolts=2, bolt_penalty=50, bombs_per_game=None), 3)
    book.apply(DealInput(declarer=0, bid=100, bomb=True))
    assert book.seats[0].bolts == 1
    assert book.apply(DealInput(declarer=0, bid=100, bomb=True)).total[0] == -50
    barrel = book_at((0, 850, 0), russian(bolts=1))
    barrel.apply(DealInput(declarer=0, bid=100, points=(80, 40, 0)))
    assert Note.BOLT not in barrel.apply(DealInput(declarer=0, bid=100, points=(120, 0, 0))).notes[1]


def test_s12_dump() -> None:
    book = book_at((455, 0, 0), opts(dump=True))
    score = book.apply(DealInput(declarer=0, bid=100, points=(120, 0, 0)))
    assert score.total[0] == 0 and Note.DUMP in score.notes[0] and score.delta[0] == -455
    negative = book_at((-455, 0, 0), opts(dump=True))
    assert negative.apply(DealInput(declarer=0, bid=100, points=(0, 120, 0))).total[0] == 0
    off = book_at((455, 0, 0))
    assert off.apply(DealInput(declarer=0, bid=100, points=(120, 0, 0))).total[0] == 555


def test_s13_third_fall_resets_to_zero() -> None:
    book = book_at((0, 850, 0), russian(barrel_fall_reset=2, barrel_deals=1))
    book.apply(DealInput(declarer=0, bid=100, points=(80, 40, 0)))  # climbs
    assert book.apply(DealInput(declarer=0, bid=100, points=(120, 0, 0))).total[1] == 760  # first fall
    book.apply(DealInput(declarer=1, bid=120, points=(0, 120, 0)))  # 880 again
    assert book.on_barrel(1)
    score = book.apply(DealInput(declarer=1, bid=100, points=(120, 0, 0)))  # fails: second fall
    assert score.total[1] == 0 and Note.BARREL_RESET in score.notes[1] and book.seats[1].falls == 0
    with pytest.raises(OptionsError, match="needs barrel=true"):
        opts(barrel_fall_reset=3)


# -- the options --------------------------------------------------------------------------------------


def test_presets() -> None:
    assert ThousandOptions.preset("home") == ThousandOptions() == ThousandOptions.preset("default")
    tournament = ThousandOptions.preset("tournament")
    assert (tournament.rounding, tournament.rule_800, tournament.bid_step) == ("tournament", "tournament", 10)
    rus = ThousandOptions.preset("russian")
    assert (rus.rounding, rus.rule_800, rus.barrel) == ("russian", "off", True)
    for name in ("home", "tournament", "russian"):
        preset = ThousandOptions.preset(name)
        assert (preset.bolts, preset.dump, preset.barrel_fall_reset) == (None, False, None)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rounding": "up"}, "option 'rounding' must be"),
        ({"bid_step": 7}, "option 'bid_step' must be"),
        ({"barrel": "yes"}, "option 'barrel' must be"),
        ({"defender_cap": 1000}, "below target"),
        ({"threshold_800": 995}, "threshold_800 995"),
        ({"barrel": True, "barrel_threshold": 1000}, "barrel_threshold 1000"),
        ({"barrel_deals": 0}, "barrel_deals must be at least 1"),
        ({"bomb_points": -60}, "bomb_points must not be negative"),
        ({"min_bid": 102}, "multiple of bid_step"),
        ({"bolts": 0}, "bolts must be at least 1"),
        ({"barrel_fal": 1}, "did you mean 'barrel_fall'"),
        # an option that needs another one that is off would change nothing: refused, not ignored
        ({"barrel_threshold": 900}, "barrel_threshold=900 has no effect without barrel=true"),
        ({"barrel_deals": None}, "barrel_deals=None has no effect without barrel=true"),
        ({"barrel_failed": "fall"}, "barrel_failed='fall' has no effect without barrel=true"),
        ({"rule_800": "off", "threshold_800": 700}, "threshold_800=700 has no effect without rule_800"),
        ({"bolt_penalty": 50}, "bolt_penalty=50 has no effect without bolts"),
    ],
)
def test_options_rejected(changes: dict[str, object], message: str) -> None:
    with pytest.raises(OptionsError, match=re.escape(message)):
        ThousandOptions.from_mapping(changes)


def test_undo_copy_equality() -> None:
    book = ScoreBook(ThousandOptions(), 3)
    for deal in SEED_DEALS:
        book.apply(deal)
    copy = book.copy()
    assert copy == book
    undone = book.undo()
    assert undone.deal == SEED_DEALS[2] and book.totals == (150, -70, 30) and copy != book
    assert copy.totals == (210, -10, 30)
    book.apply(SEED_DEALS[2])
    assert copy == book
    with pytest.raises(ScoringError, match="no deal to undo"):
        ScoreBook().undo()
    with pytest.raises(KolodaError, match="2 to 4 players"):
        ScoreBook(ThousandOptions(), 5)


def test_explanations() -> None:
    book = ScoreBook(ThousandOptions(), 3)
    scores = [book.apply(deal) for deal in SEED_DEALS]
    names = ("Аня", "Боря", "Вера")
    assert [s.explain(names, "en") for s in scores] == [
        "Аня 120 — made (85 + marriage 60)",
        "Боря 100 — failed (70)",
        "Вера 110 — bomb",
    ]
    assert scores[1].explain(names, "ru", ("f", "f", "f")) == "Боря 100 — не выполнила (70)"
    assert scores[0].explain(None, "en") == "Player 1 120 — made (85 + marriage 60)"


def test_start_totals() -> None:
    """A game moved from paper: start totals, checked; at the barrel the player sits on it."""
    book = ScoreBook(ThousandOptions.preset("russian"), 3, start=(880, 500, -40))
    assert book.totals == (880, 500, -40) and book.on_barrel(0) and not book.on_barrel(1)
    assert book != ScoreBook(ThousandOptions.preset("russian"), 3)
    with pytest.raises(ScoringError, match="above 880"):
        ScoreBook(ThousandOptions.preset("russian"), 3, start=(900, 0, 0))
    with pytest.raises(ScoringError, match="above 999"):
        ScoreBook(ThousandOptions(), 3, start=(1000, 0, 0))
    with pytest.raises(ScoringError, match="for each of the 3 players"):
        ScoreBook(ThousandOptions(), 3, start=(0, 0))


def test_s6_other_barrel_threshold_without_limit() -> None:
    """S6: «a barrel at 900 with no limit»."""
    book = book_at((0, 850, 0), russian(barrel_threshold=900, barrel_deals=None))
    score = book.apply(DealInput(declarer=0, bid=100, points=(80, 40, 0)))
    assert score.total[1] == 890 and not book.on_barrel(1)
    score = book.apply(DealInput(declarer=0, bid=100, points=(80, 40, 0)))
    assert score.total[1] == 900 and book.on_barrel(1) and score.barrel[1] is None


def test_s2_min_bid_option() -> None:
    book = ScoreBook(opts(min_bid=110), 3)
    with pytest.raises(ScoringError, match="below the lowest bid 110"):
        book.apply(DealInput(declarer=0, bid=105, points=(120, 0, 0)))
    assert book.apply(DealInput(declarer=0, bid=110, points=(120, 0, 0))).delta[0] == 110
