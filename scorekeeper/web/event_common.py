"""What the event pages share: the event read for a caller, the live parts they poll
(304 while the event's state is the same), and the words templates ask for."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Flask, Response, abort, current_app, request
from flask_babel import get_locale
from markupsafe import Markup
from werkzeug.exceptions import HTTPException

from .. import words
from ..access import Level
from ..cache import LruCache
from ..event_access import EventAccess, require_event
from ..event_models import Event
from ..services.event_state import entry_label, load_event
from ..words import clubs as club_words
from ..words.translate import gettext

bp = Blueprint("event_words", __name__)  # no routes: the filters and globals of event pages
PARTS = "scorekeeper.event_parts"  # app.extensions: rendered standings and projector parts
PARTS_KEPT = 256


@bp.app_template_filter("num")
def num(value: int) -> str:
    """A number as the reader writes it."""
    return words.number(value)


@bp.app_template_filter("signed_num")
def signed_num(value: int) -> str:
    """A difference with its sign: +150, -30, 0."""
    return "+" + words.number(value) if value > 0 else words.number(value)


for name, function in (
    ("movement_name", club_words.movement_name),
    ("vp_table_text", club_words.vp_table_text),
    ("event_status_text", club_words.event_status_text),
    ("table_status_text", club_words.table_status_text),
    ("entry_label", entry_label),
):
    bp.add_app_template_global(function, name)


def event_or_404(event_id: int) -> Event:
    event = load_event(event_id)
    if event is None:
        abort(404, description=gettext("There is no event %(id)s.", id=str(event_id)))
    return event


def event_for(event_id: int, need: Level) -> tuple[Event, EventAccess]:
    """The event if the caller may do what `need` says with it (else sign in, 404, 403)."""
    access = require_event(event_id, need)
    return event_or_404(event_id), access


def live_tag(access: EventAccess, part: str) -> str:
    """Names every input of a live part's bytes: the event's state, the part, the level."""
    return f"{access.etag}.{part}.{int(access.level)}"


def live_part(
    event_id: int, need: Level, part: str, render: Callable[[EventAccess], str]
) -> Response:
    """A live part of an event page for the page's script: 304 while nothing changed; a
    caller who lost access (a revoked link) gets a 401, not the sign-in page."""
    try:
        access = require_event(event_id, need)
    except HTTPException as refused:
        if refused.response is not None:  # the redirect to the sign-in page
            abort(401, description=gettext("You can no longer follow this event."))
        raise
    tag = live_tag(access, part)
    if request.if_none_match.contains_weak(tag):
        response = Response(status=304)
    else:
        response = Response(render(access), mimetype="text/html")
    response.set_etag(tag, weak=True)
    response.cache_control.no_cache = True
    response.cache_control.private = True
    return response


def shared_part(access: EventAccess, part: str, make: Callable[[], tuple[Markup, str]]) -> Markup:
    """A live part the same for every caller of one level (no form, no token in it),
    rendered once per event state and language and kept for the others following it:
    `make` gives the part and the state it was made from, kept only when that is the
    state the caller's tag names (a write in between: made again next time)."""
    parts: LruCache[tuple[str, str], Markup] = current_app.extensions[PARTS]
    key = (live_tag(access, part), str(get_locale()))
    found = parts.find(key)
    if found is not None:
        return found
    html, state = make()
    if state == access.etag:
        parts.put(key, html)
    return html


def init_app(app: Flask) -> None:
    app.extensions[PARTS] = LruCache(PARTS_KEPT)
