"""History of finished matches, filtered by player and variant."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from ..access import login_required
from ..rules import PRESETS
from ..services import listing

bp = Blueprint("history", __name__)


@bp.get("/history")
@login_required
def index() -> ResponseReturnValue:
    stamps = listing.history_stamps(current_user.id)
    player = request.args.get("player", "").strip()[:40] or None
    variant: str | None = request.args.get("variant", "").strip()
    if variant not in PRESETS:
        variant = None
    page = request.args.get("page", "1")
    page_number = int(page) if page.isdigit() and 0 < int(page) < 100_000 else 1
    view = listing.history_view(stamps, player, variant, page_number)
    result = view.result
    if page_number > result.pages:
        last = url_for("history.index", player=player, variant=variant, page=result.pages)
        return redirect(last)
    return render_template(
        "history.html",
        result=result,
        player=player or "",
        variant=variant or "",
        players=view.players,
        presets=list(PRESETS.values()),
    )
