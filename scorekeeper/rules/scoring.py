"""Scoring a hand: per side, a total and the lines that make it up.

The lines always add up to the total; each names the rule it comes from so a
dispute can be settled line by line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .model import Rules
from .record import Hand, SideHand, hand_points_of, meld_points_of


@dataclass(frozen=True)
class Line:
    rule: str
    label: str
    points: int

    def to_dict(self) -> dict[str, object]:
        return {"rule": self.rule, "label": self.label, "points": self.points}


@dataclass(frozen=True)
class SideScore:
    total: int
    lines: tuple[Line, ...]

    def to_dict(self) -> dict[str, object]:
        return {"total": self.total, "lines": [line.to_dict() for line in self.lines]}


def _cards_label(rules: Rules, title: str, counts: Mapping[str, int] | None) -> str:
    if not counts:
        return title
    parts = []
    for category in rules.cards:
        count = counts.get(category.key, 0)
        if count:
            parts.append(f"{count} {category.noun(count)} x {category.value}")
    return f"{title}: {', '.join(parts)}"


def _red_three_line(rules: Rules, side: SideHand, melded: int) -> Line | None:
    red = rules.red_threes
    count = side.red_threes
    if red is None or count == 0:
        return None
    special = next((t.total for t in red.totals if t.count == count), None)
    value = special if special is not None else count * red.each
    noun = "red three" if count == 1 else "red threes"
    label = f"{count} {noun} on one side" if special is not None else f"{count} {noun} x {red.each}"
    canastas = side.canasta_total()
    if red.negative_when == "no_meld":
        negative = canastas == 0 and melded == 0
        reason = "nothing melded"
    else:
        negative = canastas < red.canastas_needed
        needed = red.canastas_needed
        reason = (
            f"no {rules.canasta_noun}"
            if needed == 1
            else f"fewer than {needed} {rules.canasta_plural}"
        )
    if not negative:
        return Line("red_threes", label, value)
    if red.penalty_each is not None:
        return Line(
            "red_threes",
            f"{count} {noun} x -{red.penalty_each} ({reason})",
            -count * red.penalty_each,
        )
    return Line("red_threes", f"{label}, counted minus ({reason})", -value)


def score_side(rules: Rules, side: SideHand) -> SideScore:
    lines: list[Line] = []
    for kind in rules.kinds():
        count = side.canastas.get(kind.key, 0)
        if count:
            lines.append(
                Line(
                    f"canasta.{kind.key}",
                    f"{count} {kind.noun(count)} x {kind.bonus}",
                    count * kind.bonus,
                )
            )
    melded = meld_points_of(rules, side)
    lines.append(Line("meld_points", _cards_label(rules, "Melded cards", side.meld_cards), melded))
    going_out = rules.going_out
    if side.went_out:
        if side.concealed and going_out.concealed_bonus is not None:
            lines.append(
                Line(
                    "going_out.concealed", f"{going_out.label} concealed", going_out.concealed_bonus
                )
            )
        else:
            lines.append(Line("going_out", going_out.label, going_out.bonus))
    red_line = _red_three_line(rules, side, melded)
    if red_line is not None:
        lines.append(red_line)
    lines.append(
        Line(
            "hand_points",
            _cards_label(rules, "Cards left in hand", side.hand_cards),
            -hand_points_of(rules, side),
        )
    )
    for penalty in rules.counted_penalties:
        count = side.count(penalty.field)
        if count:
            lines.append(
                Line(
                    penalty.field,
                    f"{count} {penalty.noun(count)} x {penalty.points}",
                    -count * penalty.points,
                )
            )
    if rules.extra_hand is not None and not side.took_extra_hand:
        extra = rules.extra_hand
        lines.append(
            Line("extra_hand", f"Extra hand ({extra.name}) not taken", -extra.penalty_not_taken)
        )
    for entry in side.penalties:
        item = rules.catalogue_penalty(entry.rule) if entry.rule else None
        if item is not None:
            lines.append(
                Line(
                    f"penalty.{item.key}",
                    f"Penalty: {item.label} x {entry.count}"
                    if entry.count > 1
                    else f"Penalty: {item.label}",
                    -item.points * entry.count,
                )
            )
        elif entry.points is not None:
            lines.append(Line("penalty", f"Penalty: {entry.reason}", -entry.points))
    return SideScore(sum(line.points for line in lines), tuple(lines))


def score(rules: Rules, hand: Hand) -> tuple[SideScore, ...]:
    """Score a hand that `read_hand` accepted."""
    return tuple(score_side(rules, side) for side in hand.sides)
