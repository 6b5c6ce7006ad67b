"""Statistics of a group's matches (API.md, "History, statistics, export")."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

from ..access import require_user
from ..services.groups import group_ids, personal_group
from ..services.statistics import statistics
from ..services.stats_query import read_query
from ..services.stats_records import Record
from ..validation import FieldError
from ..words.translate import gettext
from .common import PREFIX, ApiError, fail

bp = Blueprint("api_stats", __name__, url_prefix=PREFIX)


def _record(record: Record, key: str, value: Any) -> dict[str, Any]:
    return {key: value, **record.to_json()}


@bp.get("/stats")
def stats() -> ResponseReturnValue:
    """Every player's and partnership's record in a group: the caller's personal group
    without `group`; a group of someone else's is 404, as a match of theirs is."""
    user = require_user()
    raw = request.args.get("group")
    if raw is None:
        group_id = personal_group(user).id
    elif not raw.isascii() or not raw.isdigit() or len(raw) > 10:
        fail(
            400,
            gettext("group must be a group's id (a whole number), not %(given)s", given=repr(raw)),
            "group",
        )
    elif int(raw) not in group_ids(user):
        fail(404, gettext("You are not in a group %(group)s", group=str(raw)), "group")
    else:
        group_id = int(raw)
    query = read_query(request.args, (group_id,))
    if query.where is None:
        raise ApiError(
            400, [FieldError(None, key, message) for key, message in query.problems.items()]
        )
    found = statistics(query.where)
    return jsonify(
        {
            "group": group_id,
            "players": [_record(r, "name", r.name) for r in found.players],
            "partnerships": [_record(r, "players", list(r.names)) for r in found.partnerships],
        }
    )
