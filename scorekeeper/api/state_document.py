"""The match state the API answers with, as JSON text joined from parts made once.

A state is a short header (the sides, their totals, what comes next) and two lists
that grow with the match: its hands and its audit trail. Each hand's part is encoded
once per version of the hand and kept, each audit entry's once; a state is its header
encoded afresh with those parts joined in, so a save of a long match does not encode
every hand again. The lists are joined in runs of GROUP parts (`Run`): a full run is
joined and compressed once, and a save's state takes the runs of the state before it
as they are, so what it makes grows with the hands since the last full run, not with
the match. The text is kept per revision of the match: every phone reading it gets the
same bytes.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .. import words
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
GROUP = 32  # hands or audit entries joined and compressed together, and kept so


@dataclass(frozen=True)
class StateDoc:
    """A revision of a match, its state as JSON text, and that text in pieces: the runs
    of hands and audit entries that do not change from one save to the next come with
    their compressed blocks, so the compressed answer is made around them
    (`delivery.gzip_pieces`)."""

    revision: int
    text: bytes
    pieces: tuple[Piece, ...]

    @cached_property
    def gzipped(self) -> bytes:
        """Compressed once, for every phone and script reading this revision."""
        return gzip_pieces(self.pieces)


class Run:
    """GROUP parts of a list (hands, or audit entries) that later states share: joined
    once, and compressed once in each place a run takes in a list (first, or after a
    comma), when first asked for. Kept by its parts' names (`_run`), so that a state made
    afresh (after another worker's save, or a correction) finds it too."""

    def __init__(self, texts: Sequence[bytes]) -> None:
        self.after_comma = b"," + b",".join(texts)  # (a run mostly takes this place)

    @cached_property
    def first(self) -> Piece:
        data = self.after_comma[1:]
        return (deflated(data), data)

    @cached_property
    def later(self) -> Piece:
        return (deflated(self.after_comma), self.after_comma)


def _run(names: Sequence[Hashable], texts: Sequence[bytes]) -> Run:
    """The run of these parts: the one kept under their names, else made and kept."""
    parts, key = cache("parts"), ("run", *names)
    run: Run | None = parts.peek(key)
    if run is None:
        run = Run(texts)
        parts.put(key, run)
    return run


def _frozen_pieces(match: Match) -> tuple[Piece, Piece]:
    """The options and rules of the match as pieces of its state, compressed once."""
    options, rules = frozen_text(match)
    return cache("rules").get(
        ("json.pieces", match.id, match.created_at),
        lambda: ((deflated(options), options), (deflated(rules), rules)),
    )


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
    kept: HandParts | None  # the last state's parts, when these hands start with its

    @classmethod
    def read(cls, match: Match, keys: list[HandKey] | None = None) -> StateReads:
        """The hands' parts that were kept are taken as they are (a long match's hands
        are not read again); the records of the others, and of the last hand (the game
        end may depend on it), are read."""
        keys = current_keys(match.id, match.revision, len(match.sides)) if keys is None else keys
        frozen_text(match)  # kept per match: the state needs no more of the match's row
        rules = match_rules(match)
        lineups = hand_lineups(match.id) if rules.seating is not None else None
        rows = hand_rows(match, table_order(match), keys)
        kept, names, texts = _named_parts(match.id, rows, lineups)
        done = len(kept.rows) if kept is not None else 0  # (their parts are all there)
        fresh = zip(keys[done:], texts[done:], strict=True)
        unread = [key for key, text in fresh if text is None]
        if keys and texts[-1] is not None:
            unread.append(keys[-1])
        records = dict(zip((key.id for key in unread), hand_records(unread), strict=True))
        return cls(match, keys, names, texts, records, audit_rows(match), lineups, kept)


@dataclass(frozen=True)
class HandParts:
    """Each hand's part of a match's last state, with its name and the rows they were
    named from: a later state whose rows start with these takes them as they are (a save
    of a long match adds one hand), rather than naming and looking up each again. (A
    hand's line-up is written with its version, so the rows name the line-ups too.)"""

    rows: list[HandRow]
    names: list[Hashable]
    texts: list[bytes]
    runs: list[Run]  # the full runs of these hands, in order


def _named_parts(
    match_id: int, rows: list[HandRow], lineups: Lineups | None
) -> tuple[HandParts | None, list[Hashable], list[bytes | None]]:
    """The last state's parts when these rows start with its (else None), and the name
    each hand's part is kept under, and the part where it is kept.

    A name holds the hand's version, and its number, dealer and line-up, which a removal
    of an earlier hand or a renamed player changes without a new version."""
    kept: HandParts | None = cache("parts").peek(("hand parts", match_id))
    names: list[Hashable] = []
    texts: list[bytes | None] = []
    if kept is not None and len(kept.rows) <= len(rows) and rows[: len(kept.rows)] == kept.rows:
        names, texts = list(kept.names), list(kept.texts)  # (the same rows, mostly)
    else:
        kept = None
    done = len(names)
    later = lineups[done:] if lineups is not None else [None] * (len(rows) - done)
    fresh: list[Hashable] = [
        ("hand.json", row.id, row.version, row.number, row.dealer, repr(lineup))
        for row, lineup in zip(rows[done:], later, strict=True)
    ]
    return kept, names + fresh, texts + cache("parts").peek_many(fresh)


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


def _hand_pieces(rows: list[HandRow], reads: StateReads) -> list[Piece]:
    """The hands as pieces of the state: the full runs (those of the last state's parts
    taken as they are, later ones made), then the hands since the last full run. The
    parts not kept are made and kept, and so are these parts, with their runs."""
    parts, kept = cache("parts"), reads.kept
    texts = list(reads.texts)
    done = len(kept.rows) if kept is not None else 0
    vocabulary = match_rules(reads.match).vocabulary
    for index in range(done, len(texts)):
        if texts[index] is None:
            row = rows[index]
            hand: dict[str, Any] = {
                "number": row.number,
                "id": row.id,
                "version": row.version,
                "dealer": row.dealer,
                "sides": [
                    {**side, "lines": words.labelled_lines(side["lines"], vocabulary)}
                    for side in reads.records[row.id]
                ],
            }
            if reads.lineups is not None:
                hand["lineup"] = reads.lineups[index]
            texts[index] = made = encode(hand)
            parts.put(reads.names[index], made)
    whole: list[bytes] = texts  # type: ignore[assignment]
    names = reads.names
    runs = list(kept.runs) if kept is not None else []
    for start in range(len(runs) * GROUP, len(whole) - GROUP + 1, GROUP):
        runs.append(_run(names[start : start + GROUP], whole[start : start + GROUP]))
    parts.put(("hand parts", reads.match.id), HandParts(rows, names, whole, runs))
    return _list_pieces([], runs, whole[len(runs) * GROUP :])


def _list_pieces(
    before: Sequence[bytes], runs: Sequence[Run], after: Sequence[bytes]
) -> list[Piece]:
    """A JSON list as pieces of a state: the loose items `before`, the runs (each in its
    place: first, or after a comma), then the loose items `after`."""
    pieces: list[Piece] = [(None, b"[" + b",".join(before))]
    started = bool(before)
    for run in runs:
        pieces.append(run.later if started else run.first)
        started = True
    if after:
        pieces.append((None, (b"," if started else b"") + b",".join(after)))
    pieces.append((None, b"]"))
    return pieces


@dataclass(frozen=True)
class AuditRuns:
    """The full runs of a match's audit trail, counted from its oldest entry (the trail
    grows at its start, newest first), and the entries they hold: a later trail that
    ends with these entries takes the runs as they are."""

    rows: list[AuditRow]
    runs: list[Run]


def _audit_pieces(match_id: int, trail: list[AuditRow]) -> list[Piece]:
    """The audit trail as pieces of the state: the entries since the last full run (the
    newest), then the full runs, the last state's taken as they are."""
    parts = cache("parts")
    kept: AuditRuns | None = parts.peek(("audit runs", match_id))
    runs: list[Run] = []
    free = len(trail)  # the newest entries, which no kept run holds
    if kept is not None and len(kept.rows) <= free and trail[free - len(kept.rows) :] == kept.rows:
        runs, free = list(kept.runs), free - len(kept.rows)
    head = free % GROUP
    texts = [row.api_text for row in trail[:free]]  # (an entry is named by its text)
    groups = (texts[start : start + GROUP] for start in range(head, free, GROUP))
    made = [_run(group, group) for group in groups]
    if made or kept is None:
        runs = made + runs
        parts.put(("audit runs", match_id), AuditRuns(trail[head:], runs))
    return _list_pieces(texts[:head], runs, [])


def _state_pieces(reads: StateReads) -> list[Piece]:
    match = reads.match
    state = match_state(match, reads.keys)
    running = [row.running for row in state.hands] if state.rules.seating is not None else []
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
                "next_meld_requirement": words.meld_dict(side.next_meld, state.rules),
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
    options, rules = _frozen_pieces(match)
    fillings: dict[str, list[Piece]] = {
        "options": [options],
        "rules": [rules],
        "hands": _hand_pieces(state.hands, reads),
        "audit": _audit_pieces(match.id, reads.trail),
    }
    pieces: list[Piece] = []
    rest = encode(header)
    for name in PLACES:
        before, rest = rest.split(_ENCODED_PLACES[name], 1)
        pieces += [(None, before), *fillings[name]]
    return [*pieces, (None, rest)]
