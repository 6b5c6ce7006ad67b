"""RULES-2, `burraco-3p`: Burraco for three (FIBUR-3), hand-worked.

Burraco value set: joker 30, two 20, ace 15, K-8 10, 7-3 5; clean burraco 200, dirty
100, closing 100 (needs a burraco and the pozzetto), pozzetto never taken -100.
Seats 0, 1, 2; a hand's `lineup` is pair against one (the lone seat took the big
pozzetto) or each for himself; the pair's total is halved per seat, rounded up to a
multiple of 5; each for himself after a hand that ends with a seat at 1000 or more;
the game ends at 1505.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import (
    PRESETS,
    InvalidHand,
    InvalidOptions,
    available_options,
    game_result,
    option_defaults,
    read_hand,
    resolve,
    rules_from_json,
    rules_to_json,
    score,
)
from scorekeeper.rules.errors import InvalidRules
from scorekeeper.rules.game import DRAWN, FINISHED, PLAYING, TIED
from scorekeeper.rules.model import LineupMode, LineupShape
from scorekeeper.rules.seats import phase_after, phases_of, seat_scores

KEY = "burraco-3p"
PAIR_0_VS_12 = [[0], [1, 2]]
PAIR_1_VS_02 = [[1], [0, 2]]
EACH = [[0], [1], [2]]

# The lone player closes: clean 200 + dirty 100 + melded 230 + closing 100 = 630.
LONE_OUT = {
    "went_out": True,
    "canastas": {"natural": 1, "mixed": 1},
    "meld_points": 230,
    "took_extra_hand": True,
}
# The pair: dirty 100 + melded 80 - left in hand 45 = 135, so 70 each (67.5 rounded up).
PAIR_135 = {"canastas": {"mixed": 1}, "meld_points": 80, "hand_points": 45, "took_extra_hand": True}
# The pair that never reached its pozzetto: melded 40 - hand 75 - pozzetto 100 = -135,
# so -65 each (-67.5 rounded up, toward plus).
PAIR_MINUS_135 = {"meld_points": 40, "hand_points": 75, "took_extra_hand": False}


def read(sides, lineup, phase=None, options=None):
    rules = resolve(KEY, options)
    return rules, read_hand(rules, sides, None, None, lineup, phase)


def seat_totals(sides, lineup, phase=None, options=None) -> list[int]:
    rules, hand = read(sides, lineup, phase, options)
    scores = score(rules, hand)
    seats = seat_scores(rules, hand.lineup, scores)
    for seat in seats:  # each seat's lines add up to its share
        assert sum(line.points for line in seat.lines) == seat.total
    return [seat.total for seat in seats]


def rejected(sides, lineup, phase=None, options=None) -> dict[tuple[int | None, str | None], dict]:
    """Each place a problem is at, with the problems there: their keys and parameters."""
    rules = resolve(KEY, options)
    with pytest.raises(InvalidHand) as info:
        read_hand(rules, sides, None, None, lineup, phase)
    found: dict[tuple[int | None, str | None], dict] = {}
    for problem in info.value.problems:
        found.setdefault((problem.side, problem.field), {})[problem.key] = dict(problem.params)
    return found


# --- The preset ------------------------------------------------------------------------


def test_the_preset_is_burraco_with_three_seats_to_1505():
    rules = PRESETS[KEY]
    assert rules.target == 1505
    assert [(lay.sides, lay.players_per_side) for lay in rules.layouts] == [(3, 1)]
    assert {k.key: k.bonus for k in rules.kinds} == {"natural": 200, "mixed": 100}
    assert rules.going_out.bonus == 100
    assert rules.going_out.needs_extra_hand
    assert rules.extra_hand is not None
    assert rules.extra_hand.penalty_not_taken == 100
    seating = rules.seating
    assert seating is not None
    assert seating.seats == 3
    assert seating.switch_from == 1000
    assert [s.sizes for s in seating.opening] == [(1, 2), (1, 1, 1)]
    assert [s.sizes for s in seating.later] == [(1, 1, 1)]


def test_the_split_rounds_each_share_up_to_a_multiple_of_5():
    seating = PRESETS[KEY].seating
    assert seating is not None
    # Halves: 67.5 -> 70, -67.5 -> -65, 65 stays, 2.5 -> 5, -2.5 -> 0, -70 stays.
    cases = {135: 70, -135: -65, 130: 65, 5: 5, -5: 0, -140: -70, 0: 0, 2005: 1005}
    assert {total: seating.share(total, 2) for total in cases} == cases
    assert [seating.share(total, 1) for total in (135, -135, 0)] == [135, -135, 0]


@given(st.integers(min_value=-2000, max_value=2000).map(lambda n: n * 5))
def test_a_share_is_the_least_multiple_of_5_at_or_above_half(total):
    seating = PRESETS[KEY].seating
    assert seating is not None
    share = seating.share(total, 2)
    assert share % 5 == 0
    assert 2 * share >= total  # never below half
    assert 2 * (share - 5) < total  # and the least such multiple


# --- Pair against one -------------------------------------------------------------------


def test_pair_against_one_the_lone_seat_takes_its_total_and_the_pair_halves_theirs():
    rules, hand = read([LONE_OUT, PAIR_135], PAIR_0_VS_12)
    assert [s.total for s in score(rules, hand)] == [630, 135]
    assert seat_totals([LONE_OUT, PAIR_135], PAIR_0_VS_12) == [630, 70, 70]
    # The lone player may be any seat; the sides come in the line-up's order.
    assert seat_totals([LONE_OUT, PAIR_135], PAIR_1_VS_02) == [70, 630, 70]
    assert seat_totals([PAIR_135, LONE_OUT], [[0, 2], [1]]) == [70, 630, 70]


def test_a_minus_pair_total_is_halved_toward_plus():
    assert seat_totals([LONE_OUT, PAIR_MINUS_135], PAIR_0_VS_12) == [630, -65, -65]


def test_the_pair_can_close_and_the_lone_player_lose():
    # The pair closes: clean 200 + melded 300 + closing 100 = 600 -> 300 each.
    pair_out = {
        "went_out": True,
        "canastas": {"natural": 1},
        "meld_points": 300,
        "hand_points": 20,  # the partner still holds cards: fine for a pair
        "took_extra_hand": True,
    }
    # The lone player took the big pozzetto but is caught: melded 60 - hand 95 = -35.
    lone = {"meld_points": 60, "hand_points": 95, "took_extra_hand": True}
    assert seat_totals([lone, pair_out], PAIR_0_VS_12) == [-35, 290, 290]


def test_the_share_line_explains_the_split():
    rules, hand = read([LONE_OUT, PAIR_135], PAIR_0_VS_12)
    seats = seat_scores(rules, hand.lineup, score(rules, hand))
    # The lone seat's lines are its side's lines, nothing shared.
    assert seats[0].lines == score(rules, hand)[0].lines
    share = seats[1].lines[-1]
    assert (share.rule, share.points) == ("share", -65)
    assert share.key == "line.share"
    assert share.params == {"total": 135, "seats": 2, "share": 70, "multiple": 5}
    assert seats[1] == seats[2]


# --- Each for himself ----------------------------------------------------------------------


def test_each_for_himself_before_the_switch_is_a_hand_the_stock_ended():
    # Nobody took a pozzetto: each -100. Melded 120 - 30 - 100 = -10; 60 - 0 - 100 = -40;
    # a dirty burraco 100 + melded 90 - 55 - 100 = 35.
    sides = [
        {"meld_points": 120, "hand_points": 30, "took_extra_hand": False},
        {"meld_points": 60, "took_extra_hand": False},
        {"canastas": {"mixed": 1}, "meld_points": 90, "hand_points": 55, "took_extra_hand": False},
    ]
    assert seat_totals(sides, EACH, phase=0) == [-10, -40, 35]
    taken = [sides[0], {**sides[1], "took_extra_hand": True}, sides[2]]
    found = rejected(taken, EACH, phase=0)
    assert set(found) == {(1, "took_extra_hand")}
    assert found[(1, "took_extra_hand")] == {"lineup.no_extra_hand": {}}


def test_each_for_himself_after_the_switch_takes_each_total_whole():
    # Three pozzetti of 11: Seat 2 closes: clean 200 + melded 150 + closing 100 = 450;
    # seat 0: melded 70 - 25 = 45; seat 1 never took its pozzetto: 35 - 100 = -65.
    sides = [
        {"meld_points": 70, "hand_points": 25, "took_extra_hand": True},
        {"meld_points": 35, "took_extra_hand": False},
        {**LONE_OUT, "canastas": {"natural": 1}, "meld_points": 150},
    ]
    assert seat_totals(sides, EACH, phase=1) == [45, -65, 450]
    # Without the match's history (the score API) any line-up of the game is possible.
    assert seat_totals(sides, EACH) == [45, -65, 450]


# --- What must be rejected ----------------------------------------------------------------


def test_a_missing_lineup_is_rejected():
    found = rejected([LONE_OUT, PAIR_135], None)
    assert set(found) == {(None, "lineup")}
    assert found[(None, "lineup")] == {"lineup.missing": {"variant": KEY}}


NOT_A_LINEUP = ("lineup.not_list", {"example": [[0], [1, 2]]})


@pytest.mark.parametrize(
    ("lineup", "problem"),
    [
        ([[0], [1]], ("lineup.seat_missing", {"seats": [2]})),
        ([[0], [1, 1]], ("lineup.seat_repeated", {"seats": [1]})),
        ([[0], [1, 3]], ("lineup.seat_range", {"seats": [3], "most": 2})),
        ([[0], [1, -1]], ("lineup.seat_range", {"seats": [-1], "most": 2})),
        ("0 vs 1 2", NOT_A_LINEUP),
        ([[0], []], NOT_A_LINEUP),
        ([[0], [1, "2"]], NOT_A_LINEUP),
        ([[0], [1, True]], NOT_A_LINEUP),
        ([], NOT_A_LINEUP),
    ],
)
def test_a_seat_missing_repeated_or_unknown_is_rejected(lineup, problem):
    found = rejected([LONE_OUT, PAIR_135], lineup)
    key, params = problem
    assert found[(None, "lineup")][key] == params


def test_a_side_count_or_size_the_mode_does_not_allow_is_rejected():
    everyone = {"meld_points": 100, "took_extra_hand": False}
    found = rejected([everyone], [[0, 1, 2]])
    assert set(found) == {(None, "lineup")}
    allowed = found[(None, "lineup")]["lineup.shape"]["allowed"]
    assert {"shape": "pair_against_one", "sizes": [1, 2]} in allowed
    # GENOVA-3's each for himself throughout: no pair.
    found = rejected([LONE_OUT, PAIR_135], PAIR_0_VS_12, options={"lineup_mode": "each_for_self"})
    allowed = found[(None, "lineup")]["lineup.shape"]["allowed"]
    assert allowed == [{"shape": "each_for_self", "sizes": [1, 1, 1]}]


def test_records_must_follow_the_lineup_sides():
    found = rejected([LONE_OUT, PAIR_135, PAIR_135], PAIR_0_VS_12)
    assert set(found) == {(None, "sides")}
    assert found[(None, "sides")] == {"hand.lineup_sides": {"sides": 2, "given": 3}}


def test_a_lone_side_without_its_pozzetto_is_rejected():
    lone = {"meld_points": 60, "hand_points": 95, "took_extra_hand": False}
    found = rejected([lone, PAIR_135], PAIR_0_VS_12)
    assert set(found) == {(0, "took_extra_hand")}
    assert found[(0, "took_extra_hand")] == {"lineup.lone_extra_hand": {}}
    # The problem is the line-up's side 1 (seat 1 alone): the error keeps the line-up, so
    # whoever shows it can name the side by its player.
    rules = resolve(KEY)
    with pytest.raises(InvalidHand) as info:
        read_hand(rules, [PAIR_135, lone], None, None, [[0, 2], [1]])
    assert info.value.problems[0].side == 1
    assert info.value.lineup == ((0, 2), (1,))


def test_a_pair_against_one_after_the_switch_is_rejected():
    found = rejected([LONE_OUT, PAIR_135], PAIR_0_VS_12, phase=1)
    assert set(found) == {(None, "lineup")}
    after = found[(None, "lineup")]["lineup.after_switch"]
    assert after == {"threshold": 1000, "allowed": [{"shape": "each_for_self", "sizes": [1, 1, 1]}]}


def test_a_lone_player_who_closed_holds_no_cards():
    found = rejected([{**LONE_OUT, "hand_points": 10}, PAIR_135], PAIR_0_VS_12)
    assert set(found) == {(0, "hand_points")}


def test_the_usual_burraco_rules_still_hold_per_side():
    # Closing without a burraco, and a burraco reale without the option.
    no_burraco = {"went_out": True, "meld_points": 100, "took_extra_hand": True}
    assert (0, "went_out") in rejected([no_burraco, PAIR_135], PAIR_0_VS_12)
    reale = {**PAIR_135, "canastas": {"ace_to_ace": 1}, "meld_points": 200}
    assert (1, "canastas.ace_to_ace") in rejected([LONE_OUT, reale], PAIR_0_VS_12)
    two_out = {**PAIR_135, **LONE_OUT, "hand_points": 0}
    assert (None, "went_out") in rejected([LONE_OUT, two_out], PAIR_0_VS_12)


def test_a_lineup_in_a_game_without_seats_is_rejected():
    rules = resolve("burraco")
    side = {"meld_points": 50, "took_extra_hand": True}
    with pytest.raises(InvalidHand) as info:
        read_hand(rules, [side, side], lineup=[[0], [1]])
    assert [(p.field, p.key, p.params) for p in info.value.problems] == [
        ("lineup", "lineup.not_seated", {"variant": "burraco"})
    ]


# --- The phase -------------------------------------------------------------------------


def test_the_switch_comes_after_a_hand_that_ends_with_a_seat_at_1000():
    rules = PRESETS[KEY]
    assert phase_after(rules, []) == 0
    assert phase_after(rules, [[630, 70, 70], [995, 140, 200]]) == 0
    assert phase_after(rules, [[630, 70, 70], [1000, 140, 200]]) == 1
    # Once switched it stays switched, even when the leader falls back below 1000.
    assert phase_after(rules, [[1000, 140, 200], [890, 300, 200]]) == 1
    assert phases_of(rules, [[630, 70, 70], [1000, 140, 200], [890, 300, 200]]) == [0, 0, 1]


def test_the_switch_threshold_and_mode_are_options():
    later = resolve(KEY, {"solo_phase_from": 1500})
    assert phase_after(later, [[1000, 0, 0]]) == 0
    assert phase_after(later, [[1500, 0, 0]]) == 1
    each = resolve(KEY, {"lineup_mode": "each_for_self"})
    assert each.seating is not None
    assert each.seating.mode == LineupMode.EACH_FOR_SELF
    assert phase_after(each, [[1200, 0, 0]]) == 0
    # GENOVA-3: three pozzetti of 11 from the first hand: taking one is fine.
    sides = [
        {"meld_points": 70, "hand_points": 25, "took_extra_hand": True},
        {"meld_points": 35, "took_extra_hand": False},
        {"meld_points": 50, "took_extra_hand": True},
    ]
    assert seat_totals(sides, EACH, phase=0, options={"lineup_mode": "each_for_self"}) == [
        45,
        -65,
        50,
    ]


# --- Game end --------------------------------------------------------------------------


def test_the_game_ends_when_a_seat_reaches_1505_and_the_highest_wins():
    rules = PRESETS[KEY]
    assert game_result(rules, [1500, 900, 1200]).status == PLAYING
    reached = game_result(rules, [1505, 900, 1200])
    assert (reached.status, reached.winner) == (FINISHED, 0)
    won = game_result(rules, [1400, 1620, 1510])
    assert (won.status, won.winner) == (FINISHED, 1)
    # A tie for first place at the end: play on (or a draw with tie_rule).
    assert game_result(rules, [1510, 1510, 200]).status == TIED
    drawn = game_result(resolve(KEY, {"tie_rule": "draw"}), [1510, 1510, 200])
    assert (drawn.status, drawn.winner) == (DRAWN, None)
    longer = resolve(KEY, {"target": 2005})
    assert game_result(longer, [1600, 900, 1200]).status == PLAYING


# --- Options -----------------------------------------------------------------------------


def test_the_options_of_burraco_for_three():
    defaults = option_defaults(PRESETS[KEY])
    assert {
        name: defaults[name]
        for name in (
            "target",
            "going_out",
            "natural_canasta",
            "mixed_canasta",
            "semi_clean",
            "burraco_nobile",
            "burraco_reale",
            "lineup_mode",
            "solo_phase_from",
            "tie_rule",
        )
    } == {
        "target": 1505,
        "going_out": 100,
        "natural_canasta": 200,
        "mixed_canasta": 100,
        "semi_clean": None,
        "burraco_nobile": None,
        "burraco_reale": None,
        "lineup_mode": "pair_then_each",
        "solo_phase_from": 1000,
        "tie_rule": "play_on",
    }
    spec = next(s for s in available_options(PRESETS[KEY]) if s.name == "lineup_mode")
    assert spec.choices == ("pair_then_each", "each_for_self")


def test_defaults_resolve_to_the_preset_and_the_rules_round_trip():
    preset = PRESETS[KEY]
    assert resolve(KEY, option_defaults(preset)) == preset
    assert rules_from_json(rules_to_json(preset)) == preset
    changed = resolve(KEY, {"lineup_mode": "each_for_self", "solo_phase_from": 1500})
    assert rules_from_json(rules_to_json(changed)) == changed


def test_burraco_options_score_in_three():
    # A burraco reale (1000) for the lone player: 1000 + melded 200 + closing 100 = 1300.
    lone = {**LONE_OUT, "canastas": {"ace_to_ace": 1}, "meld_points": 200}
    assert seat_totals([lone, PAIR_135], PAIR_0_VS_12, options={"burraco_reale": True}) == [
        1300,
        70,
        70,
    ]
    # A semi-clean burraco at 150 for the pair: 150 + 80 - 45 = 185 -> 92.5 -> 95 each.
    semi = {**PAIR_135, "canastas": {"semi_clean": 1}}
    assert seat_totals([LONE_OUT, semi], PAIR_0_VS_12, options={"semi_clean": True}) == [
        630,
        95,
        95,
    ]
    # Closing worth 200.
    assert seat_totals([LONE_OUT, PAIR_135], PAIR_0_VS_12, options={"going_out": 200}) == [
        730,
        70,
        70,
    ]


@pytest.mark.parametrize(
    "options",
    [
        {"lineup_mode": "pairs"},
        {"solo_phase_from": 1001},
        {"solo_phase_from": -5},
        {"target": 0},
        {"players": 3},
    ],
)
def test_bad_options_are_rejected(options):
    with pytest.raises(InvalidOptions):
        resolve(KEY, options)


def test_seating_checks_its_invariants():
    seating = PRESETS[KEY].seating
    assert seating is not None
    broken = [
        dataclasses.replace(seating, seats=4),  # no layout of four single seats
        dataclasses.replace(seating, opening=(LineupShape("odd", (1, 1)),)),
        dataclasses.replace(seating, later=()),  # a switch to nothing
        dataclasses.replace(seating, opening=(LineupShape("one", (3,)),)),
        dataclasses.replace(seating, share_multiple=0),
        dataclasses.replace(seating, switch_from=1001),
    ]
    for bad in broken:
        with pytest.raises(InvalidRules):
            dataclasses.replace(PRESETS[KEY], seating=bad)
