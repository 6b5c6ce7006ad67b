"""The game end after a write: recomputed from every hand, refused when it comes too early."""

from __future__ import annotations

from ..models import Match, MatchStatus, utcnow
from ..rules import GameResult
from ..validation import FieldError
from ..words import number
from ..words.translate import gettext, ngettext
from . import ratings
from .match_lock import EndsTooEarly
from .match_state import hand_records, hand_totals, match_rules, result_after, running_totals
from .rated_matches import is_counted


def results_by_hand(match: Match) -> list[GameResult]:
    """Where the game stood after each hand of the match (as loaded, with its hands)."""
    rules = match_rules(match)
    running = running_totals(hand_totals(match), len(match.sides))
    return [
        result_after(rules, totals, number, hand_records(hand))
        for number, (hand, totals) in enumerate(zip(match.hands, running, strict=True), start=1)
    ]


def settle_game_end(match: Match) -> list[FieldError]:
    """Recompute the game end after a change to the match's hands; refuse a change that
    ends it before hands already played. Returns a warning when the change ends the game
    (the page asks before saving it)."""
    results = results_by_hand(match)
    end = next((index for index, result in enumerate(results) if result.over), None)
    if end is not None and end < len(results) - 1:
        later = len(results) - 1 - end
        raise EndsTooEarly(
            ngettext(
                "With this change the game is over after hand %(number)s, but %(count)s later "
                "hand was played. Remove the later hands first if that is right.",
                "With this change the game is over after hand %(number)s, but %(count)s later "
                "hands were played. Remove the later hands first if that is right.",
                later,
                number=str(end + 1),
                count=number(later),
            )
        )
    nothing = [0] * len(match.sides)
    result = results[-1] if results else result_after(match_rules(match), nothing, 0)
    return _settle(match, result)


def _settle(match: Match, result: GameResult) -> list[FieldError]:
    """Keep where the game stands in the match; a warning when this change ends it.

    `finished_at` is set exactly when the match is no longer played (its place in the
    history), and kept as it was while a correction leaves it over. Ratings follow."""
    if match.status == MatchStatus.ABANDONED:
        return []
    ends_now = result.over and match.status != result.status
    was_counted = is_counted(match)
    if result.over and match.finished_at is None:
        match.finished_at = utcnow()
    elif not result.over:
        match.finished_at = None
    match.status, match.winner = result.status, result.winner
    ratings.match_settled(match, was_counted)
    if not ends_now:
        return []
    if result.winner is None:
        said = gettext("This hand ends the game in a draw: the lead is shared.")
        return [FieldError(None, None, said)]
    winner = match.sides[result.winner].name
    return [FieldError(None, None, gettext("This hand ends the game: %(side)s wins.", side=winner))]
