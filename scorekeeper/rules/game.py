"""When the game ends and who wins, from the running totals (RULES-2, "Game end and ties")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .model import GameEndMode, Layout, Rules, TieRule


class GameStatus(StrEnum):
    """Where a game stands: playing, tied (the end is reached but the lead is shared: play
    on), finished (with a winner) or drawn (over, no winner)."""

    PLAYING = "playing"
    TIED = "tied"
    FINISHED = "finished"
    DRAWN = "drawn"


PLAYING = GameStatus.PLAYING
TIED = GameStatus.TIED
FINISHED = GameStatus.FINISHED
DRAWN = GameStatus.DRAWN


class DealKind(StrEnum):
    """What a deal of a deal-count game is: one of its deals, or one played after the last
    to break a tie."""

    OF = "deal.of"
    EXTRA = "deal.extra"


@dataclass(frozen=True)
class DealLabel:
    """A deal of a deal-count game as a message: "Deal 3 of 4", "Extra deal 5"."""

    key: DealKind
    deal: int
    deals: int


@dataclass(frozen=True)
class GameResult:
    """Where the game stands (`status`), who won, and `instant`: a game won at once by a
    special hand."""

    status: GameStatus
    winner: int | None
    instant: bool = False  # won at once by a special hand, whatever the totals

    @property
    def finished(self) -> bool:
        """Won by a side (a draw is over too, but has no winner: see `over`)."""
        return self.status == FINISHED

    @property
    def over(self) -> bool:
        """No more hands are played: won or drawn."""
        return self.status in (FINISHED, DRAWN)


def _layout_of(rules: Rules, sides: int) -> Layout | None:
    """The layout a number of sides means, when only one layout has that many."""
    matching = [lay for lay in rules.layouts if lay.sides == sides]
    return matching[0] if len(matching) == 1 else None


def game_result(
    rules: Rules,
    totals: Sequence[int],
    deals_played: int | None = None,
    went_out_last: int | None = None,
    layout: Layout | str | None = None,
    instant_winner: int | None = None,
) -> GameResult:
    """Where the game stands after the hands played so far.

    `deals_played` is the number of hands recorded (deal-count games end
    after `game_end.deals`; unknown means still playing); `went_out_last` is the
    side that went out in the last hand (for `tie_rule` went_out_last);
    `layout` picks a target by layout (by default the one layout with as many
    sides as `totals`, when there is one); `instant_winner` is a side whose last
    hand wins the game outright.
    """
    if instant_winner is not None:
        return GameResult(FINISHED, instant_winner, instant=True)
    end = rules.game_end
    if not totals:
        return GameResult(PLAYING, None)
    if end.mode == GameEndMode.DEALS:
        if deals_played is None or deals_played < end.deals:
            return GameResult(PLAYING, None)
    elif max(totals) < rules.target_for(layout or _layout_of(rules, len(totals))):
        return GameResult(PLAYING, None)
    best = max(totals)
    leaders = [index for index, total in enumerate(totals) if total == best]
    if len(leaders) == 1:
        return GameResult(FINISHED, leaders[0])
    if end.tie_rule == TieRule.DRAW:
        return GameResult(DRAWN, None)
    if end.tie_rule == TieRule.WENT_OUT_LAST:
        if went_out_last in leaders:
            return GameResult(FINISHED, went_out_last)
        if end.mode == GameEndMode.DEALS:
            return GameResult(DRAWN, None)
    return GameResult(TIED, None)


def instant_winner(rules: Rules, records: Sequence[Mapping[str, Any]]) -> int | None:
    """The side whose special hand in this hand wins the game at once, or None.

    `records` are the sides of one accepted hand as entered (only the side that went
    out can hold a special hand, so at most one side wins this way).
    """
    for index, record in enumerate(records):
        special = rules.special_hand(record.get("special_hand"))
        if special is not None and special.wins_game:
            return index
    return None


def deal_label(rules: Rules, deal: int) -> DealLabel | None:
    """Deal `deal` of a deal-count game ("Deal 3 of 4"; past the last, an extra deal to break
    a tie); None in a game to a target."""
    end = rules.game_end
    if end.mode != GameEndMode.DEALS:
        return None
    kind = DealKind.EXTRA if deal > end.deals else DealKind.OF
    return DealLabel(kind, deal, end.deals)
