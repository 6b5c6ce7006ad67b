"""Events as the rest of the app sees them: the lists of a group's events, the mark a
table match carries (its event, round and table) in the match state, the history and
statistics, and what changes to players and matches mean for events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select, update

from ..event_models import Entry, EntryMember, Event, EventRound, EventStatus, EventTable
from ..extensions import db
from ..models import Match, Player
from ..words.translate import gettext
from .event_state import OVER


@dataclass(frozen=True)
class EventSummary:
    id: int
    name: str
    group_id: int
    variant: str
    status: EventStatus
    round: int
    rounds: int
    created_at: datetime


@dataclass(frozen=True)
class TableMark:
    """Where a table match is played: its event, round and table."""

    event_id: int
    event_name: str
    round: int
    table: int

    def to_dict(self) -> dict[str, int]:
        return {"id": self.event_id, "round": self.round, "table": self.table}


def events_of(group_ids: Sequence[int]) -> list[EventSummary]:
    """The events of these groups, newest first, in three queries however many."""
    if not group_ids:
        return []
    rows = db.session.execute(
        select(
            Event.id,
            Event.name,
            Event.group_id,
            Event.variant,
            Event.status,
            Event.rounds,
            Event.created_at,
        )
        .where(Event.group_id.in_(list(group_ids)))
        .order_by(Event.id.desc())
    ).all()
    ids = [row.id for row in rows]
    started = dict(
        db.session.execute(
            select(EventRound.event_id, func.count())
            .where(EventRound.event_id.in_(ids))
            .group_by(EventRound.event_id)
        ).all()
    )
    playing = dict(
        db.session.execute(
            select(EventTable.event_id, func.count())
            .join(Match, Match.id == EventTable.match_id)
            .where(EventTable.event_id.in_(ids), Match.status.not_in(OVER))
            .group_by(EventTable.event_id)
        ).all()
    )
    out = []
    for row in rows:
        played = int(started.get(row.id, 0))
        status = EventStatus(row.status)
        if status != EventStatus.SETUP and played >= row.rounds and not playing.get(row.id):
            status = EventStatus.FINISHED
        out.append(
            EventSummary(
                row.id,
                row.name,
                row.group_id,
                row.variant,
                status,
                played,
                row.rounds,
                row.created_at,
            )
        )
    return out


def events_in(group_ids: Sequence[int]) -> list[Event]:
    """The events of these groups, newest first (for the filters of history and
    statistics): one query."""
    if not group_ids:
        return []
    return list(
        db.session.execute(
            select(Event).where(Event.group_id.in_(list(group_ids))).order_by(Event.id.desc())
        ).scalars()
    )


def table_marks(match_ids: Sequence[int]) -> dict[int, TableMark]:
    """The event, round and table of each of these matches that is a table match."""
    if not match_ids:
        return {}
    found = db.session.execute(
        select(EventTable.match_id, Event.id, Event.name, EventRound.number, EventTable.number)
        .join(EventRound, EventRound.id == EventTable.round_id)
        .join(Event, Event.id == EventTable.event_id)
        .where(EventTable.match_id.in_(list(match_ids)))
    )
    return {
        match_id: TableMark(event_id, name, round_number, table)
        for match_id, event_id, name, round_number, table in found
    }


def table_mark(match_id: int) -> TableMark | None:
    return table_marks([match_id]).get(match_id)


def mark_text(mark: TableMark) -> str:
    """ "Friday cup, round 2, table 3"."""
    return gettext(
        "%(event)s, round %(round)s, table %(table)s",
        event=mark.event_name,
        round=str(mark.round),
        table=str(mark.table),
    )


def kept_by_event(match_id: int) -> str | None:
    """Why a match may not be abandoned or deleted: it is a table of an event, whose
    round and standings depend on it (None: it is not)."""
    mark = table_mark(match_id)
    if mark is None:
        return None
    return gettext(
        "This match is table %(table)s of round %(round)s of %(event)s: the event needs it. "
        "Correct its hands instead (the director can withdraw an entry).",
        table=str(mark.table),
        round=str(mark.round),
        event=mark.event_name,
    )


def player_changed(player_id: int) -> None:
    """Events with this player in an entry show the change (their standings polls see a
    new state)."""
    with_player = select(Entry.event_id).join(EntryMember).where(EntryMember.player_id == player_id)
    db.session.execute(
        update(Event).where(Event.id.in_(with_player)).values(revision=Event.revision + 1),
        execution_options={"synchronize_session": False},
    )


def merge_entries(gone: Player, kept: Player) -> str | None:
    """Move `gone`'s places in entries to `kept` (before `gone` is deleted); a problem in
    words when both are in one event (two people, then)."""
    events_of_gone = (
        select(Entry.event_id).join(EntryMember).where(EntryMember.player_id == gone.id)
    )
    both = db.session.execute(
        select(func.count())
        .select_from(EntryMember)
        .join(Entry)
        .where(EntryMember.player_id == kept.id, Entry.event_id.in_(events_of_gone))
    ).scalar_one()
    if both:
        return gettext(
            "%(gone)s and %(kept)s play in the same event: they are two people.",
            gone=gone.name,
            kept=kept.name,
        )
    db.session.execute(
        update(EntryMember).where(EntryMember.player_id == gone.id).values(player_id=kept.id)
    )
    player_changed(kept.id)
    return None
