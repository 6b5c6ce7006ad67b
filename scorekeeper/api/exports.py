"""Export and import: `GET /api/v1/export?format=json|csv[&group=ID]`, `POST /api/v1/import`."""

from __future__ import annotations

from collections.abc import Sequence

from flask import Blueprint, Response, current_app, request
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import IntegrityError

from ..access import require_user
from ..extensions import db
from ..ids import valid_id
from ..models import Group, User, utcnow
from ..services.exports import export_csv, export_json
from ..services.groups import group_ids, personal_group, role_in
from ..services.imports import check_export, import_export
from ..services.storage import transaction
from ..validation import ValidationError
from ..words.translate import gettext
from .common import PREFIX, ApiError, fail, json_object

IMPORT_MAX_BYTES = 16 * 1024 * 1024  # an import may be larger than any other request

bp = Blueprint("api_exports", __name__, url_prefix=PREFIX)


def download(groups: Sequence[int], fmt: str, stem: str) -> Response:
    """The export of these groups as a file to save (`stem`.json or `stem`.csv)."""
    if fmt == "csv":
        response = Response(export_csv(groups), content_type="text/csv; charset=utf-8")
    else:
        body = current_app.json.dumps(export_json(groups), ensure_ascii=False)
        response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{stem}.{fmt}"'
    response.headers["Cache-Control"] = "private, no-store"
    return response


def file_stem(group: Group | None) -> str:
    """A file name that says what and when: scorekeeper-thursday-2026-11-23."""
    words = "".join(
        c if c.isascii() and c.isalnum() else "-" for c in (group.name if group else "")
    )
    words = "-".join(part for part in words.lower().split("-") if part)[:40]
    day = utcnow().date().isoformat()
    return "-".join(part for part in ("scorekeeper", words, day) if part)


def _group_param(user: User) -> Group | None:
    """The group asked for with ?group=ID (None without one); 404 unless it is the caller's."""
    raw = request.args.get("group")
    if raw is None:
        return None
    group_id = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 12 else 0
    group = db.session.get(Group, group_id) if valid_id(group_id) else None
    if group is None or role_in(group.id, user) is None:
        fail(404, gettext("There is no group %(group)s among yours", group=str(raw)), "group")
    return group


@bp.get("/export")
def export() -> ResponseReturnValue:
    user = require_user()
    fmt = request.args.get("format", "json")
    if fmt not in ("json", "csv"):
        fail(400, gettext("format must be json or csv, not %(given)s", given=repr(fmt)), "format")
    group = _group_param(user)
    ids = [group.id] if group is not None else group_ids(user)
    return download(ids, fmt, file_stem(group))


@bp.post("/import")
def import_matches() -> ResponseReturnValue:
    user = require_user()
    group = _group_param(user) or personal_group(user)
    request.max_content_length = current_app.config.get("IMPORT_MAX_BYTES", IMPORT_MAX_BYTES)
    if not request.is_json:
        fail(
            415,
            gettext(
                "Send the export as JSON with %(header)s", header="Content-Type: application/json"
            ),
        )
    body = json_object()
    try:
        checked = check_export(body)  # before the write: a long check holds no lock
        with transaction():
            result = import_export(body, group.id, checked)
    except ValidationError as error:
        raise ApiError(422, error.problems) from None
    except IntegrityError:  # the same matches imported at this very moment from elsewhere
        fail(409, gettext("Another import of these matches was saving at the same time: try again"))
    return {"matches": result.matches, "skipped": result.skipped}, 201
