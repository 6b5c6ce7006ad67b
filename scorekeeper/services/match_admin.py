"""Changes to a match beyond its hands: rename a side, abandon the match, delete it.

Each takes the match's write lock (so live scoreboards see the change); a deletion is
recorded in the group's activity log, since the match and its own trail are gone.
"""

from __future__ import annotations

from ..extensions import db
from ..models import SIDE_NAME_LENGTH, Activity, ActivityAction, MatchStatus, side_name_of, utcnow
from ..validation import FieldError, ValidationError
from ..words.translate import gettext
from . import names, ratings
from .events import kept_by_event
from .groups import record_activity
from .match_lock import MatchError, lock_match
from .match_setup import clean_name
from .match_state import no_longer_played
from .rated_matches import is_counted


def rename_side(match_id: int, seat: int, raw: object) -> str:
    """Give a side a name (empty: named after its players again); returns the new name."""
    match = lock_match(match_id)
    if not 0 <= seat < len(match.sides):
        raise MatchError(gettext("This match has no side %(number)s.", number=str(seat + 1)))
    side = match.sides[seat]
    name = clean_name(raw) or side_name_of([member.player.name for member in side.members])
    if len(name) > SIDE_NAME_LENGTH:
        raise ValidationError([FieldError(seat, "name", gettext("That side name is too long"))])
    hidden = names.problem(name, person=False)
    if hidden:
        raise ValidationError([FieldError(seat, "name", hidden)])
    side.name = name
    return name


def abandon_match(match_id: int) -> None:
    """The match leaves the home page and stays in the history, marked abandoned."""
    match = lock_match(match_id)
    if no_longer_played(match):
        raise MatchError(gettext("This match is over: there is nothing to abandon."))
    table = kept_by_event(match_id)
    if table is not None:
        raise MatchError(table)
    match.status = MatchStatus.ABANDONED
    match.finished_at = utcnow()  # when it stopped: its place in the history


def delete_match(match_id: int, actor: str) -> Activity:
    """Delete the match and everything of it; returns the activity log's entry."""
    match = lock_match(match_id)
    table = kept_by_event(match_id)
    if table is not None:
        raise MatchError(table)
    assert match.group_id is not None
    entry = record_activity(
        match.group_id,
        actor,
        ActivityAction.MATCH_DELETED,
        match=match.id,
        variant=match.variant,
        sides=[side.name for side in match.sides],
    )
    if is_counted(match):
        ratings.invalidate(match.group_id)
    db.session.delete(match)
    return entry
