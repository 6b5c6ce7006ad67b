"""The event state the API answers with (CLUBS.md, "Event state"), made from its view."""

from __future__ import annotations

from typing import Any

from ..clubs import vp_table_to_json
from ..services.event_state import EventView, entry_players
from ..services.events import EventSummary


def event_json(view: EventView) -> dict[str, Any]:
    event = view.event
    numbers = {entry.number: entry.id for entry in view.entries}
    return {
        "id": event.id,
        "name": event.name,
        "variant": event.variant,
        "options": event.options,
        "status": view.status.value,
        "deals_per_round": event.deals_per_round,
        "vp_table": vp_table_to_json(view.vp_table),
        "movement": event.movement,
        "rounds": event.rounds,
        "bye_vp": event.bye_vp,
        "entries": [
            {
                "id": entry.id,
                "number": entry.number,
                "name": entry.name or None,
                "players": entry_players(entry),
                "withdrawn": entry.withdrawn,
            }
            for entry in view.entries
        ],
        "round": view.round,
        "rounds_played": [
            {
                "number": played.number,
                "byes": [entry.id for entry in played.byes],
                "tables": [
                    {
                        "table": table.number,
                        "entries": [table.first.id, table.second.id],
                        "match": table.match_id,
                        "status": table.status,
                        "mp": list(table.mp) if table.over else None,
                        "vp": list(table.vp) if table.vp is not None else None,
                    }
                    for table in played.tables
                ],
            }
            for played in view.rounds
        ],
        "penalties": [
            {"entry": penalty.entry_id, "vp": penalty.vp, "reason": penalty.reason}
            for penalty in event.penalties
        ],
        "standings": [
            {
                "rank": row.rank,
                "entry": numbers[row.entry],
                "vp": row.vp,
                "mp_diff": row.mp_diff,
                "mp": row.mp,
                "played": row.played,
            }
            for row in view.standings
        ],
    }


def summary_json(summary: EventSummary) -> dict[str, Any]:
    return {
        "id": summary.id,
        "name": summary.name,
        "variant": summary.variant,
        "status": summary.status.value,
        "round": summary.round,
        "rounds": summary.rounds,
    }
