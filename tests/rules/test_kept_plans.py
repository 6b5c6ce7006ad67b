"""The lookups worked out once per rule set (reader and check plans, card values) give the
answers the rule set's own data gives when asked afresh, for every preset and some house
rules."""

from __future__ import annotations

import pytest

from scorekeeper.rules import PRESETS, Rules, resolve, rules_from_json, rules_to_json
from scorekeeper.rules.hand import COUNT_FIELDS, reader_plan
from scorekeeper.rules.validate import check_plan

# Presets, and house rules that change what the plans hold (kinds, values, decks, needs).
RULE_SETS = [(key, None) for key in PRESETS] + [
    ("classic", {"wild_canasta": 1000, "incomplete_wild_penalty": 100}),
    ("classic", {"card_values": {"joker": 100}, "going_out_needs": [{"count": 2, "kinds": []}]}),
    ("hand-and-foot", {"packs": 7, "going_out_needs_all_feet": True}),
    ("hand-and-foot", {"exact_pickup_bonus": 100}),
    ("buraco", {"ace_to_king": 500}),
    ("burraco-3p", {"lineup_mode": "each_for_self"}),
    ("modern-american", {"card_values": {"red_three": 100, "black_three": 100}}),
]
IDS = [f"{key}-{index}" for index, (key, _) in enumerate(RULE_SETS)]


@pytest.fixture(params=RULE_SETS, ids=IDS)
def rules(request: pytest.FixtureRequest) -> Rules:
    key, options = request.param
    return resolve(key, options)


def test_card_values_are_what_each_category_is_worth(rules):
    values = rules.category_values
    assert set(values) == {c.key for c in rules.cards}
    for key, value in values.items():
        category = rules.category(key)
        assert category is not None
        assert category.value == value


def test_the_reader_plan_holds_what_the_rules_say(rules):
    plan = reader_plan(rules)
    categories = {c.key for c in rules.cards}
    refused_in_hand = {
        p.card_category
        for p in rules.counted_penalties
        if p.replaces_hand_cards and p.card_category
    }
    refused_in_meld = {key for key in rules.unmeldable if rules.category(key) is not None}
    assert plan.kinds == {k.key for k in rules.kinds}
    assert plan.hand_categories == categories - refused_in_hand
    assert set(plan.refused_in_hand) == refused_in_hand
    assert plan.meld_categories == categories - refused_in_meld
    assert set(plan.refused_in_meld) == refused_in_meld
    assert plan.foot_categories == (categories if rules.feet is not None else set())
    assert plan.count_fields == {n for n in COUNT_FIELDS if n in rules.fields}
    assert list(plan.players_choices) == sorted({lay.players_per_side for lay in rules.layouts})
    for sides in range(1, 8):
        assumed = [
            lay.players_per_side for lay in rules.layouts if lay.assumed and lay.sides == sides
        ]
        assert plan.assumed_players.get(sides) == (assumed[0] if assumed else None)
    for players in (None, *plan.players_choices):
        expected = {
            lay.sides for lay in rules.layouts if players is None or lay.players_per_side == players
        }
        assert list(plan.side_counts[players]) == sorted(expected)


def test_the_check_plan_holds_what_the_rules_say(rules):
    plan = check_plan(rules)
    tables = {None, *(lay.sides * lay.players_per_side for lay in rules.layouts)}
    assert tables <= set(plan.decks)
    for players in (*plan.decks, 1, 13):  # table sizes no layout has are worked out
        deck = rules.deck_for(players)
        facts = plan.deck(rules, players)
        assert (facts.size, facts.value) == (deck.size, rules.deck_value(deck))
        for key in {c.key for c in rules.cards} | {"red_three", "nothing"}:
            assert facts.count_of(key) == deck.count_of(key)
    for key, least in plan.kind_least.items():
        kind = rules.kind(key)
        assert kind is not None
        assert least == rules.min_canasta_points(kind)
    assert set(plan.kind_least) == {k.key for k in rules.kinds}
    needs = [rules.going_out.needs, *rules.going_out.needs_by_deal]
    for clause in (c for clauses in needs for c in clauses):
        assert plan.clause_kinds[clause] == rules.clause_kinds(clause)
    values = {c.key: c.value for c in rules.cards}
    assert plan.penalty_values == tuple(
        (p.field, values[p.card_category])
        for p in rules.counted_penalties
        if p.card_category in values
    )
    assert plan.red_threes_apart == (rules.category("red_three") is None)
    holding = [(p.field, p.card_category) for p in rules.counted_penalties]
    holding += [(t.field, t.card_category) for t in rules.laid_threes]
    assert set(plan.card_count_fields) == {(f, c) for f, c in holding if c in values}
    assert plan.capped_kinds == tuple(k for k in rules.kinds if k.max_on_table is not None)
    for cap, keys in plan.group_caps:
        assert keys == tuple(k.key for k in rules.kinds if k.group == cap.group)


def test_plans_are_kept_beside_the_data(rules):
    """Made once per rule set; equality, hashing and the stored JSON do not see them."""
    fresh = rules_from_json(rules_to_json(rules))
    assert reader_plan(rules) is reader_plan(rules)
    assert check_plan(rules) is check_plan(rules)
    assert rules.category_values is rules.category_values
    assert fresh == rules
    assert hash(fresh) == hash(rules)
    assert rules_to_json(rules) == rules_to_json(fresh)


def test_records_are_frozen_and_built_through_their_constructors():
    """A side's record and a score line are frozen dataclasses made by their own __init__:
    the engine writes no field past it (no `object.__setattr__`, no `__dict__` filled in)."""
    from dataclasses import FrozenInstanceError
    from pathlib import Path

    import scorekeeper.rules
    from scorekeeper.rules.record import SideHand
    from scorekeeper.rules.scoring import Line

    side = SideHand(went_out=True, canastas={"natural": 1}, meld_points=50, red_threes=2)
    assert SideHand().canastas is not SideHand().canastas
    with pytest.raises(TypeError, match="bogus"):
        SideHand(bogus=1)  # type: ignore[call-arg]
    with pytest.raises(FrozenInstanceError):
        side.went_out = False  # type: ignore[misc]
    engine = Path(scorekeeper.rules.__file__).parent
    for path in engine.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for past_init in ("object.__setattr__", "object.__new__", "__dict__["):
            assert past_init not in text, f"{path.name} writes past a constructor: {past_init}"
    line = Line.of("going_out", 100, "line.going_out")
    assert line == Line("going_out", 100, "line.going_out", {})
    with pytest.raises(FrozenInstanceError):
        line.points = 0  # type: ignore[misc]


@pytest.mark.parametrize(
    "options", [None, {"lineup_mode": "each_for_self"}, {"solo_phase_from": 500}]
)
def test_a_seated_games_line_ups_by_phase_are_its_seatings(options):
    from scorekeeper.rules.seats import _shapes

    rules = resolve("burraco-3p", options)
    assert rules.seating is not None
    for phase in (None, 0, 1, 2):
        assert _shapes(rules, phase) == rules.seating.shapes(phase)
