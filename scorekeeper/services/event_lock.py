"""An event write's hold on its event, and the refusals an event write can meet.

Every write to an event first moves its revision on (an `UPDATE ... RETURNING`, which
takes the row's write lock), then reads the event as it is now: two directors starting
a round at once are served one after the other, and the second is refused.
"""

from __future__ import annotations

from sqlalchemy import update

from ..event_models import Event
from ..extensions import db
from ..ids import valid_id
from ..validation import Refusal
from ..words.translate import gettext
from .event_state import load_event


class EventError(Refusal):
    """A write the event cannot take (said to the director)."""


class EventNotFound(EventError):
    status = 404


def lock_event(event_id: int) -> Event:
    """Take the event's write lock (in the caller's write transaction), then read it."""
    missing = EventNotFound(gettext("There is no event %(id)s.", id=str(event_id)))
    if not valid_id(event_id):
        raise missing
    revision = db.session.execute(
        update(Event)
        .where(Event.id == event_id)
        .values(revision=Event.revision + 1)
        .returning(Event.revision)
        .execution_options(synchronize_session=False)
    ).scalar_one_or_none()
    if revision is None:
        raise missing
    event = load_event(event_id)
    assert event is not None  # its row is locked by this transaction
    return event
