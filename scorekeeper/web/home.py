"""Home: matches in progress, a new match, recent results."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..services import listing

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    return render_template(
        "home.html",
        playing=listing.in_progress(),
        recent=listing.history().items[:5],
    )
