"""Lists of matches for the home and history pages, with totals in one query."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Select, func, select
from sqlalchemy.orm import defer, selectinload

from ..extensions import db
from ..models import Hand, Match, Player, Side, SideMember, name_key
from ..rules import PRESETS
from ..rules.game import FINISHED
from .match_state import ABANDONED, final_totals

PAGE_SIZE = 20
DONE = (FINISHED, ABANDONED)  # matches no longer played: in the history, not on the home page


@dataclass(frozen=True)
class MatchSummary:
    id: int
    variant: str
    variant_name: str
    sides: list[str]
    totals: list[int]
    hands: int
    status: str
    winner: int | None
    started: datetime
    finished: datetime | None

    @property
    def winner_name(self) -> str | None:
        return self.sides[self.winner] if self.winner is not None else None


@dataclass(frozen=True)
class HistoryPage:
    items: list[MatchSummary]
    page: int
    pages: int
    total: int


def _with_sides(query: Select) -> Select:
    """Matches with their sides and players, but not their rules or options (not shown)."""
    return query.options(
        defer(Match.rules),
        defer(Match.options),
        selectinload(Match.sides).selectinload(Side.members).selectinload(SideMember.player),
    )


def _summaries(matches: list[Match]) -> list[MatchSummary]:
    ids = [m.id for m in matches]
    totals = final_totals(ids)
    counts: dict[int, int] = {}
    if ids:
        counts = dict(
            db.session.execute(
                select(Hand.match_id, func.count())
                .where(Hand.match_id.in_(ids))
                .group_by(Hand.match_id)
            ).all()
        )
    out = []
    for match in matches:
        preset = PRESETS.get(match.variant)
        out.append(
            MatchSummary(
                id=match.id,
                variant=match.variant,
                variant_name=preset.name if preset else match.rules.get("name", match.variant),
                sides=[side.name for side in match.sides],
                totals=totals.get(match.id, [0] * len(match.sides)),
                hands=counts.get(match.id, 0),
                status=match.status,
                winner=match.winner,
                started=match.created_at,
                finished=match.finished_at,
            )
        )
    return out


def in_progress(group_ids: list[int], limit: int = 20) -> list[MatchSummary]:
    """Matches being played in these groups, newest first (an unfinished match has no
    finished_at: the index on group and finished_at finds them)."""
    query = _with_sides(
        select(Match)
        .where(
            Match.group_id.in_(group_ids),
            Match.finished_at.is_(None),
            Match.status.not_in(DONE),
        )
        .order_by(Match.created_at.desc())
        .limit(limit)
    )
    return _summaries(list(db.session.execute(query).scalars()))


def history(
    group_ids: list[int],
    player: str | None = None,
    variant: str | None = None,
    page: int = 1,
    *,
    abandoned: bool = True,
) -> HistoryPage:
    """Finished (and abandoned) matches of these groups, newest first, filtered.

    A match no longer played has its finished_at set, so the index on group and
    finished_at walks them in order; the page's ids are found from the index alone, then
    only those matches are read, so page 400 costs about what page 1 does.
    """
    done = Match.finished_at.is_not(None)
    statuses = DONE if abandoned else (FINISHED,)
    ids = select(Match.id).where(Match.group_id.in_(group_ids), done, Match.status.in_(statuses))
    if variant:
        ids = ids.where(Match.variant == variant)
    if player:
        seated = (
            select(Side.match_id)
            .join(SideMember, SideMember.side_id == Side.id)
            .join(Player, Player.id == SideMember.player_id)
            .where(Player.group_id.in_(group_ids), Player.name_key == name_key(player))
        )
        ids = ids.where(Match.id.in_(seated))
    total = db.session.execute(select(func.count()).select_from(ids.subquery())).scalar_one()
    pages = max(1, -(-total // PAGE_SIZE))
    page = max(page, 1)
    chosen = list(
        db.session.execute(
            ids.order_by(Match.finished_at.desc(), Match.id.desc())
            .limit(PAGE_SIZE)
            .offset((page - 1) * PAGE_SIZE)
        ).scalars()
    )
    matches = (
        {
            match.id: match
            for match in db.session.execute(_with_sides(select(Match).where(Match.id.in_(chosen))))
            .scalars()
            .all()
        }
        if chosen
        else {}
    )
    return HistoryPage(_summaries([matches[i] for i in chosen]), page, pages, total)
