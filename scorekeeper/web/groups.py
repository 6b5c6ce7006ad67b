"""Groups in the browser: your groups, one group's members, invites, players and activity;
joining through an invite link."""

from __future__ import annotations

from typing import cast

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length

from ..access import login_required
from ..addresses import shared_url
from ..extensions import db, limiter
from ..ids import MAX_ID, id_of
from ..models import NAME_LENGTH, Group, Role, User
from ..services import groups
from ..services.storage import transaction
from ..validation import ValidationError
from ..words.translate import gettext, lazy_gettext
from .activity import links_text
from .auth import ATTEMPTS
from .common import LAST_GROUP
from .qr import qr_svg

bp = Blueprint("groups", __name__, url_prefix="/groups")
invites_bp = Blueprint("invites", __name__)


class NameForm(FlaskForm):
    name = StringField(
        lazy_gettext("Name"), validators=[InputRequired(), Length(max=NAME_LENGTH * 2)]
    )


class MergeForm(FlaskForm):
    gone = SelectField(lazy_gettext("Merge this player"), coerce=int)
    kept = SelectField(lazy_gettext("into this one"), coerce=int)


class LinkForm(FlaskForm):
    user = SelectField(lazy_gettext("Account"), coerce=int)


def _me() -> User:
    return cast(User, current_user)


def _group(group_id: int, admin: bool = False) -> tuple[Group, Role]:
    """A group of the user's (404 otherwise); 403 when an admin's action is asked of a member."""
    group = db.session.get(Group, group_id) if 0 < group_id <= MAX_ID else None
    role = groups.role_in(group_id, _me()) if group is not None else None
    if group is None or role is None:
        abort(404, description=gettext("There is no such group among yours."))
    if admin and role != Role.ADMIN:
        abort(403, description=gettext("Only the group's admins can do that."))
    return group, role


def _back(group_id: int) -> Response:
    return redirect(url_for("groups.detail", group_id=group_id), code=303)


def _back_to_player(group_id: int, player_id: int) -> Response:
    """The player's page, where their name and account link are changed."""
    return redirect(url_for("stats.player", group_id=group_id, player_id=player_id), code=303)


def link_form(group_id: int) -> LinkForm:
    """Link a player to the account of one of the group's members (or nobody)."""
    form = LinkForm()
    form.user.choices = [
        SelectChoice(0, gettext("Nobody")),
        *(SelectChoice(m.user.id, m.user.username) for m in groups.members(group_id)),
    ]
    return form


@bp.route("", methods=["GET", "POST"])
@login_required
def index() -> ResponseReturnValue:
    form = NameForm()
    if form.validate_on_submit():
        try:
            with transaction():
                group = groups.create_group(_me(), form.name.data)
            flash(gettext("%(group)s is ready: invite its players.", group=group.name))
            return _back(group.id)
        except ValidationError as error:
            form.name.errors = [p.message for p in error.problems]
    status = 422 if request.method == "POST" else 200
    return render_template("groups.html", groups=groups.groups_of(_me()), form=form), status


@bp.get("/<int:group_id>")
@login_required
def detail(group_id: int) -> ResponseReturnValue:
    group, role = _group(group_id)
    if session.get(LAST_GROUP) != group_id:
        session[LAST_GROUP] = group_id  # a new match is offered in the group last opened
    players = groups.players(group_id)
    members = groups.members(group_id)
    merge = MergeForm()
    merge.gone.choices = merge.kept.choices = [SelectChoice(p.id, p.name) for p in players]
    invites = [
        (invite, shared_url("invites.accept", token=invite.token))
        for invite in groups.invites(group_id)
    ]
    return render_template(
        "group.html",
        group=group,
        role=role,
        members=members,
        invites=[(invite, at.url, qr_svg(at.url)) for invite, at in invites],
        loopback_only=any(at.loopback_only for _, at in invites),
        players=players,
        rename=NameForm(name=group.name),
        merge=merge,
        activity=groups.activity(group_id),
    )


@bp.post("/<int:group_id>/rename")
@login_required
def rename(group_id: int) -> ResponseReturnValue:
    group, _ = _group(group_id, admin=True)
    form = NameForm()
    if form.validate_on_submit():
        try:
            with transaction():
                groups.rename_group(group, form.name.data, _me())
            flash(gettext("Renamed."))
        except ValidationError as error:
            flash(error.problems[0].message)
    return _back(group_id)


@bp.post("/<int:group_id>/members/<int:user_id>/remove")
@login_required
def remove_member(group_id: int, user_id: int) -> ResponseReturnValue:
    group, _ = _group(group_id, admin=user_id != _me().id)  # anyone may leave
    if FlaskForm().validate_on_submit():
        leaving = user_id == _me().id
        with transaction():
            removal = groups.remove_member(group, user_id, _me())
        if isinstance(removal, str):
            flash(removal)
            return _back(group_id)
        links = links_text({"share_links": removal.share_links, "invites": removal.invites})
        if leaving:
            flash(
                gettext(
                    "You left %(group)s. The %(links)s you made stopped working.",
                    group=group.name,
                    links=links,
                )
                if links
                else gettext("You left %(group)s.", group=group.name)
            )
            return redirect(url_for("groups.index"), code=303)
        flash(
            gettext(
                "%(name)s is no longer in %(group)s. The %(links)s they made stopped working.",
                name=removal.name,
                group=group.name,
                links=links,
            )
            if links
            else gettext("%(name)s is no longer in %(group)s.", name=removal.name, group=group.name)
        )
    return _back(group_id)


@bp.post("/<int:group_id>/members/<int:user_id>/role")
@login_required
def set_role(group_id: int, user_id: int) -> ResponseReturnValue:
    group, _ = _group(group_id, admin=True)
    raw = request.form.get("role", "")
    if FlaskForm().validate_on_submit() and raw in (Role.ADMIN.value, Role.MEMBER.value):
        with transaction():
            problem = groups.set_role(group, user_id, Role(raw), _me())
        flash(problem or gettext("Done."))
    return _back(group_id)


@bp.post("/<int:group_id>/invites")
@login_required
def new_invite(group_id: int) -> ResponseReturnValue:
    group, _ = _group(group_id)
    if FlaskForm().validate_on_submit():
        with transaction():
            groups.new_invite(group, _me())
        flash(gettext("A new invite link is ready below: show its QR code or send the link."))
    return _back(group_id)


@bp.post("/<int:group_id>/invites/<int:invite_id>/revoke")
@login_required
def revoke_invite(group_id: int, invite_id: int) -> ResponseReturnValue:
    group, _ = _group(group_id)
    if FlaskForm().validate_on_submit():
        with transaction():
            done = groups.revoke_invite(group, invite_id, _me())
        flash(
            gettext("The invite link no longer works.")
            if done
            else gettext("That invite was already gone.")
        )
    return _back(group_id)


@bp.post("/<int:group_id>/players/<int:player_id>/rename")
@login_required
def rename_player(group_id: int, player_id: int) -> ResponseReturnValue:
    _group(group_id, admin=True)
    player = groups.player_in(group_id, player_id) or abort(404)
    form = NameForm()
    if form.validate_on_submit():
        try:
            with transaction():
                groups.rename_player(group_id, player, form.name.data, _me())
            flash(gettext("Renamed, in every match."))
        except ValidationError as error:
            flash(error.problems[0].message)
    return _back_to_player(group_id, player_id)


@bp.post("/<int:group_id>/players/merge")
@login_required
def merge_players(group_id: int) -> ResponseReturnValue:
    _group(group_id, admin=True)
    form = MergeForm()
    players = groups.players(group_id)
    form.gone.choices = form.kept.choices = [SelectChoice(p.id, p.name) for p in players]
    if form.validate_on_submit():
        gone = groups.player_in(group_id, form.gone.data)
        kept = groups.player_in(group_id, form.kept.data)
        if gone is None or kept is None:
            abort(404)
        with transaction():
            problem = groups.merge_players(group_id, gone, kept, _me())
        flash(problem or gettext("Merged: their matches are one player's now."))
    return _back(group_id)


@bp.post("/<int:group_id>/players/<int:player_id>/link")
@login_required
def link_player(group_id: int, player_id: int) -> ResponseReturnValue:
    _group(group_id, admin=True)
    player = groups.player_in(group_id, player_id) or abort(404)
    raw = request.form.get("user", "0").strip()
    user_id = id_of(raw)
    if user_id is None and raw not in ("", "0"):  # "0": nobody
        abort(400, description=gettext("Choose a member's account from the list, or nobody."))
    if FlaskForm().validate_on_submit():
        with transaction():
            problem = groups.link_player(group_id, player, user_id, _me())
        flash(problem or gettext("Linked."))
    return _back_to_player(group_id, player_id)


@invites_bp.route("/invite/<token>", methods=["GET", "POST"])
@limiter.limit(ATTEMPTS, methods=["POST"])
def accept(token: str) -> ResponseReturnValue:
    invite = groups.open_invite(token)
    if invite is None:
        return render_template("invite.html", invite=None), 404
    if not current_user.is_authenticated:
        return render_template("invite.html", invite=invite)
    if request.method == "POST" and FlaskForm().validate_on_submit():
        with transaction():
            joined = groups.join(invite, _me())
        flash(
            gettext("You joined %(group)s.", group=invite.group.name)
            if joined
            else gettext("You were already in %(group)s.", group=invite.group.name)
        )
        return _back(invite.group_id)
    return render_template("invite.html", invite=invite)
