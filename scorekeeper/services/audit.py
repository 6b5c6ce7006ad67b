"""The audit trail of a match: every hand recorded, corrected or removed, before and after."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from sqlalchemy import select

from .. import words
from ..extensions import db
from ..models import AuditEntry, Hand, Match
from ..words.translate import gettext
from .match_state import match_rules, side_names
from .rulebook import record_changes

CHANGES = ("corrected", "removed")  # what the scoreboard lists: recorded hands are in its table


@dataclass(frozen=True)
class Actor:
    """Who made a change: a user (by name), or a share link (by its number)."""

    name: str | None
    user_id: int | None = None
    link_id: int | None = None


@dataclass(frozen=True)
class AuditRow:
    action: str
    number: int
    hand_id: int | None
    at: datetime
    changes: list[tuple[str, int | None, int | None]]  # side name, total before, after
    details: list[str]
    actor: str | None
    edited: tuple[int, ...] = ()  # the seats whose entries a correction changed

    @cached_property
    def changed_sides(self) -> list[tuple[str, int | None, int | None]]:
        """The sides a change concerns (each with its total before and after): those whose
        total or entries it changed. A removal concerns every side."""
        return [
            change
            for seat, change in enumerate(self.changes)
            if change[1] != change[2] or seat in self.edited
        ]

    def to_dict(self) -> dict[str, Any]:
        """The entry as the API's match state shows it."""
        return {
            "action": self.action,
            "hand_number": self.number,
            "at": self.at.isoformat() + "Z",
            "totals_before": [before for _, before, _ in self.changes],
            "totals_after": [after for _, _, after in self.changes],
            "changes": self.details,
            "by": self.actor,
        }


def snapshot(
    number: int, sides: list[dict[str, Any]], lineup: list[list[int]] | None
) -> dict[str, Any]:
    """A hand as the audit trail keeps it: its number, its seats, a seated game's line-up."""
    kept: dict[str, Any] = {"number": number, "sides": sides}
    if lineup is not None:  # a seated game's hand: who played with whom
        kept["lineup"] = lineup
    return kept


def hand_snapshot(hand: Hand) -> dict[str, Any]:
    sides = [{"input": s.record, "total": s.total, "lines": s.lines} for s in hand.sides]
    return snapshot(hand.number, sides, hand.lineup)


def keep(
    match: Match,
    hand: Hand,
    action: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    actor: Actor | None = None,
) -> None:
    """Keep a change of `hand` in the match's audit trail (flushed, so it has its id)."""
    _add(match, hand.number, hand.id, action, before, after, actor)


def keep_removal(
    match: Match,
    number: int,
    hand_id: int,
    before: dict[str, Any],
    actor: Actor | None = None,
) -> None:
    """Keep a removal: the entry keeps the hand's id, which outlives the hand."""
    _add(match, number, hand_id, "removed", before, None, actor)


def _add(
    match: Match,
    number: int,
    hand_id: int,
    action: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    actor: Actor | None,
) -> None:
    db.session.add(
        AuditEntry(
            match_id=match.id,
            hand_number=number,
            hand_id=hand_id,
            action=action,
            before=before,
            after=after,
            actor=actor.name if actor else None,
            actor_user_id=actor.user_id if actor else None,
            actor_link_id=actor.link_id if actor else None,
        )
    )


def audit_rows(
    match: Match, hand_id: int | None = None, actions: Sequence[str] | None = None
) -> list[AuditRow]:
    """The audit trail (of one hand, of some actions), newest first, explained: per side,
    the hand total before and after, and what changed in the entries."""
    query = select(AuditEntry).where(AuditEntry.match_id == match.id)
    if hand_id is not None:
        query = query.where(AuditEntry.hand_id == hand_id)
    if actions is not None:
        query = query.where(AuditEntry.action.in_(actions))
    entries = db.session.execute(query.order_by(AuditEntry.id.desc())).scalars()
    names = side_names(match)
    return [_explained(match, names, entry) for entry in entries]


def _totals(kept: dict[str, Any] | None, count: int) -> list[int | None]:
    """The seats' totals of a kept hand (none where the entry has no such hand)."""
    sides = kept.get("sides") if isinstance(kept, dict) else None
    if not isinstance(sides, list):
        return [None] * count
    totals: list[int | None] = [
        side.get("total") if isinstance(side, dict) and isinstance(side.get("total"), int) else None
        for side in sides
    ]
    return (totals + [None] * count)[:count]


def _inputs(kept: dict[str, Any]) -> list[Any]:
    sides = kept.get("sides")
    return [side.get("input") for side in sides if isinstance(side, dict)] if sides else []


def _explained(match: Match, names: list[str], entry: AuditEntry) -> AuditRow:
    before, after = entry.before, entry.after
    details: list[str] = []
    edited: tuple[int, ...] = ()
    if isinstance(before, dict) and isinstance(after, dict):
        inputs_before, inputs_after = _inputs(before), _inputs(after)
        details = record_changes(match_rules(match), names, inputs_before, inputs_after)
        pairs = zip(inputs_before, inputs_after, strict=False)
        edited = tuple(seat for seat, (old, new) in enumerate(pairs) if old != new)
    changes = list(zip(names, _totals(before, len(names)), _totals(after, len(names)), strict=True))
    return AuditRow(
        entry.action,
        entry.hand_number,
        entry.hand_id,
        entry.at,
        changes,
        details,
        actor_words(entry),
        edited,
    )


def actor_words(entry: AuditEntry) -> str | None:
    """Who made a change, as the trail says it: a user's name, or the share link's."""
    if entry.actor is None and entry.actor_link_id is not None:
        return gettext("scorer link %(number)s", number=words.number(entry.actor_link_id))
    return entry.actor
