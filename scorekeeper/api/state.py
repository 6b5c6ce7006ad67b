"""The match state the API answers with (API.md, "Matches"), made from the loaded match."""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app
from flask_babel import get_locale

from .. import words
from ..cache import LruCache
from ..models import Match
from ..services.audit import audit_rows
from ..services.events import table_mark
from ..services.match_state import match_state
from ..services.seated import seated_json

STATES = "scorekeeper.states"  # app.extensions: match states as the API answers them
STATES_KEPT = 256


def state_key(uid: str, revision: int) -> tuple[str, int, str]:
    """What a state's words depend on beside the match at its revision: the language."""
    return (uid, revision, str(get_locale()))


def kept_states() -> LruCache[tuple[str, int, str], dict[str, Any]]:
    kept: LruCache[tuple[str, int, str], dict[str, Any]] = current_app.extensions[STATES]
    return kept


def init_app(app: Flask) -> None:
    app.extensions[STATES] = LruCache(STATES_KEPT)


def etag(uid: str, revision: int) -> str:
    """Names one state of one match as this caller reads it: its uid (never reused), its
    revision, and the language of its words (`label`, `message`): a read in another
    language never earns a 304. `If-Match` compares the uid and revision alone."""
    return f"{uid}.{revision}.{words.reader_locale_name()}"


def match_json(match: Match) -> dict[str, Any]:
    """The state of a match loaded with `load_match`."""
    state = match_state(match)
    vocabulary = state.rules.vocabulary
    running = [row.running for row in state.hands] if state.rules.seating is not None else []
    hands = []
    for hand, row in zip(match.hands, state.hands, strict=True):
        part: dict[str, Any] = {
            "number": hand.number,
            "id": hand.id,
            "version": hand.version,
            "dealer": row.dealer,
            "sides": [
                {
                    "input": side.record,
                    "total": side.total,
                    "lines": words.labelled_lines(side.lines, vocabulary),
                }
                for side in hand.sides
            ],
        }
        if state.rules.seating is not None:
            part["lineup"] = hand.lineup
        hands.append(part)
    mark = table_mark(match.id)
    return {
        "id": match.id,
        "variant": match.variant,
        "options": match.options,
        "rules": match.rules,
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
        "hands": hands,
        "finished": state.over,
        "status": state.result.status,
        "winner": state.result.winner,
        "dealer": state.next_dealer,
        "seats": state.table_order,
        **({"deal": state.next_number, "deals": state.deals} if state.deals else {}),
        **seated_json(state.rules, running),
        **({"event": mark.to_dict()} if mark is not None else {}),
        "audit": [row.to_dict() for row in audit_rows(match)],
    }
