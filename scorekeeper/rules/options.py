"""House-rule options: which a preset accepts, and applying them.

The options a preset offers are derived from its data (a preset with no red
threes offers no red-three option), so a new preset needs no new code here.
An option's label, and why a value is refused, are message keys and parameters
(`option.*`, `reason.*`): the edge puts them in words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, TypeGuard

from .errors import InvalidOptions, InvalidRules, Problem
from .model import (
    CanastaClause,
    CanastaNeed,
    GameEndMode,
    LineupMode,
    MeldMinusWhen,
    MeldTier,
    NegativeWhen,
    RedThrees,
    RedThreesMinus,
    RedThreeTotal,
    Rules,
    Seating,
    Sign,
    TieRule,
)
from .presets import get_preset

CANASTA_REQUIREMENTS = (None, "any", "natural")
_TIER_KEYS = frozenset({"min_score", "points", "canasta", "sides"})


class OptionType(StrEnum):
    """What kind of value an option takes (RULES.md and RULES-2.md, "Options")."""

    POINTS = "points"
    OPTIONAL_POINTS = "optional_points"
    CHOICE = "choice"
    MELD_TABLE = "meld_table"
    INT = "int"
    BOOL = "bool"
    CLAUSES = "clauses"
    TOTALS = "totals"
    POINTS_LIST = "points_list"
    CLAUSES_LIST = "clauses_list"
    CARD_VALUES = "card_values"
    SPECIAL_HANDS = "special_hands"


class OptionGroup(StrEnum):
    """Common house rules come first on a form; the rest fold away."""

    COMMON = "common"
    MORE = "more"


Reason = dict[str, Any]  # why a value is refused: {"key": "reason.*", "params": {...}}


def _reason(key: str, /, **params: Any) -> Reason:
    return {"key": f"reason.{key}", "params": params}


@dataclass(frozen=True)
class OptionSpec:
    """One option of one preset: its name, what it sets, its default and type, and its
    label as a message (`key`, `params`: what it names, as keys).

    `minimum`/`maximum` bound an `int`; `nullable` accepts null (the preset's
    own behaviour) for list options.
    """

    name: str
    key: str
    type: OptionType
    default: object
    choices: tuple[str, ...] = ()
    group: OptionGroup = OptionGroup.MORE
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, object]:
        """The option as data (its label is the edge's: `key` and `params` say it)."""
        data: dict[str, object] = {
            "name": self.name,
            "type": str(self.type),
            "default": self.default,
            "group": str(self.group),
        }
        if self.choices:
            data["choices"] = [str(c) for c in self.choices]
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        if self.nullable:
            data["nullable"] = True
        return data


def meld_table_to_json(table: tuple[MeldTier, ...]) -> list[dict[str, object]]:
    """Tiers as option values; `sides` appears only on a tier kept for one table size."""
    out: list[dict[str, object]] = []
    for tier in table:
        item: dict[str, object] = {
            "min_score": tier.min_score,
            "points": tier.points,
            "canasta": tier.canasta,
        }
        if tier.sides is not None:
            item["sides"] = tier.sides
        out.append(item)
    return out


def clauses_to_json(rules: Rules, clauses: tuple[CanastaClause, ...]) -> list[dict[str, Any]]:
    """Clauses as option values: a group is listed as the kinds it holds."""
    return [{"count": c.count, "kinds": list(rules.clause_kinds(c) or ())} for c in clauses]


def _any_count(rules: Rules) -> int | None:
    """The canastas-to-go-out shorthand of a requirement, when it is one."""
    needs = rules.going_out.needs
    if not needs:
        return 0
    if len(needs) == 1 and rules.clause_kinds(needs[0]) is None:
        return needs[0].count
    return None


def _red_three_specs(rules: Rules) -> list[OptionSpec]:
    red = rules.red_threes
    if red is None:
        return []
    if red.schedule_option is not None:
        most = rules.deck.count_of(red.card_category)
        schedule = {str(n): red.plus_value(n) for n in range(1, most + 1)}
        return [OptionSpec(red.schedule_option, "option.three_totals", OptionType.TOTALS, schedule)]
    specs = [OptionSpec("red_three", "option.red_three", OptionType.POINTS, red.each)]
    if red.negative_when == NegativeWhen.NEVER:
        specs.append(
            OptionSpec(
                "red_threes_laid",
                "option.red_threes_laid",
                OptionType.CHOICE,
                str(red.laid_sign),
                tuple(Sign),
            )
        )
        return specs
    if red.negative_when_choices:
        specs.append(
            OptionSpec(
                "red_threes_negative_when",
                "option.red_threes_negative_when",
                OptionType.CHOICE,
                str(red.negative_when),
                tuple(str(c) for c in red.negative_when_choices),
            )
        )
    if red.penalty_each is None:
        specs.append(
            OptionSpec(
                "red_three_totals",
                "option.red_three_totals",
                OptionType.TOTALS,
                {str(t.count): t.total for t in red.totals},
            )
        )
        specs.append(
            OptionSpec(
                "red_threes_minus",
                "option.red_threes_minus",
                OptionType.CHOICE,
                str(red.minus),
                tuple(RedThreesMinus),
            )
        )
    return specs


def _target_spec(rules: Rules) -> OptionSpec:
    """With targets by layout the default is null (each layout's own target)."""
    by_layout = rules.game_end.targets_by_layout
    if by_layout:
        targets = [{"layout": t.layout, "target": t.target} for t in by_layout]
        return OptionSpec(
            "target",
            "option.target_by_layout",
            OptionType.POINTS,
            None,
            group=OptionGroup.COMMON,
            nullable=True,
            params={"targets": targets},
        )
    return OptionSpec(
        "target", "option.target", OptionType.POINTS, rules.target, group=OptionGroup.COMMON
    )


def _seating_specs(seating: Seating) -> list[OptionSpec]:
    return [
        OptionSpec(
            "lineup_mode",
            "option.lineup_mode",
            OptionType.CHOICE,
            str(seating.mode),
            tuple(LineupMode),
            group=OptionGroup.COMMON,
        ),
        OptionSpec(
            "solo_phase_from",
            "option.solo_phase_from",
            OptionType.POINTS,
            seating.switch_from,
            group=OptionGroup.COMMON,
        ),
    ]


def available_options(rules: Rules) -> tuple[OptionSpec, ...]:
    """Every option the rule set offers, in the order they are applied."""
    common = OptionGroup.COMMON
    going = rules.going_out
    end = rules.game_end
    specs = [
        _target_spec(rules),
        OptionSpec("going_out", "option.going_out", OptionType.POINTS, going.bonus),
    ]
    if rules.seating is not None:
        specs += _seating_specs(rules.seating)
    if going.concealed_bonus is not None:
        specs.append(
            OptionSpec(
                "concealed_going_out",
                "option.concealed_going_out",
                OptionType.POINTS,
                going.concealed_bonus,
            )
        )
    for kind in rules.canasta_kinds:
        named = {"kind": kind.key}
        if kind.enabled and not kind.optional:
            specs.append(
                OptionSpec(kind.option, "option.kind", OptionType.POINTS, kind.bonus, params=named)
            )
        elif kind.enabled:
            specs.append(
                OptionSpec(
                    kind.option,
                    "option.kind_optional",
                    OptionType.OPTIONAL_POINTS,
                    kind.bonus,
                    params=named,
                )
            )
        else:
            specs.append(
                OptionSpec(
                    kind.option, "option.kind_off", OptionType.OPTIONAL_POINTS, None, params=named
                )
            )
    specs += _red_three_specs(rules)
    for penalty in rules.counted_penalties:
        if penalty.option is not None:
            specs.append(
                OptionSpec(
                    penalty.option,
                    "option.penalty",
                    OptionType.POINTS,
                    penalty.points,
                    params={"penalty": penalty.field},
                )
            )
    for penalty in rules.optional_penalties:
        if penalty.option is not None:
            specs.append(
                OptionSpec(
                    penalty.option,
                    "option.penalty_off",
                    OptionType.OPTIONAL_POINTS,
                    None,
                    params={"penalty": penalty.field},
                )
            )
    if rules.meld_table:
        specs.append(
            OptionSpec(
                "meld_minimums",
                "option.meld_minimums",
                OptionType.MELD_TABLE,
                meld_table_to_json(rules.meld_table),
            )
        )
    if end.mode == GameEndMode.DEALS:
        specs.append(
            OptionSpec(
                "game_end",
                "option.game_end",
                OptionType.CHOICE,
                str(end.mode),
                tuple(GameEndMode),
                group=common,
            )
        )
        specs.append(
            OptionSpec(
                "deals",
                "option.deals",
                OptionType.INT,
                end.deals,
                group=common,
                minimum=1,
                maximum=MAX_DEALS,
            )
        )
    if rules.meld_by_deal or rules.meld_by_deal_offered:
        specs.append(
            OptionSpec(
                "meld_minimums_by_deal",
                "option.meld_minimums_by_deal_offered"
                if rules.meld_by_deal_offered
                else "option.meld_minimums_by_deal",
                OptionType.POINTS_LIST,
                list(rules.meld_by_deal) or None,
                nullable=rules.meld_by_deal_offered,
            )
        )
    if rules.special_hands:
        specs.append(
            OptionSpec(
                "special_hands",
                "option.special_hands",
                OptionType.SPECIAL_HANDS,
                {h.key: h.points for h in rules.special_hands},
            )
        )
    specs.append(
        OptionSpec(
            "canastas_to_go_out",
            "option.canastas_to_go_out",
            OptionType.INT,
            _any_count(rules),
            minimum=0,
            maximum=8,
            nullable=True,
        )
    )
    specs.append(
        OptionSpec(
            "going_out_needs",
            "option.going_out_needs",
            OptionType.CLAUSES,
            clauses_to_json(rules, going.needs),
        )
    )
    if rules.feet is not None:
        by_deal = [clauses_to_json(rules, needs) for needs in going.needs_by_deal]
        specs += [
            OptionSpec(
                "going_out_needs_by_deal",
                "option.going_out_needs_by_deal",
                OptionType.CLAUSES_LIST,
                by_deal or None,
                nullable=True,
            ),
            OptionSpec(
                "going_out_by_deal",
                "option.going_out_by_deal",
                OptionType.POINTS_LIST,
                list(going.bonus_by_deal) or None,
                nullable=True,
            ),
            OptionSpec(
                "going_out_needs_all_feet",
                "option.going_out_needs_all_feet",
                OptionType.BOOL,
                going.needs_all_feet,
            ),
            OptionSpec(
                "exact_pickup_bonus",
                "option.exact_pickup_bonus",
                OptionType.OPTIONAL_POINTS,
                rules.feet.exact_pickup_bonus,
            ),
        ]
    if rules.packs is not None:
        specs.append(
            OptionSpec(
                "packs",
                "option.packs",
                OptionType.INT,
                rules.packs.packs,
                minimum=2,
                maximum=MAX_PACKS,
                nullable=True,
            )
        )
    specs += [
        OptionSpec(
            "meld_minus_when",
            "option.meld_minus_when",
            OptionType.CHOICE,
            str(rules.meld_minus_when),
            tuple(MeldMinusWhen),
        ),
        OptionSpec(
            "tie_rule",
            "option.tie_rule",
            OptionType.CHOICE,
            str(end.tie_rule),
            tuple(TieRule),
        ),
        OptionSpec(
            "card_values",
            "option.card_values",
            OptionType.CARD_VALUES,
            {c.key: c.value for c in rules.cards},
        ),
    ]
    return tuple(specs)


def option_defaults(rules: Rules) -> dict[str, object]:
    return {spec.name: spec.default for spec in available_options(rules)}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


MAX_OPTION_POINTS = 1_000_000
MAX_SCORE = 10**9
MAX_DEALS = 12
MAX_PACKS = 20
MAX_LIST = 50


def _points_problem(value: object, *, positive: bool = False) -> Reason | None:
    """Why `value` is not a valid number of points, or None when it is."""
    if not _is_int(value):
        return _reason("points_whole")
    assert isinstance(value, int)
    if value < 0 or (positive and value == 0):
        return _reason("points_positive") if positive else _reason("points_negative")
    if value > MAX_OPTION_POINTS:
        return _reason("points_most", most=MAX_OPTION_POINTS)
    if value % 5:
        return _reason("points_fives")
    return None


@dataclass(frozen=True)
class TierProblem:
    """What is wrong in a meld table: the tier (None: the whole table), its key, and why
    (`reason`)."""

    tier: int | None
    key: str | None
    reason: Reason


def _is_score(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_SCORE


def parse_meld_table(value: object) -> tuple[tuple[MeldTier, ...], list[TierProblem]]:
    """Read a whole meld table; return it with everything that is wrong with it."""
    if not isinstance(value, list):
        return (), [TierProblem(None, None, _reason("tiers_list"))]
    tiers: list[MeldTier] = []
    problems: list[TierProblem] = []
    previous: int | None = None
    for index, item in enumerate(value):

        def problem(key: str | None, why: str, index: int = index, **params: Any) -> None:
            problems.append(TierProblem(index, key, _reason(why, tier=index + 1, **params)))

        if not isinstance(item, Mapping):
            problem(None, "tier_object")
            continue
        unknown = sorted(str(k) for k in item if k not in _TIER_KEYS)
        if unknown:
            problem(None, "tier_keys", keys=unknown)
        min_score = item.get("min_score")
        if index == 0:
            if min_score is not None:
                problem("min_score", "tier_first")
        elif not _is_score(min_score):
            problem("min_score", "tier_min_score")
        elif previous is not None and min_score <= previous:
            problem("min_score", "tier_rising")
        if isinstance(min_score, int) and not isinstance(min_score, bool):
            previous = min_score
        points = item.get("points", 0)
        reason = _points_problem(points)
        if reason:
            problem("points", "tier_points", reason=reason)
        canasta = item.get("canasta")
        if canasta not in CANASTA_REQUIREMENTS:
            problem("canasta", "tier_canasta")
        sides = item.get("sides")
        if sides is not None and (not _is_int(sides) or not 2 <= sides <= 12):
            problem("sides", "tier_sides")
        if not problems:
            need = CanastaNeed(canasta) if canasta is not None else None
            tiers.append(MeldTier(min_score, points, need, sides))
    return tuple(tiers), problems


Setter = Callable[[Rules, Any], Rules]


def _set_target(rules: Rules, value: int) -> Rules:
    """A target given as an option applies to whichever layout is played."""
    end = replace(rules.game_end, targets_by_layout=())
    return replace(rules, target=value, game_end=end)


def _set_going_out(rules: Rules, value: int) -> Rules:
    return replace(rules, going_out=replace(rules.going_out, bonus=value))


def _set_concealed(rules: Rules, value: int) -> Rules:
    return replace(rules, going_out=replace(rules.going_out, concealed_bonus=value))


def _set_red_three(rules: Rules, value: int) -> Rules:
    """A new value of one red three scales the special totals in proportion.

    Classic's "all four: 800" is double the single value; with red threes at
    150, all four are then worth 1200, keeping the schedule's shape. Totals
    given by `red_three_totals` are applied after this, so they win.
    """
    red = rules.red_threes
    assert red is not None

    def scaled(total: int) -> int:
        return round(total * value / red.each / 5) * 5 if red.each else total

    totals = tuple(replace(t, total=scaled(t.total)) for t in red.totals)
    return replace(rules, red_threes=replace(red, each=value, totals=totals))


def _set_red_three_totals(rules: Rules, value: dict[int, int]) -> Rules:
    red = rules.red_threes
    assert red is not None
    kept = [t for t in red.totals if t.count not in value]
    given = [RedThreeTotal(count, total) for count, total in value.items()]
    totals = tuple(sorted([*kept, *given], key=lambda t: t.count))
    return replace(rules, red_threes=replace(red, totals=totals))


def _red_setter(attribute: str, kind: type[StrEnum]) -> Setter:
    def set_red(rules: Rules, value: str) -> Rules:
        assert rules.red_threes is not None
        changes: dict[str, Any] = {attribute: kind(value)}
        changed = replace(rules.red_threes, **changes)
        return replace(rules, red_threes=changed)

    return set_red


def _set_meld_table(rules: Rules, value: tuple[MeldTier, ...]) -> Rules:
    return replace(rules, meld_table=value)


def _kind_setter(option: str) -> Setter:
    def set_bonus(rules: Rules, value: object) -> Rules:
        kinds = []
        for kind in rules.canasta_kinds:
            if kind.option != option:
                kinds.append(kind)
            elif value is None or value is False:
                kinds.append(replace(kind, enabled=False))
            elif value is True:
                kinds.append(replace(kind, enabled=True))
            else:
                assert isinstance(value, int)
                kinds.append(replace(kind, bonus=value, enabled=True))
        return replace(rules, canasta_kinds=tuple(kinds))

    return set_bonus


def _penalty_setter(option: str) -> Setter:
    """Set the amount of a counted penalty, or switch an optional one on or off."""

    def set_penalty(rules: Rules, value: object) -> Rules:
        active = [p for p in rules.counted_penalties if p.option != option]
        current = next((p for p in rules.counted_penalties if p.option == option), None)
        spare = next((p for p in rules.optional_penalties if p.option == option), None)
        base = current or spare
        assert base is not None
        if value is None or value is False:
            return replace(rules, counted_penalties=tuple(active))
        points = base.points if value is True else value
        assert isinstance(points, int)
        updated = replace(base, points=points)
        if current is not None:
            penalties = tuple(updated if p is current else p for p in rules.counted_penalties)
        else:
            penalties = (*active, updated)
        return replace(rules, counted_penalties=penalties)

    return set_penalty


def _set_clauses(rules: Rules, value: tuple[CanastaClause, ...]) -> Rules:
    """The requirement given; one that says what the rules already say keeps their form."""
    if clauses_to_json(rules, value) == clauses_to_json(rules, rules.going_out.needs):
        return rules
    return replace(rules, going_out=replace(rules.going_out, needs=value))


def _set_canastas_to_go_out(rules: Rules, value: int) -> Rules:
    needs = (CanastaClause(value),) if value else ()
    return _set_clauses(rules, needs)


def _going_out_setter(attribute: str) -> Setter:
    def set_going_out(rules: Rules, value: object) -> Rules:
        changes: dict[str, Any] = {attribute: () if value is None else value}
        return replace(rules, going_out=replace(rules.going_out, **changes))

    return set_going_out


def _set_game_end(rules: Rules, value: str) -> Rules:
    return replace(rules, game_end=replace(rules.game_end, mode=GameEndMode(value)))


def _set_deals(rules: Rules, value: int) -> Rules:
    return replace(rules, game_end=replace(rules.game_end, deals=value))


def _set_tie_rule(rules: Rules, value: str) -> Rules:
    return replace(rules, game_end=replace(rules.game_end, tie_rule=TieRule(value)))


def _set_meld_by_deal(rules: Rules, value: tuple[int, ...]) -> Rules:
    return replace(rules, meld_by_deal=value)


def _set_meld_minus_when(rules: Rules, value: str) -> Rules:
    return replace(rules, meld_minus_when=MeldMinusWhen(value))


def _set_exact_pickup(rules: Rules, value: object) -> Rules:
    assert rules.feet is not None
    if value is None or value is False:
        bonus = None
    elif value is True:
        bonus = rules.feet.exact_pickup_usual
    else:
        assert isinstance(value, int)
        bonus = value
    return replace(rules, feet=replace(rules.feet, exact_pickup_bonus=bonus))


def _set_packs(rules: Rules, value: int | None) -> Rules:
    assert rules.packs is not None
    packs = replace(rules.packs, packs=value)
    # The preset's own deck stands for a table of unknown size; a fixed count is its own.
    deck = rules.deck if value is None else packs.build(value)
    return replace(rules, packs=packs, deck=deck)


def _set_three_totals(rules: Rules, value: dict[int, int]) -> Rules:
    """One schedule for every colour of threes laid down; counts not given keep theirs."""

    def updated(threes: RedThrees | None) -> RedThrees | None:
        if threes is None:
            return None
        kept = [t for t in threes.totals if t.count not in value]
        given = [RedThreeTotal(count, total) for count, total in value.items()]
        return replace(threes, totals=tuple(sorted([*kept, *given], key=lambda t: t.count)))

    return replace(
        rules, red_threes=updated(rules.red_threes), black_threes=updated(rules.black_threes)
    )


def _set_special_hands(rules: Rules, value: dict[str, int | bool]) -> Rules:
    """Change the points of the hands given; `false` takes a hand out of play."""
    hands = []
    for special in rules.special_hands:
        points = value.get(special.key, special.points)
        if points is False:
            continue
        hands.append(special if points is True else replace(special, points=int(points)))
    return replace(rules, special_hands=tuple(hands))


def _set_card_values(rules: Rules, value: dict[str, int]) -> Rules:
    cards = tuple(replace(c, value=value.get(c.key, c.value)) for c in rules.cards)
    return replace(rules, cards=cards)


def _set_lineup_mode(rules: Rules, value: str) -> Rules:
    assert rules.seating is not None
    return replace(rules, seating=replace(rules.seating, mode=LineupMode(value)))


def _set_solo_phase_from(rules: Rules, value: int) -> Rules:
    assert rules.seating is not None
    return replace(rules, seating=replace(rules.seating, switch_from=value))


FIXED_SETTERS: dict[str, Setter] = {
    "lineup_mode": _set_lineup_mode,
    "solo_phase_from": _set_solo_phase_from,
    "target": _set_target,
    "going_out": _set_going_out,
    "concealed_going_out": _set_concealed,
    "red_three": _set_red_three,
    "red_three_totals": _set_red_three_totals,
    "red_threes_negative_when": _red_setter("negative_when", NegativeWhen),
    "red_threes_minus": _red_setter("minus", RedThreesMinus),
    "red_threes_laid": _red_setter("laid_sign", Sign),
    "meld_minimums": _set_meld_table,
    "canastas_to_go_out": _set_canastas_to_go_out,
    "going_out_needs": _set_clauses,
    "going_out_needs_by_deal": _going_out_setter("needs_by_deal"),
    "going_out_by_deal": _going_out_setter("bonus_by_deal"),
    "going_out_needs_all_feet": _going_out_setter("needs_all_feet"),
    "game_end": _set_game_end,
    "deals": _set_deals,
    "tie_rule": _set_tie_rule,
    "meld_minimums_by_deal": _set_meld_by_deal,
    "meld_minus_when": _set_meld_minus_when,
    "exact_pickup_bonus": _set_exact_pickup,
    "packs": _set_packs,
    "card_values": _set_card_values,
    "special_hands": _set_special_hands,
}


def _setter(rules: Rules, spec: OptionSpec) -> Setter:
    if any(t.schedule_option == spec.name for t in rules.laid_threes):
        return _set_three_totals
    if spec.name in FIXED_SETTERS:
        return FIXED_SETTERS[spec.name]
    if any(p.option == spec.name for p in (*rules.counted_penalties, *rules.optional_penalties)):
        return _penalty_setter(spec.name)
    return _kind_setter(spec.name)


# --- Reading option values ------------------------------------------------------------


def _parse_clauses(
    value: object, kinds: set[str]
) -> tuple[tuple[CanastaClause, ...], Reason | None]:
    """A list of {"count", "kinds"}; kinds named must be among `kinds` (checked later too)."""
    if not isinstance(value, list) or len(value) > MAX_LIST:
        return (), _reason("clauses_list")
    clauses = []
    for index, item in enumerate(value, start=1):
        if not isinstance(item, Mapping) or set(item) - {"count", "kinds"}:
            return (), _reason("clause_object", clause=index)
        count = item.get("count")
        if not _is_int(count) or not 1 <= count <= 100:  # type: ignore[operator]
            return (), _reason("clause_count", clause=index)
        listed = item.get("kinds", [])
        if not isinstance(listed, list) or not all(isinstance(k, str) for k in listed):
            return (), _reason("clause_kinds", clause=index)
        unknown = [k for k in listed if k not in kinds]
        if unknown:
            known = sorted(kinds)
            return (), _reason("clause_kind", clause=index, kind=unknown[0], known=known)
        assert isinstance(count, int)
        clauses.append(CanastaClause(count, tuple(dict.fromkeys(listed))))
    return tuple(clauses), None


def _parse_points_list(value: object, name: str) -> tuple[tuple[int, ...], Reason | None]:
    if not isinstance(value, list) or not value or len(value) > MAX_LIST:
        return (), _reason("points_list")
    for index, item in enumerate(value, start=1):
        reason = _points_problem(item)
        if reason:
            return (), _reason("entry", entry=index, reason=reason)
    return tuple(value), None


def _parse_totals(value: object, most: int) -> tuple[dict[int, int], Reason | None]:
    if not isinstance(value, Mapping):
        return {}, _reason("totals_object")
    totals: dict[int, int] = {}
    for key, points in value.items():
        text = str(key).strip()
        count = int(text) if text.isdigit() else 0
        if not 1 <= count <= most:
            return {}, _reason("totals_count", most=most, given=key)
        reason = _points_problem(points)
        if reason:
            return {}, _reason("total", count=count, reason=reason)
        assert isinstance(points, int)
        totals[count] = points
    return totals, None


def _parse_card_values(value: object, rules: Rules) -> tuple[dict[str, int], Reason | None]:
    if not isinstance(value, Mapping):
        return {}, _reason("card_values_object")
    categories = {c.key for c in rules.cards}
    values: dict[str, int] = {}
    for key, points in value.items():
        if key not in categories:
            known = [c.key for c in rules.cards]
            return {}, _reason("card_values_unknown", given=key, known=known)
        reason = _points_problem(points)
        if reason:
            return {}, _reason("keyed", given=key, reason=reason)
        assert isinstance(points, int)
        values[str(key)] = points
    return values, None


def _parse_special_hands(value: object, rules: Rules) -> tuple[dict[str, object], Reason | None]:
    if not isinstance(value, Mapping):
        return {}, _reason("special_hands_object")
    hands: dict[str, object] = {}
    for key, points in value.items():
        if rules.special_hand(key) is None:
            known = [h.key for h in rules.special_hands]
            return {}, _reason("special_hands_unknown", given=key, known=known)
        if isinstance(points, bool):
            hands[str(key)] = points
            continue
        reason = _points_problem(points, positive=True)
        if reason:
            return {}, _reason("keyed", given=key, reason=reason)
        hands[str(key)] = points
    return hands, None


def _check_value(spec: OptionSpec, value: object, rules: Rules) -> tuple[object, Reason | None]:
    """The value to apply, or a reason it is not acceptable."""
    kinds = {k.key for k in rules.canasta_kinds}
    if spec.nullable and value is None:
        return None, None
    kind = spec.type
    if kind == OptionType.POINTS:
        return value, _points_problem(value, positive=spec.name == "target")
    if kind == OptionType.OPTIONAL_POINTS:
        if value is None or isinstance(value, bool):
            return value, None
        return value, _points_problem(value)
    if kind == OptionType.CHOICE:
        return value, None if value in spec.choices else _reason(
            "choice", choices=list(spec.choices)
        )
    if kind == OptionType.INT:
        low = spec.minimum if spec.minimum is not None else 0
        high = spec.maximum if spec.maximum is not None else MAX_SCORE
        if not _is_int(value) or not low <= value <= high:  # type: ignore[operator]
            return value, _reason("whole_range", low=low, high=high)
        return value, None
    if kind == OptionType.BOOL:
        return value, None if isinstance(value, bool) else _reason("bool")
    if kind == OptionType.CLAUSES:
        return _parse_clauses(value, kinds)
    if kind == OptionType.CLAUSES_LIST:
        if not isinstance(value, list) or not value or len(value) > MAX_LIST:
            return (), _reason("clauses_per_deal")
        per_deal = []
        for deal, item in enumerate(value, start=1):
            clauses, reason = _parse_clauses(item, kinds)
            if reason:
                return (), _reason("deal", deal=deal, reason=reason)
            per_deal.append(clauses)
        return tuple(per_deal), None
    if kind == OptionType.POINTS_LIST:
        return _parse_points_list(value, spec.name)
    if kind == OptionType.TOTALS:
        red_in_deck = max(
            [rules.deck.count_of("red_three")]
            + [
                rules.deck_for(lay.sides * lay.players_per_side).count_of("red_three")
                for lay in rules.layouts
            ]
        )
        return _parse_totals(value, red_in_deck)
    if kind == OptionType.CARD_VALUES:
        return _parse_card_values(value, rules)
    if kind == OptionType.SPECIAL_HANDS:
        return _parse_special_hands(value, rules)
    table, problems = parse_meld_table(value)
    return table, (_reason("all", reasons=[p.reason for p in problems]) if problems else None)


def _settle(
    preset: Rules, rules: Rules, given: Mapping[str, object]
) -> tuple[Rules, list[Problem]]:
    """What holds only for the combination: kinds named by clauses, options that need others."""
    problems: list[Problem] = []
    enabled = {k.key for k in rules.kinds}
    going = rules.going_out
    shorthand = given.get("canastas_to_go_out")
    if shorthand is not None and "going_out_needs" in given:
        assert isinstance(shorthand, int)
        same = (CanastaClause(shorthand),) if shorthand else ()
        if given["going_out_needs"] != same:
            problems.append(Problem.of(None, "options.canastas_to_go_out", "options.both_needs"))

    def live(clauses: tuple[CanastaClause, ...]) -> tuple[CanastaClause, ...]:
        """The preset's own clauses lose kinds an option turned off."""
        kept = []
        for clause in clauses:
            named = [k for k in clause.kinds if k in enabled]
            if clause.kinds and not named and not clause.groups:
                continue
            kept.append(replace(clause, kinds=tuple(named)) if clause.kinds else clause)
        return tuple(kept)

    for name, clauses_list in (
        ("going_out_needs", (going.needs,) if "going_out_needs" in given else ()),
        (
            "going_out_needs_by_deal",
            going.needs_by_deal if name_given(given, "going_out_needs_by_deal") else (),
        ),
    ):
        for clauses in clauses_list:
            off = sorted({k for c in clauses for k in c.kinds if k not in enabled})
            if off:
                problems.append(
                    Problem.of(
                        None, f"options.{name}", "options.kind_off", variant=rules.key, kinds=off
                    )
                )
    if "going_out_needs" not in given and shorthand is None:
        going = replace(going, needs=live(going.needs))
    if not name_given(given, "going_out_needs_by_deal"):
        going = replace(going, needs_by_deal=tuple(live(n) for n in going.needs_by_deal))
    rules = replace(rules, going_out=going)
    for penalty in rules.counted_penalties:
        if penalty.needs_kind is not None and penalty.needs_kind not in enabled:
            kind = next(k for k in rules.canasta_kinds if k.key == penalty.needs_kind)
            problems.append(
                Problem.of(
                    None,
                    f"options.{penalty.option}",
                    "options.penalty_needs_kind",
                    penalty=penalty.field,
                    kind=kind.key,
                    option=kind.option,
                )
            )
    if rules.game_end.mode == GameEndMode.TARGET and "meld_minimums_by_deal" not in given:
        rules = replace(rules, meld_by_deal=())
    return rules, problems


def name_given(given: Mapping[str, object], name: str) -> bool:
    return given.get(name) is not None


def resolve_options(preset: Rules, options: object) -> tuple[Rules, list[Problem]]:
    """Apply what can be applied; return the rules and the problems with the rest.

    Options are applied in the order `available_options` lists them, never in
    the order given, so `red_three` then `red_three_totals` or the reverse
    resolve alike.
    """
    if options is None:
        return preset, []
    if not isinstance(options, Mapping):
        return preset, [Problem.of(None, "options", "options.not_object")]
    specs = available_options(preset)
    by_name = {spec.name: spec for spec in specs}
    problems: list[Problem] = []
    checked: dict[str, object] = {}
    for name, value in options.items():
        field = f"options.{name}"
        spec = by_name.get(name)
        if spec is None:
            problems.append(
                Problem.of(
                    None,
                    field,
                    "options.unknown",
                    variant=preset.key,
                    name=name,
                    known=list(by_name),
                )
            )
            continue
        parsed, reason = _check_value(spec, value, preset)
        if reason:
            problems.append(
                Problem.of(
                    None,
                    field,
                    "options.bad_value",
                    variant=preset.key,
                    option=name,
                    reason=reason,
                )
            )
            continue
        checked[name] = parsed
    rules = preset
    try:
        for spec in specs:
            if spec.name in checked and not (spec.nullable and checked[spec.name] is None):
                rules = _setter(rules, spec)(rules, checked[spec.name])
        rules, settled = _settle(preset, rules, checked)
    except InvalidRules as error:
        why = [{"key": p.key, "params": p.params} for p in error.problems]
        return preset, [*problems, Problem.of(None, "options", "options.do_not_fit", why=why)]
    problems += settled
    return rules, problems


def resolve(key: str, options: object = None) -> Rules:
    """The preset `key` with `options` applied; raises InvalidOptions with every problem."""
    rules, problems = resolve_options(get_preset(key), options)
    if problems:
        raise InvalidOptions(problems)
    return rules
