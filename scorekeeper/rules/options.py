"""House-rule options: which a preset accepts, and applying them.

The options a preset offers are derived from its data (a preset with no red
threes offers no red-three option), so a new preset needs no new code here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from .errors import InvalidOptions, Problem
from .model import MeldTier, Rules
from .presets import get_preset

CANASTA_REQUIREMENTS = (None, "any", "natural")
_TIER_KEYS = frozenset({"min_score", "points", "canasta"})


@dataclass(frozen=True)
class OptionSpec:
    """One option of one preset: its name, what it sets, its default and type."""

    name: str
    label: str
    type: str  # "points", "choice", "optional_points", "meld_table"
    default: object
    choices: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "name": self.name,
            "label": self.label,
            "type": self.type,
            "default": self.default,
        }
        if self.choices:
            data["choices"] = list(self.choices)
        return data


def meld_table_to_json(table: tuple[MeldTier, ...]) -> list[dict[str, object]]:
    return [{"min_score": t.min_score, "points": t.points, "canasta": t.canasta} for t in table]


def available_options(rules: Rules) -> tuple[OptionSpec, ...]:
    specs = [
        OptionSpec("target", "Target score", "points", rules.target),
        OptionSpec("going_out", f"{rules.going_out.label} bonus", "points", rules.going_out.bonus),
    ]
    if rules.going_out.concealed_bonus is not None:
        specs.append(
            OptionSpec(
                "concealed_going_out",
                "Going out concealed bonus",
                "points",
                rules.going_out.concealed_bonus,
            )
        )
    for kind in rules.canasta_kinds:
        label = f"Bonus for a {kind.singular}"
        if kind.enabled:
            specs.append(OptionSpec(kind.option, label, "points", kind.bonus))
        else:
            specs.append(
                OptionSpec(kind.option, f"{label} (off unless set)", "optional_points", None)
            )
    if rules.red_threes is not None:
        specs.append(
            OptionSpec("red_three", "Value of one red three", "points", rules.red_threes.each)
        )
        if rules.red_threes.negative_when_choices:
            specs.append(
                OptionSpec(
                    "red_threes_negative_when",
                    "Red threes count minus when the side has",
                    "choice",
                    rules.red_threes.negative_when,
                    rules.red_threes.negative_when_choices,
                )
            )
    if rules.meld_table:
        specs.append(
            OptionSpec(
                "meld_minimums",
                "Initial meld minimums",
                "meld_table",
                meld_table_to_json(rules.meld_table),
            )
        )
    return tuple(specs)


def option_defaults(rules: Rules) -> dict[str, object]:
    return {spec.name: spec.default for spec in available_options(rules)}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


MAX_OPTION_POINTS = 1_000_000
MAX_SCORE = 10**9


def _points_problem(value: object, *, positive: bool = False) -> str | None:
    """Why `value` is not a valid number of points, or None when it is."""
    if not _is_int(value):
        return "must be a whole number of points"
    assert isinstance(value, int)
    if value < 0 or (positive and value == 0):
        return "must be more than 0" if positive else "cannot be negative"
    if value > MAX_OPTION_POINTS:
        return f"must be at most {MAX_OPTION_POINTS}"
    if value % 5:
        return "must be a multiple of 5"
    return None


@dataclass(frozen=True)
class TierProblem:
    """What is wrong in a meld table: the tier (None: the whole table) and its key."""

    tier: int | None
    key: str | None
    message: str


def parse_meld_table(value: object) -> tuple[tuple[MeldTier, ...], list[TierProblem]]:
    """Read a whole meld table; return it with everything that is wrong with it."""
    if not isinstance(value, list):
        return (), [TierProblem(None, None, "must be a list of tiers")]
    tiers: list[MeldTier] = []
    problems: list[TierProblem] = []
    previous: int | None = None
    for index, item in enumerate(value):
        where = f"tier {index + 1}"

        def problem(key: str | None, message: str, index: int = index) -> None:
            problems.append(TierProblem(index, key, message))

        if not isinstance(item, Mapping):
            problem(None, f"{where} must be an object with min_score, points and canasta")
            continue
        unknown = sorted(str(k) for k in item if k not in _TIER_KEYS)
        if unknown:
            problem(None, f"{where} has unknown keys: {', '.join(unknown)}")
        min_score = item.get("min_score")
        if index == 0:
            if min_score is not None:
                message = "the first tier must have min_score null (it covers every lower score)"
                problem("min_score", message)
        elif not _is_int(min_score) or abs(min_score) > MAX_SCORE:  # type: ignore[arg-type]
            problem("min_score", f"{where} needs a whole-number min_score")
        elif previous is not None and min_score <= previous:  # type: ignore[operator]
            problem("min_score", f"{where} must start above the tier before it")
        if _is_int(min_score):
            previous = min_score  # type: ignore[assignment]
        points = item.get("points", 0)
        reason = _points_problem(points)
        if reason:
            problem("points", f"{where}: points {reason}")
        canasta = item.get("canasta")
        if canasta not in CANASTA_REQUIREMENTS:
            problem("canasta", f'{where}: canasta must be null, "any" or "natural"')
        if not problems:
            tiers.append(MeldTier(min_score, points, canasta))  # type: ignore[arg-type]
    return tuple(tiers), problems


Setter = Callable[[Rules, object], Rules]


def _set_target(rules: Rules, value: object) -> Rules:
    return replace(rules, target=value)  # type: ignore[arg-type]


def _set_going_out(rules: Rules, value: object) -> Rules:
    return replace(rules, going_out=replace(rules.going_out, bonus=value))


def _set_concealed(rules: Rules, value: object) -> Rules:
    return replace(rules, going_out=replace(rules.going_out, concealed_bonus=value))


def _set_red_three(rules: Rules, value: object) -> Rules:
    """A new value of one red three scales the special totals in proportion.

    Classic's "all four: 800" is double the single value; with red threes at
    150, all four are then worth 1200, keeping the schedule's shape.
    """
    red = rules.red_threes
    assert red is not None
    assert isinstance(value, int)

    def scaled(total: int) -> int:
        return round(total * value / red.each / 5) * 5 if red.each else total

    totals = tuple(replace(t, total=scaled(t.total)) for t in red.totals)
    return replace(rules, red_threes=replace(red, each=value, totals=totals))


def _set_negative_when(rules: Rules, value: object) -> Rules:
    return replace(rules, red_threes=replace(rules.red_threes, negative_when=value))  # type: ignore[type-var]


def _set_meld_table(rules: Rules, value: object) -> Rules:
    return replace(rules, meld_table=value)  # type: ignore[arg-type]


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
                kinds.append(replace(kind, bonus=value, enabled=True))
        return replace(rules, canasta_kinds=tuple(kinds))

    return set_bonus


def _setter(spec: OptionSpec) -> Setter:
    fixed: dict[str, Setter] = {
        "target": _set_target,
        "going_out": _set_going_out,
        "concealed_going_out": _set_concealed,
        "red_three": _set_red_three,
        "red_threes_negative_when": _set_negative_when,
        "meld_minimums": _set_meld_table,
    }
    return fixed.get(spec.name) or _kind_setter(spec.name)


def _check_value(spec: OptionSpec, value: object) -> tuple[object, str | None]:
    """The value to apply, or a reason it is not acceptable."""
    if spec.type == "points":
        reason = _points_problem(value, positive=spec.name == "target")
        return value, reason
    if spec.type == "optional_points":
        if value is None or isinstance(value, bool):
            return value, None
        return value, _points_problem(value)
    if spec.type == "choice":
        if value in spec.choices:
            return value, None
        return value, "must be one of " + ", ".join(f'"{c}"' for c in spec.choices)
    table, problems = parse_meld_table(value)
    return table, ("; ".join(p.message for p in problems) if problems else None)


def resolve_options(preset: Rules, options: object) -> tuple[Rules, list[Problem]]:
    """Apply what can be applied; return the rules and the problems with the rest."""
    if options is None:
        return preset, []
    if not isinstance(options, Mapping):
        return preset, [Problem(None, "options", "Options must be an object of name: value")]
    specs = {spec.name: spec for spec in available_options(preset)}
    rules = preset
    problems: list[Problem] = []
    for name, value in options.items():
        field = f"options.{name}"
        spec = specs.get(name)
        if spec is None:
            known = ", ".join(specs)
            problems.append(
                Problem(None, field, f"{preset.name} has no option {name!r} (it has: {known})")
            )
            continue
        checked, reason = _check_value(spec, value)
        if reason:
            problems.append(Problem(None, field, f"{spec.label} {reason}"))
            continue
        rules = _setter(spec)(rules, checked)
    return rules, problems


def resolve(key: str, options: object = None) -> Rules:
    """The preset `key` with `options` applied; raises InvalidOptions with every problem."""
    rules, problems = resolve_options(get_preset(key), options)
    if problems:
        raise InvalidOptions(problems)
    return rules
