"""History of finished matches, searched by player, partner, game, result and period;
the search is in the URL, so a view can be shared as a link."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user
from markupsafe import Markup

from ..access import login_required
from ..ids import whole_number
from ..rules import PRESETS
from ..services import listing
from ..services.groups import group_names
from ..services.history_search import RESULTS, SORTS, conditions, read_search
from ..services.listing import known_players

bp = Blueprint("history", __name__)


def _page_url(args: dict[str, str]) -> Callable[[int], str]:
    """The URL of a page of this search: its filters first, then the page."""

    def url(page: int) -> str:
        where_to: dict[str, Any] = {**args, "page": page}
        return url_for("history.index", **where_to)

    return url


@bp.get("/history")
@login_required
def index() -> ResponseReturnValue:
    stamps = listing.history_stamps(current_user.id)
    mine = [stamp.group_id for stamp in stamps]
    search = read_search(request.args)
    page = request.args.get("page", "1")
    page_number = whole_number(page, 1, 99_999) or 1
    result = None
    page_url = _page_url(search.args())
    asked = (tuple(sorted(search.args().items())), page_number)
    if not search.problems:
        result = listing.kept_for_history(
            stamps,
            ("page", asked),
            lambda: listing.history(
                mine,
                search.player or None,
                search.variant or None,
                page_number,
                where=conditions(search, mine),
                oldest_first=search.oldest_first,
                held=sum(stamp.matches for stamp in stamps),
            ),
        )
        if page_number > result.pages:
            return redirect(page_url(result.pages))
    players, groups = listing.kept_for_history(
        stamps, ("lists",), lambda: (known_players(mine), group_names(current_user))
    )

    def content() -> Markup:
        """The page but its frame: the same for everyone asking this of these groups."""
        html = render_template(
            "_history.html",
            result=result,
            search=search,
            args=search.args(),
            page_url=page_url,
            problems=search.problems,
            players=players,
            presets=list(PRESETS.values()),
            results=RESULTS,
            sorts=SORTS,
            groups=groups,
        )
        return Markup(html)

    if search.problems:
        return render_template("history.html", content=content()), 400
    shown = listing.kept_for_history(stamps, ("html", asked), content)
    return render_template("history.html", content=shown)
