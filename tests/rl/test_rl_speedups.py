"""The fast paths of the RL layer give what the plain ones would (docs/performance.md, "RL interfaces"):
the C extension against its Python reference (the Bank encoder at every step of every preset, the
vector builder, the mask), the vector builder against NumPy's unpacking, the Thousand encoder's gifts
and finished-trick blocks against ``observe`` at every step, and fresh (never shared) arrays from the
AEC environment."""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys

import numpy as np
import pytest

from koloda import tensor as core
from koloda.bank.options import BankOptions
from koloda.bank.tensor import OBS_SIZE as BANK_OBS_SIZE
from koloda.bank.tensor import TOTALS
from koloda.errors import OptionsError
from koloda.rl import bank_v0, thousand_v0
from koloda.rl.bank_encoding import BankAdapter
from koloda.rl.thousand_encoding import ThousandAdapter
from koloda.tensor import VectorBuilder, mask_python
from koloda.thousand import actions as G
from koloda.thousand import tensor as E
from koloda.thousand.observe import observe


def random_positions(state, rng: random.Random, steps: int):
    """``state`` at up to ``steps`` positions of a random playout (the finished state too, if reached)."""
    for _ in range(steps):
        yield state
        if state.is_over():
            return
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def reference_vector(flags: int, n_bits: int, scalars: list[float], n_zeros: int) -> np.ndarray:
    bits = np.unpackbits(
        np.frombuffer(flags.to_bytes((n_bits + 7) // 8, "little"), np.uint8), bitorder="little"
    )
    return np.concatenate(
        [bits[:n_bits].astype(np.float32), np.array(scalars, np.float32), np.zeros(n_zeros, np.float32)]
    )


def test_the_c_extension_is_built():
    """The project's machines have a C compiler (the README's set-up builds koloda.rl._speedups); without
    it koloda still works, on the Python reference, at a third of the speed. This test says so."""
    assert core._speedups is not None, "koloda._speedups was not built: is a C compiler installed?"
    assert core._speedups.BANK_OBS_SIZE == BANK_OBS_SIZE


@pytest.mark.parametrize(
    ("n_bits", "n_scalars", "n_zeros"), [(309, 13, 0), (218, 19, 23), (8, 1, 0), (1, 0, 0)]
)
@pytest.mark.parametrize("way", ["build", "build_python"])
def test_vector_builder_matches_numpy_unpacking(n_bits, n_scalars, n_zeros, way):
    builder = VectorBuilder(n_bits, n_scalars, n_zeros)
    build = getattr(builder, way)
    rng = random.Random(n_bits)
    cases = [0, (1 << n_bits) - 1, 1 << (n_bits - 1), 1]
    cases += [rng.getrandbits(n_bits) & rng.getrandbits(n_bits) for _ in range(200)]
    for flags in cases:
        scalars = [rng.uniform(-10, 10) for _ in range(n_scalars)]
        got = build(flags, scalars)
        assert got.dtype == np.float32 and got.flags.writeable
        assert np.array_equal(got, reference_vector(flags, n_bits, scalars, n_zeros))


@pytest.mark.parametrize("mask", [core.mask_of, mask_python])
def test_the_mask_equals_the_python_mask_and_refuses_ids_outside_the_space(mask):
    rng = random.Random(4)
    for _ in range(200):
        legal = sorted(rng.sample(range(3150), rng.randrange(0, 12)))
        got = mask(legal, 3150)
        assert got.dtype == np.int8 and got.flags.writeable
        assert np.array_equal(got, mask_python(legal, 3150))
        assert np.array_equal(mask(np.array(legal, np.int64), np.int64(3150)), got)  # NumPy integers too
    for bad in ([3150], [-1], [2, 5, 9999]):
        with pytest.raises(IndexError):
            mask(bad, 3150)


def test_the_c_vector_builder_reads_a_copy_of_the_scalars_and_checks_them():
    """The C code converts each scalar with Python's float(): code run there cannot change what it reads
    (it reads a copy); a wrong count or a float beyond float32 is refused, as struct.pack does."""
    fast = core._speedups  # built, even where KOLODA_NO_SPEEDUPS=1 keeps it unused
    scalars: list[object] = []

    class Emptying(float):
        def __float__(self) -> float:
            scalars.clear()
            return 0.5

    scalars += [Emptying(0.5), 2.0, 3.0]
    got = fast.float_vector(b"\x01", 8, scalars, 3, 12)
    assert got.tolist() == [1.0] + [0.0] * 7 + [0.5, 2.0, 3.0, 0.0]
    with pytest.raises(ValueError, match="3 scalars expected, not 2"):
        fast.float_vector(b"\x01", 8, [1.0, 2.0], 3, 12)
    with pytest.raises(OverflowError):
        fast.float_vector(b"", 0, [1e39], 1, 1)


def test_koloda_no_speedups_runs_the_python_reference_with_the_same_observations():
    """KOLODA_NO_SPEEDUPS=1 (docs/rl.md) switches the C paths off; a whole PettingZoo game of each game
    then sees the same tensors and masks as with C."""
    script = """
import hashlib, random, sys
from koloda import tensor as core
from koloda.rl import bank_v0, thousand_v0
digest = hashlib.sha256()
for module in (bank_v0, thousand_v0):
    env = module.env(players=3)
    env.reset(seed=8)
    rng = random.Random(8)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        digest.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        if terminated or truncated:
            env.step(None)
            continue
        env.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
print(digest.hexdigest()[:16], core.speedups is None)
"""

    def run(flag: str) -> list[str]:
        env = {**os.environ, core.NO_SPEEDUPS: flag}
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()

    with_c, without = run("0"), run("1")
    assert with_c[1] == "False" and without[1] == "True"  # the two runs took different paths
    assert with_c[0] == without[0]


def bank_tables():
    """Every preset at every table size, with trumps chosen in turn (rule 3.2: the choose-trump phase)
    and with a small target (totals clipped at ten targets, seats out of later deals)."""
    for preset in BankOptions.PRESETS:
        for players in (2, 3, 4):
            for extra in ({}, {"trump_choice": "in-turn", "trumps": "own"}, {"target": 3}):
                try:
                    yield BankAdapter(players=players, preset=preset, scope="match", **extra)
                except OptionsError:  # a preset for fewer players, or a set-up the extra excludes
                    continue


def test_the_c_bank_encoder_equals_the_python_reference_at_every_step():
    """Every entry of every seat's tensor, at every step of two matches per preset and table size (all
    trump set-ups, the choice of trumps, seats out, match totals), C against Python."""
    compared = 0
    phases: set[int] = set()
    clipped = False
    for adapter in bank_tables():
        for seed in range(2):
            for state in random_positions(adapter.new_state(seed), random.Random(seed), 250):
                for seat in range(adapter.players):
                    fast = adapter.encode(state, seat)
                    assert fast.dtype == np.float32 and fast.flags.writeable
                    slow = adapter.encoder.encode_python(state, seat)
                    assert np.array_equal(fast, slow), (adapter.options, seat)
                    compared += 1
                    clipped |= bool(np.abs(fast[TOTALS : TOTALS + 4]).max() == 10.0)
                phases.add(state.phase)
    assert compared > 60_000
    # every phase, choose-trump and over included
    assert phases == {"move", "after-draw", "extra-move", "over", "choose-trump"} and clipped


def test_the_bank_encoders_follow_the_states_options_not_the_adapters():
    """A state made with other options than the adapter's is encoded by its own options, in C and in
    Python alike (the Python caches key on them)."""
    plain = BankAdapter(players=2, trumps="two")
    for other in (BankAdapter(players=2, trumps="senior-junior"), BankAdapter(players=2, target=10)):
        for state in random_positions(other.new_state(3), random.Random(3), 60):
            for seat in (0, 1):
                want = other.encoder.encode_python(state, seat)
                assert np.array_equal(plain.encode(state, seat), want)
                assert np.array_equal(plain.encoder.encode_python(state, seat), want)


@pytest.mark.parametrize("way", ["encode", "encode_python"])
def test_the_bank_encoders_refuse_what_is_not_a_bank_position(way):
    adapter = BankAdapter(players=3)
    encode = getattr(adapter.encoder, way)
    state = adapter.new_state(1)
    for seat in (3, -1):
        with pytest.raises(ValueError, match=f"no seat {seat} at a Bank table of 3"):
            encode(state, seat)
    with pytest.raises(AttributeError):
        encode(object(), 0)


def test_vector_builder_refuses_flags_wider_than_its_bytes():
    with pytest.raises(OverflowError):
        VectorBuilder(16, 1).build(1 << 16, [0.0])


def test_vector_builder_survives_pickling():
    builder = pickle.loads(pickle.dumps(VectorBuilder(10, 2, 1)))
    assert builder.build(0b1000000001, [0.5, 2.0]).tolist() == [1.0] + [0.0] * 8 + [1.0, 0.5, 2.0, 0.0]


def test_vector_builder_gives_a_new_array_each_time():
    builder = VectorBuilder(9, 1)
    first = builder.build(0b1, [0.5])
    builder.build(0b110, [0.25])
    assert first.tolist() == [1.0] + [0.0] * 8 + [0.5]


@pytest.mark.parametrize("show_past_tricks", [True, False])
def test_thousand_gifts_and_finished_tricks_follow_observe_at_every_step(show_past_tricks):
    """Rules G7 and G15: the gifts block holds the gifts the seat's view shows, the finished-tricks block
    the cards of the view's finished tricks (only the last one without show_past_tricks), the totals
    block the view's totals, in every phase of several deals of a match (the encoder reads them from the
    state, not from the history or the score book)."""
    adapter = ThousandAdapter(players=3, scope="match", show_past_tricks=show_past_tricks)
    checked = 0
    for seed in range(3):
        for state in random_positions(adapter.new_state(seed), random.Random(seed), 120):
            for seat in range(3):
                v = adapter.encode(state, seat)
                view = observe(state, seat)
                gifts = {G.CARDS[c] for c in np.flatnonzero(v[E.GIFTS : E.GIFTS + 24])}
                assert gifts == {card for _, card in view.gifts}
                played = {G.CARDS[c] for c in np.flatnonzero(v[E.PLAYED : E.PLAYED + 24])}
                if show_past_tricks:
                    # all cards gone from play: the finished tricks (the talon is in the declarer's hand)
                    assert played >= {card for trick in view.tricks for _, card in trick.cards}
                else:
                    assert played == {card for trick in view.tricks for _, card in trick.cards}
                for r in range(3):  # the totals, read from the last deal's score rather than the book
                    total = view.totals[(seat + r) % 3]
                    assert v[E.TOTALS + r] == pytest.approx(min(10.0, max(-10.0, total / 1000)))
                checked += 1
    assert checked > 600


@pytest.mark.parametrize("module", [bank_v0, thousand_v0])
def test_observations_are_fresh_arrays_a_learner_may_keep(module):
    """A replay buffer keeps observations: a later step must not change an earlier one (no shared buffer)."""
    env = module.env(players=3)
    kept = []
    rng = random.Random(2)
    for seed in range(3):
        env.reset(seed=seed)
        for _ in env.agent_iter(60):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            kept.append((obs, obs["observation"].copy(), obs["action_mask"].copy()))
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
    assert len(kept) >= 20
    assert len({o["observation"].tobytes() for o, _, _ in kept}) > 1
    for obs, observation, mask in kept:
        assert np.array_equal(obs["observation"], observation) and np.array_equal(obs["action_mask"], mask)
        assert obs["observation"].flags.writeable


def test_a_seedless_reset_continues_the_last_seeds_stream():
    """reset(seed=s) fixes the stream of later seedless resets (seeded only when one needs it): the game
    seeds are those of random.Random(s), however many seeded resets came before."""
    env = bank_v0.raw_env(players=3)
    env.reset(seed=11)
    env.reset(seed=5)
    stream = random.Random(5)
    for _ in range(3):
        env.reset()
        assert env.state.seed == stream.randrange(2**31)
    env.reset(seed=5)
    env.reset()
    assert env.state.seed == random.Random(5).randrange(2**31)
