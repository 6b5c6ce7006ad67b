"""Lists of matches for the home and history pages: a fixed number of light queries."""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple, TypeVar

from sqlalchemy import ColumnElement, bindparam, func, select, update

from .. import words
from ..caches import cache
from ..extensions import db
from ..models import Group, Hand, HandSide, Match, Membership, Player, Side, SideMember, name_key
from ..rules.game import DRAWN, FINISHED
from .match_state import ABANDONED

T = TypeVar("T")

PAGE_SIZE = 20
DONE = (FINISHED, DRAWN, ABANDONED)  # no longer played: in the history, not on the home page
PLAYED_OUT = (FINISHED, DRAWN)  # played to the end (won or drawn), not abandoned


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


def touch_history(group_id: int | None) -> None:
    """A change the group's history or player list shows: its history revision moves
    on, so history pages kept for the old one are not served again (`kept_for_history`),
    and its history is counted again. Called after the change (the session flushes it
    first), so the count includes it."""
    if group_id is not None:
        held = (
            select(func.count())
            .select_from(Match)
            .where(Match.group_id == group_id, Match.finished_at.is_not(None))
            .scalar_subquery()
        )
        db.session.execute(
            update(Group)
            .where(Group.id == group_id)
            .values(history_revision=Group.history_revision + 1, history_matches=held),
            execution_options={"synchronize_session": False},
        )


def move_in_history(match_ids: Collection[int], step: int) -> None:
    """These matches enter (+1) or leave (-1) the history: each player seated at them
    moves by `step` for each of them they sat at, in one statement (called while the
    matches still have their seats)."""
    if not match_ids:
        return
    sat = (
        select(func.count(Side.match_id.distinct()))
        .join(SideMember, SideMember.side_id == Side.id)
        .where(SideMember.player_id == Player.id, Side.match_id.in_(match_ids))
        .scalar_subquery()
    )
    seated = (
        select(SideMember.player_id)
        .join(Side, Side.id == SideMember.side_id)
        .where(Side.match_id.in_(match_ids))
    )
    db.session.execute(
        update(Player)
        .where(Player.id.in_(seated))
        .values(history_matches=Player.history_matches + step * sat),
        execution_options={"synchronize_session": False},
    )


class Stamp(NamedTuple):
    """A group as its history pages are kept by: one history revision, one content."""

    group_id: int
    created: datetime  # ids may come again after a group is deleted: this tells them apart
    revision: int
    matches: int  # how many its history holds, counted at this revision


# Asked by every history page: built once, with a parameter.
STAMPS = (
    select(Group.id, Group.created_at, Group.history_revision, Group.history_matches)
    .join(Membership, Membership.group_id == Group.id)
    .where(Membership.user_id == bindparam("user_id"))
    .order_by(Group.id)
)


def history_stamps(user_id: int) -> tuple[Stamp, ...]:
    """The user's groups with their history revisions and counts, in one query."""
    return tuple(Stamp(*row) for row in db.session.execute(STAMPS, {"user_id": user_id}))


def known_players(group_ids: list[int]) -> list[str]:
    """The names played under in these groups, each once."""
    names = db.session.execute(select(Player.name).where(Player.group_id.in_(group_ids))).scalars()
    return sorted(dict.fromkeys(names), key=name_key)


def kept_for_history(stamps: tuple[Stamp, ...], what: Hashable, make: Callable[[], T]) -> T:
    """What a history page shows (`what` names it: a page of a search, the lists to
    filter by), made once per history revision of the groups it lists: every change it
    shows moves one of those on (`touch_history`), so what is kept is never stale, and
    many phones opening the history cost one listing."""
    return cache("pages").get(("history", stamps, what), make)


COLUMNS = (
    Match.id,
    Match.variant,
    Match.status,
    Match.winner,
    Match.created_at,
    Match.finished_at,
)  # what a list shows: never the rules or options JSON


def _summaries(ids: list[int]) -> list[MatchSummary]:
    """The summaries of these matches, in this order, in three queries whatever their
    number: the matches, their side names, their totals and hand counts."""
    if not ids:
        return []
    rows = {row.id: row for row in db.session.execute(select(*COLUMNS).where(Match.id.in_(ids)))}
    names: dict[int, dict[int, str]] = {}
    for match_id, seat, name in db.session.execute(
        select(Side.match_id, Side.seat, Side.name).where(Side.match_id.in_(ids))
    ):
        names.setdefault(match_id, {})[seat] = name
    totals: dict[int, dict[int, int]] = {}
    counts: dict[int, int] = {}
    for match_id, seat, total, hands in db.session.execute(
        select(Hand.match_id, HandSide.seat, func.sum(HandSide.total), func.count())
        .join(HandSide, HandSide.hand_id == Hand.id)
        .where(Hand.match_id.in_(ids))
        .group_by(Hand.match_id, HandSide.seat)
    ):
        totals.setdefault(match_id, {})[seat] = int(total)
        counts[match_id] = hands  # one hand side per seat: the same count for each seat
    out = []
    for match_id in ids:
        row = rows[match_id]
        sides = [names[match_id][seat] for seat in sorted(names.get(match_id, {}))]
        name = words.game_name(row.variant)
        scored = totals.get(match_id, {})
        out.append(
            MatchSummary(
                id=match_id,
                variant=row.variant,
                variant_name=name,
                sides=sides,
                totals=[scored.get(seat, 0) for seat in range(len(sides))],
                hands=counts.get(match_id, 0),
                status=row.status,
                winner=row.winner,
                started=row.created_at,
                finished=row.finished_at,
            )
        )
    return out


def in_progress(group_ids: list[int], limit: int = 20) -> list[MatchSummary]:
    """Matches being played in these groups, newest first (an unfinished match has no
    finished_at: the index on group and finished_at finds them)."""
    ids = db.session.execute(
        select(Match.id)
        .where(
            Match.group_id.in_(group_ids),
            Match.finished_at.is_(None),
            Match.status.not_in(DONE),
        )
        .order_by(Match.created_at.desc(), Match.id.desc())
        .limit(limit)
    ).scalars()
    return _summaries(list(ids))


def recent(group_ids: list[int], limit: int = 5) -> list[MatchSummary]:
    """The last matches played to the end (won or drawn, not abandoned) in these groups:
    the newest entries of the history index, whatever its length."""
    ids = db.session.execute(
        select(Match.id)
        .where(
            Match.group_id.in_(group_ids),
            Match.finished_at.is_not(None),
            Match.status.in_(PLAYED_OUT),
        )
        .order_by(Match.finished_at.desc(), Match.id.desc())
        .limit(limit)
    ).scalars()
    return _summaries(list(ids))


def history(
    group_ids: list[int],
    player: str | None = None,
    variant: str | None = None,
    page: int = 1,
    *,
    abandoned: bool = True,
    where: Sequence[ColumnElement[bool]] = (),
    oldest_first: bool = False,
    held: int | None = None,
) -> HistoryPage:
    """Finished (and abandoned) matches of these groups, newest first, filtered (`where`:
    more conditions on the match, from `history_search`, checked in the same id query).
    `held`: how many the groups' whole history holds, when known (their `Stamp`s): the
    unfiltered history is then not counted, nor is one player's (their kept counts).

    A match no longer played has its finished_at set, so the index on (group, finished_at,
    id) walks them in order; the page's ids are found from the index alone, walked to
    from the nearer end, then only those matches are read.
    """
    # finished_at is set exactly when a match is no longer played (finished, drawn or
    # abandoned: `game_end`, `match_admin`, checked on import), so the whole history
    # needs no test of the status, which a count of 10,000 matches pays for per match.
    ids = select(Match.id).where(Match.group_id.in_(group_ids), Match.finished_at.is_not(None))
    if not abandoned:
        ids = ids.where(Match.status.in_(PLAYED_OUT))
    if variant:
        ids = ids.where(Match.variant == variant)
    if player:
        # Walked from the newest match of the index: is the player seated at it? (an
        # index probe per match, so a page never reads all of a player's matches)
        players = select(Player.id).where(
            Player.group_id.in_(group_ids), Player.name_key == name_key(player)
        )
        seated = (
            select(Side.id)
            .join(SideMember, SideMember.side_id == Side.id)
            .where(Side.match_id == Match.id, SideMember.player_id.in_(players))
            .exists()
        )
        ids = ids.where(seated)
    if where:
        ids = ids.where(*where)
    # The whole history and one player's are counted as matches enter and leave it.
    kept = not (variant or where) and abandoned
    if kept and player:
        total = db.session.execute(
            select(func.coalesce(func.sum(Player.history_matches), 0)).where(
                Player.group_id.in_(group_ids), Player.name_key == name_key(player)
            )
        ).scalar_one()
    elif kept and held is not None:
        total = held
    else:
        total = db.session.execute(select(func.count()).select_from(ids.subquery())).scalar_one()
    pages = max(1, -(-total // PAGE_SIZE))
    page = max(page, 1)
    start, end = (page - 1) * PAGE_SIZE, min(page * PAGE_SIZE, total)
    # A page past the middle is walked to from the other end of the index (page 400 of
    # 500 skips 2,000 rows, not 8,000), then put back in the order asked for.
    from_end = start > total - end
    ascending = oldest_first != from_end  # the walk's direction along the index
    order = (
        (Match.finished_at.asc(), Match.id.asc())
        if ascending
        else (Match.finished_at.desc(), Match.id.desc())
    )
    chosen: list[int] = []
    if start < end:
        chosen = list(
            db.session.execute(
                ids.order_by(*order).limit(end - start).offset(total - end if from_end else start)
            ).scalars()
        )
    if from_end:
        chosen.reverse()
    return HistoryPage(_summaries(chosen), page, pages, total)
