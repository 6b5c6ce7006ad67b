"""Presets: list, detail, meld requirement."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, request

from .. import words
from ..rules import PRESETS, Rules, meld_requirement
from ..rules.meld import needs_score
from ..services.variants import preset_detail, preset_summary, resolve_or_problems
from ..validation import ValidationError
from ..words.translate import gettext
from .common import PREFIX, ApiError, fail

bp = Blueprint("api_variants", __name__, url_prefix=f"{PREFIX}/variants")


def _options_param() -> object:
    raw = request.args.get("options")
    if raw is None or raw == "":
        return None
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        fail(400, gettext("options must be a JSON object"), "options")


@bp.get("")
def list_variants() -> list[dict[str, Any]]:
    return [preset_summary(preset) for preset in PRESETS.values()]


@bp.get("/<key>")
def variant_detail(key: str) -> dict[str, Any]:
    rules = _resolved(key)
    return preset_detail(PRESETS[key], rules)


@bp.get("/<key>/meld-requirement")
def variant_meld_requirement(key: str) -> dict[str, object]:
    rules = _resolved(key)
    raw = request.args.get("score")
    if raw is None and needs_score(rules):
        fail(
            400,
            gettext(
                "In %(game)s the minimum depends on the side's score: give its cumulative score "
                "as %(example)s",
                game=words.game_name(rules.key),
                example="?score=N",
            ),
            "score",
        )
    try:
        score = 0 if raw is None else int(raw.strip())
    except ValueError:
        fail(400, gettext("score must be a whole number, not %(given)s", given=repr(raw)), "score")
    if abs(score) > 10**9:
        fail(400, gettext("score is out of range"), "score")
    deal = _whole_param("deal", 1, 1000)
    sides = _whole_param("sides", 2, 12)
    if sides is not None and sides not in {lay.sides for lay in rules.layouts}:
        allowed = words.either(
            words.number(n) for n in sorted({lay.sides for lay in rules.layouts})
        )
        said = gettext(
            "%(game)s is played by %(allowed)s sides",
            game=words.game_name(rules.key),
            allowed=allowed,
        )
        fail(400, said, "sides")
    return words.meld_dict(meld_requirement(rules, score, deal=deal, sides=sides), rules)


def _whole_param(name: str, low: int, high: int) -> int | None:
    """An optional whole-number query parameter within [low, high]; a 400 otherwise."""
    raw = request.args.get(name)
    if raw is None or raw == "":
        return None
    try:
        value = int(raw.strip())
    except ValueError:
        said = gettext("%(name)s must be a whole number, not %(given)s", name=name, given=repr(raw))
        fail(400, said, name)
    if not low <= value <= high:
        said = gettext(
            "%(name)s must be from %(low)s to %(high)s", name=name, low=str(low), high=str(high)
        )
        fail(400, said, name)
    return value


def _resolved(key: str) -> Rules:
    if key not in PRESETS:
        fail(404, gettext("There is no variant called %(name)s", name=repr(key)), "variant")
    try:
        return resolve_or_problems(key, _options_param())
    except ValidationError as error:
        raise ApiError(422, error.problems) from error
