"""The audit trail of a match: every hand recorded, corrected or removed, before and after."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any, cast

from sqlalchemy import Table, insert, select

from ..caches import cache
from ..extensions import db
from ..models import AuditEntry, Hand, Match
from ..rules import Rules
from .match_state import match_rules, side_names
from .rulebook import record_changes

_AUDIT = cast(Table, AuditEntry.__table__)


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

    @cached_property
    def api(self) -> dict[str, Any]:
        """The entry as the API's match state shows it: made once, as the row is kept."""
        return {
            "action": self.action,
            "hand_number": self.number,
            "at": self.at.isoformat() + "Z",
            "totals_before": [before for _, before, _ in self.changes],
            "totals_after": [after for _, _, after in self.changes],
            "changes": self.details,
            "by": self.actor,
        }


def side_snapshot(seat: int, record: Any, total: int, lines: Any) -> dict[str, Any]:
    """A seat of a hand as the audit trail keeps it (the names of the stored columns)."""
    return {"input": record, "total": total, "lines": lines}


def snapshot(
    number: int, sides: list[dict[str, Any]], lineup: list[list[int]] | None
) -> dict[str, Any]:
    """A hand as the audit trail keeps it: its number, its seats, a seated game's line-up."""
    kept: dict[str, Any] = {"number": number, "sides": sides}
    if lineup is not None:  # a seated game's hand: who played with whom
        kept["lineup"] = lineup
    return kept


def hand_snapshot(hand: Hand) -> dict[str, Any]:
    sides = [side_snapshot(s.seat, s.record, s.total, s.lines) for s in hand.sides]
    return snapshot(hand.number, sides, hand.lineup)


def keep(
    match: Match,
    number: int,
    hand_id: int,
    action: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    actor: Actor | None = None,
) -> None:
    """Keep a change in the match's audit trail (hand_id outlives a removed hand).

    Inserted at once, in one statement: an entry is never changed afterwards."""
    db.session.execute(
        insert(_AUDIT).values(
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


CHANGES = ("corrected", "removed")  # what the scoreboard lists: recorded hands are in its table


def audit_rows(
    match: Match, hand_id: int | None = None, actions: Sequence[str] | None = None
) -> list[AuditRow]:
    """The audit trail (of one hand, of some actions), newest first: per side, the hand
    total before and after.

    Entries never change, so each is read and explained once (per side names) and kept;
    a long trail costs one query of ids, and one more for entries not seen yet.
    """
    names = side_names(match)
    query = select(AuditEntry.id).where(AuditEntry.match_id == match.id)
    if hand_id is not None:
        query = query.where(AuditEntry.hand_id == hand_id)
    if actions is not None:
        query = query.where(AuditEntry.action.in_(actions))
    ids = list(db.session.execute(query.order_by(AuditEntry.id.desc())).scalars())
    parts = cache("parts")
    found = dict(zip(ids, parts.peek_many([("audit", i, *names) for i in ids]), strict=True))
    missing = [i for i, row in found.items() if row is None]
    if missing:
        rules = match_rules(match)
        entries = db.session.execute(select(AuditEntry).where(AuditEntry.id.in_(missing)))
        for entry in entries.scalars():
            row = _audit_row(entry, names, rules)
            parts.put(("audit", entry.id, *names), row)
            found[entry.id] = row
    return [found[i] for i in ids]  # type: ignore[misc]


def _audit_row(entry: AuditEntry, names: list[str], rules: Rules) -> AuditRow:
    before = [s["total"] for s in entry.before["sides"]] if entry.before else [None] * len(names)
    after = [s["total"] for s in entry.after["sides"]] if entry.after else [None] * len(names)
    details = []
    if entry.before and entry.after:
        details = record_changes(
            rules,
            names,
            [s["input"] for s in entry.before["sides"]],
            [s["input"] for s in entry.after["sides"]],
        )
    return AuditRow(
        entry.action,
        entry.hand_number,
        entry.hand_id,
        entry.at,
        list(zip(names, before, after, strict=True)),
        details,
        entry.actor,
    )
