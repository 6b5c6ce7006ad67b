"""Evaluating a hand: read, validate and score it under a rule set.

What is wrong with a hand comes back in words (`ValidationError`), each side named
as the table knows it: by its name, or in a seated game by its line-up's players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import words
from ..rules import (
    PRESETS,
    Hand,
    InvalidHand,
    Rules,
    SideScore,
    hand_warnings,
    read_hand,
    resolve_options,
    score,
)
from ..rules.seats import seat_scores
from ..validation import FieldError, ValidationError
from ..words.translate import gettext


@dataclass(frozen=True)
class Evaluation:
    """A hand that can be saved: its scores, and what is unlikely enough to ask about."""

    rules: Rules
    hand: Hand
    scores: tuple[SideScore, ...]
    warnings: tuple[FieldError, ...] = ()
    seats: tuple[SideScore, ...] = ()  # seated games: each seat's share, in seat order


def hand_names(
    rules: Rules,
    count: int,
    players_per_side: int | None,
    lineup: Sequence[Sequence[int]] = (),
    names: Sequence[str] | None = None,
) -> list[str]:
    """Who each of a hand's `count` sides is: a line-up's players ("Ann and Bo"), else the
    match's side names, else "Team 1", "Player 1" (a seated game's names are its seats':
    without a line-up they name no side)."""
    given = list(names or [])
    if lineup:
        named = words.lineup_names(lineup, given)
        return named + words.side_names(count, players_per_side)[len(named) :]
    return words.side_names(count, players_per_side, given if rules.seating is None else ())


def refused_hand(
    error: InvalidHand, rules: Rules, count: int, names: Sequence[str] | None = None
) -> ValidationError:
    """The engine's problems with a hand of `count` sides, in words."""
    who = hand_names(rules, count, error.players_per_side, error.lineup, names)
    return ValidationError(words.told_all(error.problems, rules.vocabulary, who))


def evaluate(
    rules: Rules,
    sides: object,
    players: object = None,
    side_names: list[str] | None = None,
    deal: object = None,
    lineup: object = None,
    phase: int | None = None,
) -> Evaluation:
    """Score one hand (of deal `deal`, 1 when not given); raises ValidationError with every
    problem, in words (`side_names` name the sides, or in a seated game the seats).

    A seated game's hand has a `lineup`, allowed in `phase` (None: any), and its
    scores shared among the seats (`Evaluation.seats`).
    """
    count = len(sides) if isinstance(sides, list) else 0
    try:
        hand = read_hand(rules, sides, players, deal, lineup, phase)
    except InvalidHand as error:
        raise refused_hand(error, rules, count, side_names) from None
    who = hand_names(rules, len(hand.sides), hand.players_per_side, hand.lineup, side_names)
    warnings = tuple(words.told_all(hand_warnings(rules, hand), rules.vocabulary, who))
    scores = score(rules, hand)
    seats = tuple(seat_scores(rules, hand.lineup, scores)) if hand.lineup else ()
    return Evaluation(rules, hand, scores, warnings, seats)


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
            gettext("Say which variant to score under")
            if variant is None
            else gettext(
                "There is no variant called %(name)s (known: %(known)s)",
                name=repr(variant),
                known=known,
            )
        )
        raise ValidationError([FieldError(None, "variant", message)])
    rules, problems = resolve_options(PRESETS[variant], options)
    told = words.told_all(problems, rules.vocabulary)
    try:
        evaluation = evaluate(rules, sides, players, deal=deal, lineup=lineup)
    except ValidationError as error:
        told += error.problems
    if told:
        raise ValidationError(told)
    return evaluation
