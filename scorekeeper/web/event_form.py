"""The new-event form and the entries form: settings, the game's options, and rows of
entries (an optional name and its players), as many rows as the director needs.

The form only reads what was typed; the service (`event_setup`) checks it all and its
problems come back next to the input they concern.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_wtf import FlaskForm
from wtforms import SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from .. import words
from ..clubs import GAME_END_OPTIONS
from ..event_models import ENTRY_NAME_LENGTH, EVENT_NAME_LENGTH
from ..rules import Rules
from ..validation import FieldError
from ..words.translate import gettext
from .hand_form import WholeNumberField
from .match_form import option_inputs, options_from_form

ROWS_STEP = 8  # rows a form starts with, and adds at a time
MOST_ROWS = 120  # as many as an event may have entries
CUSTOM = "custom"


@dataclass(frozen=True)
class EntryRow:
    """One row of the entries table: its input names (name, then each player)."""

    index: int
    name: str
    players: tuple[str, ...]


def entry_rows(count: int, size: int) -> list[EntryRow]:
    return [EntryRow(i, f"n{i}", tuple(f"p{i}_{j}" for j in range(size))) for i in range(count)]


def rows_wanted(data: Mapping[str, Any], filled: int = 0) -> int:
    """The rows to show: those posted (and 8 more when asked), at least 8 and enough for
    `filled` entries plus a few empty ones."""
    raw = str(data.get("rows", ""))
    posted = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 4 else 0
    rows = max(ROWS_STEP, posted, filled + 2)
    if "more" in data:
        rows += ROWS_STEP
    return min(rows, MOST_ROWS)


def _entry_inputs(rows: int, size: int, named: bool = True) -> dict[str, Any]:
    """Each row's inputs: its name (on the entries page; the new-event form keeps to the
    players, to stay light with 60 entries), then its players."""
    attrs: dict[str, Any] = {}
    for row in entry_rows(rows, size):
        if named:
            attrs[row.name] = StringField(
                gettext("Entry %(number)s: name", number=words.number(row.index + 1)),
                validators=[Optional(), Length(max=ENTRY_NAME_LENGTH)],
            )
        for position, name in enumerate(row.players):
            attrs[name] = StringField(
                gettext(
                    "Entry %(number)s: player %(player)s",
                    number=words.number(row.index + 1),
                    player=words.number(position + 1),
                ),
                validators=[Optional(), Length(max=40)],
            )
    return attrs


def entries_form_class(rows: int, size: int) -> type[FlaskForm]:
    return type("EntriesForm", (FlaskForm,), _entry_inputs(rows, size))


def event_form_class(rules: Rules, rows: int, size: int) -> type[FlaskForm]:
    """The new-event form for this game and this many players an entry."""
    vp_choices = [
        SelectChoice("", gettext("FIBUR: fibur-3 up to 3 deals a round, else fibur-4")),
        SelectChoice("fibur-3", gettext("FIBUR for rounds of 3 deals (fibur-3)")),
        SelectChoice("fibur-4", gettext("FIBUR for rounds of 4 deals (fibur-4)")),
        SelectChoice("wdl", gettext("Win 2, draw 1, loss 0 (wdl)")),
        SelectChoice(CUSTOM, gettext("Our own table (below)")),
    ]
    movements = [
        SelectChoice("danish", gettext("Danish: by the standings, no rematch if it can be")),
        SelectChoice("mitchell", gettext("Mitchell: North-South stay, East-West move")),
        SelectChoice("round_robin", gettext("Round robin: everyone meets everyone")),
    ]
    attrs: dict[str, Any] = {
        "name": StringField(
            gettext("Name of the event"),
            validators=[
                InputRequired(gettext("Give the event a name.")),
                Length(max=EVENT_NAME_LENGTH),
            ],
        ),
        "deals_per_round": WholeNumberField(
            gettext("Deals per round"),
            default=3,
            validators=[
                InputRequired(gettext("Enter a whole number.")),
                NumberRange(1, 12, gettext("Choose a whole number from 1 to 12.")),
            ],
        ),
        "movement": SelectField(gettext("Movement"), choices=movements, default="danish"),
        "rounds": WholeNumberField(
            gettext("Rounds"),
            validators=[InputRequired(gettext("Enter a whole number.")), NumberRange(1, 999)],
        ),
        "vp_table": SelectField(gettext("Victory points"), choices=vp_choices, default=""),
        "vp_rows": TextAreaField(gettext("Our own table: one row a line")),
        "vp_over": StringField(gettext("Above the last row: winner, loser")),
        "bye_vp": WholeNumberField(gettext("VP for a bye"), validators=[Optional()]),
    }
    attrs.update(option_inputs(rules, GAME_END_OPTIONS))
    attrs.update(_entry_inputs(rows, size, named=False))
    return type("EventForm", (FlaskForm,), attrs)


def _numbers(text: str) -> list[Any]:
    """ "150, 11, 9" as [150, 11, 9]; anything else stays the text typed (then refused)."""
    parts = [part for part in re.split(r"[\s,;]+", text.strip()) if part]
    if all(part.isascii() and part.isdigit() and len(part) < 10 for part in parts):
        return [int(part) for part in parts]
    return [text.strip()]


def custom_table(rows_text: str, over_text: str) -> dict[str, Any]:
    """A director's table from the form's text, in the API's form."""
    rows = [_numbers(line) for line in (rows_text or "").splitlines() if line.strip()]
    return {"rows": rows, "over": _numbers(over_text or "")}


def entries_from_form(
    data: Mapping[str, Any], rows: int, size: int
) -> tuple[list[dict[str, Any]], list[int]]:
    """The entries of the rows filled in (empty rows left out; a player left empty in a
    row that has something is sent empty, to be refused at its input), and the row of
    each."""
    entries: list[dict[str, Any]] = []
    at_row: list[int] = []
    for row in entry_rows(rows, size):
        name = (data.get(row.name) or "").strip()
        players = [(data.get(field) or "").strip() for field in row.players]
        if name or any(players):
            entries.append({"name": name, "players": players})
            at_row.append(row.index)
    return entries, at_row


def event_body(
    rules: Rules, data: Mapping[str, Any], entries: list[dict[str, Any]]
) -> dict[str, Any]:
    """What the form asks for, as the API's create body."""
    body: dict[str, Any] = {
        "name": data.get("name") or "",
        "variant": rules.key,
        "options": options_from_form(rules, data, GAME_END_OPTIONS),
        "deals_per_round": data.get("deals_per_round"),
        "movement": data.get("movement") or "danish",
        "rounds": data.get("rounds"),
        "entries": entries,
    }
    table = data.get("vp_table") or ""
    if table == CUSTOM:
        body["vp_table"] = custom_table(data.get("vp_rows") or "", data.get("vp_over") or "")
    elif table:
        body["vp_table"] = table
    if data.get("bye_vp") is not None:
        body["bye_vp"] = data.get("bye_vp")
    return body


def field_for(problem: FieldError, at_row: Sequence[int], size: int) -> str | None:
    """The input a problem belongs to (None: the top of the form)."""
    field = problem.field or ""
    found = re.fullmatch(r"entries\[(\d+)\](?:\.(name|players)(?:\[(\d+)\])?)?", field)
    if found:
        index = int(found.group(1))
        if index >= len(at_row):
            return None
        row = at_row[index]
        if found.group(2) == "name":
            return f"n{row}"
        position = int(found.group(3) or 0)
        return f"p{row}_{min(position, size - 1)}"
    if field.startswith("vp_table.over"):
        return "vp_over"
    if field.startswith("vp_table"):
        return "vp_rows" if "." in field else "vp_table"
    if field in ("name", "deals_per_round", "movement", "rounds", "bye_vp"):
        return field
    if field.startswith("options."):
        return "opt_" + field.split(".")[1]
    return None
