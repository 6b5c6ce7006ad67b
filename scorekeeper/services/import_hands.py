"""Reading an export file: each problem named by its path in the file, and each hand
scored again under its match's rules as when it was recorded (`imports` checks the
rest of the file and saves it)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .. import words
from ..ids import MAX_ID
from ..models import NAME_LENGTH, TOKEN_LENGTH, key_fits, long_key
from ..rules import Rules
from ..rules.hand import MAX_DEAL
from ..rules.seats import Lineup, read_lineup
from ..validation import FieldError, ValidationError
from ..words.translate import gettext
from . import names
from .hands import evaluate
from .match_setup import clean_name
from .seated import side_records

MAX_PROBLEMS = 20  # a file wrong throughout is reported by its first problems
Scored = list[tuple[dict[str, Any], int, list[dict[str, Any]]]]  # by seat: input, total, lines


class TooManyProblems(Exception):
    """Enough problems found: stop reading the file."""


class FileReader:
    """Collects the problems of a file, each named by its path in the file."""

    def __init__(self) -> None:
        self.problems: list[FieldError] = []

    def add(self, where: str, message: str) -> None:
        self.problems.append(FieldError(None, where, message))
        if len(self.problems) >= MAX_PROBLEMS:
            raise TooManyProblems

    def obj(self, value: object, where: str) -> dict[str, Any] | None:
        if isinstance(value, dict):
            return value
        self.add(where, gettext("must be an object"))
        return None

    def items(self, value: object, where: str) -> list[Any]:
        if isinstance(value, list):
            return value
        self.add(where, gettext("must be a list"))
        return []

    def integer(self, value: object, where: str, low: int = 0, high: int = MAX_ID) -> int | None:
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return value
        self.add(
            where,
            gettext(
                "must be a whole number from %(low)s to %(high)s", low=str(low), high=str(high)
            ),
        )
        return None

    def moment(self, value: object, where: str, optional: bool = False) -> datetime | None:
        if value is None and optional:
            return None
        if isinstance(value, str):
            try:
                parsed = datetime.fromisoformat(value.removesuffix("Z"))
            except ValueError:
                pass
            else:
                if parsed.tzinfo is None:
                    return parsed
        self.add(
            where, gettext("must be a UTC time like %(example)s", example="2026-11-23T20:15:00Z")
        )
        return None

    def name(self, value: object, where: str, longest: int = NAME_LENGTH) -> str | None:
        """A player's name (its key must fit too), or a side's given a longer `longest`."""
        name = clean_name(value)
        if not name or len(name) > longest:
            self.add(
                where, gettext("must be a name of 1 to %(count)s characters", count=str(longest))
            )
            return None
        hidden = names.invisible(name)
        if hidden is not None:
            self.add(
                where,
                gettext(
                    "holds an invisible character (%(character)s): remove it", character=hidden
                ),
            )
        if longest == NAME_LENGTH and not key_fits(name):
            self.add(where, long_key())
            return None
        return name


def _seated_records(
    read: FileReader, rules: Rules, raw: object, inputs: list[Any], where: str
) -> tuple[Lineup, list[Any]] | None:
    """A seated hand's line-up and its records by side of it, as a hand is posted: the
    file has one entry per seat, and the seats of a side share their side's record."""
    lineup, problems = read_lineup(rules, raw, None)
    if lineup is None:
        first = words.told(problems[0], rules.vocabulary).message if problems else ""
        read.add(f"{where}.lineup", first or gettext("is not a line-up"))
        return None
    for side in lineup:
        for seat in side[1:]:
            if inputs[seat] != inputs[side[0]]:
                read.add(
                    f"{where}.sides.{seat}.input",
                    gettext(
                        "must be the same as seat %(seat)s's: the line-up has them play together",
                        seat=str(side[0]),
                    ),
                )
                return None
    return lineup, side_records(lineup, inputs)


def scored_hand(
    read: FileReader,
    raw: object,
    where: str,
    match: dict[str, Any],
    rules: Rules,
    names: list[str],
    phase: int | None = None,
) -> tuple[dict[str, Any], Scored] | None:
    """A hand of the file scored again under the match's rules: (hand, [(input, total,
    lines)] by seat) when its totals are the file's, else None (and the problem is noted).

    A seated game's hand is scored by the sides of its `lineup`, which must be allowed
    in `phase` (None: any phase of the game), as when it was recorded."""
    hand = read.obj(raw, where)
    if hand is None:
        return None
    number = read.integer(hand.get("number"), f"{where}.number", 1, MAX_ID)
    read.integer(hand.get("id"), f"{where}.id", 1, MAX_ID)
    read.integer(hand.get("version"), f"{where}.version", 0, MAX_ID)
    token = hand.get("token")
    if token is not None and (not isinstance(token, str) or not 0 < len(token) <= TOKEN_LENGTH):
        read.add(
            f"{where}.token",
            gettext(
                "must be null or a text of up to %(count)s characters", count=str(TOKEN_LENGTH)
            ),
        )
    sides = [
        read.obj(side, f"{where}.sides.{i}")
        for i, side in enumerate(read.items(hand.get("sides"), f"{where}.sides"))
    ]
    if number is None or any(side is None for side in sides):
        return None
    if len(sides) != len(names):
        read.add(
            f"{where}.sides",
            gettext("must have one entry per side (%(count)s)", count=str(len(names))),
        )
        return None
    inputs = [side.get("input") if side else None for side in sides]
    records: list[Any] = inputs
    lineup: Lineup | None = None
    if rules.seating is not None:
        seated_hand = _seated_records(read, rules, hand.get("lineup"), inputs, where)
        if seated_hand is None:
            return None
        lineup, records = seated_hand
    elif hand.get("lineup") is not None:
        read.add(
            f"{where}.lineup",
            gettext("must not be given: %(game)s has no line-ups", game=words.game_name(rules.key)),
        )
        return None
    try:
        evaluation = evaluate(
            rules,
            records,
            match.get("players_per_side"),
            names,
            min(number, MAX_DEAL),
            None if lineup is None else [list(seats) for seats in lineup],
            phase,
        )
    except ValidationError as error:
        first = error.problems[0] if error.problems else FieldError(None, None, "")
        seat = first.side
        if lineup is not None and seat is not None and seat < len(lineup):
            seat = lineup[seat][0]  # a side of the line-up: its first seat's entry
        if first.field == "lineup":
            which = ".lineup"
        else:
            which = ".sides" if seat is None else f".sides.{seat}.input"
            which += f".{first.field}" if first.field and seat is not None else ""
        read.add(
            f"{where}{which}", gettext("is not a possible hand: %(problem)s", problem=first.message)
        )
        return None
    scored: Scored = []
    scores = evaluation.seats or evaluation.scores
    for seat, (side, score) in enumerate(zip(sides, scores, strict=True)):
        assert side is not None
        total = side.get("total")
        if not isinstance(total, int) or isinstance(total, bool) or total != score.total:
            read.add(
                f"{where}.sides.{seat}.total",
                gettext(
                    "is %(given)s, but the entries score %(total)s under the match's rules",
                    given=repr(side.get("total")),
                    total=str(score.total),
                ),
            )
            return None
        scored.append((side["input"], score.total, [line.to_dict() for line in score.lines]))
    return hand, scored
