"""Starting a match and its scoreboard."""

from __future__ import annotations

from dataclasses import dataclass

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_login import current_user
from markupsafe import Markup
from werkzeug.exceptions import HTTPException

from .. import words
from ..access import Level, MatchAccess, login_required, require_match
from ..cache import LruCache
from ..models import User
from ..rules import PRESETS
from ..services import bgstats, groups
from ..services.audit import CHANGES, audit_rows
from ..services.events import TableMark, mark_text, table_mark
from ..services.listing import known_players
from ..services.match_setup import create_match
from ..services.match_state import MatchState, match_state
from ..services.seated import board_view
from ..services.storage import StorageUnavailable, transaction
from ..validation import ValidationError
from ..words.translate import gettext
from .chances import ChanceQuestion, chance_question
from .charts import running_totals_chart
from .common import LAST_GROUP, add_problems, match_or_404
from .match_form import field_for_problem as match_field_for_problem
from .match_form import (
    match_form_class,
    meld_table_problems,
    option_fields,
    seats,
    setup_from_form,
)

bp = Blueprint("matches", __name__, url_prefix="/matches")


@bp.get("/new")
@login_required
def choose_variant() -> ResponseReturnValue:
    return render_template("new_match_choose.html", presets=list(PRESETS.values()))


@bp.route("/new/<key>", methods=["GET", "POST"])
@login_required
def new(key: str) -> ResponseReturnValue:
    preset = PRESETS.get(key)
    if preset is None:
        abort(404, description=gettext("There is no game called %(name)s.", name=repr(key)))
    layout_key = request.args.get("layout", "")
    layout = next((lay for lay in preset.layouts if lay.key == layout_key), preset.layouts[0])
    user: User = current_user
    mine = groups.groups_of(user)
    choices = [(view.group.id, view.group.name) for view in mine] if len(mine) > 1 else None
    form = match_form_class(preset, layout, choices)()
    if choices and request.method == "GET":
        form.group.data = str(_group_last_used(user, [i for i, _ in choices]))
    top: list[str] = []
    status = 422
    if form.validate_on_submit():
        sides, options, dealer = setup_from_form(preset, layout, form.data)
        group_id = int(form.group.data) if choices else mine[0].group.id
        try:
            with transaction():
                match = create_match(
                    key, options, sides, dealer, group_id=group_id, creator_id=user.id
                )
            session[LAST_GROUP] = group_id
            return redirect(url_for("matches.scoreboard", match_id=match.id), code=303)
        except ValidationError as error:
            table_problems = [p for p in error.problems if p.field == "options.meld_minimums"]
            others = [p for p in error.problems if p not in table_problems]
            top = add_problems(form, others, lambda p: match_field_for_problem(layout, p))
            if table_problems:
                for name, message in meld_table_problems(preset, form.data):
                    form[name].errors = [*form[name].errors, message]
        except StorageUnavailable as error:
            top.append(gettext("%(problem)s Your entries are kept below.", problem=error.message))
            status = 503
    elif form.errors.get("csrf_token"):
        top.append(gettext("This form had expired. Please check it and start the match again."))
    inputs = option_fields(preset)
    status = status if request.method == "POST" else 200
    return render_template(
        "new_match.html",
        preset=preset,
        layout=layout,
        form=form,
        seats=seats(layout),
        options=inputs,
        options_open=any(form[name].errors for option in inputs for name in option.fields),
        more_open=any(
            form[name].errors for option in inputs if not option.common for name in option.fields
        ),
        players=known_players([view.group.id for view in mine]),
        top_errors=top,
    ), status


def _group_last_used(user: User, offered: list[int]) -> int:
    """The group a new match is offered in: the one last used in this browser (a group
    page opened, a match started), else that of the user's last match, else the first
    (the personal group)."""
    remembered = session.get(LAST_GROUP)
    if isinstance(remembered, int) and remembered in offered:
        return remembered
    last = groups.last_match_group(user)
    return last if last in offered else offered[0]


HANDS_SHOWN = 50  # rows of the hand table at once: a long match stays one light page


@dataclass(frozen=True)
class HandWindow:
    """The hands the table shows (`first` to `last`, numbers from 1), and where the
    earlier and later ones are (`hands=` of the scoreboard's URL, None: the latest)."""

    first: int
    last: int
    earlier: int | None
    later: int | None
    latest: bool

    @classmethod
    def of(cls, count: int, start: int | None) -> HandWindow:
        if start is None or start + HANDS_SHOWN > count:
            first = max(1, count - HANDS_SHOWN + 1)
            latest = True
        else:
            first, latest = max(1, start), False
        last = min(count, first + HANDS_SHOWN - 1)
        earlier = max(1, first - HANDS_SHOWN) if first > 1 else None
        later = None if latest else last + 1
        return cls(first, last, earlier, later, latest)


def _hands_param() -> int | None:
    raw = request.args.get("hands", "")
    return int(raw) if raw.isascii() and raw.isdigit() and 0 < int(raw) < 1_000_000 else None


BOARDS = "scorekeeper.boards"  # app.extensions: rendered live boards
VIEWS = "scorekeeper.scoreboards"  # app.extensions: what scoreboards show (ScoreboardView)
BOARDS_KEPT = 512


@dataclass(frozen=True)
class ScoreboardView:
    """What the scoreboard shows of the match: the same for everyone with one access level
    at one revision (in one language), so made once and kept, as the live board is."""

    match_id: int
    game: str
    sides: tuple[tuple[str, int], ...]  # name, total
    seats: tuple[str, ...]
    board: Markup
    live: bool  # the latest hands: the page follows the match
    over: bool  # the game is over: a rematch is offered
    next_dealer: str
    bgstats: str | None  # a finished match's link to log it in BG Stats
    chances: ChanceQuestion | None  # answered at each reading: ratings move meanwhile
    table: TableMark | None  # a table match's event, round and table
    table_text: str | None


@bp.get("/<int:match_id>")
def scoreboard(match_id: int) -> ResponseReturnValue:
    access = require_match(match_id, Level.VIEWER)
    start = _hands_param()

    def make() -> ScoreboardView:
        state = match_state(match_or_404(match_id))
        table = table_mark(match_id)
        window = HandWindow.of(len(state.hands), start)
        return ScoreboardView(
            match_id=match_id,
            game=words.game_name(state.rules.key),
            sides=tuple((side.name, side.total) for side in state.sides),
            seats=tuple(state.table_order),
            board=live_board(access, state, window),
            live=window.latest,  # an earlier page of hands is history: it does not follow
            over=state.over,
            next_dealer=state.next_dealer,
            bgstats=bgstats.play_link(state),
            chances=chance_question(state.match),
            table=table,
            table_text=mark_text(table) if table is not None else None,
        )

    views: LruCache[tuple[str, int | None, str], ScoreboardView] = current_app.extensions[VIEWS]
    view = views.get((board_etag(access), start, str(get_locale())), make)
    return render_template(
        "scoreboard.html",
        view=view,
        level=access.level,
        etag=board_etag(access),
        chances=view.chances.answer() if view.chances else None,
    )


def board_etag(access: MatchAccess) -> str:
    """Names every input of a live board's bytes: the match (its uid, never reused),
    its revision (moved on by every write), what the caller may do with it and the
    language it is written in (a phone in Italian never gets the Portuguese board's 304)."""
    return f"{access.uid}.{access.revision}.{int(access.level)}.{words.reader_locale_name()}"


def live_board(access: MatchAccess, state: MatchState, window: HandWindow | None = None) -> Markup:
    """The live part of the scoreboard, rendered once per ETag and hand window and shared
    by every phone following the match (`state`: the match at the access's revision)."""

    def render() -> Markup:
        shown = window or HandWindow.of(len(state.hands), None)
        changes = audit_rows(state.match, actions=CHANGES)
        running = [row.running for row in state.hands]
        html = render_template(
            "_board.html",
            seating=board_view(state.match, state.rules, running),
            state=state,
            rows=state.hands[shown.first - 1 : shown.last],
            window=shown,
            audit=changes,
            level=access.level,
            etag=board_etag(access),
            chart=running_totals_chart(
                [side.name for side in state.sides], [row.running for row in state.hands]
            ),
        )
        return Markup(html)

    if state.match.revision != access.revision:  # a write came in between: not kept
        return render()
    return kept_boards().get(_board_key(access, window), render)


def kept_boards() -> LruCache[tuple[str, int | None, str], Markup]:
    boards: LruCache[tuple[str, int | None, str], Markup] = current_app.extensions[BOARDS]
    return boards


def _board_key(access: MatchAccess, window: HandWindow | None) -> tuple[str, int | None, str]:
    shown = window.first if window is not None and not window.latest else None
    return (board_etag(access), shown, str(get_locale()))


@bp.get("/<int:match_id>/board")
def board(match_id: int) -> ResponseReturnValue:
    """The live part of the scoreboard, for phones following it; 304 while nothing changed.

    Fetched by the page's script: a caller who lost access (a revoked link) gets a 401,
    not the sign-in page.
    """
    try:
        access = require_match(match_id, Level.VIEWER)
    except HTTPException as refused:
        if refused.response is not None:  # the redirect to the sign-in page
            abort(401, description=gettext("You can no longer follow this match."))
        raise
    etag = board_etag(access)
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:
        # Kept: the match is not read at all (every phone at a table fetches the same board
        # after each hand). Else read at this revision and rendered.
        html = kept_boards().find(_board_key(access, None)) or live_board(
            access, match_state(match_or_404(match_id))
        )
        response = Response(html, mimetype="text/html")
    response.set_etag(etag, weak=True)
    response.cache_control.no_cache = True
    response.cache_control.private = True
    return response


def init_app(app: Flask) -> None:
    app.extensions[BOARDS] = LruCache(BOARDS_KEPT)
    app.extensions[VIEWS] = LruCache(BOARDS_KEPT)
