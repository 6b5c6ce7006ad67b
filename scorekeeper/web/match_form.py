"""The new-match form for one preset and table layout.

Seats are listed clockwise around the table (partners alternate), so the
first-dealer choice sits next to a name and the deal can pass to the left.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from flask_wtf import FlaskForm
from wtforms import BooleanField, RadioField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from .. import words
from ..models import NAME_LENGTH
from ..rules import OptionSpec, Rules, available_options
from ..rules.model import Layout, Vocabulary
from ..rules.options import CANASTA_REQUIREMENTS, OptionGroup, OptionType, parse_meld_table
from ..validation import FieldError
from ..words import nouns, number
from ..words.translate import gettext
from .hand_form import WholeNumberField


def canasta_choices(vocabulary: Vocabulary) -> list[SelectChoice]:
    """What a meld tier may ask for, in the game's words."""
    return [
        SelectChoice("", gettext("no canasta needed")),
        SelectChoice("any", nouns.a_canasta(vocabulary)),
        SelectChoice("natural", nouns.a_canasta(vocabulary, natural=True)),
    ]


# The choices of the options that are choices, said when the form is made.
CHOICE_LABELS = {
    "no_canasta": lambda: gettext("no canasta (minus without one)"),
    "no_meld": lambda: gettext("melded nothing at all"),
    "no_clean_canasta": lambda: gettext("no clean canasta"),
    "never": lambda: gettext("never"),
    "target": lambda: gettext("at a target score"),
    "deals": lambda: gettext("after a number of deals"),
    "play_on": lambda: gettext("another hand is played"),
    "went_out_last": lambda: gettext("the side that went out last wins"),
    "draw": lambda: gettext("the game is drawn"),
    "plus": lambda: gettext("plus"),
    "minus": lambda: gettext("minus"),
    "mirror": lambda: gettext("the amounts they would score, counted minus"),
    "each": lambda: gettext("the value of one red three each"),
    "pair_then_each": lambda: gettext("pair against one, then each for himself"),
    "each_for_self": lambda: gettext("each for himself throughout"),
}


def _choice_label(choice: str) -> str:
    words = CHOICE_LABELS.get(choice)
    return words() if words is not None else choice


@dataclass(frozen=True)
class Seat:
    index: int
    side: int
    field: str
    label: str


@dataclass(frozen=True)
class OptionField:
    spec: OptionSpec
    label: str  # in the words of the game
    fields: list[str]
    common: bool = False  # shown first; the others fold away under "More house rules"


def seats(layout: Layout) -> list[Seat]:
    out = []
    for index in range(layout.sides * layout.players_per_side):
        side = index % layout.sides
        if layout.players_per_side == 1:
            label = gettext("Player %(number)s", number=number(side + 1))
        else:
            label = gettext(
                "Team %(team)s, player %(player)s",
                team=number(side + 1),
                player=number(index // layout.sides + 1),
            )
        out.append(Seat(index, side, f"seat_{index}", label))
    return out


def _tier_fields(index: int) -> list[str]:
    """A meld tier's inputs; the first tier covers every lower score, so it has no start."""
    names = [f"opt_meld_{index}_points", f"opt_meld_{index}_canasta"]
    return ([f"opt_meld_{index}_from"] if index else []) + names


# Option types this form has inputs for; the API takes every option (the lists of
# clauses, the red-three totals and the card values only there).
FORM_OPTION_TYPES = frozenset(
    {
        OptionType.POINTS,
        OptionType.OPTIONAL_POINTS,
        OptionType.CHOICE,
        OptionType.MELD_TABLE,
        OptionType.INT,
        OptionType.BOOL,
        OptionType.POINTS_LIST,
    }
)


def _is_common(rules: Rules, spec: OptionSpec) -> bool:
    """The house rules most tables change: the engine's common group (how the game
    ends), the going-out bonus and the bonus of each kind of canasta."""
    kinds = {kind.option for kind in rules.canasta_kinds}
    return spec.group == OptionGroup.COMMON or spec.name == "going_out" or spec.name in kinds


def option_fields(rules: Rules) -> list[OptionField]:
    """The option inputs, the common ones first (each group in the engine's order)."""
    out = []
    for spec in available_options(rules):
        if spec.type not in FORM_OPTION_TYPES:
            continue
        common = _is_common(rules, spec)
        label = words.option_label(spec, rules.vocabulary)
        if spec.type == "meld_table":
            names = [name for i in range(len(rules.meld_table)) for name in _tier_fields(i)]
            out.append(OptionField(spec, label, names, common))
        else:
            out.append(OptionField(spec, label, [f"opt_{spec.name}"], common))
    return sorted(out, key=lambda option: not option.common)


def _list_text(value: object) -> str:
    return ", ".join(str(item) for item in value) if isinstance(value, list) else ""


def _list_from_text(text: object) -> list[Any]:
    """ "50, 90, 120" as [50, 90, 120]; an entry that is no number stays text (the engine
    says what is wrong with it, next to the input)."""
    items = [item.strip() for item in str(text or "").replace(";", ",").split(",")]
    return [int(item) if item.isascii() and item.isdigit() else item for item in items if item]


def _option_input(spec: OptionSpec, label: str) -> Any:
    """The input of one option; a nullable option left empty keeps the game's own rule."""
    required = [] if spec.nullable else [InputRequired(gettext("Enter a number"))]
    optional = [Optional()] if spec.nullable else []
    if spec.type == OptionType.POINTS:
        return WholeNumberField(
            label,
            default=spec.default,
            validators=[*required, *optional, NumberRange(min=0, max=1_000_000)],
        )
    if spec.type == OptionType.OPTIONAL_POINTS:
        return WholeNumberField(
            label,
            default=spec.default,
            validators=[Optional(), NumberRange(min=0, max=1_000_000)],
        )
    if spec.type == OptionType.INT:
        low = spec.minimum if spec.minimum is not None else 0
        high = spec.maximum if spec.maximum is not None else 1_000
        return WholeNumberField(
            label,
            default=spec.default,
            validators=[*required, *optional, NumberRange(min=low, max=high)],
        )
    if spec.type == OptionType.BOOL:
        return BooleanField(label, default=bool(spec.default))
    if spec.type == OptionType.POINTS_LIST:
        return StringField(
            label,
            default=_list_text(spec.default),
            validators=[*([] if spec.nullable else [InputRequired(gettext("Enter the points"))])],
        )
    choices = [SelectChoice(c, _choice_label(c)) for c in spec.choices]
    return SelectField(label, choices=choices, default=spec.default)


def _tier_inputs(rules: Rules) -> dict[str, Any]:
    attrs: dict[str, Any] = {}
    for index, tier in enumerate(rules.meld_table):
        tier_number = number(index + 1)
        if index:
            attrs[f"opt_meld_{index}_from"] = WholeNumberField(
                gettext("Tier %(number)s: from score", number=tier_number),
                default=tier.min_score,
                validators=[InputRequired(gettext("Enter a score"))],
            )
        attrs[f"opt_meld_{index}_points"] = WholeNumberField(
            gettext("Tier %(number)s: points needed", number=tier_number),
            default=tier.points,
            validators=[InputRequired(gettext("Enter points")), NumberRange(min=0, max=100_000)],
        )
        attrs[f"opt_meld_{index}_canasta"] = SelectField(
            gettext("Tier %(number)s: canasta needed", number=tier_number),
            choices=canasta_choices(rules.vocabulary),
            default=tier.canasta or "",
        )
    return attrs


def match_form_class(
    rules: Rules, layout: Layout, groups: list[tuple[int, str]] | None = None
) -> type[FlaskForm]:
    """The form for a new match; `groups` (id, name) offers a choice of group when given."""
    attrs: dict[str, Any] = {}
    if groups:
        attrs["group"] = SelectField(
            gettext("Group"),
            choices=[SelectChoice(str(i), name) for i, name in groups],
            default=None,
        )
    for seat in seats(layout):
        attrs[seat.field] = StringField(
            seat.label,
            validators=[InputRequired(gettext("Enter a name")), Length(max=NAME_LENGTH)],
        )
    if layout.players_per_side > 1:
        for side in range(layout.sides):
            attrs[f"side_name_{side}"] = StringField(
                gettext("Team %(number)s name (optional)", number=number(side + 1)),
                validators=[Optional(), Length(max=NAME_LENGTH * 3)],
            )
    attrs["first_dealer"] = RadioField(
        gettext("Deals first"),
        choices=[SelectChoice(str(seat.index), seat.label) for seat in seats(layout)],
        default="0",
        validators=[InputRequired(gettext("Choose who deals first"))],
    )
    attrs.update(option_inputs(rules))
    return type("MatchForm", (FlaskForm,), attrs)


def option_inputs(rules: Rules, leave_out: Collection[str] = ()) -> dict[str, Any]:
    """The inputs of the game's options (those named in `leave_out` aside), by field name:
    the new-match form's and the new-event form's."""
    attrs: dict[str, Any] = {}
    for option in option_fields(rules):
        if option.spec.name in leave_out:
            continue
        if option.spec.type == OptionType.MELD_TABLE:
            attrs.update(_tier_inputs(rules))
        else:
            attrs[option.fields[0]] = _option_input(option.spec, option.label)
    return attrs


def setup_from_form(
    rules: Rules, layout: Layout, data: Mapping[str, Any]
) -> tuple[list[dict[str, Any]], dict[str, Any], int]:
    """The sides, options (only those changed) and first dealer the form asks for."""
    sides: list[dict[str, Any]] = [{"name": "", "players": []} for _ in range(layout.sides)]
    for seat in seats(layout):
        sides[seat.side]["players"].append(data.get(seat.field) or "")
    for side in range(layout.sides):
        sides[side]["name"] = data.get(f"side_name_{side}") or ""
    options = options_from_form(rules, data)
    try:
        dealer = int(data.get("first_dealer") or 0)
    except ValueError:
        dealer = -1
    return sides, options, dealer


def options_from_form(
    rules: Rules, data: Mapping[str, Any], leave_out: Collection[str] = ()
) -> dict[str, Any]:
    """The options the form asks for: only those changed from the game's own."""
    options: dict[str, Any] = {}
    for option in option_fields(rules):
        spec = option.spec
        if spec.name in leave_out:
            continue
        if spec.type == OptionType.MELD_TABLE:
            value: Any = _table_from_form(rules, data)
        elif spec.type == OptionType.BOOL:
            value = bool(data.get(option.fields[0]))
        elif spec.type == OptionType.POINTS_LIST:
            value = _list_from_text(data.get(option.fields[0]))
            if not value and spec.nullable:
                continue
        else:
            value = data.get(option.fields[0])
            if value is None and spec.type == OptionType.OPTIONAL_POINTS:
                if spec.default is None:
                    continue
                value = False  # emptied: a bonus played by default is turned off
            elif value is None and spec.nullable:
                continue
        if value != spec.default:
            options[spec.name] = value
    return options


def _table_from_form(rules: Rules, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The meld table the form asks for; a tier kept for one table size keeps it."""
    table = []
    for index, tier in enumerate(rules.meld_table):
        canasta = data.get(f"opt_meld_{index}_canasta") or None
        item: dict[str, Any] = {
            "min_score": data.get(f"opt_meld_{index}_from") if index else None,
            "points": data.get(f"opt_meld_{index}_points"),
            "canasta": canasta if canasta in CANASTA_REQUIREMENTS else None,
        }
        if tier.sides is not None:
            item["sides"] = tier.sides
        table.append(item)
    return table


def meld_table_problems(rules: Rules, data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Each problem of the meld table the form asks for, with the input it belongs to."""
    _, problems = parse_meld_table(_table_from_form(rules, data))
    inputs = {"min_score": "from", "points": "points", "canasta": "canasta"}
    out = []
    for problem in problems:
        tier = problem.tier or 0
        name = f"opt_meld_{tier}_{inputs.get(problem.key or '', 'points')}"
        if problem.key == "min_score" and tier == 0:
            name = "opt_meld_0_points"
        out.append(
            (name, words.render(problem.reason["key"], problem.reason["params"]).capitalize())
        )
    return out


def field_for_problem(layout: Layout, problem: FieldError) -> str | None:
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
        return "opt_" + field.split(".")[1]
    return None
