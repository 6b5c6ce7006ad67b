"""A group's activity log in words: each entry is kept as an action and its parameters."""

from __future__ import annotations

from typing import Any

from .. import words
from ..models import Activity, ActivityAction


def _links(params: dict[str, Any]) -> str:
    """ ". The 2 share links and 1 invite link Bea made stopped working." (or "")"""
    made = [
        f"{count} {kind}{'' if count == 1 else 's'}"
        for count, kind in (
            (params.get("share_links", 0), "share link"),
            (params.get("invites", 0), "invite link"),
        )
        if count
    ]
    if not made:
        return ""
    return f". The {' and '.join(made)} {params.get('name', '')} made stopped working."


def activity_text(entry: Activity) -> str:
    """What an entry of the activity log says (without who did it and when)."""
    p: dict[str, Any] = entry.params if isinstance(entry.params, dict) else {}
    match entry.action:
        case ActivityAction.GROUP_CREATED:
            return f"{p.get('name')} made the group"
        case ActivityAction.GROUP_RENAMED:
            return f"Renamed from {p.get('old')} to {p.get('new')}"
        case ActivityAction.MEMBER_JOINED:
            return f"{p.get('name')} joined"
        case ActivityAction.MEMBER_REMOVED:
            return f"{p.get('name')} left the group{_links(p)}"
        case ActivityAction.ROLE_CHANGED:
            return f"{p.get('name')} is now {p.get('role')}"
        case ActivityAction.INVITE_CREATED:
            return "Made an invite link"
        case ActivityAction.INVITE_REVOKED:
            return "Revoked an invite link"
        case ActivityAction.PLAYER_RENAMED:
            return f"{p.get('old')} is now {p.get('new')}"
        case ActivityAction.PLAYERS_MERGED:
            return f"{p.get('gone')} merged into {p.get('kept')}"
        case ActivityAction.PLAYER_LINKED:
            return f"{p.get('player')} is linked to {p.get('user') or 'nobody'}"
        case ActivityAction.MATCH_DELETED:
            sides = " against ".join(str(side) for side in p.get("sides") or [])
            game = words.game_name(str(p["variant"])) if p.get("variant") else p.get("game")
            return f"Deleted match {p.get('match')} ({game}: {sides})"
    return str(p.get("text", entry.action))
