"""Count mode: `meld_cards` / `hand_cards` against the value sets and the deck table."""

from __future__ import annotations

import pytest

from .helpers import line_points, problems, score_hand, total_of, totals

TOOK = {"took_extra_hand": True}


# --- Values -----------------------------------------------------------------------


@pytest.mark.parametrize("key", ["classic", "samba", "samba-fournier"])
def test_canasta_value_set_in_meld_cards(key):
    meld = {"joker": 2, "two": 3, "ace": 4, "high": 10, "low": 6, "black_three": 3}
    scores = score_hand(key, [{"meld_cards": meld}, {}])
    # 2x50 + 3x20 + 4x20 + 10x10 + 6x5 + 3x5 = 100 + 60 + 80 + 100 + 30 + 15 = 385
    assert line_points(scores[0], "meld_points") == 385
    assert scores[0].total == 385


def test_canasta_value_set_in_hand_cards():
    hand = {"joker": 1, "two": 1, "ace": 2, "high": 3, "low": 1, "black_three": 1}
    # 50 + 20 + 40 + 30 + 5 + 5 = 150
    assert total_of("classic", {"hand_cards": hand}) == -150
    assert total_of("samba", {"hand_cards": hand}) == -150


@pytest.mark.parametrize("key", ["brazilian", "bolivia"])
def test_canasta_value_set_without_black_threes_in_hand(key):
    meld = {"joker": 1, "two": 2, "ace": 3, "high": 4, "low": 5, "black_three": 2}
    hand = {"joker": 1, "two": 1, "ace": 1, "high": 1, "low": 1}
    # meld: 50 + 40 + 60 + 40 + 25 + 10 = 225; hand: 50 + 20 + 20 + 10 + 5 = 105
    side = {"meld_cards": meld, "hand_cards": hand, "black_threes_in_hand": 1}
    assert total_of(key, side) == 225 - 105 - 100


def test_buraco_value_set():
    meld = {"two": 2, "ace": 3, "high": 7, "low": 8}
    hand = {"two": 1, "ace": 1, "low": 2}
    # meld: 2x10 + 3x15 + 7x10 + 8x5 = 20 + 45 + 70 + 40 = 175; hand: 10 + 15 + 10 = 35
    side = {**TOOK, "meld_cards": meld, "hand_cards": hand}
    assert total_of("buraco", side) == 175 - 35


@pytest.mark.parametrize("players", [1, 2])
def test_burraco_value_set(players):
    meld = {"joker": 1, "two": 2, "ace": 2, "high": 5, "low": 6}
    hand = {"joker": 1, "two": 1, "ace": 1, "high": 1, "low": 1}
    # meld: 30 + 40 + 30 + 50 + 30 = 180; hand: 30 + 20 + 15 + 10 + 5 = 80
    side = {**TOOK, "meld_cards": meld, "hand_cards": hand}
    assert total_of("burraco", side, players=players) == 180 - 80


def test_count_mode_scores_like_points_mode():
    counted = {
        "went_out": True,
        "canastas": {"natural": 1, "mixed": 1},
        "meld_cards": {"joker": 1, "two": 2, "ace": 7, "high": 8},
        "hand_cards": {"high": 2, "low": 3},
        "red_threes": 1,
    }
    # meld 50 + 40 + 140 + 80 = 310; hand 20 + 15 = 35
    pointed = {**counted, "meld_points": 310, "hand_points": 35}
    del pointed["meld_cards"], pointed["hand_cards"]
    assert totals("classic", [counted, {}]) == totals("classic", [pointed, {}])
    assert totals("classic", [counted, {}])[0] == 500 + 300 + 310 + 100 + 100 - 35


def test_count_lines_name_the_cards():
    scores = score_hand("classic", [{"meld_cards": {"joker": 1, "low": 2}}, {}])
    lines = [line for line in scores[0].lines if line.rule == "meld_points"]
    assert len(lines) == 1
    assert lines[0].key == "line.meld_cards"
    assert lines[0].params == {"cards": [["joker", 1, 50], ["low", 2, 5]]}


# --- Categories a value set does not have ---------------------------------------


@pytest.mark.parametrize("form", ["meld_cards", "hand_cards"])
def test_joker_rejected_in_buraco(form):
    assert problems("buraco", [TOOK, {**TOOK, form: {"joker": 1, "high": 2}}]) == {
        (1, f"{form}.joker")
    }


@pytest.mark.parametrize("key", ["brazilian", "bolivia"])
def test_hand_cards_black_three_rejected_in_brazilian_and_bolivia(key):
    assert problems(key, [{"hand_cards": {"black_three": 1, "low": 2}}, {}]) == {
        (0, "hand_cards.black_three")
    }
    # The same black three as black_threes_in_hand is fine: 2 x 5 in hand + 100.
    assert totals(key, [{"hand_cards": {"low": 2}, "black_threes_in_hand": 1}, {}]) == [-110, 0]
    # And black threes may be melded (when going out).
    assert totals(key, [{"meld_cards": {"black_three": 3, "high": 4}}, {}]) == [55, 0]


def test_unknown_category_rejected():
    assert problems("classic", [{"meld_cards": {"queen": 2}}, {}]) == {(0, "meld_cards.queen")}
    assert problems("classic", [{}, {"hand_cards": {"red_three": 1}}]) == {
        (1, "hand_cards.red_three")
    }


def test_count_mode_must_be_an_object():
    assert problems("classic", [{"meld_cards": [1, 2]}, {}]) == {(0, "meld_cards")}
    assert problems("classic", [{}, {"hand_cards": 40}]) == {(1, "hand_cards")}


# --- Deck limits, all sides together ----------------------------------------------


@pytest.mark.parametrize(
    ("key", "category", "limit"),
    [
        ("classic", "joker", 4),
        ("classic", "two", 8),
        ("classic", "ace", 8),
        ("classic", "high", 48),
        ("classic", "low", 32),
        ("classic", "black_three", 4),
        ("samba", "joker", 6),
        ("samba", "two", 12),
        ("samba-fournier", "ace", 12),
        ("brazilian", "high", 72),
        ("bolivia", "low", 48),
        ("samba", "black_three", 6),
        ("buraco", "two", 8),
        ("buraco", "ace", 8),
        ("buraco", "high", 48),
        ("buraco", "low", 40),
        ("burraco", "joker", 4),
        ("burraco", "two", 8),
        ("burraco", "low", 40),
    ],
)
def test_melded_cards_above_the_deck(key, category, limit):
    extra = TOOK if key in ("buraco", "burraco") else {}
    players = 2 if key == "burraco" else None
    first = limit // 2
    ok = [
        {**extra, "meld_cards": {category: first}},
        {**extra, "meld_cards": {category: limit - first}},
    ]
    totals(key, ok, players=players)
    too_many = [
        {**extra, "meld_cards": {category: first}},
        {**extra, "meld_cards": {category: limit - first + 1}},
    ]
    assert problems(key, too_many, players=players) == {(None, f"meld_cards.{category}")}


@pytest.mark.parametrize(("key", "limit"), [("classic", 4), ("samba", 6), ("burraco", 4)])
def test_jokers_in_hands_above_the_deck(key, limit):
    extra = TOOK if key == "burraco" else {}
    sides = [{**extra, "hand_cards": {"joker": limit}}, {**extra, "hand_cards": {"joker": 1}}]
    assert problems(key, sides, players=2 if key == "burraco" else None) == {
        (None, "hand_cards.joker")
    }


def test_melded_and_held_cards_count_together():
    # 3 jokers melded by side 0, 2 held by side 1: 5 > 4.
    found = problems("classic", [{"meld_cards": {"joker": 3}}, {"hand_cards": {"joker": 2}}])
    assert len(found) == 1
    ((side, field),) = found
    assert side is None
    assert field in ("meld_cards.joker", "hand_cards.joker")
    # One side's melded and held cards together: 20 low + 13 low = 33 > 32.
    found = problems("classic", [{"meld_cards": {"low": 20}, "hand_cards": {"low": 13}}, {}])
    assert len(found) == 1
    ((side, field),) = found
    assert side is None
    assert field in ("meld_cards.low", "hand_cards.low")


def test_three_players_count_together():
    sides = [{"meld_cards": {"ace": 3}}, {"hand_cards": {"ace": 3}}, {"meld_cards": {"ace": 3}}]
    found = problems("classic-3p", sides)
    assert len(found) == 1
    ((side, field),) = found
    assert side is None
    assert field.endswith(".ace")


@pytest.mark.parametrize("key", ["brazilian", "bolivia"])
def test_black_threes_in_hand_count_against_the_deck(key):
    totals(key, [{"meld_cards": {"black_three": 3}}, {"black_threes_in_hand": 3}])
    found = problems(key, [{"meld_cards": {"black_three": 3}}, {"black_threes_in_hand": 4}])
    assert len(found) == 1
    ((side, field),) = found
    assert side is None
    # The problem names a field the black threes were entered in.
    assert field in ("meld_cards.black_three", "black_threes_in_hand")


@pytest.mark.parametrize("key", ["brazilian", "bolivia"])
def test_black_threes_in_hand_alone_above_the_deck(key):
    found = problems(key, [{"black_threes_in_hand": 4}, {"black_threes_in_hand": 3}])
    assert len(found) == 1
    ((side, field),) = found
    assert side is None
    # Only black_threes_in_hand was given (hand_cards.black_three is not even
    # accepted in this variant), so the problem should name that field.
    assert field == "black_threes_in_hand"


# --- Canastas and the cards that make them up -------------------------------------


def test_meld_cards_below_the_declared_canastas_value():
    # A bolivia is at least 7 wild cards: 7 high cards (70 points) cannot hold one.
    found = problems("brazilian", [{"canastas": {"bolivia": 1}, "meld_cards": {"high": 7}}, {}])
    assert found == {(0, "meld_cards")}
    totals("brazilian", [{"canastas": {"bolivia": 1}, "meld_cards": {"two": 7}}, {}])


def test_meld_cards_fewer_than_the_canastas_hold():
    # Engine choice (RULES.md is silent): a canasta is at least 7 cards, so two
    # declared canastas need 14 melded cards even when their value would suffice.
    found = problems(
        "classic", [{"canastas": {"natural": 2}, "meld_cards": {"ace": 6, "high": 7}}, {}]
    )
    assert found == {(0, "meld_cards")}
    assert totals(
        "classic", [{"canastas": {"natural": 2}, "meld_cards": {"ace": 8, "high": 6}}, {}]
    ) == [
        1000 + 160 + 60,
        0,
    ]
