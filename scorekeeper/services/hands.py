"""Evaluating a hand: read, validate and score it under a rule set."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import (
    PRESETS,
    Hand,
    InvalidHand,
    Problem,
    Rules,
    SideScore,
    hand_warnings,
    read_hand,
    resolve_options,
    score,
)
from ..rules.model import made_frozen
from ..rules.seats import lineup_side_names, seat_scores


@dataclass(frozen=True)
class Evaluation:
    """A hand that can be saved: its scores, and what is unlikely enough to ask about."""

    rules: Rules
    hand: Hand
    scores: tuple[SideScore, ...]
    warnings: tuple[Problem, ...] = ()
    seats: tuple[SideScore, ...] = ()  # seated games: each seat's share, in seat order


def evaluate(
    rules: Rules,
    sides: object,
    players: object = None,
    side_names: list[str] | None = None,
    deal: object = None,
    lineup: object = None,
    phase: int | None = None,
) -> Evaluation:
    """Score one hand (of deal `deal`, 1 when not given); raises InvalidHand with every problem.

    A seated game's hand has a `lineup`, allowed in `phase` (None: any), and its
    scores shared among the seats (`Evaluation.seats`).
    """
    hand = read_hand(rules, sides, players, side_names, deal, lineup, phase)
    names = lineup_side_names(hand.lineup, side_names) if hand.lineup else side_names
    warnings = tuple(hand_warnings(rules, hand, names))
    scores = score(rules, hand)
    seats = tuple(seat_scores(rules, hand.lineup, scores)) if hand.lineup else ()
    fields = {"rules": rules, "hand": hand, "scores": scores, "warnings": warnings, "seats": seats}
    return made_frozen(Evaluation, fields)  # Evaluation(...), made for less: one per hand


def evaluate_request(
    variant: object,
    options: object,
    sides: object,
    players: object,
    deal: object = None,
    lineup: object = None,
) -> Evaluation:
    """Score a stateless request, reporting variant, option and hand problems together."""
    if not isinstance(variant, str) or variant not in PRESETS:
        known = ", ".join(PRESETS)
        message = (
            "Say which variant to score under"
            if variant is None
            else f"There is no variant called {variant!r} (known: {known})"
        )
        raise InvalidHand([Problem(None, "variant", message)])
    rules, problems = resolve_options(PRESETS[variant], options)
    try:
        evaluation = evaluate(rules, sides, players, deal=deal, lineup=lineup)
    except InvalidHand as error:
        problems = [*problems, *error.problems]
    if problems:
        raise InvalidHand(problems)
    return evaluation
