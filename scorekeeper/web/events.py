"""A group's events in the browser: the list, a new event (its game first, then its
settings and entries), and the entries changed until round 1 starts."""

from __future__ import annotations

from typing import Any, cast

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user
from flask_wtf import FlaskForm

from ..access import Level, login_required
from ..clubs import GAME_END_OPTIONS, entry_sizes
from ..event_models import EventStatus
from ..extensions import db
from ..ids import MAX_ID
from ..models import Group, User
from ..rules import PRESETS, Rules
from ..services import groups
from ..services.event_lock import EventError
from ..services.event_setup import change_entries, create_event
from ..services.events import events_of
from ..services.storage import StorageUnavailable, transaction
from ..validation import FieldError, ValidationError
from ..words.translate import gettext
from .common import add_problems
from .event_common import event_for
from .event_form import (
    entries_form_class,
    entries_from_form,
    entry_rows,
    event_body,
    event_form_class,
    field_for,
    rows_wanted,
)
from .match_form import option_fields

bp = Blueprint("events", __name__)


def _group(group_id: int) -> Group:
    """A group of the user's (404 otherwise)."""
    group = db.session.get(Group, group_id) if 0 < group_id <= MAX_ID else None
    if group is None or groups.role_in(group_id, cast(User, current_user)) is None:
        abort(404, description=gettext("There is no such group among yours."))
    return group


def two_sided() -> list[Rules]:
    """The games an event can be played at: those played by two sides."""
    return [preset for preset in PRESETS.values() if entry_sizes(preset)]


def _player_names(group_id: int) -> list[str]:
    return [player.name for player in groups.players(group_id)]


@bp.get("/groups/<int:group_id>/events")
@login_required
def index(group_id: int) -> ResponseReturnValue:
    group = _group(group_id)
    return render_template("events.html", group=group, events=events_of([group_id]))


@bp.get("/groups/<int:group_id>/events/new")
@login_required
def choose(group_id: int) -> ResponseReturnValue:
    return render_template("event_choose.html", group=_group(group_id), presets=two_sided())


def _size(preset: Rules) -> int:
    """Players an entry has: asked for in the address, else pairs where the game has them."""
    sizes = entry_sizes(preset)
    raw = request.args.get("players", "")
    if raw.isascii() and raw.isdigit() and int(raw) in sizes:
        return int(raw)
    return 2 if 2 in sizes else sizes[0]


def _attach(form: FlaskForm, problems: list[FieldError], at_row: list[int], size: int) -> list[str]:
    return add_problems(form, problems, lambda problem: field_for(problem, at_row, size))


@bp.route("/groups/<int:group_id>/events/new/<key>", methods=["GET", "POST"])
@login_required
def new(group_id: int, key: str) -> ResponseReturnValue:
    group = _group(group_id)
    preset = PRESETS.get(key)
    if preset is None or not entry_sizes(preset):
        abort(404, description=gettext("No event can be played at %(game)s.", game=repr(key)))
    size = _size(preset)
    rows = rows_wanted(request.form if request.method == "POST" else {})
    form = event_form_class(preset, rows, size)()
    top: list[str] = []
    status = 200
    if request.method == "POST" and "more" not in request.form:
        status = 422
        if form.validate_on_submit():
            entries, at_row = entries_from_form(form.data, rows, size)
            try:
                with transaction():
                    event = create_event(
                        event_body(preset, form.data, entries),
                        group_id=group_id,
                        creator_id=cast(User, current_user).id,
                    )
                flash(gettext("%(name)s is ready: start round 1 once the tables are seated.",
                              name=event.name))  # fmt: skip
                return redirect(url_for("event_director.detail", event_id=event.id), code=303)
            except ValidationError as error:
                top = _attach(form, list(error.problems), at_row, size)
            except StorageUnavailable as error:
                top.append(error.message)
                status = 503
        elif form.errors.get("csrf_token"):
            top.append(gettext("This form had expired. Please check it and send it again."))
    options = [o for o in option_fields(preset) if o.spec.name not in GAME_END_OPTIONS]
    return render_template(
        "event_new.html",
        group=group,
        preset=preset,
        size=size,
        sizes=entry_sizes(preset),
        form=form,
        rows=entry_rows(rows, size),
        options=options,
        options_open=any(form[name].errors for option in options for name in option.fields),
        players=_player_names(group_id),
        top_errors=top,
    ), status


def _prefill(entries: list[Any]) -> dict[str, str]:
    data: dict[str, str] = {}
    for index, entry in enumerate(entries):
        data[f"n{index}"] = entry.name
        for member in entry.members:
            data[f"p{index}_{member.position}"] = member.player.name
    return data


@bp.route("/events/<int:event_id>/entries", methods=["GET", "POST"])
def entries(event_id: int) -> ResponseReturnValue:
    event, _ = event_for(event_id, Level.ADMIN)
    back = redirect(url_for("event_director.detail", event_id=event_id), code=303)
    if event.status != EventStatus.SETUP:
        flash(gettext("Round 1 has started: the entries can no longer change."))
        return back
    size = event.players_per_entry
    posted = request.method == "POST"
    rows = rows_wanted(request.form if posted else {}, len(event.entries))
    form_class = entries_form_class(rows, size)
    form = form_class() if posted else form_class(data=_prefill(list(event.entries)))
    top: list[str] = []
    status = 200
    if posted and "more" not in request.form:
        status = 422
        if form.validate_on_submit():
            sent, at_row = entries_from_form(form.data, rows, size)
            try:
                with transaction():
                    change_entries(event_id, sent)
                flash(gettext("The entries are saved."))
                return back
            except ValidationError as error:
                top = _attach(form, list(error.problems), at_row, size)
            except EventError as error:
                flash(error.message)
                return back
            except StorageUnavailable as error:
                top.append(error.message)
                status = 503
        elif form.errors.get("csrf_token"):
            top.append(gettext("This form had expired. Please check it and send it again."))
    return render_template(
        "event_entries.html",
        event=event,
        form=form,
        rows=entry_rows(rows, size),
        size=size,
        players=_player_names(event.group_id),
        top_errors=top,
    ), status
