"""Every preset names its game family (ratings are kept per family), and rules frozen
before the family existed read back with the family of their preset."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    PRESETS,
    GameFamily,
    InvalidRules,
    resolve,
    rules_from_json,
    rules_to_json,
)

# CLUBS.md, "API (contract for leagues and ratings)".
FAMILIES = {
    GameFamily.CANASTA: {
        "classic",
        "classic-2p",
        "classic-3p",
        "classic-6p",
        "samba",
        "samba-fournier",
        "brazilian",
        "bolivia",
    },
    GameFamily.BURACO: {"buraco", "buraco-4p", "burraco", "burraco-3p"},
    GameFamily.HAND_AND_FOOT: {"hand-and-foot"},
    GameFamily.MODERN_AMERICAN: {"modern-american"},
}


def test_the_families_cover_every_preset_once():
    listed = [key for keys in FAMILIES.values() for key in keys]
    assert sorted(listed) == sorted(PRESETS)


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_every_preset_names_its_family(key):
    expected = next(family for family, keys in FAMILIES.items() if key in keys)
    assert PRESETS[key].family is expected
    assert rules_to_json(PRESETS[key])["family"] == expected.value


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_rules_frozen_before_the_family_read_back_with_their_presets(key):
    data = rules_to_json(PRESETS[key])
    del data["family"]
    assert rules_from_json(data) == PRESETS[key]


def test_options_keep_the_family_and_old_rules_with_options_read_back():
    rules = resolve("hand-and-foot", {"wild_canasta": 2000})
    assert rules.family is GameFamily.HAND_AND_FOOT
    data = rules_to_json(rules)
    del data["family"]
    assert rules_from_json(data) == rules


def test_a_stored_family_wins_and_a_bad_or_missing_one_is_refused():
    data = rules_to_json(PRESETS["classic"])
    data["family"] = "buraco"
    assert rules_from_json(data).family is GameFamily.BURACO
    data["family"] = "bridge"
    with pytest.raises(InvalidRules) as refused:
        rules_from_json(data)
    assert [problem.field for problem in refused.value.problems] == ["rules.family"]
    data = rules_to_json(PRESETS["classic"])
    del data["family"]
    data["key"] = "house-canasta"  # no preset to take the family from
    with pytest.raises(InvalidRules) as refused:
        rules_from_json(data)
    assert [problem.field for problem in refused.value.problems] == ["rules.family"]
