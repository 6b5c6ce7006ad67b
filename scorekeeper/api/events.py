"""Club events (CLUBS.md, "API (contract for the event part)"): create, list, read with
its ETag, start rounds, VP penalties, withdrawals. Credentials, 404 for other groups and
error shapes as for matches; table matches use the match endpoints."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for
from flask.typing import ResponseReturnValue

from ..access import Level, require_user
from ..event_access import require_event
from ..models import User
from ..services.event_lock import EventError
from ..services.event_play import add_penalty, start_round, withdraw
from ..services.event_setup import create_event
from ..services.event_state import event_view, load_event
from ..services.events import events_of
from ..services.groups import group_ids, personal_group
from ..services.storage import transaction
from ..validation import FieldError, ValidationError
from ..words.translate import gettext
from .common import PREFIX, ApiError, fail, json_object, reject_unknown_keys
from .event_json import event_json, summary_json

bp = Blueprint("api_events", __name__, url_prefix=f"{PREFIX}/events")

CREATE_KEYS = (
    "name",
    "variant",
    "options",
    "group",
    "deals_per_round",
    "vp_table",
    "movement",
    "rounds",
    "bye_vp",
    "entries",
)


def _json_body(allowed: tuple[str, ...]) -> dict[str, Any]:
    """Writes need a JSON content type: browsers cannot send one cross-site without CORS."""
    if not request.is_json:
        fail(415, gettext("Send the body as JSON with Content-Type: application/json"))
    body = json_object()
    unknown = reject_unknown_keys(body, allowed)
    if unknown:
        raise ApiError(422, unknown)
    return body


def _group(body: dict[str, Any], user: User) -> int:
    """The group a new event goes to: the one asked for if the user is in it, else personal."""
    raw = body.get("group")
    if raw is None:
        return personal_group(user).id
    if isinstance(raw, bool) or not isinstance(raw, int) or raw not in group_ids(user):
        message = gettext("You are not in a group %(group)s.", group=repr(raw))
        raise ApiError(422, [FieldError(None, "group", message)])
    return raw


def _answer(event_id: int, status: int = 200) -> Response:
    """The event state as it is now, with its ETag."""
    event = load_event(event_id)
    if event is None:
        fail(404, gettext("There is no event %(id)s.", id=str(event_id)), "event")
    view = event_view(event)
    response = jsonify(event_json(view))
    response.status_code = status
    response.set_etag(view.etag, weak=True)
    return response


def _write(event_id: int, action: Callable[[], object], status: int) -> Response:
    try:
        with transaction():
            action()
    except ValidationError as error:
        raise ApiError(422, error.problems) from None
    except EventError as error:
        raise ApiError(error.status, [FieldError(None, None, error.message)]) from None
    return _answer(event_id, status)


@bp.post("")
def create() -> ResponseReturnValue:
    user = require_user()
    body = _json_body(CREATE_KEYS)
    group_id = _group(body, user)
    try:
        with transaction():
            event_id = create_event(body, group_id=group_id, creator_id=user.id).id
    except ValidationError as error:
        raise ApiError(422, error.problems) from None
    response = _answer(event_id, 201)
    response.headers["Location"] = url_for("api_events.read", event_id=event_id)
    return response


@bp.get("")
def list_events() -> ResponseReturnValue:
    """The caller's groups' events (or one group's), newest first."""
    user = require_user()
    mine = group_ids(user)
    raw = request.args.get("group")
    if raw is None:
        wanted = mine
    elif not raw.isascii() or not raw.isdigit() or len(raw) > 10:
        message = gettext("group must be a group's id (a whole number), not %(raw)s", raw=repr(raw))
        fail(400, message, "group")
    elif int(raw) not in mine:
        fail(404, gettext("You are not in a group %(group)s.", group=raw), "group")
    else:
        wanted = [int(raw)]
    return {"events": [summary_json(summary) for summary in events_of(wanted)]}


@bp.get("/<int:event_id>")
def read(event_id: int) -> ResponseReturnValue:
    access = require_event(event_id, Level.VIEWER)
    if request.if_none_match.contains_weak(access.etag):
        response = Response(status=304)
        response.set_etag(access.etag, weak=True)
        return response
    return _answer(event_id)


@bp.post("/<int:event_id>/rounds")
def new_round(event_id: int) -> ResponseReturnValue:
    require_event(event_id, Level.ADMIN)
    user = require_user()
    if request.get_data().strip():
        _json_body(())  # nothing is expected: an empty object at most
    return _write(event_id, lambda: start_round(event_id, user), 201)


@bp.post("/<int:event_id>/penalties")
def new_penalty(event_id: int) -> ResponseReturnValue:
    require_event(event_id, Level.ADMIN)
    user = require_user()
    body = _json_body(("entry", "vp", "reason"))
    return _write(event_id, lambda: add_penalty(event_id, body, user), 201)


@bp.post("/<int:event_id>/entries/<int:entry_id>/withdraw")
def withdraw_entry(event_id: int, entry_id: int) -> ResponseReturnValue:
    require_event(event_id, Level.ADMIN)
    if request.get_data().strip():
        _json_body(())  # nothing is expected: an empty object at most
    return _write(event_id, lambda: withdraw(event_id, entry_id), 200)
