"""Every bonus, penalty and red-three rule of RULES.md, one at a time."""

from __future__ import annotations

import pytest

from .helpers import line_points, score_hand, total_of, totals

# --- Classic family: red threes --------------------------------------------------


@pytest.mark.parametrize("key", ["classic", "classic-2p", "classic-3p"])
@pytest.mark.parametrize(("count", "value"), [(1, 100), (2, 200), (3, 300), (4, 800)])
def test_classic_red_threes_with_a_canasta(key, count, value):
    side = {"canastas": {"mixed": 1}, "meld_points": 150, "red_threes": count}
    # 300 mixed + 150 melded + red threes (100 each, all four 800)
    assert total_of(key, side) == 300 + 150 + value


@pytest.mark.parametrize("key", ["classic", "classic-2p", "classic-3p"])
@pytest.mark.parametrize(("count", "value"), [(1, 100), (2, 200), (3, 300), (4, 800)])
def test_classic_red_threes_count_minus_without_a_canasta(key, count, value):
    side = {"meld_points": 60, "hand_points": 25, "red_threes": count}
    # no canasta (default "no_canasta" rule): 60 - red threes - 25
    assert total_of(key, side) == 60 - value - 25


def test_classic_seed_example_four_red_threes_swing():
    # Seed 004: four red threes without a canasta is -800 instead of +800.
    with_canasta = score_hand(
        "classic",
        [{"canastas": {"natural": 1}, "meld_points": 35, "red_threes": 4}, {}],
    )[0]
    without = score_hand("classic", [{"meld_points": 35, "red_threes": 4}, {}])[0]
    assert line_points(with_canasta, "red_threes") == 800
    assert line_points(without, "red_threes") == -800
    assert with_canasta.total == 500 + 35 + 800
    assert without.total == 35 - 800


@pytest.mark.parametrize("key", ["classic", "classic-2p", "classic-3p"])
def test_classic_red_threes_negative_when_no_meld_option(key):
    options = {"red_threes_negative_when": "no_meld"}
    # No canasta but some melds: positive under "no_meld": 120 + 2 x 100 = 320
    assert total_of(key, {"meld_points": 120, "red_threes": 2}, options) == 320
    # All four, no canasta but melds: 40 + 800 = 840
    assert total_of(key, {"meld_points": 40, "red_threes": 4}, options) == 840
    # Nothing melded at all: minus, -2 x 100 - 30 = -230
    assert total_of(key, {"hand_points": 30, "red_threes": 2}, options) == -230
    assert total_of(key, {"meld_points": 0, "red_threes": 4}, options) == -800
    # The default rule (no_canasta) makes the first case minus: 120 - 200 = -80
    assert total_of(key, {"meld_points": 120, "red_threes": 2}) == -80


def test_classic_going_out_and_concealed():
    side = {"went_out": True, "canastas": {"natural": 1}, "meld_points": 200}
    assert total_of("classic", side) == 500 + 200 + 100
    concealed = score_hand("classic", [{**side, "concealed": True}, {}])[0]
    # Concealed: 200 instead of 100, not in addition.
    assert concealed.total == 500 + 200 + 200
    assert line_points(concealed, "going_out") == 200


def test_classic_black_threes_are_five_point_cards():
    # Classic: black threes are ordinary 5-point cards (melded or in hand).
    side = {"meld_cards": {"black_three": 3, "high": 4}, "hand_cards": {"black_three": 1}}
    assert total_of("classic", side) == 3 * 5 + 4 * 10 - 5


# --- Samba ---------------------------------------------------------------------


@pytest.mark.parametrize(("count", "value"), [(1, 100), (3, 300), (5, 500), (6, 1000)])
def test_samba_red_threes_with_two_canastas(count, value):
    side = {"canastas": {"natural": 1, "mixed": 1}, "meld_points": 200, "red_threes": count}
    assert total_of("samba", side) == 500 + 300 + 200 + value


@pytest.mark.parametrize(("count", "value"), [(1, 100), (3, 300), (6, 1000)])
def test_samba_red_threes_minus_below_two_canastas(count, value):
    side = {"canastas": {"natural": 1}, "meld_points": 100, "red_threes": count}
    # Only one canasta: same amounts, minus.
    assert total_of("samba", side) == 500 + 100 - value


def test_samba_seed_example_red_threes_minus_without_two_canastas():
    # Seed 003: red threes count 100 minus against a side without two canastas.
    scores = score_hand("samba", [{"meld_points": 50, "red_threes": 2}, {}])
    assert line_points(scores[0], "red_threes") == -200


def test_samba_counts_sambas_as_canastas_for_red_threes():
    side = {"canastas": {"samba": 2}, "meld_points": 200, "red_threes": 2}
    assert total_of("samba", side) == 3000 + 200 + 200


def test_samba_bonus_and_no_concealed_bonus():
    side = {"went_out": True, "canastas": {"samba": 1, "natural": 1}, "meld_points": 300}
    plain = total_of("samba", side)
    concealed = total_of("samba", {**side, "concealed": True})
    # 1500 + 500 + 300 + 200; concealed scores as plain going out.
    assert plain == concealed == 2500


# --- Samba (Fournier) ----------------------------------------------------------


@pytest.mark.parametrize(("count", "value"), [(1, 100), (4, 400), (6, 1000)])
def test_fournier_red_threes_with_two_canastas(count, value):
    side = {"canastas": {"samba": 1, "natural": 1}, "meld_points": 300, "red_threes": count}
    assert total_of("samba-fournier", side) == 1500 + 500 + 300 + value


@pytest.mark.parametrize(
    ("canastas", "count"), [({}, 1), ({}, 2), ({"natural": 1}, 3), ({"samba": 1}, 6)]
)
def test_fournier_red_threes_cost_500_each_below_two_canastas(canastas, count):
    bonus = {"natural": 500, "samba": 1500}
    side = {"canastas": canastas, "meld_points": 150, "red_threes": count}
    expected = sum(bonus[k] * n for k, n in canastas.items()) + 150 - 500 * count
    assert total_of("samba-fournier", side) == expected


@pytest.mark.parametrize("count", [1, 2, 6])
def test_fournier_red_threes_in_hand_cost_1500_each(count):
    side = {"meld_points": 50, "hand_points": 20, "red_threes_in_hand": count}
    assert total_of("samba-fournier", side) == 50 - 20 - 1500 * count


def test_fournier_red_threes_in_hand_and_laid_down_together():
    side = {
        "canastas": {"natural": 2},
        "meld_points": 200,
        "red_threes": 3,
        "red_threes_in_hand": 2,
    }
    # 1000 + 200 + 300 - 3000
    assert total_of("samba-fournier", side) == -1500


@pytest.mark.parametrize(
    "rule",
    [
        "three_wild_canasta",
        "stock_out_of_turn",
        "pile_out_of_turn",
        "play_out_of_turn",
        "out_after_refusal",
    ],
)
def test_fournier_catalogue_penalties_cost_100_each(rule):
    one = total_of("samba-fournier", {"meld_points": 100, "penalties": [{"rule": rule}]})
    three = total_of(
        "samba-fournier", {"meld_points": 100, "penalties": [{"rule": rule, "count": 3}]}
    )
    assert one == 0
    assert three == -200


def test_fournier_all_five_penalties_together():
    rules = [
        "three_wild_canasta",
        "stock_out_of_turn",
        "pile_out_of_turn",
        "play_out_of_turn",
        "out_after_refusal",
    ]
    side = {"meld_points": 200, "penalties": [{"rule": r, "count": 1} for r in rules]}
    assert total_of("samba-fournier", side) == 200 - 500


def test_fournier_goes_out_with_one_samba():
    side = {"went_out": True, "canastas": {"samba": 1}, "meld_points": 150}
    assert total_of("samba-fournier", side) == 1500 + 150 + 200


# --- Brazilian -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "value"), [(1, 100), (2, 200), (3, 300), (4, 400), (5, 1000), (6, 1200)]
)
def test_brazilian_red_threes(count, value):
    with_canasta = {"canastas": {"mixed": 1}, "meld_points": 100, "red_threes": count}
    without = {"meld_points": 100, "red_threes": count}
    assert total_of("brazilian", with_canasta) == 300 + 100 + value
    assert total_of("brazilian", without) == 100 - value


def test_brazilian_a_bolivia_is_a_canasta_for_red_threes():
    side = {"canastas": {"bolivia": 1}, "meld_points": 200, "red_threes": 2}
    assert total_of("brazilian", side) == 2000 + 200 + 200


@pytest.mark.parametrize("key", ["brazilian", "bolivia"])
@pytest.mark.parametrize("count", [1, 2, 4])
def test_black_threes_in_hand_cost_100_each(key, count):
    side = {"meld_points": 100, "hand_points": 40, "black_threes_in_hand": count}
    # not also counted in hand points: 100 - 40 - 100 x count
    assert total_of(key, side) == 100 - 40 - 100 * count


@pytest.mark.parametrize("count", [1, 2, 3])
def test_brazilian_short_sequences_cost_1000_each(count):
    side = {"canastas": {"natural": 1}, "meld_points": 250, "short_sequences": count}
    assert total_of("brazilian", side) == 500 + 250 - 1000 * count


def test_brazilian_going_out_and_concealed():
    side = {"went_out": True, "canastas": {"samba": 1, "mixed": 1}, "meld_points": 400}
    assert total_of("brazilian", side) == 1500 + 300 + 400 + 100
    assert total_of("brazilian", {**side, "concealed": True}) == 1500 + 300 + 400 + 200


def test_brazilian_bolivia_bonus_default_2000():
    side = {"canastas": {"bolivia": 1, "samba": 1}, "meld_points": 500}
    assert total_of("brazilian", side) == 2000 + 1500 + 500


# --- Bolivia -------------------------------------------------------------------


def test_bolivia_escalera_and_bolivia_bonuses():
    side = {"went_out": True, "canastas": {"samba": 1, "bolivia": 1}, "meld_points": 400}
    scores = score_hand("bolivia", [side, {}])
    assert line_points(scores[0], "canasta.samba") == 1500
    assert line_points(scores[0], "canasta.bolivia") == 2500
    assert scores[0].total == 1500 + 2500 + 400 + 200


def test_bolivia_no_concealed_bonus():
    side = {"went_out": True, "canastas": {"samba": 2}, "meld_points": 300}
    assert total_of("bolivia", side) == total_of("bolivia", {**side, "concealed": True})
    assert total_of("bolivia", side) == 3000 + 300 + 200


@pytest.mark.parametrize(
    ("canastas", "count", "value"),
    [
        ({"natural": 1, "samba": 1}, 6, 1000),
        ({"natural": 1, "mixed": 1}, 3, 300),
        ({"samba": 1}, 6, -1000),
        ({"natural": 1}, 2, -200),
        ({}, 1, -100),
    ],
)
def test_bolivia_red_threes(canastas, count, value):
    bonus = {"natural": 500, "mixed": 300, "samba": 1500}
    side = {"canastas": canastas, "meld_points": 300, "red_threes": count}
    expected = sum(bonus[k] * n for k, n in canastas.items()) + 300 + value
    assert total_of("bolivia", side) == expected


# --- Buraco --------------------------------------------------------------------


def test_buraco_ace_to_ace_scores_only_its_own_bonus():
    scores = score_hand(
        "buraco",
        [
            {"took_extra_hand": True, "canastas": {"ace_to_ace": 1}, "meld_points": 140},
            {"took_extra_hand": True},
        ],
    )
    assert line_points(scores[0], "canasta") == 1000
    assert scores[0].total == 1000 + 140


def test_buraco_natural_and_mixed_100():
    side = {"took_extra_hand": True, "canastas": {"natural": 2, "mixed": 1}, "meld_points": 300}
    assert total_of("buraco", side) == 300 + 300


def test_buraco_morto_not_taken_costs_100():
    base = {"canastas": {"mixed": 1}, "meld_points": 120, "hand_points": 50}
    assert total_of("buraco", {**base, "took_extra_hand": True}) == 100 + 120 - 50
    assert total_of("buraco", {**base, "took_extra_hand": False}) == 100 + 120 - 50 - 100


def test_buraco_seed_example_morto_not_taken_plus_cards_in_hand():
    # Seed 001: a player who could not take the extra hand loses 100 plus the
    # points of the cards left in hand.
    assert total_of("buraco", {"took_extra_hand": False, "hand_points": 65}) == -165


def test_buraco_going_out_100_and_no_concealed_bonus():
    side = {
        "went_out": True,
        "took_extra_hand": True,
        "canastas": {"natural": 1},
        "meld_points": 90,
    }
    assert total_of("buraco", side) == 100 + 90 + 100
    assert total_of("buraco", {**side, "concealed": True}) == 100 + 90 + 100


# --- Burraco -------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2])
def test_burraco_clean_dirty_and_closing(players):
    side = {
        "went_out": True,
        "took_extra_hand": True,
        "canastas": {"natural": 2, "mixed": 1},
        "meld_points": 400,
    }
    assert total_of("burraco", side, players=players) == 400 + 100 + 400 + 100


def test_burraco_pozzetto_never_taken_costs_100():
    side = {"took_extra_hand": False, "canastas": {"mixed": 1}, "meld_points": 150}
    assert total_of("burraco", side, players=2) == 100 + 150 - 100


@pytest.mark.parametrize("value", [True, 150])
def test_burraco_semi_clean_option(value):
    options = {"semi_clean": value}
    side = {
        "went_out": True,
        "took_extra_hand": True,
        "canastas": {"semi_clean": 1, "natural": 1},
        "meld_points": 300,
    }
    # 150 semi-clean + 200 clean + 300 + 100 closing
    assert total_of("burraco", side, options, players=1) == 750


def test_burraco_semi_clean_burraco_is_enough_to_close():
    side = {
        "went_out": True,
        "took_extra_hand": True,
        "canastas": {"semi_clean": 1},
        "meld_points": 100,
    }
    assert total_of("burraco", side, {"semi_clean": 150}, players=2) == 150 + 100 + 100


# --- Free penalties ------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "players"),
    [("classic", None), ("samba", None), ("buraco", None), ("burraco", 2), ("bolivia", None)],
)
def test_free_penalties_with_a_reason(key, players):
    side = {
        "took_extra_hand": True,
        "meld_points": 100,
        "penalties": [
            {"points": 75, "reason": "Showed a card"},
            {"points": 5, "reason": "Slow play"},
        ],
    }
    if key not in ("buraco", "burraco"):
        del side["took_extra_hand"]
    scores = score_hand(key, [side, side], players=players)
    assert [s.total for s in scores] == [20, 20]
    reasons = [line.params["reason"] for line in scores[0].lines if line.rule == "penalty"]
    assert reasons == ["Showed a card", "Slow play"]


def test_fournier_mixes_catalogue_and_free_penalties():
    side = {
        "meld_points": 100,
        "penalties": [
            {"rule": "stock_out_of_turn", "count": 2},
            {"points": 50, "reason": "Argued with the scorer"},
        ],
    }
    assert total_of("samba-fournier", side) == 100 - 200 - 50


# --- The hand-score formula as a whole ------------------------------------------


def test_score_is_the_sum_of_its_parts():
    side = {
        "went_out": True,
        "concealed": True,
        "canastas": {"samba": 1, "bolivia": 1, "natural": 1},
        "meld_points": 1000,
        "hand_points": 55,
        "red_threes": 3,
        "black_threes_in_hand": 1,
        "short_sequences": 1,
        "penalties": [{"points": 100, "reason": "Misdeal"}],
    }
    scores = score_hand("brazilian", [side, {}])
    s = scores[0]
    assert line_points(s, "canasta") == 1500 + 2000 + 500
    assert line_points(s, "meld_points") == 1000
    assert line_points(s, "going_out") == 200
    assert line_points(s, "red_threes") == 300
    assert line_points(s, "hand_points") == -55
    assert line_points(s, "black_threes_in_hand") == -100
    assert line_points(s, "short_sequences") == -1000
    assert line_points(s, "penalty") == -100
    assert s.total == 4000 + 1000 + 200 + 300 - 55 - 100 - 1000 - 100
    assert totals("brazilian", [side, {}])[1] == 0
