"""The initial-meld minimum a side needs, from its cumulative score."""

from __future__ import annotations

from dataclasses import dataclass

from .model import MeldTier, Rules


@dataclass(frozen=True)
class MeldRequirement:
    points: int
    canasta: str | None
    label: str

    def to_dict(self) -> dict[str, object]:
        return {"points": self.points, "canasta": self.canasta, "label": self.label}


def tier_label(rules: Rules, tier: MeldTier) -> str:
    if tier.canasta is None:
        return f"{tier.points} points" if tier.points else "No minimum"
    noun = rules.canasta_noun if tier.canasta == "any" else f"natural {rules.canasta_noun}"
    label = f"A {noun}"
    if tier.points:
        label += f" and melds worth at least {tier.points} points in all"
    return label


def tier_for(rules: Rules, score: int) -> MeldTier | None:
    chosen = None
    for tier in rules.meld_table:
        if tier.min_score is None or score >= tier.min_score:
            chosen = tier
    return chosen


def meld_requirement(rules: Rules, score: int) -> MeldRequirement:
    tier = tier_for(rules, score)
    if tier is None:
        return MeldRequirement(0, None, "No minimum")
    return MeldRequirement(tier.points, tier.canasta, tier_label(rules, tier))
