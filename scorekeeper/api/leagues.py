"""Leagues: create one, list them, read one (CLUBS.md, "API (contract for leagues and
ratings)"). A league of a group the caller is not in is 404, as a match of theirs is."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue

from ..access import require_user
from ..models import User
from ..services import leagues
from ..services.groups import group_ids, personal_group
from ..services.league_tables import json_tag, league_table, state_json
from ..services.storage import transaction
from ..validation import FieldError, ValidationError
from ..words.translate import gettext
from .common import PREFIX, ApiError, fail, json_object, reject_unknown_keys
from .players import asked_groups

bp = Blueprint("api_leagues", __name__, url_prefix=f"{PREFIX}/leagues")


def _group(body: dict[str, Any], user: User) -> tuple[int | None, list[FieldError]]:
    """The group a new league goes to (the caller's personal group by default)."""
    raw = body.get("group")
    if raw is None:
        return personal_group(user).id, []
    if isinstance(raw, bool) or not isinstance(raw, int) or raw not in group_ids(user):
        message = gettext("You are not in a group %(raw)s", raw=repr(raw))
        return None, [FieldError(None, "group", message)]
    return raw, []


@bp.post("")
def create() -> ResponseReturnValue:
    user = require_user()
    if not request.is_json:
        fail(415, gettext("Send the body as JSON with Content-Type: application/json"))
    body = json_object()
    problems = reject_unknown_keys(body, leagues.FIELDS)
    group_id, wrong = _group(body, user)
    problems += wrong
    try:
        settings = leagues.read_league(body)
    except ValidationError as error:
        problems += error.problems
    if problems:
        order = {name: index for index, name in enumerate(leagues.FIELDS)}
        problems.sort(key=lambda p: order.get((p.field or "").split("[")[0], len(order)))
        raise ApiError(422, problems)
    assert group_id is not None
    with transaction():
        league_id = leagues.create_league(group_id, user, settings).id
    league = leagues.league_in([group_id], league_id)
    assert league is not None
    return state_json(league_table(league)), 201


@bp.get("")
def listing() -> ResponseReturnValue:
    user = require_user()
    found = leagues.leagues_of(asked_groups(user))
    return {"leagues": [state_json(league_table(league)) for league in found]}


@bp.get("/<int:league_id>")
def read(league_id: int) -> ResponseReturnValue:
    user = require_user()
    league = leagues.league_in(group_ids(user), league_id)
    if league is None:
        fail(
            404,
            gettext("There is no league %(id)s among your groups", id=str(league_id)),
            "league",
        )
    state = state_json(league_table(league))
    tag = json_tag(state)
    fresh = request.if_none_match.contains_weak(tag)
    response = Response(status=304) if fresh else jsonify(state)
    response.set_etag(tag, weak=True)
    response.cache_control.no_cache = True
    response.cache_control.private = True
    return response
