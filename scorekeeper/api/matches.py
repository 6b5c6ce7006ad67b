"""Matches: create, read, add, correct and remove hands (shared services with the pages)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for
from flask.typing import ResponseReturnValue

from ..access import Level, MatchAccess, caller, require_match, require_user
from ..addresses import shared_url
from ..models import TOKEN_LENGTH, LinkRole, Match, ShareLink, User
from ..services import sharing
from ..services.audit import Actor
from ..services.groups import group_ids, personal_group
from ..services.hand_changes import correct_hand, remove_hand
from ..services.hand_writes import Saved, record_hand
from ..services.match_lock import MatchError
from ..services.match_setup import create_match
from ..services.match_state import load_match
from ..services.storage import transaction
from ..validation import FieldError, ValidationError
from ..words.translate import gettext
from .common import PREFIX, ApiError, fail, json_object, reject_unknown_keys
from .state import etag, kept_states, match_json, state_key

MIN_TOKEN_LENGTH = 16

bp = Blueprint("api_matches", __name__, url_prefix=f"{PREFIX}/matches")


def _json_body(allowed: tuple[str, ...]) -> dict[str, Any]:
    """Writes need a JSON content type: browsers cannot send one cross-site without CORS."""
    if not request.is_json:
        fail(
            415,
            gettext(
                "Send the body as JSON with %(header)s", header="Content-Type: application/json"
            ),
        )
    body = json_object()
    unknown = reject_unknown_keys(body, allowed)
    if unknown:
        raise ApiError(422, unknown)
    return body


def _match(match_id: int) -> Match:
    match = load_match(match_id)
    if match is None:
        fail(404, gettext("There is no match %(number)s", number=str(match_id)), "match")
    return match


def _write(match_id: int, action: Callable[[], Saved], status: int = 200) -> Response:
    """Run one write in a transaction and answer with the match state and any warnings.

    A write that changed nothing (a token already used) answers 200 whatever `status`;
    `warnings` is there only when the hand is unlikely (as the page would ask about).
    """
    made = None
    try:
        with transaction():
            saved = action()
            if saved.changed and saved.match is not None:
                # Made from the objects the write holds, before its commit (under its lock,
                # so exactly the state it commits), and kept for the reads that follow.
                made = (saved.match.uid, saved.match.revision, match_json(saved.match))
    except ValidationError as error:
        raise ApiError(422, error.problems) from None
    except MatchError as error:
        raise ApiError(error.status, [FieldError(None, None, error.message)]) from None
    status = status if saved.changed else 200
    if made is None:
        return _answer(match_id, status, saved.warnings)
    uid, revision, state = made
    kept_states().put(state_key(uid, revision), state)
    return _state_response(uid, revision, state, status, saved.warnings)


def _first_dealer(body: dict[str, Any]) -> object:
    """A player's name, or a seat index clockwise from the first player of side 0."""
    raw = body.get("first_dealer", 0)
    if not isinstance(raw, str):
        return raw
    sides = body.get("sides")
    if isinstance(sides, list) and all(
        isinstance(s, dict) and isinstance(s.get("players"), list) for s in sides
    ):
        players = [s["players"] for s in sides]
        depth = max((len(p) for p in players), default=0)
        order = [p[i] for i in range(depth) for p in players if i < len(p)]
        if raw in order:
            return order.index(raw)
    said = gettext("%(given)s is not one of the players", given=repr(raw))
    raise ApiError(422, [FieldError(None, "first_dealer", said)])


def _optional_int(body: dict[str, Any], key: str) -> int | None:
    value = body.get(key)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        said = gettext("%(name)s must be a whole number", name=key)
        raise ApiError(422, [FieldError(None, key, said)])
    return value


def _deal_is_number(body: dict[str, Any], number: int | None) -> int | None:
    """In a match the deal number is the hand number: a posted `deal` must agree with it.

    Returns the hand number the post expects (its `number`, else its `deal`).
    """
    deal = _optional_int(body, "deal")
    if deal is not None and number is not None and deal != number:
        message = gettext(
            "In a match the deal is the hand number: deal %(deal)s is not hand %(number)s",
            deal=str(deal),
            number=str(number),
        )
        raise ApiError(422, [FieldError(None, "deal", message)])
    return number if number is not None else deal


def _token(body: dict[str, Any]) -> str | None:
    """The idempotency key of a posted hand: 16 to 128 printable ASCII characters."""
    token = body.get("token")
    if token is None:
        return None
    if (
        not isinstance(token, str)
        or not MIN_TOKEN_LENGTH <= len(token) <= TOKEN_LENGTH
        or not all("!" <= character <= "~" for character in token)
    ):
        message = gettext(
            "token must be %(low)s to %(high)s printable ASCII characters without spaces (a "
            "UUID will do)",
            low=str(MIN_TOKEN_LENGTH),
            high=str(TOKEN_LENGTH),
        )
        raise ApiError(422, [FieldError(None, "token", message)])
    return token


def _version_param() -> int | None:
    raw = request.args.get("version")
    if raw is None:
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        fail(
            400,
            gettext("version must be a whole number, not %(given)s", given=repr(raw)),
            "version",
        )
    return int(raw)


def _if_match(access: MatchAccess) -> int | None:
    """The revision an If-Match header names (None without one); 412 for another state
    of the match, or a tag that names none. (Weak tags compare too: the state's tag is
    weak, as compression leaves it.)"""
    if not request.if_match:
        return None
    for tag in request.if_match.as_set(include_weak=True):
        uid, _, rest = tag.partition(".")
        revision = rest.partition(".")[0]  # the state's tag names its language after it
        if uid == access.uid and revision.isdigit() and len(revision) < 19:
            return int(revision)
    said = gettext("If-Match does not name a state of this match")
    raise ApiError(412, [FieldError(None, None, said)])


def _answer(
    match_id: int,
    status: int = 200,
    warnings: tuple[FieldError, ...] = (),
    access: MatchAccess | None = None,
) -> Response:
    """The match state as it is now, with its ETag (and the write's warnings); the one
    kept for the revision `access` read, when there is one."""
    if access is None:
        match = _match(match_id)
        uid, revision, state = match.uid, match.revision, match_json(match)
    else:
        uid, revision = access.uid, access.revision
        state = kept_states().get(state_key(uid, revision), lambda: match_json(_match(match_id)))
    return _state_response(uid, revision, state, status, warnings)


def _state_response(
    uid: str,
    revision: int,
    state: dict[str, Any],
    status: int,
    warnings: tuple[FieldError, ...] = (),
) -> Response:
    body = {**state, "warnings": [w.to_dict() for w in warnings]} if warnings else state
    response = jsonify(body)
    response.status_code = status
    response.set_etag(etag(uid, revision), weak=True)
    return response


def _group(body: dict[str, Any], user: User) -> int:
    """The group a new match goes to: the one asked for if the user is in it, else personal."""
    raw = body.get("group")
    if raw is None:
        return personal_group(user).id
    if isinstance(raw, bool) or not isinstance(raw, int) or raw not in group_ids(user):
        said = gettext("You are not in a group %(group)s", group=repr(raw))
        raise ApiError(422, [FieldError(None, "group", said)])
    return raw


@bp.post("")
def create() -> ResponseReturnValue:
    user = require_user()
    body = _json_body(("variant", "options", "sides", "first_dealer", "group"))
    dealer = _first_dealer(body)
    group_id = _group(body, user)
    try:
        with transaction():
            match = create_match(
                body.get("variant"),
                body.get("options"),
                body.get("sides"),
                dealer,
                group_id=group_id,
                creator_id=user.id,
            )
            match_id = match.id
    except ValidationError as error:
        raise ApiError(422, error.problems) from None
    response = _answer(match_id, 201)
    response.headers["Location"] = url_for("api_matches.read", match_id=match_id)
    return response


@bp.get("/<int:match_id>")
def read(match_id: int) -> ResponseReturnValue:
    access = require_match(match_id, Level.VIEWER)
    tag = etag(access.uid, access.revision)
    if request.if_none_match.contains_weak(tag):
        response = Response(status=304)
        response.set_etag(tag, weak=True)
        return response
    return _answer(match_id, access=access)


@bp.post("/<int:match_id>/hands")
def add_hand(match_id: int) -> ResponseReturnValue:
    access = require_match(match_id, Level.SCORER)
    actor = Actor(*access.actor(caller()))
    body = _json_body(("sides", "number", "token", "deal", "lineup"))
    number = _deal_is_number(body, _optional_int(body, "number"))
    token = _token(body)
    expected = _if_match(access)
    return _write(
        match_id,
        lambda: record_hand(
            match_id,
            body.get("sides"),
            token=token,
            expected_number=number,
            actor=actor,
            expected=expected,
            lineup=body.get("lineup"),
        ),
        201,
    )


@bp.put("/<int:match_id>/hands/<int:number>")
def correct(match_id: int, number: int) -> ResponseReturnValue:
    access = require_match(match_id, Level.SCORER)
    actor = Actor(*access.actor(caller()))
    body = _json_body(("sides", "version", "deal", "lineup"))
    _deal_is_number(body, number)
    version = _optional_int(body, "version")
    expected = _if_match(access)
    return _write(
        match_id,
        lambda: correct_hand(
            match_id,
            number,
            body.get("sides"),
            version,
            actor=actor,
            expected=expected,
            lineup=body.get("lineup"),
        ),
    )


@bp.delete("/<int:match_id>/hands/<int:number>")
def remove(match_id: int, number: int) -> ResponseReturnValue:
    access = require_match(match_id, Level.SCORER)
    actor = Actor(*access.actor(caller()))
    version = _version_param()
    expected = _if_match(access)
    return _write(
        match_id,
        lambda: remove_hand(match_id, number, version=version, actor=actor, expected=expected),
    )


# --- share links ---------------------------------------------------------------------


def _link_json(link: ShareLink) -> dict[str, Any]:
    return {
        "id": link.id,
        "role": link.role,
        "token": link.token,
        "url": shared_url("sharing.open_link", token=link.token).url,
        "created_at": link.created_at.isoformat() + "Z",
    }


@bp.get("/<int:match_id>/links")
def links(match_id: int) -> ResponseReturnValue:
    require_match(match_id, Level.MEMBER)
    return {"links": [_link_json(link) for link in sharing.links_of(match_id)]}


@bp.post("/<int:match_id>/links")
def new_link(match_id: int) -> ResponseReturnValue:
    require_match(match_id, Level.MEMBER)
    body = _json_body(("role",))
    role = body.get("role")
    if role not in (LinkRole.VIEWER, LinkRole.SCORER):
        said = gettext('role must be "viewer" or "scorer"')
        raise ApiError(422, [FieldError(None, "role", said)])
    with transaction():
        link = sharing.new_link(match_id, LinkRole(role), caller().user)
    return _link_json(link), 201


@bp.delete("/<int:match_id>/links/<int:link_id>")
def revoke_link(match_id: int, link_id: int) -> ResponseReturnValue:
    require_match(match_id, Level.MEMBER)
    with transaction():
        revoked = sharing.revoke_link(match_id, link_id)
    if not revoked:
        fail(
            404,
            gettext(
                "This match has no link %(number)s (or it was revoked already)",
                number=str(link_id),
            ),
            "link",
        )
    return "", 204
