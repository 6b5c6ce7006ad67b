"""A write's hold on one match: its write lock, and the refusals a write can meet.

Every write first takes the match's write lock by moving its revision on (see
`Match`), and only then reads what it needs: two phones saving at once are served
one after the other, and each sees what the other saved.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import update

from ..extensions import db
from ..ids import valid_id
from ..models import Match
from ..validation import FieldError, Refusal
from ..words.translate import gettext
from .match_state import load_match


class MatchError(Refusal):
    """A write the match cannot take."""


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


def lock_match(match_id: int, expected: int | None = None) -> Match:
    """Take the match's write lock (in the caller's write transaction), then read the
    match as it is now. Its revision is this write's: a hand written now takes it as its
    version. `expected` is the revision the client read (If-Match); another refuses."""
    missing = MatchNotFound(gettext("There is no match %(number)s.", number=str(match_id)))
    if not valid_id(match_id):
        raise missing
    revision = db.session.execute(
        update(Match)
        .where(Match.id == match_id)
        .values(revision=Match.revision + 1)
        .returning(Match.revision)
        .execution_options(synchronize_session=False)
    ).scalar_one_or_none()
    if revision is None:
        raise missing
    if expected is not None and revision - 1 != expected:
        raise MatchChanged(
            gettext("Not saved: the match changed since you read it. Read it again.")
        )
    match = load_match(match_id)
    assert match is not None  # its row is locked by this transaction
    return match
