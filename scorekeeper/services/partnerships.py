"""Partnerships' records: the sides of two or more players, keyed by their exact set of
players whatever their seats, aggregated from one row per side (`statistics.side_rows`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from sqlalchemy import CTE, select

from ..extensions import db
from ..models import SideMember
from .stats_records import Record, record_of

SUMMED = ("won", "lost", "drawn", "margin", "hands", "outs", "canastas")


class Totals:
    """A partnership's sums over its sides, shaped as the players' SQL aggregates are."""

    def __init__(self) -> None:
        self.matches = 0
        self.wins = self.losses = self.draws = self.margin = 0
        self.hands = self.outs = self.canastas = 0
        self.best = self.highest = 0
        self.results: list[tuple[Any, int, int]] = []  # (finished_at, match id, won)

    def add(self, side: Any) -> None:
        self.matches += 1
        self.wins += side.won
        self.losses += side.lost
        self.draws += side.drawn
        self.margin += side.margin
        self.hands += side.hands
        self.outs += side.outs
        self.canastas += side.canastas
        self.best = max(self.best, side.best) if self.matches > 1 else side.best
        self.highest = max(self.highest, side.final) if self.matches > 1 else side.final
        self.results.append((side.finished_at, side.match_id, side.won))


def streaks(won: Iterable[int]) -> tuple[int, int]:
    """(current, longest) run of wins in results taken in order."""
    current = longest = 0
    for result in won:
        current = current + 1 if result else 0
        longest = max(longest, current)
    return current, longest


def partnership_records(
    rows: CTE, names: dict[int, str], groups: dict[int, int | None]
) -> list[Record]:
    """Every partnership's record, in one query: each side with its players."""
    sides: dict[int, tuple[list[int], Any]] = {}
    for member in db.session.execute(
        select(SideMember.player_id, rows).join(rows, rows.c.side_id == SideMember.side_id)
    ):
        players, _ = sides.setdefault(member.side_id, ([], member))
        players.append(member.player_id)
    partnerships: defaultdict[tuple[int, ...], Totals] = defaultdict(Totals)
    for players, side in sides.values():
        if len(players) >= 2:
            partnerships[tuple(sorted(players))].add(side)
    records = []
    for key, totals in partnerships.items():
        ordered = sorted(totals.results, key=lambda result: (result[0], result[1]))
        current, longest = streaks(won for _, _, won in ordered)
        records.append(record_of(key, names, groups, totals, current, longest))
    return records
