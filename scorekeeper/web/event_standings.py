"""An event's standings for everyone who may see them (its group, and whoever holds its
viewer link): the standings page and the projector view, both following the results
live; each entry's card round by round; the ranking as CSV; the viewer links."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

from flask import Blueprint, Response, abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user
from flask_wtf import FlaskForm
from markupsafe import Markup

from ..access import Level
from ..addresses import shared_url
from ..event_access import EventAccess, grant_event_link, require_event
from ..services import event_links
from ..services.event_state import EventView, entry_label, entry_players, event_view
from ..services.storage import transaction
from ..words.translate import gettext
from .event_common import event_for, event_or_404, live_part, live_tag, shared_part
from .qr import qr_svg, shown_links

bp = Blueprint("event_standings", __name__)

PROJECTOR_ROWS = 20  # entries a column of the projector view holds (two columns: 40)


def _viewer_link(event_id: int) -> tuple[str, object] | None:
    """The event's first viewer link with its QR code, when it has one."""
    links = event_links.links_of(event_id)
    if not links:
        return None
    url = shared_url("event_standings.open_link", token=links[0].token).url
    return url, qr_svg(url)


def _standings_html(view: EventView, access: EventAccess) -> Markup:
    return Markup(render_template("_event_standings.html", view=view))


def _projector_html(view: EventView, access: EventAccess) -> Markup:
    columns = max(1, -(-len(view.entries) // PROJECTOR_ROWS))
    return Markup(render_template("_event_projector.html", view=view, columns=columns))


@bp.get("/events/<int:event_id>/standings")
def standings(event_id: int) -> ResponseReturnValue:
    event, access = event_for(event_id, Level.VIEWER)
    view = event_view(event)
    return render_template(
        "event_standings.html",
        view=view,
        member=access.level >= Level.MEMBER,
        live=_standings_html(view, access),
        etag=live_tag(access, "standings"),
        viewer_link=_viewer_link(event_id),
    )


def _shared_live(
    event_id: int, part: str, html: Callable[[EventView, EventAccess], Markup]
) -> ResponseReturnValue:
    """A live part every viewer of the event is sent alike, made from the event's view."""

    def render(access: EventAccess) -> Markup:
        def make() -> tuple[Markup, str]:
            view = event_view(event_or_404(event_id))
            return html(view, access), view.etag

        return shared_part(access, part, make)

    return live_part(event_id, Level.VIEWER, part, render)


@bp.get("/events/<int:event_id>/standings/live")
def standings_live(event_id: int) -> ResponseReturnValue:
    return _shared_live(event_id, "standings", _standings_html)


@bp.get("/events/<int:event_id>/projector")
def projector(event_id: int) -> ResponseReturnValue:
    event, access = event_for(event_id, Level.VIEWER)
    view = event_view(event)
    return render_template(
        "event_projector.html",
        view=view,
        live=_projector_html(view, access),
        etag=live_tag(access, "projector"),
    )


@bp.get("/events/<int:event_id>/projector/live")
def projector_live(event_id: int) -> ResponseReturnValue:
    return _shared_live(event_id, "projector", _projector_html)


@bp.get("/events/<int:event_id>/entries/<int:number>")
def entry_card(event_id: int, number: int) -> ResponseReturnValue:
    """An entry's card, round by round: opponent (or bye), MP for and against, VP."""
    event, _ = event_for(event_id, Level.VIEWER)
    view = event_view(event)
    entry = view.by_number.get(number)
    if entry is None:
        abort(404, description=gettext("This event has no entry %(number)s.", number=str(number)))
    row = next(row for row in view.standings if row.entry == number)
    return render_template(
        "event_entry.html",
        view=view,
        entry=entry,
        row=row,
        lines=view.card(entry),
        penalties=[p for p in event.penalties if p.entry_id == entry.id],
    )


@bp.get("/events/<int:event_id>/standings.csv")
def standings_csv(event_id: int) -> ResponseReturnValue:
    """The ranking as a spreadsheet opens it: one row per entry, best first."""
    event, _ = event_for(event_id, Level.VIEWER)
    view = event_view(event)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["rank", "entry", "name", "players", "vp", "mp_diff", "mp", "played", "withdrawn"]
    )
    for row in view.standings:
        entry = view.by_number[row.entry]
        writer.writerow(
            [
                row.rank,
                row.entry,
                entry_label(entry),
                " & ".join(entry_players(entry)),
                row.vp,
                row.mp_diff,
                row.mp,
                row.played,
                "yes" if entry.withdrawn else "no",
            ]
        )
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="event-{event_id}.csv"'
    return response


# --- viewer links --------------------------------------------------------------------


@bp.get("/events/<int:event_id>/share")
def share(event_id: int) -> ResponseReturnValue:
    event, _ = event_for(event_id, Level.MEMBER)
    links, loopback_only = shown_links(event_links.links_of(event_id), "event_standings.open_link")
    return render_template(
        "event_share.html", event=event, links=links, loopback_only=loopback_only
    )


@bp.post("/events/<int:event_id>/share")
def new_link(event_id: int) -> ResponseReturnValue:
    require_event(event_id, Level.MEMBER)
    if FlaskForm().validate_on_submit():
        with transaction():
            event_links.new_link(event_id, current_user)
        flash(gettext("A viewer link is ready: whoever opens it sees the standings."))
    return redirect(url_for("event_standings.share", event_id=event_id), code=303)


@bp.post("/events/<int:event_id>/share/<int:link_id>/revoke")
def revoke_link(event_id: int, link_id: int) -> ResponseReturnValue:
    require_event(event_id, Level.MEMBER)
    if FlaskForm().validate_on_submit():
        with transaction():
            done = event_links.revoke_link(event_id, link_id)
        flash(
            gettext("The link stopped working.")
            if done
            else gettext("That link was already revoked.")
        )
    return redirect(url_for("event_standings.share", event_id=event_id), code=303)


@bp.get("/e/<token>")
def open_link(token: str) -> ResponseReturnValue:
    """An event's viewer link opened on a phone: this browser may follow its standings."""
    link = event_links.open_link(token)
    if link is None:
        abort(404, description=gettext("This link does not work: it was revoked, or is mistyped."))
    grant_event_link(link)
    return redirect(url_for("event_standings.standings", event_id=link.event_id))
