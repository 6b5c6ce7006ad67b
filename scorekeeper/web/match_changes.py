"""A match's sides, giving it up, and playing it again: rename a side, abandon the
match, delete it, start a rematch."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from ..access import Level, caller
from ..services import match_admin, match_setup
from ..services.groups import personal_group
from ..services.match_lock import MatchError
from ..services.match_state import match_state
from ..services.storage import transaction
from ..validation import ValidationError
from ..words.translate import gettext
from .activity import activity_text
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
            flash(gettext("The side is called %(name)s now.", name=name))
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
            flash(gettext("The match was abandoned: it is in the history now."))
        except MatchError as error:
            flash(error.message)
    return redirect(url_for("matches.scoreboard", match_id=match_id), code=303)


@bp.post("/rematch")
def rematch(match_id: int) -> ResponseReturnValue:
    """The same players and rules again, in the same group; the next dealer deals first."""
    match, _ = match_for(match_id, Level.MEMBER)
    state = match_state(match)
    if not state.over:
        flash(gettext("This game is not over yet: finish it (or abandon it) first."))
        return redirect(url_for("matches.scoreboard", match_id=match_id), code=303)
    if not FlaskForm().validate_on_submit():
        flash(gettext("That page had expired. Tap Rematch again."))
        return redirect(url_for("matches.scoreboard", match_id=match_id), code=303)
    who = caller().user
    if who is None:  # a member signs in: only a share link's holder has no account
        abort(403, description=gettext("Sign in to start a rematch."))
    dealer = state.table_order.index(state.next_dealer)
    group_id = match.group_id or personal_group(who).id  # a match of before groups
    with transaction():
        new = match_setup.rematch(match, dealer, group_id, who.id)
        new_id = new.id
    flash(
        gettext(
            "Rematch: the same players and rules. %(dealer)s deals first.",
            dealer=state.next_dealer,
        )
    )
    return redirect(url_for("matches.scoreboard", match_id=new_id), code=303)


@bp.route("/delete", methods=["GET", "POST"])
def delete(match_id: int) -> ResponseReturnValue:
    match, _ = match_for(match_id, Level.ADMIN)
    if request.method == "POST" and FlaskForm().validate_on_submit():
        who = caller().user
        with transaction():
            entry = match_admin.delete_match(match_id, who.username if who else "?")
        flash(
            gettext(
                "%(change)s. The group's activity log keeps a note of it.",
                change=activity_text(entry),
            )
        )
        return redirect(url_for("home.index"), code=303)
    return render_template("delete_match.html", state=match_state(match))
