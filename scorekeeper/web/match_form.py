"""The new-match form for one preset and table layout.

Seats are listed clockwise around the table (partners alternate), so the
first-dealer choice sits next to a name and the deal can pass to the left.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_wtf import FlaskForm
from wtforms import RadioField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from ..models import NAME_LENGTH
from ..rules import OptionSpec, Problem, Rules, available_options
from ..rules.model import Layout
from ..rules.options import CANASTA_REQUIREMENTS, parse_meld_table
from .hand_form import WholeNumberField

CANASTA_CHOICES = [
    SelectChoice("", "no canasta needed"),
    SelectChoice("any", "a canasta"),
    SelectChoice("natural", "a natural canasta"),
]
CHOICE_LABELS = {
    "no_canasta": "no canasta (minus without one)",
    "no_meld": "melded nothing at all",
}


@dataclass(frozen=True)
class Seat:
    index: int
    side: int
    field: str
    label: str


@dataclass(frozen=True)
class OptionField:
    spec: OptionSpec
    fields: list[str]


def seats(layout: Layout) -> list[Seat]:
    out = []
    for index in range(layout.sides * layout.players_per_side):
        side = index % layout.sides
        if layout.players_per_side == 1:
            label = f"Player {side + 1}"
        else:
            label = f"Team {side + 1}, player {index // layout.sides + 1}"
        out.append(Seat(index, side, f"seat_{index}", label))
    return out


def _tier_fields(index: int) -> list[str]:
    """A meld tier's inputs; the first tier covers every lower score, so it has no start."""
    names = [f"opt_meld_{index}_points", f"opt_meld_{index}_canasta"]
    return ([f"opt_meld_{index}_from"] if index else []) + names


# Option types this form has inputs for; the API takes every option.
FORM_OPTION_TYPES = frozenset({"points", "optional_points", "choice", "meld_table"})


def option_fields(rules: Rules) -> list[OptionField]:
    out = []
    for spec in available_options(rules):
        if spec.type not in FORM_OPTION_TYPES or spec.nullable:
            continue
        if spec.type == "meld_table":
            names = [name for i in range(len(rules.meld_table)) for name in _tier_fields(i)]
            out.append(OptionField(spec, names))
        else:
            out.append(OptionField(spec, [f"opt_{spec.name}"]))
    return out


def _tier_inputs(rules: Rules) -> dict[str, Any]:
    attrs: dict[str, Any] = {}
    for index, tier in enumerate(rules.meld_table):
        title = f"Tier {index + 1}"
        if index:
            attrs[f"opt_meld_{index}_from"] = WholeNumberField(
                f"{title}: from score",
                default=tier.min_score,
                validators=[InputRequired("Enter a score")],
            )
        attrs[f"opt_meld_{index}_points"] = WholeNumberField(
            f"{title}: points needed",
            default=tier.points,
            validators=[InputRequired("Enter points"), NumberRange(min=0, max=100_000)],
        )
        attrs[f"opt_meld_{index}_canasta"] = SelectField(
            f"{title}: canasta needed", choices=CANASTA_CHOICES, default=tier.canasta or ""
        )
    return attrs


def match_form_class(
    rules: Rules, layout: Layout, groups: list[tuple[int, str]] | None = None
) -> type[FlaskForm]:
    """The form for a new match; `groups` (id, name) offers a choice of group when given."""
    attrs: dict[str, Any] = {}
    if groups:
        attrs["group"] = SelectField(
            "Group", choices=[SelectChoice(str(i), name) for i, name in groups], default=None
        )
    for seat in seats(layout):
        attrs[seat.field] = StringField(
            seat.label, validators=[InputRequired("Enter a name"), Length(max=NAME_LENGTH)]
        )
    if layout.players_per_side > 1:
        for side in range(layout.sides):
            attrs[f"side_name_{side}"] = StringField(
                f"Team {side + 1} name (optional)",
                validators=[Optional(), Length(max=NAME_LENGTH * 3)],
            )
    attrs["first_dealer"] = RadioField(
        "Deals first",
        choices=[SelectChoice(str(seat.index), seat.label) for seat in seats(layout)],
        default="0",
        validators=[InputRequired("Choose who deals first")],
    )
    for option in option_fields(rules):
        spec = option.spec
        name = option.fields[0]
        if spec.type == "points":
            attrs[name] = WholeNumberField(
                spec.label,
                default=spec.default,
                validators=[InputRequired("Enter a number"), NumberRange(min=0, max=1_000_000)],
            )
        elif spec.type == "optional_points":
            attrs[name] = WholeNumberField(
                spec.label, validators=[Optional(), NumberRange(min=0, max=1_000_000)]
            )
        elif spec.type == "choice":
            choices = [SelectChoice(c, CHOICE_LABELS.get(c, c)) for c in spec.choices]
            attrs[name] = SelectField(spec.label, choices=choices, default=spec.default)
        else:
            attrs.update(_tier_inputs(rules))
    return type("MatchForm", (FlaskForm,), attrs)


def setup_from_form(
    rules: Rules, layout: Layout, data: Mapping[str, Any]
) -> tuple[list[dict[str, Any]], dict[str, Any], int]:
    """The sides, options (only those changed) and first dealer the form asks for."""
    sides: list[dict[str, Any]] = [{"name": "", "players": []} for _ in range(layout.sides)]
    for seat in seats(layout):
        sides[seat.side]["players"].append(data.get(seat.field) or "")
    for side in range(layout.sides):
        sides[side]["name"] = data.get(f"side_name_{side}") or ""
    options: dict[str, Any] = {}
    for option in option_fields(rules):
        spec = option.spec
        if spec.type == "meld_table":
            value: Any = _table_from_form(len(rules.meld_table), data)
        else:
            value = data.get(option.fields[0])
            if spec.type == "optional_points" and value is None:
                continue
        if value != spec.default:
            options[spec.name] = value
    try:
        dealer = int(data.get("first_dealer") or 0)
    except ValueError:
        dealer = -1
    return sides, options, dealer


def _table_from_form(count: int, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    table = []
    for index in range(count):
        canasta = data.get(f"opt_meld_{index}_canasta") or None
        table.append(
            {
                "min_score": data.get(f"opt_meld_{index}_from") if index else None,
                "points": data.get(f"opt_meld_{index}_points"),
                "canasta": canasta if canasta in CANASTA_REQUIREMENTS else None,
            }
        )
    return table


def meld_table_problems(rules: Rules, data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Each problem of the meld table the form asks for, with the input it belongs to."""
    _, problems = parse_meld_table(_table_from_form(len(rules.meld_table), data))
    inputs = {"min_score": "from", "points": "points", "canasta": "canasta"}
    out = []
    for problem in problems:
        tier = problem.tier or 0
        name = f"opt_meld_{tier}_{inputs.get(problem.key or '', 'points')}"
        if problem.key == "min_score" and tier == 0:
            name = "opt_meld_0_points"
        out.append((name, problem.message.capitalize()))
    return out


def field_for_problem(layout: Layout, problem: Problem) -> str | None:
    field = problem.field or ""
    if field.startswith("players.") and problem.side is not None:
        position = int(field.split(".")[1])
        return f"seat_{position * layout.sides + problem.side}"
    if field == "name" and problem.side is not None:
        return f"side_name_{problem.side}"
    if field == "first_dealer":
        return "first_dealer"
    if field == "options.meld_minimums":
        return "opt_meld_0_points"
    if field.startswith("options."):
        return "opt_" + field.split(".", 1)[1]
    return None
