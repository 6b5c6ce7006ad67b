"""One player's or partnership's results against another, and over time (the chart of a
player's page), from the same rows as the group statistics (`statistics.side_rows`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import CTE, ColumnElement, and_, case, func, select

from ..extensions import db
from ..models import SideMember
from .statistics import StatsFilter, side_rows

TIMELINE_LENGTH = 50  # matches a player's chart shows at most (the latest)


@dataclass(frozen=True)
class HeadToHead:
    """Matches where side A and side B sat against each other, and how they ended."""

    matches: int
    a_wins: int
    b_wins: int
    draws: int  # both shared the top of a drawn match
    others: int  # won by a third side, or A and B both below a shared top


@dataclass(frozen=True)
class MatchResult:
    """One match of a player's, for the results-over-time chart (oldest first)."""

    match_id: int
    finished: datetime
    outcome: str  # "won", "lost" or "drawn"
    margin: int
    total: int


def _side_of(rows: CTE, players: tuple[int, ...]) -> ColumnElement[bool]:
    """The side rows of one player (whoever their partners), or of exactly these partners."""
    if len(players) == 1:
        sides = select(SideMember.side_id).where(SideMember.player_id == players[0])
        return rows.c.side_id.in_(sides)
    ours = case((SideMember.player_id.in_(players), 1), else_=0)
    exact = (  # the sides of exactly these players: as many members, all of them ours
        select(SideMember.side_id)
        .group_by(SideMember.side_id)
        .having(func.count() == len(players), func.sum(ours) == len(players))
    )
    return rows.c.side_id.in_(exact)


def head_to_head(where: StatsFilter, a: tuple[int, ...], b: tuple[int, ...]) -> HeadToHead:
    """How A fared against B (each a player or a partnership) when they sat on different
    sides of a match counted, in one query."""
    rows = side_rows(where)
    side_a, side_b = rows.alias("side_a"), rows.alias("side_b")
    both_drew = case((and_(side_a.c.drawn == 1, side_b.c.drawn == 1), 1), else_=0)
    row = db.session.execute(
        select(
            func.count(),
            func.coalesce(func.sum(side_a.c.won), 0),
            func.coalesce(func.sum(side_b.c.won), 0),
            func.coalesce(func.sum(both_drew), 0),
        )
        .select_from(side_a)
        .join(
            side_b,
            and_(side_a.c.match_id == side_b.c.match_id, side_a.c.side_id != side_b.c.side_id),
        )
        .where(_side_of(side_a, a), _side_of(side_b, b))
    ).one()
    matches, a_wins, b_wins, draws = (int(value) for value in row)
    return HeadToHead(matches, a_wins, b_wins, draws, matches - a_wins - b_wins - draws)


def timeline(
    where: StatsFilter, players: tuple[int, ...], *, together: bool = True
) -> list[MatchResult]:
    """The latest matches counted of a player (or of exactly these partners; with
    `together` False, of any of these players: one person's players in several groups),
    oldest first, at most TIMELINE_LENGTH, in one query."""
    rows = side_rows(where)
    if together:
        theirs = _side_of(rows, players)
    else:
        theirs = rows.c.side_id.in_(
            select(SideMember.side_id).where(SideMember.player_id.in_(players))
        )
    found = db.session.execute(
        select(
            rows.c.match_id,
            rows.c.finished_at,
            rows.c.won,
            rows.c.drawn,
            rows.c.margin,
            rows.c.final,
        )
        .where(theirs)
        .order_by(rows.c.finished_at.desc(), rows.c.match_id.desc())
        .limit(TIMELINE_LENGTH)
    ).all()
    return [
        MatchResult(
            match_id=match_id,
            finished=finished,
            outcome="won" if won else "drawn" if drawn else "lost",
            margin=int(margin),
            total=int(final),
        )
        for match_id, finished, won, drawn, margin, final in reversed(found)
    ]
