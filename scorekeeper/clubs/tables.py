"""An event's game: which presets an event can play, who an entry is, and the rules
frozen into its table matches.

A table match is an ordinary match whose game ends after the event's deals per
round, whatever the totals (equal totals: drawn); the preset's target does not end
it. The rules are built through `dataclasses.replace`, so the rules engine checks
them as it checks every rule set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..rules import Rules
from ..rules.model import GameEnd, GameEndMode, TieRule
from .problems import Problem

# Options that say how a game ends: an event sets that itself (its deals per round).
GAME_END_OPTIONS = ("target", "game_end", "deals", "tie_rule")


def entry_sizes(rules: Rules) -> tuple[int, ...]:
    """The players an entry may have: those of a side in the game's two-sided layouts
    (empty when the game is never played by two sides)."""
    return tuple(sorted({lay.players_per_side for lay in rules.layouts if lay.sides == 2}))


def event_size(rules: Rules, sizes: Sequence[int]) -> int | None:
    """How many players every entry of an event has: the first entry's count when the
    game allows it, else the game's only count (None: the first entry fits no count of
    a game of several)."""
    allowed = entry_sizes(rules)
    if sizes and sizes[0] in allowed:
        return sizes[0]
    return allowed[0] if len(allowed) == 1 else None


def game_problems(
    rules: Rules, sizes: Sequence[int], options: Mapping[str, object] | None = None
) -> tuple[Problem, ...]:
    """What keeps this game, with these entries' player counts (by entry, in order) and
    these options, from being an event's: a game not played by two sides, entries whose
    count does not fit (all entries have one count, one the game allows), and options
    that say how a game ends."""
    problems = [
        Problem(f"options.{name}", "event.option_set_by_event", {"option": name})
        for name in GAME_END_OPTIONS
        if options is not None and name in options
    ]
    allowed = entry_sizes(rules)
    if not allowed:
        problems.append(Problem("variant", "event.not_two_sided"))
        return tuple(problems)
    size = event_size(rules, sizes)
    for index, count in enumerate(sizes):
        if size is None:
            params = {"count": count, "least": allowed[0], "most": allowed[-1]}
            problems.append(Problem(f"entries[{index}].players", "event.entry_sizes", params))
        elif count != size:
            params = {"count": count, "size": size}
            problems.append(Problem(f"entries[{index}].players", "event.entry_size", params))
    return tuple(problems)


def table_rules(rules: Rules, deals_per_round: int) -> Rules:
    """The rules of a table match: the game ends after `deals_per_round` deals, whatever
    the totals; equal totals are a draw. (A hand that wins the game at once still does.)"""
    end = GameEnd(mode=GameEndMode.DEALS, deals=deals_per_round, tie_rule=TieRule.DRAW)
    return replace(rules, game_end=end)
