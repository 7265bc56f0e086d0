"""Random games per second through the research interfaces, against the raw engine in the same run.

For each game (Bank, 3 players, one deal; Thousand, 3 players, one deal) it plays whole games with
uniformly random legal actions three ways: the raw engine (``legal_actions()``, a pick, ``apply()``),
the PettingZoo environment (``env()`` with PettingZoo's wrapper: ``last()`` builds the observation
tensor and the action mask every step, the pick reads the mask) and the OpenSpiel registration
(``legal_actions()`` / ``apply_action()`` including the chance nodes of the deal, no tensors). For the
breakdown it also runs the PettingZoo loop without observations (``last(observe=False)``). ``ratio`` is
PettingZoo / raw (issue 5 asks for at least 1/3). The ways run interleaved in 0.2 s slices.

    .venv/bin/python bench/rl_speed.py [--seconds 3] [--games bank,thousand] [--json]

The encoders and masks run in C where ``koloda._speedups`` is built (``speedups`` in the output);
``KOLODA_NO_SPEEDUPS=1`` in the environment measures the Python reference code instead.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pyspiel

import koloda.rl.openspiel  # noqa: F401 (registers the games)
from koloda import tensor
from koloda.rl import bank_v0

PLAYERS = 3


def race(players: dict[str, Callable[[int], int]], seconds: float) -> dict[str, dict[str, float]]:
    """Run each way of playing in turn, in slices of 0.2 s, for ``seconds`` each. Time is this process's
    CPU time (``time.process_time``): on a machine shared with other processes, wall time mostly measures
    the waiting; interleaving evens out what remains (caches, frequency). Each function plays one whole
    game per call (the argument is the game's seed) and returns the number of player actions."""
    spent = dict.fromkeys(players, 0.0)
    games = dict.fromkeys(players, 0)
    actions = dict.fromkeys(players, 0)
    while min(spent.values()) < seconds:
        for name, play in players.items():
            start = time.process_time()
            while time.process_time() - start < 0.2:
                actions[name] += play(games[name])
                games[name] += 1
            spent[name] += time.process_time() - start
    return {
        name: {
            "games_per_second": games[name] / spent[name],
            "actions_per_second": actions[name] / spent[name],
        }
        for name in players
    }


def raw_player(new_state: Callable[[int], Any]) -> Callable[[int], int]:
    """The engine: ``legal_actions()``, a random pick, ``apply()``."""
    choice = random.Random(0).choice

    def play(seed: int) -> int:
        state = new_state(seed)
        n = 0
        while not state.is_over():
            state.apply(choice(state.legal_actions()))
            n += 1
        return n

    return play


def pettingzoo_player(env: Any) -> Callable[[int], int]:
    """The AEC loop: ``last()`` (observation tensor and mask), a random legal id from the mask, ``step()``."""
    rng = random.Random(0)

    def play(seed: int) -> int:
        env.reset(seed=seed)
        n = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].view(np.bool_).nonzero()[0]  # 0/1 int8 viewed as bool: 4x faster
            env.step(int(legal[rng.randrange(len(legal))]))
            n += 1
        return n

    return play


def pettingzoo_blind_player(env: Any) -> Callable[[int], int]:
    """The AEC loop without observations (``last(observe=False)``, the pick from the engine's legal list):
    what PettingZoo's protocol itself costs, for the breakdown in docs/performance.md."""
    choice = random.Random(0).choice
    state_of = env.unwrapped

    def play(seed: int) -> int:
        env.reset(seed=seed)
        n = 0
        for _ in env.agent_iter():
            _, _, terminated, truncated, _ = env.last(observe=False)
            if terminated or truncated:
                env.step(None)
                continue
            env.step(choice(state_of.state.legal_actions()))
            n += 1
        return n

    return play


def openspiel_player(name: str) -> Callable[[int], int]:
    """pyspiel: chance outcomes of the deal, then ``legal_actions()`` / ``apply_action()``."""
    game = pyspiel.load_game(name, {"players": PLAYERS})
    rng = random.Random(0)

    def play(seed: int) -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                n += 1
        return n

    return play


def measure(game: str, seconds: float) -> dict[str, Any]:
    if game == "bank":
        from koloda.bank import new_game

        raw = raw_player(lambda seed: new_game(players=PLAYERS, seed=seed, scope="deal"))
        zoo = pettingzoo_player(bank_v0.env(players=PLAYERS))
        blind = pettingzoo_blind_player(bank_v0.env(players=PLAYERS))
    else:
        from koloda.rl import thousand_v0
        from koloda.thousand.state import new_game as thousand_game

        raw = raw_player(lambda seed: thousand_game(players=PLAYERS, seed=seed, scope="deal"))
        zoo = pettingzoo_player(thousand_v0.env(players=PLAYERS))
        blind = pettingzoo_blind_player(thousand_v0.env(players=PLAYERS))
    figures: dict[str, Any] = race(
        {
            "raw": raw,
            "pettingzoo": zoo,
            "pettingzoo_no_observation": blind,
            "openspiel": openspiel_player(f"python_koloda_{game}"),
        },
        seconds,
    )
    figures["ratio"] = figures["pettingzoo"]["games_per_second"] / figures["raw"]["games_per_second"]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--games", default="bank,thousand", help="comma-separated: bank, thousand")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "python": platform.python_version(),
        "players": PLAYERS,
        "speedups": tensor.speedups is not None,
    }
    for game in args.games.split(","):
        figures[game] = measure(game, args.seconds)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"C speedups: {'on' if figures['speedups'] else 'off (the Python reference code)'}")
    for game in args.games.split(","):
        f = figures[game]
        print(f"{game}, {PLAYERS} players, one deal per game:")
        for way in ("raw", "pettingzoo", "pettingzoo_no_observation", "openspiel"):
            print(
                f"  {way:26} {f[way]['games_per_second']:8.1f} games/s"
                f"  {f[way]['actions_per_second']:9.0f} actions/s"
            )
        print(f"  PettingZoo / raw = {f['ratio']:.2f} (at least 0.33 wanted)")


if __name__ == "__main__":
    main()
