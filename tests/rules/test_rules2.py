"""RULES-2.md: the new presets, the new options and what they reject, hand-worked."""

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
    meld_requirement,
    option_defaults,
    read_hand,
    resolve,
    rules_from_json,
    rules_to_json,
    score,
)
from scorekeeper.rules.errors import InvalidRules
from scorekeeper.rules.game import DRAWN, FINISHED, PLAYING, TIED
from scorekeeper.rules.model import (
    CanastaClause,
    GameEnd,
    GameEndMode,
    GoingOut,
    LayoutTarget,
    MeldTier,
)

from .helpers import (
    ALL_PRESETS,
    HF_OTHER,
    HF_OUT,
    NEW_PRESETS,
    assert_a_line_of_keys,
    assert_keys_and_numbers,
    line_points,
    problems,
    score_hand,
    totals,
)


def _hf(side: dict, **more: object) -> dict:
    """A Hand and Foot side with every field the form would send."""
    return {"feet_taken": 0, **side, **more}


# --- Hand and Foot ----------------------------------------------------------------------


def test_hand_and_foot_worked_hand():
    # 2 clean 1000 + 2 dirty 600 + wild 1500 + cards 600 + out 100 + 2 red threes 200 = 4000;
    # 1 clean 500 + cards 300 + red three 100 - held red three 100 - hand 85 - foot 120 = 595.
    scores = score_hand("hand-and-foot", [HF_OUT, HF_OTHER])
    assert [s.total for s in scores] == [4000, 595]
    assert line_points(scores[1], "foot_points") == -120
    assert line_points(scores[1], "red_threes_in_hand") == -100
    assert line_points(scores[0], "canasta.wild") == 1500


def test_hand_and_foot_foot_cards_count_like_points():
    other = {**HF_OTHER, "foot_cards": {"joker": 1, "ace": 2, "low": 2}}
    del other["foot_points"]
    assert totals("hand-and-foot", [HF_OUT, other]) == [4000, 595 + 120 - 100]


def test_hand_and_foot_needs_the_books_and_the_foot():
    short = {**HF_OUT, "canastas": {"natural": 2, "mixed": 2}}
    assert problems("hand-and-foot", [short, HF_OTHER]) == {(0, "went_out")}
    no_foot = {**HF_OUT, "feet_taken": 0}
    assert problems("hand-and-foot", [no_foot, HF_OTHER]) == {(0, "went_out")}


def test_hand_and_foot_rejections():
    assert (1, "feet_taken") in problems("hand-and-foot", [HF_OUT, {**HF_OTHER, "feet_taken": 3}])
    all_feet = {**HF_OTHER, "feet_taken": 2}
    assert problems("hand-and-foot", [HF_OUT, all_feet]) == {(1, "foot_points")}
    many_red = {**HF_OTHER, "red_threes": 9}  # 2 + 9 + 1 held > 10 in five packs
    assert (None, "red_threes") in problems("hand-and-foot", [HF_OUT, many_red])
    assert problems("hand-and-foot", [HF_OUT, {**HF_OTHER, "exact_pickups": 1}]) == {
        (1, "exact_pickups")
    }
    assert problems("classic", [{"foot_points": 20}, {}]) == {(0, "foot_points")}


def test_hand_and_foot_players_alone():
    out = {**HF_OUT, "feet_taken": 1, "foot_points": 30}
    sides = [out, {"feet_taken": 1}, {"feet_taken": 0}, {"feet_taken": 0}]
    # Four sides without "players": one player each; a player who went out played the foot.
    assert problems("hand-and-foot", sides) == {(0, "foot_points")}
    held = {**HF_OUT, "feet_taken": 1, "red_threes_in_hand": 1}
    found = problems("hand-and-foot", [held, {}, {}, {}])
    assert (0, "red_threes_in_hand") in found


def test_hand_and_foot_deck_grows_with_the_table():
    six = [{"red_threes": 4}, {"red_threes": 4}, {"red_threes": 4}]  # 3 sides of 2: 7 packs
    assert totals("hand-and-foot", six) == [400, 400, 400]
    too_many = [{"red_threes": 5}, {"red_threes": 5}, {"red_threes": 5}]  # 15 > 14
    assert (None, "red_threes") in problems("hand-and-foot", too_many)
    assert (None, "red_threes") in problems(
        "hand-and-foot", six, options={"packs": 5}
    )  # 12 > 10 with the packs option


def test_hand_and_foot_meld_minimum_follows_the_deal():
    rules = resolve("hand-and-foot")
    assert [meld_requirement(rules, 9000, deal=d).points for d in (1, 2, 3, 4, 7)] == [
        50,
        90,
        120,
        150,
        150,
    ]
    by_score = resolve("hand-and-foot", {"game_end": "target"})
    assert meld_requirement(by_score, 2500).points == 90
    assert meld_requirement(by_score, 2495).points == 50
    mine = resolve("hand-and-foot", {"meld_minimums_by_deal": [60, 90, 120, 150]})
    assert meld_requirement(mine, 0, deal=1).points == 60


def test_hand_and_foot_game_of_four_deals_and_a_draw():
    rules = resolve("hand-and-foot")
    assert game_result(rules, [9000, 100], deals_played=3).status == PLAYING
    assert game_result(rules, [100, 900], deals_played=4) == game_result(
        rules, [100, 900], deals_played=4
    )
    assert game_result(rules, [100, 900], deals_played=4).winner == 1
    drawn = game_result(rules, [900, 900, 100], deals_played=4)
    assert (drawn.status, drawn.winner, drawn.over, drawn.finished) == (DRAWN, None, True, False)
    six = resolve("hand-and-foot", {"deals": 6, "tie_rule": "play_on"})
    assert game_result(six, [900, 100], deals_played=4).status == PLAYING
    assert game_result(six, [900, 900], deals_played=6).status == TIED
    by_target = resolve("hand-and-foot", {"game_end": "target"})
    assert game_result(by_target, [10000, 100]).status == FINISHED


def test_hand_and_foot_deal_keyed_going_out():
    options = {
        "going_out_by_deal": [100, 200, 300, 400],
        "going_out_needs_by_deal": [
            [{"count": 1, "kinds": ["natural"]}],
            [{"count": 2, "kinds": ["natural"]}],
        ],
    }
    rules = resolve("hand-and-foot", options)
    out = {"went_out": True, "canastas": {"natural": 1}, "meld_points": 100, "feet_taken": 1}
    first = score(rules, read_hand(rules, [out, {}], deal=1))
    assert line_points(first[0], "going_out") == 100
    third = {**out, "canastas": {"natural": 2}, "meld_points": 200}
    assert line_points(score(rules, read_hand(rules, [third, {}], deal=3))[0], "going_out") == 300
    assert (0, "went_out") in problems("hand-and-foot", [out, {}], options=options, deal=2)


def test_hand_and_foot_house_rules():
    minus = score_hand("hand-and-foot", [{"red_threes": 2}, {}], {"red_threes_laid": "minus"})
    assert minus[0].total == -200
    held = totals("hand-and-foot", [{"red_threes_in_hand": 1}, {}], {"red_three_held": 500})
    assert held[0] == -500
    out = {**HF_OUT, "feet_taken": 1}
    assert (0, "went_out") in problems(
        "hand-and-foot", [out, HF_OTHER], options={"going_out_needs_all_feet": True}
    )
    bonus = {"exact_pickup_bonus": True}
    assert totals("hand-and-foot", [{**HF_OTHER, "exact_pickups": 1}, {}], bonus)[0] == 695
    no_wild = {"wild_canasta": False}
    without = {**HF_OUT, "canastas": {"natural": 2, "mixed": 2}, "meld_points": 300}
    assert totals("hand-and-foot", [without, {}], no_wild)[0] == 1000 + 600 + 300 + 100 + 200
    assert (0, "canastas.wild") in problems("hand-and-foot", [HF_OUT, {}], options=no_wild)


# --- Classic for six ------------------------------------------------------------------


def test_classic_6p_layouts_targets_and_minimums():
    rules = resolve("classic-6p")
    assert {lay.key for lay in rules.layouts} == {"2x3", "3x2"}
    assert rules.deck.size == 162
    assert game_result(rules, [7500, 100, 0], layout="3x2").winner == 0
    assert game_result(rules, [7500, 100], layout="2x3").status == PLAYING
    assert meld_requirement(rules, 7500, sides=2).points == 150
    assert meld_requirement(rules, 7500, sides=3).points == 120
    set_target = resolve("classic-6p", {"target": 8000})
    assert set_target.target_for("3x2") == set_target.target_for("2x3") == 8000


def test_classic_6p_scoring():
    # 5 red threes on one side: 1000; 6: 1200; two canastas to go out.
    out = {"went_out": True, "canastas": {"natural": 1, "mixed": 1}, "meld_points": 300}
    assert totals("classic-6p", [{**out, "red_threes": 5}, {}], players=3)[0] == 2200
    assert totals("classic-6p", [{"red_threes": 6, "canastas": {"mixed": 1}, "meld_points": 70},
                                 {}], players=3)[0] == 300 + 70 + 1200  # fmt: skip
    one = {**out, "canastas": {"natural": 1}}
    assert problems("classic-6p", [one, {}], players=3) == {(0, "went_out")}
    wild = totals(
        "classic-6p",
        [{"canastas": {"wild": 1}, "meld_points": 140}, {}, {}],
        {"wild_canasta": 2000},
        players=2,
    )
    assert wild[0] == 2140


# --- Buraco in partnerships -------------------------------------------------------------


def test_buraco_4p_worked_hand():
    out = {
        "went_out": True,
        "took_extra_hand": True,
        "canastas": {"natural": 1, "ace_to_king": 1},
        "meld_points": 200,
    }
    other = {"took_extra_hand": False, "canastas": {"mixed": 1}, "meld_points": 80,
             "hand_points": 45}  # fmt: skip
    # 200 + 500 + 200 + 100 = 1000; 100 + 80 - 45 - 100 (morto) = 35.
    assert totals("buraco-4p", [out, other]) == [1000, 35]
    minus = totals("buraco-4p", [out, other], {"meld_minus_when": "no_clean_canasta"})
    assert minus == [1000, 100 - 80 - 45 - 100]


def test_buraco_4p_rejections():
    low = {"took_extra_hand": True, "canastas": {"ace_to_king": 1}, "meld_points": 105}
    assert problems("buraco-4p", [low, {"took_extra_hand": True}]) == {(0, "meld_points")}
    dirty_out = {"went_out": True, "took_extra_hand": True, "canastas": {"mixed": 2},
                 "meld_points": 100}  # fmt: skip
    assert problems("buraco-4p", [dirty_out, {"took_extra_hand": True}]) == {(0, "went_out")}
    jokers = [
        {"took_extra_hand": True, "hand_cards": {"joker": 3}},
        {"took_extra_hand": True, "hand_cards": {"joker": 2}},
    ]
    assert (None, "hand_cards.joker") in problems("buraco-4p", jokers)
    assert totals("buraco-4p", [{"took_extra_hand": True, "hand_cards": {"joker": 1}},
                                {"took_extra_hand": True}])[0] == -20  # fmt: skip


# --- New options on the presets that were there --------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"red_three_totals": {"4": 1000}, "red_three": 150},
        {"red_three": 150, "red_three_totals": {"4": 1000}},
    ],
)
def test_red_three_totals_win_whatever_the_order(options):
    assert totals("classic", [{"red_threes": 4, "canastas": {"mixed": 1}, "meld_points": 50},
                              {}], options)[0] == 300 + 50 + 1000  # fmt: skip
    assert totals("classic", [{"red_threes": 3, "canastas": {"mixed": 1}, "meld_points": 50},
                              {}], options)[0] == 300 + 50 + 450  # fmt: skip


def test_red_threes_minus_schedule():
    assert totals("classic", [{"red_threes": 4}, {}])[0] == -800
    assert totals("classic", [{"red_threes": 4}, {}], {"red_threes_minus": "each"})[0] == -400
    assert totals("brazilian", [{"red_threes": 5}, {}], {"red_threes_minus": "each"})[0] == -500


def test_red_three_totals_rejections():
    with pytest.raises(InvalidOptions) as info:
        resolve("classic", {"red_three_totals": {"5": 1000}})
    assert info.value.problems[0].field == "options.red_three_totals"
    with pytest.raises(InvalidOptions):
        resolve("samba-fournier", {"red_three_totals": {"6": 1000}})


def test_wild_canasta_and_its_penalty_in_classic():
    assert problems("classic", [{"canastas": {"wild": 1}, "meld_points": 140}, {}]) == {
        (0, "canastas.wild")
    }
    options = {"wild_canasta": True, "incomplete_wild_penalty": True}
    side = {"canastas": {"wild": 1}, "meld_points": 140}
    assert totals("classic", [side, {}], options)[0] == 1000 + 140
    assert totals("classic", [{"incomplete_wild": 1}, {}], options)[0] == -1000
    assert problems("classic", [{"incomplete_wild": 2}, {}], options) == {(0, "incomplete_wild")}
    below = {"canastas": {"wild": 1}, "meld_points": 135}
    assert problems("classic", [below, {}], options) == {(0, "meld_points")}
    assert problems("classic", [{"incomplete_wild": 1}, {}]) == {(0, "incomplete_wild")}
    with pytest.raises(InvalidOptions) as info:
        resolve("classic", {"incomplete_wild_penalty": True})
    assert info.value.problems[0].field == "options.incomplete_wild_penalty"


def test_going_out_requirements_as_options():
    one = {"went_out": True, "canastas": {"natural": 1}, "meld_points": 50}
    assert problems("classic", [one, {}], {"canastas_to_go_out": 2}) == {(0, "went_out")}
    any_two = {"going_out_needs": [{"count": 2, "kinds": []}]}
    two = {"went_out": True, "canastas": {"natural": 1, "mixed": 1}, "meld_points": 100}
    assert totals("brazilian", [two, {}], any_two)[0] == 500 + 300 + 100 + 100
    assert (0, "went_out") in problems("brazilian", [two, {}])
    for bad in (
        {"canastas_to_go_out": 2, "going_out_needs": [{"count": 1, "kinds": ["natural"]}]},
        {"going_out_needs": [{"count": 1, "kinds": ["samba"]}]},
        {"going_out_needs": [{"count": 0, "kinds": []}]},
        {"canastas_to_go_out": 9},
    ):
        with pytest.raises(InvalidOptions):
            resolve("classic", bad)


def test_meld_minus_when():
    side = {"meld_points": 100, "hand_points": 20}
    assert totals("classic", [side, {}], {"meld_minus_when": "no_canasta"})[0] == -120
    with_one = {**side, "canastas": {"mixed": 1}}
    assert totals("classic", [with_one, {}], {"meld_minus_when": "no_canasta"})[0] == 380


def test_tie_rules():
    classic = resolve("classic")
    assert game_result(classic, [5000, 5000]).status == TIED
    drawn = resolve("classic", {"tie_rule": "draw"})
    assert game_result(drawn, [5000, 5000]).status == DRAWN
    last = resolve("classic", {"tie_rule": "went_out_last"})
    assert game_result(last, [5000, 5000], went_out_last=1).winner == 1
    assert game_result(last, [5000, 5000, 10], went_out_last=2).status == TIED


def test_buraco_and_burraco_runs():
    ace_king = {"went_out": True, "took_extra_hand": True, "canastas": {"ace_to_king": 1},
                "meld_points": 110}  # fmt: skip
    assert totals("buraco", [ace_king, {"took_extra_hand": True}], {"ace_to_king": True})[0] == 710
    assert (0, "canastas.ace_to_king") in problems("buraco", [ace_king, {"took_extra_hand": True}])
    reale = {"took_extra_hand": True, "canastas": {"ace_to_ace": 1}, "meld_points": 135}
    assert totals("burraco", [reale, {"took_extra_hand": True}], {"burraco_reale": True})[0] == 1135
    assert (0, "canastas.ace_to_ace") in problems("burraco", [reale, {"took_extra_hand": True}])
    nobile = {"took_extra_hand": True, "canastas": {"ace_to_king": 1}, "meld_points": 115}
    assert (0, "meld_points") in problems(
        "burraco", [nobile, {"took_extra_hand": True}], {"burraco_nobile": 500}
    )


def test_card_values_option():
    sides = [{"took_extra_hand": True, "hand_cards": {"joker": 1}}, {"took_extra_hand": True}]
    assert totals("buraco-4p", sides, {"card_values": {"joker": 50}})[0] == -50
    with pytest.raises(InvalidOptions):
        resolve("buraco", {"card_values": {"joker": 50}})
    with pytest.raises(InvalidOptions):
        resolve("classic", {"card_values": {"ace": 22}})


# --- Every preset: options, defaults, order, round trips ------------------------------


@pytest.mark.parametrize("key", [*ALL_PRESETS, *NEW_PRESETS])
def test_defaults_resolve_to_the_preset_and_round_trip(key):
    preset = PRESETS[key]
    assert resolve(key, option_defaults(preset)) == preset
    assert rules_from_json(rules_to_json(preset)) == preset
    for spec in available_options(preset):
        described = spec.to_dict()
        assert described["type"] in {
            "points", "optional_points", "choice", "meld_table", "int", "bool", "clauses",
            "totals", "points_list", "clauses_list", "card_values", "special_hands",
        }  # fmt: skip


@pytest.mark.parametrize("key", ALL_PRESETS)
def test_rules_frozen_before_rules_2_read_back(key):
    """A match frozen before these fields existed reads back as the same rules."""
    data = rules_to_json(PRESETS[key])
    for name in ("game_end", "meld_by_deal", "meld_minus_when", "optional_penalties"):
        data.pop(name)
    for kind in data["canasta_kinds"]:
        for name in ("min_points", "group", "max_on_table", "optional"):
            kind.pop(name)
    old = rules_from_json(data)
    assert old.game_end == PRESETS[key].game_end
    assert old.target == PRESETS[key].target


OPTION_SAMPLES = {
    "classic": {
        "red_three": 150,
        "red_three_totals": {"4": 1000},
        "wild_canasta": 2000,
        "canastas_to_go_out": 2,
        "tie_rule": "draw",
        "meld_minus_when": "no_canasta",
        "card_values": {"joker": 100},
        "red_threes_minus": "each",
    },
    "hand-and-foot": {
        "wild_canasta": False,
        "going_out_needs": [{"count": 1, "kinds": ["natural"]}],
        "game_end": "target",
        "deals": 6,
        "red_three": 500,
        "red_threes_laid": "minus",
        "packs": 6,
        "exact_pickup_bonus": 200,
    },
}


@pytest.mark.parametrize("key", sorted(OPTION_SAMPLES))
@given(data=st.data())
def test_options_resolve_alike_in_any_order(key, data):
    items = list(OPTION_SAMPLES[key].items())
    chosen = data.draw(st.lists(st.sampled_from(items), unique_by=lambda i: i[0]))
    shuffled = data.draw(st.permutations(chosen))
    assert resolve(key, dict(chosen)) == resolve(key, dict(shuffled))


# --- Words --------------------------------------------------------------------------


def test_lines_carry_a_key_and_parameters():
    scores = score_hand("hand-and-foot", [HF_OUT, HF_OTHER])
    for side in scores:
        for line in side.lines:
            assert set(line.to_dict()) == {"rule", "key", "params", "points"}
            assert_a_line_of_keys(line)
    books = {
        (line.params["kind"], line.params["count"])
        for line in scores[0].lines
        if line.key == "line.canastas"
    }
    assert {("wild", 1), ("natural", 2)} <= books


def test_option_labels_are_keys_naming_what_they_set():
    specs = {s.name: s for s in available_options(PRESETS["buraco"])}
    assert (specs["ace_to_ace"].key, specs["ace_to_ace"].params) == (
        "option.kind",
        {"kind": "ace_to_ace"},
    )
    for spec in specs.values():
        assert_keys_and_numbers(dict(spec.params))


@pytest.mark.parametrize(
    ("key", "sides", "options"),
    [
        ("classic", [{"meld_points": 7, "went_out": True}, {"canastas": {"samba": 1}}], None),
        ("classic", [{"went_out": True}, {"went_out": True, "concealed": "yes"}], None),
        ("hand-and-foot", [HF_OUT, {**HF_OTHER, "feet_taken": 3, "exact_pickups": 1}], None),
        (
            "classic",
            [{"incomplete_wild": 2, "red_threes": 5}, {}],
            {"wild_canasta": True, "incomplete_wild_penalty": True},
        ),
        ("buraco-4p", [{"hand_cards": {"joker": 5}}, {"penalties": [{"rule": "x"}]}], None),
    ],
)
def test_problems_carry_a_key_and_parameters(key, sides, options):
    rules = resolve(key, options)
    with pytest.raises(InvalidHand) as info:
        read_hand(rules, sides)
    for problem in info.value.problems:
        assert problem.key, problem
        assert problem.to_dict()["key"] == problem.key
        assert "who" not in problem.params  # the side is `side`: named at the edge
        assert_keys_and_numbers(dict(problem.params))


def test_option_problems_carry_a_key_and_parameters():
    with pytest.raises(InvalidOptions) as info:
        resolve("classic", {"colour": 1, "target": -5, "incomplete_wild_penalty": True})
    assert {p.key for p in info.value.problems} == {
        "options.unknown",
        "options.bad_value",
        "options.penalty_needs_kind",
    }
    for problem in info.value.problems:
        assert_keys_and_numbers(dict(problem.params))
    bad = next(p for p in info.value.problems if p.key == "options.bad_value")
    assert bad.params == {
        "variant": "classic",
        "option": "target",
        "reason": {"key": "reason.points_positive", "params": {}},
    }


def test_cards_left_in_a_foot_are_something_held():
    from scorekeeper.rules import hand_warnings

    rules = resolve("hand-and-foot")
    hand = read_hand(rules, [{"foot_points": 50}, {"hand_points": 0}])
    assert [w.side for w in hand_warnings(rules, hand)] == [1]


@pytest.mark.parametrize(
    "options",
    [
        {"meld_minimums_by_deal": []},
        {"meld_minimums_by_deal": [50, 92]},
        {"deals": 0},
        {"deals": 13},
        {"packs": 1},
        {"going_out_needs_by_deal": []},
        {"going_out_by_deal": [100, "x"]},
        {"game_end": "forever"},
        {"red_threes_laid": "sideways"},
        {"exact_pickup_bonus": -5},
        {"going_out_needs": [{"count": 1, "kinds": ["samba"]}]},
    ],
)
def test_hand_and_foot_options_refused(options):
    with pytest.raises(InvalidOptions) as info:
        resolve("hand-and-foot", options)
    assert [p.field for p in info.value.problems] == [f"options.{next(iter(options))}"]


def test_classic_6p_knows_its_layout_from_the_side_count():
    rules = resolve("classic-6p")
    assert read_hand(rules, [{}, {}]).players_per_side == 3
    assert read_hand(rules, [{}, {}, {}]).players_per_side == 2


def test_deal_label():
    from scorekeeper.rules import DealLabel, deal_label
    from scorekeeper.rules.game import DealKind

    assert deal_label(resolve("hand-and-foot"), 3) == DealLabel(DealKind.OF, 3, 4)
    assert deal_label(resolve("hand-and-foot", {"deals": 6}), 5) == DealLabel(DealKind.OF, 5, 6)
    # A deal after the last (a tie played off) is an extra deal.
    assert deal_label(resolve("hand-and-foot"), 5) == DealLabel(DealKind.EXTRA, 5, 4)
    assert deal_label(resolve("classic"), 3) is None


# --- A rule set checks its invariants when it is built ---------------------------------


@pytest.mark.parametrize(
    "change",
    [
        {"target": 7},
        {"target": 0},
        {"layouts": ()},
        {"meld_table": (MeldTier(None, 50), MeldTier(100, 60), MeldTier(50, 70))},
        {"meld_table": (MeldTier(0, 50),)},
        {"meld_table": (MeldTier(None, 50, "some"),)},
        {"going_out": GoingOut(100, None, (CanastaClause(1, ("bolivia",)),))},
        {"going_out": GoingOut(100, None, (CanastaClause(0),))},
        {"going_out": GoingOut(102, None, ())},
        {"game_end": GameEnd(mode=GameEndMode.DEALS, deals=0)},
        {"game_end": GameEnd(targets_by_layout=(LayoutTarget("3x3", 5000),))},
    ],
)
def test_broken_rule_sets_are_refused_when_built(change):
    with pytest.raises(InvalidRules):
        dataclasses.replace(PRESETS["classic"], **change)


def test_duplicate_kinds_are_refused():
    classic = PRESETS["classic"]
    with pytest.raises(InvalidRules):
        dataclasses.replace(
            classic, canasta_kinds=(*classic.canasta_kinds, classic.canasta_kinds[0])
        )


def test_duplicate_card_categories_are_refused():
    """Counting cards reads a category's value by its key: two with one key would leave
    the second's value unused, whichever the scorer meant."""
    classic = PRESETS["classic"]
    twin = dataclasses.replace(classic.cards[0], value=classic.cards[0].value + 5)
    with pytest.raises(InvalidRules) as info:
        dataclasses.replace(classic, cards=(*classic.cards, twin))
    assert [p.key for p in info.value.problems] == ["rules.card_keys"]


def test_broken_frozen_rules_are_refused_when_read_back():
    data = rules_to_json(PRESETS["hand-and-foot"])
    data["game_end"]["tie_rule"] = "coin_toss"
    with pytest.raises(InvalidRules):
        rules_from_json(data)
    data = rules_to_json(PRESETS["classic"])
    data["going_out"]["needs"] = [{"count": 1, "kinds": ["escalera"], "groups": []}]
    with pytest.raises(InvalidRules):
        rules_from_json(data)


def test_classic_6p_target_follows_the_number_of_sides():
    """Callers that pass only the totals get the target of the layout they imply."""
    rules = resolve("classic-6p")
    assert game_result(rules, [7500, 0, 0]).status == FINISHED
    assert game_result(rules, [7500, 0]).status == PLAYING
    assert game_result(rules, [10000, 0]).status == FINISHED


def test_a_whole_game_of_hand_and_foot_is_four_deals():
    """Four deals scored in turn: each deal's minimum and going-out bonus; won or drawn."""
    rules = resolve("hand-and-foot", {"going_out_by_deal": [100, 200, 300, 400]})
    books = {"natural": 2, "mixed": 2, "wild": 1}
    out = {"went_out": True, "canastas": books, "meld_points": 600, "feet_taken": 2}
    beaten = {"hand_points": 50, "foot_points": 100, "feet_taken": 1}
    deals = [(out, beaten), (beaten, out), (out, beaten), (beaten, out)]
    running = [0, 0]
    minimums = []
    for number, sides in enumerate(deals, start=1):
        minimums.append(meld_requirement(rules, running[0], deal=number).points)
        assert game_result(rules, running, deals_played=number - 1).status == PLAYING
        scores = score(rules, read_hand(rules, list(sides), deal=number))
        running = [total + side.total for total, side in zip(running, scores, strict=True)]
    assert minimums == [50, 90, 120, 150]
    # Going out: 3700 + the deal's bonus (100, 200, 300, 400); the other side -150.
    assert running == [3800 - 150 + 4000 - 150, -150 + 3900 - 150 + 4100]
    result = game_result(rules, running, deals_played=4)
    assert (result.status, result.winner) == (FINISHED, 1)
    tied = game_result(rules, [running[0], running[0]], deals_played=4)
    assert (tied.status, tied.winner) == (DRAWN, None)


def test_model_room_for_modern_american_caps_and_cross_field_penalties():
    """Kinds capped by group across the table, a penalty barred beside a completed kind."""
    from scorekeeper.rules.model import CountedPenalty, GroupCap, KindGroup

    classic = resolve("classic", {"wild_canasta": True})
    unfinished = CountedPenalty(
        "incomplete_wild", 2000, max_per_side=1, excludes_kind="wild", forbids_going_out=True
    )
    rules = dataclasses.replace(
        classic,
        counted_penalties=(unfinished,),
        group_caps=(GroupCap(KindGroup.WILD, 1),),
    )
    two_wild = [
        {"canastas": {"wild": 1}, "meld_points": 140},
        {"canastas": {"wild": 1}, "meld_points": 140},
    ]
    with pytest.raises(InvalidHand) as info:
        read_hand(rules, two_wild)
    assert {(p.side, p.field) for p in info.value.problems} == {(None, "canastas")}
    beside = [{"canastas": {"wild": 1}, "meld_points": 140, "incomplete_wild": 1}, {}]
    with pytest.raises(InvalidHand) as info:
        read_hand(rules, beside)
    [problem] = info.value.problems
    assert problem.field == "incomplete_wild"
    assert (problem.key, problem.params) == (
        "check.penalty_beside_kind",
        {"penalty": "incomplete_wild", "kind": "wild"},
    )
    out = [
        {"went_out": True, "canastas": {"mixed": 1}, "meld_points": 50, "incomplete_wild": 1},
        {},
    ]
    with pytest.raises(InvalidHand) as info:
        read_hand(rules, out)
    assert {(p.side, p.field) for p in info.value.problems} == {(0, "went_out")}
