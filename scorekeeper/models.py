"""Database models: accounts and groups; players, matches, sides, hands and the audit trail.

Models hold what was entered and what the engine computed at the time; no
scoring happens here. A match keeps the resolved rules frozen at its start.
Every match and player belongs to a group; a user sees the groups they are a
member of. Secrets (passwords, API tokens) are stored hashed.
"""

from __future__ import annotations

import unicodedata
import uuid
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

from flask_login import UserMixin
from sqlalchemy import JSON, ForeignKey, Index, String, Table, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from . import database  # noqa: F401 (the connection setup every engine gets)
from .extensions import Model
from .words.translate import gettext

NAME_LENGTH = 40
KEY_LENGTH = NAME_LENGTH * 3  # the columns of name keys (case folding can lengthen a name)
SIDE_NAME_LENGTH = NAME_LENGTH * 3
LOCALE_LENGTH = 16  # a Babel locale name: "pt_BR"


def long_key() -> str:
    """What a name too long once written out in full is told."""
    return gettext(
        "Written out in full (as case-blind matching spells it), this name is longer than "
        "%(count)s letters: shorten it",
        count=str(KEY_LENGTH),
    )


TOKEN_LENGTH = 128  # idempotency keys of posted hands: 16 to 128 characters


def name_key(name: str) -> str:
    """The form of a name that identifies a player: case and Unicode variants folded.

    Python folds case for every script ("Élodie" and "élodie" are one player); SQLite's
    lower() folds ASCII only, so names are matched on this stored key, never in SQL.
    """
    return unicodedata.normalize("NFKC", name.casefold())


def key_fits(name: str) -> bool:
    """Whether a name's key fits its column: one letter can fold into many ("\ufdfa" into
    18), so a name short enough may still have a key too long to store."""
    return len(name_key(name)) <= KEY_LENGTH


def side_name_of(players: list[str]) -> str:
    """A side's name after its players ("Ann & Bob"), cut to fit where they are many."""
    name = " & ".join(players)
    return name if len(name) <= SIDE_NAME_LENGTH else name[: SIDE_NAME_LENGTH - 1] + "\u2026"


def new_uid() -> str:
    """A match's stable identity across servers (exports and imports): 32 hex digits."""
    return uuid.uuid4().hex


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Role(StrEnum):
    MEMBER = "member"
    ADMIN = "admin"


class LinkRole(StrEnum):
    VIEWER = "viewer"
    SCORER = "scorer"


class MatchStatus(StrEnum):
    """Where a match stands: played on (tied: the end is reached, the lead shared), won,
    drawn, or given up (abandoned). The engine's `GameResult.status` takes the first four."""

    PLAYING = "playing"
    TIED = "tied"  # the end is reached but the lead is shared: play on
    FINISHED = "finished"
    DRAWN = "drawn"
    ABANDONED = "abandoned"


class Registration(StrEnum):
    OPEN = "open"
    INVITE = "invite"
    CLOSED = "closed"


class User(UserMixin, Model):
    """An account. Signed in, it is loaded with the sign-in its session names
    (`sign_in_key`, not a column): the session keeps "user id:sign-in key"."""

    __allow_unmapped__ = True  # sign_in_key below: set on the loaded user, not stored

    __table_args__ = ({"sqlite_autoincrement": True},)  # ids never reused (see `backup`)

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(NAME_LENGTH))
    username_key: Mapped[str] = mapped_column(String(NAME_LENGTH * 3), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    is_admin: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The language the user chose on the account page ("pt_BR"); None: each phone's own
    # (its chooser, else its browser's). Never set by signing in.
    locale: Mapped[str | None] = mapped_column(String(LOCALE_LENGTH), default=None)

    memberships: Mapped[list[Membership]] = relationship(
        back_populates="user", cascade="all, delete-orphan"
    )
    sign_in_key: str | None = None

    def get_id(self) -> str:
        """What Flask-Login keeps in the session and the "keep me signed in" cookie."""
        if self.sign_in_key is None:
            raise ValueError("a user is signed in through a SignIn (accounts.start_sign_in)")
        return f"{self.id}:{self.sign_in_key}"


class SignIn(Model):
    """One browser or phone signed in: its session and "keep me signed in" cookie name
    this row, and are worth nothing once it is gone (signing out, signing out
    everywhere, a new password), even if someone kept a copy of the cookie."""

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ApiToken(Model):
    """A personal API token; only its SHA-256 is kept (it is shown once, when made)."""

    __table_args__ = ({"sqlite_autoincrement": True},)  # ids never reused (see `backup`)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None]

    user: Mapped[User] = relationship()


class Group(Model):
    """A table of players who share matches ("our Thursday table", "the club")."""

    __table_args__ = ({"sqlite_autoincrement": True},)  # ids never reused (see `backup`)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH * 2))
    personal: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    memberships: Mapped[list[Membership]] = relationship(
        back_populates="group", cascade="all, delete-orphan"
    )


class Membership(Model):
    __table_args__ = (UniqueConstraint("group_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("group.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(12), default=Role.MEMBER)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    group: Mapped[Group] = relationship(back_populates="memberships")
    user: Mapped[User] = relationship(back_populates="memberships")


class Invite(Model):
    """A revocable link that lets people join a group (and open an account to do so)."""

    __table_args__ = ({"sqlite_autoincrement": True},)  # ids never reused (see `backup`)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("group.id", ondelete="CASCADE"), index=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None]
    uses: Mapped[int] = mapped_column(default=0)

    group: Mapped[Group] = relationship()


class ShareLink(Model):
    """A revocable link to one match: a viewer follows it, a scorer also records hands."""

    __table_args__ = ({"sqlite_autoincrement": True},)  # ids never reused (see `backup`)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(12))
    token: Mapped[str] = mapped_column(String(64), unique=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None]


class Setting(Model):
    """Site settings the administrator changes (registration)."""

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class RateLimit(Model):
    """A sign-in limit's count in its current window (see `rate_limits`): shared by every
    worker and app server of the database."""

    if TYPE_CHECKING:  # a Table (written to in Core by its own engine), typed FromClause
        __table__: ClassVar[Table]

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    count: Mapped[int]
    expires_at: Mapped[float] = mapped_column(index=True)  # seconds since the epoch


class ActivityAction(StrEnum):
    """What an entry of a group's activity log says happened (its words: `web.activity`)."""

    GROUP_CREATED = "group_created"  # name
    GROUP_RENAMED = "group_renamed"  # old, new
    MEMBER_JOINED = "member_joined"  # name
    MEMBER_REMOVED = "member_removed"  # name, share_links, invites
    ROLE_CHANGED = "role_changed"  # name, role
    INVITE_CREATED = "invite_created"
    INVITE_REVOKED = "invite_revoked"
    PLAYER_RENAMED = "player_renamed"  # old, new
    PLAYERS_MERGED = "players_merged"  # gone, kept
    PLAYER_LINKED = "player_linked"  # player, user (None: nobody)
    MATCH_DELETED = "match_deleted"  # match, variant (entries of before: game), sides
    NOTE = "note"  # text: an entry written before entries kept their parameters


class Activity(Model):
    """What happened to a group beyond hands: matches deleted, members removed, renames.
    Kept as an action and its parameters (names and numbers), put in words when shown."""

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("group.id", ondelete="CASCADE"), index=True)
    actor: Mapped[str] = mapped_column(String(NAME_LENGTH * 2))
    action: Mapped[str] = mapped_column(String(40))
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    at: Mapped[datetime] = mapped_column(default=utcnow)


class Player(Model):
    """A player of one group; the same name in two groups is two players."""

    __table_args__ = (
        UniqueConstraint("group_id", "name_key"),
        {"sqlite_autoincrement": True},  # ids never reused (see `backup`)
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int | None] = mapped_column(
        ForeignKey("group.id", ondelete="CASCADE"), index=True
    )  # None only for players kept from before accounts, until the first admin claims them
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("user.id", ondelete="SET NULL"), index=True
    )
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    name_key: Mapped[str] = mapped_column(String(NAME_LENGTH * 3))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Match(Model):
    """A match, with the rules frozen at its start.

    `uid` names the match wherever it is exported to: an import skips a uid it has.
    `revision` counts the writes to the match. A write takes the match's row lock by
    bumping it before it reads anything, so writes to one match never interleave; the
    hand it writes takes the new revision as its `version`, which therefore names one
    state of one hand and can never reappear on another hand.
    """

    __table_args__ = (
        # History (finished and abandoned matches: finished_at set) newest first, and the
        # matches in progress (finished_at null), of a group, from one index, in order:
        # (finished_at, id) is the history's order, so a far page is a walk along the index
        # with no sort. Status and variant in it too: counts and filters by them never
        # read the table.
        Index(
            "ix_match_group_id_finished_at", "group_id", "finished_at", "id", "status", "variant"
        ),
        {"sqlite_autoincrement": True},  # ids are never reused
    )
    if TYPE_CHECKING:  # a Table (written to in Core by the write lock), typed FromClause
        __table__: ClassVar[Table]

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = mapped_column(String(32), unique=True, default=new_uid)
    group_id: Mapped[int | None] = mapped_column(
        ForeignKey("group.id", ondelete="CASCADE")
    )  # None only for matches kept from before accounts, until the first admin claims them
    created_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    variant: Mapped[str] = mapped_column(String(40), index=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    players_per_side: Mapped[int]
    first_dealer: Mapped[int] = mapped_column(default=0)
    status: Mapped[str] = mapped_column(String(12), default=MatchStatus.PLAYING, index=True)
    winner: Mapped[int | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    finished_at: Mapped[datetime | None]
    revision: Mapped[int] = mapped_column(default=0, server_default=text("0"))

    sides: Mapped[list[Side]] = relationship(
        back_populates="match", order_by="Side.seat", cascade="all, delete-orphan"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="match", order_by="Hand.number", cascade="all, delete-orphan"
    )
    audit: Mapped[list[AuditEntry]] = relationship(
        back_populates="match", order_by="AuditEntry.id", cascade="all, delete-orphan"
    )


class Side(Model):
    __table_args__ = (UniqueConstraint("match_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"))
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(NAME_LENGTH * 3))

    match: Mapped[Match] = relationship(back_populates="sides")
    members: Mapped[list[SideMember]] = relationship(
        back_populates="side", order_by="SideMember.position", cascade="all, delete-orphan"
    )


class SideMember(Model):
    """A player seated on a side; `position` orders partners around the table."""

    __table_args__ = (
        UniqueConstraint("side_id", "position"),
        # Is this player seated at this match? (the history's player filter asks it of
        # every match it walks): answered from the index alone.
        Index("ix_side_member_side_id_player_id", "side_id", "player_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    side_id: Mapped[int] = mapped_column(ForeignKey("side.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    position: Mapped[int]

    side: Mapped[Side] = relationship(back_populates="members")
    player: Mapped[Player] = relationship()


class Hand(Model):
    """One hand of a match. `version` is the match revision that last wrote it (see Match);
    `submission_token` is the idempotency key it was recorded with."""

    __table_args__ = (
        # Checked at the end of each statement on PostgreSQL, so that a removal moves the
        # later hands up one number in one statement (SQLite declares it plain: `database`).
        UniqueConstraint("match_id", "number", deferrable=True, initially="IMMEDIATE"),
        UniqueConstraint("match_id", "submission_token"),
        {"sqlite_autoincrement": True},  # a hand's id is never reused
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"))
    number: Mapped[int]
    version: Mapped[int]
    submission_token: Mapped[str | None] = mapped_column(String(TOKEN_LENGTH))
    recorded_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Seated games (Burraco for three): the seats of each side this hand; else null.
    lineup: Mapped[list[list[int]] | None] = mapped_column(JSON)

    match: Mapped[Match] = relationship(back_populates="hands")
    sides: Mapped[list[HandSide]] = relationship(
        back_populates="hand", order_by="HandSide.seat", cascade="all, delete-orphan"
    )


class HandSide(Model):
    """A side's record of a hand as entered, with the total and lines computed from it."""

    __table_args__ = (UniqueConstraint("hand_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hand.id", ondelete="CASCADE"))
    seat: Mapped[int]
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    total: Mapped[int]
    lines: Mapped[list[dict[str, Any]]] = mapped_column(JSON)

    hand: Mapped[Hand] = relationship(back_populates="sides")


class AuditEntry(Model):
    """A hand recorded, corrected or removed: when, and the hand before and after."""

    __table_args__ = (
        Index("ix_audit_entry_match_hand", "match_id", "hand_number"),
        {"sqlite_autoincrement": True},  # ids never reused (see `backup`)
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"))
    hand_number: Mapped[int]
    hand_id: Mapped[int | None] = mapped_column(index=True)  # no foreign key: outlives the hand
    action: Mapped[str] = mapped_column(String(12))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    actor: Mapped[str | None] = mapped_column(String(NAME_LENGTH * 2))  # who, in words
    actor_user_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    actor_link_id: Mapped[int | None] = mapped_column(
        ForeignKey("share_link.id", ondelete="SET NULL")
    )
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    match: Mapped[Match] = relationship(back_populates="audit")
