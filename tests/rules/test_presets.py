"""The presets as RULES.md and RULES-2.md define them, and their worked hands (worked_hands.py)."""

from __future__ import annotations

import pytest

from scorekeeper.rules import PRESETS, Rules, UnknownVariant, Vocabulary, get_preset, resolve

from .helpers import ALL_PRESETS, NEW_PRESETS, SEATED_PRESETS, totals
from .worked_hands import EACH_WORKED_HAND, WORKED_HANDS

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


# --- Each preset's worked hands (worked_hands.py: the API's tests score them too) ---


def test_every_preset_has_a_worked_hand():
    """Burraco for three, whose hands carry a line-up, has its own (test_burraco_three.py)."""
    assert {hand.preset for hand in WORKED_HANDS.values()} == set(PRESETS) - set(SEATED_PRESETS)


@pytest.mark.parametrize("hand", EACH_WORKED_HAND)
def test_worked_hand(hand):
    assert totals(hand.preset, hand.sides, hand.options, hand.players) == hand.totals


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
