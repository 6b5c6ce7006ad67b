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
TRAIL_SINCE = TRAIL.where(_AUDIT.c.id >= bindparam("since"))
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


@dataclass(frozen=True)
class Trail:
    """A match's whole audit trail at a revision, newest first, as explained with the
    side names of that revision: kept once per match, so that a state of a long match
    takes its trail whole rather than looking up each entry."""

    revision: int
    names: tuple[str, ...]
    ids: list[int]
    rows: list[AuditRow]


def _kept_trail(match: Match, names: list[str]) -> Trail | None:
    """The trail kept for the match, if it was explained with the names it has now."""
    kept: Trail | None = cache("parts").peek(("trail", match.id))
    return kept if kept is not None and kept.names == tuple(names) else None


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
    kept = _kept_trail(match, names)
    if kept is not None and kept.revision in (revision, revision - 1):  # this write's, the last
        trail = Trail(revision, kept.names, [entry_id, *kept.ids], [row, *kept.rows])
        parts.put(("trail", match.id), trail)


CHANGES = ("corrected", "removed")  # what the scoreboard lists: recorded hands are in its table


def audit_rows(
    match: Match, hand_id: int | None = None, actions: Sequence[str] | None = None
) -> list[AuditRow]:
    """The audit trail (of one hand, of some actions), newest first: per side, the hand
    total before and after.

    Entries never change, so each is read and explained once (per side names) and kept;
    the whole trail of the match's revision is kept whole (`Trail`), else it costs one
    query of ids, and one more for entries not seen yet.
    """
    whole = hand_id is None and actions is None
    names = side_names(match)
    kept = _kept_trail(match, names) if whole else None
    if kept is not None and kept.revision == match.revision:
        return list(kept.rows)
    newer = _since(match, kept) if kept is not None and kept.revision < match.revision else None
    if newer is not None and kept is not None:
        ids = newer + kept.ids
        rows = _explained(match, names, newer) + kept.rows
    else:
        if whole:
            ids = [i for (i,) in plain_rows(db.session, TRAIL, {"match_id": match.id})]
        else:
            query = TRAIL.params(match_id=match.id)
            if hand_id is not None:
                query = query.where(AuditEntry.hand_id == hand_id)
            if actions is not None:
                query = query.where(AuditEntry.action.in_(actions))
            ids = list(run(db.session, query).scalars())
        rows = _explained(match, names, ids)
    if whole:
        cache("parts").put(("trail", match.id), Trail(match.revision, tuple(names), ids, rows))
    return list(rows)


def _since(match: Match, kept: Trail) -> list[int] | None:
    """The ids of the entries newer than the trail kept (newest first), read from its
    newest entry on; None (read it all) when that entry is no longer there. A match's
    entries are only ever added, in the order of their ids, but a restore (`backup`)
    gives every entry a new id past all earlier ones."""
    if not kept.ids:
        return None
    params = {"match_id": match.id, "since": kept.ids[0]}
    newer = [i for (i,) in plain_rows(db.session, TRAIL_SINCE, params)]
    if not newer or newer[-1] != kept.ids[0]:
        return None
    return newer[:-1]


def _explained(match: Match, names: list[str], ids: list[int]) -> list[AuditRow]:
    """The rows of these entries: kept, or read and explained (and kept)."""
    parts = cache("parts")
    kept = parts.peek_many([("audit", i, *names) for i in ids])
    found: dict[int, AuditRow | None] = dict(zip(ids, kept, strict=True))
    missing = [i for i in ids if found[i] is None]
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
    details: list[str] = []
    edited: tuple[int, ...] = ()
    if before and after:
        inputs_before = [s["input"] for s in before["sides"]]
        inputs_after = [s["input"] for s in after["sides"]]
        details = record_changes(rules, names, inputs_before, inputs_after)
        pairs = zip(inputs_before, inputs_after, strict=False)
        edited = tuple(seat for seat, (old, new) in enumerate(pairs) if old != new)
    return AuditRow(
        action,
        number,
        hand_id,
        at,
        list(zip(names, totals_before, totals_after, strict=True)),
        details,
        actor,
        edited,
    )
