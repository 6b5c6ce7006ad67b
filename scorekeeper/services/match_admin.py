"""Changes to a match beyond its hands: rename a side, abandon the match, delete it.

Each takes the match's write lock (so live scoreboards see the change); a deletion is
recorded in the group's activity log, since the match and its own trail are gone.
"""

from __future__ import annotations

from ..extensions import db
from ..models import NAME_LENGTH, utcnow
from ..rules.game import DRAWN, FINISHED
from ..validation import FieldError, ValidationError
from .groups import record_activity
from .listing import move_in_history, touch_history
from .match_lock import MatchError, lock_match
from .match_setup import clean_name
from .match_state import ABANDONED


def rename_side(match_id: int, seat: int, raw: object) -> str:
    """Give a side a name (empty: named after its players again); returns the new name."""
    match, _ = lock_match(match_id)
    if not 0 <= seat < len(match.sides):
        raise MatchError(f"This match has no side {seat + 1}.")
    side = match.sides[seat]
    name = clean_name(raw) or " & ".join(member.player.name for member in side.members)
    if len(name) > NAME_LENGTH * 3:
        raise ValidationError([FieldError(seat, "name", "That side name is too long")])
    side.name = name
    if match.finished_at is not None:
        touch_history(match.group_id)
    return name


def abandon_match(match_id: int) -> None:
    """The match leaves the home page and stays in the history, marked abandoned."""
    match, _ = lock_match(match_id)
    if match.status in (FINISHED, DRAWN, ABANDONED):
        raise MatchError("This match is over: there is nothing to abandon.")
    match.status = ABANDONED
    match.finished_at = utcnow()  # when it stopped: its place in the history
    touch_history(match.group_id)
    move_in_history([match.id], 1)


def delete_match(match_id: int, actor: str) -> str:
    """Delete the match and everything of it; returns what the activity log says."""
    match, _ = lock_match(match_id)
    names = " against ".join(side.name for side in match.sides)
    said = f"Deleted match {match.id} ({match.rules.get('name', match.variant)}: {names})"
    assert match.group_id is not None
    group_id = match.group_id
    record_activity(group_id, actor, "match_deleted", said)
    if match.finished_at is not None:
        move_in_history([match.id], -1)  # while its seats are there
    db.session.delete(match)
    touch_history(group_id)  # after the delete, which the session flushes first
    return said
