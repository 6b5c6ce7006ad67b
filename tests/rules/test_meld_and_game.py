"""Initial-meld tables at their boundaries, and the end of the game."""

from __future__ import annotations

import pytest

from scorekeeper.rules import GameResult, MeldRequirement, game_result, meld_requirement, resolve

from .helpers import ALL_PRESETS, TARGETS

BOUNDARIES = (-5, 0, 1495, 1500, 2995, 3000, 6995, 7000, 7995, 8000, 8995, 9000)

# RULES.md initial-meld tables, as (points, canasta) at each boundary score.
CLASSIC = {
    -5: 15, 0: 50, 1495: 50, 1500: 90, 2995: 90, 3000: 120,
    6995: 120, 7000: 120, 7995: 120, 8000: 120, 8995: 120, 9000: 120,
}  # fmt: skip
SAMBA = {**CLASSIC, 7000: 160, 7995: 160, 8000: 160, 8995: 160, 9000: 160}
BOLIVIA = {**CLASSIC, 7000: 150, 7995: 150, 8000: 150, 8995: 150, 9000: 150}


def _as_pairs(table):
    return {score: (points, None) for score, points in table.items()}


BRAZILIAN = {
    **_as_pairs(CLASSIC),
    7000: (0, "any"),
    7995: (0, "any"),
    8000: (200, "any"),
    8995: (200, "any"),
    9000: (0, "natural"),
}

EXPECTED = {
    "classic": _as_pairs(CLASSIC),
    "classic-2p": _as_pairs(CLASSIC),
    "classic-3p": _as_pairs(CLASSIC),
    "samba": _as_pairs(SAMBA),
    "samba-fournier": _as_pairs(CLASSIC),
    "brazilian": BRAZILIAN,
    "bolivia": _as_pairs(BOLIVIA),
    "buraco": dict.fromkeys(BOUNDARIES, (0, None)),
    "burraco": dict.fromkeys(BOUNDARIES, (0, None)),
}


@pytest.mark.parametrize("key", ALL_PRESETS)
@pytest.mark.parametrize("score", BOUNDARIES)
def test_meld_table_boundaries(key, score):
    requirement = meld_requirement(resolve(key), score)
    assert isinstance(requirement, MeldRequirement)
    assert (requirement.points, requirement.canasta) == EXPECTED[key][score]


@pytest.mark.parametrize("key", ALL_PRESETS)
def test_meld_table_far_from_the_boundaries(key):
    rules = resolve(key)
    low = meld_requirement(rules, -12345)
    high = meld_requirement(rules, 250000)
    assert (low.points, low.canasta) == EXPECTED[key][-5]
    assert (high.points, high.canasta) == EXPECTED[key][9000]


def test_classic_seed_example_score_2200_needs_90():
    # Seed 004: "if your team's score is 2,200 ... you need 90 points to open".
    requirement = meld_requirement(resolve("classic"), 2200)
    assert requirement.to_dict() == {"points": 90, "canasta": None}


def test_brazilian_high_scores_need_a_canasta_first():
    rules = resolve("brazilian")
    assert meld_requirement(rules, 7500).to_dict() == {"points": 0, "canasta": "any"}
    assert meld_requirement(rules, 8500).to_dict() == {"points": 200, "canasta": "any"}
    assert meld_requirement(rules, 9500).to_dict() == {"points": 0, "canasta": "natural"}


@pytest.mark.parametrize("key", ["buraco", "burraco"])
def test_no_minimum_variants(key):
    requirement = meld_requirement(resolve(key), 1800)
    assert requirement.points == 0
    assert requirement.canasta is None


# --- Game end -------------------------------------------------------------------


@pytest.mark.parametrize("key", ALL_PRESETS)
def test_game_end_at_the_target(key):
    rules = resolve(key)
    target = TARGETS[key]
    sides = rules.layouts[0].sides
    below = [target - 5] + [0] * (sides - 1)
    reached = [target] + [0] * (sides - 1)
    assert game_result(rules, below) == GameResult("playing", None)
    result = game_result(rules, reached)
    assert result == GameResult("finished", 0)
    assert result.finished
    # The last side reaching the target wins as well.
    result = game_result(rules, [0] * (sides - 1) + [target + 100])
    assert result == GameResult("finished", sides - 1)


@pytest.mark.parametrize("key", ["classic", "samba", "brazilian", "buraco", "burraco"])
def test_both_over_the_target_the_higher_wins(key):
    rules = resolve(key)
    target = TARGETS[key]
    assert game_result(rules, [target + 50, target + 400]) == GameResult("finished", 1)
    assert game_result(rules, [target + 5, target]) == GameResult("finished", 0)


@pytest.mark.parametrize("key", ["classic", "samba", "bolivia", "burraco"])
def test_tie_at_or_above_target_plays_on(key):
    rules = resolve(key)
    target = TARGETS[key]
    for total in (target, target + 250):
        result = game_result(rules, [total, total])
        assert result == GameResult("tied", None)
        assert not result.finished
    # A tie below the target is simply play going on.
    assert game_result(rules, [target - 100, target - 100]) == GameResult("playing", None)


def test_three_players():
    rules = resolve("classic-3p")
    assert game_result(rules, [4995, 4990, 3000]) == GameResult("playing", None)
    assert game_result(rules, [3000, 5000, 4990]) == GameResult("finished", 1)
    assert game_result(rules, [5100, 5300, 5200]) == GameResult("finished", 1)
    assert game_result(rules, [5100, 5100, 5300]) == GameResult("finished", 2)
    assert game_result(rules, [5200, 1000, 5200]) == GameResult("tied", None)
    assert game_result(rules, [6000, 6000, 6000]) == GameResult("tied", None)
    assert game_result(rules, [5200, 4000, 4000]) == GameResult("finished", 0)


def test_negative_totals_keep_playing():
    rules = resolve("classic")
    assert game_result(rules, [-300, -1200]) == GameResult("playing", None)


def test_target_option_moves_the_end():
    rules = resolve("buraco", {"target": 2000})
    assert game_result(rules, [1995, 0]) == GameResult("playing", None)
    assert game_result(rules, [2000, 0]) == GameResult("finished", 0)
    classic = resolve("classic", {"target": 8000})
    assert game_result(classic, [5000, 7995]) == GameResult("playing", None)
    assert game_result(classic, [8000, 7995]) == GameResult("finished", 0)
