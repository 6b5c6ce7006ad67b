"""Which matches a season's filter takes in, for the history and the statistics: a
league's (its group, games and period) and an event's (its table matches); both can be
asked at once (the matches of the event that count in the league).

A league's period is in evenings: the dates, in the server's time zone
(`SCOREKEEPER_TIMEZONE`), on which matches finished. Stored times are UTC, so the
period becomes the UTC moments its first evening starts and the day after its last
starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from flask import current_app
from sqlalchemy import ColumnElement, select

from ..event_models import Event, EventTable
from ..models import Match
from ..season_models import League
from ..words.translate import gettext


def server_zone() -> ZoneInfo:
    """The time zone whose dates are evenings (checked when the app starts)."""
    return ZoneInfo(str(current_app.config.get("SCOREKEEPER_TIMEZONE") or "UTC"))


def evening_start(evening: date, zone: ZoneInfo) -> datetime:
    """When an evening (a date in the zone) begins, as stored times are: UTC, naive."""
    return datetime.combine(evening, time(), tzinfo=zone).astimezone(UTC).replace(tzinfo=None)


@dataclass(frozen=True)
class MatchScope:
    """Matches of one group, of some games (None: all), that finished in [since, before)
    (UTC, naive; None: open), and meeting `more` (further conditions on the match)."""

    group_id: int
    variants: tuple[str, ...] | None = None
    since: datetime | None = None
    before: datetime | None = None
    more: tuple[ColumnElement[bool], ...] = ()

    def conditions(self) -> list[ColumnElement[bool]]:
        found: list[ColumnElement[bool]] = [Match.group_id == self.group_id]
        if self.variants is not None:
            found.append(Match.variant.in_(self.variants))
        if self.since is not None:
            found.append(Match.finished_at >= self.since)
        if self.before is not None:
            found.append(Match.finished_at < self.before)
        return [*found, *self.more]


def league_scope(league: League, zone: ZoneInfo | None = None) -> MatchScope:
    zone = zone or server_zone()
    variants = tuple(league.variants) if league.variants is not None else None
    return MatchScope(
        league.group_id,
        variants,
        evening_start(league.start, zone),
        evening_start(league.end + timedelta(days=1), zone),
    )


def event_scope(event: Event) -> MatchScope:
    """The table matches of an event."""
    tables = select(EventTable.match_id).where(EventTable.event_id == event.id)
    return MatchScope(event.group_id, more=(Match.id.in_(tables),))


@dataclass(frozen=True)
class ScopeChoice:
    """The filters asked for in a URL (`league=ID`, `event=ID`): as asked, and as a scope."""

    league: str = ""
    scope: MatchScope | None = None
    chosen: League | None = None
    event: str = ""
    chosen_event: Event | None = None


def read_scope(
    args: Mapping[str, str],
    leagues: Sequence[League],
    problems: dict[str, str],
    events: Sequence[Event] = (),
) -> ScopeChoice:
    """`league=ID` among these leagues and `event=ID` among these events (the caller's);
    a problem noted at `league` or `event` when it names none of them."""
    raw = args.get("league", "").strip()[:12]
    raw_event = args.get("event", "").strip()[:12]
    found = next((league for league in leagues if str(league.id) == raw), None)
    if raw and found is None:
        problems["league"] = gettext("Choose one of your groups' leagues")
    event = next((event for event in events if str(event.id) == raw_event), None)
    if raw_event and event is None:
        problems["event"] = gettext("Choose one of your groups' events")
    scope = league_scope(found) if found is not None else None
    if event is not None:
        of_event = event_scope(event)
        scope = replace(scope, more=scope.more + of_event.more) if scope else of_event
    if (raw and found is None) or (raw_event and event is None):
        scope = None
    return ScopeChoice(raw, scope, found, raw_event, event)
