"""What statistics say of a player or a partnership: a record of the matches counted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Record:
    """What a player or a partnership did in the matches counted."""

    player_ids: tuple[int, ...]
    names: tuple[str, ...]
    group_id: int
    matches: int
    wins: int
    losses: int
    draws: int
    margin_sum: int
    best_hand: int
    highest_total: int
    hands: int
    went_out: int
    canastas: int
    current_streak: int = 0
    longest_streak: int = 0

    @property
    def name(self) -> str:
        return " & ".join(self.names)

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    @property
    def average_margin(self) -> float:
        return self.margin_sum / self.matches if self.matches else 0.0

    @property
    def going_out_rate(self) -> float:
        return self.went_out / self.hands if self.hands else 0.0

    @property
    def canastas_per_hand(self) -> float:
        return self.canastas / self.hands if self.hands else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "matches": self.matches,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "win_rate": round(self.win_rate, 4),
            "average_margin": round(self.average_margin, 1),
            "best_hand": self.best_hand,
            "highest_total": self.highest_total,
            "hands": self.hands,
            "going_out_rate": round(self.going_out_rate, 4),
            "canastas_per_hand": round(self.canastas_per_hand, 3),
            "current_streak": self.current_streak,
            "longest_streak": self.longest_streak,
        }


@dataclass(frozen=True)
class Statistics:
    players: list[Record]
    partnerships: list[Record]


def ORDER(record: Record) -> tuple[int, float, str]:
    """Most wins first, then the best win rate, then by name."""
    return (-record.wins, -record.win_rate, record.name.casefold())


def record_of(
    ids: tuple[int, ...],
    names: dict[int, str],
    groups: dict[int, int | None],
    row: Any,
    current: int,
    longest: int,
) -> Record:
    return Record(
        player_ids=ids,
        names=tuple(names.get(i, "?") for i in ids),
        group_id=groups.get(ids[0]) or 0,
        matches=int(row.matches),
        wins=int(row.wins or 0),
        losses=int(row.losses or 0),
        draws=int(row.draws or 0),
        margin_sum=int(row.margin or 0),
        best_hand=int(row.best or 0),
        highest_total=int(row.highest or 0),
        hands=int(row.hands or 0),
        went_out=int(row.outs or 0),
        canastas=int(row.canastas or 0),
        current_streak=current,
        longest_streak=longest,
    )
