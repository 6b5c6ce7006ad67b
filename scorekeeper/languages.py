"""The reader's language: chosen for each request, and the chooser at the foot of every page.

In order: a signed-in user's own setting (chosen on the account page; signing in never
stores the browser's language), else the language chosen on this phone (the chooser,
kept in a cookie), else the browser's `Accept-Language`; English when none of them is a
language the app speaks. The JSON API reads the user's setting (a session or a personal
token), then `Accept-Language`. What a page shows depends on the language, so every
answer but the static files says `Vary: Accept-Language, Cookie`, and every cache and
ETag of words is keyed by the locale (`current_locale`).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    has_request_context,
    redirect,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue

from .access import caller, is_api
from .web.common import safe_next
from .words.base import reader_locale_name as current_locale
from .words.locale import DEFAULT, LANGUAGES, from_accept_language, html_lang, known

COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600  # a phone keeps its language for a year of card evenings
UNVARIED = {"assets.static"}  # fingerprinted files, the same in every language

bp = Blueprint("languages", __name__)


def reader_locale() -> str:
    """Flask-Babel's locale selector: the reader's language for this request."""
    if not has_request_context():
        return DEFAULT
    who = caller()
    # The session's user row itself (a setting saved in this request counts at once), else
    # what a token's request read of its account.
    if who.signed_in is not None:
        setting = known(who.signed_in.locale)
    else:
        setting = known(who.account.locale) if who.account is not None else None
    if setting is not None:
        return setting
    if not is_api():
        chosen = known(request.cookies.get(COOKIE))
        if chosen is not None:
            return chosen
    return from_accept_language(request.accept_languages)


@dataclass(frozen=True)
class Choice:
    """A language of the chooser: its locale, its name in itself, its link, and whether
    the page is in it."""

    locale: str
    name: str
    tag: str
    url: str
    current: bool


def chooser() -> list[Choice]:
    """The chooser's links, one per language. A link names no page to come back to: the
    chooser comes back to the page it was on by the Referer, which browsers send within
    a site (`Referrer-Policy: same-origin`), so each page carries a few bytes less."""
    now = current_locale()
    return [
        Choice(
            locale,
            name,
            html_lang(locale),
            url_for("languages.choose", locale=locale),
            locale == now,
        )
        for locale, name in LANGUAGES.items()
    ]


def _back() -> str:
    """Where the chooser comes back to: `next` if given, else the page it was on (the
    Referer, when it is a page of this site), else the home page."""
    if "next" in request.args:
        return safe_next(request.args.get("next"))
    referer = urlsplit(request.referrer or "")
    if referer.netloc != request.host or not referer.path.startswith("/"):
        return safe_next(None)
    return safe_next(referer.path + ("?" + referer.query if referer.query else ""))


@bp.get("/language/<locale>")
def choose(locale: str) -> ResponseReturnValue:
    """The chooser: this phone reads the app in `locale` from now on (a cookie), and comes
    back to the page it was on. A plain link: it works without JavaScript."""
    chosen = known(locale)
    if chosen is None:
        abort(404)
    response = redirect(_back(), code=303)
    response.set_cookie(
        COOKIE,
        chosen,
        max_age=COOKIE_AGE,
        samesite="Lax",
        secure=request.is_secure,
        httponly=True,
    )
    return response


def _vary(response: Response) -> Response:
    if request.endpoint not in UNVARIED:
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
        if is_api():
            response.vary.add("Authorization")
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.after_request(_vary)
    app.context_processor(lambda: {"page_lang": html_lang(current_locale()), "languages": chooser})
