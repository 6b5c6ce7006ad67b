"""Recording a hand: one unit of work on one match, through the ORM.

The write takes the match's lock first (see `match_lock`), reads the match as it is
now, scores the hand as the next deal, adds it, settles the game end and keeps the
change in the audit trail. The caller commits (see `storage.transaction`); a refused
write changes nothing.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import Hand, HandSide, Match, MatchStatus
from ..rules.hand import MAX_DEAL
from ..validation import FieldError
from ..words.translate import gettext
from . import audit, seated
from .game_end import settle_game_end
from .hands import Evaluation, evaluate
from .match_lock import HandConflict, MatchFinished, NeedsConfirmation, lock_match
from .match_state import match_rules, side_names


@dataclass(frozen=True)
class Saved:
    """What a write did: the hand's number now, whether anything changed, what was unusual
    about it (the API lists it as warnings), and the match as the write left it (loaded,
    in the write's transaction: its answer is made from it before the commit)."""

    number: int
    changed: bool
    warnings: tuple[FieldError, ...] = ()
    match: Match | None = None


def confirmable(records: object, lineup: object = None) -> object:
    """What a confirmation covers: the records as posted, and a seated hand's line-up."""
    return records if lineup is None else {"sides": records, "lineup": lineup}


def fingerprint(records: object) -> str:
    """A short digest of a hand's records: a confirmation holds for these entries only."""
    raw = json.dumps(records, sort_keys=True, default=str).encode()
    return hashlib.sha256(raw).hexdigest()[:16]


def check_confirmed(confirmed: str | None, records: object, warnings: list[FieldError]) -> None:
    """Without a confirmation of these very entries, an unlikely hand is asked about first.
    `confirmed` None: saved at once (the API, which lists the warnings)."""
    if warnings and confirmed is not None and confirmed != fingerprint(records):
        raise NeedsConfirmation(warnings)


def number_by_token(match_id: int, token: str | None) -> int | None:
    """The number of the hand saved with this token, if one was."""
    if not token:
        return None
    return db.session.execute(
        select(Hand.number).where(Hand.match_id == match_id, Hand.submission_token == token)
    ).scalar_one_or_none()


def score_as_deal(
    match: Match, records: object, deal: int, lineup: object = None
) -> tuple[list[Any], Evaluation]:
    """Score the hand as deal `deal`: in a match the deal number is the hand number
    (deal-keyed rules use their last entry past the end, so a very long match is capped).

    A seated match's hand has a `lineup`, checked against the phase of hand `deal`; its
    records come back one per seat (each seat keeps its side's record)."""
    rules = match_rules(match)
    phase = seated.phase_for_hand(match, rules, deal)
    evaluation = evaluate(
        rules,
        records,
        match.players_per_side,
        side_names(match),
        min(deal, MAX_DEAL),
        lineup,
        phase,
    )
    assert isinstance(records, list)
    lineup_read = evaluation.hand.lineup
    if not lineup_read:
        return records, evaluation
    by_seat: list[Any] = [None] * len(evaluation.seats)
    for seats, record in zip(lineup_read, records, strict=True):
        for seat in seats:
            by_seat[seat] = record
    return by_seat, evaluation


def fill_sides(hand: Hand, records: list[Any], evaluation: Evaluation) -> None:
    """Store each seat's record, total and lines (in a seated game, its share)."""
    lineup = evaluation.hand.lineup
    hand.lineup = seated.lineup_json(lineup) if lineup else None
    scores = evaluation.seats or evaluation.scores
    for seat, (record, side_score) in enumerate(zip(records, scores, strict=True)):
        lines = [line.to_dict() for line in side_score.lines]
        if seat < len(hand.sides):
            side = hand.sides[seat]
            side.record, side.total, side.lines = record, side_score.total, lines
        else:
            hand.sides.append(
                HandSide(seat=seat, record=record, total=side_score.total, lines=lines)
            )


def flush_write() -> None:
    """Flush; a unique key taken meanwhile (another device's save) is a conflict."""
    try:
        db.session.flush()
    except IntegrityError:
        raise HandConflict(
            gettext(
                "Not saved: that hand was just recorded from another device. Check the "
                "scoreboard before saving again."
            )
        ) from None


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
    duplicate = number_by_token(match_id, token)
    if duplicate is None:
        match = lock_match(match_id, expected)
        duplicate = number_by_token(match_id, token)  # the same post, served first
    if duplicate is not None:
        return Saved(duplicate, changed=False)
    if match.status in (MatchStatus.FINISHED, MatchStatus.DRAWN):
        raise MatchFinished(
            gettext("Not saved: the game is over, so no more hands can be recorded.")
        )
    if match.status == MatchStatus.ABANDONED:
        raise MatchFinished(gettext("Not saved: this match was abandoned."))
    number = len(match.hands) + 1
    if expected_number is not None and expected_number < number:
        raise HandConflict(
            gettext(
                "Not saved: hand %(number)s was already recorded (from another device?). Check "
                "the scoreboard before recording hand %(next)s.",
                number=str(expected_number),
                next=str(number),
            )
        )
    if expected_number is not None and expected_number > number:
        raise HandConflict(
            gettext(
                "Not saved: the next hand of this match is hand %(next)s, not %(number)s.",
                next=str(number),
                number=str(expected_number),
            )
        )
    seat_records, evaluation = score_as_deal(match, records, number, lineup)
    hand = Hand(number=number, version=match.revision, submission_token=token)
    fill_sides(hand, seat_records, evaluation)
    match.hands.append(hand)
    flush_write()
    warnings = [*evaluation.warnings, *settle_game_end(match)]
    check_confirmed(confirmed, confirmable(records, lineup), warnings)
    audit.keep(match, hand, "recorded", after=audit.hand_snapshot(hand), actor=actor)
    flush_write()
    return Saved(number, changed=True, warnings=tuple(warnings), match=match)
