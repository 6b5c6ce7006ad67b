"""The typed hand record (RULES.md, "Hand record") and what is derived from it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .model import Rules


@dataclass(frozen=True)
class PenaltyEntry:
    """A catalogue penalty (`rule` x `count`) or a free one (`points` with a `reason`)."""

    rule: str | None = None
    count: int = 1
    points: int | None = None
    reason: str | None = None


@dataclass(frozen=True)
class SideHand:
    went_out: bool = False
    concealed: bool = False
    canastas: dict[str, int] = field(default_factory=dict)
    meld_points: int | None = None
    meld_cards: dict[str, int] | None = None
    hand_points: int | None = None
    hand_cards: dict[str, int] | None = None
    red_threes: int = 0
    red_threes_in_hand: int = 0
    black_threes_in_hand: int = 0
    short_sequences: int = 0
    incomplete_wild: int = 0
    incomplete_aces: int = 0
    incomplete_sevens: int = 0
    players_with_3_aces: int = 0
    players_with_3_sevens: int = 0
    black_threes: int = 0
    foot_points: int | None = None
    foot_cards: dict[str, int] | None = None
    feet_taken: int = 0
    exact_pickups: int = 0
    took_extra_hand: bool | None = None
    penalties: tuple[PenaltyEntry, ...] = ()
    special_hand: str | None = None

    def count(self, field_name: str) -> int:
        value = getattr(self, field_name)
        assert isinstance(value, int)
        return value

    def canasta_total(self) -> int:
        return sum(self.canastas.values())


@dataclass(frozen=True)
class Hand:
    sides: tuple[SideHand, ...]
    players_per_side: int | None = None
    deal: int = 1
    lineup: tuple[tuple[int, ...], ...] = ()  # seated games: the seats of each side

    def players(self) -> int | None:
        """How many players sit at the table, when the layout is known."""
        if self.lineup:
            return sum(len(seats) for seats in self.lineup)
        if self.players_per_side is None:
            return None
        return self.players_per_side * len(self.sides)

    def side_players(self, index: int) -> int | None:
        """How many players side `index` has (a line-up's sides may differ)."""
        if self.lineup and index < len(self.lineup):
            return len(self.lineup[index])
        return self.players_per_side


def cards_points(rules: Rules, counts: Mapping[str, int]) -> int:
    values = rules.category_values
    total = 0
    for key, count in counts.items():
        value = values.get(key)
        if value is not None:
            total += value * count
    return total


def meld_points_of(rules: Rules, side: SideHand) -> int:
    if side.meld_cards is not None:
        return cards_points(rules, side.meld_cards)
    return side.meld_points or 0


def hand_points_of(rules: Rules, side: SideHand) -> int:
    if side.hand_cards is not None:
        return cards_points(rules, side.hand_cards)
    return side.hand_points or 0


def foot_points_of(rules: Rules, side: SideHand) -> int:
    if side.foot_cards is not None:
        return cards_points(rules, side.foot_cards)
    return side.foot_points or 0
