"""Players and their ratings (CLUBS.md, "API (contract for leagues and ratings)")."""

from __future__ import annotations

from flask import Blueprint, request
from flask.typing import ResponseReturnValue
from sqlalchemy import select

from ..access import require_user
from ..extensions import db
from ..models import Player, User, name_key
from ..services import ratings
from ..services.groups import group_ids
from ..validation import FieldError
from ..words.translate import gettext
from .common import PREFIX, ApiError, fail

bp = Blueprint("api_players", __name__, url_prefix=PREFIX)
RETRY_AFTER = 3  # seconds: ratings being brought up to date are back in about this


def asked_groups(user: User) -> list[int]:
    """The caller's groups, or the one `?group=ID` names (400 if it is not an id, 404 if
    it is not one of theirs, as another group's match is)."""
    mine = group_ids(user)
    raw = request.args.get("group")
    if raw is None:
        return sorted(mine)
    if not raw.isascii() or not raw.isdigit() or len(raw) > 10:
        fail(
            400,
            gettext("group must be a group's id (a whole number), not %(raw)s", raw=repr(raw)),
            "group",
        )
    if int(raw) not in mine:
        fail(404, gettext("You are not in a group %(raw)s", raw=raw), "group")
    return [int(raw)]


@bp.get("/players")
def players() -> ResponseReturnValue:
    user = require_user()
    rows = list(
        db.session.execute(
            select(Player.id, Player.name, Player.group_id).where(
                Player.group_id.in_(asked_groups(user))
            )
        )
    )
    rows.sort(key=lambda row: (row.group_id, name_key(row.name), row.id))
    return {"players": [{"id": i, "name": name, "group": group} for i, name, group in rows]}


@bp.get("/players/<int:player_id>/rating")
def rating(player_id: int) -> ResponseReturnValue:
    user = require_user()
    player = db.session.get(Player, player_id)
    if player is None or player.group_id not in group_ids(user):
        fail(
            404,
            gettext("There is no player %(id)s among your groups", id=str(player_id)),
            "player",
        )
    assert player.group_id is not None
    if not ratings.current([player.group_id])[player.group_id]:
        message = gettext(
            "Ratings are being brought up to date after a change to earlier matches: "
            "ask again in a few seconds"
        )
        raise ApiError(503, [FieldError(None, None, message)], {"Retry-After": str(RETRY_AFTER)})
    found = ratings.ratings_of([player.id])[player.id]
    return {
        "player": player.id,
        "name": player.name,
        "ratings": [
            {
                "family": r.family.value,
                "mu": r.mu,
                "sigma": r.sigma,
                "rating": r.rating,
                "matches": r.matches,
            }
            for r in found
            if r.matches > 0
        ],
    }
