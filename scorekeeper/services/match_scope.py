"""Which matches a season's filter takes in: a league's (its group, games and period),
for the history and the statistics (and an event's table matches, once events exist:
they make a `MatchScope` of their own and every filter takes it as it takes a league's).

A league's period is in evenings: the dates, in the server's time zone
(`SCOREKEEPER_TIMEZONE`), on which matches finished. Stored times are UTC, so the
period becomes the UTC moments its first evening starts and the day after its last
starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from flask import current_app
from sqlalchemy import ColumnElement

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


@dataclass(frozen=True)
class ScopeChoice:
    """The season filter asked for in a URL (`league=ID`): as asked, and as a scope."""

    league: str = ""
    scope: MatchScope | None = None
    chosen: League | None = None


def read_scope(
    args: Mapping[str, str], leagues: Sequence[League], problems: dict[str, str]
) -> ScopeChoice:
    """`league=ID` among these leagues (the caller's); a problem noted at `league` when it
    names none of them. (An event's filter, `event=ID`, will be read here too.)"""
    raw = args.get("league", "").strip()[:12]
    if not raw:
        return ScopeChoice()
    found = next((league for league in leagues if str(league.id) == raw), None)
    if found is None:
        problems["league"] = gettext("Choose one of your groups' leagues")
        return ScopeChoice(raw)
    return ScopeChoice(raw, league_scope(found), found)
