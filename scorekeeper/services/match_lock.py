"""A write's hold on one match: its write lock, and the refusals a write can meet.

Every write first takes the match's write lock by bumping its revision (see
`Match`), and only then reads what it needs: two phones saving at once are
served one after the other, and each sees what the other saved.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import bindparam, event, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from ..database import connection_rows, plain_rows
from ..extensions import db
from ..models import Match
from ..validation import FieldError
from .match_state import load_match, valid_id


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

    def __init__(self, warnings: Sequence[FieldError]) -> None:
        super().__init__("; ".join(w.message for w in warnings))
        self.warnings = tuple(warnings)


_MATCH = Match.__table__
NEXT_REVISION = (  # built once (see `database.run`)
    update(_MATCH)
    .where(_MATCH.c.id == bindparam("match_id"))
    .values(revision=_MATCH.c.revision + 1)
    .returning(_MATCH.c.revision)
)


REVISION = select(_MATCH.c.revision).where(_MATCH.c.id == bindparam("match_id"))
AFTER_WRITE = "scorekeeper_after_write"  # Session.info: (match id, revision) reads must see


class MovedOn(Exception):
    """Another write to the match came in between a write's commit and a read after it."""


@contextmanager
def reading_after_write(match_id: int, revision: int) -> Iterator[None]:
    """Reads in the block, after a write committed `revision` of the match and let go
    of its lock, see that revision or raise MovedOn: the transaction the first of them
    begins checks the match's revision before anything else. (The answer to a write is
    made here, mostly from what the write kept: most such blocks read nothing.)"""
    db.session.rollback()  # a read begins afresh, after the commit
    db.session.info[AFTER_WRITE] = (match_id, revision)
    try:
        yield
    finally:
        db.session.info.pop(AFTER_WRITE, None)


@event.listens_for(Session, "after_begin")
def _check_after_write(session: Session, _transaction: Any, connection: Connection) -> None:
    expected = session.info.pop(AFTER_WRITE, None)
    if expected is not None:
        match_id, revision = expected
        found = connection_rows(connection, REVISION, {"match_id": match_id})
        if (found[0][0] if found else None) != revision:
            raise MovedOn(f"match {match_id} is past revision {revision}")


def take_lock(match_id: int, expected: int | None = None) -> int:
    """Take the match's write lock: the revision of this write.

    `expected` is the revision the client read (If-Match); another one refuses the write.
    """
    if not valid_id(match_id):
        raise MatchNotFound(f"There is no match {match_id}.")
    found = plain_rows(db.session, NEXT_REVISION, {"match_id": match_id})
    revision: int | None = found[0][0] if found else None
    if revision is None:
        raise MatchNotFound(f"There is no match {match_id}.")
    if expected is not None and revision - 1 != expected:
        raise MatchChanged("Not saved: the match changed since you read it. Read it again.")
    return revision


def load_locked(match_id: int) -> Match:
    """The match as it is under this write's lock (anything read before it is stale)."""
    db.session.expire_all()
    match = load_match(match_id)
    assert match is not None  # its row is locked by this transaction
    return match


def lock_match(match_id: int, expected: int | None = None) -> tuple[Match, int]:
    """Take the match's write lock, then load it fresh: (match, the revision of this write)."""
    revision = take_lock(match_id, expected)
    return load_locked(match_id), revision
