"""Correcting and removing hands: later hands and the game end follow the change.

Each write takes the match's write lock first (see `match_lock`) and checks that the
hand it is about to change is the one the phone read (its version or id), so a
correction or removal never lands on another hand. The caller commits (see
`storage.transaction`); a refused write changes nothing.
"""

from __future__ import annotations

from sqlalchemy import update

from ..database import checks_keys_per_statement
from ..extensions import db
from ..ids import valid_id
from ..models import Hand, Match, utcnow
from ..validation import ValidationError
from ..words.translate import gettext
from . import audit, seated
from .game_end import settle_game_end
from .hand_writes import (
    Saved,
    check_confirmed,
    confirmable,
    fill_sides,
    flush_write,
    score_as_deal,
)
from .match_lock import HandConflict, HandNotFound, HandsNoLongerFit, lock_match
from .match_state import load_match, match_rules


def _hand(match: Match, number: int) -> Hand:
    hand = next((hand for hand in match.hands if hand.number == number), None)
    if not valid_id(number) or hand is None:
        raise HandNotFound(gettext("This match has no hand %(number)s.", number=str(number)))
    return hand


def _rescore_moved(match: Match, first: int) -> None:
    """After a removal the later hands are dealt one number earlier: where the going out
    follows the deal, score them again as their new deal (a hand that no longer fits its
    new deal refuses the removal, and nothing is changed)."""
    going = match_rules(match).going_out
    if not (going.bonus_by_deal or going.needs_by_deal):
        return
    for hand in match.hands[first - 1 :]:
        records = [side.record for side in hand.sides]
        lineup = hand.lineup
        if lineup:  # a seated hand is evaluated by the sides of its line-up
            records = seated.side_records(lineup, records)
        try:
            seat_records, evaluation = score_as_deal(match, records, hand.number, lineup)
        except ValidationError as error:
            reason = error.problems[0].message if error.problems else ""
            raise HandsNoLongerFit(
                gettext(
                    "Not removed: hand %(number)s would become deal %(deal)s, where it is not "
                    "possible (%(reason)s). Correct it first.",
                    number=str(hand.number + 1),
                    deal=str(hand.number),
                    reason=reason,
                )
            ) from None
        before = audit.hand_snapshot(hand)
        fill_sides(hand, seat_records, evaluation)
        if audit.hand_snapshot(hand) != before:  # lines too: a version names one state
            hand.version = match.revision
            hand.updated_at = utcnow()


def _move_up(match: Match, removed: int) -> Match:
    """Move the hands after the removed one up one number, whatever order the database
    visits them in: in one statement where the (match, number) key is checked at its end
    (PostgreSQL), else in two, through negative numbers (SQLite checks it row by row).
    Returns the match read again, its hands renumbered."""
    later = (Hand.match_id == match.id) & (Hand.number > removed)
    options = {"synchronize_session": False}  # the match is read again below
    if checks_keys_per_statement(db.engine.dialect.name):
        db.session.execute(
            update(Hand).where(later).values(number=Hand.number - 1), execution_options=options
        )
    else:
        db.session.execute(
            update(Hand).where(later).values(number=-(Hand.number - 1)),
            execution_options=options,
        )
        negative = (Hand.match_id == match.id) & (Hand.number < 0)
        db.session.execute(
            update(Hand).where(negative).values(number=-Hand.number), execution_options=options
        )
    moved = load_match(match.id)
    assert moved is not None  # locked by this write
    return moved


def _check_lineups(match: Match, first: int, verb: str) -> None:
    """A change to an earlier hand can move the phase switch: refuse it when a later
    hand's line-up would no longer be possible (nothing is changed)."""
    found = seated.misfit(match, first)
    if found is not None:
        number, reason = found
        said = {"number": str(number), "reason": reason}
        raise HandsNoLongerFit(
            gettext(
                "Not saved: hand %(number)s would no longer be possible (%(reason)s). Correct "
                "or remove it first.",
                **said,
            )
            if verb == "saved"
            else gettext(
                "Not removed: hand %(number)s would no longer be possible (%(reason)s). Correct "
                "or remove it first.",
                **said,
            )
        )


def correct_hand(
    match_id: int,
    number: int,
    records: object,
    version: int | None = None,
    *,
    confirmed: str | None = None,
    actor: audit.Actor | None = None,
    expected: int | None = None,
    lineup: object = None,
) -> Saved:
    """Replace a hand's records; `version` (if given) must be the one the phone read.

    In a seated match a change of totals can move the phase switch: a later hand whose
    line-up would no longer be possible refuses the correction."""
    match = lock_match(match_id, expected)
    hand = _hand(match, number)
    if version is not None and version != hand.version:
        raise HandConflict(
            gettext(
                "Not saved: hand %(number)s was changed from another device since you opened it "
                "(corrected, or a hand before it removed).",
                number=str(number),
            )
        )
    posted = confirmable(records, lineup)
    seat_records, evaluation = score_as_deal(match, records, number, lineup)
    before = audit.hand_snapshot(hand)
    fill_sides(hand, seat_records, evaluation)
    after = audit.hand_snapshot(hand)
    if before == after:
        db.session.rollback()  # nothing changed: not even the revision moves on
        return Saved(number, changed=False, warnings=evaluation.warnings)
    hand.version = match.revision
    hand.updated_at = utcnow()
    flush_write()
    _check_lineups(match, number + 1, "saved")
    warnings = [*evaluation.warnings, *settle_game_end(match)]
    check_confirmed(confirmed, posted, warnings)
    audit.keep(match, hand, "corrected", before=before, after=after, actor=actor)
    flush_write()
    return Saved(number, changed=True, warnings=tuple(warnings), match=match)


def remove_hand(
    match_id: int,
    number: int,
    *,
    version: int | None = None,
    hand_id: int | None = None,
    actor: audit.Actor | None = None,
    expected: int | None = None,
) -> Saved:
    """Remove a hand; later hands move up one number.

    `version` (or `hand_id`) must name the hand the phone read: a repeated removal,
    or one aimed at a hand that moved, removes nothing.
    """
    match = lock_match(match_id, expected)
    if hand_id is not None and all(hand.id != hand_id for hand in match.hands):
        raise HandConflict(
            gettext(
                "Hand %(number)s was already removed: nothing more was removed.",
                number=str(number),
            )
        )
    hand = _hand(match, number)
    if (hand_id is not None and hand.id != hand_id) or (
        version is not None and version != hand.version
    ):
        raise HandConflict(
            gettext(
                "Not removed: hand %(number)s is not the hand you read (it was changed, or a "
                "hand before it was removed, from another device). Check the scoreboard.",
                number=str(number),
            )
        )
    before = audit.hand_snapshot(hand)
    removed_id = hand.id
    match.hands.remove(hand)
    flush_write()
    match = _move_up(match, number)
    _rescore_moved(match, number)
    flush_write()
    _check_lineups(match, number, "removed")
    settle_game_end(match)
    audit.keep_removal(match, number, removed_id, before=before, actor=actor)
    flush_write()
    return Saved(number, changed=True, match=match)
