"""Importing a JSON export into a group: every match as it was, or nothing at all.

The whole file is checked before anything is saved: its shape, each match's frozen
rules, seating and status, and every hand, scored again under the match's own rules
(the totals must be the ones in the file). A match whose uid this server already has
is skipped, so importing the same file twice adds nothing twice (its players are not
added either), and the answer says which groups hold the skipped ones. The players of
the matches added are the group's players of the same name (whatever its case), or new
ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select

from .. import words
from ..extensions import db
from ..ids import MAX_ID
from ..models import (
    NAME_LENGTH,
    SIDE_NAME_LENGTH,
    AuditEntry,
    Hand,
    HandSide,
    Match,
    MatchStatus,
    Player,
    Side,
    SideMember,
    name_key,
)
from ..rules import (
    InvalidRules,
    Rules,
    RulesError,
    meld_requirement,
    rules_from_json,
    rules_to_json,
)
from ..rules.game import DRAWN, FINISHED, PLAYING, TIED
from ..rules.hand import MAX_DEAL
from ..rules.seats import phase_after
from ..validation import FieldError, ValidationError
from ..words.translate import gettext, ngettext
from . import audit, ratings
from .exports import FORMAT, VERSION
from .import_hands import FileReader, Scored, TooManyProblems, scored_hand
from .match_state import result_after
from .rated_matches import COUNTED

ABANDONED = MatchStatus.ABANDONED
STATUSES = (PLAYING, TIED, FINISHED, DRAWN, ABANDONED)
ACTIONS = ("recorded", "corrected", "removed")
UID = re.compile(r"[0-9a-f]{32}")
VARIANT_LENGTH = 40  # as Match.variant holds
MAX_DEPTH = 32  # lists and objects in lists and objects: an export holds a dozen at most
DAMAGE = (ArithmeticError, LookupError, TypeError, ValueError, AttributeError)


@dataclass(frozen=True)
class Imported:
    matches: int
    skipped: int
    skipped_in: dict[int | None, int] = field(default_factory=dict)  # group id: matches


@dataclass
class CheckedMatch:
    """A match of the file, checked and ready to save."""

    doc: dict[str, Any]
    uid: str
    rules: Rules
    sides: list[tuple[str, list[str]]]
    hands: list[tuple[dict[str, Any], Scored]]
    created_at: datetime
    finished_at: datetime | None
    hand_times: list[tuple[datetime, datetime]]
    audit_times: list[datetime]
    audit_hands: list[tuple[dict[str, Any] | None, dict[str, Any] | None]] = field(
        default_factory=list
    )  # each audit entry's hand before and after, as kept


def _sides(read: FileReader, raw: object, where: str, per_side: int) -> list[tuple[str, list[str]]]:
    sides = []
    seen: set[str] = set()
    for seat, side in enumerate(read.items(raw, where)):
        at = f"{where}.{seat}"
        side_doc = read.obj(side, at)
        if side_doc is None:
            continue
        players = read.items(side_doc.get("players"), f"{at}.players")
        names = []
        for position, player in enumerate(players):
            name = read.name(player, f"{at}.players.{position}")
            if name is not None and name_key(name) in seen:
                read.add(f"{at}.players.{position}", gettext("%(name)s is seated twice", name=name))
            elif name is not None:
                seen.add(name_key(name))
                names.append(name)
        if len(players) != per_side:
            read.add(
                f"{at}.players",
                ngettext(
                    "must list %(count)s player, as players_per_side says",
                    "must list %(count)s players, as players_per_side says",
                    per_side,
                    count=str(per_side),
                ),
            )
        side_name = read.name(side_doc.get("name"), f"{at}.name", SIDE_NAME_LENGTH)
        sides.append((side_name or "", names))
    return sides


def _snapshot(
    read: FileReader, raw: object, where: str, rules: Rules, match: CheckedMatch
) -> dict[str, Any] | None:
    """An audit entry's hand before or after: a hand as the audit keeps it (its lines as
    this version keeps them: scored again), or null."""
    if raw is None:
        return None
    names = [name for name, _ in match.sides]
    scored = scored_hand(
        read,
        {"id": 1, "version": 0, **raw} if isinstance(raw, dict) else raw,
        where,
        match.doc,
        rules,
        names,
    )
    if scored is None:
        return None
    hand, seats = scored
    sides = [{"input": record, "total": total, "lines": lines} for record, total, lines in seats]
    return audit.snapshot(hand["number"], sides, hand.get("lineup"))


def _match(read: FileReader, raw: object, where: str) -> CheckedMatch | None:
    doc = read.obj(raw, where)
    if doc is None:
        return None
    uid = doc.get("uid")
    if not isinstance(uid, str) or not UID.fullmatch(uid):
        read.add(f"{where}.uid", gettext("must be 32 lowercase hexadecimal digits"))
        return None
    try:
        rules = rules_from_json(doc.get("rules"))
    except (RulesError, KeyError, TypeError, ValueError, AttributeError) as error:
        why = words.faults_text(error.problems) if isinstance(error, InvalidRules) else error
        read.add(
            f"{where}.rules",
            gettext("are not a rule set this version can read (%(why)s)", why=str(why)),
        )
        return None
    if len(rules.key) > VARIANT_LENGTH:
        read.add(
            f"{where}.rules.key",
            gettext("must be up to %(count)s characters", count=str(VARIANT_LENGTH)),
        )
        return None
    if doc.get("variant") != rules.key:
        read.add(
            f"{where}.variant", gettext("must be the key of its rules (%(key)s)", key=rules.key)
        )
    if not isinstance(doc.get("options"), dict):
        read.add(f"{where}.options", gettext("must be an object"))
    per_side = read.integer(doc.get("players_per_side"), f"{where}.players_per_side", 1, 8)
    if per_side is None:
        return None
    sides = _sides(read, doc.get("sides"), f"{where}.sides", per_side)
    if not any(
        lay.sides == len(sides) and lay.players_per_side == per_side for lay in rules.layouts
    ):
        read.add(
            f"{where}.sides",
            gettext("%(game)s is not played by this table", game=words.game_name(rules.key)),
        )
        return None
    read.integer(doc.get("first_dealer"), f"{where}.first_dealer", 0, len(sides) * per_side - 1)
    read.integer(doc.get("revision"), f"{where}.revision", 0, MAX_ID)
    created = read.moment(doc.get("created_at"), f"{where}.created_at")
    finished = read.moment(doc.get("finished_at"), f"{where}.finished_at", optional=True)
    names = [name for name, _ in sides]
    match = CheckedMatch(doc, uid, rules, sides, [], created or datetime.min, finished, [], [])
    hand_ids: set[object] = set()
    running: list[list[int]] = []  # after each hand, seat by seat: the phase of the next
    for index, raw_hand in enumerate(read.items(doc.get("hands"), f"{where}.hands")):
        at = f"{where}.hands.{index}"
        phase = phase_after(rules, running) if len(running) == index else None
        hand = scored_hand(read, raw_hand, at, doc, rules, names, phase)
        if hand is None:
            continue
        if len(running) == index:
            before = running[-1] if running else [0] * len(names)
            running.append([r + total for r, (_, total, _) in zip(before, hand[1], strict=True)])
        if hand[0]["number"] != index + 1:
            read.add(
                f"{at}.number",
                gettext("must be %(number)s: hands are numbered in order", number=str(index + 1)),
            )
        if hand[0]["id"] in hand_ids:
            read.add(f"{at}.id", gettext("is the id of another hand of this match"))
        hand_ids.add(hand[0]["id"])
        recorded = read.moment(hand[0].get("recorded_at"), f"{at}.recorded_at")
        updated = read.moment(hand[0].get("updated_at"), f"{at}.updated_at")
        match.hands.append(hand)
        match.hand_times.append((recorded or datetime.min, updated or datetime.min))
    _check_result(read, match, where)
    for index, raw_entry in enumerate(read.items(doc.get("audit"), f"{where}.audit")):
        at = f"{where}.audit.{index}"
        entry = read.obj(raw_entry, at)
        if entry is None:
            continue
        if entry.get("action") not in ACTIONS:
            read.add(
                f"{at}.action", gettext("must be one of %(choices)s", choices=", ".join(ACTIONS))
            )
        read.integer(entry.get("hand_number"), f"{at}.hand_number", 1, MAX_ID)
        if entry.get("hand_id") is not None:
            read.integer(entry.get("hand_id"), f"{at}.hand_id", 1, MAX_ID)
        actor = entry.get("by")
        if actor is not None and (not isinstance(actor, str) or len(actor) > NAME_LENGTH * 2):
            read.add(
                f"{at}.by",
                gettext(
                    "must be null or a text of up to %(count)s characters",
                    count=str(NAME_LENGTH * 2),
                ),
            )
        match.audit_times.append(read.moment(entry.get("at"), f"{at}.at") or datetime.min)
        was = _snapshot(read, entry.get("before"), f"{at}.before", rules, match)
        now = _snapshot(read, entry.get("after"), f"{at}.after", rules, match)
        match.audit_hands.append((was, now))
    return match


def _sound_match(read: FileReader, raw: object, where: str) -> CheckedMatch | None:
    """A match of the file checked, and its meld minimums worked out once as a page would.
    Frozen rules from a file are only as sound as the file: rules that read back but
    break the engine (a damaged deck, say) are the file's fault, never a crash."""
    try:
        match = _match(read, raw, where)
        if match is not None:
            totals = [0] * len(match.sides)
            for _, scored in match.hands:
                totals = [t + total for t, (_, total, _) in zip(totals, scored, strict=True)]
            deal = min(len(match.hands) + 1, MAX_DEAL)
            for total in totals:
                meld_requirement(match.rules, total, deal=deal, sides=len(totals))
            rules_to_json(match.rules)
        return match
    except DAMAGE:
        read.add(
            f"{where}.rules",
            gettext("cannot score this match: the rules in the file are damaged"),
        )
        return None


def _check_result(read: FileReader, match: CheckedMatch, where: str) -> None:
    """The status and winner must be what the hands give (an abandoned match excepted),
    and the game must not be over before its last hand."""
    doc, rules = match.doc, match.rules
    count = len(match.sides)
    running = [0] * count
    results = []
    for number, (_, scored) in enumerate(match.hands, start=1):
        running = [r + total for r, (_, total, _) in zip(running, scored, strict=True)]
        records = [record if isinstance(record, dict) else {} for record, _, _ in scored]
        results.append(result_after(rules, running, number, records))
    if any(result.over for result in results[:-1]):
        read.add(f"{where}.hands", gettext("go on after the game was over"))
    status = doc.get("status")
    if status not in STATUSES:
        read.add(
            f"{where}.status", gettext("must be one of %(choices)s", choices=", ".join(STATUSES))
        )
        return
    if len(results) != len(match.hands):
        return  # a hand was wrong: already said
    final = results[-1] if results else result_after(rules, running, 0)
    if status == ABANDONED:
        if final.over or doc.get("winner") is not None:
            read.add(f"{where}.status", gettext("cannot be abandoned: the hands finish the game"))
    elif (status, doc.get("winner")) != (final.status, final.winner):
        read.add(
            f"{where}.status",
            gettext(
                "is %(status)s (winner %(winner)s), but the hands give %(final)s (winner "
                "%(final_winner)s)",
                status=str(status),
                winner=str(doc.get("winner")),
                final=str(final.status),
                final_winner=str(final.winner),
            ),
        )
    if (status in (FINISHED, DRAWN, ABANDONED)) != (match.finished_at is not None):
        read.add(f"{where}.finished_at", gettext("must be set exactly when the match is over"))


def too_deep(value: object, most: int = MAX_DEPTH) -> str | None:
    """The path of a value nested more than `most` lists and objects deep, else None."""
    stack: list[tuple[str, object, int]] = [("", value, 0)]
    while stack:
        path, item, depth = stack.pop()
        if depth > most:
            return path
        children = (
            item.items()
            if isinstance(item, dict)
            else enumerate(item)
            if (isinstance(item, list))
            else ()
        )
        for key, child in children:
            if isinstance(child, dict | list):
                stack.append((f"{path}.{key}" if path else str(key), child, depth + 1))
    return None


def check_export(doc: object) -> list[CheckedMatch]:
    """Every match of an export, checked; raise ValidationError listing the problems."""
    read = FileReader()
    matches: list[CheckedMatch] = []
    deep = too_deep(doc)
    if deep is not None:  # an export is never this deep; no database column takes it
        raise ValidationError(
            [
                FieldError(
                    None,
                    deep,
                    gettext("nests lists and objects deeper than %(count)s", count=str(MAX_DEPTH)),
                )
            ]
        )
    try:
        top = read.obj(doc, "")
        if top is None:
            raise TooManyProblems
        if top.get("format") != FORMAT or top.get("version") != VERSION:
            read.add(
                "format",
                gettext(
                    "is not a Scorekeeper export (%(format)s, version %(version)s)",
                    format=FORMAT,
                    version=str(VERSION),
                ),
            )
            raise TooManyProblems
        uids: set[str] = set()
        for g, group in enumerate(read.items(top.get("groups"), "groups")):
            group_doc = read.obj(group, f"groups.{g}")
            if group_doc is None:
                continue
            for p, player in enumerate(
                read.items(group_doc.get("players", []), f"groups.{g}.players")
            ):
                player_doc = read.obj(player, f"groups.{g}.players.{p}")
                if player_doc is not None:
                    read.name(player_doc.get("name"), f"groups.{g}.players.{p}.name")
            for m, raw in enumerate(read.items(group_doc.get("matches"), f"groups.{g}.matches")):
                match = _sound_match(read, raw, f"groups.{g}.matches.{m}")
                if match is None:
                    continue
                if match.uid in uids:
                    read.add(f"groups.{g}.matches.{m}.uid", gettext("is the uid of another match"))
                uids.add(match.uid)
                matches.append(match)
    except TooManyProblems:
        pass
    if read.problems:
        raise ValidationError(read.problems)
    return matches


def import_export(
    doc: object, group_id: int, matches: list[CheckedMatch] | None = None
) -> Imported:
    """Add every match of the export that this server does not have to the group.

    Raises ValidationError (nothing saved) when anything in the file is wrong. `matches`:
    what `check_export` gave for this file, when it was checked before the write began
    (so a long check never holds the write lock). The caller commits (see
    `storage.transaction`).
    """
    matches = check_export(doc) if matches is None else matches
    assert isinstance(doc, dict)
    uids = [match.uid for match in matches]
    known: dict[str, int | None] = {}
    for uid, group in db.session.execute(
        select(Match.uid, Match.group_id).where(Match.uid.in_(uids))
    ):
        known[uid] = group
    new = [match for match in matches if match.uid not in known]
    skipped_in: dict[int | None, int] = {}
    for group in known.values():
        skipped_in[group] = skipped_in.get(group, 0) + 1
    players = {
        player.name_key: player
        for player in db.session.execute(
            select(Player).where(Player.group_id == group_id)
        ).scalars()
    }

    def player(name: str) -> Player:
        key = name_key(name)
        if key not in players:
            players[key] = Player(group_id=group_id, name=name, name_key=key)
            db.session.add(players[key])
        return players[key]

    saved: list[tuple[CheckedMatch, Match, list[Hand]]] = []
    for match in new:
        saved.append(_add_match(match, group_id, player))
    db.session.flush()  # the hands' new ids, for the audit trail
    for match, row, hands in saved:
        ids = {h.get("id"): hand.id for (h, _), hand in zip(match.hands, hands, strict=True)}
        kept = zip(match.doc["audit"], match.audit_times, match.audit_hands, strict=True)
        for entry, at, (before, after) in kept:
            db.session.add(
                AuditEntry(
                    match_id=row.id,
                    hand_number=entry["hand_number"],
                    hand_id=ids.get(entry.get("hand_id")),  # a removed hand's: none here
                    action=entry["action"],
                    at=at,
                    actor=entry.get("by"),
                    before=before,
                    after=after,
                )
            )
    db.session.flush()
    if any(row.status in COUNTED and row.finished_at is not None for _, row, _ in saved):
        ratings.invalidate(group_id)  # imported matches count by their own finished_at
    return Imported(len(new), len(matches) - len(new), skipped_in)


def _add_match(
    match: CheckedMatch, group_id: int, player: Any
) -> tuple[CheckedMatch, Match, list[Hand]]:
    doc = match.doc
    versions = [hand["version"] for hand, _ in match.hands]
    row = Match(
        uid=match.uid,
        group_id=group_id,
        variant=match.rules.key,
        options=doc["options"],
        rules=rules_to_json(match.rules),
        players_per_side=doc["players_per_side"],
        first_dealer=doc["first_dealer"],
        status=doc["status"],
        winner=doc.get("winner"),
        created_at=match.created_at,
        finished_at=match.finished_at,
        revision=max([doc["revision"], *versions]),
    )
    for seat, (name, names) in enumerate(match.sides):
        side = Side(seat=seat, name=name)
        for position, player_name in enumerate(names):
            side.members.append(SideMember(position=position, player=player(player_name)))
        row.sides.append(side)
    hands = []
    for (hand_doc, scored), (recorded, updated) in zip(match.hands, match.hand_times, strict=True):
        hand = Hand(
            number=hand_doc["number"],
            version=hand_doc["version"],
            submission_token=hand_doc.get("token"),
            recorded_at=recorded,
            updated_at=updated,
            lineup=hand_doc.get("lineup"),  # checked: a seated game's, else none
        )
        for seat, (record, total, lines) in enumerate(scored):
            hand.sides.append(HandSide(seat=seat, record=record, total=total, lines=lines))
        row.hands.append(hand)
        hands.append(hand)
    db.session.add(row)
    return match, row, hands
