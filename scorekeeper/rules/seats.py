"""Seated games (RULES-2, engine shape change 11): seats as the competitors, a line-up
per hand, each side's total shared among its seats, and the phase switch.

Everything here reads `Rules.seating`; nothing knows a preset's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .errors import Problem
from .model import LineupShape, Rules, Seating
from .record import SideHand
from .scoring import Line, SideScore

Lineup = tuple[tuple[int, ...], ...]

MAX_LINEUP_SIDES = 12


def phase_after(rules: Rules, running: Sequence[Sequence[int]]) -> int:
    """The phase of the next hand after hands with these running totals (seat by seat):
    1 once any seat's total reached the switch at the end of some hand, else 0."""
    seating = rules.seating
    if seating is None or seating.switch_from is None or not seating.switches():
        return 0
    threshold = seating.switch_from
    return 1 if any(totals and max(totals) >= threshold for totals in running) else 0


def phases_of(rules: Rules, running: Sequence[Sequence[int]]) -> list[int]:
    """The phase each hand was played in, from the running totals after each hand."""
    return [phase_after(rules, running[:index]) for index in range(len(running))]


@lru_cache(maxsize=64)
def _shapes_by_phase(rules: Rules) -> dict[bool | None, tuple[LineupShape, ...]]:
    """`Seating.shapes` of any phase (None), before the switch (False) and after it (True),
    worked out once per rule set: every hand of a seated game asks for them."""
    seating = rules.seating
    if seating is None:
        return {}
    return {None: seating.shapes(None), False: seating.shapes(0), True: seating.shapes(1)}


def _shapes(rules: Rules, phase: int | None) -> tuple[LineupShape, ...]:
    """The line-ups of a phase (`Seating.shapes`) of a seated game's rules."""
    return _shapes_by_phase(rules)[None if phase is None else bool(phase)]


def shape_params(shapes: Sequence[LineupShape]) -> list[dict[str, Any]]:
    """Line-ups as message parameters, each once: their key and the sizes of their sides."""
    seen = {(shape.key, shape.sizes): None for shape in shapes}
    return [{"shape": key, "sizes": list(sizes)} for key, sizes in seen]


def _parse(seating: Seating, raw: object) -> tuple[Lineup | None, list[Problem]]:
    """The line-up's form: a list of sides, each a list of seat numbers, every seat once."""
    example = [[0], [1, 2]] if seating.seats == 3 else [[0], [1]]
    if (
        not isinstance(raw, list)
        or not raw
        or len(raw) > MAX_LINEUP_SIDES
        or not all(isinstance(side, list) and side for side in raw)
    ):
        return None, [Problem.of(None, "lineup", "lineup.not_list", example=example)]
    seats: list[int] = []
    for side in raw:
        for seat in side:
            if not isinstance(seat, int) or isinstance(seat, bool):
                return None, [Problem.of(None, "lineup", "lineup.not_list", example=example)]
            seats.append(seat)
    problems = []
    outside = sorted({s for s in seats if not 0 <= s < seating.seats})
    if outside:
        problems.append(
            Problem.of(None, "lineup", "lineup.seat_range", seats=outside, most=seating.seats - 1)
        )
    repeated = sorted({s for s in seats if seats.count(s) > 1})
    if repeated:
        problems.append(Problem.of(None, "lineup", "lineup.seat_repeated", seats=repeated))
    missing = [s for s in range(seating.seats) if s not in seats]
    if missing:
        problems.append(Problem.of(None, "lineup", "lineup.seat_missing", seats=missing))
    if problems:
        return None, problems
    return tuple(tuple(side) for side in raw), []


def read_lineup(
    rules: Rules, raw: object, phase: int | None
) -> tuple[Lineup | None, list[Problem]]:
    """The hand's line-up when its form and sizes are allowed in `phase` (None: any phase).

    A preset without seats takes no line-up; a seated one requires it.
    """
    seating = rules.seating
    if seating is None:
        if raw is None:
            return None, []
        return None, [Problem.of(None, "lineup", "lineup.not_seated", variant=rules.key)]
    if raw is None:
        return None, [Problem.of(None, "lineup", "lineup.missing", variant=rules.key)]
    lineup, problems = _parse(seating, raw)
    if lineup is None:
        return None, problems
    sizes = tuple(sorted(len(side) for side in lineup))
    if any(shape.sizes == sizes for shape in _shapes(rules, phase)):
        return lineup, []
    if any(shape.sizes == sizes for shape in _shapes(rules, None)):
        return None, [
            Problem.of(
                None,
                "lineup",
                "lineup.after_switch" if phase else "lineup.before_switch",
                threshold=seating.switch_from,
                allowed=shape_params(seating.shapes(phase)),
            )
        ]
    allowed = shape_params(seating.shapes(phase))
    return None, [Problem.of(None, "lineup", "lineup.shape", variant=rules.key, allowed=allowed)]


def _shape_problems(shape: LineupShape, lineup: Lineup, sides: Sequence[SideHand]) -> list[Problem]:
    problems = []
    for index, (seats, side) in enumerate(zip(lineup, sides, strict=True)):
        if shape.lone_took_extra_hand and len(seats) == 1 and side.took_extra_hand is False:
            problems.append(Problem.of(index, "took_extra_hand", "lineup.lone_extra_hand"))
        if shape.no_extra_hand and side.took_extra_hand:
            problems.append(Problem.of(index, "took_extra_hand", "lineup.no_extra_hand"))
    return problems


def lineup_side_problems(
    rules: Rules,
    lineup: Lineup,
    sides: Sequence[SideHand],
    phase: int | None,
    failed: Sequence[set[str]] = (),
) -> list[Problem]:
    """What the line-up's shape asks of the sides (the lone player took the big pozzetto;
    nobody took one when the stock ran out): the problems of the best-fitting shape."""
    seating = rules.seating
    if seating is None or len(sides) != len(lineup):
        return []
    usable = [
        side if not failed or failed[i].isdisjoint(("side", "took_extra_hand")) else SideHand()
        for i, side in enumerate(sides)
    ]
    sizes = tuple(sorted(len(seats) for seats in lineup))
    candidates = [shape for shape in _shapes(rules, phase) if shape.sizes == sizes]
    found = [_shape_problems(shape, lineup, usable) for shape in candidates]
    return min(found, key=len) if found else []


def seat_scores(rules: Rules, lineup: Lineup, scores: Sequence[SideScore]) -> list[SideScore]:
    """Each seat's score: its side's lines, and for a side of several seats a last line
    that takes the side total down (or up) to the seat's share."""
    seating = rules.seating
    assert seating is not None
    out: list[SideScore | None] = [None] * seating.seats
    for seats, side_score in zip(lineup, scores, strict=True):
        share = seating.share(side_score.total, len(seats))
        lines = list(side_score.lines)
        if len(seats) > 1:
            lines.append(
                Line.of(
                    "share",
                    share - side_score.total,
                    "line.share",
                    total=side_score.total,
                    seats=len(seats),
                    share=share,
                    multiple=seating.share_multiple,
                )
            )
        for seat in seats:
            out[seat] = SideScore(share, tuple(lines))
    assert all(score is not None for score in out)
    return [score for score in out if score is not None]


def seats_json(rules: Rules, lineup: Lineup, scores: Sequence[SideScore]) -> list[dict[str, Any]]:
    """The score answer's `seats` block: each seat's share of its side's total."""
    return [
        {"seat": seat, "total": score.total}
        for seat, score in enumerate(seat_scores(rules, lineup, scores))
    ]
