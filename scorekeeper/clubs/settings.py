"""An event's settings from the API's JSON, with every problem found at once.

The numbers CLUBS.md bounds (deals per round, rounds, the bye's VP) and the VP
table and movement names are checked here; what needs the rules engine or the
database (the variant, the entries' players) is the caller's, whose problems
join these in one answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeGuard

from .movements import Movement, max_rounds
from .problems import InvalidSettings, Problem
from .victory_points import VPTable, default_vp_table, read_vp_table

MOST_DEALS_PER_ROUND = 12
DEFAULT_DEALS_PER_ROUND = 3


@dataclass(frozen=True)
class EventSettings:
    """How an event of `entries` entries is played; the bounds hold once built."""

    entries: int
    deals_per_round: int
    vp_table: VPTable
    movement: Movement
    rounds: int
    bye_vp: int

    def __post_init__(self) -> None:
        problems = [
            *_entries_problems(self.entries),
            *_deals_problems(self.deals_per_round),
            *_rounds_problems(self.entries, self.movement, self.rounds),
            *_bye_problems(self.vp_table, self.bye_vp),
        ]
        if problems:
            raise InvalidSettings(problems)


def read_event_settings(data: Mapping[str, object], entries: int) -> EventSettings:
    """Settings with CLUBS.md's defaults; raises InvalidSettings with every problem."""
    problems = _entries_problems(entries)
    deals = data.get("deals_per_round", DEFAULT_DEALS_PER_ROUND)
    if not _whole(deals) or _deals_problems(deals):
        problems.append(_range("deals_per_round", 1, MOST_DEALS_PER_ROUND))
        deals = DEFAULT_DEALS_PER_ROUND
    table: VPTable | None = default_vp_table(deals)
    if "vp_table" in data:
        try:
            table = read_vp_table(data["vp_table"])
        except InvalidSettings as error:
            problems += error.problems
            table = None
    name = data.get("movement", Movement.DANISH.value)
    movement = Movement(name) if isinstance(name, str) and name in set(Movement) else None
    if movement is None:
        problems.append(Problem("movement", "event.unknown_movement"))
    rounds = data.get("rounds")
    if not _whole(rounds):
        problems.append(Problem("rounds", "event.not_a_whole_number"))
    elif movement is not None:
        problems += _rounds_problems(entries, movement, rounds)
    bye_vp = data.get("bye_vp", table.default_bye if table is not None else 0)
    if not _whole(bye_vp):
        problems.append(Problem("bye_vp", "event.not_a_whole_number"))
    elif table is not None:
        problems += _bye_problems(table, bye_vp)
    if problems or table is None or movement is None or not _whole(rounds) or not _whole(bye_vp):
        raise InvalidSettings(problems)
    return EventSettings(entries, deals, table, movement, rounds, bye_vp)


def _entries_problems(entries: int) -> list[Problem]:
    return [] if entries >= 2 else [Problem("entries", "event.too_few_entries", {"min": 2})]


def _deals_problems(deals: int) -> list[Problem]:
    ok = 1 <= deals <= MOST_DEALS_PER_ROUND
    return [] if ok else [_range("deals_per_round", 1, MOST_DEALS_PER_ROUND)]


def _rounds_problems(entries: int, movement: Movement, rounds: int) -> list[Problem]:
    """Rounds from 1 to what the movement allows (checked once there are entries enough)."""
    most = max_rounds(movement, entries) if entries >= 2 else None
    if most is None:
        return [] if rounds >= 1 else [Problem("rounds", "event.below_minimum", {"min": 1})]
    return [] if 1 <= rounds <= most else [_range("rounds", 1, most)]


def _bye_problems(table: VPTable, bye_vp: int) -> list[Problem]:
    return [] if 0 <= bye_vp <= table.top else [_range("bye_vp", 0, table.top)]


def _range(field: str, low: int, high: int) -> Problem:
    return Problem(field, "event.out_of_range", {"min": low, "max": high})


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
