"""Database models of club events: entries, rounds, tables, penalties and viewer links.

An event belongs to a group and keeps its settings and the rules frozen into its
table matches. Each table of a round is an ordinary `Match` of the group, so its hands,
corrections, audit trail and share links are a match's. `revision` counts the event's
own writes; together with its table matches' revisions it names one state of the
event (see `services.event_state.event_etag`).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import Model
from .models import NAME_LENGTH, Match, Player, utcnow

EVENT_NAME_LENGTH = NAME_LENGTH * 2
ENTRY_NAME_LENGTH = NAME_LENGTH * 2
REASON_LENGTH = 200


class EventStatus(StrEnum):
    """Stored: setup (entries may change) or playing (round 1 started). An event whose
    every round was played and every table finished reads as finished."""

    SETUP = "setup"
    PLAYING = "playing"
    FINISHED = "finished"


class Event(Model):
    __table_args__ = ({"sqlite_autoincrement": True},)  # ids never reused (see `backup`)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("group.id", ondelete="CASCADE"), index=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    name: Mapped[str] = mapped_column(String(EVENT_NAME_LENGTH))
    variant: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)  # the table matches' rules
    players_per_entry: Mapped[int]
    deals_per_round: Mapped[int]
    vp_table: Mapped[Any] = mapped_column(JSON)  # a built-in table's name, or the table
    movement: Mapped[str] = mapped_column(String(20))
    rounds: Mapped[int]
    bye_vp: Mapped[int]
    status: Mapped[str] = mapped_column(String(12), default=EventStatus.SETUP)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revision: Mapped[int] = mapped_column(default=0, server_default=text("0"))

    entries: Mapped[list[Entry]] = relationship(
        back_populates="event", order_by="Entry.number", cascade="all, delete-orphan"
    )
    played: Mapped[list[EventRound]] = relationship(
        back_populates="event", order_by="EventRound.number", cascade="all, delete-orphan"
    )
    penalties: Mapped[list[EventPenalty]] = relationship(
        back_populates="event", order_by="EventPenalty.id", cascade="all, delete-orphan"
    )


class Entry(Model):
    """Who takes part: a pair (or one player, or a team) numbered 1..N in the order given."""

    __table_args__ = (UniqueConstraint("event_id", "number"), {"sqlite_autoincrement": True})

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"))
    number: Mapped[int]
    name: Mapped[str] = mapped_column(String(ENTRY_NAME_LENGTH), default="")
    withdrawn: Mapped[bool] = mapped_column(default=False)
    withdrawn_after: Mapped[int | None]  # rounds started when it was withdrawn

    event: Mapped[Event] = relationship(back_populates="entries")
    members: Mapped[list[EntryMember]] = relationship(
        back_populates="entry", order_by="EntryMember.position", cascade="all, delete-orphan"
    )


class EntryMember(Model):
    __table_args__ = (UniqueConstraint("entry_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("entry.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    position: Mapped[int]

    entry: Mapped[Entry] = relationship(back_populates="members")
    player: Mapped[Player] = relationship()


class EventRound(Model):
    """A round as it was paired: its tables, and the entries (ids) that had the bye."""

    __table_args__ = (UniqueConstraint("event_id", "number"), {"sqlite_autoincrement": True})

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"))
    number: Mapped[int]
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    byes: Mapped[list[int]] = mapped_column(JSON, default=list)

    event: Mapped[Event] = relationship(back_populates="played")
    tables: Mapped[list[EventTable]] = relationship(
        back_populates="round", order_by="EventTable.number", cascade="all, delete-orphan"
    )


class EventTable(Model):
    """A table of a round: its number, its two entries (in the movement's order) and the
    match they play there."""

    __table_args__ = (
        UniqueConstraint("round_id", "number"),
        Index("ix_event_table_event_id", "event_id"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"))
    round_id: Mapped[int] = mapped_column(ForeignKey("event_round.id", ondelete="CASCADE"))
    number: Mapped[int]
    first_id: Mapped[int] = mapped_column(ForeignKey("entry.id"))
    second_id: Mapped[int] = mapped_column(ForeignKey("entry.id"))
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"), unique=True)

    round: Mapped[EventRound] = relationship(back_populates="tables")
    match: Mapped[Match] = relationship()


class EventPenalty(Model):
    """VP taken off an entry by the director, with the reason, who and when."""

    __table_args__ = ({"sqlite_autoincrement": True},)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"))
    entry_id: Mapped[int] = mapped_column(ForeignKey("entry.id", ondelete="CASCADE"))
    vp: Mapped[int]
    reason: Mapped[str] = mapped_column(String(REASON_LENGTH))
    actor: Mapped[str] = mapped_column(String(NAME_LENGTH * 2))
    actor_user_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    at: Mapped[datetime] = mapped_column(default=utcnow)

    event: Mapped[Event] = relationship(back_populates="penalties")


class EventLink(Model):
    """A revocable link to an event's standings and projector view (nothing else)."""

    __table_args__ = ({"sqlite_autoincrement": True},)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None]
