"""The record-a-hand form, derived from the match's rules.

One list of `FieldSpec` drives everything: the WTForms class, the page layout,
turning the posted form into hand records, putting the engine's problems next
to the right input, and the names of the inputs on the page.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import (
    InputRequired,
    Length,
    NumberRange,
    Optional,
    StopValidation,
    ValidationError,
)

from ..rules import Rules
from ..rules.hand import MAX_COUNT, MAX_POINTS, MAX_REASON_LENGTH
from ..rules.model import CardCategory, KindGroup, LineupShape
from ..validation import FieldError
from ..words import both, nouns, number
from ..words.base import capitalized
from ..words.translate import gettext, pgettext

NOBODY = "none"
EACH = "each"  # the line-up choice "each for himself"; "alone:K" puts seat K alone
POINTS = "points"
CARDS = "cards"
RULE_PREFIX = "penalties.rule:"


class WholeNumberField(IntegerField):
    """An integer input whose error message a player understands."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist or valuelist[0] in ("", None):
            self.data = None
            return
        try:
            self.data = int(str(valuelist[0]).strip())
        except ValueError:
            self.data = None
            raise ValueError(gettext("Enter a whole number")) from None

    def pre_validate(self, form: Any) -> None:
        """After "Enter a whole number", range checks would only add noise."""
        if self.process_errors:
            raise StopValidation()


def in_range(top: int) -> NumberRange:
    return NumberRange(
        min=0, max=top, message=gettext("Enter a number from 0 to %(top)s", top=number(top))
    )


@dataclass(frozen=True)
class FieldSpec:
    """One input of one side: its form name, its hand-record path and how it shows."""

    name: str
    side: int | None
    path: str
    label: str
    kind: str  # out, count, points, check, mode, text, special
    group: str
    step: int = 1
    follows_out: bool = False  # a box the page ticks for the side that went out


@dataclass(frozen=True)
class CardsBlock:
    """Melded cards or cards in hand: a points input, or counts by kind (the mode switch)."""

    title: str
    mode: FieldSpec
    points: FieldSpec
    cards: list[FieldSpec]


@dataclass(frozen=True)
class SideSection:
    seat: int
    name: str
    bonuses: list[FieldSpec]
    meld: CardsBlock
    hand: CardsBlock
    penalties: list[FieldSpec]
    foot: CardsBlock | None = None  # cards left in feet never picked up (Hand and Foot)
    special: FieldSpec | None = None  # the special hand the side went out with, if any
    rare: tuple[FieldSpec, ...] = ()  # kinds folded away with the special hand
    fold_label: str = ""


def _cards_label(category: CardCategory) -> str:
    cards = nouns.category_cards(category.key, category.ranks)
    name = capitalized(nouns.category(category.key, 2))
    return gettext(
        "%(name)s (%(cards)s, %(points)s)", name=name, cards=cards, points=number(category.value)
    )


def _side_specs(rules: Rules, seat: int) -> list[FieldSpec]:
    prefix = f"s{seat}_"
    specs: list[FieldSpec] = []

    def add(
        suffix: str, path: str, label: str, kind: str, group: str, step: int = 1, **extra: Any
    ) -> None:
        specs.append(FieldSpec(prefix + suffix, seat, path, label, kind, group, step, **extra))

    if rules.special_hands:
        add("special", "special_hand", gettext("Special hand"), "special", "special")
    rare = rare_groups(rules)
    vocabulary = rules.vocabulary
    for kind in rules.kinds:
        add(
            f"canasta_{kind.key}",
            f"canastas.{kind.key}",
            capitalized(nouns.kind(vocabulary, kind.key, 2)),
            "count",
            "rare" if kind.group in rare else "melds",
        )
    if rules.extra_hand is not None:
        label = gettext("Took the extra hand (%(name)s)", name=nouns.extra_hand(vocabulary))
        needed = rules.going_out.needs_extra_hand
        add("took_extra_hand", "took_extra_hand", label, "check", "melds", follows_out=needed)
    for threes in rules.laid_threes:
        label = gettext(
            "%(threes)s laid down", threes=capitalized(nouns.category(threes.card_category, 2))
        )
        add(threes.field, threes.field, label, "count", "melds")
    feet = rules.feet
    if feet is not None:
        foot = nouns.foot(vocabulary, 1)
        # each player has one
        label = gettext("%(feet)s picked up", feet=capitalized(nouns.foot(vocabulary, 2)))
        add("feet_taken", "feet_taken", label, "count", "melds")
        if feet.exact_pickup_bonus is not None:
            label = gettext(
                "Players who picked up exactly the cards of hand and %(foot)s", foot=foot
            )
            add("exact_pickups", "exact_pickups", label, "count", "melds")
    add("meld_mode", "meld_mode", gettext("How to enter the melded cards"), "mode", "meld")
    add("meld_points", "meld_points", gettext("Points melded"), "points", "meld", step=5)
    for category in rules.cards:
        if category.key in rules.unmeldable:
            continue  # laid down and counted apart (Modern American threes)
        path = f"meld_cards.{category.key}"
        add(f"meld_{category.key}", path, _cards_label(category), "count", "meld_cards")
    add("hand_mode", "hand_mode", gettext("How to enter the cards left in hand"), "mode", "hand")
    add("hand_points", "hand_points", gettext("Points left in hand"), "points", "hand", step=5)
    replaced = {p.card_category for p in rules.counted_penalties if p.replaces_hand_cards}
    for category in rules.cards:
        if category.key not in replaced:
            path = f"hand_cards.{category.key}"
            add(f"hand_{category.key}", path, _cards_label(category), "count", "hand_cards")
    if feet is not None:
        feet_words = nouns.foot(vocabulary, 2)
        title = gettext("How to enter the cards left in %(feet)s not picked up", feet=feet_words)
        add("foot_mode", "foot_mode", title, "mode", "foot")
        left = gettext("Points left in %(feet)s", feet=feet_words)
        add("foot_points", "foot_points", left, "points", "foot", 5)
        for category in rules.cards:
            path = f"foot_cards.{category.key}"
            add(f"foot_{category.key}", path, _cards_label(category), "count", "foot_cards")
    for penalty in rules.counted_penalties:
        label = capitalized(nouns.penalty(vocabulary, penalty.field, 2))
        add(penalty.field, penalty.field, label, "count", "penalties")
    for item in rules.catalogue:
        label = gettext(
            "%(penalty)s (%(points)s)",
            penalty=nouns.catalogue_penalty(item.key),
            points=number(item.points),
        )
        add(f"penalty_{item.key}", RULE_PREFIX + item.key, label, "count", "penalties")
    free = gettext("Other penalty: points")
    add("free_points", "penalties.free.points", free, "points", "penalties", 5)
    why = gettext("Other penalty: reason")
    add("free_reason", "penalties.free.reason", why, "text", "penalties")
    return specs


def rare_groups(rules: Rules) -> set[KindGroup]:
    """Kind groups held to one canasta a hand across the whole table (Modern American's
    wild-card canastas): most hands have none, so the form folds them away."""
    return {cap.group for cap in rules.group_caps if cap.most <= 1}


def fold_label(rules: Rules) -> str:
    """The title of the fold holding the special hand and the rare canasta kinds."""
    parts = [gettext("Special hand")] if rules.special_hands else []
    for group in sorted(rare_groups(rules)):
        parts.append(nouns.group_canastas(rules.vocabulary, str(group)))
    return capitalized(both(parts))


def field_specs(rules: Rules, sides: int) -> list[FieldSpec]:
    specs = []
    if rules.seating is not None:  # the seats first say who played with whom
        label = gettext("Who played with whom?")
        specs.append(FieldSpec("lineup", None, "lineup", label, "lineup", "top"))
    specs.append(FieldSpec("out", None, "went_out", gettext("Who went out?"), "out", "top"))
    going = rules.going_out
    if going.concealed_bonus is not None:
        label = gettext(
            "Went out concealed (%(bonus)s instead of %(usual)s)",
            bonus=number(going.concealed_bonus),
            usual=number(going.bonus),
        )
        specs.append(FieldSpec("concealed", None, "concealed", label, "check", "top"))
    for seat in range(sides):
        specs.extend(_side_specs(rules, seat))
    return specs


def lineup_choices(rules: Rules, names: Sequence[str], phase: int | None) -> list[tuple[str, str]]:
    """The line-ups the hand may have in `phase`, as (value, words): one "alone" choice per
    seat for a shape of one seat against the rest, one "each for himself" choice."""
    seating = rules.seating
    if seating is None:
        return []
    choices: dict[str, str] = {}
    for shape in seating.shapes(phase):
        if all(size == 1 for size in shape.sizes):
            each = (
                gettext("Each for himself (the stock ran out before anyone finished)")
                if shape.no_extra_hand
                else gettext("Each for himself")
            )
            choices.setdefault(EACH, each)
        elif shape.sizes[0] == 1 and len(shape.sizes) == 2:
            for seat, name in enumerate(names):
                others = both(n for i, n in enumerate(names) if i != seat)
                said = gettext("%(name)s alone against %(others)s", name=name, others=others)
                choices.setdefault(f"alone:{seat}", said)
    return list(choices.items())


def pair_notes(rules: Rules, names: Sequence[str]) -> dict[str, str] | None:
    """What the form says in a pair's part of a seated game, by the seat that plays alone
    ("Bob and Cy play together: ..."), for the page's script; None in other games."""
    if rules.seating is None:
        return None
    return {
        str(seat): gettext(
            "%(players)s play together: enter the pair's cards here, once.",
            players=both(n for i, n in enumerate(names) if i != seat),
        )
        for seat in range(len(names))
    }


def lineup_of_choice(choice: object, seats: int) -> list[list[int]] | None:
    """The line-up a choice stands for (None: no or an unknown choice)."""
    if choice == EACH:
        return [[seat] for seat in range(seats)]
    text = str(choice or "")
    if text.startswith("alone:") and text[6:].isdigit() and int(text[6:]) < seats:
        alone = int(text[6:])
        return [[alone], [seat for seat in range(seats) if seat != alone]]
    return None


def choice_of_lineup(lineup: Sequence[Sequence[int]] | None) -> str | None:
    if not lineup:
        return None
    if all(len(side) == 1 for side in lineup):
        return EACH
    lone = [side for side in lineup if len(side) == 1]
    return f"alone:{lone[0][0]}" if len(lone) == 1 and len(lineup) == 2 else None


def hand_form_class(
    rules: Rules, side_names: Sequence[str], phase: int | None = None
) -> type[FlaskForm]:
    """A FlaskForm subclass with one field per spec (plus the guard fields); a seated game's
    line-up choice offers what `phase` allows."""
    attrs: dict[str, Any] = {
        "token": HiddenField(),
        "expected_number": HiddenField(),
        "version": HiddenField(),
        "confirmed": HiddenField(),
        "deal": HiddenField(),  # the deal (hand number) the live preview scores
    }
    choices = [SelectChoice(str(i), name) for i, name in enumerate(side_names)]
    choices.append(SelectChoice(NOBODY, gettext("Nobody: the stock ran out")))
    for spec in field_specs(rules, len(side_names)):
        if spec.kind == "lineup":
            offered = lineup_choices(rules, side_names, phase)
            attrs[spec.name] = RadioField(
                spec.label,
                choices=[SelectChoice(value, words) for value, words in offered],
                default=offered[0][0] if len(offered) == 1 else None,
                validators=[InputRequired(gettext("Choose who played with whom"))],
            )
        elif spec.kind == "out":
            attrs[spec.name] = RadioField(
                spec.label,
                choices=choices,
                validators=[InputRequired(gettext("Choose who went out, or Nobody"))],
            )
        elif spec.kind == "check":
            attrs[spec.name] = BooleanField(spec.label)
        elif spec.kind == "mode":
            attrs[spec.name] = RadioField(
                spec.label,
                choices=[
                    SelectChoice(POINTS, gettext("Points")),
                    SelectChoice(CARDS, gettext("Count cards")),
                ],
                default=POINTS,
                validators=[Optional()],
            )
        elif spec.kind == "special":
            attrs[spec.name] = SelectField(
                spec.label, choices=special_choices(rules), default=NOBODY, validators=[Optional()]
            )
        elif spec.kind == "text":
            attrs[spec.name] = StringField(
                spec.label, validators=[Optional(), Length(max=MAX_REASON_LENGTH)]
            )
        else:
            top = MAX_POINTS if spec.kind == "points" else MAX_COUNT
            attrs[spec.name] = WholeNumberField(spec.label, validators=[Optional(), in_range(top)])
    if "concealed" in attrs:
        attrs["validate_concealed"] = _concealed_needs_a_side
    return type("HandForm", (FlaskForm,), attrs)


def special_choices(rules: Rules) -> list[SelectChoice]:
    """None, then each special hand with its points (and whether it wins the game)."""
    choices = [SelectChoice(NOBODY, pgettext("special hand", "None"))]
    for special in rules.special_hands:
        said = {"hand": nouns.special_hand(special.key), "points": number(special.points)}
        label = (
            gettext("%(hand)s (%(points)s, wins the game)", **said)
            if special.wins_game
            else gettext("%(hand)s (%(points)s)", **said)
        )
        choices.append(SelectChoice(special.key, label))
    return choices


def _concealed_needs_a_side(form: FlaskForm, field: BooleanField) -> None:
    if field.data and form.out.data == NOBODY:
        raise ValidationError(gettext("Only the side that went out can go out concealed"))


def layout(rules: Rules, side_names: Sequence[str]) -> tuple[list[FieldSpec], list[SideSection]]:
    """The top fields and, per side, the blocks the page shows."""
    specs = field_specs(rules, len(side_names))
    sections = []
    for seat, name in enumerate(side_names):
        mine = [s for s in specs if s.side == seat]

        def group(key: str, fields: list[FieldSpec] = mine) -> list[FieldSpec]:
            return [s for s in fields if s.group == key]

        def block(title: str, key: str, fields: list[FieldSpec] = mine) -> CardsBlock:
            mode, points = (s for s in fields if s.group == key)
            return CardsBlock(title, mode, points, [s for s in fields if s.group == key + "_cards"])

        meld = block(gettext("Melded cards"), "meld")
        hand = block(gettext("Cards in hand"), "hand")
        foot = None
        if rules.feet is not None:
            feet = nouns.foot(rules.vocabulary, 2)
            foot = block(gettext("Cards in %(feet)s not picked up", feet=feet), "foot")
        special = next(iter(group("special")), None)
        sections.append(
            SideSection(
                seat,
                name,
                group("melds"),
                meld,
                hand,
                group("penalties"),
                foot,
                special,
                tuple(group("rare")),
                fold_label(rules),
            )
        )
    return [s for s in specs if s.side is None], sections


def modes_of(rules: Rules, records: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """The points/count-cards switches as a stored hand had them.

    A new hand starts the way the previous one was entered, so a table that counts
    cards does not switch every block over again each hand.
    """
    data = form_data_from_records(rules, records)
    return {name: value for name, value in data.items() if name.endswith("_mode")}


def new_token() -> str:
    return secrets.token_urlsafe(16)


def _number(data: Mapping[str, Any], name: str) -> Any:
    """The count or points of an input: 0 when empty; text the engine will refuse as is."""
    value = data.get(name)
    return value if isinstance(value, int | str) and value != "" else 0


def _side_record(
    specs: list[FieldSpec],
    seat: int,
    data: Mapping[str, Any],
    penalty_fields: dict[tuple[int, str], str],
) -> dict[str, Any]:
    out = data.get("out")
    record: dict[str, Any] = {"went_out": out == str(seat)}
    if data.get("concealed") and out == str(seat):
        record["concealed"] = True
    modes = {
        "meld_cards": data.get(f"s{seat}_meld_mode") or POINTS,
        "hand_cards": data.get(f"s{seat}_hand_mode") or POINTS,
    }
    points_of = {"meld_points": "meld_cards", "hand_points": "hand_cards"}
    if any(spec.group == "foot" for spec in specs):
        modes["foot_cards"] = data.get(f"s{seat}_foot_mode") or POINTS
        points_of["foot_points"] = "foot_cards"
    canastas: dict[str, int] = {}
    cards: dict[str, dict[str, int]] = {key: {} for key, mode in modes.items() if mode == CARDS}
    penalties: list[dict[str, Any]] = []
    for spec in specs:
        head, _, key = spec.path.partition(".")
        value = _number(data, spec.name)
        if spec.kind == "check":
            record[spec.path] = bool(data.get(spec.name))
        elif spec.kind == "special":
            # A special hand scores alone: the other inputs of the side are set aside on the
            # page; anything still entered there is refused by the engine with its reason.
            chosen = data.get(spec.name)
            if chosen and chosen != NOBODY:
                record[spec.path] = chosen
        elif head == "canastas":
            if value:
                canastas[key] = value
        elif head in modes:
            if head in cards:
                cards[head][key] = value
        elif spec.path in points_of:
            if points_of[spec.path] not in cards:
                record[spec.path] = value
        elif spec.path.startswith(RULE_PREFIX):
            if value:
                penalty_fields[(seat, f"penalties.{len(penalties)}")] = spec.name
                penalties.append({"rule": spec.path.removeprefix(RULE_PREFIX), "count": value})
        elif spec.kind == "count":
            record[spec.path] = value
    points = _number(data, f"s{seat}_free_points")
    reason = (data.get(f"s{seat}_free_reason") or "").strip()
    if points or reason:
        entry = f"penalties.{len(penalties)}"
        penalty_fields[(seat, entry)] = f"s{seat}_free_points"
        penalty_fields[(seat, f"{entry}.reason")] = f"s{seat}_free_reason"
        penalties.append({"points": points, "reason": reason})
    if canastas:
        record["canastas"] = canastas
    record.update(cards)
    if penalties:
        record["penalties"] = penalties
    return record


def submitted_data(form: FlaskForm) -> dict[str, Any]:
    """The cleaned data, with the raw text of inputs that failed to parse."""
    data = dict(form.data)
    for field in form:
        if field.errors and field.raw_data:
            data[field.name] = str(field.raw_data[0]).strip()
    return data


def records_from_form(
    rules: Rules, side_count: int, data: Mapping[str, Any]
) -> tuple[list[dict[str, Any]], dict[tuple[int, str], str]]:
    """Hand records from cleaned form data, and which input each penalty entry came from."""
    specs = field_specs(rules, side_count)
    penalty_fields: dict[tuple[int, str], str] = {}
    records = [
        _side_record([s for s in specs if s.side == seat], seat, data, penalty_fields)
        for seat in range(side_count)
    ]
    return records, penalty_fields


@dataclass(frozen=True)
class FormHand:
    """A posted hand form as the engine takes it: one record per side (of the line-up in
    a seated game), the line-up, and where each side's and penalty's inputs are."""

    records: list[dict[str, Any]]
    lineup: list[list[int]] | None
    penalty_fields: dict[tuple[int, str], str]

    def seat_of(self, side: int | None) -> int | None:
        """The seat whose inputs hold side `side` of the line-up (a pair: its first seat)."""
        if side is None or not self.lineup or side >= len(self.lineup):
            return side
        return self.lineup[side][0]

    def at_inputs(self, problem: FieldError) -> FieldError:
        """The problem with its side turned into the seat whose inputs it concerns."""
        return replace(problem, side=self.seat_of(problem.side)) if self.lineup else problem


def _side_of_seats(
    rules: Rules, seat_records: Sequence[dict[str, Any]], seats: Sequence[int], alone: bool
) -> dict[str, Any]:
    """A line-up side's record from its seats' inputs: a pair enters its cards once, in
    its first seat's inputs; it went out (or took its pozzetto) when either seat's box
    says so. The player alone against a pair is the one who took the big pozzetto."""
    record = dict(seat_records[seats[0]])
    record["went_out"] = any(seat_records[seat].get("went_out") for seat in seats)
    if record["went_out"] and any(seat_records[seat].get("concealed") for seat in seats):
        record["concealed"] = True
    if rules.extra_hand is not None:
        took = any(seat_records[seat].get("took_extra_hand") for seat in seats)
        record["took_extra_hand"] = True if alone else took
    return record


def hand_from_form(rules: Rules, side_count: int, data: Mapping[str, Any]) -> FormHand:
    """The one mapping from the hand form to what the engine reads (saving, previewing)."""
    records, penalty_fields = records_from_form(rules, side_count, data)
    if rules.seating is None:
        return FormHand(records, None, penalty_fields)
    lineup = lineup_of_choice(data.get("lineup"), side_count)
    if lineup is None:
        return FormHand(records, None, penalty_fields)
    lone_shapes = [s for s in rules.seating.shapes(None) if s.lone_took_extra_hand]
    pair_against_one = len(lineup) == 2 and _has_shape(lone_shapes, lineup)
    sides = [
        _side_of_seats(rules, records, seats, pair_against_one and len(seats) == 1)
        for seats in lineup
    ]
    return FormHand(sides, lineup, penalty_fields)


def _has_shape(shapes: Sequence[LineupShape], lineup: Sequence[Sequence[int]]) -> bool:
    sizes = tuple(sorted(len(side) for side in lineup))
    return any(shape.sizes == sizes for shape in shapes)


def form_data_from_records(
    rules: Rules,
    records: Sequence[Mapping[str, Any]],
    lineup: Sequence[Sequence[int]] | None = None,
) -> dict[str, Any]:
    """The form's initial data for a stored hand (to correct it); a seated hand's records
    are its seats' (a pair's two seats hold the same record)."""
    data: dict[str, Any] = {"out": NOBODY}
    if lineup:
        data["lineup"] = choice_of_lineup(lineup)
    for seat, record in enumerate(records):
        prefix = f"s{seat}_"
        if record.get("went_out"):
            data["out"] = str(seat)
            data["concealed"] = bool(record.get("concealed"))
        for kind, count in (record.get("canastas") or {}).items():
            data[f"{prefix}canasta_{kind}"] = count
        if record.get("special_hand"):
            data[f"{prefix}special"] = record["special_hand"]
        counts = ("red_threes", "black_threes", "took_extra_hand", "feet_taken", "exact_pickups")
        for name in (*counts, *(p.field for p in rules.counted_penalties)):
            if name in record:
                data[prefix + name] = record[name]
        for short in ("meld", "hand", "foot") if rules.feet is not None else ("meld", "hand"):
            cards = record.get(f"{short}_cards")
            if cards is not None:
                data[f"{prefix}{short}_mode"] = CARDS
                for category, count in cards.items():
                    data[f"{prefix}{short}_{category}"] = count
            else:
                data[f"{prefix}{short}_mode"] = POINTS
                data[f"{prefix}{short}_points"] = record.get(f"{short}_points", 0)
        for penalty in record.get("penalties") or []:
            if "rule" in penalty:
                data[f"{prefix}penalty_{penalty['rule']}"] = penalty.get("count", 1)
            else:
                data[f"{prefix}free_points"] = penalty.get("points", 0)
                data[f"{prefix}free_reason"] = penalty.get("reason", "")
    return data


def errors_at_fields(form: FlaskForm, side_names: Sequence[str]) -> list[tuple[str, str]]:
    """Each input's problems in page order, as (input id, words) for the list at the top of
    the form: a side's input is named with its side unless the message names it already."""
    found = []
    for item in form:
        if item.name == "csrf_token":
            continue  # an expired form is said at the top, in the reader's words
        seat = item.name[1:].partition("_")[0] if item.name.startswith("s") else ""
        side = side_names[int(seat)] if seat.isdigit() and int(seat) < len(side_names) else None
        for message in item.errors:
            named = side is None or message.startswith(side)
            where = gettext(
                "%(side)s, %(field)s: %(problem)s",
                side=str(side),
                field=str(item.label.text),
                problem=message,
            )
            found.append((item.id, message if named else where))
    return found


def _left_empty(form: FlaskForm, specs: Sequence[FieldSpec], seat: int) -> bool:
    """Whether every input of a seat was left as the form offered it (a typed 0 is an entry)."""
    values = [form[s.name].data for s in specs if s.side == seat and s.kind != "mode"]
    return all(value is None or value is False or value in ("", NOBODY) for value in values)


def with_empty_sides_named(
    form: FlaskForm,
    specs: Sequence[FieldSpec],
    posted: FormHand,
    warnings: Sequence[FieldError],
    who: Sequence[str],
) -> tuple[FieldError, ...]:
    """The engine's warnings, where a side holding nothing had nothing entered at all said
    so: a side left empty was more likely skipped than played down to nothing. `who`: the
    hand's sides by name."""
    said = []
    for warning in warnings:
        seat = posted.seat_of(warning.side)
        empty = seat is not None and _left_empty(form, specs, seat)
        if warning.key == "warn.nothing_held" and empty and warning.side is not None:
            name = who[warning.side] if warning.side < len(who) else ""
            words = gettext(
                "Nothing entered for %(name)s: fill in their cards, or save to record nothing "
                "for them",
                name=name,
            )
            warning = replace(warning, message=words, key="form.nothing_entered")
        said.append(warning)
    return tuple(said)


def field_for_problem(
    specs: Sequence[FieldSpec], problem: FieldError, penalty_fields: Mapping[tuple[int, str], str]
) -> str | None:
    """The form field a problem belongs next to; None for the top of the form."""
    field = problem.field or ""
    if field == "lineup":
        return "lineup"
    if field in ("went_out", "concealed") and problem.side is None:
        return "out"
    if problem.side is None:
        return None
    if field == "went_out":
        return "out"
    if field == "concealed":
        return "concealed"
    if field.startswith("penalties."):
        entry = ".".join(field.split(".")[:2])
        side = problem.side
        return penalty_fields.get((side, field)) or penalty_fields.get((side, entry))
    mine = [s for s in specs if s.side == problem.side]
    exact = next((s.name for s in mine if s.path == field), None)
    if exact:
        return exact
    if field in ("meld_cards", "hand_cards", "foot_cards"):
        return f"s{problem.side}_{field.split('_')[0]}_mode"
    return next((s.name for s in mine if s.path.startswith(field + ".")), None)
