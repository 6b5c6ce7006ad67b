"""The match state the API answers with, as JSON text joined from parts made once.

A state is a short header (the sides, their totals, what comes next) and two lists
that grow with the match: its hands and its audit trail. Each hand's part is encoded
once per version of the hand and kept, each audit entry's once; a state is its header
encoded afresh with those parts joined in, so a save of a long match does not encode
every hand again. The text is kept per revision of the match: every phone reading it
gets the same bytes.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..caches import cache
from ..delivery import Piece, deflated, gzip_pieces
from ..json_answers import compact_json as encode
from ..models import Match
from ..services.audit import AuditRow, audit_rows
from ..services.match_state import (
    HandKey,
    HandRow,
    current_keys,
    frozen_json,
    hand_records,
    hand_rows,
    match_rules,
    match_state,
    table_order,
)
from ..services.seated import hand_lineups, seated_json

Lineups = list[list[list[int]] | None]
GROUP = 32  # hands or audit entries compressed together, and kept so


@dataclass(frozen=True)
class StateDoc:
    """A revision of a match, its state as JSON text, and that text in pieces: the runs
    of hands and audit entries that do not change from one save to the next are named,
    so the compressed answer is made from their kept blocks (`delivery.gzip_pieces`)."""

    revision: int
    text: bytes
    pieces: tuple[Piece, ...]

    @cached_property
    def gzipped(self) -> bytes:
        """Compressed once, for every phone and script reading this revision."""
        return gzip_pieces(self.pieces, _deflated_pieces)


def _deflated_pieces(named: list[tuple[Hashable, bytes]]) -> list[bytes]:
    """Each named piece's deflated blocks: the kept ones looked up together (one lock),
    the others made and kept."""
    parts = cache("parts")
    keys = [("deflated", name) for name, _ in named]
    blocks = []
    for key, (_, data), block in zip(keys, named, parts.peek_many(keys), strict=True):
        if block is None:
            block = deflated(data)
            parts.put(key, block)
        blocks.append(block)
    return blocks


def _place(name: str) -> str:
    """A stand-in for a part in the header, filled after encoding: no text a player can
    store holds a NUL (`rules.text.unstorable`), so none can be taken for one."""
    return f"\x00{name}\x00"


PLACES = ("options", "rules", "hands", "audit")
_ENCODED_PLACES = {name: encode(_place(name)) for name in PLACES}


@dataclass(frozen=True)
class StateReads:
    """What a match state needs from the database, read in one snapshot (a write's own,
    under its lock); the state is then made from these alone, with no database."""

    match: Match
    keys: list[HandKey]
    names: list[Hashable]  # each hand's part's name (see `_named_parts`)
    texts: list[bytes | None]  # each hand's part, when it was kept
    records: dict[int, list[dict[str, Any]]]  # by hand id: those without a part, the last
    trail: list[AuditRow]
    lineups: Lineups | None  # a seated game's line-ups, by hand

    @classmethod
    def read(cls, match: Match, keys: list[HandKey] | None = None) -> StateReads:
        """The hands' parts that were kept are taken as they are (a long match's hands
        are not read again); the records of the others, and of the last hand (the game
        end may depend on it), are read."""
        keys = current_keys(match.id, match.revision, len(match.sides)) if keys is None else keys
        frozen_text(match)  # kept per match: the state needs no more of the match's row
        rules = match_rules(match)
        lineups = hand_lineups(match.id) if rules.seating is not None else None
        names, texts = _named_parts(match.id, hand_rows(match, table_order(match), keys), lineups)
        unread = [key for key, text in zip(keys, texts, strict=True) if text is None]
        if keys and texts[-1] is not None:
            unread.append(keys[-1])
        records = dict(zip((key.id for key in unread), hand_records(unread), strict=True))
        return cls(match, keys, names, texts, records, audit_rows(match), lineups)


@dataclass(frozen=True)
class HandParts:
    """Each hand's part of a match's last state, with its name and the rows they were
    named from: a later state whose rows start with these takes them as they are (a save
    of a long match adds one hand), rather than naming and looking up each again. (A
    hand's line-up is written with its version, so the rows name the line-ups too.)"""

    rows: list[HandRow]
    names: list[Hashable]
    texts: list[bytes]


def _named_parts(
    match_id: int, rows: list[HandRow], lineups: Lineups | None
) -> tuple[list[Hashable], list[bytes | None]]:
    """The name each hand's part is kept under, and the part where it is kept.

    A name holds the hand's version, and its number, dealer and line-up, which a removal
    of an earlier hand or a renamed player changes without a new version."""
    kept: HandParts | None = cache("parts").peek(("hand parts", match_id))
    names: list[Hashable] = []
    texts: list[bytes | None] = []
    if kept is not None and len(kept.rows) <= len(rows) and rows[: len(kept.rows)] == kept.rows:
        names, texts = list(kept.names), list(kept.texts)  # (the same rows, mostly)
    done = len(names)
    later = lineups[done:] if lineups is not None else [None] * (len(rows) - done)
    fresh: list[Hashable] = [
        ("hand.json", row.id, row.version, row.number, row.dealer, repr(lineup))
        for row, lineup in zip(rows[done:], later, strict=True)
    ]
    return names + fresh, texts + cache("parts").peek_many(fresh)


def frozen_text(match: Match) -> tuple[bytes, bytes]:
    """The options and resolved rules the match was started with, as JSON text: made
    once per match, as `match_state.frozen_json` (keyed by start time too)."""

    def make() -> tuple[bytes, bytes]:
        options, rules = frozen_json(match)
        return encode(options), encode(rules)

    return cache("rules").get(("json.text", match.id, match.created_at), make)


def state_doc(reads: StateReads) -> StateDoc:
    """The state's JSON text, kept for the match's revision: every phone reading it gets
    these bytes."""
    match = reads.match
    made = kept_state(match.id, match.revision)
    if made is None:
        pieces = tuple(_state_pieces(reads))
        made = StateDoc(match.revision, b"".join(data for _, data in pieces), pieces)
        cache("pages").put(("state", match.id), made)
    return made


def kept_state(match_id: int, revision: int | None) -> StateDoc | None:
    """The state kept for the match if it is of this revision. One is kept per match, the
    last made: a long match's state is some kilobytes a hand, and no phone asks for an
    earlier revision once it has a later one."""
    kept: StateDoc | None = cache("pages").peek(("state", match_id))
    return kept if kept is not None and kept.revision == revision else None


def with_warnings(text: bytes, warnings: list[dict[str, Any]]) -> bytes:
    """A state's text with `warnings` added as its last key."""
    return text[:-1] + b',"warnings":' + encode(warnings) + b"}"


def _hand_texts(rows: list[HandRow], reads: StateReads) -> list[tuple[Hashable, bytes]]:
    """Each hand's part and its name: kept ones as read, the others made and kept."""
    parts = cache("parts")
    texts = list(reads.texts)
    for index, text in enumerate(texts):
        if text is None:
            row = rows[index]
            hand: dict[str, Any] = {
                "number": row.number,
                "id": row.id,
                "version": row.version,
                "dealer": row.dealer,
                "sides": reads.records[row.id],
            }
            if reads.lineups is not None:
                hand["lineup"] = reads.lineups[index]
            texts[index] = made = encode(hand)
            parts.put(reads.names[index], made)
    whole: list[bytes] = texts  # type: ignore[assignment]
    parts.put(("hand parts", reads.match.id), HandParts(rows, reads.names, whole))
    return list(zip(reads.names, whole, strict=True))


def _grouped(named: Sequence[tuple[Hashable, bytes]], from_end: bool = False) -> list[Piece]:
    """A JSON list's items as pieces of GROUP items each; a full group is named by the
    names of its items (so it is compressed once and kept), a short one, which the next
    item changes, is not. Counted from the end for a list that grows at its start (the
    audit trail, newest first), so that only its first group changes."""
    first = len(named) % GROUP if from_end else GROUP
    bounds = [0, *range(first or GROUP, len(named), GROUP), len(named)]
    pieces: list[Piece] = []
    for start, end in itertools.pairwise(dict.fromkeys(bounds)):
        group = named[start:end]
        text = b",".join(data for _, data in group)
        name = (start > 0, *(name for name, _ in group)) if len(group) == GROUP else None
        pieces.append((name, b"," + text if start else text))  # (after a comma?)
    return pieces


def _state_pieces(reads: StateReads) -> list[Piece]:
    match = reads.match
    state = match_state(match, reads.keys)
    running = [row.running for row in state.hands]
    header = {
        "id": match.id,
        "variant": match.variant,
        "options": _place("options"),
        "rules": _place("rules"),
        "players_per_side": match.players_per_side,
        "sides": [
            {
                "name": side.name,
                "players": side.players,
                "total": side.total,
                "next_meld_requirement": side.next_meld.to_dict(),
            }
            for side in state.sides
        ],
        "hands": _place("hands"),
        "finished": state.over,
        "status": state.result.status,
        "winner": state.result.winner,
        "dealer": state.next_dealer,
        "seats": state.table_order,
        **({"deal": state.next_number, "deals": state.deals} if state.deals else {}),
        **seated_json(state.rules, running),
        "audit": _place("audit"),
    }
    options, rules = frozen_text(match)
    entries = [(row.api_text, row.api_text) for row in reads.trail]  # named by their text
    fillings: dict[str, list[Piece]] = {
        "options": [(("options", match.id, match.created_at), options)],
        "rules": [(("rules", match.id, match.created_at), rules)],
        "hands": [(None, b"["), *_grouped(_hand_texts(state.hands, reads)), (None, b"]")],
        "audit": [(None, b"["), *_grouped(entries, from_end=True), (None, b"]")],
    }
    pieces: list[Piece] = []
    rest = encode(header)
    for name in PLACES:
        before, rest = rest.split(_ENCODED_PLACES[name], 1)
        pieces += [(None, before), *fillings[name]]
    return [*pieces, (None, rest)]
