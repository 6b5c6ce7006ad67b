"""Standings and entry cards from an event's finished tables, byes and penalties.

Ranks are unique: more VP (penalties taken off), then the larger sum of MP
differences, then, where exactly two entries are still tied and have met, more
VP in their meetings, then the lower entry number. Danish pairing ranks the
entries with the same function, so the pairs always follow the standings shown.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from itertools import groupby

from .victory_points import VPTable


@dataclass(frozen=True)
class Entry:
    """An entry by its number; a withdrawn one keeps what it earned and stays ranked."""

    number: int
    withdrawn: bool = False

    def __post_init__(self) -> None:
        if self.number < 1:
            raise ValueError("entries are numbered from 1")


@dataclass(frozen=True)
class TableResult:
    """A finished table: its round, its two entries and the MP each made."""

    round: int
    first: int
    second: int
    mp_first: int
    mp_second: int

    def __post_init__(self) -> None:
        if self.round < 1 or min(self.first, self.second) < 1 or self.first == self.second:
            raise ValueError("a table is played in a round by two different entries")

    @property
    def entries(self) -> tuple[int, int]:
        return (self.first, self.second)


@dataclass(frozen=True)
class Bye:
    """A bye counts from the moment its round starts."""

    round: int
    entry: int

    def __post_init__(self) -> None:
        if self.round < 1 or self.entry < 1:
            raise ValueError("a bye is an entry's in a round")


@dataclass(frozen=True)
class Penalty:
    """VP taken off an entry by the director (a positive number)."""

    entry: int
    vp: int

    def __post_init__(self) -> None:
        if self.entry < 1 or self.vp < 1:
            raise ValueError("a penalty takes a positive number of VP off an entry")


@dataclass(frozen=True)
class EventResults:
    """Everything the standings are made from, checked to fit together."""

    entries: tuple[Entry, ...]
    tables: tuple[TableResult, ...]
    byes: tuple[Bye, ...]
    vp_table: VPTable
    bye_vp: int
    penalties: tuple[Penalty, ...] = ()

    def __post_init__(self) -> None:
        numbers = [entry.number for entry in self.entries]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError("entries are numbered 1..N in order")
        named = [e for t in self.tables for e in t.entries]
        named += [b.entry for b in self.byes] + [p.entry for p in self.penalties]
        if any(number > len(numbers) for number in named):
            raise ValueError("results name only the event's entries")
        seats = [(t.round, e) for t in self.tables for e in t.entries]
        seats += [(b.round, b.entry) for b in self.byes]
        if len(set(seats)) != len(seats):
            raise ValueError("an entry has one table or bye a round")
        if not 0 <= self.bye_vp <= self.vp_table.top:
            raise ValueError("the bye's VP go from 0 to the table's top figure")


@dataclass(frozen=True)
class CardLine:
    """One round of an entry's card; `opponent` is None for a bye."""

    round: int
    opponent: int | None
    mp_for: int
    mp_against: int
    vp: int

    @property
    def mp_diff(self) -> int:
        return self.mp_for - self.mp_against


@dataclass(frozen=True)
class StandingsRow:
    """`mp` is the entry's own MP over its finished tables; `played` counts those
    tables (byes are not tables played)."""

    rank: int
    entry: int
    vp: int
    mp_diff: int
    mp: int
    played: int
    withdrawn: bool = False


def entry_card(results: EventResults, entry: int) -> tuple[CardLine, ...]:
    """The entry's rounds in order: opponent (or bye), MP for and against, VP."""
    lines = [_line(results, table, entry) for table in results.tables if entry in table.entries]
    lines += [
        CardLine(bye.round, None, 0, 0, results.bye_vp)
        for bye in results.byes
        if bye.entry == entry
    ]
    return tuple(sorted(lines, key=lambda line: line.round))


def standings(results: EventResults) -> tuple[StandingsRow, ...]:
    """Every entry ranked 1..N by the tie-breaks of CLUBS.md."""
    cards = {entry.number: entry_card(results, entry.number) for entry in results.entries}
    taken: Counter[int] = Counter()
    for penalty in results.penalties:
        taken[penalty.entry] += penalty.vp
    rows = {
        entry.number: StandingsRow(
            rank=0,
            entry=entry.number,
            vp=sum(line.vp for line in cards[entry.number]) - taken[entry.number],
            mp_diff=sum(line.mp_diff for line in cards[entry.number]),
            mp=sum(line.mp_for for line in cards[entry.number] if line.opponent is not None),
            played=sum(1 for line in cards[entry.number] if line.opponent is not None),
            withdrawn=entry.withdrawn,
        )
        for entry in results.entries
    }

    def first_keys(row: StandingsRow) -> tuple[int, int]:
        return (-row.vp, -row.mp_diff)

    order: list[int] = []
    for _, tied in groupby(sorted(rows.values(), key=first_keys), key=first_keys):
        order += _break_tie([row.entry for row in tied], cards)
    return tuple(replace(rows[number], rank=rank) for rank, number in enumerate(order, start=1))


def _break_tie(tied: list[int], cards: dict[int, tuple[CardLine, ...]]) -> list[int]:
    """Entries equal on VP and MP difference: head to head for exactly two who met, then
    the lower number (three or more tied never go head to head)."""
    tied = sorted(tied)
    if len(tied) != 2:
        return tied
    low, high = tied
    meetings = [line for line in cards[low] if line.opponent == high]
    if not meetings:
        return tied
    own = sum(line.vp for line in meetings)
    theirs = sum(line.vp for line in cards[high] if line.opponent == low)
    return [high, low] if theirs > own else tied


def _line(results: EventResults, table: TableResult, entry: int) -> CardLine:
    vp_first, vp_second = results.vp_table.shares(table.mp_first, table.mp_second)
    if entry == table.first:
        return CardLine(table.round, table.second, table.mp_first, table.mp_second, vp_first)
    return CardLine(table.round, table.first, table.mp_second, table.mp_first, vp_second)


def ranking(results: EventResults) -> tuple[int, ...]:
    """Entry numbers, best first: what Danish pairing reads."""
    return tuple(row.entry for row in standings(results))
