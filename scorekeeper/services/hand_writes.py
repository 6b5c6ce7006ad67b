"""Recording, correcting and removing hands: each write is one unit of work on one match.

Each write takes the match's write lock first (see `match_lock`). A write checks
that the hand it is about to change is the one the phone read (its version),
so a correction or removal never lands on another hand. The caller commits
(see `storage.transaction`); a refused write changes nothing.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from ..database import insert_of, plain_rows, written_rows
from ..extensions import db
from ..models import Hand, HandSide, Match, utcnow
from ..rules import Rules
from ..rules.game import DRAWN, FINISHED
from ..rules.hand import MAX_DEAL
from ..validation import FieldError, ValidationError
from . import audit, seated
from .game_end import status_after_new_hand
from .hands import Evaluation, evaluate
from .kept_match import current_match
from .match_lock import (
    HandConflict,
    MatchFinished,
    NeedsConfirmation,
    load_locked,
    lock_match,
    take_lock,
)
from .match_state import (
    ABANDONED,
    HandKey,
    current_keys,
    frozen_json,
    keep_keys,
    keep_parts,
    match_rules,
    side_names,
    totals_after,
)

_HAND, _HAND_SIDE = cast(Table, Hand.__table__), cast(Table, HandSide.__table__)
# A save's statements, built once (see `database.run`).
HAND_BY_TOKEN = select(_HAND.c.number).where(
    _HAND.c.match_id == bindparam("match_id"), _HAND.c.submission_token == bindparam("token")
)
NEW_HAND = insert_of(_HAND).returning(_HAND.c.id)
NEW_HAND_SIDES = insert_of(_HAND_SIDE)


@dataclass(frozen=True)
class Saved:
    """What a write did: the hand's number now, whether anything changed, what was unusual,
    and the match as the write left it (None when nothing was locked)."""

    number: int
    changed: bool
    warnings: tuple[FieldError, ...] = ()
    match: Match | None = None
    keys: list[HandKey] | None = None  # the match's hands after the write, when it has them


def confirmable(records: object, lineup: object = None) -> object:
    """What a confirmation covers: the records as posted, and a seated hand's line-up."""
    return records if lineup is None else {"sides": records, "lineup": lineup}


def fingerprint(records: object) -> str:
    """A short digest of a hand's records: a confirmation holds for these entries only."""
    raw = json.dumps(records, sort_keys=True, default=str).encode()
    return hashlib.sha256(raw).hexdigest()[:16]


def number_by_token(match_id: int, token: str | None) -> int | None:
    """The number of the hand saved with this token, if one was."""
    if not token:
        return None
    found = plain_rows(db.session, HAND_BY_TOKEN, {"match_id": match_id, "token": token})
    return found[0][0] if found else None


def score_as_deal(
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


def _seat_rows(records: list[Any], evaluation: Evaluation) -> list[dict[str, Any]]:
    """Each seat's record, total and lines (in a seated game, its share), as stored."""
    scores = evaluation.seats or evaluation.scores
    return [
        {
            "seat": seat,
            "record": record,
            "total": side_score.total,
            "lines": [line.to_dict() for line in side_score.lines],
        }
        for seat, (record, side_score) in enumerate(zip(records, scores, strict=True))
    ]


def _lineup(evaluation: Evaluation) -> list[list[int]] | None:
    lineup = evaluation.hand.lineup
    return seated.lineup_json(lineup) if lineup else None


def fill_sides(hand: Hand, records: list[Any], evaluation: Evaluation) -> None:
    """Store each seat's record, total and lines in a hand read with its sides."""
    hand.lineup = _lineup(evaluation)
    for row in _seat_rows(records, evaluation):
        seat = row["seat"]
        if seat < len(hand.sides):
            hand.sides[seat].record = row["record"]
            hand.sides[seat].total = row["total"]
            hand.sides[seat].lines = row["lines"]
        else:
            hand.sides.append(HandSide(**row))


def _insert_hand(
    match: Match,
    number: int,
    revision: int,
    token: str | None,
    rows: list[dict[str, Any]],
    lineup: list[list[int]] | None,
) -> int:
    """A new hand and its seats in two statements (no unit of work to flush); its id.
    A number or token taken meanwhile (only possible without the lock) is a conflict."""
    now = utcnow()
    try:
        values = {
            "match_id": match.id,
            "number": number,
            "version": revision,
            "submission_token": token,
            "recorded_at": now,
            "updated_at": now,
            "lineup": lineup,
        }
        [(hand_id,)] = written_rows(db.session, NEW_HAND, values)
        written_rows(db.session, NEW_HAND_SIDES, [{**row, "hand_id": hand_id} for row in rows])
    except IntegrityError:
        raise _conflict() from None
    return int(hand_id)


def _conflict() -> HandConflict:
    return HandConflict(
        "Not saved: that hand was just recorded from another device. "
        "Check the scoreboard before saving again."
    )


def flush_write() -> None:
    """Flush; a unique key taken meanwhile (only possible without the lock) is a conflict."""
    try:
        db.session.flush()
    except IntegrityError:
        raise _conflict() from None


def check_confirmed(confirmed: str | None, records: object, warnings: list[FieldError]) -> None:
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
    duplicate = number_by_token(match_id, token)
    if duplicate is not None:
        return Saved(duplicate, changed=False)
    match, revision = lock_match(match_id, expected)
    posted = HandPost(records, token, expected_number, lineup)
    return _record_locked(match, revision, posted, confirmed, actor)


@dataclass(frozen=True)
class HandPost:
    """A hand as posted: its records, idempotency token, expected number and line-up."""

    records: object
    token: str | None = None
    expected_number: int | None = None
    lineup: object = None


@dataclass(frozen=True)
class HandPlan:
    """A new hand scored before its write takes the lock, from one read of the match.

    Saved as planned only when the match is still at the revision read (no write came
    in between: one scorer per match makes that the rule); else scored again under the
    lock. Work done under the lock is work the other workers' saves wait for.
    """

    post: HandPost
    match: Match  # detached from the session, as read
    keys: list[HandKey]
    rules: Rules
    evaluation: Evaluation
    rows: list[dict[str, Any]]
    lineup: list[list[int]] | None


def plan_hand(match_id: int, post: HandPost, revision: int | None = None) -> HandPlan | None:
    """Read the match and score the hand outside any write (None: leave it all to the
    write, as with a token, or a hand or match the write would refuse). `revision`: the
    match's as this transaction read it (see `current_match`)."""
    match = current_match(match_id, revision) if post.token is None else None
    if match is None or match.status in (FINISHED, DRAWN, ABANDONED):
        return None
    # A revision names one state of the match's hands: those the last save left are kept
    # (if another write came in since, the revision check under the lock sees it).
    keys = current_keys(match.id, match.revision, len(match.sides))
    number = len(keys) + 1
    if post.expected_number not in (None, number):
        return None
    rules = match_rules(match)
    frozen_json(match)  # kept, as the rules: the answer reads them from the detached match
    try:
        records, evaluation = score_as_deal(match, rules, post.records, number, post.lineup)
    except ValidationError:
        return None
    rows = _seat_rows(records, evaluation)
    db.session.expunge_all()  # kept as read while the write starts a new transaction
    return HandPlan(post, match, keys, rules, evaluation, rows, _lineup(evaluation))


def record_planned(
    plan: HandPlan, *, actor: audit.Actor | None = None, expected: int | None = None
) -> Saved:
    """Save a planned hand (in the caller's transaction): as planned when the match has
    not moved on since it was read, else as `record_hand` does."""
    match = plan.match
    revision = take_lock(match.id, expected)
    if revision != match.revision + 1:
        return _record_locked(load_locked(match.id), revision, plan.post, None, actor)
    set_committed_value(match, "revision", revision)  # (left detached: see `_settle`)
    keys = list(plan.keys)
    return _add_hand(match, revision, keys, plan, plan.evaluation, plan.rows, None, actor)


def _record_locked(
    match: Match,
    revision: int,
    post: HandPost,
    confirmed: str | None,
    actor: audit.Actor | None,
) -> Saved:
    duplicate = number_by_token(match.id, post.token)  # the same post, served first by the lock
    if duplicate is not None:
        return Saved(duplicate, changed=False)
    if match.status in (FINISHED, DRAWN):
        raise MatchFinished("Not saved: the game is over, so no more hands can be recorded.")
    if match.status == ABANDONED:
        raise MatchFinished("Not saved: this match was abandoned.")
    # The totals so far (the game end needs them): the hands the last write left, read
    # under the lock, so only those written since this worker last kept them.
    keys = current_keys(match.id, revision - 1, len(match.sides))
    number = len(keys) + 1
    expected_number = post.expected_number
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
    records, evaluation = score_as_deal(match, rules, post.records, number, post.lineup)
    plan = HandPlan(
        post, match, keys, rules, evaluation, _seat_rows(records, evaluation), _lineup(evaluation)
    )
    return _add_hand(match, revision, keys, plan, evaluation, plan.rows, confirmed, actor)


def _add_hand(
    match: Match,
    revision: int,
    keys: list[HandKey],
    plan: HandPlan,
    evaluation: Evaluation,
    rows: list[dict[str, Any]],
    confirmed: str | None,
    actor: audit.Actor | None,
) -> Saved:
    """Insert the next hand as scored, settle the game end, keep it in the audit trail."""
    number = len(keys) + 1
    hand_id = _insert_hand(match, number, revision, plan.post.token, rows, plan.lineup)
    keys.append(HandKey(hand_id, number, revision, [row["total"] for row in rows]))
    keep_keys(match.id, revision, keys)
    sides = [audit.side_snapshot(**row) for row in rows]
    keep_parts(hand_id, revision, sides)
    final = totals_after(match, keys)
    game_end = status_after_new_hand(match, plan.rules, final, len(keys), rows)
    warnings = [*evaluation.warnings, *game_end]
    check_confirmed(confirmed, confirmable(plan.post.records, plan.post.lineup), warnings)
    after = audit.snapshot(number, sides, plan.lineup)
    audit.keep(match, number, hand_id, "recorded", after=after, actor=actor)
    return Saved(number, changed=True, warnings=tuple(warnings), match=match, keys=keys)
