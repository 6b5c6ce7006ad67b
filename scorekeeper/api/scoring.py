"""Stateless scoring of one hand."""

from __future__ import annotations

from flask import Blueprint

from ..rules import InvalidHand
from ..services.hands import evaluate_request
from .common import PREFIX, ApiError, json_object, reject_unknown_keys

bp = Blueprint("api_score", __name__, url_prefix=PREFIX)

SCORE_KEYS = ("variant", "options", "players", "sides")


@bp.post("/score")
def score_hand():
    body = json_object()
    unknown = reject_unknown_keys(body, SCORE_KEYS)
    try:
        evaluation = evaluate_request(
            body.get("variant"), body.get("options"), body.get("sides"), body.get("players")
        )
    except InvalidHand as error:
        raise ApiError(422, [*unknown, *error.problems]) from None
    if unknown:
        raise ApiError(422, unknown)
    return {"sides": [side.to_dict() for side in evaluation.scores]}
