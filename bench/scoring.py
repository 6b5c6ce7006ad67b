"""How fast the engine validates and scores hands, per preset.

Run with `make bench`. Prints hands per second; there is no pass/fail here:
the numbers are for comparing one change against another on one machine.
"""

from __future__ import annotations

import time

from scorekeeper.rules import PRESETS, read_hand, score

ROUNDS = 2000


def sample_hand(key: str) -> tuple[list[dict], int | None]:
    """A valid, busy hand for the preset: canastas, cards by kind, penalties."""
    rules = PRESETS[key]
    layout = rules.layouts[-1]
    kinds = {kind.key: 1 for kind in rules.kinds()}
    side = {
        "canastas": kinds,
        "meld_cards": {"high": 7 * len(kinds)},
        "hand_cards": {rules.cards[0].key: 1},
        "penalties": [{"points": 50, "reason": "showed a card"}],
    }
    if rules.extra_hand is not None:
        side["took_extra_hand"] = True
    if rules.red_threes is not None:
        side["red_threes"] = 1
    return [dict(side) for _ in range(layout.sides)], layout.players_per_side


def main() -> None:
    print(f"{'preset':<16}{'hands/s':>12}")
    for key, rules in PRESETS.items():
        sides, players = sample_hand(key)
        start = time.perf_counter()
        for _ in range(ROUNDS):
            score(rules, read_hand(rules, sides, players))
        elapsed = time.perf_counter() - start
        print(f"{key:<16}{ROUNDS / elapsed:>12,.0f}")


if __name__ == "__main__":
    main()
