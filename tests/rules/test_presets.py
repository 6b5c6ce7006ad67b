"""The presets as RULES.md and RULES-2.md define them, and one realistic hand for each."""

from __future__ import annotations

import pytest

from scorekeeper.rules import PRESETS, Rules, UnknownVariant, Vocabulary, get_preset, resolve

from .helpers import ALL_PRESETS, NEW_PRESETS, SEATED_PRESETS, score_hand, totals

CANASTA_SET = {"joker": 50, "two": 20, "ace": 20, "high": 10, "low": 5, "black_three": 5}
BURACO_SET = {"two": 10, "ace": 15, "high": 10, "low": 5}
BURRACO_SET = {"joker": 30, "two": 20, "ace": 15, "high": 10, "low": 5}

DOUBLE = {
    "joker": 4, "two": 8, "ace": 8, "high": 48, "low": 32, "black_three": 4, "red_three": 4,
}  # fmt: skip
TRIPLE = {
    "joker": 6, "two": 12, "ace": 12, "high": 72, "low": 48, "black_three": 6, "red_three": 6,
}  # fmt: skip
BURACO_DECK = {"joker": 0, "two": 8, "ace": 8, "high": 48, "low": 40}
BURRACO_DECK = {"joker": 4, "two": 8, "ace": 8, "high": 48, "low": 40}

# key -> (value set, deck counts, deck size, layouts (sides, players), target)
EXPECTED = {
    "classic": (CANASTA_SET, DOUBLE, 108, {(2, 2)}, 5000),
    "classic-2p": (CANASTA_SET, DOUBLE, 108, {(2, 1)}, 5000),
    "classic-3p": (CANASTA_SET, DOUBLE, 108, {(3, 1)}, 5000),
    "samba": (CANASTA_SET, TRIPLE, 162, {(2, 2)}, 10000),
    "samba-fournier": (CANASTA_SET, TRIPLE, 162, {(2, 2)}, 10000),
    "brazilian": (CANASTA_SET, TRIPLE, 162, {(2, 2)}, 10000),
    "bolivia": (CANASTA_SET, TRIPLE, 162, {(2, 2)}, 15000),
    "buraco": (BURACO_SET, BURACO_DECK, 104, {(2, 1)}, 3000),
    "burraco": (BURRACO_SET, BURRACO_DECK, 108, {(2, 1), (2, 2)}, 2005),
}

# key -> canasta kind -> bonus
BONUSES = {
    "classic": {"natural": 500, "mixed": 300},
    "classic-2p": {"natural": 500, "mixed": 300},
    "classic-3p": {"natural": 500, "mixed": 300},
    "samba": {"natural": 500, "mixed": 300, "samba": 1500},
    "samba-fournier": {"natural": 500, "mixed": 300, "samba": 1500},
    "brazilian": {"natural": 500, "mixed": 300, "samba": 1500, "bolivia": 2000},
    "bolivia": {"natural": 500, "mixed": 300, "samba": 1500, "bolivia": 2500},
    "buraco": {"natural": 100, "mixed": 100, "ace_to_ace": 1000},
    "burraco": {"natural": 200, "mixed": 100},
}

# key -> (going out, concealed going out or None)
GOING_OUT = {
    "classic": (100, 200),
    "classic-2p": (100, 200),
    "classic-3p": (100, 200),
    "samba": (200, None),
    "samba-fournier": (200, None),
    "brazilian": (100, 200),
    "bolivia": (200, None),
    "buraco": (100, None),
    "burraco": (100, None),
}


def test_registry_holds_exactly_the_listed_presets():
    assert set(PRESETS) == {*ALL_PRESETS, *NEW_PRESETS, *SEATED_PRESETS}
    assert len(PRESETS) == len(ALL_PRESETS) + len(NEW_PRESETS) + len(SEATED_PRESETS)
    for key in (*ALL_PRESETS, *NEW_PRESETS, *SEATED_PRESETS):
        assert isinstance(PRESETS[key], Rules)
        assert PRESETS[key].key == key
        assert get_preset(key) is PRESETS[key]
        assert resolve(key) == PRESETS[key]


@pytest.mark.parametrize(
    "key", ["", "canasta", "Classic", "modern american", "Modern-American", "burraco-3P", None, 3]
)
def test_unknown_variant_is_rejected(key):
    with pytest.raises(UnknownVariant):
        get_preset(key)
    with pytest.raises(UnknownVariant):
        resolve(key)


@pytest.mark.parametrize("key", ALL_PRESETS)
def test_preset_card_values_deck_layouts_and_target(key):
    values, deck, size, layouts, target = EXPECTED[key]
    rules = PRESETS[key]
    assert {c.key: c.value for c in rules.cards} == values
    wild = {c.key for c in rules.cards if c.wild}
    assert wild == ({"joker", "two"} & set(values))
    assert rules.deck.size == size
    for category, count in deck.items():
        assert rules.deck.count_of(category) == count, category
    assert {(lay.sides, lay.players_per_side) for lay in rules.layouts} == layouts
    assert rules.target == target
    assert rules.canasta_size == 7


@pytest.mark.parametrize("key", ALL_PRESETS)
def test_preset_canasta_bonuses_and_going_out(key):
    rules = PRESETS[key]
    assert {k.key: k.bonus for k in rules.kinds} == BONUSES[key]
    bonus, concealed = GOING_OUT[key]
    assert rules.going_out.bonus == bonus
    assert rules.going_out.concealed_bonus == concealed


def test_bolivia_has_sambas_in_its_own_vocabulary():
    """Its players call a samba an escalera: the kind is the same, the words the game's."""
    kind = PRESETS["bolivia"].kind("samba")
    assert kind is not None
    assert kind.bonus == 1500
    assert PRESETS["bolivia"].vocabulary == Vocabulary.BOLIVIA != PRESETS["samba"].vocabulary


def test_presets_without_red_threes_or_meld_minimum():
    for key in ("buraco", "burraco"):
        assert PRESETS[key].red_threes is None
        assert PRESETS[key].meld_table == ()
        assert PRESETS[key].extra_hand is not None
        assert PRESETS[key].extra_hand.penalty_not_taken == 100
    for key in ALL_PRESETS[:7]:
        assert PRESETS[key].red_threes is not None
        assert PRESETS[key].extra_hand is None


# --- One realistic hand for every preset, totals worked out from RULES.md ----------


def test_classic_hand():
    scores = score_hand(
        "classic",
        [
            {
                "went_out": True,
                "canastas": {"natural": 1, "mixed": 1},
                "meld_points": 430,
                "hand_points": 45,  # the partner's cards
                "red_threes": 2,
            },
            {"canastas": {"mixed": 1}, "meld_points": 260, "hand_points": 135, "red_threes": 1},
        ],
    )
    # side 0: 500 natural + 300 mixed + 430 melded + 100 out + 2 x 100 red - 45 = 1485
    # side 1: 300 mixed + 260 melded + 100 red - 135 = 525
    assert [s.total for s in scores] == [1485, 525]


def test_classic_2p_hand():
    scores = score_hand(
        "classic-2p",
        [
            {
                "went_out": True,
                "concealed": True,
                "canastas": {"natural": 1, "mixed": 1},
                "meld_points": 390,
                "hand_points": 0,
                "red_threes": 1,
            },
            {"meld_points": 85, "hand_points": 150, "red_threes": 1},
        ],
    )
    # player 1: 500 + 300 + 390 + 200 (out concealed) + 100 (red three) = 1490
    # player 2: no canasta, so the red three counts minus: 85 - 100 - 150 = -165
    assert [s.total for s in scores] == [1490, -165]


def test_classic_3p_hand():
    scores = score_hand(
        "classic-3p",
        [
            {"went_out": True, "canastas": {"mixed": 1}, "meld_points": 250},
            {"canastas": {"natural": 1}, "meld_points": 310, "hand_points": 60, "red_threes": 4},
            {"meld_points": 70, "hand_points": 115},
        ],
    )
    # player 1: 300 + 250 + 100 = 650
    # player 2: 500 + 310 + 800 (all four red threes) - 60 = 1550
    # player 3: 70 - 115 = -45
    assert [s.total for s in scores] == [650, 1550, -45]


def test_samba_hand():
    scores = score_hand(
        "samba",
        [
            {
                "went_out": True,
                "canastas": {"samba": 1, "natural": 1, "mixed": 1},
                "meld_points": 985,
                "hand_points": 55,
                "red_threes": 2,
            },
            {"canastas": {"natural": 1}, "meld_points": 420, "hand_points": 240, "red_threes": 3},
        ],
    )
    # side 0: 1500 + 500 + 300 + 985 + 200 out + 200 red - 55 = 3630
    # side 1: fewer than 2 canastas, red threes minus: 500 + 420 - 300 - 240 = 380
    assert [s.total for s in scores] == [3630, 380]


def test_samba_fournier_hand():
    scores = score_hand(
        "samba-fournier",
        [
            {
                "went_out": True,
                "canastas": {"natural": 1},
                "meld_points": 360,
                "hand_points": 30,
                "red_threes": 2,
                "penalties": [{"rule": "three_wild_canasta", "count": 1}],
            },
            {
                "canastas": {"samba": 1, "mixed": 1},
                "meld_points": 690,
                "hand_points": 125,
                "red_threes": 3,
                "red_threes_in_hand": 1,
                "penalties": [{"rule": "pile_out_of_turn"}],
            },
        ],
    )
    # side 0 (1 canasta, may go out; below 2 canastas each red three costs 500):
    #   500 + 360 + 200 out - 2 x 500 - 30 - 100 penalty = -70
    # side 1 (2 canastas, red threes score): 1500 + 300 + 690 + 3 x 100
    #   - 125 - 1500 (red three in hand) - 100 penalty = 1065
    assert [s.total for s in scores] == [-70, 1065]


def test_brazilian_hand():
    scores = score_hand(
        "brazilian",
        [
            {
                "went_out": True,
                "concealed": True,
                "canastas": {"samba": 1, "natural": 1},
                "meld_points": 820,
                "hand_points": 0,
                "red_threes": 5,
            },
            {
                "canastas": {"mixed": 1},
                "meld_points": 300,
                "hand_points": 85,
                "red_threes": 1,
                "black_threes_in_hand": 2,
                "short_sequences": 1,
            },
        ],
    )
    # side 0: 1500 + 500 + 820 + 200 (concealed) + 1000 (5 red threes) = 4020
    # side 1: 300 + 300 + 100 - 85 - 2 x 100 (black threes) - 1000 (short sequence) = -585
    assert [s.total for s in scores] == [4020, -585]


def test_bolivia_hand():
    scores = score_hand(
        "bolivia",
        [
            {
                "went_out": True,
                "canastas": {"samba": 1, "bolivia": 1},
                "meld_points": 790,
                "hand_points": 40,
                "red_threes": 6,
            },
            {
                "canastas": {"natural": 1},
                "meld_points": 410,
                "hand_points": 170,
                "black_threes_in_hand": 1,
            },
        ],
    )
    # side 0: 1500 escalera + 2500 bolivia + 790 + 200 out + 1000 (all six red) - 40 = 5950
    # side 1: 500 + 410 - 170 - 100 (black three) = 640
    assert [s.total for s in scores] == [5950, 640]


def test_buraco_hand():
    scores = score_hand(
        "buraco",
        [
            {
                "went_out": True,
                "took_extra_hand": True,
                "canastas": {"natural": 1, "ace_to_ace": 1, "mixed": 1},
                "meld_points": 560,
                "hand_points": 0,
            },
            {
                "took_extra_hand": False,
                "canastas": {"mixed": 1},
                "meld_points": 215,
                "hand_points": 95,
            },
        ],
    )
    # player 1: 100 natural + 1000 ace-to-ace + 100 mixed + 560 + 100 out = 1860
    # player 2: 100 mixed + 215 - 95 - 100 (morto not taken) = 120
    assert [s.total for s in scores] == [1860, 120]


def test_burraco_partnership_hand():
    scores = score_hand(
        "burraco",
        [
            {
                "went_out": True,
                "took_extra_hand": True,
                "canastas": {"natural": 1, "mixed": 2},
                "meld_points": 540,
                "hand_points": 35,  # the partner's cards
            },
            {
                "took_extra_hand": False,
                "canastas": {"natural": 1},
                "meld_points": 280,
                "hand_points": 150,
            },
        ],
        players=2,
    )
    # side 0: 200 clean + 2 x 100 dirty + 540 + 100 closing - 35 = 1005
    # side 1: 200 + 280 - 150 - 100 (pozzetto never taken) = 230
    # (cards counted: 540 + 35 + 280 + 150 = 1005 of the deck's 1080)
    assert [s.total for s in scores] == [1005, 230]


def test_burraco_head_to_head_hand():
    result = totals(
        "burraco",
        [
            {
                "went_out": True,
                "took_extra_hand": True,
                "canastas": {"mixed": 1},
                "meld_points": 185,
                "hand_points": 0,
            },
            {"took_extra_hand": True, "meld_points": 95, "hand_points": 120},
        ],
        players=1,
    )
    # player 1: 100 dirty + 185 + 100 closing = 385; player 2: 95 - 120 = -25
    assert result == [385, -25]


def test_stock_ran_out_nobody_went_out():
    # Nobody went out: no going-out bonus, everything else as usual.
    result = totals(
        "classic",
        [
            {"canastas": {"natural": 1}, "meld_points": 300, "hand_points": 70, "red_threes": 1},
            {"canastas": {"mixed": 1}, "meld_points": 210, "hand_points": 90, "red_threes": 1},
        ],
    )
    # 500 + 300 + 100 - 70 = 830; 300 + 210 + 100 - 90 = 520
    assert result == [830, 520]


@pytest.mark.parametrize("key", ALL_PRESETS)
def test_empty_record_scores_zero_except_missing_extra_hand(key):
    rules = PRESETS[key]
    sides = rules.layouts[0].sides
    side = {"took_extra_hand": False} if rules.extra_hand is not None else {}
    expected = -100 if rules.extra_hand is not None else 0
    assert totals(key, [side] * sides) == [expected] * sides


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_a_rule_set_keeps_its_lookups_outside_its_data(key):
    """kinds, laid_threes and fields are worked out once per rule set (cached properties):
    the same answers, and equality, hashing and the stored JSON see only the data."""
    from scorekeeper.rules import rules_from_json, rules_to_json

    asked, fresh = rules_from_json(rules_to_json(get_preset(key))), get_preset(key)
    first = (asked.kinds, asked.laid_threes, asked.fields)
    assert (asked.kinds, asked.laid_threes, asked.fields) == first
    assert first[0] is asked.kinds  # kept, not made again
    assert asked == fresh
    assert hash(asked) == hash(fresh)
    assert rules_to_json(asked) == rules_to_json(rules_from_json(rules_to_json(fresh)))
