"""Viewer links of an event: whoever holds one sees its standings and projector view.

Like a match's share links (`sharing`): a random token in a URL, kept in clear so its
QR code can be shown again, stopped at once when revoked. They open nothing else.
"""

from __future__ import annotations

import secrets

from sqlalchemy import select

from ..event_models import EventLink
from ..extensions import db
from ..models import User, utcnow


def new_link(event_id: int, creator: User | None) -> EventLink:
    link = EventLink(
        event_id=event_id,
        token=secrets.token_urlsafe(18),
        created_by=creator.id if creator else None,
    )
    db.session.add(link)
    db.session.flush()
    return link


def links_of(event_id: int) -> list[EventLink]:
    return list(
        db.session.execute(
            select(EventLink)
            .where(EventLink.event_id == event_id, EventLink.revoked_at.is_(None))
            .order_by(EventLink.id)
        ).scalars()
    )


def revoke_link(event_id: int, link_id: int) -> bool:
    link = db.session.get(EventLink, link_id)
    if link is None or link.event_id != event_id or link.revoked_at is not None:
        return False
    link.revoked_at = utcnow()
    return True


def open_link(token: str) -> EventLink | None:
    if not token or len(token) > 64:
        return None
    return db.session.execute(
        select(EventLink).where(EventLink.token == token, EventLink.revoked_at.is_(None))
    ).scalar_one_or_none()
