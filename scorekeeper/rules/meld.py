"""The initial-meld minimum a side needs: by its cumulative score, or by the deal number."""

from __future__ import annotations

from dataclasses import dataclass

from .model import CanastaNeed, MeldTier, Rules


@dataclass(frozen=True)
class MeldRequirement:
    """What a first meld needs: `points` (0: no minimum) and, where a tier asks for one, a
    canasta first (`canasta`: "any" or "natural"; see `CanastaNeed`)."""

    points: int
    canasta: CanastaNeed | None

    def to_dict(self) -> dict[str, object]:
        return {"points": self.points, "canasta": self.canasta}


def tier_for(rules: Rules, score: int, sides: int | None = None) -> MeldTier | None:
    """The score tier in force; tiers kept for one table size apply only there.

    Without `sides` the preset's first layout is assumed.
    """
    table_sides = sides if sides is not None else rules.layouts[0].sides
    chosen = None
    for tier in rules.meld_table:
        if tier.sides is not None and tier.sides != table_sides:
            continue
        if tier.min_score is None or score >= tier.min_score:
            chosen = tier
    return chosen


def deal_minimum(rules: Rules, deal: int) -> int:
    """The minimum of deal `deal` where it follows the deal (a deal past the list uses its last)."""
    table = rules.meld_by_deal
    return table[min(max(deal, 1), len(table)) - 1] if table else 0


def needs_score(rules: Rules) -> bool:
    """Whether the minimum depends on the side's score (else the deal alone, or nothing,
    says it)."""
    return not rules.meld_by_deal and any(t.min_score is not None for t in rules.meld_table)


def meld_requirement(
    rules: Rules, score: int, deal: int | None = None, sides: int | None = None
) -> MeldRequirement:
    """What a side's first meld needs in the next deal.

    `score` is the side's cumulative score; `deal` the number of the deal to
    be played (1 when unknown; used where minimums follow the deal); `sides`
    the number of sides at the table (where a tier holds for one table size).
    """
    if rules.meld_by_deal:
        return MeldRequirement(deal_minimum(rules, deal or 1), None)
    tier = tier_for(rules, score, sides)
    if tier is None:
        return MeldRequirement(0, None)
    return MeldRequirement(tier.points, tier.canasta)
