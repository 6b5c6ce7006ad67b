"""Hands that are possible but unlikely: accepted, with a warning to look again."""

from __future__ import annotations

from scorekeeper.rules import hand_warnings, read_hand, resolve


def warnings_of(key: str, sides: list[dict]):
    rules = resolve(key)
    return hand_warnings(rules, read_hand(rules, sides))


def test_a_side_that_did_not_go_out_with_nothing_in_hand_is_worth_a_second_look():
    sides = [
        {"went_out": True, "canastas": {"natural": 1}, "meld_points": 200},
        {"meld_points": 120},
    ]
    [warning] = warnings_of("classic", sides)
    assert (warning.side, warning.field) == (1, "hand_points")
    assert (warning.key, warning.params) == ("warn.nothing_held", {})


def test_a_usual_hand_has_no_warning():
    sides = [
        {"went_out": True, "canastas": {"natural": 1}, "meld_points": 200},
        {"meld_points": 120, "hand_points": 85},
    ]
    assert warnings_of("classic", sides) == []


def test_when_the_stock_ran_out_every_side_empty_handed_is_named():
    sides = [{"meld_points": 100}, {"meld_points": 90, "hand_cards": {}}]
    assert [(w.side, w.field) for w in warnings_of("classic", sides)] == [
        (0, "hand_points"),
        (1, "hand_cards"),
    ]


def test_cards_left_over_as_counted_penalties_are_cards_in_hand():
    # Brazilian black threes in hand are entered on their own, not in hand points.
    sides = [
        {"went_out": True, "canastas": {"samba": 1, "natural": 1}, "meld_points": 300},
        {"black_threes_in_hand": 1},
    ]
    assert warnings_of("brazilian", sides) == []
