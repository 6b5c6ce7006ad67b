"""Property tests: random valid hands for every preset.

The generator builds hands that RULES.md allows (going-out requirements, meld
points at least what the canastas need, deck limits, one side out at most,
`took_extra_hand` where required, one-player sides that went out hold nothing),
so `read_hand` must accept every one of them. The scores are then checked
against the invariants and against a small reference scorer written from
RULES.md in this file (not from the engine).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scorekeeper.rules import PRESETS, InvalidHand, Rules, read_hand, resolve, score

from .helpers import ALL_PRESETS, NEW_PRESETS, assert_a_line_of_keys

CANASTA_SET = {"joker": 50, "two": 20, "ace": 20, "high": 10, "low": 5, "black_three": 5}
BURACO_SET = {"two": 10, "ace": 15, "high": 10, "low": 5}
BURRACO_SET = {"joker": 30, "two": 20, "ace": 15, "high": 10, "low": 5}
WILD = {"joker", "two"}
REASONS = ("Misdeal", "Showed a card", "Slow play", "Looked at the stock")


# --- Reference scorer, from RULES.md ------------------------------------------------


def _classic_red(n: int, canastas: int, meld: int) -> int:
    value = 800 if n == 4 else 100 * n
    return value if canastas >= 1 else -value


def _samba_red(n: int, canastas: int, meld: int) -> int:
    value = 1000 if n == 6 else 100 * n
    return value if canastas >= 2 else -value


def _fournier_red(n: int, canastas: int, meld: int) -> int:
    if canastas >= 2:
        return 1000 if n == 6 else 100 * n
    return -500 * n


def _brazilian_red(n: int, canastas: int, meld: int) -> int:
    value = {5: 1000, 6: 1200}.get(n, 100 * n)
    return value if canastas >= 1 else -value


def _no_red(n: int, canastas: int, meld: int) -> int:
    assert n == 0
    return 0


CLASSIC_BONUS = {"natural": 500, "mixed": 300}
SAMBA_BONUS = {**CLASSIC_BONUS, "samba": 1500}
REFERENCE: dict[str, dict[str, Any]] = {
    "classic": {
        "values": CANASTA_SET,
        "bonus": CLASSIC_BONUS,
        "out": (100, 200),
        "red": _classic_red,
    },
    "samba": {"values": CANASTA_SET, "bonus": SAMBA_BONUS, "out": (200, 200), "red": _samba_red},
    "samba-fournier": {
        "values": CANASTA_SET,
        "bonus": SAMBA_BONUS,
        "out": (200, 200),
        "red": _fournier_red,
        "counted": {"red_threes_in_hand": 1500},
        "catalogue": 100,
    },
    "brazilian": {
        "values": CANASTA_SET,
        "bonus": {**SAMBA_BONUS, "bolivia": 2000},
        "out": (100, 200),
        "red": _brazilian_red,
        "counted": {"black_threes_in_hand": 100, "short_sequences": 1000},
    },
    "bolivia": {
        "values": CANASTA_SET,
        "bonus": {**SAMBA_BONUS, "bolivia": 2500},
        "out": (200, 200),
        "red": _samba_red,
        "counted": {"black_threes_in_hand": 100},
    },
    "buraco": {
        "values": BURACO_SET,
        "bonus": {"natural": 100, "mixed": 100, "ace_to_ace": 1000},
        "out": (100, 100),
        "red": _no_red,
        "extra_hand": 100,
    },
    "burraco": {
        "values": BURRACO_SET,
        "bonus": {"natural": 200, "mixed": 100},
        "out": (100, 100),
        "red": _no_red,
        "extra_hand": 100,
    },
}
REFERENCE["classic-2p"] = REFERENCE["classic"]
REFERENCE["classic-3p"] = REFERENCE["classic"]


def _six_red(n: int, canastas: int, meld: int) -> int:
    value = {5: 1000, 6: 1200}.get(n, 100 * n)
    return value if canastas >= 1 else -value


def _hf_red(n: int, canastas: int, meld: int) -> int:
    return 100 * n  # RULES-2: +100 each laid, whatever the books


# RULES-2.md's presets.
REFERENCE["classic-6p"] = {**REFERENCE["classic"], "red": _six_red}
REFERENCE["hand-and-foot"] = {
    "values": CANASTA_SET,
    "bonus": {"natural": 500, "mixed": 300, "wild": 1500},
    "out": (100, 100),
    "red": _hf_red,
    "counted": {"red_threes_in_hand": 100},
    "feet": True,
}
REFERENCE["buraco-4p"] = {
    "values": {"joker": 20, "two": 10, "ace": 15, "high": 10, "low": 5},
    "bonus": {"natural": 200, "mixed": 100, "ace_to_king": 500, "ace_to_ace": 1000},
    "out": (100, 100),
    "red": _no_red,
    "extra_hand": 100,
}


def _mac_threes(n: int, canastas: int, meld: int) -> int:
    """RULES-2 Modern American: each colour 1: 100, 2: 300, 3: 500, 4: 1000; minus without
    a canasta, nothing with exactly one, plus from two."""
    value = {0: 0, 1: 100, 2: 300, 3: 500, 4: 1000}[n]
    return -value if canastas == 0 else 0 if canastas == 1 else value


REFERENCE["modern-american"] = {
    "values": {**CANASTA_SET, "red_three": 5},
    "bonus": {
        "natural": 500,
        "mixed": 300,
        "aces": 2500,
        "sevens": 2500,
        "wild": 2000,
        "wild_jokers": 2500,
        "wild_twos": 3000,
    },
    "out": (100, 100),
    "red": _mac_threes,
    "black": _mac_threes,
    "counted": {
        "incomplete_aces": 2500,
        "incomplete_sevens": 2500,
        "incomplete_wild": 2000,
        "players_with_3_aces": 1500,
        "players_with_3_sevens": 1500,
    },
    "meld_minus_without_canasta": True,
}
# Special hands are not drawn here: test_modern_american.py covers them case by case.
EVERY_PRESET = (*ALL_PRESETS, *NEW_PRESETS)


def reference_total(key: str, side: dict[str, Any]) -> int:
    ref = REFERENCE[key]
    values = ref["values"]
    canastas = side.get("canastas", {})
    total = sum(ref["bonus"][kind] * n for kind, n in canastas.items())
    if "meld_cards" in side:
        meld = sum(values[c] * n for c, n in side["meld_cards"].items())
    else:
        meld = side.get("meld_points", 0)
    if ref.get("meld_minus_without_canasta") and not sum(canastas.values()):
        total -= meld
    else:
        total += meld
    if side.get("went_out"):
        plain, concealed = ref["out"]
        total += concealed if side.get("concealed") else plain
    total += ref["red"](side.get("red_threes", 0), sum(canastas.values()), meld)
    if "black" in ref:
        total += ref["black"](side.get("black_threes", 0), sum(canastas.values()), meld)
    if "hand_cards" in side:
        total -= sum(values[c] * n for c, n in side["hand_cards"].items())
    else:
        total -= side.get("hand_points", 0)
    for name, points in ref.get("counted", {}).items():
        total -= points * side.get(name, 0)
    for entry in side.get("penalties", []):
        if "rule" in entry:
            total -= ref["catalogue"] * entry.get("count", 1)
        else:
            total -= entry["points"]
    if ref.get("feet"):
        if "foot_cards" in side:
            total -= sum(values[c] * n for c, n in side["foot_cards"].items())
        else:
            total -= side.get("foot_points", 0)
    if "extra_hand" in ref and not side["took_extra_hand"]:
        total -= ref["extra_hand"]
    return total


# --- Generator ------------------------------------------------------------------------


def _take(draw, budget: dict[str, int], categories: list[str], n: int) -> dict[str, int] | None:
    """Take n cards from the budget, from the categories in a drawn order."""
    order = draw(st.permutations(categories))
    if sum(budget[c] for c in order) < n:
        return None
    taken: dict[str, int] = {}
    for category in order:
        if n == 0:
            break
        k = min(budget[category], n)
        if k:
            taken[category] = k
            budget[category] -= k
            n -= k
    return taken


def _value(rules: Rules, cards: dict[str, int]) -> int:
    return sum(rules.category(key).value * count for key, count in cards.items())


def _add(into: dict[str, int], more: dict[str, int]) -> None:
    for key, count in more.items():
        into[key] = into.get(key, 0) + count


def _meets(rules: Rules, canastas: dict[str, int]) -> list[tuple[int, tuple[str, ...]]]:
    """The going-out clauses still unmet, as (missing count, kinds)."""
    missing = []
    for clause in rules.going_out.needs:
        kinds = rules.clause_kinds(clause)
        have = sum(canastas.get(k, 0) for k in kinds) if kinds else sum(canastas.values())
        if have < clause.count:
            missing.append((clause.count - have, kinds or ()))
    return missing


@st.composite
def options_for(draw, key: str) -> dict[str, Any]:
    """Random house rules: every value a multiple of 5."""
    rules = PRESETS[key]
    fives = st.integers(0, 600).map(lambda n: n * 5)
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["target"] = draw(st.integers(1, 4000).map(lambda n: n * 5))
    if draw(st.booleans()):
        options["going_out"] = draw(fives)
    if rules.going_out.concealed_bonus is not None and draw(st.booleans()):
        options["concealed_going_out"] = draw(fives)
    for kind in rules.kinds:
        if draw(st.booleans()):
            options[kind.option] = draw(fives)
    if rules.red_threes is not None and rules.red_threes.schedule_option is None:
        if draw(st.booleans()):
            options["red_three"] = draw(fives)
        if rules.red_threes.negative_when_choices and draw(st.booleans()):
            options["red_threes_negative_when"] = draw(
                st.sampled_from(rules.red_threes.negative_when_choices)
            )
    return options


@st.composite
def valid_hands(draw, key: str, options: dict[str, Any] | None = None):
    """(rules, players, sides): one valid hand record of the preset `key`."""
    rules = resolve(key, options)
    layout = draw(st.sampled_from(rules.layouts))
    players = layout.players_per_side
    n_sides = layout.sides
    out = draw(st.one_of(st.none(), st.integers(0, n_sides - 1)))

    categories = [c.key for c in rules.cards]
    naturals = [c.key for c in rules.cards if not c.wild and c.key not in rules.unmeldable]
    wilds = [c.key for c in rules.cards if c.wild]
    deck = rules.deck_for(players * n_sides)
    budget = {c: deck.count_of(c) for c in [*categories, "red_three"]}
    refused_in_hand = {p.card_category for p in rules.counted_penalties if p.replaces_hand_cards}
    kinds = [k.key for k in rules.kinds]
    canasta_room = most_canastas = deck.size // rules.canasta_size
    # Kinds capped across the table (Modern American: one canasta of aces, of sevens, and
    # one wild-card canasta in all).
    on_table = dict.fromkeys(kinds, 0)
    # The deck makes at most `most_canastas` canastas in all: the sides up to the one going
    # out leave room for what going out asks of it.
    going_out_needs = sum(clause.count for clause in rules.going_out.needs)

    def room(kind: str, keep: int = 0) -> int:
        spec = rules.kind(kind)
        most = 2 if spec.max_on_table is None else spec.max_on_table - on_table[kind]
        for cap in rules.group_caps:
            if spec.group == cap.group:
                used = sum(n for k, n in on_table.items() if rules.kind(k).group == cap.group)
                most = min(most, cap.most - used)
        return max(min(most, most_canastas - sum(on_table.values()) - keep), 0)

    sides = []
    for index in range(n_sides):
        went_out = index == out
        alone_out = went_out and players == 1
        side: dict[str, Any] = {}

        canastas = {}
        keep = going_out_needs if out is not None and index <= out else 0
        for k in kinds:
            canastas[k] = draw(st.integers(0, min(2, room(k, keep))))
            on_table[k] += canastas[k]
        if went_out:
            for missing, clause_kinds in _meets(rules, canastas):
                open_kinds = [k for k in clause_kinds or tuple(kinds) if room(k) >= missing]
                kind = draw(st.sampled_from(open_kinds))
                canastas[kind] += missing
                on_table[kind] += missing
            assert not _meets(rules, canastas)
        canastas = {k: n for k, n in canastas.items() if n}
        canasta_room -= sum(canastas.values())
        assert canasta_room >= 0
        if canastas or draw(st.booleans()):
            side["canastas"] = canastas

        if went_out:
            side["went_out"] = True
            if draw(st.booleans()):
                side["concealed"] = draw(st.booleans())
        elif draw(st.booleans()):
            side["went_out"] = False

        # Melded cards are drawn from what is left of the deck (so a hand never counts more
        # than the deck holds), then entered card by card or as points.
        meld_cards: dict[str, int] = {}
        for kind, count in list(canastas.items()):
            pool = wilds if rules.kind(kind).cheapest == "wild" else naturals
            least = rules.min_canasta_points(rules.kind(kind))
            for _ in range(count):
                taken = _take(draw, budget, pool, rules.canasta_size)
                # Long runs are worth more than seven cards: add cards up to their least value.
                while taken is not None and _value(rules, taken) < least:
                    more = _take(draw, budget, pool, 1)
                    if more is None:
                        _add(budget, taken)
                        taken = None
                    else:
                        _add(taken, more)
                if taken is None:
                    canastas[kind] -= 1
                    on_table[kind] -= 1
                else:
                    _add(meld_cards, taken)
        if went_out:
            assume(not _meets(rules, canastas))
        canastas = {k: n for k, n in canastas.items() if n}
        if canastas or "canastas" in side:
            side["canastas"] = canastas
        for category in categories:
            if category in rules.unmeldable:
                continue
            extra = draw(st.integers(0, min(budget[category], 4)))
            if extra:
                meld_cards[category] = meld_cards.get(category, 0) + extra
                budget[category] -= extra
        if draw(st.booleans()):
            side["meld_cards"] = meld_cards
        else:
            side["meld_points"] = _value(rules, meld_cards)

        # Cards left in hand: none for a player who went out alone.
        if alone_out:
            choice = draw(st.sampled_from(["omit", "points", "cards"]))
            if choice == "points":
                side["hand_points"] = 0
            elif choice == "cards":
                side["hand_cards"] = {}
        else:
            hand_cards = {}
            for category in categories:
                if category in refused_in_hand:
                    continue
                count = draw(st.integers(0, min(budget[category], 4)))
                if count:
                    hand_cards[category] = count
                    budget[category] -= count
            if draw(st.booleans()):
                side["hand_cards"] = hand_cards
            else:
                side["hand_points"] = _value(rules, hand_cards)

        for threes in rules.laid_threes:
            laid = draw(st.integers(0, budget[threes.card_category]))
            budget[threes.card_category] -= laid
            if laid or draw(st.booleans()):
                side[threes.field] = laid

        for penalty in rules.counted_penalties:
            if penalty.card_category is None:
                most = 2 if penalty.max_per_side is None else penalty.max_per_side
                if penalty.max_players:
                    most = min(most, players)
                beside = penalty.excludes_kind and canastas.get(penalty.excludes_kind)
                if beside or (penalty.forbids_going_out and went_out):
                    most = 0
                count = draw(st.integers(0, most))
            elif alone_out:
                count = 0
            else:
                count = draw(st.integers(0, min(budget[penalty.card_category], 3)))
                budget[penalty.card_category] -= count
            if count or draw(st.booleans()):
                side[penalty.field] = count

        if rules.extra_hand is not None:
            side["took_extra_hand"] = True if went_out else draw(st.booleans())

        if rules.feet is not None:
            taken_feet = draw(st.integers(1 if went_out else 0, players))
            if alone_out:
                taken_feet = 1
            if taken_feet or draw(st.booleans()):
                side["feet_taken"] = taken_feet
            if taken_feet < players:
                foot_cards = {}
                for category in categories:
                    count = draw(st.integers(0, min(budget[category], 3)))
                    if count:
                        foot_cards[category] = count
                        budget[category] -= count
                if draw(st.booleans()):
                    side["foot_cards"] = foot_cards
                else:
                    side["foot_points"] = _value(rules, foot_cards)

        penalties = []
        if rules.catalogue:
            for item in draw(st.lists(st.sampled_from(rules.catalogue), max_size=3)):
                entry: dict[str, Any] = {"rule": item.key}
                count = draw(st.integers(0, 3))
                if count:
                    entry["count"] = count
                penalties.append(entry)
        for _ in range(draw(st.integers(0, 2))):
            points = 5 * draw(st.integers(1, 60))
            penalties.append({"points": points, "reason": draw(st.sampled_from(REASONS))})
        if penalties or draw(st.booleans()):
            side["penalties"] = penalties

        sides.append(side)

    assert all(v >= 0 for v in budget.values())
    return rules, players, sides


def _players_arg(rules: Rules, players: int) -> int | None:
    """Say the players per side when the preset allows several layouts (sometimes otherwise)."""
    return players if len(rules.layouts) > 1 else None


# --- Properties ---------------------------------------------------------------------


@pytest.mark.parametrize("key", EVERY_PRESET)
@given(data=st.data())
def test_valid_hands_are_accepted_and_score_consistently(key, data):
    rules, players, sides = data.draw(valid_hands(key))
    original = copy.deepcopy(sides)
    hand = read_hand(rules, sides, _players_arg(rules, players))
    assert sides == original  # the record is not modified
    scores = score(rules, hand)
    assert len(scores) == len(sides)
    for side, side_score in zip(sides, scores, strict=True):
        assert sum(line.points for line in side_score.lines) == side_score.total
        assert side_score.total % 5 == 0
        for line in side_score.lines:
            assert line.points % 5 == 0
            assert_a_line_of_keys(line)
        assert side_score.total == reference_total(key, side)


@pytest.mark.parametrize("key", EVERY_PRESET)
@given(data=st.data())
def test_valid_hands_with_house_rules_score_in_fives(key, data):
    options = data.draw(options_for(key))
    rules, players, sides = data.draw(valid_hands(key, options))
    hand = read_hand(rules, sides, _players_arg(rules, players))
    for side_score in score(rules, hand):
        assert sum(line.points for line in side_score.lines) == side_score.total
        assert side_score.total % 5 == 0


@pytest.mark.parametrize("key", EVERY_PRESET)
@given(data=st.data())
def test_count_mode_scores_like_the_same_points(key, data):
    rules, players, sides = data.draw(valid_hands(key))
    values = REFERENCE[key]["values"]
    as_points = []
    for side in sides:
        side = dict(side)
        if "meld_cards" in side:
            side["meld_points"] = sum(values[c] * n for c, n in side.pop("meld_cards").items())
        if "hand_cards" in side:
            side["hand_points"] = sum(values[c] * n for c, n in side.pop("hand_cards").items())
        if "foot_cards" in side:
            side["foot_points"] = sum(values[c] * n for c, n in side.pop("foot_cards").items())
        as_points.append(side)
    arg = _players_arg(rules, players)
    counted = [s.total for s in score(rules, read_hand(rules, sides, arg))]
    pointed = [s.total for s in score(rules, read_hand(rules, as_points, arg))]
    assert counted == pointed


@pytest.mark.parametrize("key", EVERY_PRESET)
@given(data=st.data())
def test_everyone_going_out_is_rejected(key, data):
    rules, players, sides = data.draw(valid_hands(key))
    for side in sides:
        side["went_out"] = True
    with pytest.raises(InvalidHand) as info:
        read_hand(rules, sides, _players_arg(rules, players))
    assert (None, "went_out") in {(p.side, p.field) for p in info.value.problems}


@pytest.mark.parametrize("key", ALL_PRESETS)
@given(data=st.data())
def test_meld_points_below_the_canastas_are_rejected(key, data):
    rules, players, sides = data.draw(valid_hands(key))
    with_canastas = [i for i, s in enumerate(sides) if sum(s.get("canastas", {}).values())]
    if not with_canastas:
        sides[0]["canastas"] = {"mixed": 1}
        with_canastas = [0]
    index = data.draw(st.sampled_from(with_canastas))
    side = sides[index]
    side.pop("meld_cards", None)
    least = sum(rules.min_canasta_points(rules.kind(k)) * n for k, n in side["canastas"].items())
    side["meld_points"] = least - 5
    with pytest.raises(InvalidHand) as info:
        read_hand(rules, sides, _players_arg(rules, players))
    assert (index, "meld_points") in {(p.side, p.field) for p in info.value.problems}


@pytest.mark.parametrize("key", ALL_PRESETS[:7])
@given(data=st.data())
def test_one_red_three_too_many_is_rejected(key, data):
    rules, players, sides = data.draw(valid_hands(key))
    laid = sum(s.get("red_threes", 0) + s.get("red_threes_in_hand", 0) for s in sides)
    index = data.draw(st.integers(0, len(sides) - 1))
    extra = rules.deck.count_of("red_three") - laid + 1
    sides[index]["red_threes"] = sides[index].get("red_threes", 0) + extra
    with pytest.raises(InvalidHand) as info:
        read_hand(rules, sides, _players_arg(rules, players))
    assert (None, "red_threes") in {(p.side, p.field) for p in info.value.problems}
