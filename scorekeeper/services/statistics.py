"""Statistics of a group's matches, per player and per partnership, computed in the database.

Only matches played to the end count: won ("finished") or drawn. Abandoned matches and
matches in progress are left out. Players are counted by their id, never their name,
so a renamed player keeps their record (and a merged one takes the other's).

Every figure is an aggregate over one row per side of each match counted (`side_rows`):
a player's in SQL, a partnership's (keyed by its exact set of players) in
`partnerships`, so a page costs the same few queries for ten matches or ten thousand.
Definitions (docs/history.md): a side's *margin* is its final total minus the best final
total of the other sides; a *draw* is a side sharing the top of a drawn match (a side
below a shared top lost); *going out rate* is the hands the side went out in over the
hands it played; *canastas per hand* counts every kind of canasta the side recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import (
    CTE,
    ColumnElement,
    Subquery,
    and_,
    case,
    func,
    literal,
    select,
    true,
)

from ..extensions import db
from ..models import Hand, HandSide, Match, Player, Side, SideMember
from ..rules.game import DRAWN, FINISHED
from ..rules.hand import KNOWN_KINDS
from .match_scope import MatchScope
from .partnerships import partnership_records
from .stats_records import ORDER, Statistics, record_of


@dataclass(frozen=True)
class StatsFilter:
    """Which matches count: of these groups, optionally one variant, a period (dates
    inclusive, on the day a match ended, UTC), only those a player sat in, and only
    those of a league (`scope`: its group, games and evenings; an event's, once events
    exist)."""

    group_ids: tuple[int, ...]
    variant: str | None = None
    since: date | None = None
    until: date | None = None
    player_id: int | None = None
    scope: MatchScope | None = None


def _done_matches(where: StatsFilter) -> CTE:
    """The matches counted: played to the end, filtered."""
    query = select(Match.id, Match.status, Match.winner, Match.finished_at).where(
        Match.group_id.in_(where.group_ids),
        Match.finished_at.is_not(None),
        Match.status.in_((FINISHED, DRAWN)),
    )
    if where.variant:
        query = query.where(Match.variant == where.variant)
    if where.since:
        query = query.where(Match.finished_at >= datetime.combine(where.since, time()))
    if where.until:
        query = query.where(
            Match.finished_at < datetime.combine(where.until, time()) + timedelta(1)
        )
    if where.scope is not None:
        query = query.where(*where.scope.conditions())
    if where.player_id is not None:
        # The player's matches found once (not asked of each match: SQLite would walk
        # all the player's seats for every match).
        seated = (
            select(Side.match_id)
            .join(SideMember, SideMember.side_id == Side.id)
            .where(SideMember.player_id == where.player_id)
        )
        query = query.where(Match.id.in_(seated))
    return query.cte("done")


def _went_out() -> ColumnElement[int]:
    return case((HandSide.record["went_out"].as_boolean() == true(), 1), else_=0)


def _canastas() -> ColumnElement[int]:
    """Every kind of canasta a side recorded in a hand (the kinds of every preset)."""
    total: ColumnElement[int] = literal(0)
    for kind in KNOWN_KINDS:
        total = total + func.coalesce(HandSide.record[("canastas", kind)].as_integer(), 0)
    return total


def side_rows(where: StatsFilter) -> CTE:
    """One row per side of each match counted: its final total, best hand, hands played,
    hands it went out in, canastas, and whether it won, lost or drew, with its margin."""
    done = _done_matches(where)
    scored = (
        select(
            Hand.match_id,
            HandSide.seat,
            func.sum(HandSide.total).label("final"),
            func.max(HandSide.total).label("best"),
            func.count().label("hands"),
            func.sum(_went_out()).label("outs"),
            func.sum(_canastas()).label("canastas"),
        )
        .join(HandSide, HandSide.hand_id == Hand.id)
        .where(Hand.match_id.in_(select(done.c.id)))
        .group_by(Hand.match_id, HandSide.seat)
        .cte("scored")
    )
    top = (
        select(scored.c.match_id, func.max(scored.c.final).label("top"))
        .group_by(scored.c.match_id)
        .cte("top")
    )
    # The best final of the other sides, per side: joined, not a correlated subquery,
    # which SQLite ran as a scan of every match's totals for each side.
    rival = scored.alias("rival")
    rivals = (
        select(Side.match_id, Side.seat, func.max(rival.c.final).label("best"))
        .join(done, done.c.id == Side.match_id)
        .join(rival, and_(rival.c.match_id == Side.match_id, rival.c.seat != Side.seat))
        .group_by(Side.match_id, Side.seat)
        .cte("rivals")
    )
    final = func.coalesce(scored.c.final, 0)
    margin = final - func.coalesce(rivals.c.best, 0)
    drawn = and_(done.c.status == DRAWN, final >= top.c.top)
    won = and_(done.c.status == FINISHED, done.c.winner == Side.seat)
    return (
        select(
            Side.id.label("side_id"),
            Side.match_id,
            done.c.finished_at,
            final.label("final"),
            func.coalesce(scored.c.best, 0).label("best"),
            func.coalesce(scored.c.hands, 0).label("hands"),
            func.coalesce(scored.c.outs, 0).label("outs"),
            func.coalesce(scored.c.canastas, 0).label("canastas"),
            case((won, 1), else_=0).label("won"),
            case((drawn, 1), else_=0).label("drawn"),
            case((won, 0), (drawn, 0), else_=1).label("lost"),
            margin.label("margin"),
        )
        .join(done, done.c.id == Side.match_id)
        .outerjoin(scored, and_(scored.c.match_id == Side.match_id, scored.c.seat == Side.seat))
        .outerjoin(top, top.c.match_id == Side.match_id)
        .outerjoin(rivals, and_(rivals.c.match_id == Side.match_id, rivals.c.seat == Side.seat))
        .cte("side_rows")
        .prefix_with("MATERIALIZED")  # made once: SQLite's plan of it inlined was quadratic
    )


def _aggregates(rows: CTE) -> list[ColumnElement[Any]]:
    return [
        func.count().label("matches"),
        func.sum(rows.c.won).label("wins"),
        func.sum(rows.c.lost).label("losses"),
        func.sum(rows.c.drawn).label("draws"),
        func.sum(rows.c.margin).label("margin"),
        func.max(rows.c.best).label("best"),
        func.max(rows.c.final).label("highest"),
        func.sum(rows.c.hands).label("hands"),
        func.sum(rows.c.outs).label("outs"),
        func.sum(rows.c.canastas).label("canastas"),
    ]


def _streaks(source: Subquery, keys: tuple[str, ...]) -> dict[tuple[int, ...], tuple[int, int]]:
    """(current, longest) winning streak per key, in one query: runs of wins are found as
    "islands" (the rank among all matches minus the rank among wins is constant along a
    run of wins), each with its length and whether it ends at the latest match."""
    order = (source.c.finished_at, source.c.match_id)
    by = [source.c[key] for key in keys]
    ranked = select(
        *by,
        source.c.won,
        func.row_number().over(partition_by=by, order_by=order).label("rank_all"),
        func.row_number()
        .over(partition_by=[*by, source.c.won], order_by=order)
        .label("rank_result"),
        func.count().over(partition_by=by).label("played"),
    ).subquery("ranked")
    ranked_by = [ranked.c[key] for key in keys]
    island = (ranked.c.rank_all - ranked.c.rank_result).label("island")
    runs = (
        select(
            *ranked_by,
            func.count().label("length"),
            func.max(ranked.c.rank_all).label("last"),
            func.max(ranked.c.played).label("played"),
        )
        .where(ranked.c.won == 1)
        .group_by(*ranked_by, island)
        .subquery("runs")
    )
    runs_by = [runs.c[key] for key in keys]
    query = select(
        *runs_by,
        func.max(case((runs.c["last"] == runs.c.played, runs.c.length), else_=0)),
        func.max(runs.c.length),
    ).group_by(*runs_by)
    out = {}
    for row in db.session.execute(query):
        *key, current, longest = row
        out[tuple(int(k) for k in key)] = (int(current), int(longest))
    return out


def statistics(where: StatsFilter) -> Statistics:
    """Every player's and partnership's record in the matches counted, in five queries
    whatever their number: players' names, players, their streaks, partnerships, theirs."""
    names: dict[int, str] = {}
    groups: dict[int, int | None] = {}
    for player_id, name, group_id in db.session.execute(
        select(Player.id, Player.name, Player.group_id).where(Player.group_id.in_(where.group_ids))
    ):
        names[player_id], groups[player_id] = name, group_id
    rows = side_rows(where)
    seated = (
        select(SideMember.player_id, rows)
        .join(rows, rows.c.side_id == SideMember.side_id)
        .subquery("seated")
    )
    player_streaks = _streaks(seated, ("player_id",))
    players = []
    for row in db.session.execute(
        select(SideMember.player_id, *_aggregates(rows))
        .join(rows, rows.c.side_id == SideMember.side_id)
        .group_by(SideMember.player_id)
    ):
        current, longest = player_streaks.get((row.player_id,), (0, 0))
        players.append(record_of((row.player_id,), names, groups, row, current, longest))
    partnerships = partnership_records(rows, names, groups)
    return Statistics(sorted(players, key=ORDER), sorted(partnerships, key=ORDER))
