"""Groups: who is in them, invites, renames, players (rename, merge, link to an account),
and the activity log of what was done to them beyond hands."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import func, select, update

from ..extensions import db
from ..models import (
    NAME_LENGTH,
    Activity,
    Group,
    Invite,
    Match,
    Membership,
    Player,
    Role,
    Side,
    SideMember,
    User,
    name_key,
    utcnow,
)
from ..validation import FieldError, ValidationError
from .listing import touch_history
from .match_setup import clean_name

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


def personal_group(user: User) -> Group:
    return db.session.execute(
        select(Group)
        .join(Membership)
        .where(Membership.user_id == user.id, Group.personal.is_(True))
        .order_by(Group.id)
        .limit(1)
    ).scalar_one()


def record_activity(group_id: int, actor: str, action: str, details: str) -> None:
    db.session.add(
        Activity(group_id=group_id, actor=actor[:80], action=action, details=details[:400])
    )


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
                    None, "name", f"Give the group a name of 1 to {NAME_LENGTH * 2} characters"
                )
            ]
        )
    return name


def create_group(user: User, name: object) -> Group:
    group = Group(name=_group_name(name))
    group.memberships.append(Membership(user=user, role=Role.ADMIN))
    db.session.add(group)
    db.session.flush()
    record_activity(group.id, user.username, "group_created", f"{user.username} made the group")
    return group


def rename_group(group: Group, name: object, actor: User) -> None:
    old, group.name = group.name, _group_name(name)
    touch_history(group.id)  # the history names its groups
    record_activity(
        group.id, actor.username, "group_renamed", f"Renamed from {old} to {group.name}"
    )


def members(group_id: int) -> list[Membership]:
    return list(
        db.session.execute(
            select(Membership)
            .join(User)
            .where(Membership.group_id == group_id)
            .order_by(User.username_key)
        ).scalars()
    )


def remove_member(group: Group, user_id: int, actor: User) -> str | None:
    """Take someone out of the group; a problem in words, or None when done."""
    membership = db.session.execute(
        select(Membership).where(Membership.group_id == group.id, Membership.user_id == user_id)
    ).scalar_one_or_none()
    if membership is None:
        return "That person is not in this group."
    admins = [m for m in members(group.id) if m.role == Role.ADMIN]
    if membership.role == Role.ADMIN and len(admins) == 1:
        return "The group's only admin cannot leave it: make someone else admin first."
    name = membership.user.username
    db.session.delete(membership)
    record_activity(group.id, actor.username, "member_removed", f"{name} left the group")
    return None


def set_role(group: Group, user_id: int, role: Role, actor: User) -> str | None:
    membership = db.session.execute(
        select(Membership).where(Membership.group_id == group.id, Membership.user_id == user_id)
    ).scalar_one_or_none()
    if membership is None:
        return "That person is not in this group."
    admins = sum(m.role == Role.ADMIN for m in members(group.id))
    if membership.role == Role.ADMIN and role != Role.ADMIN and admins == 1:
        return "The group needs at least one admin."
    membership.role = role
    record_activity(
        group.id, actor.username, "role_changed", f"{membership.user.username} is now {role}"
    )
    return None


# --- invites -------------------------------------------------------------------------


def new_invite(group: Group, actor: User) -> Invite:
    invite = Invite(group_id=group.id, token=secrets.token_urlsafe(24), created_by=actor.id)
    db.session.add(invite)
    db.session.flush()
    record_activity(group.id, actor.username, "invite_created", "Made an invite link")
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
    record_activity(group.id, actor.username, "invite_revoked", "Revoked an invite link")
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
    record_activity(invite.group_id, user.username, "member_joined", f"{user.username} joined")
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
        if side.name == " & ".join(member.player.name for member in side.members)
    ]


def _rename_sides(sides: list[Side]) -> None:
    for side in sides:
        side.name = " & ".join(member.player.name for member in side.members)


def _changed(group_id: int, player_id: int) -> None:
    """The player's matches show the change: a new revision each (live boards refresh),
    and so does the group's history."""
    touch_history(group_id)
    played = select(Side.match_id).join(SideMember).where(SideMember.player_id == player_id)
    db.session.execute(
        update(Match).where(Match.id.in_(played)).values(revision=Match.revision + 1),
        execution_options={"synchronize_session": False},
    )


def rename_player(group_id: int, player: Player, new_name: object, actor: User) -> None:
    name = clean_name(new_name)
    if not name or len(name) > NAME_LENGTH:
        raise ValidationError(
            [FieldError(None, "name", f"Enter a name of 1 to {NAME_LENGTH} characters")]
        )
    other = db.session.execute(
        select(Player).where(Player.group_id == group_id, Player.name_key == name_key(name))
    ).scalar_one_or_none()
    if other is not None and other.id != player.id:
        raise ValidationError(
            [FieldError(None, "name", f"{other.name} is already a player here: merge them instead")]
        )
    sides = _auto_named_sides([player.id])
    old, player.name, player.name_key = player.name, name, name_key(name)
    _rename_sides(sides)
    _changed(group_id, player.id)
    record_activity(group_id, actor.username, "player_renamed", f"{old} is now {name}")


def merge_players(group_id: int, gone: Player, kept: Player, actor: User) -> str | None:
    """Every match of `gone` becomes `kept`'s; a problem in words, or None when done."""
    if gone.id == kept.id:
        return "Choose two different players."
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
        return f"{gone.name} and {kept.name} played in the same match: they are two people."
    side_ids = [side.id for side in _auto_named_sides([gone.id])]
    said = f"{gone.name} merged into {kept.name}"
    db.session.execute(
        update(SideMember).where(SideMember.player_id == gone.id).values(player_id=kept.id)
    )
    # Never at the same match (checked above): the kept player's history holds both's.
    gone_held = select(Player.history_matches).where(Player.id == gone.id).scalar_subquery()
    db.session.execute(
        update(Player)
        .where(Player.id == kept.id)
        .values(history_matches=Player.history_matches + gone_held),
        execution_options={"synchronize_session": False},
    )
    _changed(group_id, kept.id)
    if kept.user_id is None:
        kept.user_id = gone.user_id
    db.session.delete(gone)
    db.session.flush()
    db.session.expire_all()  # the sides' members changed in SQL
    _rename_sides([side for side in (db.session.get(Side, i) for i in side_ids) if side])
    record_activity(group_id, actor.username, "players_merged", said)
    return None


def link_player(group_id: int, player: Player, user_id: int | None, actor: User) -> str | None:
    """Link a player to a member's account (or to nobody); a problem in words, or None."""
    user = db.session.get(User, user_id) if user_id is not None else None
    if user_id is not None and (user is None or role_in(group_id, user) is None):
        return "Only a member of this group can be linked to one of its players."
    player.user_id = user_id
    who = user.username if user else "nobody"
    record_activity(group_id, actor.username, "player_linked", f"{player.name} is linked to {who}")
    return None
