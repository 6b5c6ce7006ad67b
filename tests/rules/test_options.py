"""House-rule options of every preset, and rule sets frozen as JSON."""

from __future__ import annotations

import dataclasses
import json

import pytest

from scorekeeper.rules import (
    PRESETS,
    InvalidOptions,
    InvalidRules,
    game_result,
    meld_requirement,
    option_defaults,
    read_hand,
    resolve,
    rules_from_json,
    rules_to_json,
    score,
)

from .helpers import ALL_PRESETS, problems, total_of, totals

CLASSIC_TABLE = [
    {"min_score": None, "points": 15, "canasta": None},
    {"min_score": 0, "points": 50, "canasta": None},
    {"min_score": 1500, "points": 90, "canasta": None},
    {"min_score": 3000, "points": 120, "canasta": None},
]

# The options RULES.md says each preset accepts, with the preset's value.
REQUIRED_DEFAULTS = {
    "classic": {
        "target": 5000,
        "going_out": 100,
        "concealed_going_out": 200,
        "natural_canasta": 500,
        "mixed_canasta": 300,
        "red_three": 100,
        "red_threes_negative_when": "no_canasta",
        "meld_minimums": CLASSIC_TABLE,
    },
    "samba": {
        "target": 10000,
        "going_out": 200,
        "natural_canasta": 500,
        "mixed_canasta": 300,
        "samba": 1500,
        "red_three": 100,
        "meld_minimums": [*CLASSIC_TABLE, {"min_score": 7000, "points": 160, "canasta": None}],
    },
    "samba-fournier": {
        "target": 10000,
        "going_out": 200,
        "natural_canasta": 500,
        "mixed_canasta": 300,
        "samba": 1500,
        "red_three": 100,
        "meld_minimums": CLASSIC_TABLE,
    },
    "brazilian": {
        "target": 10000,
        "going_out": 100,
        "concealed_going_out": 200,
        "natural_canasta": 500,
        "mixed_canasta": 300,
        "samba": 1500,
        "bolivia": 2000,
        "red_three": 100,
        "meld_minimums": [
            *CLASSIC_TABLE,
            {"min_score": 7000, "points": 0, "canasta": "any"},
            {"min_score": 8000, "points": 200, "canasta": "any"},
            {"min_score": 9000, "points": 0, "canasta": "natural"},
        ],
    },
    "bolivia": {
        "target": 15000,
        "going_out": 200,
        "natural_canasta": 500,
        "mixed_canasta": 300,
        "samba": 1500,
        "bolivia": 2500,
        "red_three": 100,
        "meld_minimums": [*CLASSIC_TABLE, {"min_score": 7000, "points": 150, "canasta": None}],
    },
    "buraco": {
        "target": 3000,
        "going_out": 100,
        "natural_canasta": 100,
        "mixed_canasta": 100,
        "ace_to_ace": 1000,
    },
    "burraco": {"target": 2005, "going_out": 100, "natural_canasta": 200, "mixed_canasta": 100},
}
REQUIRED_DEFAULTS["classic-2p"] = REQUIRED_DEFAULTS["classic"]
REQUIRED_DEFAULTS["classic-3p"] = REQUIRED_DEFAULTS["classic"]

# Options a preset must NOT have because it lacks the thing they set.
ABSENT = {
    "classic": ["samba", "bolivia", "ace_to_ace", "semi_clean"],
    "samba": ["concealed_going_out", "red_threes_negative_when", "bolivia", "ace_to_ace"],
    "samba-fournier": ["concealed_going_out", "red_threes_negative_when", "bolivia"],
    "brazilian": ["red_threes_negative_when", "ace_to_ace", "semi_clean"],
    "bolivia": ["concealed_going_out", "red_threes_negative_when", "ace_to_ace"],
    "buraco": [
        "red_three",
        "concealed_going_out",
        "red_threes_negative_when",
        "meld_minimums",
        "samba",
        "semi_clean",
    ],
    "burraco": ["red_three", "concealed_going_out", "meld_minimums", "ace_to_ace", "bolivia"],
}
ABSENT["classic-2p"] = ABSENT["classic"]
ABSENT["classic-3p"] = ABSENT["classic"]


def _reject(key, options):
    with pytest.raises(InvalidOptions) as info:
        resolve(key, options)
    return {(p.side, p.field) for p in info.value.problems}


@pytest.mark.parametrize("key", ALL_PRESETS)
def test_option_defaults(key):
    defaults = option_defaults(PRESETS[key])
    for name, value in REQUIRED_DEFAULTS[key].items():
        assert defaults[name] == value, name
    for name in ABSENT[key]:
        assert name not in defaults


def test_burraco_semi_clean_is_an_option_off_by_default():
    defaults = option_defaults(PRESETS["burraco"])
    assert "semi_clean" in defaults
    assert defaults["semi_clean"] in (None, False)
    assert "semi_clean" not in {k.key for k in PRESETS["burraco"].kinds}


@pytest.mark.parametrize("key", ALL_PRESETS)
def test_defaults_given_back_as_options_change_nothing(key):
    rules = PRESETS[key]
    assert resolve(key, option_defaults(rules)) == rules
    assert resolve(key, {}) == rules


# --- Each option does what it says ----------------------------------------------


@pytest.mark.parametrize("key", ALL_PRESETS)
def test_target_option(key):
    rules = resolve(key, {"target": 1000})
    assert rules.target == 1000
    sides = rules.layouts[0].sides
    assert game_result(rules, [1000] + [0] * (sides - 1)).status == "finished"
    assert game_result(rules, [995] + [0] * (sides - 1)).status == "playing"


@pytest.mark.parametrize(
    ("key", "canastas", "players"),
    [
        ("classic", {"natural": 1}, None),
        ("classic-2p", {"natural": 2}, None),
        ("classic-3p", {"natural": 1}, None),
        ("samba", {"natural": 2}, None),
        ("samba-fournier", {"natural": 1}, None),
        ("brazilian", {"samba": 1, "natural": 1}, None),
        ("bolivia", {"samba": 1, "natural": 1}, None),
        ("buraco", {"natural": 1}, None),
        ("burraco", {"natural": 1}, 2),
    ],
)
def test_going_out_option(key, canastas, players):
    extra = {"took_extra_hand": True} if key in ("buraco", "burraco") else {}
    side = {**extra, "went_out": True, "canastas": canastas, "meld_points": 200}
    default = total_of(key, side, players=players)
    changed = total_of(key, side, {"going_out": 350}, players=players)
    bonus = PRESETS[key].going_out.bonus
    assert changed - default == 350 - bonus


@pytest.mark.parametrize(
    ("key", "canastas"),
    [("classic", {"natural": 1}), ("classic-2p", {"mixed": 2}), ("brazilian", {"samba": 2})],
)
def test_concealed_going_out_option(key, canastas):
    side = {"went_out": True, "concealed": True, "canastas": canastas, "meld_points": 200}
    options = {"concealed_going_out": 500}
    bonuses = {"natural": 500, "mixed": 300, "samba": 1500}
    base = sum(bonuses[k] * n for k, n in canastas.items()) + 200
    assert total_of(key, side) == base + 200
    assert total_of(key, side, options) == base + 500
    # Plain going out is untouched.
    assert total_of(key, {**side, "concealed": False}, options) == base + 100


@pytest.mark.parametrize(
    ("key", "option", "kind", "value"),
    [
        ("classic", "natural_canasta", "natural", 600),
        ("classic", "mixed_canasta", "mixed", 250),
        ("classic-2p", "natural_canasta", "natural", 450),
        ("classic-3p", "mixed_canasta", "mixed", 350),
        ("samba", "samba", "samba", 2000),
        ("samba", "natural_canasta", "natural", 550),
        ("samba-fournier", "samba", "samba", 1000),
        ("brazilian", "bolivia", "bolivia", 2500),
        ("brazilian", "samba", "samba", 1000),
        ("bolivia", "bolivia", "bolivia", 3000),
        ("bolivia", "samba", "samba", 2000),
        ("buraco", "natural_canasta", "natural", 200),
        ("buraco", "mixed_canasta", "mixed", 50),
        ("buraco", "ace_to_ace", "ace_to_ace", 500),
        ("burraco", "natural_canasta", "natural", 300),
        ("burraco", "mixed_canasta", "mixed", 150),
        ("burraco", "semi_clean", "semi_clean", 150),
    ],
)
def test_canasta_bonus_options(key, option, kind, value):
    extra = {"took_extra_hand": True} if key in ("buraco", "burraco") else {}
    players = 1 if key == "burraco" else None
    side = {**extra, "canastas": {kind: 2}, "meld_points": 300}
    assert total_of(key, side, {option: value}, players=players) == 2 * value + 300


def test_brazilian_bolivia_option_2500():
    # RULES.md: the seed says 2500 once; 2000 is the default, option `bolivia`.
    side = {"canastas": {"bolivia": 1}, "meld_points": 160}
    assert total_of("brazilian", side) == 2000 + 160
    assert total_of("brazilian", side, {"bolivia": 2500}) == 2500 + 160


def test_buraco_natural_canasta_200_leaves_ace_to_ace_alone():
    options = {"natural_canasta": 200}
    side = {
        "took_extra_hand": True,
        "canastas": {"natural": 1, "ace_to_ace": 1, "mixed": 1},
        "meld_points": 300,
    }
    # 200 natural + 1000 ace-to-ace (only its own bonus) + 100 mixed + 300
    assert total_of("buraco", side, options) == 1600
    assert total_of("buraco", side) == 1500


def test_burraco_semi_clean_off_by_default_on_by_option():
    side = {"took_extra_hand": True, "canastas": {"semi_clean": 1}, "meld_points": 100}
    other = {"took_extra_hand": True}
    assert problems("burraco", [side, other], players=1) == {(0, "canastas.semi_clean")}
    for value in (True, 150):
        assert totals("burraco", [side, other], {"semi_clean": value}, players=1) == [250, 0]
    assert totals("burraco", [side, other], {"semi_clean": 175}, players=1) == [275, 0]


@pytest.mark.parametrize(
    ("key", "canastas"),
    [
        ("classic", {"natural": 1}),
        ("classic-3p", {"natural": 1}),
        ("samba", {"natural": 2}),
        ("brazilian", {"natural": 1}),
        ("bolivia", {"natural": 2}),
    ],
)
def test_red_three_option(key, canastas):
    side = {"canastas": canastas, "meld_points": 100, "red_threes": 2}
    bonus = 500 * canastas["natural"]
    assert total_of(key, side, {"red_three": 150}) == bonus + 100 + 300
    assert total_of(key, {"meld_points": 100, "red_threes": 2}, {"red_three": 150}) == 100 - 300


@pytest.mark.parametrize(
    ("key", "count", "value", "expected"),
    [
        ("classic", 4, 150, 1200),  # all four: 800 at 100 each, so 1200 at 150
        ("classic", 3, 150, 450),  # no special total for three: 3 x 150
        ("samba", 6, 200, 2000),  # all six: 1000 at 100 each, so 2000 at 200
        ("brazilian", 5, 50, 500),  # five: 1000 at 100 each, so 500 at 50
        ("brazilian", 6, 50, 600),  # six: 1200 at 100 each, so 600 at 50
    ],
)
def test_red_three_option_scales_the_special_totals(key, count, value, expected):
    """README choice: the option scales the whole schedule, keeping its shape."""
    side = {"canastas": {"natural": 2}, "meld_points": 100, "red_threes": count}
    assert total_of(key, side, {"red_three": value}) == 1000 + 100 + expected


def test_fournier_red_three_option_when_two_canastas():
    side = {"canastas": {"natural": 2}, "meld_points": 100, "red_threes": 3}
    assert total_of("samba-fournier", side, {"red_three": 200}) == 1000 + 100 + 600


@pytest.mark.parametrize("key", ["classic", "classic-2p", "classic-3p"])
def test_red_threes_negative_when_option_values(key):
    assert resolve(key, {"red_threes_negative_when": "no_meld"}).red_threes.negative_when == (
        "no_meld"
    )
    assert _reject(key, {"red_threes_negative_when": "never"}) == {
        (None, "options.red_threes_negative_when")
    }


def test_samba_meld_minimums_150_at_7000():
    table = [*CLASSIC_TABLE, {"min_score": 7000, "points": 150, "canasta": None}]
    rules = resolve("samba", {"meld_minimums": table})
    assert meld_requirement(rules, 6995).points == 120
    assert meld_requirement(rules, 7000).points == 150
    assert meld_requirement(rules, 12000).points == 150
    assert meld_requirement(resolve("samba"), 7000).points == 160


def test_meld_minimums_replace_the_whole_table():
    table = [
        {"min_score": None, "points": 0, "canasta": None},
        {"min_score": 2000, "points": 100, "canasta": None},
        {"min_score": 4000, "points": 0, "canasta": "natural"},
    ]
    rules = resolve("classic", {"meld_minimums": table})
    assert (meld_requirement(rules, -100).points, meld_requirement(rules, 1995).points) == (0, 0)
    assert meld_requirement(rules, 2000).points == 100
    requirement = meld_requirement(rules, 4000)
    assert (requirement.points, requirement.canasta) == (0, "natural")


@pytest.mark.parametrize("key", ALL_PRESETS[:7])
def test_meld_minimums_option_on_every_preset_with_a_table(key):
    table = [
        {"min_score": None, "points": 25, "canasta": None},
        {"min_score": 1000, "points": 75, "canasta": None},
        {"min_score": 5000, "points": 200, "canasta": "any"},
    ]
    rules = resolve(key, {"meld_minimums": table})
    assert option_defaults(rules)["meld_minimums"] == table
    assert meld_requirement(rules, -5).points == 25
    assert meld_requirement(rules, 995).points == 25
    assert meld_requirement(rules, 1000).points == 75
    assert meld_requirement(rules, 4995).points == 75
    requirement = meld_requirement(rules, 5000)
    assert (requirement.points, requirement.canasta) == (200, "any")
    # The preset itself keeps its own table.
    assert meld_requirement(PRESETS[key], 1000).points == 50


@pytest.mark.parametrize(
    "table",
    [
        "50 points",
        [{"min_score": 0, "points": 50, "canasta": None}],  # the first tier has no minimum
        [
            {"min_score": None, "points": 15, "canasta": None},
            {"min_score": 0, "points": 52, "canasta": None},  # not a multiple of 5
        ],
        [
            {"min_score": None, "points": 15, "canasta": None},
            {"min_score": 3000, "points": 90, "canasta": None},
            {"min_score": 1500, "points": 120, "canasta": None},  # not increasing
        ],
        [{"min_score": None, "points": 15, "canasta": "wild"}],
        [{"min_score": None, "points": 15, "colour": "red"}],
        ["tier"],
    ],
)
def test_bad_meld_minimums_rejected(table):
    assert _reject("classic", {"meld_minimums": table}) == {(None, "options.meld_minimums")}


# --- Unknown and wrong-typed options ----------------------------------------------


@pytest.mark.parametrize("key", ALL_PRESETS)
def test_unknown_option_rejected(key):
    assert _reject(key, {"jokers_wild_twice": True}) == {(None, "options.jokers_wild_twice")}
    for name in ABSENT[key]:
        assert _reject(key, {name: 100}) == {(None, f"options.{name}")}


@pytest.mark.parametrize("key", ALL_PRESETS)
@pytest.mark.parametrize("value", ["500", 500.0, True, None, [500], -100, 12])
def test_wrong_points_value_rejected(key, value):
    for name in ("target", "going_out", "natural_canasta", "mixed_canasta"):
        assert _reject(key, {name: value}) == {(None, f"options.{name}")}


@pytest.mark.parametrize(
    ("key", "name"),
    [
        ("classic", "concealed_going_out"),
        ("classic", "red_three"),
        ("samba", "samba"),
        ("brazilian", "bolivia"),
        ("bolivia", "red_three"),
        ("buraco", "ace_to_ace"),
    ],
)
def test_wrong_typed_options_rejected(key, name):
    for value in ("200", 1.5, False, {"points": 100}):
        assert _reject(key, {name: value}) == {(None, f"options.{name}")}


def test_burraco_semi_clean_wrong_type_rejected():
    for value in ("yes", 1.5, [150], 152, -150):
        assert _reject("burraco", {"semi_clean": value}) == {(None, "options.semi_clean")}


def test_every_option_problem_reported_together():
    found = _reject(
        "classic",
        {
            "target": "lots",
            "samba": 1500,
            "red_threes_negative_when": True,
            "going_out": 150,  # fine
            "meld_minimums": {},
        },
    )
    assert found == {
        (None, "options.target"),
        (None, "options.samba"),
        (None, "options.red_threes_negative_when"),
        (None, "options.meld_minimums"),
    }


def test_options_must_be_an_object():
    assert _reject("classic", ["target", 3000]) == {(None, "options")}


def test_resolving_options_leaves_the_preset_unchanged():
    before = rules_to_json(PRESETS["samba"])
    rules = resolve("samba", {"target": 7000, "samba": 2000, "going_out": 300})
    assert rules.target == 7000
    assert rules_to_json(PRESETS["samba"]) == before
    assert PRESETS["samba"].target == 10000
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.target = 1  # type: ignore[misc]


# --- Round trip through JSON --------------------------------------------------------


def _round_trip(rules):
    text = json.dumps(rules_to_json(rules))
    return rules_from_json(json.loads(text))


@pytest.mark.parametrize("key", ALL_PRESETS)
def test_every_preset_round_trips_through_json(key):
    rules = PRESETS[key]
    again = _round_trip(rules)
    assert again == rules
    assert rules_to_json(again) == rules_to_json(rules)


@pytest.mark.parametrize(
    ("key", "options"),
    [
        ("classic", {"red_threes_negative_when": "no_meld", "target": 3000}),
        ("classic-2p", {"concealed_going_out": 300, "red_three": 150}),
        (
            "samba",
            {
                "meld_minimums": [
                    *CLASSIC_TABLE,
                    {"min_score": 7000, "points": 150, "canasta": None},
                ]
            },
        ),
        ("samba-fournier", {"samba": 2000, "going_out": 250}),
        ("brazilian", {"bolivia": 2500}),
        ("bolivia", {"target": 20000, "bolivia": 3000}),
        ("buraco", {"natural_canasta": 200, "target": 2000}),
        ("burraco", {"semi_clean": 150}),
        ("burraco", {"semi_clean": True, "mixed_canasta": 120}),
    ],
)
def test_resolved_rules_with_options_round_trip(key, options):
    rules = resolve(key, options)
    again = _round_trip(rules)
    assert again == rules
    assert again != PRESETS[key]


def test_round_tripped_rules_score_the_same():
    rules = resolve("brazilian", {"bolivia": 2500, "concealed_going_out": 250})
    again = _round_trip(rules)
    sides = [
        {
            "went_out": True,
            "concealed": True,
            "canastas": {"samba": 1, "bolivia": 1},
            "meld_points": 400,
            "red_threes": 5,
        },
        {"canastas": {"mixed": 1}, "meld_points": 150, "black_threes_in_hand": 1},
    ]
    first = score(rules, read_hand(rules, sides))
    second = score(again, read_hand(again, sides))
    assert first == second
    # 1500 + 2500 + 400 + 250 + 1000 = 5650; 300 + 150 - 100 = 350
    assert [s.total for s in first] == [5650, 350]
    assert meld_requirement(again, 8500) == meld_requirement(rules, 8500)


@pytest.mark.parametrize(
    "breakage",
    [
        lambda d: d.pop("target"),
        lambda d: d.update(target="5000"),
        lambda d: d.update(canasta_kinds="natural"),
        lambda d: d["going_out"].update(bonus=True),
        lambda d: d.update(deck=[]),
    ],
)
def test_damaged_json_is_rejected(breakage):
    data = json.loads(json.dumps(rules_to_json(PRESETS["classic"])))
    breakage(data)
    with pytest.raises(InvalidRules):
        rules_from_json(data)


def test_not_an_object_is_rejected():
    with pytest.raises(InvalidRules):
        rules_from_json("classic")
