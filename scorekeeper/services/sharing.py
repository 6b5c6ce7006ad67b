"""Share links of a match: a viewer follows the score live, a scorer also records hands.

A link is a random token in a URL; revoking it stops it at once (every request checks it).
Links are kept in clear so that their QR code can be shown again; they open one match.
"""

from __future__ import annotations

import secrets

from sqlalchemy import select

from ..extensions import db
from ..models import LinkRole, ShareLink, User, utcnow


def new_link(match_id: int, role: LinkRole, creator: User | None) -> ShareLink:
    link = ShareLink(
        match_id=match_id,
        role=role.value,
        token=secrets.token_urlsafe(18),
        created_by=creator.id if creator else None,
    )
    db.session.add(link)
    db.session.flush()
    return link


def links_of(match_id: int) -> list[ShareLink]:
    return list(
        db.session.execute(
            select(ShareLink)
            .where(ShareLink.match_id == match_id, ShareLink.revoked_at.is_(None))
            .order_by(ShareLink.id)
        ).scalars()
    )


def revoke_link(match_id: int, link_id: int) -> bool:
    link = db.session.get(ShareLink, link_id)
    if link is None or link.match_id != match_id or link.revoked_at is not None:
        return False
    link.revoked_at = utcnow()
    return True


def open_link(token: str) -> ShareLink | None:
    if not token or len(token) > 64:
        return None
    return db.session.execute(
        select(ShareLink).where(ShareLink.token == token, ShareLink.revoked_at.is_(None))
    ).scalar_one_or_none()
