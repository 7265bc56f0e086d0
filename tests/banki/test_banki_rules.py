"""One scenario per numbered rule of docs/rules/banki.md (G = common, M = Moscow, C = Chelyabinsk)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from banki_helpers import chelyabinsk, game, moscow, rank, refused, run, seat, set_rank

from koloda.banki import BankiOptions, Phase, Stick, new_game, replay
from koloda.banki.view import what_next
from koloda.errors import OptionsError

# -- common rules ---------------------------------------------------------------------------------------


def test_g1_number_of_players() -> None:
    """«4-10 žmonių žaidė „stick-bankus“» describes the yards; M1 sets no cap («Kiek jums patinka, plius
    vienas vairuotojas»), so the referee takes up to its own limit of 30 unless ``max_players`` says less."""
    with pytest.raises(OptionsError, match="4 to 30 players"):
        game(names=["Ann", "Bob", "Cat"])
    assert len(game(names=[f"P{i}" for i in range(11)]).names) == 11
    with pytest.raises(OptionsError, match="not 31"):
        game(names=[f"P{i}" for i in range(31)])
    with pytest.raises(OptionsError, match="not 11"):
        game(names=[f"P{i}" for i in range(11)], max_players=10)
    with pytest.raises(OptionsError, match="max_players <= 30"):
        BankiOptions(max_players=31)
    assert len(game(names=["Ann", "Bob"], min_players=2).names) == 2


def test_g2_first_driver_is_the_shortest_kick_and_the_farthest_throws_first() -> None:
    state = moscow()
    assert state.driver_name == "Cat"
    assert state.order_names == ["Bob", "Ann", "Dan"]
    assert state.phase is Phase.THROW and state.thrower() == seat(state, "Bob")


def test_m3_equal_kicks_are_kicked_again_between_the_tied_only() -> None:
    state = run(game(), "kick Ann 9", "kick Bob 9", "kick Cat 4", "kick Dan 7")
    assert state.phase is Phase.KICK
    assert [state.names[s] for s in state.pending_kickers()] == ["Ann", "Bob"]
    refused(state, "kick Dan 8", "not_kicking")
    run(state, "kick Bob 2", "kick Ann 3")
    assert state.order_names == ["Ann", "Bob", "Dan"]  # 9/3 beats 9/2; both beat 7
    tie_for_driver = run(game(), "kick Ann 9", "kick Bob 4", "kick Cat 4", "kick Dan 7")
    assert tie_for_driver.driver is None
    run(tie_for_driver, "kick Cat 5", "kick Bob 1.5")
    assert tie_for_driver.driver_name == "Bob"


def test_g3_the_body_part_depends_on_the_rank() -> None:
    state = run(moscow(), "miss Bob", "miss Ann", "miss Dan")
    set_rank(state, "Ann", "general")
    refused(state, "tag Ann hand leg", "cant_tag_part")
    refused(state, "tag Ann hand torso", "cant_tag_part")
    run(state, "tag Ann hand heel")
    assert state.tagged == seat(state, "Ann")
    legs = run(moscow(tag_parts=("legs",) * 10), "miss Bob", "miss Ann", "miss Dan")
    refused(legs, "tag Bob stick arm", "cant_tag_part")
    run(legs, "tag Bob stick leg")


def test_g4_the_head_never_counts() -> None:
    state = run(moscow(), "miss Bob", "miss Ann", "miss Dan")
    refused(state, "tag Bob stick head", "cant_tag_head")
    refused(state, "tag Bob hand head", "cant_tag_head")


def test_g5_while_the_can_is_down_sticks_are_fetched_and_nobody_is_tagged() -> None:
    state = run(moscow(), "miss Bob", "miss Ann", "hit Dan")  # the last throw leaves the can down
    assert state.phase is Phase.RACE and not state.can_up
    refused(state, "tag Bob stick torso", "can_down")
    run(state, "back Bob")
    run(state, "reset", "tag Ann stick torso")
    assert state.tagged == seat(state, "Ann")


def test_g6_a_stick_stopped_by_the_driver_is_a_miss() -> None:
    state = run(moscow(), "miss Bob", "hit Ann", "reset", "miss Dan")  # the driver stopped Dan's stick
    run(state, "back Bob", "back Ann", "back Dan")
    assert (rank(state, "Ann"), rank(state, "Dan")) == ("corporal", "private")


def test_g7_crossed_sticks_make_the_top_thrower_the_driver() -> None:
    state = run(moscow(), "miss Bob", "miss Ann")
    refused(state, "cross Bob Ann", "cross_not_last")
    refused(state, "cross Ann Dan", "cross_not_field")  # Dan has not thrown
    refused(state, "cross Ann Ann", "same_player")
    run(state, "cross Ann Bob")
    assert state.driver_name == "Ann" and state.round == 2
    assert state.order_names == ["Bob", "Dan", "Cat"]
    off = run(moscow(crossed_sticks=False), "miss Bob", "miss Ann")
    refused(off, "cross Ann Bob", "cross_off")
    later = run(moscow(), "miss Bob", "miss Ann", "miss Dan", "back Bob")
    refused(later, "cross Dan Ann", "cross_nothing")  # only right after the throw


def test_g9_players_join_and_leave_between_rounds() -> None:
    """The text is silent on a yard where players come and go. Between rounds (before a round's first
    event) ``join NAME`` brings a newcomer in on the first rank, throwing last (as a former driver does,
    M9); ``leave NAME`` takes a player out; a driver who leaves is replaced by the last in the order, who
    drove most recently; one who comes back keeps his rank and throws last."""
    state = moscow()  # Cat drives; order Bob, Ann, Dan; round 1 has had no event yet
    run(state, "join Eve")
    assert state.order_names == ["Bob", "Ann", "Dan", "Eve"] and rank(state, "Eve") == "private"
    run(state, "hit Bob")
    refused(state, "join Fay", "not_between_rounds")
    refused(state, "leave Ann", "not_between_rounds")
    run(
        state,
        "reset",
        "miss Ann",
        "miss Dan",
        "miss Eve",
        *(f"back {n}" for n in ("Bob", "Ann", "Dan", "Eve")),
    )
    assert state.round == 2 and rank(state, "Bob") == "corporal"
    run(state, "leave Bob")
    assert state.order_names == ["Ann", "Dan", "Eve"] and not state.present[seat(state, "Bob")]
    refused(state, "hit Bob", "has_left")
    refused(state, "join Ann", "already_playing")
    run(state, "leave Cat")  # the driver leaves: Eve, last in the order, drives
    assert state.driver_name == "Eve" and state.order_names == ["Ann", "Dan"]
    run(state, "join bob")  # names are matched whatever their case
    assert state.order_names == ["Ann", "Dan", "Bob"] and rank(state, "Bob") == "corporal"
    run(state, "leave Ann", "leave Dan")
    refused(state, "leave Bob", "too_few")  # a driver and one thrower stay (M1)
    again = replay(state.record())
    assert again == state and again.record().meta["names"] == ["Ann", "Bob", "Cat", "Dan"]
    full = run(
        game(names=["Ann", "Bob", "Cat", "Dan"], max_players=4), "kick Ann 9", "kick Bob 12", "kick Cat 4"
    )
    run(full, "kick Dan 7")
    refused(full, "join Eve", "too_many")
    marshal = moscow()  # Dan, last in the order, is a marshal: Ann drives when Cat leaves (M18)
    set_rank(marshal, "Dan", "marshal")
    run(marshal, "leave Cat")
    assert marshal.driver_name == "Ann" and marshal.order_names == ["Bob", "Dan"]


def test_g8_a_hit_moves_one_rank_up() -> None:
    state = run(moscow(), "hit Bob", "reset", "miss Ann", "miss Dan", "back Bob", "back Ann", "back Dan")
    assert rank(state, "Bob") == "corporal"
    assert state.line(seat(state, "Bob")) == 18


# -- Moscow -------------------------------------------------------------------------------------------


def test_m1_any_number_of_players_plus_the_driver() -> None:
    two = run(game(names=["Ann", "Bob"], min_players=2), "kick Ann 5", "kick Bob 3")
    assert two.driver_name == "Bob" and two.order_names == ["Ann"]
    run(two, "hit Ann", "back Ann")
    assert rank(two, "Ann") == "corporal"
    many = BankiOptions().replace(max_players=30)
    assert len(new_game([f"P{i}" for i in range(30)], many).names) == 30


def test_m2_each_rank_throws_from_its_own_line() -> None:
    options = BankiOptions()
    assert options.lines[0] == 20 and options.lines[-1] == 2
    state = moscow()
    set_rank(state, "Bob", "captain")
    assert state.line(seat(state, "Bob")) == 12
    assert "12 m line" in " ".join(what_next(state))


def test_m4_one_throw_each_in_turn_and_the_can_is_put_back_after_a_hit() -> None:
    state = moscow()
    refused(state, "hit Ann", "out_of_turn")
    refused(state, "hit Cat", "is_driver")
    run(state, "hit Bob")
    assert not state.can_up
    refused(state, "miss Ann", "can_down")
    refused(state, "back Bob", "wrong_phase")  # nobody fetches before the last throw
    run(state, "reset", "miss Ann")
    refused(state, "reset", "can_up")
    refused(state, "miss Ann", "out_of_turn")


def test_m5_after_the_throws_everyone_fetches_even_if_nobody_hit() -> None:
    """«Arklyje niekas negali numušti skardinės – šiaip po visų metimų reikia eiti pagal lazdas»: "if in a
    round nobody knocks the can down, after all the throws everybody still goes for his stick" — a
    condition, not a ban on hitting: the race follows the last throw with or without a hit."""
    hit = run(moscow(), "miss Bob", "hit Ann", "reset", "miss Dan")
    assert hit.phase is Phase.RACE
    state = run(moscow(), "miss Bob", "miss Ann", "miss Dan")
    assert state.phase is Phase.RACE
    assert all(state.stick[seat(state, n)] is Stick.FIELD for n in ("Ann", "Bob", "Dan"))


def test_m6_tag_and_knock_of_the_standing_can_makes_the_tagged_drive() -> None:
    state = run(moscow(), "hit Bob", "reset", "miss Ann", "miss Dan", "back Bob")
    refused(state, "tag Bob stick torso", "safe")
    refused(state, "knock Cat", "no_tag")
    run(state, "tag Dan stick arm")
    refused(state, "tag Ann stick arm", "tag_pending")
    refused(state, "back Dan", "is_tagged")
    run(state, "knock Cat")
    assert state.driver_name == "Dan" and state.round == 2
    assert rank(state, "Bob") == "corporal"  # M10: the round's hit counts although the round ended early


def test_m7_a_players_knock_frees_the_tagged() -> None:
    state = run(moscow(), "miss Bob", "miss Ann", "miss Dan", "tag Ann hand leg", "knock Bob")
    assert state.tagged is None and not state.can_up
    assert ("news_tag_void", {}) in state.news
    refused(state, "knock Cat", "can_down")
    run(state, "back Ann", "reset")
    run(state, "tag Bob stick torso", "knock Cat")
    assert state.driver_name == "Bob"


def test_m8_the_round_ends_when_everyone_is_back_and_the_driver_drives_on() -> None:
    state = run(moscow(), "miss Bob", "miss Ann", "miss Dan", "back Bob", "back Ann")
    assert state.round == 1
    run(state, "back Dan")
    assert state.round == 2 and state.driver_name == "Cat" and state.phase is Phase.THROW
    assert state.order_names == ["Bob", "Ann", "Dan"]


def test_m9_the_former_driver_throws_last() -> None:
    state = run(moscow(), "miss Bob", "miss Ann", "miss Dan", "tag Bob stick torso", "knock Cat")
    assert state.driver_name == "Bob" and state.order_names == ["Ann", "Dan", "Cat"]


def test_m10_hits_promote_at_the_end_of_the_round() -> None:
    state = run(moscow(), "hit Bob", "reset", "hit Ann", "reset", "miss Dan")
    assert rank(state, "Bob") == "private" and state.steps[seat(state, "Bob")] == 1
    run(state, "back Bob", "back Ann", "back Dan")
    assert (rank(state, "Bob"), rank(state, "Ann"), rank(state, "Dan")) == ("corporal", "corporal", "private")
    assert state.steps == [0, 0, 0, 0]


def test_m11_the_can_is_knocked_only_with_a_stick() -> None:
    state = run(moscow(), "miss Bob", "miss Ann", "miss Dan", "tag Ann hand leg")
    refused(state, "knock Bob hand", "hand_knock")
    refused(state, "knock Bob foot", "hand_knock")


def test_m12_grabbing_anothers_stick_is_a_foul_that_makes_you_drive() -> None:
    state = run(moscow(), "miss Bob", "miss Ann", "miss Dan", "foul Ann grab")
    assert state.driver_name == "Ann" and state.order_names == ["Bob", "Dan", "Cat"]
    marshal = run(moscow(), "miss Bob", "miss Ann", "miss Dan")
    set_rank(marshal, "Ann", "marshal")
    refused(marshal, "foul Ann grab", "foul_fetcher")


def test_m13_stepping_back_over_the_line_is_a_foul() -> None:
    state = run(moscow(), "miss Bob", "miss Ann", "miss Dan")
    refused(state, "foul Bob line", "line_not_back")
    run(state, "back Bob", "foul Bob line")
    assert state.driver_name == "Bob"


def test_m14_the_ladder_of_card_ranks() -> None:
    """«Laipsniai buvo skirtingi – nuo armijos (kareivis, karininkas, generolas ir kt.) iki kortų (devynių
    tūzų-Dievas)» and G3's «kareivis (devynis)», «generolas (karalius)»: the preset ``cards`` climbs nine,
    ten, jack, queen, king, ace to "god"; a king is tagged on the heels only, like the general."""
    options = BankiOptions.preset("cards")
    assert options.ranks == ("nine", "ten", "jack", "queen", "king", "ace", "god")
    state = run(
        game("cards"), "kick Ann 9", "kick Bob 12", "kick Cat 4", "kick Dan 7", "miss Bob", "miss Ann"
    )
    run(state, "miss Dan")
    set_rank(state, "Ann", "king")
    refused(state, "tag Ann stick torso", "cant_tag_part")
    run(state, "tag Ann stick heel")
    set_rank(state, "Bob", "ace")
    run(state, "knock Cat")
    assert state.driver_name == "Ann"
    assert rank(state, "Ann") == "king" and BankiOptions.preset("cards").lines[-1] == 2


def test_m14_the_ladder_of_ranks() -> None:
    assert BankiOptions().ranks == (
        "private", "corporal", "sergeant", "lieutenant", "captain",
        "major", "colonel", "general", "marshal", "sunny",
    )  # fmt: skip
    state = moscow()
    for expected in ("corporal", "sergeant", "lieutenant"):
        first = state.thrower()
        assert first is not None
        order = state.order_names
        run(state, f"hit {order[0]}", "reset", f"miss {order[1]}", f"miss {order[2]}")
        run(state, *(f"back {name}" for name in order))
        assert state.rank_id(first) == expected


def test_m15_a_lieutenants_spear_hit_jumps_a_rank() -> None:
    state = moscow()
    refused(state, "hit Bob spear", "no_spear")
    set_rank(state, "Bob", "lieutenant")
    set_rank(state, "Ann", "lieutenant")
    run(state, "hit Bob spear", "reset", "hit Ann", "reset", "miss Dan", "back Bob", "back Ann", "back Dan")
    assert (rank(state, "Bob"), rank(state, "Ann")) == ("major", "captain")
    any_hit = moscow(spear_jump="any_hit")
    set_rank(any_hit, "Bob", "lieutenant")
    run(any_hit, "hit Bob", "reset", "miss Ann", "miss Dan", "back Bob", "back Ann", "back Dan")
    assert rank(any_hit, "Bob") == "major"


def test_m16_a_colonel_is_tagged_only_with_a_stick() -> None:
    """«pulkininkas. Negalite druskos be pagaliuko.»: "you may not tag him without a stick" — with the
    driver's stick only (the default); or, read as "not while he has no stick in his hand" (the preset
    ``moscow-stick-in-hand``, ``tag_means`` ``holding``), by either means once ``pick NAME`` says he has
    picked his stick up on the field."""
    state = run(moscow(), "miss Bob", "miss Ann", "miss Dan")
    set_rank(state, "Ann", "colonel")
    refused(state, "tag Ann hand torso", "cant_tag_means")
    refused(state, "pick Ann", "pick_unused")  # nothing depends on it under this reading
    run(state, "tag Ann stick torso")
    holding = run(game("moscow-stick-in-hand"), "kick Ann 9", "kick Bob 12", "kick Cat 4", "kick Dan 7")
    run(holding, "miss Bob", "miss Ann", "miss Dan")
    set_rank(holding, "Ann", "colonel")
    assert not holding.taggable(seat(holding, "Ann"))
    refused(holding, "tag Ann stick torso", "cant_tag_unarmed")
    refused(holding, "pick Cat", "is_driver")
    run(holding, "pick Ann")
    assert holding.stick[seat(holding, "Ann")] is Stick.CARRIED and holding.taggable(seat(holding, "Ann"))
    refused(holding, "pick Ann", "pick_not_field")
    run(holding, "tag Ann hand torso")
    assert holding.tagged == seat(holding, "Ann")
    home = run(game("moscow-stick-in-hand"), "kick Ann 9", "kick Bob 12", "kick Cat 4", "kick Dan 7")
    run(home, "miss Bob", "miss Ann", "miss Dan", "pick Ann", "back Ann")  # back with it: safe
    assert home.stick[seat(home, "Ann")] is Stick.HAND


def test_m17_a_general_is_not_tagged_with_a_stick() -> None:
    state = run(moscow(), "miss Bob", "miss Ann", "miss Dan")
    set_rank(state, "Ann", "general")
    refused(state, "tag Ann stick heel", "cant_tag_means")
    run(state, "tag Ann hand heel")


def test_m18_a_marshal_is_never_tagged_may_not_knock_and_may_fetch_others_sticks() -> None:
    state = run(moscow(), "miss Bob", "miss Ann", "miss Dan")
    set_rank(state, "Ann", "marshal")
    refused(state, "tag Ann hand heel", "cant_tag_rank")
    refused(state, "tag Ann stick torso", "cant_tag_rank")
    run(state, "tag Bob stick torso")
    refused(state, "knock Ann", "no_knock_rank")
    refused(state, "bring Dan Bob", "cant_fetch_others")
    refused(state, "bring Ann Bob", "is_tagged")
    run(state, "bring Ann Dan")
    assert state.stick[seat(state, "Dan")] is Stick.HAND


def test_m18_a_marshal_never_becomes_the_driver() -> None:
    """«maršalka. Jo visai negalima sūdyti»: "he may not be tagged at all" — read as "he is never sent to
    the cans": every path that would make a marshal drive is refused, a tag (above), a foul of the line
    (M13) or of another's stick (M12, which he may fetch anyway), and a crossed stick (G7)."""
    state = run(moscow(), "miss Bob", "miss Ann", "miss Dan")
    set_rank(state, "Ann", "marshal")
    run(state, "back Ann")
    refused(state, "foul Ann line", "never_drives")
    refused(state, "foul Ann grab", "foul_fetcher")
    crossed = run(moscow(), "miss Bob")
    set_rank(crossed, "Ann", "marshal")
    run(crossed, "miss Ann")
    refused(crossed, "cross Ann Bob", "never_drives")
    old = run(moscow(never_drive_ranks=()), "miss Bob", "miss Ann", "miss Dan")  # record version 1
    set_rank(old, "Ann", "marshal")
    run(old, "back Ann", "foul Ann line")
    assert old.driver_name == "Ann"
    with pytest.raises(OptionsError, match="may not be tagged either"):
        BankiOptions(never_drive_ranks=("general",))


def test_m19_reaching_the_last_line_ends_the_game() -> None:
    state = moscow()
    set_rank(state, "Ann", "marshal")
    set_rank(state, "Dan", "marshal")
    run(state, "miss Bob", "hit Ann", "reset", "hit Dan", "back Bob", "back Ann", "back Dan")
    assert state.is_over() and [state.names[s] for s in state.winners] == ["Ann", "Dan"]
    refused(state, "hit Bob", "over")
    refused(state, "order Bob sing", "no_orders")  # the Moscow text gives the winner no orders


# -- Chelyabinsk -------------------------------------------------------------------------------------


def test_c1_the_first_driver_is_counted_out_from_the_seed() -> None:
    drivers = set()
    for seed in range(12):
        first = run(game("chelyabinsk", seed=seed), "count")
        again = run(game("chelyabinsk", seed=seed), "count")
        assert first.driver == again.driver is not None
        drivers.add(first.driver)
    assert len(drivers) > 1  # the seed decides, not a fixed seat
    state = run(game("chelyabinsk"), "counted Dan")
    assert state.driver_name == "Dan" and state.phase is Phase.KICK
    refused(state, "counted Ann", "wrong_phase")
    refused(game("chelyabinsk"), "kick Ann 5", "wrong_phase")


def test_c2_the_chelyabinsk_ladder_soldier_to_marshal_a_metre_apart() -> None:
    options = BankiOptions.preset("chelyabinsk")
    assert options.ranks[0] == "soldier" and options.ranks[-1] == "marshal" and len(options.ranks) == 8
    assert options.lines[:2] == (10, 9)


def test_c3_the_kick_orders_everyone_but_the_driver() -> None:
    state = run(game("chelyabinsk"), "counted Cat")
    refused(state, "kick Cat 5", "driver_no_kick")
    run(state, "kick Ann 9", "kick Bob 12", "kick Dan 7")
    assert state.order_names == ["Bob", "Ann", "Dan"] and state.driver_name == "Cat"


def test_c4_sticks_at_the_can_go_to_the_drivers_pile_the_rest_lie_where_they_fell() -> None:
    state = chelyabinsk()
    refused(state, "miss Bob", "where_needed")
    run(state, "miss Bob pile", "miss Ann field")
    assert state.stick[seat(state, "Bob")] is Stick.PILE and state.stick[seat(state, "Ann")] is Stick.FIELD
    refused(state, "back Bob", "stick_in_pile")
    run(state, "back Ann")  # a lying stick is its owner's concern: fetched at any time
    refused(state, "tag Bob stick torso", "wrong_phase")  # no tagging in this game
    with pytest.raises(OptionsError, match="no tagging"):
        BankiOptions.preset("chelyabinsk").replace(tag_means=("any",) * 8)
    refused(moscow(), "miss Bob pile", "where_moscow")


def test_c5_a_hitter_back_with_the_stick_before_the_can_stands_is_promoted() -> None:
    state = run(chelyabinsk(), "hit Bob")
    assert state.stick[seat(state, "Bob")] is Stick.PILE
    run(state, "back Bob")
    assert rank(state, "Bob") == "sergeant" and state.line(seat(state, "Bob")) == 9


def test_c6_a_stick_taken_from_the_pile_at_anothers_hit_keeps_the_rank() -> None:
    state = run(chelyabinsk(), "hit Bob", "reset", "miss Ann pile", "hit Dan", "back Bob", "back Ann")
    assert (rank(state, "Bob"), rank(state, "Ann")) == ("soldier", "soldier")
    run(state, "back Dan")
    assert rank(state, "Dan") == "sergeant"


def test_c7_throwing_goes_on_in_order_among_those_with_a_stick() -> None:
    state = run(chelyabinsk(), "miss Bob field", "miss Ann pile")
    refused(state, "hit Bob", "not_in_hand")
    refused(state, "hit Cat", "is_driver")
    run(state, "back Bob")
    refused(state, "hit Bob", "out_of_turn")  # Dan is next in order
    run(state, "miss Dan field")
    assert state.thrower() == seat(state, "Bob")


def test_c8_the_drivers_own_throw_and_a_snatch_from_the_pile() -> None:
    state = run(chelyabinsk(), "miss Bob pile", "miss Ann pile")
    assert state.phase is Phase.THROW
    assert run(state, "miss Dan pile").phase is Phase.DRIVER_THROW
    refused(state, "hit Bob", "wrong_phase")
    run(state, "snatch Ann")
    assert state.phase is Phase.THROW and state.driver_name == "Cat" and rank(state, "Ann") == "sergeant"
    assert state.thrower() == seat(state, "Ann")
    plain = run(chelyabinsk(snatch_promotes=False), "miss Bob pile", "miss Ann pile", "miss Dan pile")
    refused(plain, "snatch Cat", "is_driver")
    run(plain, "snatch Bob")
    assert rank(plain, "Bob") == "soldier"


def test_c9_a_guarded_pile_frees_the_driver_and_the_last_to_the_line_drives() -> None:
    state = run(chelyabinsk(), "miss Bob pile", "miss Ann pile", "miss Dan pile", "guarded")
    assert state.phase is Phase.RUN
    refused(state, "last Cat", "is_driver")
    run(state, "last Ann")
    assert state.driver_name == "Ann" and state.order_names == ["Bob", "Dan", "Cat"] and state.round == 2
    assert all(stick is Stick.HAND for stick in state.stick)
    # M18 in a game that gives the general a marshal's immunity: he is not the one who drives
    immune = chelyabinsk(never_drive_ranks=("general",))
    run(immune, "miss Bob pile", "miss Ann pile", "miss Dan pile")
    set_rank(immune, "Ann", "general")
    run(immune, "guarded")
    refused(immune, "last Ann", "never_drives")


def test_c10_the_first_marshal_ends_the_game_and_gives_orders() -> None:
    state = chelyabinsk()
    set_rank(state, "Dan", "general")
    run(state, "miss Bob field", "miss Ann field", "hit Dan", "back Dan")
    assert state.is_over() and state.winners == [seat(state, "Dan")]
    refused(state, "back Bob", "over")
    refused(state, "order Dan dance", "order_winner")
    run(state, "order Bob climb the tree", "order Ann whistle three times")
    assert state.orders == [
        (seat(state, "Bob"), "climb the tree"),
        (seat(state, "Ann"), "whistle three times"),
    ]


def test_every_rule_of_the_document_has_a_test_here() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "rules" / "banki.md").read_text(encoding="utf-8")
    rules = sorted(set(re.findall(r"^#+ \*?\*?([GMC]\d+)\b", doc, re.MULTILINE)))
    tested = {
        name.split("_")[1].upper() for name in globals() if name.startswith("test_") and name[5:6] in "gmc"
    }
    assert rules and set(rules) == tested, (rules, sorted(tested))
