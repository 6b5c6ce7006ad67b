"""Reading an event: its entries, rounds and tables with their matches' results, the
standings and each entry's card, in a fixed number of queries however big it grows.

A table counts once its match is over (won or drawn): its match points are the
match's final totals and its VP come from them by the event's VP table, so a
correction of any hand moves the standings at once. Pairings are stored as they
were made and never read from the standings again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from ..clubs import (
    Bye,
    CardLine,
    EventResults,
    Movement,
    Penalty,
    StandingsRow,
    TableResult,
    VPTable,
    entry_card,
    read_vp_table,
    standings,
)
from ..clubs import Entry as EntryNumber
from ..event_models import Entry, EntryMember, Event, EventRound, EventStatus, EventTable
from ..extensions import db
from ..ids import valid_id
from ..models import AuditEntry, Hand, HandSide, Match, MatchStatus, side_name_of
from .audit import CHANGES

OVER = (MatchStatus.FINISHED, MatchStatus.DRAWN)


def event_etag(event_id: int, revision: int, matches: int) -> str:
    """Names one state of an event: its own writes (`revision`) and its table matches'
    (the sum of their revisions: every write to a match moves its revision on)."""
    return f"e{event_id}.{revision}.{matches}"


def entry_label(entry: Entry) -> str:
    """An entry as lists show it: its name, else its players ("Ann & Bob")."""
    return entry.name or side_name_of([member.player.name for member in entry.members])


def entry_players(entry: Entry) -> list[str]:
    return [member.player.name for member in entry.members]


@dataclass(frozen=True)
class TableView:
    """A table of a round with where its match stands; `mp` are the totals so far, `vp`
    the shares once the match is over (None before)."""

    round: int
    number: int
    first: Entry
    second: Entry
    match_id: int
    status: str
    hands: int
    mp: tuple[int, int]
    vp: tuple[int, int] | None

    @property
    def over(self) -> bool:
        return self.status in OVER


@dataclass(frozen=True)
class RoundView:
    number: int
    started_at: datetime
    tables: list[TableView]
    byes: list[Entry]

    @property
    def playing(self) -> list[TableView]:
        return [table for table in self.tables if not table.over]


@dataclass(frozen=True)
class LateChange:
    """A hand of a table changed after the next round was paired: the standings follow,
    the pairings made stay."""

    round: int
    table: int
    match_id: int
    hand: int
    action: str
    at: datetime


@dataclass
class EventView:
    event: Event
    rounds: list[RoundView]
    etag: str
    late: list[LateChange] = field(default_factory=list)

    @cached_property
    def entries(self) -> list[Entry]:
        return list(self.event.entries)

    @cached_property
    def by_number(self) -> dict[int, Entry]:
        return {entry.number: entry for entry in self.entries}

    @cached_property
    def vp_table(self) -> VPTable:
        return read_vp_table(self.event.vp_table)

    @property
    def movement(self) -> Movement:
        return Movement(self.event.movement)

    @property
    def round(self) -> int:
        """Rounds started so far."""
        return len(self.rounds)

    @property
    def current(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def status(self) -> EventStatus:
        """Finished once every round was played and every table is over."""
        if self.event.status == EventStatus.SETUP:
            return EventStatus.SETUP
        done = self.round >= self.event.rounds and not self.playing_tables
        return EventStatus.FINISHED if done else EventStatus.PLAYING

    @property
    def playing_tables(self) -> list[TableView]:
        """Tables not yet over, of every round (a correction can reopen an earlier one)."""
        return [table for played in self.rounds for table in played.playing]

    @cached_property
    def results(self) -> EventResults:
        """What the standings are made of: tables over, byes, penalties."""
        tables = tuple(
            TableResult(t.round, t.first.number, t.second.number, t.mp[0], t.mp[1])
            for played in self.rounds
            for t in played.tables
            if t.over
        )
        byes = tuple(
            Bye(played.number, entry.number) for played in self.rounds for entry in played.byes
        )
        numbers = {entry.id: entry.number for entry in self.entries}
        penalties = tuple(Penalty(numbers[p.entry_id], p.vp) for p in self.event.penalties)
        return EventResults(
            entries=tuple(EntryNumber(e.number, e.withdrawn) for e in self.entries),
            tables=tables,
            byes=byes,
            vp_table=self.vp_table,
            bye_vp=self.event.bye_vp,
            penalties=penalties,
        )

    @cached_property
    def standings(self) -> tuple[StandingsRow, ...]:
        return standings(self.results)

    def card(self, entry: Entry) -> tuple[CardLine, ...]:
        return entry_card(self.results, entry.number)

    def penalties_of(self, entry: Entry) -> int:
        return sum(p.vp for p in self.event.penalties if p.entry_id == entry.id)


def load_event(event_id: int) -> Event | None:
    """An event with its entries (and their players), rounds, tables and penalties, in a
    fixed number of queries. `populate_existing`: a write reads the event as it is now."""
    if not valid_id(event_id):
        return None
    return db.session.execute(
        select(Event)
        .where(Event.id == event_id)
        .options(
            selectinload(Event.entries).selectinload(Entry.members).joinedload(EntryMember.player),
            selectinload(Event.played).selectinload(EventRound.tables),
            selectinload(Event.penalties),
        )
        .execution_options(populate_existing=True)
    ).scalar_one_or_none()


@dataclass(frozen=True)
class TableMatches:
    """Each table match's (status, revision), and its totals by seat with its hand count
    last, for one event or several."""

    status: dict[int, tuple[str, int]]
    totals: dict[int, list[int]]


def table_matches(event_ids: list[int]) -> TableMatches:
    """The table matches of these events: two queries however many events and tables."""
    status = {
        match_id: (match_status, revision)
        for match_id, match_status, revision in db.session.execute(
            select(Match.id, Match.status, Match.revision)
            .join(EventTable, EventTable.match_id == Match.id)
            .where(EventTable.event_id.in_(event_ids))
        )
    }
    totals: dict[int, list[int]] = {}
    for match_id, seat, total, hands in db.session.execute(
        select(Hand.match_id, HandSide.seat, func.sum(HandSide.total), func.count())
        .join(HandSide, HandSide.hand_id == Hand.id)
        .join(EventTable, EventTable.match_id == Hand.match_id)
        .where(EventTable.event_id.in_(event_ids))
        .group_by(Hand.match_id, HandSide.seat)
    ):
        row = totals.setdefault(match_id, [0, 0, 0])
        if seat in (0, 1):
            row[seat] = int(total)
        row[2] = int(hands)
    return TableMatches(status, totals)


def _late_changes(event: Event, rounds: list[RoundView]) -> list[LateChange]:
    """Corrections and removals of a table's hands made after the next round was paired."""
    paired_next = {r.number: rounds[i + 1].started_at for i, r in enumerate(rounds[:-1])}
    where = {t.match_id: t for r in rounds for t in r.tables if r.number in paired_next}
    found = db.session.execute(
        select(AuditEntry.match_id, AuditEntry.hand_number, AuditEntry.action, AuditEntry.at)
        .join(EventTable, EventTable.match_id == AuditEntry.match_id)
        .where(EventTable.event_id == event.id, AuditEntry.action.in_(CHANGES))
        .order_by(AuditEntry.id)
    )
    late = []
    for match_id, hand, action, at in found:
        table = where.get(match_id)
        if table is not None and at >= paired_next[table.round]:
            late.append(LateChange(table.round, table.number, match_id, hand, action, at))
    return late


def event_view(
    event: Event, *, late: bool = False, matches: TableMatches | None = None
) -> EventView:
    """The event as pages and the API show it (`late`: with the corrections made after
    the next round was paired, one query more; `matches`: its table matches when already
    read with other events')."""
    found = matches or table_matches([event.id])
    status, totals = found.status, found.totals
    vp_table = read_vp_table(event.vp_table)
    by_id = {entry.id: entry for entry in event.entries}
    rounds = []
    for played in event.played:
        tables = []
        for table in played.tables:
            match_status, _ = status[table.match_id]
            first, second, hands = totals.get(table.match_id, [0, 0, 0])
            over = match_status in OVER
            tables.append(
                TableView(
                    round=played.number,
                    number=table.number,
                    first=by_id[table.first_id],
                    second=by_id[table.second_id],
                    match_id=table.match_id,
                    status=match_status,
                    hands=hands,
                    mp=(first, second),
                    vp=vp_table.shares(first, second) if over else None,
                )
            )
        byes = [by_id[entry_id] for entry_id in played.byes if entry_id in by_id]
        rounds.append(RoundView(played.number, played.started_at, tables, byes))
    revisions = sum(status[t.match_id][1] for played in event.played for t in played.tables)
    tag = event_etag(event.id, event.revision, revisions)
    view = EventView(event, rounds, tag)
    if late:
        view.late = _late_changes(event, rounds)
    return view
