"""Seeds (koloda.seeds; docs/web.md "Fair shuffles"): secrets that nobody can guess, numbers as before."""

from __future__ import annotations

import collections
import hashlib
import hmac
import random
import struct

import pytest

from koloda import seeds
from koloda.bank import deal as bank_deal
from koloda.errors import RecordError
from koloda.registry import get
from koloda.thousand import deal as thousand_deal

SECRET = "5e" * 32


def test_a_stream_is_hmac_sha256_of_the_label_and_the_block_counter_read_as_big_endian_words() -> None:
    # The definition, written out independently of koloda.seeds: the browser's fair.js computes the same.
    key = bytes.fromhex(SECRET)
    words = [
        word
        for block in range(2)
        for word in struct.unpack(
            ">8I", hmac.new(key, b"label\x00" + block.to_bytes(8, "big"), "sha256").digest()
        )
    ]
    stream = seeds.Stream(SECRET, "label")
    # below(2**32) takes a whole word: the words themselves, in order, across the block boundary
    assert [stream.below(2**32) for _ in range(16)] == words


def test_below_is_uniform_and_rejects_rather_than_folds() -> None:
    stream = seeds.Stream(SECRET, "uniform")
    counts = collections.Counter(stream.below(6) for _ in range(60_000))
    assert sorted(counts) == [0, 1, 2, 3, 4, 5]
    assert all(abs(count - 10_000) < 500 for count in counts.values())  # 5 sigma is about 450
    assert seeds.Stream(SECRET, "x").below(1) == 0
    with pytest.raises(ValueError):
        stream.below(0)


def test_a_shuffle_is_fisher_yates_from_the_end_on_the_stream() -> None:
    deck = list(range(36))
    seeds.Stream(SECRET, "bank:deal:1").shuffle(deck)
    expected = list(range(36))
    twin = seeds.Stream(SECRET, "bank:deal:1")
    for i in range(35, 0, -1):
        j = twin.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert deck == expected and sorted(deck) == list(range(36))


def test_every_use_of_a_secret_has_its_own_stream() -> None:
    one = seeds.Stream(SECRET, "bank:deal:1")
    two = seeds.Stream(SECRET, "bank:deal:2")
    other = seeds.Stream("5f" + SECRET[2:], "bank:deal:1")
    firsts = [[s.below(2**32) for _ in range(4)] for s in (one, two, other)]
    assert firsts[0] != firsts[1] and firsts[0] != firsts[2]


def test_number_seeds_deal_exactly_as_before_secrets() -> None:
    # The formulas the engines used before issue 28 (the golden records rest on them).
    deck = list(range(36))
    random.Random("bank:7:deal:3").shuffle(deck)
    hands, open_card, stock = bank_deal.shuffle(seed=7, deal_no=3, dealer=0, active=(0, 1), players=2)
    assert stock == deck[: len(stock)] and open_card == deck[len(stock)]
    assert hands == [sum(1 << deck[i] for i in (34, 32, 30, 28)), sum(1 << deck[i] for i in (35, 33, 31, 29))]
    deck24 = list(range(24))
    random.Random(12 * 1_000_003 + 4).shuffle(deck24)
    hands24, talon = thousand_deal.shuffle(seed=12, number=4, dealer=0, players=3)
    assert talon == (1 << deck24[21]) | (1 << deck24[22]) | (1 << deck24[23])
    assert hands24 == [sum(1 << c for c in deck24[start : start + 7]) for start in (14, 0, 7)]


def test_a_secret_deals_differently_from_any_number_and_the_same_every_time() -> None:
    bank = get("bank")
    a = bank.new_game(players=3, seed=SECRET)
    b = bank.new_game(players=3, seed=SECRET)
    assert a == b and a.record().seed == SECRET
    assert bank.replay(a.record()) == a
    assert a != bank.new_game(players=3, seed=int(SECRET[:8], 16))


def test_the_commitment_is_the_sha256_of_the_secret_s_text() -> None:
    assert seeds.commitment(SECRET) == hashlib.sha256(SECRET.encode()).hexdigest()
    assert seeds.commitment(seeds.new_secret()) != seeds.commitment(seeds.new_secret())


@pytest.mark.parametrize("bad", [-1, 1.5, "5E" * 32, "5e" * 31, "zz" * 32, None, True])
def test_a_seed_of_neither_kind_is_refused_with_what_it_was(bad: object) -> None:
    with pytest.raises(RecordError, match="non-negative integer or a secret"):
        seeds.check(bad)
    with pytest.raises(RecordError):
        get("thousand").new_game(players=3, seed=bad)  # type: ignore[arg-type]


def test_new_secrets_are_256_bits() -> None:
    secret = seeds.new_secret()
    assert seeds.is_secret(secret) and len(bytes.fromhex(secret)) == 32


def test_bot_seeds_of_a_secret_are_secret_and_of_a_number_as_before() -> None:
    assert seeds.bot_seed(4, 2) == 42
    assert seeds.bot_seed(SECRET, 2) == seeds.bot_seed(SECRET, 2) != seeds.bot_seed(SECRET, 1)
