"""Links that open one thing to whoever holds them: a match's share links (`sharing`), an
event's viewer links (`event_links`), a league's (`leagues`). One way to make, list,
revoke and open them, whatever they open.

A link is a random token in a URL, kept in clear so that its QR code can be shown again;
revoking it stops it at once (every request checks it). Each kind names what it opens
by its own column (`owner`: `ShareLink.match_id`, `EventLink.event_id`,
`LeagueLink.league_id`).
"""

from __future__ import annotations

import secrets
from typing import TypeVar

from sqlalchemy import select
from sqlalchemy.orm import InstrumentedAttribute

from ..event_models import EventLink
from ..extensions import db
from ..ids import valid_id
from ..models import ShareLink, utcnow
from ..season_models import LeagueLink

Link = TypeVar("Link", ShareLink, EventLink, LeagueLink)
MAX_TOKEN_LENGTH = 64  # the column's length: a longer token names no link


def new_token() -> str:
    return secrets.token_urlsafe(18)


def added(link: Link) -> Link:
    """A new link, saved (its id known)."""
    db.session.add(link)
    db.session.flush()
    return link


def live(kind: type[Link], owner: InstrumentedAttribute[int], owner_id: int) -> list[Link]:
    """The links of one match, event or league that are not revoked, oldest first."""
    return list(
        db.session.execute(
            select(kind).where(owner == owner_id, kind.revoked_at.is_(None)).order_by(kind.id)
        ).scalars()
    )


def revoke(
    kind: type[Link], owner: InstrumentedAttribute[int], owner_id: int, link_id: int
) -> bool:
    """Revoke a link of this owner; False when it is not one of its live links."""
    if not valid_id(link_id):
        return False
    link = db.session.execute(
        select(kind).where(kind.id == link_id, owner == owner_id, kind.revoked_at.is_(None))
    ).scalar_one_or_none()
    if link is None:
        return False
    link.revoked_at = utcnow()
    return True


def opened(kind: type[Link], token: str) -> Link | None:
    """The live link of this token, else None."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    return db.session.execute(
        select(kind).where(kind.token == token, kind.revoked_at.is_(None))
    ).scalar_one_or_none()
