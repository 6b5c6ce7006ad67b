"""The game end after a write: recomputed from every hand, refused when it comes too early."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..models import Hand, HandSide, Match, utcnow
from ..rules import GameResult, Rules, instant_winner
from ..validation import FieldError
from .listing import move_in_history, touch_history
from .match_lock import EndsTooEarly
from .match_state import (
    hand_totals,
    has_instant_wins,
    needs_went_out,
    result_after,
    running_totals,
    went_out_of,
)


def _records_by_hand(match_id: int) -> dict[int, list[dict[str, Any]]]:
    """Each hand's records by seat, by hand number, in one query (read only where the
    game end depends on them: who went out last, a special hand that wins at once)."""
    rows = db.session.execute(
        select(Hand.number, HandSide.record)
        .join(HandSide, HandSide.hand_id == Hand.id)
        .where(Hand.match_id == match_id)
        .order_by(Hand.number, HandSide.seat)
    ).all()
    records: dict[int, list[dict[str, Any]]] = {}
    for number, record in rows:
        records.setdefault(number, []).append(record or {})
    return records


def refresh_status(
    match: Match, rules: Rules, per_hand: Sequence[Sequence[int]] | None = None
) -> list[FieldError]:
    """Recompute the game end; refuse a change that ends it before hands already played.

    Deal-count games end after their last deal (the hand number is the deal number);
    a tie rule may need who went out last. Returns a warning when the change ends the
    game (the page asks before saving it). `per_hand`: each hand's totals, when the
    write already has them (else they are read).
    """
    count = len(match.sides)
    per_hand = hand_totals(match.id, count) if per_hand is None else per_hand
    running = running_totals(per_hand, count)
    by_hand = _records_by_hand(match.id) if needs_went_out(rules) or has_instant_wins(rules) else {}
    went_out = {
        number: seat
        for number, sides in by_hand.items()
        if (seat := went_out_of(sides)) is not None
    }
    instant = {
        number: seat
        for number, sides in by_hand.items()
        if has_instant_wins(rules) and (seat := instant_winner(rules, sides)) is not None
    }
    results = [
        result_after(rules, totals, number, went_out.get(number), instant.get(number))
        for number, totals in enumerate(running, start=1)
    ]
    end = next((i for i, result in enumerate(results) if result.over), None)
    if end is not None and end < len(running) - 1:
        later = len(running) - 1 - end
        raise EndsTooEarly(
            f"With this change the game is over after hand {end + 1}, but {later} later "
            f"hand{'s' if later > 1 else ''} {'were' if later > 1 else 'was'} played. "
            "Remove the later hands first if that is right."
        )
    result = results[-1] if results else result_after(rules, [0] * len(match.sides), 0)
    return _settle(match, result)


def status_after_new_hand(
    match: Match,
    rules: Rules,
    final: Sequence[int],
    hands: int,
    seats: Sequence[dict[str, Any]],
) -> list[FieldError]:
    """The game end after a hand added to a match in play (`final`: the totals after it,
    `hands`: how many hands the match has with it, `seats`: the new hand's records by
    seat): only where the last hand leaves the game counts, since no earlier one ended
    it (the match would not be in play), so no other hand is read."""
    records = [seat["record"] or {} for seat in seats]
    instant = instant_winner(rules, records) if has_instant_wins(rules) else None
    result = result_after(rules, final, hands, went_out_of(records), instant)
    return _settle(match, result)


def _settle(match: Match, result: GameResult) -> list[FieldError]:
    """Keep where the game stands in the match; a warning when this change ends it."""
    was_in_history = match.finished_at is not None
    in_history = result.over or was_in_history
    ends_now = result.over and match.status != result.status
    changes = (match.status, match.winner) != (result.status, result.winner)
    if (changes or in_history) and match not in db.session:  # (ending it is a change)
        db.session.add(match)  # a save leaves the match detached unless this changes it
    if ends_now:
        match.finished_at = utcnow()  # a finished or drawn match: its place in the history
    elif not result.over and match.finished_at is not None:
        match.finished_at = None
    if changes:
        # Set only when changed: an untouched match has nothing for the session to flush.
        match.status, match.winner = result.status, result.winner
    if in_history:
        touch_history(match.group_id)  # a match in the history, or leaving it, changed
    if was_in_history != (match.finished_at is not None):
        move_in_history([match.id], -1 if was_in_history else 1)
    if not ends_now:
        return []
    if result.winner is None:
        return [FieldError(None, None, "This hand ends the game in a draw: the lead is shared.")]
    winner = match.sides[result.winner].name
    return [FieldError(None, None, f"This hand ends the game: {winner} wins.")]
