"""A group's matches to download (CSV, JSON) and a JSON export to import, in the browser."""

from __future__ import annotations

import json
from typing import cast

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import RequestEntityTooLarge

from ..access import login_required
from ..api.common import unstorable_text
from ..api.exports import IMPORT_MAX_BYTES, download, file_stem
from ..extensions import db
from ..ids import MAX_ID
from ..models import Group, User
from ..services.groups import groups_of, role_in
from ..services.imports import Imported, check_export, import_export
from ..services.storage import transaction
from ..validation import ValidationError
from ..words import joined, number
from ..words.translate import gettext, lazy_gettext, ngettext

bp = Blueprint("exports", __name__, url_prefix="/groups/<int:group_id>")

PROBLEMS_SHOWN = 5


class ImportForm(FlaskForm):  # type: ignore[misc]  # FlaskForm is untyped (Any)
    export = FileField(
        lazy_gettext("A Scorekeeper export (.json)"),
        validators=[FileRequired(lazy_gettext("Choose a file"))],
    )


def _group(group_id: int) -> Group:
    """A group of the user's; 404 otherwise (any member may export and import: members
    record and correct hands, and an import only adds matches)."""
    group = db.session.get(Group, group_id) if 0 < group_id <= MAX_ID else None
    if group is None or role_in(group_id, cast(User, current_user)) is None:
        abort(404, description=gettext("There is no such group among yours."))
    return group


@bp.get("/export.<any(csv, json):fmt>")
@login_required
def export(group_id: int, fmt: str) -> ResponseReturnValue:
    group = _group(group_id)
    return download([group.id], fmt, file_stem(group))


def _read(form: ImportForm) -> tuple[object, str | None]:
    """The uploaded file as JSON, or what is wrong with it (shown next to the field)."""
    raw = form.export.data.read()
    try:
        doc = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError):
        return None, gettext("This file is not a Scorekeeper export: it is not JSON.")
    except RecursionError:
        return (
            None,
            gettext(
                "Nothing was imported: the file nests lists and objects deeper than any export."
            ),
        )
    problem = unstorable_text(doc)
    if problem is not None:
        where, reason = problem
        if not where:
            return None, gettext("Nothing was imported: the file's text %(reason)s.", reason=reason)
        return None, gettext(
            "Nothing was imported: the text at %(where)s %(reason)s.", where=where, reason=reason
        )
    return doc, None


def _imported_words(result: Imported, group: Group) -> str:
    """What an import did: matches added, and where the ones it skipped already are."""
    if not result.skipped:
        return ngettext(
            "%(count)s match imported.",
            "%(count)s matches imported.",
            result.matches,
            count=number(result.matches),
        )
    mine = {view.group.id: view.group.name for view in groups_of(cast(User, current_user))}
    places = []
    for group_id, count in sorted(result.skipped_in.items(), key=lambda item: -item[1]):
        if group_id == group.id:
            places.append(gettext("%(count)s in this group", count=number(count)))
        elif group_id in mine:
            places.append(
                gettext("%(count)s in %(group)s", count=number(count), group=mine[group_id])
            )
        else:
            places.append(gettext("%(count)s in a group you are not in", count=number(count)))
    return ngettext(
        "%(count)s match imported; %(skipped)s already on this server, skipped (their players "
        "too): %(places)s.",
        "%(count)s matches imported; %(skipped)s already on this server, skipped (their "
        "players too): %(places)s.",
        result.matches,
        count=number(result.matches),
        skipped=number(result.skipped),
        places=joined(places),
    )


def _size_limit() -> str:
    limit = int(current_app.config.get("IMPORT_MAX_BYTES", IMPORT_MAX_BYTES))
    if limit >= 2**20:
        return gettext("%(size)s MB", size=number(limit // 2**20))
    return gettext("%(size)s KB", size=number(max(limit // 1024, 1)))


@bp.route("/import", methods=["GET", "POST"])
@login_required
def import_matches(group_id: int) -> ResponseReturnValue:
    group = _group(group_id)
    request.max_content_length = current_app.config.get("IMPORT_MAX_BYTES", IMPORT_MAX_BYTES)
    try:
        request.files  # noqa: B018 (read the upload now: a file too large is said here)
    except RequestEntityTooLarge:
        form = ImportForm(formdata=None)
        form.export.errors = [
            gettext("This file is larger than %(size)s: nothing was imported.", size=_size_limit())
        ]
        return render_template("import.html", group=group, form=form), 413
    form = ImportForm()
    if form.validate_on_submit():
        doc, wrong = _read(form)
        if wrong is not None:
            form.export.errors = [wrong]
        else:
            try:
                checked = check_export(doc)
                with transaction():
                    result = import_export(doc, group.id, checked)
            except ValidationError as error:
                shown = [
                    gettext("%(field)s: %(problem)s", field=p.field, problem=p.message)
                    if p.field
                    else p.message
                    for p in error.problems[:PROBLEMS_SHOWN]
                ]
                more = len(error.problems) - len(shown)
                form.export.errors = [
                    gettext(
                        "Nothing was imported: the file is not a Scorekeeper export as it "
                        "should be."
                    ),
                    *shown,
                    *([gettext("... and %(count)s more.", count=number(more))] if more > 0 else []),
                ]
            except IntegrityError:
                form.export.errors = [
                    gettext("Another import of these matches was saving: try again.")
                ]
            else:
                flash(_imported_words(result, group))
                return redirect(url_for("groups.detail", group_id=group.id), code=303)
    if request.method == "POST" and form.errors.get("csrf_token") and not form.export.errors:
        form.export.errors = [gettext("This form had expired: choose the file again, then Import.")]
    status = 422 if request.method == "POST" else 200
    return render_template("import.html", group=group, form=form), status
