"""What a group's events earned their players, for a `vp` league: each entry's VP (byes
and penalties included, finished tables only) to each of its players, on the event's
evening (the date its round 1 started, in the server's time zone)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..clubs import EveningPoints, entry_points, evening_of
from ..event_models import Entry, Event, EventRound
from ..extensions import db
from .event_state import event_view, table_matches
from .match_scope import evening_start


def events_started(
    group_id: int, variants: Sequence[str], start: date, end: date, zone: ZoneInfo
) -> list[tuple[Event, datetime]]:
    """The group's events of these games whose round 1 started on an evening from `start`
    to `end` (in `zone`), with that moment; a fixed number of queries."""
    since, before = evening_start(start, zone), evening_start(end + timedelta(days=1), zone)
    found = db.session.execute(
        select(Event, EventRound.started_at)
        .join(EventRound, EventRound.event_id == Event.id)
        .where(
            Event.group_id == group_id,
            Event.variant.in_(list(variants)),
            EventRound.number == 1,
            EventRound.started_at >= since,
            EventRound.started_at < before,
        )
        .options(
            selectinload(Event.entries).selectinload(Entry.members),
            selectinload(Event.played).selectinload(EventRound.tables),
            selectinload(Event.penalties),
        )
        .order_by(EventRound.started_at, Event.id)
    ).all()
    return [(event, started) for event, started in found]


def league_event_points(
    group_id: int, variants: Sequence[str], start: date, end: date, zone: ZoneInfo
) -> tuple[list[EveningPoints], dict[int, str]]:
    """(evening, player, VP, event) of every entry's players in the group's events of the
    period, and the names of those events by id."""
    events = events_started(group_id, variants, start, end, zone)
    if not events:
        return [], {}
    matches = table_matches([event.id for event, _ in events])
    points: list[EveningPoints] = []
    for event, started in events:
        view = event_view(event, matches=matches)
        evening = evening_of(started, zone)
        for row in view.standings:
            players = [m.player_id for m in view.by_number[row.entry].members]
            points += entry_points(evening, players, row.vp, event.id)
    return points, {event.id: event.name for event, _ in events}
