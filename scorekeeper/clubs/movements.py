"""Who plays whom each round: Mitchell, Danish and round robin, as CLUBS.md sets them.

Entries are their numbers 1..N. A round's pairing is data (tables and byes), made
from the settings, the entries withdrawn so far and, for Danish, the standings
and the rounds already paired, so a pairing can always be made again and
checked. Pairings already made are never changed: later rounds only leave
withdrawn entries out.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum


class Movement(StrEnum):
    MITCHELL = "mitchell"
    DANISH = "danish"
    ROUND_ROBIN = "round_robin"


@dataclass(frozen=True)
class Table:
    """One table of a round: North-South then East-West in Mitchell, the better-ranked
    entry first in Danish, either order in a round robin."""

    number: int
    first: int
    second: int

    def __post_init__(self) -> None:
        if self.number < 1 or min(self.first, self.second) < 1 or self.first == self.second:
            raise ValueError("a table has a number and two different entries")

    @property
    def entries(self) -> tuple[int, int]:
        return (self.first, self.second)


@dataclass(frozen=True)
class Pairing:
    """A round's tables (by number) and the entries that have the bye (by number)."""

    round: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        seated = [entry for table in self.tables for entry in table.entries]
        everyone = [*seated, *self.byes]
        if self.round < 1 or len(set(everyone)) != len(everyone):
            raise ValueError("an entry plays at most one table or bye in a round")
        numbers = [table.number for table in self.tables]
        if numbers != sorted(set(numbers)):
            raise ValueError("tables are listed once each, by number")

    def opponent(self, entry: int) -> int | None:
        """Whom `entry` plays this round (None: a bye, or not in the round)."""
        for table in self.tables:
            if entry in table.entries:
                return table.second if table.first == entry else table.first
        return None


def max_rounds(movement: Movement, entries: int) -> int | None:
    """The most rounds the movement allows for `entries` entries (None: no limit)."""
    _check_entries(entries)
    if movement is Movement.MITCHELL:
        return _mitchell_tables(entries)
    if movement is Movement.ROUND_ROBIN:
        return entries - 1 if entries % 2 == 0 else entries
    return None


def pair_round(
    movement: Movement,
    entries: int,
    round_number: int,
    *,
    withdrawn: Collection[int] = (),
    ranking: Sequence[int] = (),
    previous: Sequence[Pairing] = (),
) -> Pairing:
    """Round `round_number` of the movement. Danish needs the `ranking` (entry numbers,
    best first: the standings after the previous round) and the `previous` rounds."""
    if movement is Movement.MITCHELL:
        return mitchell_round(entries, round_number, withdrawn)
    if movement is Movement.ROUND_ROBIN:
        return round_robin_round(entries, round_number, withdrawn)
    if len(previous) != round_number - 1:
        raise ValueError("a Danish round is paired after every earlier round")
    return danish_round(entries, ranking or range(1, entries + 1), previous, withdrawn)


def mitchell_round(entries: int, round_number: int, withdrawn: Collection[int] = ()) -> Pairing:
    """Entries 1..T sit North-South at tables 1..T; the East-West slots move up one table
    a round. A table keeps its physical number, so a table left empty is not listed."""
    tables_count = _mitchell_tables(entries)
    _check_round(round_number, tables_count)
    tables: list[Table] = []
    byes: list[int] = []
    for number in range(1, tables_count + 1):
        slot = (number - 1 - (round_number - 1)) % tables_count + 1
        east_west = tables_count + slot if tables_count + slot <= entries else None
        _seat(tables, byes, number, number, east_west, withdrawn)
    return Pairing(round_number, tuple(tables), tuple(sorted(byes)))


def round_robin_round(entries: int, round_number: int, withdrawn: Collection[int] = ()) -> Pairing:
    """The circle method (Berger): entry 1, or the empty seat when N is odd, stays put and
    the others turn one place a round; tables are numbered in the order placed."""
    _check_round(round_number, max_rounds(Movement.ROUND_ROBIN, entries) or 0)
    seats: list[int | None] = [*range(1, entries + 1)]
    if entries % 2:
        seats.insert(0, None)  # the empty seat: whoever faces it has the bye
    fixed, turning = seats[0], seats[1:]
    shift = (round_number - 1) % len(turning)
    order = [fixed, *turning[-shift:], *turning[:-shift]] if shift else seats
    tables: list[Table] = []
    byes: list[int] = []
    half = len(order) // 2
    for index in range(half):
        first, second = order[index], order[-1 - index]
        if first is None:
            first, second = second, None
        assert first is not None
        _seat(tables, byes, len(tables) + 1, first, second, withdrawn)
    return Pairing(round_number, tuple(tables), tuple(sorted(byes)))


def danish_round(
    entries: int,
    ranking: Sequence[int],
    previous: Sequence[Pairing],
    withdrawn: Collection[int] = (),
) -> Pairing:
    """Pairs by the standings, avoiding rematches; in round 1 the ranking is entry order.

    When the active entries are odd, the lowest-ranked of those with the fewest
    byes has the bye first; then the best-ranked unpaired entry meets the
    best-ranked remaining entry it has not met (or, having met all, the
    best-ranked remaining), and tables are numbered in the order pairs are made.
    """
    _check_entries(entries)
    if sorted(ranking) != list(range(1, entries + 1)):
        raise ValueError("the ranking lists every entry once")
    active = [entry for entry in ranking if entry not in withdrawn]
    met = {frozenset(table.entries) for pairing in previous for table in pairing.tables}
    byes: list[int] = []
    if len(active) % 2:
        counts = dict.fromkeys(active, 0)
        for pairing in previous:
            for entry in pairing.byes:
                if entry in counts:
                    counts[entry] += 1
        fewest = min(counts.values())
        byes.append(next(e for e in reversed(active) if counts[e] == fewest))
        active.remove(byes[0])
    tables: list[Table] = []
    while active:
        first = active.pop(0)
        second = next((e for e in active if frozenset((first, e)) not in met), active[0])
        active.remove(second)
        tables.append(Table(len(tables) + 1, first, second))
    return Pairing(len(previous) + 1, tuple(tables), tuple(byes))


def _seat(
    tables: list[Table],
    byes: list[int],
    number: int,
    first: int,
    second: int | None,
    withdrawn: Collection[int],
) -> None:
    """Seat two entries at table `number`; one facing an empty or withdrawn seat has the
    bye, and a withdrawn entry is left out."""
    playing = [entry for entry in (first, second) if entry is not None and entry not in withdrawn]
    if len(playing) == 2:
        tables.append(Table(number, playing[0], playing[1]))
    else:
        byes.extend(playing)


def _mitchell_tables(entries: int) -> int:
    _check_entries(entries)
    return (entries + 1) // 2


def _check_entries(entries: int) -> None:
    if entries < 2:
        raise ValueError("a movement needs at least two entries")


def _check_round(round_number: int, most: int) -> None:
    if not 1 <= round_number <= most:
        raise ValueError(f"the movement has rounds 1 to {most}")
