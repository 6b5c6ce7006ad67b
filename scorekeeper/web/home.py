"""Home: matches in progress, a new match, recent results."""

from __future__ import annotations

from flask import Blueprint, render_template
from flask.typing import ResponseReturnValue
from flask_login import current_user

from ..access import login_required
from ..services import listing
from ..services.groups import group_ids

bp = Blueprint("home", __name__)


@bp.get("/")
@login_required
def index() -> ResponseReturnValue:
    mine = group_ids(current_user)
    return render_template(
        "home.html",
        playing=listing.in_progress(mine),
        recent=listing.recent(mine),
    )
