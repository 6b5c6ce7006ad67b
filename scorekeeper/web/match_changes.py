"""A match's sides, and giving it up: rename a side, abandon the match, delete it."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from ..access import Level, caller
from ..services import match_admin
from ..services.match_lock import MatchError
from ..services.match_state import match_state
from ..services.storage import transaction
from ..validation import ValidationError
from .common import match_for

bp = Blueprint("match_changes", __name__, url_prefix="/matches/<int:match_id>")


def _manage(match_id: int) -> Response:
    return redirect(url_for("match_changes.manage", match_id=match_id), code=303)


@bp.get("/manage")
def manage(match_id: int) -> ResponseReturnValue:
    match, access = match_for(match_id, Level.MEMBER)
    return render_template("manage_match.html", state=match_state(match), level=access.level)


@bp.post("/sides/<int:seat>")
def rename_side(match_id: int, seat: int) -> ResponseReturnValue:
    match_for(match_id, Level.MEMBER)
    if FlaskForm().validate_on_submit():
        try:
            with transaction():
                name = match_admin.rename_side(match_id, seat, request.form.get("name", ""))
            flash(f"The side is called {name} now.")
        except (ValidationError, MatchError) as error:
            problems = getattr(error, "problems", None)
            flash(problems[0].message if problems else str(error))
    return _manage(match_id)


@bp.post("/abandon")
def abandon(match_id: int) -> ResponseReturnValue:
    match_for(match_id, Level.MEMBER)
    if FlaskForm().validate_on_submit():
        try:
            with transaction():
                match_admin.abandon_match(match_id)
            flash("The match was abandoned: it is in the history now.")
        except MatchError as error:
            flash(error.message)
    return redirect(url_for("matches.scoreboard", match_id=match_id), code=303)


@bp.route("/delete", methods=["GET", "POST"])
def delete(match_id: int) -> ResponseReturnValue:
    match, _ = match_for(match_id, Level.ADMIN)
    if request.method == "POST" and FlaskForm().validate_on_submit():
        who = caller().user
        with transaction():
            said = match_admin.delete_match(match_id, who.username if who else "?")
        flash(f"{said}. The group's activity log keeps a note of it.")
        return redirect(url_for("home.index"), code=303)
    return render_template("delete_match.html", state=match_state(match))
