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

bp = Blueprint("exports", __name__, url_prefix="/groups/<int:group_id>")

PROBLEMS_SHOWN = 5


class ImportForm(FlaskForm):  # type: ignore[misc]  # FlaskForm is untyped (Any)
    export = FileField("A Scorekeeper export (.json)", validators=[FileRequired("Choose a file")])


def _group(group_id: int) -> Group:
    """A group of the user's; 404 otherwise (any member may export and import: members
    record and correct hands, and an import only adds matches)."""
    group = db.session.get(Group, group_id) if 0 < group_id <= MAX_ID else None
    if group is None or role_in(group_id, cast(User, current_user)) is None:
        abort(404, description="There is no such group among yours.")
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
        return None, "This file is not a Scorekeeper export: it is not JSON."
    except RecursionError:
        return (
            None,
            "Nothing was imported: the file nests lists and objects deeper than any export.",
        )
    problem = unstorable_text(doc)
    if problem is not None:
        where, reason = problem
        return None, f"Nothing was imported: the text at {where or 'the top'} {reason}."
    return doc, None


def _imported_words(result: Imported, group: Group) -> str:
    """What an import did: matches added, and where the ones it skipped already are."""
    added = f"{result.matches} match{'' if result.matches == 1 else 'es'} imported"
    if not result.skipped:
        return f"{added}."
    mine = {view.group.id: view.group.name for view in groups_of(cast(User, current_user))}
    places = []
    for group_id, count in sorted(result.skipped_in.items(), key=lambda item: -item[1]):
        if group_id == group.id:
            where = "this group"
        elif group_id in mine:
            where = mine[group_id]
        else:
            where = "a group you are not in"
        places.append(f"{count} in {where}")
    return (
        f"{added}; {result.skipped} already on this server, skipped (their players too): "
        f"{', '.join(places)}."
    )


def _size_limit() -> str:
    limit = int(current_app.config.get("IMPORT_MAX_BYTES", IMPORT_MAX_BYTES))
    return f"{limit // 2**20} MB" if limit >= 2**20 else f"{max(limit // 1024, 1)} KB"


@bp.route("/import", methods=["GET", "POST"])
@login_required
def import_matches(group_id: int) -> ResponseReturnValue:
    group = _group(group_id)
    request.max_content_length = current_app.config.get("IMPORT_MAX_BYTES", IMPORT_MAX_BYTES)
    try:
        request.files  # noqa: B018 (read the upload now: a file too large is said here)
    except RequestEntityTooLarge:
        form = ImportForm(formdata=None)
        form.export.errors = [f"This file is larger than {_size_limit()}: nothing was imported."]
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
                    f"{p.field}: {p.message}" if p.field else p.message
                    for p in error.problems[:PROBLEMS_SHOWN]
                ]
                more = len(error.problems) - len(shown)
                form.export.errors = [
                    "Nothing was imported: the file is not a Scorekeeper export as it should be.",
                    *shown,
                    *([f"... and {more} more."] if more > 0 else []),
                ]
            except IntegrityError:
                form.export.errors = ["Another import of these matches was saving: try again."]
            else:
                flash(_imported_words(result, group))
                return redirect(url_for("groups.detail", group_id=group.id), code=303)
    if request.method == "POST" and form.errors.get("csrf_token") and not form.export.errors:
        form.export.errors = ["This form had expired: choose the file again, then Import."]
    status = 422 if request.method == "POST" else 200
    return render_template("import.html", group=group, form=form), status
