"""Stateless scoring of one hand."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from .. import words
from ..access import Level, match_access
from ..services.hands import Evaluation, evaluate, evaluate_request
from ..services.match_state import load_match, match_rules, side_names
from ..services.seated import next_phase
from ..validation import ValidationError, refuse
from ..words.translate import gettext
from .common import PREFIX, ApiError, json_object, reject_unknown_keys

bp = Blueprint("api_score", __name__, url_prefix=PREFIX)

SCORE_KEYS = ("variant", "options", "players", "deal", "lineup", "sides", "match")


def _evaluate(body: dict[str, Any]) -> Evaluation:
    """Score under a preset and options, or (with "match") under a match's frozen rules."""
    match_id = body.get("match")
    if match_id is None:
        return evaluate_request(
            body.get("variant"),
            body.get("options"),
            body.get("sides"),
            body.get("players"),
            body.get("deal"),
            body.get("lineup"),
        )
    extra = [key for key in ("variant", "options", "players") if key in body]
    if extra:
        message = gettext(
            'With "match", the match\'s own rules are used: leave out %(keys)s',
            keys=", ".join(extra),
        )
        raise refuse("match", message)
    readable = (
        isinstance(match_id, int)
        and not isinstance(match_id, bool)
        and (access := match_access(match_id)) is not None
        and access.level >= Level.VIEWER
    )
    match = load_match(match_id) if readable else None
    if match is None:
        raise refuse("match", gettext("There is no match %(number)s", number=repr(match_id)))
    return evaluate(
        match_rules(match),
        body.get("sides"),
        match.players_per_side,
        side_names(match),
        body.get("deal"),
        body.get("lineup"),
        next_phase(match),
    )


@bp.post("/score")
def score_hand() -> dict[str, Any]:
    body = json_object()
    unknown = reject_unknown_keys(body, SCORE_KEYS)
    try:
        evaluation = _evaluate(body)
    except ValidationError as error:
        raise ApiError(422, [*unknown, *error.problems]) from None
    if unknown:
        raise ApiError(422, unknown)
    vocabulary = evaluation.rules.vocabulary
    answer: dict[str, Any] = {
        "sides": [words.scored(side, vocabulary) for side in evaluation.scores],
        "warnings": [warning.to_dict() for warning in evaluation.warnings],
    }
    if evaluation.seats:
        answer["seats"] = [
            {"seat": seat, "total": share.total} for seat, share in enumerate(evaluation.seats)
        ]
    return answer
