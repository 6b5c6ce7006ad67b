"""Who may do what with an event, answered as for a match (see `access`).

On an event a caller is its director (the member who made it, or any admin of its
group: `Level.ADMIN`), a member of its group (reads everything: `Level.MEMBER`), a
holder of its viewer link (standings and projector view: `Level.VIEWER`) or nobody.
Anonymous asks to sign in (401 under /api/); nobody gets 404 whether or not the event
exists; a link or a member asking for more gets 403.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import session
from sqlalchemy import func, select
from werkzeug.exceptions import Forbidden, NotFound

from .access import Caller, Level, caller, is_api, unauthorized
from .event_models import Event, EventLink, EventTable
from .extensions import db
from .ids import valid_id
from .models import Match, Membership, Role
from .services.event_state import event_etag
from .words.translate import gettext

EVENT_LINKS = "event_links"  # session key: ids of the event links opened in this browser
MAX_EVENT_LINKS = 20


@dataclass(frozen=True)
class EventAccess:
    event_id: int
    group_id: int
    etag: str  # the event's state now (see `event_state.event_etag`)
    level: Level
    link_id: int | None  # the link that gives the level, when a link does


def _session_links() -> tuple[int, ...]:
    return tuple(i for i in session.get(EVENT_LINKS, []) if isinstance(i, int))


def event_access(event_id: int, who: Caller | None = None) -> EventAccess | None:
    """The caller's level on an event and the event's state tag, in one query (and one
    more for a caller holding links); None when the event does not exist."""
    who = who or caller()
    if not valid_id(event_id):
        return None
    user_id = who.account.id if who.account else None
    revisions = (
        select(func.coalesce(func.sum(Match.revision), 0))
        .join(EventTable, EventTable.match_id == Match.id)
        .where(EventTable.event_id == Event.id)
        .scalar_subquery()
    )
    row = db.session.execute(
        select(
            Event.id, Event.group_id, Event.created_by, Event.revision, revisions, Membership.role
        )
        .outerjoin(
            Membership,
            (Membership.group_id == Event.group_id) & (Membership.user_id == user_id),
        )
        .where(Event.id == event_id)
    ).first()
    if row is None:
        return None
    found, group_id, creator, revision, matches, role = row
    level = Level.NONE
    if role is not None:
        director = role == Role.ADMIN or (creator is not None and creator == user_id)
        level = Level.ADMIN if director else Level.MEMBER
    link_id = None
    held = () if who.link_token or is_api() else _session_links()
    if level == Level.NONE and (who.link_token or held):
        query = select(EventLink.id).where(
            EventLink.event_id == event_id, EventLink.revoked_at.is_(None)
        )
        if who.link_token:
            query = query.where(EventLink.token == who.link_token)
        else:
            query = query.where(EventLink.id.in_(held))
        link_id = db.session.execute(query.limit(1)).scalar_one_or_none()
        if link_id is not None:
            level = Level.VIEWER
    tag = event_etag(found, revision, int(matches))
    return EventAccess(found, group_id, tag, level, link_id)


def require_event(event_id: int, need: Level) -> EventAccess:
    """The caller's access to an event if it is at least `need`, else the right refusal."""
    who = caller()
    access = event_access(event_id, who)
    if access is not None and access.level >= need:
        return access
    missing = NotFound(
        gettext("There is no event %(id)s. The address may be mistyped.", id=str(event_id))
    )
    if who.account is None and (access is None or access.link_id is None):
        raise missing if who.link_token is not None else unauthorized()
    if access is None or access.level == Level.NONE:
        raise missing
    if access.link_id is not None:
        raise Forbidden(gettext("This link shows the event's standings only."))
    raise Forbidden(
        gettext("Only the event's director (who made it, or an admin of its group) can do that.")
    )


def grant_event_link(link: EventLink) -> None:
    """Keep an opened event link in this browser's session (checked on every request)."""
    links = [i for i in _session_links() if i != link.id]
    session[EVENT_LINKS] = [*links, link.id][-MAX_EVENT_LINKS:]
