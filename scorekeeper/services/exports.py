"""Exporting groups' matches: JSON (everything, to import elsewhere) and CSV (a spreadsheet).

Either is read in a fixed number of queries whatever the number of matches: the
groups, their players, their matches, the seating, the hands, the audit trail, each
in one query over all the groups asked for (`tests/api/test_exports.py` counts them).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select

from .. import words
from ..extensions import db
from ..models import AuditEntry, Group, Hand, HandSide, Match, Player, Side, SideMember, utcnow
from ..rules import rules_from_json
from ..rules.model import Vocabulary
from .audit import actor_words

FORMAT = "scorekeeper-export"
VERSION = 1
CSV_COLUMNS = (
    "match_uid",
    "date",
    "variant",
    "hand",
    "side",
    "players",
    "hand_total",
    "running_total",
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet would run as a formula


def stamp(moment: datetime | None) -> str | None:
    """A stored (naive UTC) time as the API writes it: ISO 8601 with a Z."""
    return None if moment is None else moment.isoformat() + "Z"


def _in_groups(group_ids: Sequence[int]) -> Any:
    return Match.group_id.in_(list(group_ids))


def _seating(group_ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """Each match's sides in seat order: {"name", "players"} (one query)."""
    rows = db.session.execute(
        select(Side.match_id, Side.seat, Side.name, SideMember.position, Player.name)
        .join(Match, Match.id == Side.match_id)
        .join(SideMember, SideMember.side_id == Side.id)
        .join(Player, Player.id == SideMember.player_id)
        .where(_in_groups(group_ids))
        .order_by(Side.match_id, Side.seat, SideMember.position)
    )
    seats: dict[int, dict[int, dict[str, Any]]] = defaultdict(dict)
    for match_id, seat, side_name, _, player in rows:
        side = seats[match_id].setdefault(seat, {"name": side_name, "players": []})
        side["players"].append(player)
    return {match_id: [by_seat[s] for s in sorted(by_seat)] for match_id, by_seat in seats.items()}


def _hands(group_ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """Each match's hands as entered and scored, in order (one query); a seated game's
    hand also has its `lineup`, and one entry per seat (its share) in `sides`."""
    rows = db.session.execute(
        select(Hand, HandSide.seat, HandSide.record, HandSide.total, HandSide.lines)
        .join(Match, Match.id == Hand.match_id)
        .join(HandSide, HandSide.hand_id == Hand.id)
        .where(_in_groups(group_ids))
        .order_by(Hand.match_id, Hand.number, HandSide.seat)
    )
    hands: dict[int, list[dict[str, Any]]] = defaultdict(list)
    current: dict[str, Any] | None = None
    for hand, _, record, total, lines in rows:
        if current is None or current["id"] != hand.id:
            current = {
                "number": hand.number,
                "id": hand.id,
                "version": hand.version,
                "token": hand.submission_token,
                "recorded_at": stamp(hand.recorded_at),
                "updated_at": stamp(hand.updated_at),
                "sides": [],
            }
            if hand.lineup is not None:  # a seated game's hand: who played with whom
                current["lineup"] = hand.lineup
            hands[hand.match_id].append(current)
        current["sides"].append({"input": record, "total": total, "lines": lines})
    return hands


def _audit(group_ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """Each match's audit trail, oldest first (one query)."""
    rows = db.session.execute(
        select(AuditEntry)
        .join(Match, Match.id == AuditEntry.match_id)
        .where(_in_groups(group_ids))
        .order_by(AuditEntry.match_id, AuditEntry.id)
    ).scalars()
    trail: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for entry in rows:
        trail[entry.match_id].append(
            {
                "action": entry.action,
                "hand_number": entry.hand_number,
                "hand_id": entry.hand_id,
                "at": stamp(entry.at),
                "by": actor_words(entry),
                "before": entry.before,
                "after": entry.after,
            }
        )
    return trail


def _shown(hand: dict[str, Any] | None, vocabulary: Vocabulary) -> dict[str, Any] | None:
    """A hand as the export writes it: each side's lines with their words (`label`)."""
    if hand is None:
        return None
    sides = [
        {**side, "lines": words.labelled_lines(side.get("lines", []), vocabulary)}
        for side in hand.get("sides", [])
    ]
    return {**hand, "sides": sides}


def _shown_entry(entry: dict[str, Any], vocabulary: Vocabulary) -> dict[str, Any]:
    return {
        **entry,
        "before": _shown(entry["before"], vocabulary),
        "after": _shown(entry["after"], vocabulary),
    }


def export_json(group_ids: Sequence[int]) -> dict[str, Any]:
    """These groups with their players and every match, as `POST /api/v1/import` takes it."""
    groups = db.session.execute(
        select(Group).where(Group.id.in_(list(group_ids))).order_by(Group.id)
    ).scalars()
    players: dict[int | None, list[str]] = defaultdict(list)
    for group_id, name in db.session.execute(
        select(Player.group_id, Player.name)
        .where(Player.group_id.in_(list(group_ids)))
        .order_by(Player.group_id, Player.name_key)
    ):
        players[group_id].append(name)
    seating, hands, audit = _seating(group_ids), _hands(group_ids), _audit(group_ids)
    matches: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for match in db.session.execute(
        select(Match).where(_in_groups(group_ids)).order_by(Match.group_id, Match.id)
    ).scalars():
        assert match.group_id is not None  # filtered on it
        vocabulary = rules_from_json(match.rules).vocabulary
        matches[match.group_id].append(
            {
                "uid": match.uid,
                "variant": match.variant,
                "options": match.options,
                "rules": match.rules,
                "players_per_side": match.players_per_side,
                "first_dealer": match.first_dealer,
                "status": match.status,
                "winner": match.winner,
                "created_at": stamp(match.created_at),
                "finished_at": stamp(match.finished_at),
                "revision": match.revision,
                "sides": seating.get(match.id, []),
                "hands": [_shown(hand, vocabulary) for hand in hands.get(match.id, [])],
                "audit": [_shown_entry(entry, vocabulary) for entry in audit.get(match.id, [])],
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": stamp(utcnow()),
        "groups": [
            {
                "name": group.name,
                "players": [{"name": name} for name in players.get(group.id, [])],
                "matches": matches.get(group.id, []),
            }
            for group in groups
        ],
    }


def _cell(text: str) -> str:
    """Text a spreadsheet shows as text: one starting like a formula gets a leading '."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def export_csv(group_ids: Sequence[int]) -> str:
    """One row per hand and side (with a header row), match by match, hand by hand, in
    three queries: the matches, their seating, their hands' totals (no JSON read)."""
    matches = db.session.execute(
        select(Match.id, Match.uid, Match.created_at, Match.variant)
        .where(_in_groups(group_ids))
        .order_by(Match.group_id, Match.created_at, Match.id)
    ).all()
    seating = _seating(group_ids)
    totals: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for match_id, number, seat, total in db.session.execute(
        select(Hand.match_id, Hand.number, HandSide.seat, HandSide.total)
        .join(Match, Match.id == Hand.match_id)
        .join(HandSide, HandSide.hand_id == Hand.id)
        .where(_in_groups(group_ids))
        .order_by(Hand.match_id, Hand.number, HandSide.seat)
    ):
        totals[match_id].append((number, seat, total))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for match_id, uid, created_at, variant in matches:
        sides = seating.get(match_id, [])
        running = [0] * len(sides)
        for number, seat, total in totals.get(match_id, []):
            running[seat] += total
            side = sides[seat]
            writer.writerow(
                (
                    uid,
                    created_at.date().isoformat(),
                    variant,
                    number,
                    _cell(side["name"]),
                    _cell(" & ".join(side["players"])),
                    total,
                    running[seat],
                )
            )
    return buffer.getvalue()
