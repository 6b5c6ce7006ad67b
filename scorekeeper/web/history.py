"""History of finished matches, searched by player, partner, game, result and period;
the search is in the URL, so a view can be shared as a link."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from ..access import login_required
from ..rules import PRESETS
from ..services import listing
from ..services.events import events_in
from ..services.groups import group_ids, group_names
from ..services.history_search import RESULTS, SORTS, HistorySearch, conditions, read_search
from ..services.leagues import leagues_of
from ..services.listing import Cursor
from ..services.match_scope import read_scope
from ..words import number
from ..words.translate import gettext, ngettext

bp = Blueprint("history", __name__)


@bp.app_template_global()
def found_text(count: int, search: HistorySearch, results: Mapping[str, str]) -> str:
    """What a history search found: "12 matches with Ann partnered with Bo, won"."""
    matches = ngettext("%(count)s match", "%(count)s matches", count, count=number(count))
    if search.player and search.partner:
        matches = gettext(
            "%(matches)s with %(player)s partnered with %(partner)s",
            matches=matches,
            player=search.player,
            partner=search.partner,
        )
    elif search.player:
        matches = gettext("%(matches)s with %(player)s", matches=matches, player=search.player)
    if search.result:
        return gettext("%(matches)s, %(result)s.", matches=matches, result=results[search.result])
    return gettext("%(matches)s.", matches=matches)


@bp.get("/history")
@login_required
def index() -> ResponseReturnValue:
    mine = sorted(group_ids(current_user))
    search = read_search(request.args)
    seasons = leagues_of(mine)
    events = events_in(mine)
    season = read_scope(request.args, seasons, search.problems, events)
    after = Cursor.read(request.args.get("after", ""))
    before = Cursor.read(request.args.get("before", "")) if after is None else None
    result = None
    if not search.problems:
        result = listing.history(
            mine,
            search.player or None,
            search.variant or None,
            where=conditions(search, mine) + (season.scope.conditions() if season.scope else []),
            oldest_first=search.oldest_first,
            after=after,
            before=before,
        )

    def page_url(**cursor: str) -> str:
        values: dict[str, Any] = {**search.args(), **cursor}
        return url_for("history.index", **values)

    html = render_template(
        "history.html",
        result=result,
        search=search,
        args=search.args(),
        page_url=page_url,
        problems=search.problems,
        players=listing.known_players(mine),
        presets=list(PRESETS.values()),
        results=RESULTS,
        sorts=SORTS,
        groups=group_names(current_user),
        leagues=seasons,
        events=events,
    )
    return html, 400 if search.problems else 200
