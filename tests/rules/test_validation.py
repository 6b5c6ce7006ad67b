"""RULES.md, "What must be rejected": every case, with the side and field of each problem."""

from __future__ import annotations

import pytest

from scorekeeper.rules import InvalidHand, read_hand, resolve

from .helpers import assert_keys_and_numbers, problems, totals

TOOK = {"took_extra_hand": True}


# --- Fields the variant does not have ------------------------------------------


@pytest.mark.parametrize(
    ("key", "side", "field"),
    [
        ("classic", {"canastas": {"samba": 1}, "meld_points": 100}, "canastas.samba"),
        ("classic", {"canastas": {"bolivia": 1}, "meld_points": 200}, "canastas.bolivia"),
        ("classic", {"canastas": {"ace_to_ace": 1}, "meld_points": 50}, "canastas.ace_to_ace"),
        ("classic-2p", {"canastas": {"semi_clean": 1}, "meld_points": 50}, "canastas.semi_clean"),
        ("samba", {"canastas": {"bolivia": 1}, "meld_points": 200}, "canastas.bolivia"),
        ("samba-fournier", {"canastas": {"bolivia": 1}, "meld_points": 200}, "canastas.bolivia"),
        ("brazilian", {"canastas": {"ace_to_ace": 1}, "meld_points": 50}, "canastas.ace_to_ace"),
        ("buraco", {**TOOK, "canastas": {"samba": 1}, "meld_points": 100}, "canastas.samba"),
        ("burraco", {**TOOK, "canastas": {"semi_clean": 1}}, "canastas.semi_clean"),
        ("burraco", {**TOOK, "canastas": {"ace_to_ace": 1}}, "canastas.ace_to_ace"),
        ("buraco", {**TOOK, "red_threes": 1}, "red_threes"),
        ("burraco", {**TOOK, "red_threes": 2}, "red_threes"),
        ("buraco", {**TOOK, "meld_cards": {"joker": 1, "low": 3}}, "meld_cards.joker"),
        ("buraco", {**TOOK, "hand_cards": {"joker": 1}}, "hand_cards.joker"),
        ("buraco", {**TOOK, "meld_cards": {"black_three": 1}}, "meld_cards.black_three"),
        ("burraco", {**TOOK, "hand_cards": {"black_three": 2}}, "hand_cards.black_three"),
        ("classic", {"red_threes_in_hand": 1}, "red_threes_in_hand"),
        ("samba", {"red_threes_in_hand": 1}, "red_threes_in_hand"),
        ("classic", {"black_threes_in_hand": 1}, "black_threes_in_hand"),
        ("samba", {"black_threes_in_hand": 2}, "black_threes_in_hand"),
        ("bolivia", {"short_sequences": 1}, "short_sequences"),
        ("samba", {"short_sequences": 1}, "short_sequences"),
        ("classic", {"took_extra_hand": True}, "took_extra_hand"),
        ("brazilian", {"took_extra_hand": True}, "took_extra_hand"),
        ("classic", {"penalties": [{"rule": "three_wild_canasta"}]}, "penalties.0.rule"),
        ("burraco", {**TOOK, "penalties": [{"rule": "pile_out_of_turn"}]}, "penalties.0.rule"),
        ("samba-fournier", {"penalties": [{"rule": "looked_at_the_stock"}]}, "penalties.0.rule"),
    ],
)  # fmt: skip
def test_field_the_variant_does_not_have(key, side, field):
    other = dict(TOOK) if key in ("buraco", "burraco") else {}
    sides = [other, side] + ([{}] if key == "classic-3p" else [])
    assert problems(key, sides, players=2 if key == "burraco" else None) == {(1, field)}


@pytest.mark.parametrize(
    ("key", "side"),
    [
        ("classic", {"canastas": {"samba": 0, "bolivia": 0, "ace_to_ace": 0}}),
        ("classic", {"red_threes_in_hand": 0, "black_threes_in_hand": 0, "short_sequences": 0}),
        ("classic", {"took_extra_hand": False, "penalties": []}),
        ("samba", {"canastas": {"bolivia": 0}, "short_sequences": 0}),
        ("buraco", {**TOOK, "red_threes": 0, "meld_cards": {"joker": 0}}),
        ("buraco", {**TOOK, "hand_cards": {"joker": 0, "black_three": 0}}),
        ("burraco", {**TOOK, "canastas": {"semi_clean": 0}, "red_threes": 0}),
        ("brazilian", {"hand_cards": {"black_three": 0, "high": 1}}),
    ],
)
def test_absent_field_with_zero_false_or_empty_value_is_accepted(key, side):
    other = dict(TOOK) if key in ("buraco", "burraco") else {}
    players = 2 if key == "burraco" else None
    result = totals(key, [other, side], players=players)
    expected = -10 if side.get("hand_cards", {}).get("high") else 0
    assert result == [0, expected]


# --- Malformed counts and points ------------------------------------------------


@pytest.mark.parametrize(
    ("side", "field"),
    [
        ({"red_threes": -1}, "red_threes"),
        ({"red_threes": 1.5}, "red_threes"),
        ({"red_threes": "2"}, "red_threes"),
        ({"red_threes": True}, "red_threes"),
        ({"canastas": {"natural": -1}}, "canastas.natural"),
        ({"canastas": {"mixed": 1.0}, "meld_points": 100}, "canastas.mixed"),
        ({"canastas": {"natural": "1"}, "meld_points": 100}, "canastas.natural"),
        ({"meld_cards": {"low": -2}}, "meld_cards.low"),
        ({"hand_cards": {"ace": 0.5}}, "hand_cards.ace"),
        ({"meld_points": -5}, "meld_points"),
        ({"meld_points": 12}, "meld_points"),
        ({"meld_points": 50.0}, "meld_points"),
        ({"meld_points": "50"}, "meld_points"),
        ({"hand_points": -10}, "hand_points"),
        ({"hand_points": 33}, "hand_points"),
        ({"penalties": [{"points": 33, "reason": "x"}]}, "penalties.0.points"),
        ({"penalties": [{"points": -50, "reason": "x"}]}, "penalties.0.points"),
        ({"penalties": [{"points": 0, "reason": "x"}]}, "penalties.0.points"),
        ({"went_out": "yes"}, "went_out"),
        ({"concealed": 1}, "concealed"),
    ],
)
def test_bad_counts_and_points(side, field):
    assert problems("classic", [{}, side]) == {(1, field)}


@pytest.mark.parametrize(
    ("penalties", "field_prefix"),
    [
        ("late", "penalties"),
        ([50], "penalties.0"),
        ([{"reason": "no points"}], "penalties.0"),
        ([{"points": 50, "reason": "x", "colour": "red"}], "penalties.0"),
        ([{"rule": "pile_out_of_turn", "points": 100, "reason": "both"}], "penalties.0"),
        ([{"rule": "pile_out_of_turn"}, {"points": 7, "reason": "odd"}], "penalties.1"),
    ],
)
def test_malformed_penalties(penalties, field_prefix):
    found = problems("samba-fournier", [{}, {"penalties": penalties}])
    assert len(found) == 1
    ((side, field),) = found
    assert side == 1
    assert field == field_prefix or field.startswith(field_prefix + ".")


def test_canastas_must_be_an_object_of_counts():
    assert problems("classic", [{"canastas": ["natural"]}, {}]) == {(0, "canastas")}
    assert problems("classic", [{"canastas": {"dirty": 1}, "meld_points": 50}, {}]) == {
        (0, "canastas.dirty")
    }


def test_free_penalty_needs_a_reason():
    assert problems("classic", [{"penalties": [{"points": 50}]}, {}]) == {(0, "penalties.0.reason")}
    assert problems("classic", [{"penalties": [{"points": 50, "reason": "  "}]}, {}]) == {
        (0, "penalties.0.reason")
    }


@pytest.mark.parametrize("key", ["samba-fournier"])
def test_catalogue_penalty_count_must_be_positive_integer(key):
    bad_zero = {"penalties": [{"rule": "play_out_of_turn", "count": 0}]}
    bad_type = {"penalties": [{"rule": "play_out_of_turn", "count": "2"}]}
    assert problems(key, [bad_zero, bad_type]) == {
        (0, "penalties.0.count"),
        (1, "penalties.0.count"),
    }


def test_both_meld_forms_for_one_side():
    side = {"meld_points": 50, "meld_cards": {"high": 5}}
    found = problems("classic", [side, {}])
    assert len(found) == 1
    ((index, field),) = found
    assert index == 0
    assert field in ("meld_points", "meld_cards")


def test_both_hand_forms_for_one_side():
    side = {"hand_points": 50, "hand_cards": {"high": 5}}
    found = problems("samba", [{}, side])
    assert len(found) == 1
    ((index, field),) = found
    assert index == 1
    assert field in ("hand_points", "hand_cards")


# --- Going out -------------------------------------------------------------------


def test_more_than_one_side_going_out():
    side = {"went_out": True, "canastas": {"natural": 1}, "meld_points": 100}
    assert problems("classic", [side, side]) == {(None, "went_out")}


def test_more_than_one_going_out_among_three():
    out = {"went_out": True, "canastas": {"mixed": 1}, "meld_points": 100}
    assert problems("classic-3p", [out, {}, out]) == {(None, "went_out")}


def test_concealed_without_went_out():
    assert problems("classic", [{}, {"concealed": True}]) == {(1, "concealed")}
    assert problems("samba", [{"concealed": True, "went_out": False}, {}]) == {(0, "concealed")}


@pytest.mark.parametrize(
    ("key", "canastas", "ok"),
    [
        ("classic", {}, False),
        ("classic", {"mixed": 1}, True),
        ("classic-2p", {"natural": 1}, False),
        ("classic-2p", {"natural": 1, "mixed": 1}, True),
        ("classic-2p", {"mixed": 2}, True),
        ("classic-3p", {}, False),
        ("classic-3p", {"natural": 1}, True),
        ("samba", {"natural": 1}, False),
        ("samba", {"samba": 1}, False),
        ("samba", {"samba": 1, "mixed": 1}, True),
        ("samba", {"natural": 2}, True),
        ("samba-fournier", {}, False),
        ("samba-fournier", {"samba": 1}, True),
        ("samba-fournier", {"mixed": 1}, True),
        ("brazilian", {"natural": 2}, False),
        ("brazilian", {"natural": 1, "mixed": 1, "bolivia": 1}, False),
        ("brazilian", {"samba": 1}, False),
        ("brazilian", {"samba": 1, "mixed": 1}, True),
        ("brazilian", {"samba": 1, "bolivia": 1}, True),
        ("brazilian", {"samba": 2}, True),
        ("bolivia", {"natural": 1, "mixed": 1}, False),
        ("bolivia", {"samba": 1}, False),
        ("bolivia", {"bolivia": 2}, False),
        ("bolivia", {"samba": 1, "natural": 1}, True),
        ("bolivia", {"samba": 1, "bolivia": 1}, True),
    ],
)
def test_going_out_requirement(key, canastas, ok):
    least = {"bolivia": 140}
    meld = sum(least.get(k, 35) * n for k, n in canastas.items()) + 100
    side = {"went_out": True, "canastas": canastas, "meld_points": meld}
    others = [{}] * (2 if key == "classic-3p" else 1)
    if ok:
        totals(key, [side, *others])
    else:
        assert problems(key, [side, *others]) == {(0, "went_out")}


@pytest.mark.parametrize(
    ("took", "canastas", "ok"),
    [
        (False, {"natural": 1}, False),
        (False, {"ace_to_ace": 1}, False),
        (True, {}, False),
        (True, {"mixed": 2}, False),
        (True, {"natural": 1}, True),
        (True, {"ace_to_ace": 1}, True),
        (True, {"mixed": 1, "ace_to_ace": 1}, True),
    ],
)
def test_buraco_going_out_needs_morto_and_a_natural_canasta(took, canastas, ok):
    meld = 35 * sum(canastas.values()) + 50
    side = {"went_out": True, "took_extra_hand": took, "canastas": canastas, "meld_points": meld}
    sides = [{"took_extra_hand": True}, side]
    if ok:
        totals("buraco", sides)
    else:
        assert problems("buraco", sides) == {(1, "went_out")}


@pytest.mark.parametrize("players", [1, 2])
@pytest.mark.parametrize(
    ("took", "canastas", "ok"),
    [
        (False, {"natural": 1}, False),
        (True, {}, False),
        (True, {"mixed": 1}, True),
        (True, {"natural": 1}, True),
    ],
)
def test_burraco_closing_needs_pozzetto_and_a_burraco(players, took, canastas, ok):
    meld = 35 * sum(canastas.values()) + 50
    side = {"went_out": True, "took_extra_hand": took, "canastas": canastas, "meld_points": meld}
    sides = [side, {"took_extra_hand": True}]
    if ok:
        totals("burraco", sides, players=players)
    else:
        assert problems("burraco", sides, players=players) == {(0, "went_out")}


@pytest.mark.parametrize("key", ["buraco", "burraco"])
def test_took_extra_hand_is_required(key):
    players = 1 if key == "burraco" else None
    found = problems(key, [{"meld_points": 50}, {"took_extra_hand": False}], players=players)
    assert found == {(0, "took_extra_hand")}


# --- One-player sides that went out ---------------------------------------------


@pytest.mark.parametrize(
    ("key", "canastas", "players", "extra"),
    [
        ("classic-2p", {"natural": 2}, None, {}),
        ("classic-3p", {"natural": 1}, None, {}),
        ("buraco", {"natural": 1}, None, {"took_extra_hand": True}),
        ("burraco", {"natural": 1}, 1, {"took_extra_hand": True}),
    ],
)
def test_one_player_who_went_out_holds_no_cards(key, canastas, players, extra):
    side = {"went_out": True, "canastas": canastas, "meld_points": 200, **extra}
    others = [dict(extra)] * (2 if key == "classic-3p" else 1)
    assert problems(key, [{**side, "hand_points": 15}, *others], players=players) == {
        (0, "hand_points")
    }
    assert problems(key, [{**side, "hand_cards": {"low": 1}}, *others], players=players) == {
        (0, "hand_cards")
    }
    # Zero cards left is of course fine.
    totals(key, [{**side, "hand_points": 0}, *others], players=players)


def test_partnership_that_went_out_may_hold_the_partners_cards():
    side = {"went_out": True, "canastas": {"natural": 1}, "meld_points": 100, "hand_points": 80}
    assert totals("classic", [side, {}]) == [500 + 100 + 100 - 80, 0]
    burraco = {**side, "took_extra_hand": True}
    assert totals("burraco", [burraco, {"took_extra_hand": True}], players=2) == [
        200 + 100 + 100 - 80,
        0,
    ]


# --- Deck limits ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "a", "b", "ok"),
    [
        ("classic", 2, 2, True),
        ("classic", 3, 2, False),
        ("classic-3p", 4, 1, False),
        ("samba", 3, 3, True),
        ("samba", 4, 3, False),
        ("brazilian", 6, 0, True),
        ("brazilian", 6, 1, False),
        ("bolivia", 5, 2, False),
    ],
)
def test_too_many_red_threes(key, a, b, ok):
    sides = [{"red_threes": a}, {"red_threes": b}] + ([{}] if key == "classic-3p" else [])
    if ok:
        totals(key, sides)
    else:
        assert problems(key, sides) == {(None, "red_threes")}


def test_fournier_red_threes_counted_laid_down_and_in_hand():
    ok = [{"red_threes": 2, "red_threes_in_hand": 1}, {"red_threes": 1, "red_threes_in_hand": 2}]
    totals("samba-fournier", ok)
    bad = [{"red_threes": 4, "red_threes_in_hand": 1}, {"red_threes_in_hand": 2}]
    assert problems("samba-fournier", bad) == {(None, "red_threes")}


def test_too_many_canastas_for_the_deck():
    # 16 canastas of 7 cards = 112 cards > 108 in the double deck.
    side = {"canastas": {"natural": 8}, "meld_points": 8 * 35}
    assert problems("classic", [side, side]) == {(None, "canastas")}


# --- Meld points below the declared canastas ------------------------------------


@pytest.mark.parametrize(
    ("key", "canastas", "least"),
    [
        ("classic", {"natural": 1}, 35),
        ("classic", {"mixed": 2}, 70),
        ("samba", {"samba": 1, "natural": 1}, 70),
        ("brazilian", {"bolivia": 1}, 140),
        ("brazilian", {"bolivia": 1, "samba": 1}, 175),
        ("bolivia", {"bolivia": 2}, 280),
        ("buraco", {"ace_to_ace": 1}, 35),
        ("buraco", {"natural": 1, "mixed": 1}, 70),
        ("burraco", {"natural": 1}, 35),
    ],
)
def test_meld_points_below_the_declared_canastas(key, canastas, least):
    extra = {"took_extra_hand": True} if key in ("buraco", "burraco") else {}
    players = 2 if key == "burraco" else None
    enough = {**extra, "canastas": canastas, "meld_points": least}
    short = {**extra, "canastas": canastas, "meld_points": least - 5}
    totals(key, [enough, dict(extra)], players=players)
    assert problems(key, [dict(extra), short], players=players) == {(1, "meld_points")}
    omitted = {**extra, "canastas": canastas}
    assert problems(key, [omitted, dict(extra)], players=players) == {(0, "meld_points")}


def test_burraco_semi_clean_burraco_needs_seven_natural_cards():
    options = {"semi_clean": 150}
    side = {"took_extra_hand": True, "canastas": {"semi_clean": 1}, "meld_points": 30}
    other = {"took_extra_hand": True}
    assert problems("burraco", [side, other], options, players=1) == {(0, "meld_points")}


# --- Number of sides ------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "count"),
    [
        ("classic", 1),
        ("classic", 3),
        ("classic-2p", 3),
        ("classic-3p", 2),
        ("classic-3p", 4),
        ("samba", 4),
        ("brazilian", 0),
        ("buraco", 3),
        ("burraco", 4),
    ],
)
def test_wrong_number_of_sides(key, count):
    side = {"took_extra_hand": True} if key in ("buraco", "burraco") else {}
    assert problems(key, [dict(side) for _ in range(count)]) == {(None, "sides")}


def test_sides_must_be_a_list():
    assert (None, "sides") in problems("classic", {"0": {}, "1": {}})


def test_burraco_players_per_side_must_be_one_or_two():
    sides = [{"took_extra_hand": True}, {"took_extra_hand": True}]
    assert problems("burraco", sides, players=3) == {(None, "players")}
    assert problems("classic", [{}, {}], players=1) == {(None, "players")}


# --- Several problems reported together ----------------------------------------


def test_every_problem_of_a_hand_is_reported_together():
    sides = [
        {
            "went_out": True,  # no canasta: cannot go out
            "meld_points": 12,  # not a multiple of 5
            "canastas": {"samba": 1},  # classic has no samba
            "red_threes": 3,
        },
        {
            "went_out": True,
            "concealed": True,
            "canastas": {"natural": 1},
            "meld_points": 20,  # below the 35 one natural canasta needs
            "hand_points": -5,
            "red_threes": 2,
            "short_sequences": 1,
        },
    ]
    found = problems("classic", sides)
    expected = {
        (0, "meld_points"),
        (0, "canastas.samba"),
        (1, "meld_points"),
        (1, "hand_points"),
        (1, "short_sequences"),
        (None, "went_out"),  # two sides went out
        (None, "red_threes"),  # 5 red threes, the deck holds 4
    }
    assert expected <= found
    # Side 0 also fails the going-out requirement unless its canastas failed to parse.
    assert found - expected <= {(0, "went_out")}


def test_problems_on_three_sides_and_the_table_at_once():
    sides = [
        {"canastas": {"mixed": 1}, "meld_points": 30},
        {"hand_cards": {"joker": 3}, "red_threes": 3},
        {"meld_cards": {"joker": 2}, "red_threes": 2, "concealed": True},
    ]
    found = problems("classic-3p", sides)
    # 5 jokers counted (3 in a hand, 2 melded) where the deck holds 4: the problem
    # concerns the table, and names one of the two fields the jokers were given in.
    deck = {p for p in found if p[1] in ("meld_cards.joker", "hand_cards.joker")}
    assert len(deck) == 1
    assert next(iter(deck))[0] is None
    assert found - deck == {(0, "meld_points"), (2, "concealed"), (None, "red_threes")}


def test_invalid_hand_error_carries_problems_as_keys_and_parameters():
    rules = resolve("classic")
    with pytest.raises(InvalidHand) as info:
        read_hand(rules, [{"meld_points": 7}, {"canastas": {"samba": 1}}])
    problems_found = info.value.problems
    assert len(problems_found) == 2
    assert {p.side for p in problems_found} == {0, 1}
    for problem in problems_found:
        data = problem.to_dict()
        assert set(data) == {"side", "field", "key", "params"}
        assert_keys_and_numbers(dict(data["params"]))
    assert info.value.players_per_side == 2  # who the sides are (teams) is the edge's to say


def test_unknown_hand_field_is_rejected():
    assert problems("classic", [{"meldpoints": 50}, {}]) == {(0, "meldpoints")}
    assert problems("classic", [{}, "not an object"]) == {(1, "side")}


def test_too_many_penalties_on_one_side_are_refused():
    free = [{"points": 5, "reason": f"slip {n}"} for n in range(51)]
    with pytest.raises(InvalidHand) as caught:
        read_hand(resolve("classic"), [{"penalties": free}, {}])
    assert [(p.side, p.field) for p in caught.value.problems] == [(0, "penalties")]
    hand = read_hand(resolve("classic"), [{"penalties": free[:50]}, {}])
    assert len(hand.sides[0].penalties) == 50


# --- Card value beyond the deck -------------------------------------------------

# The card value of each preset's whole deck, worked out from RULES.md's tables:
# double deck, canasta values: 4x50 + 8x20 + 8x20 + 48x10 + 32x5 + 4x5 = 1180;
# triple deck: 6x50 + 12x20 + 12x20 + 72x10 + 48x5 + 6x5 = 1770;
# buraco: 8x10 + 8x15 + 48x10 + 40x5 = 880; burraco: 4x30 + 8x20 + 8x15 + 48x10 + 40x5 = 1080.
DECK_VALUES = {
    "classic": 1180,
    "classic-2p": 1180,
    "classic-3p": 1180,
    "samba": 1770,
    "samba-fournier": 1770,
    "brazilian": 1770,
    "bolivia": 1770,
    "buraco": 880,
    "burraco": 1080,
}


@pytest.mark.parametrize(("key", "value"), DECK_VALUES.items())
def test_the_deck_value_comes_from_the_deck_and_card_values(key, value):
    assert resolve(key).deck_value() == value


def _sides(key: str, first: dict, second: dict) -> list[dict]:
    extra = dict(TOOK) if key in ("buraco", "burraco") else {}
    sides = [{**extra, **first}, {**extra, **second}]
    return sides + ([{}] if key == "classic-3p" else [])


def test_a_meld_typo_beyond_the_deck_is_rejected_with_side_field_and_deck_value():
    # 4200 is a typo for 420: more than the 1180 points of a Classic deck.
    with pytest.raises(InvalidHand) as info:
        read_hand(resolve("classic"), [{"meld_points": 4200}, {"meld_points": 120}])
    [problem] = info.value.problems
    assert (problem.side, problem.field) == (0, "meld_points")
    assert (problem.key, problem.params) == (
        "check.side_over_deck",
        {"counted": 4200, "deck": 1180},
    )


@pytest.mark.parametrize(("key", "value"), DECK_VALUES.items())
def test_one_side_can_count_the_whole_deck_but_not_five_more(key, value):
    players = 2 if key == "burraco" else None
    ok = _sides(key, {"meld_points": value - 100, "hand_points": 100}, {})
    read_hand(resolve(key), ok, players)
    over = _sides(key, {"meld_points": value - 100, "hand_points": 105}, {})
    assert problems(key, over, players=players) == {(0, "meld_points")}


@pytest.mark.parametrize(("key", "value"), DECK_VALUES.items())
def test_all_sides_together_cannot_count_more_than_the_deck(key, value):
    players = 2 if key == "burraco" else None
    half = value // 2 // 5 * 5
    rest = value - half
    ok = _sides(key, {"meld_points": half}, {"hand_points": rest})
    read_hand(resolve(key), ok, players)
    over = _sides(key, {"meld_points": half}, {"hand_points": rest + 5})
    # Named on the field holding most of the cards: that is where to look first.
    assert problems(key, over, players=players) == {(None, "hand_points")}


def test_cards_entered_by_count_and_left_over_count_toward_the_deck_value():
    # Brazilian: black threes in hand are cards too (5 each); 6 x 5 = 30 more.
    rules = resolve("brazilian")
    side = {"meld_points": 1740, "black_threes_in_hand": 6}
    with pytest.raises(InvalidHand) as info:
        read_hand(rules, [side, {"hand_points": 5}])
    assert {(p.side, p.field) for p in info.value.problems} == {(None, "meld_points")}
    read_hand(rules, [{"meld_points": 1740, "black_threes_in_hand": 6}, {}])


# --- Text a record may hold -------------------------------------------------------


@pytest.mark.parametrize("reason", ["late\x00play", "bad \ud800 char", "two\nlines", "tab\there"])
def test_a_penalty_reason_must_be_one_line_of_storable_text(reason):
    side = {"penalties": [{"points": 50, "reason": reason}]}
    assert problems("classic", [side, {}]) == {(0, "penalties.0.reason")}


def test_a_penalty_reason_in_any_script_is_fine():
    side = {"penalties": [{"points": 50, "reason": "Élodie a joué hors tour — 出牌"}]}
    assert totals("classic", [side, {}]) == [-50, 0]
