"""Small helpers shared by the rules-engine tests (pure Python, no Flask)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from scorekeeper.rules import InvalidHand, SideScore, read_hand, resolve, score

ALL_PRESETS = (
    "classic",
    "classic-2p",
    "classic-3p",
    "samba",
    "samba-fournier",
    "brazilian",
    "bolivia",
    "buraco",
    "burraco",
)
# RULES-2.md's new presets (tested in test_rules2.py and test_modern_american.py).
NEW_PRESETS = ("classic-6p", "hand-and-foot", "buraco-4p", "modern-american")
# Presets whose hands carry a line-up of seats (tested in test_burraco_three.py).
SEATED_PRESETS = ("burraco-3p",)

# RULES.md: the target of each preset.
TARGETS = {
    "classic": 5000,
    "classic-2p": 5000,
    "classic-3p": 5000,
    "samba": 10000,
    "samba-fournier": 10000,
    "brazilian": 10000,
    "bolivia": 15000,
    "buraco": 3000,
    "burraco": 2005,
}


def score_hand(
    key: str,
    sides: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
) -> tuple[SideScore, ...]:
    """Resolve, read (validate) and score one hand; check the lines add up."""
    rules = resolve(key, dict(options) if options is not None else None)
    hand = read_hand(rules, [dict(side) for side in sides], players)
    scores = score(rules, hand)
    assert len(scores) == len(sides)
    for side_score in scores:
        assert sum(line.points for line in side_score.lines) == side_score.total
    return scores


def totals(
    key: str,
    sides: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
) -> list[int]:
    return [s.total for s in score_hand(key, sides, options, players)]


def total_of(
    key: str,
    side: Mapping[str, Any],
    options: Mapping[str, Any] | None = None,
    *,
    others: int | None = None,
    players: int | None = None,
) -> int:
    """The total of one side scored beside empty opponents (one per missing seat)."""
    rules = resolve(key, dict(options) if options is not None else None)
    if others is None:
        layouts = rules.layouts
        if players is not None:
            layouts = tuple(lay for lay in layouts if lay.players_per_side == players)
        others = layouts[0].sides - 1
    empty: dict[str, Any] = {}
    if rules.extra_hand is not None:
        empty["took_extra_hand"] = True
    return totals(key, [side, *([empty] * others)], options, players)[0]


def problems(
    key: str,
    sides: object,
    options: Mapping[str, Any] | None = None,
    players: object = None,
    deal: object = None,
) -> set[tuple[int | None, str | None]]:
    """The (side, field) pairs of every problem `read_hand` reports; it must reject."""
    rules = resolve(key, dict(options) if options is not None else None)
    with pytest.raises(InvalidHand) as info:
        read_hand(rules, sides, players, deal=deal)
    found = info.value.problems
    assert found, "InvalidHand carried no problems"
    for problem in found:  # a message key and its parameters: the words are the edge's
        assert problem.key
        assert isinstance(problem.params, Mapping)
    return {(p.side, p.field) for p in found}


# What a key looks like: lower case words joined by "_", "-" or "." ("natural", "x2-1").
KEY = re.compile(r"[a-z0-9_.\-]+")


def assert_keys_and_numbers(value: Any, where: str = "params") -> None:
    """`value` holds only numbers, keys, true/false/null, and lists and maps of those: no
    words (the edge makes them)."""
    if isinstance(value, Mapping):
        for name, item in value.items():
            assert isinstance(name, str), f"{where}: key {name!r}"
            assert KEY.fullmatch(name), f"{where}: key {name!r}"
            assert_keys_and_numbers(item, f"{where}.{name}")
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            assert_keys_and_numbers(item, f"{where}[{index}]")
    elif isinstance(value, str):
        assert KEY.fullmatch(value), f"{where}: {value!r} is not a key"
    else:
        assert value is None or isinstance(value, int | bool), f"{where}: {value!r}"


def assert_a_line_of_keys(line: Any) -> None:
    """A score line: its rule and key, and parameters of keys and numbers (a free penalty's
    reason is the scorer's own text)."""
    assert KEY.fullmatch(line.rule), line
    assert KEY.fullmatch(line.key), line
    params = dict(line.params)
    if line.key == "line.penalty.free":
        assert isinstance(params.pop("reason"), str)
    assert_keys_and_numbers(params)


def line_points(side_score: SideScore, rule: str) -> int:
    """The points of the lines of `rule` (or of its sub-rules `rule.*`)."""
    return sum(
        line.points
        for line in side_score.lines
        if line.rule == rule or line.rule.startswith(rule + ".")
    )


# A worked Hand and Foot hand (RULES-2), scored 4000 and 595: the rules and API tests share it.
HF_OUT = {
    "went_out": True,
    "canastas": {"natural": 2, "mixed": 2, "wild": 1},
    "meld_points": 600,
    "red_threes": 2,
    "feet_taken": 2,
}
HF_OTHER = {
    "canastas": {"natural": 1},
    "meld_points": 300,
    "red_threes": 1,
    "red_threes_in_hand": 1,
    "hand_points": 85,
    "foot_points": 120,
    "feet_taken": 1,
}


# A worked Modern American hand: the rules and API tests share it.
# Went out with a natural canasta and a canasta of aces; two red threes, one black three.
MAC_OUT = {
    "went_out": True,
    "canastas": {"natural": 1, "aces": 1},
    "meld_points": 400,
    "red_threes": 2,
    "black_threes": 1,
}
# One mixed canasta, one red three; a player held three sevens; an unfinished sevens meld.
MAC_OTHER = {
    "canastas": {"mixed": 1},
    "meld_points": 150,
    "red_threes": 1,
    "hand_points": 65,
    "players_with_3_sevens": 1,
    "incomplete_sevens": 1,
}
