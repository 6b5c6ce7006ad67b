"""What the rules make impossible in a well-formed hand (RULES.md, "What must be rejected").

Checks skip the fields that already failed to parse, so one typo does not
produce a cascade of confusing follow-up messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .errors import Problem
from .model import CanastaClause, CanastaKind, Deck, GroupCap, Rules
from .record import Hand, SideHand, foot_points_of, hand_points_of, meld_points_of

CARD_FIELDS = ("meld_cards", "hand_cards", "foot_cards")
MELD_FIELDS = frozenset({"meld_points", "meld_cards"})
HAND_FIELDS = frozenset({"hand_points", "hand_cards"})
FOOT_FIELDS = frozenset({"foot_points", "foot_cards"})
CANASTA_AND_MELD_FIELDS = frozenset({"canastas", "meld_points", "meld_cards"})
# What a side that went out must have parsed before its going out is checked.
GOING_OUT_FIELDS = frozenset(
    {"went_out", "canastas", "took_extra_hand", "feet_taken", "special_hand"}
)


@dataclass(frozen=True)
class DeckFacts:
    """A deck as the checks ask about it: its size, what it is worth, each category's count
    (`Deck.count_of` as a lookup)."""

    size: int
    value: int
    counts: dict[str, int]

    def count_of(self, category: str) -> int:
        return self.counts.get(category, 0)


def deck_facts(rules: Rules, deck: Deck) -> DeckFacts:
    counts: dict[str, int] = {}
    for entry in deck.counts:
        counts.setdefault(entry.category, entry.count)
    return DeckFacts(deck.size, rules.deck_value(deck), counts)


@dataclass(frozen=True)
class CheckPlan:
    """What checking a hand asks of its rule set, worked out once per rule set.

    `decks` holds the deck of each table size the layouts and seats name (None: the
    preset's own deck); `kind_least` the least card value of each canasta kind's
    canasta; `penalty_values` each counted penalty whose cards have a value, with that
    value; `going_out_blockers` the fields that must have parsed before a side's going
    out is checked; `clause_kinds` the kinds each going-out clause counts; `red_fields`
    the counts of red threes and `red_threes_apart` whether they are counted apart from
    the card categories; `card_count_fields` the counts (penalties and threes laid
    down) that hold cards of a category of the value set, with that category;
    `capped_kinds` the kinds capped on the table and `group_caps` each group cap with
    the keys of its kinds.
    """

    decks: dict[int | None, DeckFacts]
    kind_least: dict[str, int]
    penalty_values: tuple[tuple[str, int], ...]
    going_out_blockers: frozenset[str]
    clause_kinds: dict[CanastaClause, tuple[str, ...] | None]
    red_fields: tuple[str, ...]
    red_threes_apart: bool
    card_count_fields: tuple[tuple[str, str], ...]
    capped_kinds: tuple[CanastaKind, ...]
    group_caps: tuple[tuple[GroupCap, tuple[str, ...]], ...]

    def deck(self, rules: Rules, players: int | None) -> DeckFacts:
        """The deck of a table of `players` (a table size no layout names is worked out)."""
        facts = self.decks.get(players)
        return facts if facts is not None else deck_facts(rules, rules.deck_for(players))


@lru_cache(maxsize=64)
def check_plan(rules: Rules) -> CheckPlan:
    """The rule set's check plan, worked out once per rule set (its data is frozen)."""
    tables: set[int | None] = {None, *(lay.sides * lay.players_per_side for lay in rules.layouts)}
    if rules.seating is not None:
        tables.add(rules.seating.seats)
    kind_least: dict[str, int] = {}
    for kind in rules.kinds:
        kind_least.setdefault(kind.key, rules.min_canasta_points(kind))
    penalty_values = []
    for penalty in rules.counted_penalties:
        category = rules.category(penalty.card_category) if penalty.card_category else None
        if category is not None:
            penalty_values.append((penalty.field, category.value))
    clauses = [
        *rules.going_out.needs,
        *(c for needs in rules.going_out.needs_by_deal for c in needs),
    ]
    laid_fields = {t.field: t.card_category for t in rules.laid_threes}
    card_count_fields = [
        (p.field, p.card_category) for p in rules.counted_penalties if p.card_category is not None
    ]
    card_count_fields += laid_fields.items()
    categories = {c.key for c in rules.cards}
    return CheckPlan(
        decks={n: deck_facts(rules, rules.deck_for(n)) for n in tables},
        kind_least=kind_least,
        penalty_values=tuple(penalty_values),
        going_out_blockers=GOING_OUT_FIELDS
        | {p.field for p in rules.counted_penalties if p.forbids_going_out},
        clause_kinds={clause: rules.clause_kinds(clause) for clause in clauses},
        red_fields=(
            "red_threes",
            *(p.field for p in rules.counted_penalties if p.card_category == "red_three"),
        ),
        red_threes_apart=rules.category("red_three") is None,
        card_count_fields=tuple(f for f in card_count_fields if f[1] in categories),
        capped_kinds=tuple(k for k in rules.kinds if k.max_on_table is not None),
        group_caps=tuple(
            (cap, tuple(k.key for k in rules.kinds if k.group == cap.group))
            for cap in rules.group_caps
        ),
    )


def clause_count(clause: CanastaClause, side: SideHand, rules: Rules | None = None) -> int:
    if not clause.kinds and not clause.groups:
        return side.canasta_total()  # a clause of any kind
    if rules is None:
        kinds = clause.kinds or None
    else:
        planned = check_plan(rules).clause_kinds
        kinds = planned[clause] if clause in planned else rules.clause_kinds(clause)
    if kinds is None:
        return side.canasta_total()
    return sum(side.canastas.get(key, 0) for key in kinds)


def clause_params(rules: Rules, clause: CanastaClause) -> dict[str, Any]:
    """A going-out clause as message parameters: how many, of which kinds (None: any)."""
    kinds = rules.clause_kinds(clause)
    return {"count": clause.count, "kinds": None if kinds is None else list(kinds)}


def going_out_shortfalls(
    rules: Rules, side: SideHand, deal: int = 1, players_per_side: int | None = None
) -> list[dict[str, Any]]:
    """What the side lacks to go out in deal `deal`, each a message (`needs.*` key and
    parameters); empty when it may go out."""
    missing: list[dict[str, Any]] = []
    for clause in rules.going_out.needs_for(deal):
        counted = clause_count(clause, side, rules)
        if counted < clause.count:
            params = {**clause_params(rules, clause), "recorded": counted}
            missing.append({"key": "needs.clause", "params": params})
    extra = rules.extra_hand
    if rules.going_out.needs_extra_hand and extra is not None and not side.took_extra_hand:
        missing.append({"key": "needs.extra_hand", "params": {}})
    feet = rules.feet
    if feet is not None:
        if rules.going_out.needs_all_feet and players_per_side is not None:
            if side.feet_taken < players_per_side:
                taken = {"taken": side.feet_taken, "players": players_per_side}
                missing.append({"key": "needs.every_foot", "params": taken})
        elif (rules.going_out.needs_foot or rules.going_out.needs_all_feet) and (
            side.feet_taken < 1
        ):
            missing.append({"key": "needs.foot", "params": {}})
    for penalty in rules.counted_penalties:
        if penalty.forbids_going_out and side.count(penalty.field):
            missing.append({"key": "needs.none_left", "params": {"penalty": penalty.field}})
    return missing


def min_meld_points(rules: Rules, side: SideHand) -> int:
    """The least the declared canastas can be worth in cards."""
    kind_least = check_plan(rules).kind_least
    total = 0
    for key, count in side.canastas.items():
        least = kind_least.get(key)
        if least is not None:
            total += count * least
    return total


def card_values(rules: Rules, side: SideHand, failed: set[str]) -> dict[str, int]:
    """The card value each field of a side's record counts (fields that failed left out)."""
    meld_field = "meld_cards" if side.meld_cards is not None else "meld_points"
    hand_field = "hand_cards" if side.hand_cards is not None else "hand_points"
    values: dict[str, int] = {}
    if failed.isdisjoint(MELD_FIELDS):
        values[meld_field] = meld_points_of(rules, side)
    if failed.isdisjoint(HAND_FIELDS):
        values[hand_field] = hand_points_of(rules, side)
    if rules.feet is not None and failed.isdisjoint(FOOT_FIELDS):
        foot_field = "foot_cards" if side.foot_cards is not None else "foot_points"
        values[foot_field] = foot_points_of(rules, side)
    for field, value in check_plan(rules).penalty_values:
        if field not in failed:
            values[field] = side.count(field) * value
    return values


def _biggest(values: dict[str, int]) -> str:
    return max(values, key=lambda name: values[name])


def _side_problems(
    rules: Rules,
    plan: CheckPlan,
    hand: Hand,
    index: int,
    failed: set[str],
    deck: DeckFacts,
    values: dict[str, int],
) -> list[Problem]:
    """`deck` is the table's deck, `values` the side's `card_values`."""
    side = hand.sides[index]
    problems: list[Problem] = []

    def add(field: str, key: str, /, **params: Any) -> None:
        problems.append(Problem(index, field, key, params))

    if side.concealed and not side.went_out and not failed & {"concealed", "went_out"}:
        add("concealed", "check.concealed_not_out")
    if side.special_hand is not None:
        problems.extend(_special_hand_problems(rules, hand, index, failed))

    meld_field = "meld_cards" if side.meld_cards is not None else "meld_points"
    if failed.isdisjoint(CANASTA_AND_MELD_FIELDS):
        least = min_meld_points(rules, side)
        melded = values[meld_field]  # meld_points_of(rules, side), counted already
        canastas = side.canasta_total()
        if melded < least:
            add(meld_field, "check.meld_below_canastas", count=canastas, least=least, melded=melded)
        if side.meld_cards is not None:
            cards = sum(side.meld_cards.values())
            needed = canastas * rules.canasta_size
            if cards < needed:
                add("meld_cards", "check.meld_cards", count=canastas, needed=needed, cards=cards)

    counted = sum(values.values())
    if counted > deck.value:
        add(_biggest(values), "check.side_over_deck", counted=counted, deck=deck.value)

    problems.extend(_count_problems(rules, hand, index, failed))

    blocking = plan.going_out_blockers
    if side.went_out and side.special_hand is None and failed.isdisjoint(blocking):
        shortfalls = going_out_shortfalls(rules, side, hand.deal, hand.players_per_side)
        if shortfalls:
            add("went_out", "check.cannot_go_out", variant=rules.key, needs=shortfalls)

    if side.went_out and hand.side_players(index) == 1 and "went_out" not in failed:
        hand_field = "hand_cards" if side.hand_cards is not None else "hand_points"
        if hand_field not in failed and hand_points_of(rules, side) > 0:
            add(hand_field, "check.alone_out_hand")
        foot_field = "foot_cards" if side.foot_cards is not None else "foot_points"
        if rules.feet is not None and foot_field not in failed and foot_points_of(rules, side):
            add(foot_field, "check.alone_out_foot")
        for penalty in rules.counted_penalties:
            if penalty.card_category and penalty.field not in failed and side.count(penalty.field):
                add(penalty.field, "check.alone_out_holds", penalty=penalty.field)
    return problems


# What a side that went out with a special hand may still say: how it went out.
_BESIDE_A_SPECIAL_HAND = frozenset({"went_out", "concealed", "special_hand", "took_extra_hand"})


def _special_hand_problems(rules: Rules, hand: Hand, index: int, failed: set[str]) -> list[Problem]:
    """A special hand is how the side went out, and it scores alone: nothing else counts."""
    side = hand.sides[index]
    problems: list[Problem] = []
    if not side.went_out and "went_out" not in failed:
        problems.append(Problem.of(index, "special_hand", "check.special_not_out"))
    for name in rules.fields:
        if name in _BESIDE_A_SPECIAL_HAND or name in failed:
            continue
        if getattr(side, name):
            problems.append(Problem.of(index, name, "check.special_alone", field=name))
    return problems


def _count_problems(rules: Rules, hand: Hand, index: int, failed: set[str]) -> list[Problem]:
    """Counts above what one side can have: feet, exact pickups, capped penalties."""
    side = hand.sides[index]
    players = hand.players_per_side
    problems: list[Problem] = []

    def add(field: str, key: str, /, **params: Any) -> None:
        problems.append(Problem(index, field, key, params))

    feet = rules.feet
    if feet is not None and players is not None:
        if "feet_taken" not in failed and side.feet_taken > players:
            add("feet_taken", "check.feet_over_players", count=side.feet_taken, players=players)
        foot_field = "foot_cards" if side.foot_cards is not None else "foot_points"
        taken_all = side.feet_taken == players
        if taken_all and not failed & {foot_field, "feet_taken"} and foot_points_of(rules, side):
            add(foot_field, "check.all_feet_taken")
        if "exact_pickups" not in failed and side.exact_pickups > players:
            add(
                "exact_pickups",
                "check.pickups_over_players",
                count=side.exact_pickups,
                players=players,
            )
    for penalty in rules.counted_penalties:
        if penalty.field in failed:
            continue
        count = side.count(penalty.field)
        cap = penalty.max_per_side
        if penalty.max_players and players is not None:
            cap = players if cap is None else min(cap, players)
        if (
            penalty.excludes_kind is not None
            and count
            and "canastas" not in failed
            and side.canastas.get(penalty.excludes_kind, 0)
        ):
            add(
                penalty.field,
                "check.penalty_beside_kind",
                penalty=penalty.field,
                kind=penalty.excludes_kind,
            )
        if cap is not None and count > cap:
            add(penalty.field, "check.count_cap", penalty=penalty.field, cap=cap, count=count)
    return problems


def _cards_by_field(
    plan: CheckPlan, category: str, usable: list[tuple[SideHand, set[str], dict[str, int]]]
) -> dict[str, int]:
    """The cards of a category each field counts across all sides, in the order they are
    first met (the field that holds most of them is named first)."""
    by_field: dict[str, int] = {}
    for side, bad, _ in usable:
        for name in CARD_FIELDS:
            counts = getattr(side, name)
            if counts and name not in bad:
                key = f"{name}.{category}"
                by_field[key] = by_field.get(key, 0) + counts.get(category, 0)
        for name, category_key in plan.card_count_fields:
            if category_key == category and name not in bad:
                by_field[name] = by_field.get(name, 0) + side.count(name)
    return by_field


def _deck_problems(
    rules: Rules,
    plan: CheckPlan,
    deck: DeckFacts,
    usable: list[tuple[SideHand, set[str], dict[str, int]]],
) -> list[Problem]:
    """`deck` is the table's deck; `usable` each side whose record is an object, with the
    fields that failed and its `card_values`."""
    problems: list[Problem] = []

    # Threes laid down are cards of their category where the value set has one
    # (Modern American: a three left in hand); otherwise red threes are counted here.
    if plan.red_threes_apart:
        red_total = 0
        for side, bad, _ in usable:
            for name in plan.red_fields:
                if name not in bad:
                    red_total += side.count(name)
        if red_total > deck.count_of("red_three"):
            problems.append(
                Problem.of(
                    None,
                    "red_threes",
                    "check.red_threes_over_deck",
                    available=deck.count_of("red_three"),
                    count=red_total,
                )
            )

    totals: dict[str, int] = {}  # cards of each category across all sides
    for side, bad, _ in usable:
        for name in CARD_FIELDS:
            counts = getattr(side, name)
            if counts and name not in bad:
                for key, count in counts.items():
                    totals[key] = totals.get(key, 0) + count
        for name, category_key in plan.card_count_fields:
            if name not in bad:
                totals[category_key] = totals.get(category_key, 0) + side.count(name)
    over = totals and any(count > deck.count_of(key) for key, count in totals.items())
    for category in rules.cards if over else ():
        count = totals.get(category.key, 0)
        available = deck.count_of(category.key)
        if count > available:
            # Name the field holding most of these cards: that is where to look first.
            by_field = _cards_by_field(plan, category.key, usable)
            field = max(by_field, key=lambda name: by_field[name])
            problems.append(
                Problem.of(
                    None,
                    field,
                    "check.cards_over_deck",
                    available=available,
                    category=category.key,
                    count=count,
                )
            )

    side_totals = [sum(values.values()) for _, _, values in usable]
    counted = sum(side_totals)
    if counted > deck.value and not any(total > deck.value for total in side_totals):
        values_by_field: dict[str, int] = {}
        for _, _, values in usable:
            for name, value in values.items():
                values_by_field[name] = values_by_field.get(name, 0) + value
        problems.append(
            Problem.of(
                None,
                _biggest(values_by_field),
                "check.all_over_deck",
                counted=counted,
                deck=deck.value,
            )
        )

    if plan.capped_kinds and not any("canastas" in bad for _, bad, _ in usable):
        for kind in plan.capped_kinds:
            assert kind.max_on_table is not None
            on_table = sum(side.canastas.get(kind.key, 0) for side, _, _ in usable)
            if on_table > kind.max_on_table:
                problems.append(
                    Problem.of(
                        None,
                        f"canastas.{kind.key}",
                        "check.kind_over_table",
                        most=kind.max_on_table,
                        kind=kind.key,
                        count=on_table,
                    )
                )

    for cap, group_kinds in plan.group_caps:
        on_table = sum(
            side.canastas.get(key, 0)
            for side, bad, _ in usable
            for key in group_kinds
            if "canastas" not in bad
        )
        if on_table > cap.most:
            problems.append(
                Problem.of(
                    None,
                    "canastas",
                    "check.group_over_table",
                    most=cap.most,
                    group=str(cap.group),
                    count=on_table,
                )
            )

    canastas = 0
    for side, bad, _ in usable:
        if "canastas" not in bad:
            canastas += side.canasta_total()
    if canastas * rules.canasta_size > deck.size:
        problems.append(
            Problem.of(
                None,
                "canastas",
                "check.canastas_over_deck",
                count=canastas,
                size=rules.canasta_size,
                deck=deck.size,
            )
        )
    return problems


def check_hand(rules: Rules, hand: Hand, failed: list[set[str]] | None = None) -> list[Problem]:
    """Every rule violation of a parsed hand; `failed` lists fields that did not parse."""
    failed = failed or [set() for _ in hand.sides]
    plan = check_plan(rules)
    deck = plan.deck(rules, hand.players())
    usable: list[tuple[SideHand, set[str], dict[str, int]]] = []
    problems: list[Problem] = []
    for index, (side, bad) in enumerate(zip(hand.sides, failed, strict=True)):
        if "side" in bad:
            continue
        values = card_values(rules, side, bad)
        usable.append((side, bad, values))
        problems.extend(_side_problems(rules, plan, hand, index, bad, deck, values))

    out = [i for i, side in enumerate(hand.sides) if side.went_out and "went_out" not in failed[i]]
    if len(out) > 1:
        problems.append(Problem.of(None, "went_out", "check.two_out", sides=out))
    problems.extend(_deck_problems(rules, plan, deck, usable))
    return problems


def hand_warnings(rules: Rules, hand: Hand) -> list[Problem]:
    """What is possible but unlikely in an accepted hand: worth a second look before saving."""
    warnings = []
    for index, side in enumerate(hand.sides):
        if side.went_out:
            continue
        held = (
            hand_points_of(rules, side)
            or foot_points_of(rules, side)
            or any(side.count(p.field) for p in rules.counted_penalties if p.card_category)
        )
        if not held:
            field = "hand_cards" if side.hand_cards is not None else "hand_points"
            warnings.append(Problem.of(index, field, "warn.nothing_held"))
    return warnings
