"""The director's page of an event: every table of the round as it plays (live), the
next round, VP penalties, withdrawals; and the table cards with each table's scorer
link as a QR code, printed several to a sheet or shown one by one on a phone."""

from __future__ import annotations

from typing import Any, cast

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user
from flask_wtf import FlaskForm
from markupsafe import Markup
from sqlalchemy import select

from ..access import Level
from ..addresses import shared_url
from ..event_access import EventAccess, require_event
from ..event_models import EventRound, EventTable
from ..extensions import db
from ..ids import id_of, whole_number
from ..models import LinkRole, ShareLink, User
from ..services.event_lock import EventError
from ..services.event_play import add_penalty, next_round_refusal, start_round, withdraw
from ..services.event_state import EventView, RoundView, event_view
from ..services.storage import transaction
from ..validation import ValidationError
from ..words.translate import gettext
from .event_common import event_for, event_or_404, live_part, live_tag
from .qr import qr_svg, qr_svg_file

bp = Blueprint("event_director", __name__)


def _back(event_id: int) -> ResponseReturnValue:
    return redirect(url_for("event_director.detail", event_id=event_id), code=303)


def _tables_html(view: EventView, access: EventAccess) -> Markup:
    return Markup(
        render_template(
            "_event_tables.html",
            view=view,
            director=access.level >= Level.ADMIN,
            refusal=next_round_refusal(view),
        )
    )


def _page(
    event_id: int, penalty: dict[str, Any] | None = None, status: int = 200
) -> ResponseReturnValue:
    event, access = event_for(event_id, Level.MEMBER)
    view = event_view(event, late=True)
    return render_template(
        "event.html",
        view=view,
        director=access.level >= Level.ADMIN,
        tables=_tables_html(view, access),
        live_etag=live_tag(access, "tables"),
        penalty=penalty or {},
    ), status


@bp.get("/events/<int:event_id>")
def detail(event_id: int) -> ResponseReturnValue:
    return _page(event_id)


@bp.get("/events/<int:event_id>/tables")
def tables(event_id: int) -> ResponseReturnValue:
    """The live part of the director's page, for the page's script."""

    def render(access: EventAccess) -> Markup:
        return _tables_html(event_view(event_or_404(event_id)), access)

    return live_part(event_id, Level.MEMBER, "tables", render)


def _checked() -> bool:
    """A director's form with its CSRF token (an expired page says so)."""
    if FlaskForm().validate_on_submit():
        return True
    flash(gettext("This page had expired: nothing was changed. Please try again."))
    return False


@bp.post("/events/<int:event_id>/rounds")
def new_round(event_id: int) -> ResponseReturnValue:
    event_for(event_id, Level.ADMIN)
    if _checked():
        expected = whole_number(request.form.get("round"), 1, 10_000)
        try:
            with transaction():
                played = start_round(event_id, cast(User, current_user), expected)
            flash(gettext("Round %(number)s has started: give each table its card.",
                          number=str(played.number)))  # fmt: skip
        except EventError as error:
            flash(error.message)
    return _back(event_id)


@bp.post("/events/<int:event_id>/penalties")
def new_penalty(event_id: int) -> ResponseReturnValue:
    event_for(event_id, Level.ADMIN)
    sent = {
        "entry": id_of(request.form.get("entry")),
        "vp": whole_number(request.form.get("vp"), 1, 1000),
        "reason": request.form.get("reason", ""),
    }
    if not _checked():
        return _page(event_id, {"sent": request.form}, 422)
    try:
        with transaction():
            add_penalty(event_id, sent, cast(User, current_user))
    except ValidationError as error:
        problems = {problem.field: problem.message for problem in error.problems}
        return _page(event_id, {"sent": request.form, "problems": problems}, 422)
    flash(gettext("The penalty is taken off the entry's VP."))
    return _back(event_id)


@bp.post("/events/<int:event_id>/withdraw")
def withdraw_entry(event_id: int) -> ResponseReturnValue:
    event_for(event_id, Level.ADMIN)
    entry = id_of(request.form.get("entry"))
    if _checked():
        if entry is None:
            flash(gettext("Choose the entry that withdraws."))
        else:
            try:
                with transaction():
                    gone = withdraw(event_id, entry)
                flash(gettext("Entry %(number)s is withdrawn: it plays no later round.",
                              number=str(gone.number)))  # fmt: skip
            except EventError as error:
                flash(error.message)
    return _back(event_id)


# --- table cards ---------------------------------------------------------------------


def _round(view: EventView, number: int) -> RoundView:
    if not 1 <= number <= view.round:
        abort(
            404, description=gettext("This event has no round %(number)s yet.", number=str(number))
        )
    return view.rounds[number - 1]


def _scorer_tokens(match_ids: list[int]) -> dict[int, str]:
    """Each table match's first scorer link still working, in one query."""
    tokens: dict[int, str] = {}
    for match_id, token in db.session.execute(
        select(ShareLink.match_id, ShareLink.token)
        .where(
            ShareLink.match_id.in_(match_ids),
            ShareLink.role == LinkRole.SCORER,
            ShareLink.revoked_at.is_(None),
        )
        .order_by(ShareLink.id)
    ):
        tokens.setdefault(match_id, token)
    return tokens


@bp.get("/events/<int:event_id>/rounds/<int:number>/cards")
def cards(event_id: int, number: int) -> ResponseReturnValue:
    """Every table's card of a round, to print several to an A4 sheet."""
    event, _ = event_for(event_id, Level.MEMBER)
    view = event_view(event)
    played = _round(view, number)
    tokens = _scorer_tokens([table.match_id for table in played.tables])
    links = {
        match_id: shared_url("sharing.open_link", token=token) for match_id, token in tokens.items()
    }
    return render_template(
        "event_cards.html",
        view=view,
        played=played,
        links=links,
        loopback_only=any(link.loopback_only for link in links.values()),
    )


@bp.get("/events/<int:event_id>/rounds/<int:number>/tables/<int:table>")
def card(event_id: int, number: int, table: int) -> ResponseReturnValue:
    """One table's card, big on a phone, for a table that sat down late."""
    event, _ = event_for(event_id, Level.MEMBER)
    view = event_view(event)
    played = _round(view, number)
    index = next((i for i, t in enumerate(played.tables) if t.number == table), None)
    if index is None:
        abort(404, description=gettext("Round %(number)s has no table %(table)s.",
                                       number=str(number), table=str(table)))  # fmt: skip
    shown = played.tables[index]
    token = _scorer_tokens([shown.match_id]).get(shown.match_id)
    link = shared_url("sharing.open_link", token=token) if token else None
    return render_template(
        "event_card.html",
        view=view,
        played=played,
        table=shown,
        link=link,
        qr=qr_svg(link.url) if link else None,
        before=played.tables[index - 1] if index > 0 else None,
        after=played.tables[index + 1] if index + 1 < len(played.tables) else None,
    )


@bp.get("/events/<int:event_id>/rounds/<int:number>/tables/<int:table>/qr.svg")
def card_code(event_id: int, number: int, table: int) -> ResponseReturnValue:
    """The QR code of a table's scorer link, as an image of the printed card."""
    require_event(event_id, Level.MEMBER)
    match_id = db.session.execute(
        select(EventTable.match_id)
        .join(EventRound, EventRound.id == EventTable.round_id)
        .where(
            EventTable.event_id == event_id,
            EventRound.number == number,
            EventTable.number == table,
        )
    ).scalar_one_or_none()
    token = _scorer_tokens([match_id]).get(match_id) if match_id is not None else None
    if match_id is None or token is None:
        abort(404, description=gettext("This table has no scorer link."))
    response = Response(qr_svg_file(shared_url("sharing.open_link", token=token).url))
    response.mimetype = "image/svg+xml"
    response.cache_control.private = True
    response.cache_control.no_cache = True
    return response
