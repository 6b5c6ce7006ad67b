"""Reading a match: its frozen rules, its seating, the running totals and the scoreboard."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from ..extensions import db
from ..models import Hand, HandSide, Match, Side, SideMember
from ..rules import (
    GameResult,
    MeldRequirement,
    Rules,
    game_result,
    meld_requirement,
    rules_from_json,
)

MAX_ID = 2**31 - 1  # the largest id every supported database can hold
ABANDONED = "abandoned"  # a match given up: no more hands, kept in the history


@dataclass(frozen=True)
class SideView:
    seat: int
    name: str
    players: list[str]
    total: int
    lead: int
    next_meld: MeldRequirement
    progress: int
    winner: bool


@dataclass(frozen=True)
class HandRow:
    number: int
    dealer: str
    totals: list[int]
    running: list[int]
    version: int
    id: int


@dataclass(frozen=True)
class MatchState:
    match: Match
    rules: Rules
    sides: list[SideView]
    hands: list[HandRow]
    result: GameResult
    next_number: int
    next_dealer: str
    table_order: list[str]

    @property
    def finished(self) -> bool:
        return self.result.finished


def valid_id(match_id: int) -> bool:
    return 0 < match_id <= MAX_ID


def load_match(match_id: int) -> Match | None:
    """A match with its seats, hands and audit trail, or None."""
    if not valid_id(match_id):
        return None
    return db.session.execute(
        select(Match)
        .where(Match.id == match_id)
        .options(
            selectinload(Match.sides).selectinload(Side.members).selectinload(SideMember.player),
            selectinload(Match.hands).selectinload(Hand.sides),
            selectinload(Match.audit),
        )
    ).scalar_one_or_none()


def match_rules(match: Match) -> Rules:
    return rules_from_json(match.rules)


def table_order(match: Match) -> list[str]:
    """Players in seating order, clockwise: the deal passes along this list."""
    return [
        side.members[position].player.name
        for position in range(match.players_per_side)
        for side in match.sides
    ]


def dealer_of(match: Match, order: list[str], number: int) -> str:
    """Who deals hand `number`: one seat clockwise per hand from the first dealer."""
    return order[(match.first_dealer + number - 1) % len(order)]


def side_names(match: Match) -> list[str]:
    return [side.name for side in match.sides]


def running_totals(hands: Sequence[Sequence[int]], sides: int) -> list[list[int]]:
    running = [0] * sides
    out = []
    for totals in hands:
        running = [r + t for r, t in zip(running, totals, strict=True)]
        out.append(running)
    return out


def hand_totals(match_id: int, sides: int) -> list[list[int]]:
    """Each hand's total by seat, in hand order, in one query."""
    rows = db.session.execute(
        select(Hand.number, HandSide.seat, HandSide.total)
        .join(HandSide, HandSide.hand_id == Hand.id)
        .where(Hand.match_id == match_id)
        .order_by(Hand.number, HandSide.seat)
    ).all()
    by_hand: dict[int, list[int]] = {}
    for number, seat, total in rows:
        by_hand.setdefault(number, [0] * sides)[seat] = total
    return [by_hand[number] for number in sorted(by_hand)]


def final_totals(match_ids: Sequence[int]) -> dict[int, list[int]]:
    """Each match's totals by seat, in one query."""
    if not match_ids:
        return {}
    rows = db.session.execute(
        select(Hand.match_id, HandSide.seat, func.sum(HandSide.total))
        .join(HandSide, HandSide.hand_id == Hand.id)
        .where(Hand.match_id.in_(match_ids))
        .group_by(Hand.match_id, HandSide.seat)
    ).all()
    totals: dict[int, dict[int, int]] = {}
    for match_id, seat, total in rows:
        totals.setdefault(match_id, {})[seat] = int(total)
    return {mid: [seats[s] for s in sorted(seats)] for mid, seats in totals.items()}


def match_state(match: Match) -> MatchState:
    """The scoreboard of a match loaded with `load_match`."""
    rules = match_rules(match)
    count = len(match.sides)
    per_hand = [[s.total for s in hand.sides] for hand in match.hands]
    running = running_totals(per_hand, count)
    final = running[-1] if running else [0] * count
    result = game_result(rules, final)
    order = table_order(match)
    rows = [
        HandRow(
            hand.number, dealer_of(match, order, hand.number), totals, run, hand.version, hand.id
        )
        for hand, totals, run in zip(match.hands, per_hand, running, strict=True)
    ]
    sides = []
    for seat, side in enumerate(match.sides):
        others = [t for i, t in enumerate(final) if i != seat]
        sides.append(
            SideView(
                seat=seat,
                name=side.name,
                players=[m.player.name for m in side.members],
                total=final[seat],
                lead=final[seat] - max(others) if others else 0,
                next_meld=meld_requirement(rules, final[seat]),
                progress=max(0, min(100, final[seat] * 100 // rules.target)),
                winner=result.winner == seat,
            )
        )
    next_number = len(match.hands) + 1
    return MatchState(
        match=match,
        rules=rules,
        sides=sides,
        hands=rows,
        result=result,
        next_number=next_number,
        next_dealer=dealer_of(match, order, next_number),
        table_order=order,
    )
