"""Viewer links of an event: whoever holds one sees its standings and projector view.

They open nothing else; made, listed, revoked and opened as every link is (`links`).
"""

from __future__ import annotations

from ..event_models import EventLink
from ..models import User
from . import links


def new_link(event_id: int, creator: User | None) -> EventLink:
    return links.added(
        EventLink(
            event_id=event_id,
            token=links.new_token(),
            created_by=creator.id if creator else None,
        )
    )


def links_of(event_id: int) -> list[EventLink]:
    return links.live(EventLink, EventLink.event_id, event_id)


def revoke_link(event_id: int, link_id: int) -> bool:
    return links.revoke(EventLink, EventLink.event_id, event_id, link_id)


def open_link(token: str) -> EventLink | None:
    return links.opened(EventLink, token)
