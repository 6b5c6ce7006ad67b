"""Reading a match: its frozen rules, its seating, the running totals and the scoreboard."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlalchemy import bindparam, select
from sqlalchemy.orm import joinedload, selectinload

from .. import words
from ..cache import LruCache
from ..extensions import db
from ..ids import valid_id
from ..models import Hand, Match, MatchStatus, Side, SideMember
from ..rules import (
    GameResult,
    MeldRequirement,
    Rules,
    deal_label,
    game_result,
    instant_winner,
    meld_requirement,
    rules_from_json,
)
from ..rules.model import GameEndMode

RULES_CACHE = "scorekeeper.rules"  # app.extensions: rule sets by match uid
RULES_KEPT = 1024


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
    """A hand on the scoreboard: its dealer, its totals and the running totals after it."""

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
    target: int  # the target of this table (by layout where the game has targets by layout)

    @property
    def finished(self) -> bool:
        """Won by a side."""
        return self.result.finished

    @property
    def over(self) -> bool:
        """No more hands are played: won or drawn (abandoned is the match's status)."""
        return self.result.over

    @property
    def deals(self) -> int | None:
        """How many deals the game has, in a deal-count game; None in a game to a target."""
        end = self.rules.game_end
        return end.deals if end.mode == GameEndMode.DEALS else None

    @property
    def deal_label(self) -> str | None:
        """The next deal of a deal-count game ("Deal 3 of 4"; None in a game to a target);
        a deal played after the last, to break a tie, is an extra deal."""
        deal = deal_label(self.rules, self.next_number)
        return words.deal_text(deal) if deal is not None else None


# Built once, its loader options with it (building them took longer than loading a short
# match); run with the match's id.
WHOLE_MATCH = (
    select(Match)
    .where(Match.id == bindparam("match_id"))
    .options(
        joinedload(Match.sides).joinedload(Side.members).joinedload(SideMember.player),
        selectinload(Match.hands).selectinload(Hand.sides),
    )
    .execution_options(populate_existing=True)
)


def load_match(match_id: int) -> Match | None:
    """A match with its sides, players and hands, in a fixed number of queries (however
    long the match), or None. `populate_existing`: a write that locked the match reads
    it as it is now, not as this session saw it before."""
    if not valid_id(match_id):
        return None
    return db.session.execute(WHOLE_MATCH, {"match_id": match_id}).unique().scalar_one_or_none()


def match_rules(match: Match) -> Rules:
    """The rules frozen into the match, built once per match: they never change (a match's
    uid is never given to another match)."""
    kept: LruCache[str, Rules] = current_app.extensions[RULES_CACHE]
    return kept.get(match.uid, lambda: rules_from_json(match.rules))


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


def hand_totals(match: Match) -> list[list[int]]:
    """Each hand's total by seat, in hand order."""
    return [[side.total for side in hand.sides] for hand in match.hands]


def running_totals(hands: Sequence[Sequence[int]], sides: int) -> list[list[int]]:
    """The totals after each of these hands."""
    running = [0] * sides
    out = []
    for totals in hands:
        running = [r + t for r, t in zip(running, totals, strict=True)]
        out.append(running)
    return out


def hand_records(hand: Hand) -> list[dict[str, Any]]:
    """A hand's records by seat (a record stored as something else reads as empty)."""
    return [side.record if isinstance(side.record, dict) else {} for side in hand.sides]


def went_out_of(records: Sequence[dict[str, Any]]) -> int | None:
    """The seat that went out in a hand, from its records by seat; in a seated game a
    pair that went out counts as its first seat (both keep the side's record)."""
    return next((seat for seat, record in enumerate(records) if record.get("went_out")), None)


def result_after(
    rules: Rules,
    running: Sequence[int],
    deals_played: int,
    records: Sequence[dict[str, Any]] = (),
) -> GameResult:
    """Where the game stands after `deals_played` hands with these running totals,
    `records` the last hand's by seat (who went out, a special hand that wins at once).
    The deal number is the hand number in a match, so deal-count games end after their
    last deal."""
    return game_result(
        rules,
        running,
        deals_played=deals_played,
        went_out_last=went_out_of(records),
        instant_winner=instant_winner(rules, records) if records else None,
    )


def _layout_of(rules: Rules, sides: int) -> str | None:
    """The layout key a number of sides means, when only one layout has that many."""
    keys = [layout.key for layout in rules.layouts if layout.sides == sides]
    return keys[0] if len(keys) == 1 else None


def match_state(match: Match) -> MatchState:
    """The scoreboard of a match loaded with `load_match`."""
    rules = match_rules(match)
    count = len(match.sides)
    order = table_order(match)
    running = running_totals(hand_totals(match), count)
    rows = [
        HandRow(
            hand.number,
            dealer_of(match, order, hand.number),
            [side.total for side in hand.sides],
            totals,
            hand.version,
            hand.id,
        )
        for hand, totals in zip(match.hands, running, strict=True)
    ]
    final = running[-1] if running else [0] * count
    last = match.hands[-1] if match.hands else None
    result = result_after(rules, final, len(rows), hand_records(last) if last else ())
    next_number = len(rows) + 1
    target = rules.target_for(_layout_of(rules, count))
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
                next_meld=meld_requirement(rules, final[seat], deal=next_number, sides=count),
                progress=max(0, min(100, final[seat] * 100 // max(target, 1))),
                winner=result.winner == seat,
            )
        )
    return MatchState(
        match=match,
        rules=rules,
        sides=sides,
        hands=rows,
        result=result,
        next_number=next_number,
        next_dealer=dealer_of(match, order, next_number),
        table_order=order,
        target=target,
    )


def no_longer_played(match: Match) -> bool:
    return match.status in (MatchStatus.FINISHED, MatchStatus.DRAWN, MatchStatus.ABANDONED)


def init_app(app: Any) -> None:
    app.extensions[RULES_CACHE] = LruCache(RULES_KEPT)
