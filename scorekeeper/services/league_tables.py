"""A league's standings, a player's league card, and the league state of the API.

The points are gathered by the league's scoring and handed to the club core
(`clubs.league_standings`), which adds them up per evening, moves the credited
substitutes' evenings and ranks:

- `wdl`: every finished match of the group in the period and games (`wdl_points`);
- `vp`: the VP of the group's events (`event_points`).

A page costs the same few queries whatever the number of matches: the players' names,
the credits, the matches (three), and for the rating column the ratings.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import select

from ..clubs import (
    EveningPoints,
    LeagueRow,
    LeagueScoring,
    LeagueSettings,
    SubstituteCredit,
    counted_evenings,
    evening_of,
    league_standings,
    wdl_points,
)
from ..extensions import db
from ..models import Player, Side
from ..rules import PRESETS, GameFamily
from ..season_models import League
from . import leagues
from .event_points import league_event_points
from .match_scope import league_scope, server_zone
from .rated_matches import CountedMatch, counted_matches


@dataclass(frozen=True)
class CreditView:
    id: int
    evening: date
    substitute: int
    replaced: int


@dataclass(frozen=True)
class LeagueTable:
    """A league's standings as they stand now, and what they were made from."""

    league: League
    evenings: tuple[date, ...]
    rows: tuple[LeagueRow, ...]
    names: Mapping[int, str]
    credits: tuple[CreditView, ...]
    matches: tuple[CountedMatch, ...]  # `wdl`: the matches that count
    points: tuple[EveningPoints, ...]  # what each player earned, before any credit
    zone: ZoneInfo
    events: Mapping[int, str]  # `vp`: the names of the events that earned the points

    @property
    def played(self) -> dict[date, set[int]]:
        """Who played on each evening of the period, before any credit (a substitute is
        credited from here)."""
        found: defaultdict[date, set[int]] = defaultdict(set)
        for item in self.points:
            if self.league.start <= item.evening <= self.league.end:
                found[item.evening].add(item.player)
        return dict(found)

    def counted(self, row: LeagueRow) -> tuple[bool, ...]:
        """Which of the row's evenings make its points (best N of M)."""
        return counted_evenings(row.per_evening, self.league.best_of)

    def family(self) -> GameFamily | None:
        """The family whose ratings the league shows: its games' when they are of one
        family, else the one most of its matches were played in; None without either."""
        families = {PRESETS[key].family for key in leagues.variants_of(self.league)}
        if len(families) == 1:
            return families.pop()
        played = Counter(counted.match.family for counted in self.matches)
        if not played:
            return None
        order = list(GameFamily)
        return min(played, key=lambda family: (-played[family], order.index(family)))


def settings_of(league: League) -> LeagueSettings:
    return LeagueSettings(
        league.start, league.end, LeagueScoring(league.scoring), league.best_of, league.min_evenings
    )


def event_points(league: League, zone: ZoneInfo) -> tuple[list[EveningPoints], dict[int, str]]:
    """(evening, player, VP, event) of the group's events whose evening (the date their
    round 1 started, in `zone`) is in the league's period and whose game is one of the
    league's: each entry's VP (byes and penalties included, finished tables only) to each
    of its players (`clubs.entry_points`), read in a fixed number of queries; and the
    events' names."""
    variants = leagues.variants_of(league)
    return league_event_points(league.group_id, variants, league.start, league.end, zone)


def league_table(league: League) -> LeagueTable:
    zone = server_zone()
    names = dict(
        db.session.execute(
            select(Player.id, Player.name).where(Player.group_id == league.group_id)
        ).all()
    )
    credits = tuple(
        CreditView(c.id, c.evening, c.substitute_id, c.replaced_id)
        for c in leagues.credits_of(league.id)
    )
    matches: tuple[CountedMatch, ...] = ()
    events: dict[int, str] = {}
    if league.scoring == LeagueScoring.WDL:
        matches = tuple(counted_matches(league_scope(league, zone).conditions()))
        points = [
            item
            for counted in matches
            for item in wdl_points(counted.match, evening_of(counted.match.finished_at, zone))
        ]
    else:
        points, events = event_points(league, zone)
    standings = league_standings(
        settings_of(league),
        points,
        names,
        [SubstituteCredit(c.evening, c.substitute, c.replaced) for c in credits],
    )
    return LeagueTable(
        league,
        standings.evenings,
        standings.rows,
        names,
        credits,
        matches,
        tuple(points),
        zone,
        events,
    )


def state_json(table: LeagueTable) -> dict[str, Any]:
    """The league state of the API (CLUBS.md, "API (contract for leagues and ratings)")."""
    league = table.league
    return {
        "id": league.id,
        "name": league.name,
        "group": league.group_id,
        "start": league.start.isoformat(),
        "end": league.end.isoformat(),
        "variants": leagues.variants_of(league),
        "scoring": league.scoring,
        "best_of": league.best_of,
        "min_evenings": league.min_evenings,
        "evenings": [evening.isoformat() for evening in table.evenings],
        "standings": [
            {
                "rank": row.rank,
                "player": row.player,
                "name": table.names[row.player],
                "points": row.points,
                "evenings": row.evenings,
                "per_evening": list(row.per_evening),
                "ranked": row.ranked,
            }
            for row in table.rows
        ],
    }


def tag_of(content: str | bytes) -> str:
    """An ETag naming these exact bytes: a poll gets 304 while they are the same."""
    raw = content.encode() if isinstance(content, str) else content
    return hashlib.sha256(raw).hexdigest()[:32]


def json_tag(data: object) -> str:
    return tag_of(json.dumps(data, sort_keys=True, separators=(",", ":")))


def standings_csv(table: LeagueTable) -> str:
    """The standings as a spreadsheet: a row per player, a column per evening."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["rank", "player", "points", "evenings", "ranked"]
        + [evening.isoformat() for evening in table.evenings]
    )
    for row in table.rows:
        writer.writerow(
            [
                row.rank if row.rank is not None else "",
                table.names[row.player],
                row.points,
                row.evenings,
                "yes" if row.ranked else "no",
                *("" if points is None else points for points in row.per_evening),
            ]
        )
    return out.getvalue()


# --- a player's card ------------------------------------------------------------------


@dataclass(frozen=True)
class CardMatch:
    match_id: int
    variant: str
    player: int  # who sat: the card's player, or a substitute credited to them
    sides: tuple[str, ...]
    points: int  # 2 won, 1 drawn, 0 lost


@dataclass(frozen=True)
class CardEvent:
    event_id: int
    name: str
    player: int  # who played: the card's player, or a substitute credited to them
    points: int  # the entry's VP


@dataclass(frozen=True)
class CardEvening:
    evening: date
    points: int | None
    counted: bool
    substitutes: tuple[int, ...]  # credited to this player that evening
    went_to: int | None  # the player this one's evening was credited to
    matches: tuple[CardMatch, ...]
    events: tuple[CardEvent, ...]  # `vp`: each event of the evening and its VP


def card(table: LeagueTable, player_id: int) -> tuple[LeagueRow | None, list[CardEvening]]:
    """A player's evenings in the league: points, whether they count, who sat for them,
    and each match (`wdl`, in one query: the sides' names) or event (`vp`) of the evening."""
    row = next((r for r in table.rows if r.player == player_id), None)
    substitutes: defaultdict[date, list[int]] = defaultdict(list)
    went_to: dict[date, int] = {}
    for credit in table.credits:
        if credit.replaced == player_id:
            substitutes[credit.evening].append(credit.substitute)
        if credit.substitute == player_id:
            went_to[credit.evening] = credit.replaced
    mine: defaultdict[date, list[tuple[CountedMatch, int]]] = defaultdict(list)
    for counted in table.matches:
        evening = evening_of(counted.match.finished_at, table.zone)
        seated = {p for side in counted.match.sides for p in side}
        if player_id in seated and evening not in went_to:
            mine[evening].append((counted, player_id))
        for substitute in substitutes.get(evening, ()):
            if substitute in seated:
                mine[evening].append((counted, substitute))
    played: defaultdict[date, list[CardEvent]] = defaultdict(list)
    for item in table.points:
        mine_then = item.player == player_id and item.evening not in went_to
        if item.event is not None and (
            mine_then or item.player in substitutes.get(item.evening, ())
        ):
            name = table.events[item.event]
            played[item.evening].append(CardEvent(item.event, name, item.player, item.points))
    side_names = _side_names([counted.match.id for items in mine.values() for counted, _ in items])
    counted_flags = table.counted(row) if row else ()
    evenings = []
    for index, evening in enumerate(table.evenings):
        points = row.per_evening[index] if row else None
        matches = tuple(
            CardMatch(
                counted.match.id,
                counted.variant,
                who,
                side_names.get(counted.match.id, ()),
                _points_of(counted, who),
            )
            for counted, who in mine.get(evening, [])
        )
        events = tuple(played.get(evening, ()))
        if points is None and evening not in went_to and not matches and not events:
            continue
        evenings.append(
            CardEvening(
                evening,
                points,
                bool(counted_flags and counted_flags[index]),
                tuple(substitutes.get(evening, ())),
                went_to.get(evening),
                matches,
                events,
            )
        )
    return row, evenings


def _points_of(counted: CountedMatch, player: int) -> int:
    return next(
        item.points
        for item in wdl_points(counted.match, evening_of(counted.match.finished_at))
        if item.player == player
    )


def _side_names(match_ids: Sequence[int]) -> dict[int, tuple[str, ...]]:
    if not match_ids:
        return {}
    found: defaultdict[int, dict[int, str]] = defaultdict(dict)
    for match_id, seat, name in db.session.execute(
        select(Side.match_id, Side.seat, Side.name).where(Side.match_id.in_(match_ids))
    ):
        found[match_id][seat] = name
    return {m: tuple(names[s] for s in sorted(names)) for m, names in found.items()}
