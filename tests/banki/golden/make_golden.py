"""Regenerate the golden games (only when a rule change is intended): python make_golden.py.

Each game opens with a scripted story and is played to its end by seeded random legal events; the
record and the final observation are written next to this file, and the test replays and compares them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from koloda.banki import BankiOptions, legal_events, new_game, observe

HERE = Path(__file__).parent
OPENINGS = {  # variant: (names, opening, seed)
    "moscow": (
        ["Аня", "Боря", "Вера", "Гоша", "Дима", "Женя", "Зоя"],
        # the narrative of lines 84-98: the fifth thrower knocks the can, the sixth misses, the race
        [
            "kick Аня 9",
            "kick Боря 12",
            "kick Вера 4.5",
            "kick Гоша 9",
            "kick Дима 11",
            "kick Женя 8",
            "kick Зоя 6",
            "kick Аня 3",
            "kick Гоша 4",
            "miss Боря",
            "miss Дима",
            "miss Гоша",
            "miss Аня",
            "hit Женя",
            "reset",
            "miss Зоя",
            "tag Дима stick leg",
            "knock Боря",
            "back Дима",
            "reset",
            "tag Аня hand torso",
            "knock Вера",
        ],
        2026,
    ),
    "chelyabinsk": (
        ["Ann", "Bob", "Cat", "Dan", "Eve"],
        [
            "count",
            "kick Ann 6",
            "kick Bob 8",
            "kick Dan 7",
            "kick Eve 5",
            "hit Bob",
            "back Bob",
            "reset",
            "miss Dan field",
            "miss Ann pile",
            "back Dan",
        ],
        2028,  # the counting-out picks Cat
    ),
}


def main() -> None:
    for variant, (names, opening, seed) in OPENINGS.items():
        state = new_game(names, BankiOptions.preset(variant), seed=seed)
        for line in opening:
            state.apply(state.parse_event(line))
        rng = random.Random(variant)
        while not state.is_over():
            state.apply(rng.choice(list(legal_events(state))))
        (HERE / f"{variant}.json").write_text(state.record().dumps() + "\n", encoding="utf-8")
        expected = json.dumps(observe(state), ensure_ascii=False, indent=1)
        (HERE / f"{variant}.expected.json").write_text(expected + "\n", encoding="utf-8")
        print(variant, len(state.history), "events, winners", [names[s] for s in state.winners])


if __name__ == "__main__":
    main()
