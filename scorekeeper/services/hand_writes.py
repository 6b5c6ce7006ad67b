"""Recording, correcting and removing hands: each write is one unit of work on one match.

Every write first takes the match's write lock by bumping its revision (see
`Match`), and only then reads what it needs: two phones saving at once are
served one after the other, and each sees what the other saved. A write checks
that the hand it is about to change is the one the phone read (its version),
so a correction or removal never lands on another hand. The caller commits
(see `storage.transaction`); a refused write changes nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from ..extensions import db
from ..models import Hand, HandSide, Match, utcnow
from ..rules import InvalidHand, Problem, Rules, instant_winner
from ..rules.game import DRAWN, FINISHED
from ..rules.hand import MAX_DEAL
from . import audit, seated
from .hands import Evaluation, evaluate
from .listing import touch_history
from .match_state import (
    ABANDONED,
    hand_totals,
    has_instant_wins,
    load_match,
    match_rules,
    needs_went_out,
    result_after,
    running_totals,
    side_names,
    valid_id,
)


class MatchError(Exception):
    """A write the match cannot take; `message` is for the player, `status` for the API."""

    status = 409

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class MatchNotFound(MatchError):
    status = 404


class MatchFinished(MatchError):
    pass


class HandConflict(MatchError):
    """The hand or the match changed since the phone read it: nothing was saved."""


class HandNotFound(MatchError):
    status = 404


class EndsTooEarly(MatchError):
    """The change would end the game before hands that were already played."""


class HandsNoLongerFit(MatchError):
    """A removal would move a later hand to a deal whose rules it does not meet."""


class MatchChanged(MatchError):
    """The match is not at the revision the client read (HTTP If-Match): nothing done."""

    status = 412


class NeedsConfirmation(Exception):
    """The hand is possible but unlikely: the page asks once more before saving it."""

    def __init__(self, warnings: Sequence[Problem]) -> None:
        super().__init__("; ".join(w.message for w in warnings))
        self.warnings = tuple(warnings)


@dataclass(frozen=True)
class Saved:
    """What a write did: the hand's number now, whether anything changed, what was unusual."""

    number: int
    changed: bool
    warnings: tuple[Problem, ...] = ()


def confirmable(records: object, lineup: object = None) -> object:
    """What a confirmation covers: the records as posted, and a seated hand's line-up."""
    return records if lineup is None else {"sides": records, "lineup": lineup}


def fingerprint(records: object) -> str:
    """A short digest of a hand's records: a confirmation holds for these entries only."""
    raw = json.dumps(records, sort_keys=True, default=str).encode()
    return hashlib.sha256(raw).hexdigest()[:16]


def hand_by_token(match_id: int, token: str | None) -> Hand | None:
    if not token:
        return None
    return db.session.execute(
        select(Hand).where(Hand.match_id == match_id, Hand.submission_token == token)
    ).scalar_one_or_none()


def lock_match(match_id: int, expected: int | None = None) -> tuple[Match, int]:
    """Take the match's write lock, then load it fresh: (match, the revision of this write).

    `expected` is the revision the client read (If-Match); another one refuses the write.
    """
    if not valid_id(match_id):
        raise MatchNotFound(f"There is no match {match_id}.")
    revision = db.session.execute(
        update(Match.__table__)
        .where(Match.__table__.c.id == match_id)
        .values(revision=Match.__table__.c.revision + 1)
        .returning(Match.__table__.c.revision)
    ).scalar_one_or_none()
    if revision is None:
        raise MatchNotFound(f"There is no match {match_id}.")
    if expected is not None and revision - 1 != expected:
        raise MatchChanged("Not saved: the match changed since you read it. Read it again.")
    db.session.expire_all()  # anything read before the lock is stale
    match = load_match(match_id)
    assert match is not None  # its row is locked by this transaction
    return match, revision


def _hand(match: Match, number: int) -> Hand:
    if not valid_id(number):
        raise HandNotFound(f"This match has no hand {number}.")
    hand = db.session.execute(
        select(Hand)
        .where(Hand.match_id == match.id, Hand.number == number)
        .options(selectinload(Hand.sides))
    ).scalar_one_or_none()
    if hand is None:
        raise HandNotFound(f"This match has no hand {number}.")
    return hand


def _evaluate(
    match: Match, rules: Rules, records: object, deal: int, lineup: object = None
) -> tuple[list[Any], Evaluation]:
    """Score the hand as deal `deal`: in a match the deal number is the hand number
    (deal-keyed rules use their last entry past the end, so a very long match is capped).

    A seated match's hand has a `lineup`, checked against the phase of hand `deal`; its
    records come back one per seat (each seat keeps its side's record)."""
    phase = seated.phase_for_hand(match, rules, deal)
    deal = min(deal, MAX_DEAL)
    evaluation = evaluate(
        rules, records, match.players_per_side, side_names(match), deal, lineup, phase
    )
    assert isinstance(records, list)
    lineup_read = evaluation.hand.lineup
    if lineup_read:
        by_seat: list[Any] = [None] * len(evaluation.seats)
        for seats, record in zip(lineup_read, records, strict=True):
            for seat in seats:
                by_seat[seat] = record
        return by_seat, evaluation
    return records, evaluation


def _fill_sides(hand: Hand, records: list[Any], evaluation: Evaluation) -> None:
    """Store each seat's record, total and lines (in a seated game, its share)."""
    lineup = evaluation.hand.lineup
    hand.lineup = seated.lineup_json(lineup) if lineup else None
    scores = evaluation.seats or evaluation.scores
    for seat, (record, side_score) in enumerate(zip(records, scores, strict=True)):
        lines = [line.to_dict() for line in side_score.lines]
        if seat < len(hand.sides):
            hand.sides[seat].record = record
            hand.sides[seat].total = side_score.total
            hand.sides[seat].lines = lines
        else:
            hand.sides.append(
                HandSide(seat=seat, record=record, total=side_score.total, lines=lines)
            )


def _flush() -> None:
    """Flush; a unique key taken meanwhile (only possible without the lock) is a conflict."""
    try:
        db.session.flush()
    except IntegrityError:
        raise HandConflict(
            "Not saved: that hand was just recorded from another device. "
            "Check the scoreboard before saving again."
        ) from None


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


def _refresh_status(match: Match, rules: Rules) -> list[Problem]:
    """Recompute the game end; refuse a change that ends it before hands already played.

    Deal-count games end after their last deal (the hand number is the deal number);
    a tie rule may need who went out last. Returns a warning when the change ends the
    game (the page asks before saving it).
    """
    running = running_totals(hand_totals(match.id, len(match.sides)), len(match.sides))
    by_hand = _records_by_hand(match.id) if needs_went_out(rules) or has_instant_wins(rules) else {}
    went_out = {
        number: seat
        for number, sides in by_hand.items()
        for seat, record in enumerate(sides)
        if record.get("went_out")
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
    if result.over or match.finished_at is not None:
        touch_history(match.group_id)  # a match in the history, or leaving it, changed
    ends_now = result.over and match.status != result.status
    if ends_now:
        match.finished_at = utcnow()  # a finished or drawn match: its place in the history
    elif not result.over:
        match.finished_at = None
    match.status = result.status
    match.winner = result.winner
    if not ends_now:
        return []
    if result.winner is None:
        return [Problem(None, None, "This hand ends the game in a draw: the lead is shared.")]
    winner = match.sides[result.winner].name
    return [Problem(None, None, f"This hand ends the game: {winner} wins.")]


def _rescore_moved(match: Match, rules: Rules, first: int, revision: int) -> None:
    """After a removal the later hands are dealt one number earlier: where the going out
    follows the deal, score them again as their new deal (a hand that no longer fits its
    new deal refuses the removal, and nothing is changed)."""
    going = rules.going_out
    if not (going.bonus_by_deal or going.needs_by_deal):
        return
    db.session.expire_all()  # the numbers moved in SQL
    moved = db.session.execute(
        select(Hand)
        .where(Hand.match_id == match.id, Hand.number >= first)
        .order_by(Hand.number)
        .options(selectinload(Hand.sides))
    ).scalars()
    for hand in moved:
        records = [side.record for side in hand.sides]
        lineup = hand.lineup
        if lineup:  # a seated hand is evaluated by the sides of its line-up
            records = seated.side_records(lineup, records)
        try:
            records, evaluation = _evaluate(match, rules, records, hand.number, lineup)
        except InvalidHand as error:
            reason = error.problems[0].message if error.problems else ""
            raise HandsNoLongerFit(
                f"Not removed: hand {hand.number + 1} would become deal {hand.number}, "
                f"where it is not possible ({reason}). Correct it first."
            ) from None
        before = audit.hand_snapshot(hand)
        _fill_sides(hand, records, evaluation)
        if audit.hand_snapshot(hand) != before:  # lines too: a version names one state
            hand.version = revision
            hand.updated_at = utcnow()
    _flush()


def _check_lineups(match: Match, rules: Rules, first: int, verb: str) -> None:
    """A change to an earlier hand can move the phase switch: refuse it when a later
    hand's line-up would no longer be possible (nothing is changed)."""
    found = seated.misfit(match, rules, first)
    if found is not None:
        number, reason = found
        raise HandsNoLongerFit(
            f"Not {verb}: hand {number} would no longer be possible ({reason}). "
            "Correct or remove it first."
        )


def _check(confirmed: str | None, records: object, warnings: list[Problem]) -> None:
    """Without a confirmation of these very entries, an unlikely hand is asked about first."""
    if warnings and confirmed is not None and confirmed != fingerprint(records):
        raise NeedsConfirmation(warnings)


def record_hand(
    match_id: int,
    records: object,
    *,
    token: str | None = None,
    expected_number: int | None = None,
    confirmed: str | None = None,
    actor: audit.Actor | None = None,
    expected: int | None = None,
    lineup: object = None,
) -> Saved:
    """Add the next hand; a token already used answers with its hand and records nothing.

    `confirmed` is for the pages: None saves unlikely hands at once (the API, which
    returns the warnings); a string saves them only when it is the fingerprint of
    these records, and otherwise raises NeedsConfirmation (and nothing is saved).
    """
    duplicate = hand_by_token(match_id, token)
    if duplicate is not None:
        return Saved(duplicate.number, changed=False)
    match, revision = lock_match(match_id, expected)
    duplicate = hand_by_token(match_id, token)  # the same post, served first by the lock
    if duplicate is not None:
        return Saved(duplicate.number, changed=False)
    if match.status in (FINISHED, DRAWN):
        raise MatchFinished("Not saved: the game is over, so no more hands can be recorded.")
    if match.status == ABANDONED:
        raise MatchFinished("Not saved: this match was abandoned.")
    count = db.session.execute(
        select(func.count()).select_from(Hand).where(Hand.match_id == match.id)
    ).scalar_one()
    number = count + 1
    if expected_number is not None and expected_number < number:
        raise HandConflict(
            f"Not saved: hand {expected_number} was already recorded (from another device?). "
            f"Check the scoreboard before recording hand {number}."
        )
    if expected_number is not None and expected_number > number:
        raise HandConflict(
            f"Not saved: the next hand of this match is hand {number}, not {expected_number}."
        )
    rules = match_rules(match)
    posted = confirmable(records, lineup)
    records, evaluation = _evaluate(match, rules, records, number, lineup)
    hand = Hand(match_id=match.id, number=number, version=revision, submission_token=token)
    _fill_sides(hand, records, evaluation)
    db.session.add(hand)
    _flush()
    warnings = [*evaluation.warnings, *_refresh_status(match, rules)]
    _check(confirmed, posted, warnings)
    audit.keep(match, number, hand.id, "recorded", after=audit.hand_snapshot(hand), actor=actor)
    _flush()
    return Saved(number, changed=True, warnings=tuple(warnings))


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
    match, revision = lock_match(match_id, expected)
    hand = _hand(match, number)
    if version is not None and version != hand.version:
        raise HandConflict(
            f"Not saved: hand {number} was changed from another device since you opened it "
            "(corrected, or a hand before it removed)."
        )
    rules = match_rules(match)
    posted = confirmable(records, lineup)
    records, evaluation = _evaluate(match, rules, records, number, lineup)
    before = audit.hand_snapshot(hand)
    _fill_sides(hand, records, evaluation)
    after = audit.hand_snapshot(hand)
    if before == after:
        return Saved(number, changed=False, warnings=evaluation.warnings)
    hand.version = revision
    hand.updated_at = utcnow()
    _flush()
    _check_lineups(match, rules, number + 1, "saved")
    warnings = [*evaluation.warnings, *_refresh_status(match, rules)]
    _check(confirmed, posted, warnings)
    audit.keep(match, number, hand.id, "corrected", before=before, after=after, actor=actor)
    _flush()
    return Saved(number, changed=True, warnings=tuple(warnings))


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
    match, revision = lock_match(match_id, expected)
    if hand_id is not None and db.session.get(Hand, hand_id) is None:
        raise HandConflict(f"Hand {number} was already removed: nothing more was removed.")
    hand = _hand(match, number)
    if (hand_id is not None and hand.id != hand_id) or (
        version is not None and version != hand.version
    ):
        raise HandConflict(
            f"Not removed: hand {number} is not the hand you read (it was changed, or a hand "
            "before it was removed, from another device). Check the scoreboard."
        )
    before = audit.hand_snapshot(hand)
    removed_id = hand.id
    db.session.delete(hand)
    _flush()
    # Move the later hands up in two statements whatever their number (the unique
    # (match, number) key is checked row by row, so go through negative numbers).
    later = (Hand.match_id == match.id) & (Hand.number > number)
    db.session.execute(
        update(Hand).where(later).values(number=-(Hand.number - 1)),
        execution_options={"synchronize_session": False},
    )
    db.session.execute(
        update(Hand).where(Hand.match_id == match.id, Hand.number < 0).values(number=-Hand.number),
        execution_options={"synchronize_session": False},
    )
    rules = match_rules(match)
    _rescore_moved(match, rules, number, revision)
    _check_lineups(match, rules, number, "removed")
    _refresh_status(match, rules)
    audit.keep(match, number, removed_id, "removed", before=before, actor=actor)
    _flush()
    return Saved(number, changed=True)
