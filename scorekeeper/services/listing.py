"""Lists of matches for the home and history pages: a fixed number of light queries."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, func, select, tuple_

from .. import words
from ..extensions import db
from ..models import Hand, HandSide, Match, MatchStatus, Player, Side, SideMember, name_key
from .events import mark_text, table_marks

PAGE_SIZE = 20
# No longer played: in the history, not on the home page.
DONE = (MatchStatus.FINISHED, MatchStatus.DRAWN, MatchStatus.ABANDONED)
PLAYED_OUT = (MatchStatus.FINISHED, MatchStatus.DRAWN)  # won or drawn, not abandoned


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
    event: str | None = None  # a table match: its event, round and table

    @property
    def winner_name(self) -> str | None:
        return self.sides[self.winner] if self.winner is not None else None


@dataclass(frozen=True)
class Cursor:
    """Where a page of the history starts: next to this match, in the history's order
    (finished_at, id): a keyset page, walked to along the index from here."""

    finished_at: datetime
    id: int

    def token(self) -> str:
        return f"{self.finished_at.isoformat()}_{self.id}"

    @classmethod
    def read(cls, raw: str) -> Cursor | None:
        """A cursor from its token (None for anything else: the first page is shown)."""
        moment, _, number = raw.partition("_")
        if not number.isascii() or not number.isdigit() or len(number) > 10:
            return None
        try:
            return cls(datetime.fromisoformat(moment), int(number))
        except ValueError:
            return None


@dataclass(frozen=True)
class HistoryPage:
    items: list[MatchSummary]
    total: int
    newer: Cursor | None  # the page before this one ends next to it (None: the first page)
    older: Cursor | None  # the page after it starts next to it (None: the last page)


def known_players(group_ids: list[int]) -> list[str]:
    """The names played under in these groups, each once."""
    names = db.session.execute(select(Player.name).where(Player.group_id.in_(group_ids))).scalars()
    return sorted(dict.fromkeys(names), key=name_key)


COLUMNS = (
    Match.id,
    Match.variant,
    Match.status,
    Match.winner,
    Match.created_at,
    Match.finished_at,
)  # what a list shows: never the rules or options JSON


def _summaries(ids: list[int]) -> list[MatchSummary]:
    """The summaries of these matches, in this order, in four queries whatever their
    number: the matches, their side names, their totals and hand counts, and the event
    of those that are tables of one."""
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
    marks = table_marks(ids)
    out = []
    for match_id in ids:
        row = rows[match_id]
        mark = marks.get(match_id)
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
                event=mark_text(mark) if mark is not None else None,
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
    *,
    abandoned: bool = True,
    where: Sequence[ColumnElement[bool]] = (),
    oldest_first: bool = False,
    after: Cursor | None = None,
    before: Cursor | None = None,
) -> HistoryPage:
    """A page of the finished (and abandoned) matches of these groups, newest first
    (`oldest_first`: oldest first), filtered (`where`: more conditions on the match, from
    `history_search`): those after the cursor `after` (the next page), or those before
    `before` (the page before), else the first page.

    A match no longer played has its finished_at set, so the index on (group,
    finished_at, id) walks them in order from the cursor: a far page costs what the first
    does. Only that page's matches are then read.
    """
    ids = select(Match.id).where(Match.group_id.in_(group_ids), Match.finished_at.is_not(None))
    if not abandoned:
        ids = ids.where(Match.status.in_(PLAYED_OUT))
    if variant:
        ids = ids.where(Match.variant == variant)
    if player:
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
    total = db.session.execute(select(func.count()).select_from(ids.subquery())).scalar_one()
    key = tuple_(Match.finished_at, Match.id)
    turned = after is None and before is not None  # walked back from `before`, then turned
    newest_first = oldest_first == turned  # the walk's direction along the index
    cursor = after or before
    if cursor is not None:
        at = tuple_(cursor.finished_at, cursor.id)
        ids = ids.where(key < at if newest_first else key > at)
    if newest_first:
        order = (Match.finished_at.desc(), Match.id.desc())
    else:
        order = (Match.finished_at.asc(), Match.id.asc())
    rows = [
        tuple(row)
        for row in db.session.execute(
            ids.add_columns(Match.finished_at).order_by(*order).limit(PAGE_SIZE + 1)
        )
    ]
    more = len(rows) > PAGE_SIZE  # beyond this page, in the walk's direction
    if (turned and not more) or (cursor is not None and not rows):
        # Back at the start, or past the end (a link from before changes): the first page.
        return history(
            group_ids, player, variant, abandoned=abandoned, where=where, oldest_first=oldest_first
        )
    rows = rows[:PAGE_SIZE]
    if turned:
        rows.reverse()
    first = Cursor(rows[0][1], rows[0][0]) if rows else None
    last = Cursor(rows[-1][1], rows[-1][0]) if rows else None
    has_newer = after is not None or (turned and more)
    has_older = (not turned and more) or (turned and bool(rows))
    return HistoryPage(
        _summaries([row[0] for row in rows]),
        total,
        newer=first if has_newer else None,
        older=last if has_older else None,
    )
