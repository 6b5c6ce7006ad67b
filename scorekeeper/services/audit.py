"""The audit trail of a match: every hand recorded, corrected or removed, before and after."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..extensions import db
from ..models import AuditEntry, Hand, Match
from .match_state import match_rules, side_names
from .rulebook import record_changes


@dataclass(frozen=True)
class Actor:
    """Who made a change: a user, or a share link (by its number)."""

    label: str
    user_id: int | None = None
    link_id: int | None = None


@dataclass(frozen=True)
class AuditRow:
    action: str
    number: int
    hand_id: int | None
    at: datetime
    changes: list[tuple[str, int | None, int | None]]
    details: list[str]
    actor: str | None


def hand_snapshot(hand: Hand) -> dict[str, Any]:
    return {
        "number": hand.number,
        "sides": [{"input": s.record, "total": s.total, "lines": s.lines} for s in hand.sides],
    }


def keep(
    match: Match,
    number: int,
    hand_id: int,
    action: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    actor: Actor | None = None,
) -> None:
    """Keep a change in the match's audit trail (hand_id outlives a removed hand)."""
    db.session.add(
        AuditEntry(
            match_id=match.id,
            hand_number=number,
            hand_id=hand_id,
            action=action,
            before=before,
            after=after,
            actor=actor.label if actor else None,
            actor_user_id=actor.user_id if actor else None,
            actor_link_id=actor.link_id if actor else None,
        )
    )


def audit_rows(match: Match, hand_id: int | None = None) -> list[AuditRow]:
    """The audit trail, newest first: per side, the hand total before and after."""
    names = side_names(match)
    rules = match_rules(match)
    rows = []
    for entry in reversed(match.audit):
        if hand_id is not None and entry.hand_id != hand_id:
            continue
        before = (
            [s["total"] for s in entry.before["sides"]] if entry.before else [None] * len(names)
        )
        after = [s["total"] for s in entry.after["sides"]] if entry.after else [None] * len(names)
        details = []
        if entry.before and entry.after:
            details = record_changes(
                rules,
                names,
                [s["input"] for s in entry.before["sides"]],
                [s["input"] for s in entry.after["sides"]],
            )
        changes = list(zip(names, before, after, strict=True))
        rows.append(
            AuditRow(
                entry.action,
                entry.hand_number,
                entry.hand_id,
                entry.at,
                changes,
                details,
                entry.actor,
            )
        )
    return rows
