"""Scoring a hand: per side, a total and the lines that make it up.

The lines always add up to the total; each names the rule it comes from so a
dispute can be settled line by line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from .model import (
    KindGroup,
    MeldMinusWhen,
    NegativeWhen,
    RedThrees,
    RedThreesMinus,
    Rules,
    Sign,
)
from .record import Hand, SideHand, foot_points_of, hand_points_of, meld_points_of


@dataclass(frozen=True)
class Line:
    """One score line: the rule it comes from, its points, and what it says as a message key
    and its parameters (numbers and keys: the words are made at the edge)."""

    rule: str
    points: int
    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, rule: str, points: int, key: str, /, **params: Any) -> Line:
        return cls(rule, points, key, params)

    def to_dict(self) -> dict[str, Any]:
        """The line as a hand stores it."""
        return {
            "rule": self.rule,
            "key": self.key,
            "params": dict(self.params),
            "points": self.points,
        }


_POINTS = attrgetter("points")  # a line's points


@dataclass(frozen=True)
class SideScore:
    total: int
    lines: tuple[Line, ...]

    def to_dict(self) -> dict[str, object]:
        return {"total": self.total, "lines": [line.to_dict() for line in self.lines]}


def _cards(rules: Rules, counts: Mapping[str, int] | None) -> list[list[Any]]:
    """[[category, count, value], ...] in the value set's order, zero counts left out."""
    out: list[list[Any]] = []
    if not counts:
        return out
    for category in rules.cards:
        count = counts.get(category.key, 0)
        if count:
            out.append([category.key, count, category.value])
    return out


def _cards_line(
    rules: Rules, rule: str, key: str, counts: Mapping[str, int] | None, points: int, **params: Any
) -> Line:
    cards = _cards(rules, counts)
    if cards:
        return Line.of(rule, points, key.replace("_points", "_cards"), cards=cards, **params)
    return Line.of(rule, points, key, **params)


def _canasta_reason(needed: int) -> dict[str, Any]:
    if needed <= 1:
        return {"key": "reason.no_canasta", "params": {}}
    return {"key": "reason.fewer_canastas", "params": {"count": needed}}


def _red_three_line(
    rules: Rules, side: SideHand, melded: int, canastas: int, red: RedThrees
) -> Line | None:
    """The line of one colour of threes laid down (its field names the rule); `melded` and
    `canastas` are the side's melded points and canastas."""
    count = side.count(red.field)
    if count == 0:
        return None
    threes = red.card_category  # which threes: their card category
    rule = red.field
    if red.laid_sign == Sign.MINUS:
        return Line.of(
            rule,
            -count * red.each,
            "line.red_threes.laid_minus",
            count=count,
            threes=threes,
            each=red.each,
        )
    special = red.special_total(count)
    value = red.plus_value(count)
    if red.negative_when == NegativeWhen.NEVER:
        negative = False
    elif red.negative_when == NegativeWhen.NO_MELD:
        negative = canastas == 0 and melded == 0
    else:
        negative = canastas < red.canastas_needed
    if not negative and red.plus_from is not None and canastas < red.plus_from:
        zero = _canasta_reason(red.plus_from)
        return Line.of(rule, 0, "line.red_threes.zero", count=count, threes=threes, reason=zero)
    if not negative:
        if special is not None:
            return Line.of(rule, value, "line.red_threes.special", count=count, threes=threes)
        return Line.of(rule, value, "line.red_threes", count=count, threes=threes, each=red.each)
    reason: dict[str, Any] = (
        {"key": "reason.nothing_melded", "params": {}}
        if red.negative_when == NegativeWhen.NO_MELD
        else _canasta_reason(red.canastas_needed)
    )
    if red.penalty_each is not None or red.minus == RedThreesMinus.EACH:
        each = red.penalty_each if red.penalty_each is not None else red.each
        return Line.of(
            rule,
            -count * each,
            "line.red_threes.each_minus",
            count=count,
            threes=threes,
            each=each,
            reason=reason,
        )
    if special is not None:
        return Line.of(
            rule,
            -value,
            "line.red_threes.special_minus",
            count=count,
            threes=threes,
            reason=reason,
        )
    return Line.of(
        rule,
        -value,
        "line.red_threes.minus",
        count=count,
        threes=threes,
        each=red.each,
        reason=reason,
    )


def meld_minus_reason(rules: Rules, side: SideHand) -> dict[str, Any] | None:
    """Why the side's melded cards count minus, or None when they count plus."""
    when = rules.meld_minus_when
    if when == MeldMinusWhen.NO_CANASTA and side.canasta_total() == 0:
        return _canasta_reason(1)
    if when == MeldMinusWhen.NO_CLEAN_CANASTA:
        clean = sum(side.canastas.get(k.key, 0) for k in rules.kinds if k.group == KindGroup.CLEAN)
        if not clean:
            return {"key": "reason.no_clean_canasta", "params": {}}
    return None


def _special_hand_score(rules: Rules, key: str) -> SideScore:
    """A side that went out with a special hand scores its value and nothing else."""
    special = rules.special_hand(key)
    assert special is not None  # read_hand accepts known keys only
    line_key = "line.special_hand.wins" if special.wins_game else "line.special_hand"
    line = Line.of(f"special_hand.{special.key}", special.points, line_key, hand=special.key)
    return SideScore(special.points, (line,))


def score_side(rules: Rules, side: SideHand, deal: int = 1) -> SideScore:
    """Score one side of an accepted hand; `deal` picks the deal-keyed going-out bonus."""
    if side.special_hand is not None:
        return _special_hand_score(rules, side.special_hand)
    lines: list[Line] = []
    for kind in rules.kinds if side.canastas else ():
        count = side.canastas.get(kind.key, 0)
        if count:
            lines.append(
                Line.of(
                    f"canasta.{kind.key}",
                    count * kind.bonus,
                    "line.canastas",
                    kind=kind.key,
                    count=count,
                    bonus=kind.bonus,
                )
            )
    melded = meld_points_of(rules, side)
    minus = meld_minus_reason(rules, side)
    if minus is None:
        lines.append(_cards_line(rules, "meld_points", "line.meld_points", side.meld_cards, melded))
    else:
        lines.append(
            _cards_line(
                rules,
                "meld_points",
                "line.meld_points.minus",
                side.meld_cards,
                -melded,
                reason=minus,
            )
        )
    going_out = rules.going_out
    if side.went_out:
        if side.concealed and going_out.concealed_bonus is not None:
            lines.append(
                Line.of(
                    "going_out.concealed", going_out.concealed_bonus, "line.going_out.concealed"
                )
            )
        else:
            lines.append(Line.of("going_out", going_out.bonus_for(deal), "line.going_out"))
    canastas = side.canasta_total()
    for threes in rules.laid_threes:
        red_line = _red_three_line(rules, side, melded, canastas, threes)
        if red_line is not None:
            lines.append(red_line)
    lines.append(
        _cards_line(
            rules, "hand_points", "line.hand_points", side.hand_cards, -hand_points_of(rules, side)
        )
    )
    if rules.feet is not None:
        lines.append(
            _cards_line(
                rules,
                "foot_points",
                "line.foot_points",
                side.foot_cards,
                -foot_points_of(rules, side),
            )
        )
        bonus = rules.feet.exact_pickup_bonus
        if bonus is not None and side.exact_pickups:
            count = side.exact_pickups
            lines.append(
                Line.of(
                    "exact_pickups",
                    count * bonus,
                    "line.exact_pickups",
                    count=count,
                    points=bonus,
                )
            )
    for penalty in rules.counted_penalties:
        count = side.count(penalty.field)
        if count:
            lines.append(
                Line.of(
                    penalty.field,
                    -count * penalty.points,
                    "line.counted",
                    penalty=penalty.field,
                    count=count,
                    points=penalty.points,
                )
            )
    if rules.extra_hand is not None and not side.took_extra_hand:
        extra = rules.extra_hand
        lines.append(Line.of("extra_hand", -extra.penalty_not_taken, "line.extra_hand"))
    for entry in side.penalties:
        item = rules.catalogue_penalty(entry.rule) if entry.rule else None
        if item is not None:
            lines.append(
                Line.of(
                    f"penalty.{item.key}",
                    -item.points * entry.count,
                    "line.penalty.catalogue",
                    penalty=item.key,
                    count=entry.count,
                )
            )
        elif entry.points is not None:
            lines.append(
                Line.of("penalty", -entry.points, "line.penalty.free", reason=entry.reason or "")
            )
    return SideScore(sum(map(_POINTS, lines)), tuple(lines))


def score(rules: Rules, hand: Hand) -> tuple[SideScore, ...]:
    """Score a hand that `read_hand` accepted."""
    return tuple([score_side(rules, side, hand.deal) for side in hand.sides])
