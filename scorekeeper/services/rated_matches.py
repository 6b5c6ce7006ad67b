"""Finished matches as ratings and leagues read them (`clubs.FinishedMatch`).

A match counts once it is won ("finished") or drawn, with its `finished_at` set;
abandoned matches and matches in progress never count. Its family is the one its
frozen rules name (rules frozen before they named one take their preset's). Read in
bulk, in three queries whatever their number: the matches, their seats, their totals.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, func, select

from ..clubs import FinishedMatch
from ..extensions import db
from ..models import Hand, HandSide, Match, MatchStatus, Side, SideMember
from ..rules import PRESETS, GameFamily

log = logging.getLogger(__name__)

COUNTED = (MatchStatus.FINISHED, MatchStatus.DRAWN)
FAMILIES = frozenset(GameFamily)


def counted_conditions() -> list[ColumnElement[bool]]:
    """The conditions of a match that counts (on `Match`)."""
    return [Match.status.in_(COUNTED), Match.finished_at.is_not(None)]


def is_counted(match: Match) -> bool:
    return match.status in COUNTED and match.finished_at is not None


def family_of(variant: str, named: object) -> GameFamily | None:
    """A match's family: what its frozen rules name, else its preset's."""
    if isinstance(named, str) and named in FAMILIES:
        return GameFamily(named)
    preset = PRESETS.get(variant)
    return preset.family if preset is not None else None


@dataclass(frozen=True)
class CountedMatch:
    """A finished match with its game (leagues filter and show it)."""

    match: FinishedMatch
    variant: str


def finished_match(match: Match) -> FinishedMatch | None:
    """A match loaded with its sides and hands (`match_state.load_match`), as the club
    core reads it; None when it does not count (or cannot be read: logged)."""
    if not is_counted(match):
        return None
    assert match.finished_at is not None
    family = family_of(match.variant, match.rules.get("family"))
    totals = [0] * len(match.sides)
    for hand in match.hands:
        for side in hand.sides:
            totals[side.seat] += side.total
    sides = tuple(tuple(m.player_id for m in side.members) for side in match.sides)
    return _built(match.id, match.finished_at, family, sides, tuple(totals), match.winner)


def _built(
    match_id: int,
    finished_at: datetime,
    family: GameFamily | None,
    sides: tuple[tuple[int, ...], ...],
    totals: tuple[int, ...],
    winner: int | None,
) -> FinishedMatch | None:
    try:
        if family is None:
            raise ValueError("its game belongs to no family this server knows")
        return FinishedMatch(match_id, finished_at, family, sides, totals, winner)
    except ValueError as error:
        log.error("Match %s is left out of ratings and leagues: %s", match_id, error)
        return None


def counted_matches(where: Sequence[ColumnElement[bool]]) -> list[CountedMatch]:
    """Every match that counts and meets `where` (conditions on `Match`), in the order
    they finished, in three queries."""
    conditions = [*counted_conditions(), *where]
    rows = db.session.execute(
        select(
            Match.id,
            Match.variant,
            Match.rules["family"].as_string(),
            Match.winner,
            Match.finished_at,
        )
        .where(*conditions)
        .order_by(Match.finished_at, Match.id)
    ).all()
    chosen = select(Match.id).where(*conditions)
    seats: defaultdict[int, defaultdict[int, list[tuple[int, int]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for match_id, seat, position, player_id in db.session.execute(
        select(Side.match_id, Side.seat, SideMember.position, SideMember.player_id)
        .join(SideMember, SideMember.side_id == Side.id)
        .where(Side.match_id.in_(chosen))
    ):
        seats[match_id][seat].append((position, player_id))
    totals: defaultdict[int, dict[int, int]] = defaultdict(dict)
    for match_id, seat, total in db.session.execute(
        select(Hand.match_id, HandSide.seat, func.sum(HandSide.total))
        .join(HandSide, HandSide.hand_id == Hand.id)
        .where(Hand.match_id.in_(chosen))
        .group_by(Hand.match_id, HandSide.seat)
    ):
        totals[match_id][seat] = int(total)
    found = []
    for match_id, variant, named, winner, finished_at in rows:
        order = sorted(seats[match_id])
        sides = tuple(tuple(p for _, p in sorted(seats[match_id][s])) for s in order)
        scored = tuple(totals[match_id].get(seat, 0) for seat in order)
        built = _built(match_id, finished_at, family_of(variant, named), sides, scored, winner)
        if built is not None:
            found.append(CountedMatch(built, variant))
    return found
