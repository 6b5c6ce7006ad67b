"""A group's activity log and a match's changes in words: each entry is kept as an action
and its parameters, and said in the reader's language when it is shown."""

from __future__ import annotations

from typing import Any

from .. import words
from ..models import Activity, ActivityAction
from ..services.audit import AuditRow
from ..words.translate import gettext, ngettext


def links_text(params: dict[str, Any]) -> str:
    """What stopped working when a member left: "2 share links and 1 invite link" (or "")."""
    shares, invites = int(params.get("share_links", 0)), int(params.get("invites", 0))
    made = []
    if shares:
        made.append(
            ngettext(
                "%(count)s share link", "%(count)s share links", shares, count=words.number(shares)
            )
        )
    if invites:
        made.append(
            ngettext(
                "%(count)s invite link",
                "%(count)s invite links",
                invites,
                count=words.number(invites),
            )
        )
    return words.both(made) if made else ""


def _left(p: dict[str, Any]) -> str:
    links = links_text(p)
    name = str(p.get("name"))
    if not links:
        return gettext("%(name)s left the group", name=name)
    return gettext(
        "%(name)s left the group. The %(links)s they made stopped working.",
        name=name,
        links=links,
    )


def _role(p: dict[str, Any]) -> str:
    if p.get("role") == "admin":
        return gettext("%(name)s is now an admin", name=str(p.get("name")))
    return gettext("%(name)s is now a member", name=str(p.get("name")))


def _linked(p: dict[str, Any]) -> str:
    if p.get("user"):
        return gettext(
            "%(player)s is linked to %(user)s", player=str(p.get("player")), user=str(p["user"])
        )
    return gettext("%(player)s is linked to nobody", player=str(p.get("player")))


def _deleted(p: dict[str, Any]) -> str:
    sides = [str(side) for side in p.get("sides") or []]
    game = words.game_name(str(p["variant"])) if p.get("variant") else str(p.get("game"))
    against = sides[0] if sides else ""
    for side in sides[1:]:
        against = gettext("%(first)s against %(second)s", first=against, second=side)
    return gettext(
        "Deleted match %(match)s (%(game)s: %(sides)s)",
        match=str(p.get("match")),
        game=game,
        sides=against,
    )


def activity_text(entry: Activity) -> str:
    """What an entry of the activity log says (without who did it and when)."""
    p: dict[str, Any] = entry.params if isinstance(entry.params, dict) else {}
    match entry.action:
        case ActivityAction.GROUP_CREATED:
            return gettext("%(name)s made the group", name=str(p.get("name")))
        case ActivityAction.GROUP_RENAMED:
            return gettext(
                "Renamed from %(old)s to %(new)s", old=str(p.get("old")), new=str(p.get("new"))
            )
        case ActivityAction.MEMBER_JOINED:
            return gettext("%(name)s joined", name=str(p.get("name")))
        case ActivityAction.MEMBER_REMOVED:
            return _left(p)
        case ActivityAction.ROLE_CHANGED:
            return _role(p)
        case ActivityAction.INVITE_CREATED:
            return gettext("Made an invite link")
        case ActivityAction.INVITE_REVOKED:
            return gettext("Revoked an invite link")
        case ActivityAction.PLAYER_RENAMED:
            return gettext("%(old)s is now %(new)s", old=str(p.get("old")), new=str(p.get("new")))
        case ActivityAction.PLAYERS_MERGED:
            return gettext(
                "%(gone)s merged into %(kept)s", gone=str(p.get("gone")), kept=str(p.get("kept"))
            )
        case ActivityAction.PLAYER_LINKED:
            return _linked(p)
        case ActivityAction.MATCH_DELETED:
            return _deleted(p)
    return str(p.get("text", entry.action))


def change_text(entry: AuditRow, *, numbered: bool = True) -> str:
    """A change of a match's audit trail: "Hand 2 corrected by Ada" (on the scoreboard),
    "Corrected by Ada" (in the hand's own history)."""
    number, actor = words.number(entry.number), entry.actor
    if entry.action == "recorded":
        if numbered:
            return (
                gettext("Hand %(number)s recorded by %(actor)s", number=number, actor=actor)
                if actor
                else gettext("Hand %(number)s recorded", number=number)
            )
        return gettext("Recorded by %(actor)s", actor=actor) if actor else gettext("Recorded")
    if entry.action == "corrected":
        if numbered:
            return (
                gettext("Hand %(number)s corrected by %(actor)s", number=number, actor=actor)
                if actor
                else gettext("Hand %(number)s corrected", number=number)
            )
        return gettext("Corrected by %(actor)s", actor=actor) if actor else gettext("Corrected")
    if numbered:
        return (
            gettext("Hand %(number)s removed by %(actor)s", number=number, actor=actor)
            if actor
            else gettext("Hand %(number)s removed", number=number)
        )
    return gettext("Removed by %(actor)s", actor=actor) if actor else gettext("Removed")
