"""Groups: who is in them, invites, renames, players (rename, merge, link to an account),
and the activity log of what was done to them beyond hands."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update

from ..extensions import db
from ..models import (
    NAME_LENGTH,
    Activity,
    ActivityAction,
    Group,
    Invite,
    Match,
    Membership,
    Player,
    Role,
    ShareLink,
    Side,
    SideMember,
    User,
    key_fits,
    long_key,
    name_key,
    side_name_of,
    utcnow,
)
from ..validation import FieldError, ValidationError
from ..words.translate import gettext
from . import events, names
from .match_setup import clean_name
from .seasons import merge_in_seasons

ACTIVITY_SHOWN = 50


@dataclass(frozen=True)
class GroupView:
    group: Group
    role: Role
    members: int
    matches: int


def role_in(group_id: int, user: User) -> Role | None:
    role = db.session.execute(
        select(Membership.role).where(
            Membership.group_id == group_id, Membership.user_id == user.id
        )
    ).scalar_one_or_none()
    return Role(role) if role else None


def group_ids(user: User) -> list[int]:
    return list(
        db.session.execute(
            select(Membership.group_id).where(Membership.user_id == user.id)
        ).scalars()
    )


def groups_of(user: User) -> list[GroupView]:
    """The user's groups, personal one first, with member and match counts."""
    members = (
        select(Membership.group_id, func.count().label("n"))
        .group_by(Membership.group_id)
        .subquery()
    )
    matches = select(Match.group_id, func.count().label("n")).group_by(Match.group_id).subquery()
    rows = db.session.execute(
        select(Group, Membership.role, members.c.n, func.coalesce(matches.c.n, 0))
        .join(Membership, Membership.group_id == Group.id)
        .join(members, members.c.group_id == Group.id)
        .outerjoin(matches, matches.c.group_id == Group.id)
        .where(Membership.user_id == user.id)
        .order_by(Group.personal.desc(), Group.name)
    ).all()
    return [GroupView(group, Role(role), n, m) for group, role, n, m in rows]


def group_names(user: User) -> list[tuple[int, str]]:
    """The user's groups as (id, name), personal one first: for links, no counts."""
    return [
        (group_id, name)
        for group_id, name in db.session.execute(
            select(Group.id, Group.name)
            .join(Membership, Membership.group_id == Group.id)
            .where(Membership.user_id == user.id)
            .order_by(Group.personal.desc(), Group.name)
        )
    ]


def last_match_group(user: User) -> int | None:
    """The group of the last match the user started (None: they started none)."""
    return db.session.execute(
        select(Match.group_id).where(Match.created_by == user.id).order_by(Match.id.desc()).limit(1)
    ).scalar_one_or_none()


def personal_group(user: User) -> Group:
    return db.session.execute(
        select(Group)
        .join(Membership)
        .where(Membership.user_id == user.id, Group.personal.is_(True))
        .order_by(Group.id)
        .limit(1)
    ).scalar_one()


def record_activity(group_id: int, actor: str, action: ActivityAction, **params: Any) -> Activity:
    """Keep an entry of the group's activity log: the action and its names and numbers."""
    entry = Activity(group_id=group_id, actor=actor[:80], action=action, params=params)
    db.session.add(entry)
    return entry


def activity(group_id: int) -> list[Activity]:
    return list(
        db.session.execute(
            select(Activity)
            .where(Activity.group_id == group_id)
            .order_by(Activity.id.desc())
            .limit(ACTIVITY_SHOWN)
        ).scalars()
    )


def _group_name(raw: object) -> str:
    name = clean_name(raw)
    if not name or len(name) > NAME_LENGTH * 2:
        raise ValidationError(
            [
                FieldError(
                    None,
                    "name",
                    gettext(
                        "Give the group a name of 1 to %(count)s characters",
                        count=str(NAME_LENGTH * 2),
                    ),
                )
            ]
        )
    hidden = names.problem(name, person=False)
    if hidden:
        raise ValidationError([FieldError(None, "name", hidden)])
    return name


def create_group(user: User, name: object) -> Group:
    group = Group(name=_group_name(name))
    group.memberships.append(Membership(user=user, role=Role.ADMIN))
    db.session.add(group)
    db.session.flush()
    record_activity(group.id, user.username, ActivityAction.GROUP_CREATED, name=user.username)
    return group


def rename_group(group: Group, name: object, actor: User) -> None:
    old, group.name = group.name, _group_name(name)
    record_activity(group.id, actor.username, ActivityAction.GROUP_RENAMED, old=old, new=group.name)


def members(group_id: int) -> list[Membership]:
    return list(
        db.session.execute(
            select(Membership)
            .join(User)
            .where(Membership.group_id == group_id)
            .order_by(User.username_key)
        ).scalars()
    )


@dataclass(frozen=True)
class Removal:
    """Someone taken out of a group, and the links they had made that stopped working."""

    name: str
    share_links: int
    invites: int


def remove_member(group: Group, user_id: int, actor: User) -> Removal | str:
    """Take someone out of the group (or let them leave), revoking the share links they
    made to the group's matches and the group's invite links they made: what they made
    opens nothing more for them, nor for anyone they gave it to. A problem in words,
    or what was done."""
    membership = db.session.execute(
        select(Membership).where(Membership.group_id == group.id, Membership.user_id == user_id)
    ).scalar_one_or_none()
    if membership is None:
        return gettext("That person is not in this group.")
    admins = [m for m in members(group.id) if m.role == Role.ADMIN]
    if membership.role == Role.ADMIN and len(admins) == 1:
        return gettext("The group's only admin cannot leave it: make someone else admin first.")
    name = membership.user.username
    db.session.delete(membership)
    now = utcnow()
    matches = select(Match.id).where(Match.group_id == group.id)
    share_links = db.session.execute(
        update(ShareLink)
        .where(
            ShareLink.created_by == user_id,
            ShareLink.revoked_at.is_(None),
            ShareLink.match_id.in_(matches),
        )
        .values(revoked_at=now),
        execution_options={"synchronize_session": False},
    )
    invites = db.session.execute(
        update(Invite)
        .where(
            Invite.group_id == group.id, Invite.created_by == user_id, Invite.revoked_at.is_(None)
        )
        .values(revoked_at=now),
        execution_options={"synchronize_session": False},
    )
    removal = Removal(name, share_links.rowcount, invites.rowcount)  # type: ignore[attr-defined]
    record_activity(
        group.id,
        actor.username,
        ActivityAction.MEMBER_REMOVED,
        name=name,
        share_links=removal.share_links,
        invites=removal.invites,
    )
    return removal


def set_role(group: Group, user_id: int, role: Role, actor: User) -> str | None:
    membership = db.session.execute(
        select(Membership).where(Membership.group_id == group.id, Membership.user_id == user_id)
    ).scalar_one_or_none()
    if membership is None:
        return gettext("That person is not in this group.")
    admins = sum(m.role == Role.ADMIN for m in members(group.id))
    if membership.role == Role.ADMIN and role != Role.ADMIN and admins == 1:
        return gettext("The group needs at least one admin.")
    membership.role = role
    record_activity(
        group.id,
        actor.username,
        ActivityAction.ROLE_CHANGED,
        name=membership.user.username,
        role=str(role),
    )
    return None


# --- invites -------------------------------------------------------------------------


def new_invite(group: Group, actor: User) -> Invite:
    invite = Invite(group_id=group.id, token=secrets.token_urlsafe(24), created_by=actor.id)
    db.session.add(invite)
    db.session.flush()
    record_activity(group.id, actor.username, ActivityAction.INVITE_CREATED)
    return invite


def invites(group_id: int) -> list[Invite]:
    return list(
        db.session.execute(
            select(Invite)
            .where(Invite.group_id == group_id, Invite.revoked_at.is_(None))
            .order_by(Invite.id)
        ).scalars()
    )


def revoke_invite(group: Group, invite_id: int, actor: User) -> bool:
    invite = db.session.get(Invite, invite_id)
    if invite is None or invite.group_id != group.id or invite.revoked_at is not None:
        return False
    invite.revoked_at = utcnow()
    record_activity(group.id, actor.username, ActivityAction.INVITE_REVOKED)
    return True


def open_invite(token: str) -> Invite | None:
    """The invite behind a link, if it is still valid."""
    if not token or len(token) > 64:
        return None
    return db.session.execute(
        select(Invite).where(Invite.token == token, Invite.revoked_at.is_(None))
    ).scalar_one_or_none()


def join(invite: Invite, user: User) -> bool:
    """Join the invite's group; False when already a member."""
    if role_in(invite.group_id, user) is not None:
        return False
    db.session.add(Membership(group_id=invite.group_id, user_id=user.id, role=Role.MEMBER))
    invite.uses += 1
    record_activity(
        invite.group_id, user.username, ActivityAction.MEMBER_JOINED, name=user.username
    )
    return True


# --- players -------------------------------------------------------------------------


def players(group_id: int) -> list[Player]:
    return sorted(
        db.session.execute(select(Player).where(Player.group_id == group_id)).scalars(),
        key=lambda p: p.name_key,
    )


def player_in(group_id: int, player_id: int) -> Player | None:
    player = db.session.get(Player, player_id)
    return player if player is not None and player.group_id == group_id else None


def _auto_named_sides(player_ids: list[int]) -> list[Side]:
    """Sides that carry the default name of their players (which a rename must follow)."""
    sides = db.session.execute(
        select(Side).join(SideMember).where(SideMember.player_id.in_(player_ids)).distinct()
    ).scalars()
    return [
        side
        for side in sides
        if side.name == side_name_of([member.player.name for member in side.members])
    ]


def _rename_sides(sides: list[Side]) -> None:
    for side in sides:
        side.name = side_name_of([member.player.name for member in side.members])


def _changed(group_id: int, player_id: int) -> None:
    """The player's matches show the change: a new revision each (live boards refresh)."""
    played = select(Side.match_id).join(SideMember).where(SideMember.player_id == player_id)
    db.session.execute(
        update(Match).where(Match.id.in_(played)).values(revision=Match.revision + 1),
        execution_options={"synchronize_session": False},
    )
    events.player_changed(player_id)


def rename_player(group_id: int, player: Player, new_name: object, actor: User) -> None:
    name = clean_name(new_name)
    if not name or len(name) > NAME_LENGTH:
        raise ValidationError(
            [
                FieldError(
                    None,
                    "name",
                    gettext("Enter a name of 1 to %(count)s characters", count=str(NAME_LENGTH)),
                )
            ]
        )
    if not key_fits(name):
        raise ValidationError([FieldError(None, "name", long_key())])
    other = db.session.execute(
        select(Player).where(Player.group_id == group_id, Player.name_key == name_key(name))
    ).scalar_one_or_none()
    if other is not None and other.id != player.id:
        raise ValidationError(
            [
                FieldError(
                    None,
                    "name",
                    gettext(
                        "%(name)s is already a player here: merge them instead", name=other.name
                    ),
                )
            ]
        )
    wrong = names.problem(name)
    others = [p.name for p in players(group_id) if p.id != player.id]
    alike = names.look_alike(name, others) if wrong is None else None
    if alike is not None:
        wrong = gettext(
            "%(name)s looks just like %(alike)s, a player of this group: choose another name",
            name=name,
            alike=alike,
        )
    if wrong is not None:
        raise ValidationError([FieldError(None, "name", wrong)])
    sides = _auto_named_sides([player.id])
    old, player.name, player.name_key = player.name, name, name_key(name)
    _rename_sides(sides)
    _changed(group_id, player.id)
    record_activity(group_id, actor.username, ActivityAction.PLAYER_RENAMED, old=old, new=name)


def merge_players(group_id: int, gone: Player, kept: Player, actor: User) -> str | None:
    """Every match of `gone` becomes `kept`'s; a problem in words, or None when done."""
    if gone.id == kept.id:
        return gettext("Choose two different players.")
    both = db.session.execute(
        select(func.count())
        .select_from(Side)
        .join(SideMember)
        .where(SideMember.player_id == gone.id)
        .where(
            Side.match_id.in_(
                select(Side.match_id).join(SideMember).where(SideMember.player_id == kept.id)
            )
        )
    ).scalar_one()
    if both:
        return gettext(
            "%(gone)s and %(kept)s played in the same match: they are two people.",
            gone=gone.name,
            kept=kept.name,
        )
    in_one_event = events.merge_entries(gone, kept)
    if in_one_event is not None:
        return in_one_event
    side_ids = [side.id for side in _auto_named_sides([gone.id])]
    merged = {"gone": gone.name, "kept": kept.name}
    db.session.execute(
        update(SideMember).where(SideMember.player_id == gone.id).values(player_id=kept.id)
    )
    _changed(group_id, kept.id)
    merge_in_seasons(group_id, gone.id, kept.id)
    if kept.user_id is None:
        kept.user_id = gone.user_id
    db.session.delete(gone)
    db.session.flush()
    db.session.expire_all()  # the sides' members changed in SQL
    _rename_sides([side for side in (db.session.get(Side, i) for i in side_ids) if side])
    record_activity(group_id, actor.username, ActivityAction.PLAYERS_MERGED, **merged)
    return None


def link_player(group_id: int, player: Player, user_id: int | None, actor: User) -> str | None:
    """Link a player to a member's account (or to nobody); a problem in words, or None."""
    user = db.session.get(User, user_id) if user_id is not None else None
    if user_id is not None and (user is None or role_in(group_id, user) is None):
        return gettext("Only a member of this group can be linked to one of its players.")
    player.user_id = user_id
    who = user.username if user else None
    record_activity(
        group_id, actor.username, ActivityAction.PLAYER_LINKED, player=player.name, user=who
    )
    return None
