"""How fast the engine validates and scores hands, per preset.

Run with `make bench`. Prints hands per second, the best of a few runs (other
work on the machine only ever slows a run down); there is no pass/fail here: the
numbers are for comparing one change against another on one machine.
"""

from __future__ import annotations

import time

from scorekeeper.rules import PRESETS, InvalidHand, read_hand, score

ROUNDS = 2000
RUNS = 5


def sample_hand(key: str) -> tuple[list[dict], int | None, list[list[int]] | None]:
    """A valid, busy hand for the preset: a canasta, cards by kind, a penalty; the
    first of these the preset's rules accept (decks and meld floors differ). A seated
    game's hand is pair against one (its line-up is the third value)."""
    rules = PRESETS[key]
    layout = rules.layouts[-1]
    lineup = [[0], [1, 2]] if rules.seating is not None else None
    count = len(lineup) if lineup is not None else layout.sides
    first = rules.kinds[0].key
    card = next((c.key for c in rules.cards if c.key == "high"), rules.cards[0].key)
    busy = {
        "canastas": {first: 1},
        "meld_cards": {card: 7},
        "hand_cards": {rules.cards[0].key: 1},
        "penalties": [{"points": 50, "reason": "showed a card"}],
    }
    if rules.extra_hand is not None:
        busy["took_extra_hand"] = True
    if rules.red_threes is not None:
        busy["red_threes"] = 1
    plain: dict = {"meld_points": 120, "hand_points": 30}
    if lineup is not None:
        plain["took_extra_hand"] = True
    for side in (busy, plain):
        sides = [dict(side) for _ in range(count)]
        try:
            read_hand(rules, sides, layout.players_per_side, lineup=lineup)
        except InvalidHand:
            continue
        return sides, layout.players_per_side, lineup
    raise SystemExit(f"No sample hand fits {key}: add one to bench/scoring.py")


def main() -> None:
    print(f"{'preset':<16}{'hands/s':>12}")
    for key, rules in PRESETS.items():
        sides, players, lineup = sample_hand(key)
        fastest = float("inf")
        for _ in range(RUNS):
            start = time.perf_counter()
            for _ in range(ROUNDS):
                score(rules, read_hand(rules, sides, players, lineup=lineup))
            fastest = min(fastest, time.perf_counter() - start)
        print(f"{key:<16}{ROUNDS / fastest:>12,.0f}")


if __name__ == "__main__":
    main()
