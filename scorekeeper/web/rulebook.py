"""Readable rules: each preset, and the rules frozen into a match."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from ..rules import PRESETS
from ..services.match_state import match_rules
from ..services.rulebook import describe
from ..words.translate import gettext
from .common import match_for

bp = Blueprint("rulebook", __name__)


@bp.get("/rules")
def index() -> str:
    return render_template("rules_index.html", presets=list(PRESETS.values()))


@bp.get("/rules/<key>")
def preset(key: str) -> str:
    if key not in PRESETS:
        abort(404, description=gettext("There is no game called %(name)s.", name=repr(key)))
    return render_template("rules.html", book=describe(PRESETS[key]), match=None)


@bp.get("/matches/<int:match_id>/rules")
def for_match(match_id: int) -> str:
    match, _ = match_for(match_id)
    return render_template("rules.html", book=describe(match_rules(match)), match=match)
