"""A stored hand record as a form or page can show it, whatever was stored.

A record saved before today's checks may hold what `read_hand` now refuses (a null
field, a list where counts belong): `well_formed` keeps the fields whose values have
the shape the hand record allows and drops the rest, so a page that fills a form from
the record never fails on it; the engine still checks whatever is sent back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .hand import SIDE_FIELDS

BOOLEAN_FIELDS = frozenset({"went_out", "concealed", "took_extra_hand"})
COUNTS_FIELDS = frozenset({"canastas", "meld_cards", "hand_cards", "foot_cards"})
NUMBER_FIELDS = frozenset(SIDE_FIELDS) - BOOLEAN_FIELDS - COUNTS_FIELDS
NUMBER_FIELDS -= {"penalties", "special_hand"}


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _penalty(item: object) -> dict[str, Any] | None:
    if not isinstance(item, Mapping):
        return None
    rule, count = item.get("rule"), item.get("count", 1)
    if isinstance(rule, str):
        return {"rule": rule, "count": count if _whole(count) else 1}
    points, reason = item.get("points"), item.get("reason")
    if _whole(points):
        return {"points": points, "reason": reason if isinstance(reason, str) else ""}
    return None


def well_formed(record: object) -> dict[str, Any]:
    """The fields of a stored side record that have the hand record's shape."""
    if not isinstance(record, Mapping):
        return {}
    kept: dict[str, Any] = {}
    for name, value in record.items():
        if name in BOOLEAN_FIELDS:
            if isinstance(value, bool):
                kept[name] = value
        elif name in NUMBER_FIELDS:
            if _whole(value):
                kept[name] = value
        elif name in COUNTS_FIELDS:
            if isinstance(value, Mapping):
                kept[name] = {str(k): n for k, n in value.items() if _whole(n)}
        elif name == "penalties":
            if isinstance(value, list):
                entries = [_penalty(item) for item in value]
                kept[name] = [entry for entry in entries if entry is not None]
        elif name == "special_hand" and isinstance(value, str):
            kept[name] = value
    return kept
