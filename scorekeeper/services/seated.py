"""Seated matches (Burraco for three): each hand's line-up, the phase, and keeping every
recorded hand's line-up possible after a change to an earlier hand.

The three seats are the match's sides (one player each); a hand is played by the
sides of its line-up, and each seat is stored with its share of its side's total,
so running totals, the game end and the scoreboard read seats like any sides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import words
from ..models import Match
from ..rules import InvalidHand, Rules, read_hand
from ..rules.model import LineupShape
from ..rules.seats import Lineup, phase_after
from ..words.translate import gettext
from .hands import refused_hand
from .match_state import hand_totals, match_rules, running_totals, side_names


@dataclass(frozen=True)
class Phase:
    """The line-ups the next hand may have, and what switches them."""

    number: int  # 0 before the switch, 1 after
    shapes: tuple[LineupShape, ...]
    switch_from: int | None  # a seat total that switches, while it still can

    @property
    def keys(self) -> list[str]:
        return list(dict.fromkeys(shape.key for shape in self.shapes))

    @property
    def label(self) -> str:
        return " or ".join(dict.fromkeys(words.nouns.shape(shape.key) for shape in self.shapes))

    def to_dict(self) -> dict[str, Any]:
        return {"phase": self.number, "lineups": self.keys, "switch_from": self.switch_from}


def _running(match: Match) -> list[list[int]]:
    return running_totals(hand_totals(match), len(match.sides))


def phase_of(rules: Rules, running: Sequence[Sequence[int]]) -> Phase | None:
    """The phase after hands with these running totals (None: not a seated game)."""
    seating = rules.seating
    if seating is None:
        return None
    number = phase_after(rules, running)
    pending = seating.switch_from if seating.switches() and number == 0 else None
    return Phase(number, seating.shapes(number), pending)


def next_phase(match: Match) -> int | None:
    """The phase of the match's next hand (None: not a seated game)."""
    rules = match_rules(match)
    if rules.seating is None:
        return None
    return phase_after(rules, _running(match))


def phase_for_hand(match: Match, rules: Rules, number: int) -> int | None:
    """The phase hand `number` is played in: from the totals of the hands before it."""
    if rules.seating is None:
        return None
    return phase_after(rules, _running(match)[: number - 1])


def lineup_json(lineup: Lineup) -> list[list[int]]:
    return [list(seats) for seats in lineup]


def side_records(lineup: Sequence[Sequence[int]], seat_records: Sequence[Any]) -> list[Any]:
    """The hand's records by side of its line-up (every seat of a side keeps its side's)."""
    return [seat_records[seats[0]] for seats in lineup]


def hand_lineups(match: Match) -> list[list[list[int]] | None]:
    """Each hand's line-up, in hand order."""
    return [hand.lineup for hand in match.hands]


def misfit(match: Match, first: int = 1) -> tuple[int, str] | None:
    """The first hand from `first` on whose line-up its phase no longer allows, with why
    (a change to an earlier hand can move the switch); None when every hand still fits."""
    rules = match_rules(match)
    if rules.seating is None:
        return None
    running = _running(match)
    names = side_names(match)
    for index, hand in enumerate(match.hands):
        if hand.number < first:
            continue
        phase = phase_after(rules, running[:index])
        records = [side.record for side in hand.sides]
        sides = side_records(hand.lineup or [], records)
        try:
            read_hand(rules, sides, 1, hand.number, hand.lineup, phase)
        except InvalidHand as error:
            told = refused_hand(error, rules, len(sides), names).problems
            return hand.number, told[0].message if told else ""
    return None


def names_of(match: Match, lineup: Lineup) -> list[str]:
    """The sides of a line-up named by their players ("Anna", "Bruno and Carla")."""
    return words.lineup_names(lineup, side_names(match))


def seated_json(rules: Rules, running: Sequence[Sequence[int]]) -> dict[str, Any]:
    """A seated match's addition to its API state, the next hand's `phase` (each hand's
    part carries its `lineup`); nothing for other games."""
    phase = phase_of(rules, running)
    return {} if phase is None else {"phase": phase.to_dict()}


@dataclass(frozen=True)
class SeatedBoard:
    """What the scoreboard adds for a seated game: the phase and each hand's line-up."""

    phase: str
    lineups: dict[int, str]  # hand number -> who played with whom, in words


def lineup_words(lineup: Sequence[Sequence[int]] | None, names: Sequence[str]) -> str:
    """ "Ada alone v Bea & Cy", or "Each for himself"."""
    if not lineup:
        return ""
    if all(len(side) == 1 for side in lineup):
        return gettext("Each for himself")
    parts = []
    for side in lineup:
        who = " & ".join(names[seat] for seat in side)
        parts.append(gettext("%(name)s alone", name=who) if len(side) == 1 else who)
    text = parts[0]
    for part in parts[1:]:
        text = gettext("%(first)s v %(second)s", first=text, second=part)
    return text


def board_view(match: Match, rules: Rules, running: Sequence[Sequence[int]]) -> SeatedBoard | None:
    """The phase after hands with these running totals and each hand's line-up."""
    phase = phase_of(rules, running)
    if phase is None or rules.seating is None:
        return None
    names = side_names(match)
    if not rules.seating.switches():
        said = gettext("Each for himself in every hand.")
    elif phase.number == 0:
        said = gettext(
            "Pair against one: whoever finishes the dealt cards first plays alone. Each for "
            "himself once a player reaches %(points)s.",
            points=words.number(phase.switch_from or 0),
        )
    else:
        said = gettext(
            "Each for himself: a player reached %(points)s.",
            points=words.number(rules.seating.switch_from or 0),
        )
    lineups = {
        number: lineup_words(lineup, names)
        for number, lineup in enumerate(hand_lineups(match), start=1)
    }
    return SeatedBoard(said, lineups)
