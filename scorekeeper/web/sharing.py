"""Sharing a match with the phones at the table: viewer and scorer links with QR codes."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from ..access import Level, grant_link
from ..models import LinkRole
from ..services import sharing
from ..services.match_state import match_state
from ..services.storage import transaction
from ..words.translate import gettext
from .common import match_for
from .qr import shown_links

bp = Blueprint("sharing", __name__)


def _back(match_id: int) -> Response:
    return redirect(url_for("sharing.share", match_id=match_id), code=303)


@bp.get("/matches/<int:match_id>/share")
def share(match_id: int) -> ResponseReturnValue:
    match, _ = match_for(match_id, Level.MEMBER)
    links, loopback_only = shown_links(sharing.links_of(match_id), "sharing.open_link")
    return render_template(
        "share.html", state=match_state(match), links=links, loopback_only=loopback_only
    )


@bp.post("/matches/<int:match_id>/share")
def new_link(match_id: int) -> ResponseReturnValue:
    match_for(match_id, Level.MEMBER)
    role = request.form.get("role", "")
    if FlaskForm().validate_on_submit() and role in (LinkRole.VIEWER, LinkRole.SCORER):
        with transaction():
            sharing.new_link(match_id, LinkRole(role), current_user)
        flash(
            gettext("A viewer link is ready: whoever opens it follows the score.")
            if role == LinkRole.VIEWER
            else gettext("A scorer link is ready: whoever opens it can record hands of this match.")
        )
    return _back(match_id)


@bp.post("/matches/<int:match_id>/share/<int:link_id>/revoke")
def revoke_link(match_id: int, link_id: int) -> ResponseReturnValue:
    match_for(match_id, Level.MEMBER)
    if FlaskForm().validate_on_submit():
        with transaction():
            done = sharing.revoke_link(match_id, link_id)
        flash(
            gettext("The link stopped working.")
            if done
            else gettext("That link was already revoked.")
        )
    return _back(match_id)


@bp.get("/s/<token>")
def open_link(token: str) -> ResponseReturnValue:
    """A share link opened on a phone: this browser may follow (or score) that match."""
    link = sharing.open_link(token)
    if link is None:
        abort(404, description=gettext("This link does not work: it was revoked, or is mistyped."))
    grant_link(link)
    return redirect(url_for("matches.scoreboard", match_id=link.match_id))
