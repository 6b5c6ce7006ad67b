"""Share links of a match: a viewer follows the score live, a scorer also records hands.

They open one match; made, listed, revoked and opened as every link is (`links`).
"""

from __future__ import annotations

from ..models import LinkRole, ShareLink, User
from . import links


def new_link(match_id: int, role: LinkRole, creator: User | None) -> ShareLink:
    return links.added(
        ShareLink(
            match_id=match_id,
            role=role.value,
            token=links.new_token(),
            created_by=creator.id if creator else None,
        )
    )


def links_of(match_id: int) -> list[ShareLink]:
    return links.live(ShareLink, ShareLink.match_id, match_id)


def revoke_link(match_id: int, link_id: int) -> bool:
    return links.revoke(ShareLink, ShareLink.match_id, match_id, link_id)


def open_link(token: str) -> ShareLink | None:
    return links.opened(ShareLink, token)
