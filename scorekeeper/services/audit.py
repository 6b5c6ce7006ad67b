"""The audit trail of a match: every hand recorded, corrected or removed, before and after."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any, cast

from sqlalchemy import Table, bindparam, select

from ..caches import cache
from ..database import insert_of, plain_rows, rows_of, run, written_rows
from ..extensions import db
from ..json_answers import compact_json
from ..models import AuditEntry, Hand, Match, utcnow
from ..rules import Rules
from .match_state import match_rules, side_names
from .rulebook import record_changes

_AUDIT = cast(Table, AuditEntry.__table__)
# The statements of every write and match read, built once (see `database.run`).
NEW_ENTRY = insert_of(_AUDIT).returning(_AUDIT.c.id)
TRAIL = (
    select(_AUDIT.c.id)
    .where(_AUDIT.c.match_id == bindparam("match_id"))
    .order_by(_AUDIT.c.id.desc())
)
ENTRY_COLUMNS = (
    _AUDIT.c.id,
    _AUDIT.c.action,
    _AUDIT.c.hand_number,
    _AUDIT.c.hand_id,
    _AUDIT.c.at,
    _AUDIT.c.before,
    _AUDIT.c.after,
    _AUDIT.c.actor,
)
ENTRIES = select(*ENTRY_COLUMNS).where(_AUDIT.c.id.in_(bindparam("ids", expanding=True)))
ENTRY = select(*ENTRY_COLUMNS).where(_AUDIT.c.id == bindparam("id"))


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

    @cached_property
    def api_text(self) -> bytes:
        """`api` as compact JSON, as a match state joins it in (see `api.state_document`)."""
        return compact_json(self.api)


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

    Inserted at once, in one statement: an entry is never changed afterwards. The entry
    as `audit_rows` explains it, and the trail of the match's revision (this write's)
    when the one before is known, are kept for the answer and the next reads."""
    at, label = utcnow(), actor.label if actor else None
    [(entry_id,)] = written_rows(
        db.session,
        NEW_ENTRY,
        {
            "match_id": match.id,
            "hand_number": number,
            "hand_id": hand_id,
            "action": action,
            "at": at,
            "before": before,
            "after": after,
            "actor": label,
            "actor_user_id": actor.user_id if actor else None,
            "actor_link_id": actor.link_id if actor else None,
        },
    )
    names = side_names(match)
    row = _audit_row(
        action,
        number,
        hand_id,
        at,
        before,
        after,
        label,
        names,
        match_rules(match),
    )
    parts = cache("parts")
    parts.put(("audit", entry_id, *names), row)
    revision = match.revision  # this write's: it holds the match's lock
    kept: tuple[int, list[int]] | None = parts.peek(("trail", match.id))
    if kept is not None and kept[0] in (revision, revision - 1):  # this write's, the last
        parts.put(("trail", match.id), (revision, [entry_id, *kept[1]]))


def _trail(match: Match) -> list[int]:
    """The ids of the match's audit entries, newest first, at its revision: kept once
    per match, read when the match has moved on since (one query of ids)."""
    parts = cache("parts")
    kept: tuple[int, list[int]] | None = parts.peek(("trail", match.id))
    if kept is not None and kept[0] == match.revision:
        return kept[1]
    ids = [entry_id for (entry_id,) in plain_rows(db.session, TRAIL, {"match_id": match.id})]
    parts.put(("trail", match.id), (match.revision, ids))
    return ids


CHANGES = ("corrected", "removed")  # what the scoreboard lists: recorded hands are in its table


def audit_rows(
    match: Match, hand_id: int | None = None, actions: Sequence[str] | None = None
) -> list[AuditRow]:
    """The audit trail (of one hand, of some actions), newest first: per side, the hand
    total before and after.

    Entries never change, so each is read and explained once (per side names) and kept;
    a long trail costs one query of ids (none when the trail of the match's revision is
    kept), and one more for entries not seen yet.
    """
    names = side_names(match)
    parts = cache("parts")
    ids: list[int]
    if hand_id is None and actions is None:
        ids = _trail(match)
    else:
        query = TRAIL.params(match_id=match.id)
        if hand_id is not None:
            query = query.where(AuditEntry.hand_id == hand_id)
        if actions is not None:
            query = query.where(AuditEntry.action.in_(actions))
        ids = list(run(db.session, query).scalars())
    found = dict(zip(ids, parts.peek_many([("audit", i, *names) for i in ids]), strict=True))
    missing = [i for i, row in found.items() if row is None]
    if missing:
        rules = match_rules(match)
        entries = rows_of(db.session, ENTRY, ENTRIES, missing)
        for entry_id, action, number, hand_id_, at, before, after, actor in entries:
            row = _audit_row(action, number, hand_id_, at, before, after, actor, names, rules)
            parts.put(("audit", entry_id, *names), row)
            found[entry_id] = row
    return [found[i] for i in ids]  # type: ignore[misc]


def _audit_row(
    action: str,
    number: int,
    hand_id: int | None,
    at: datetime,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    actor: str | None,
    names: list[str],
    rules: Rules,
) -> AuditRow:
    totals_before = [s["total"] for s in before["sides"]] if before else [None] * len(names)
    totals_after = [s["total"] for s in after["sides"]] if after else [None] * len(names)
    details = []
    if before and after:
        details = record_changes(
            rules,
            names,
            [s["input"] for s in before["sides"]],
            [s["input"] for s in after["sides"]],
        )
    return AuditRow(
        action,
        number,
        hand_id,
        at,
        list(zip(names, totals_before, totals_after, strict=True)),
        details,
        actor,
    )
