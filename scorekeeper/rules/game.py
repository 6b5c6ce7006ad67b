"""When the game ends and who wins, from the running totals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .model import Rules

PLAYING = "playing"
TIED = "tied"
FINISHED = "finished"


@dataclass(frozen=True)
class GameResult:
    """`status` is playing, tied (target reached but the lead is shared: play on) or finished."""

    status: str
    winner: int | None

    @property
    def finished(self) -> bool:
        return self.status == FINISHED


def game_result(rules: Rules, totals: Sequence[int]) -> GameResult:
    if not totals or max(totals) < rules.target:
        return GameResult(PLAYING, None)
    best = max(totals)
    leaders = [index for index, total in enumerate(totals) if total == best]
    if len(leaders) > 1:
        return GameResult(TIED, None)
    return GameResult(FINISHED, leaders[0])
