"""What makes the app installable: the web app manifest, the service worker, the offline page,
and the words of the page's script (it says what the outbox and the live board do, in the
reader's language: the page gives it the words, the script makes none)."""

from __future__ import annotations

from flask import Blueprint, Response, json, render_template, url_for

from ..delivery import assets
from ..words.base import reader_locale_name as current_locale
from ..words.translate import gettext, pgettext

bp = Blueprint("shell", __name__)

# Cached by the service worker at install, so they are there without a network.
OFFLINE_ASSETS = ("app.css", "app.js", "icons/icon.svg", "icons/icon-192.png")


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    store = assets()
    icons = [
        {"src": store.url("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        {"src": store.url("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": store.url("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": store.url("icons/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    body = {
        "name": "Scorekeeper",
        # Translators: the app's name under its icon on a phone's home screen: keep it short.
        "short_name": pgettext("app name under its icon", "Scores"),
        "description": gettext("Score pad for Canasta, Samba, Buraco and their cousins."),
        "lang": current_locale().replace("_", "-"),
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f6f5f1",
        "theme_color": "#0a58a8",
        "icons": icons,
    }
    response = Response(json.dumps(body), mimetype="application/manifest+json")
    response.cache_control.no_cache = True
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    store = assets()
    urls = [store.url(name) for name in OFFLINE_ASSETS] + [url_for("shell.offline")]
    # Its caches are named by the language too: a phone that changes language gets a new
    # worker, which keeps the offline page (and scoreboards) in the new language.
    locale = current_locale()
    script = render_template(
        "sw.js",
        version=store.version,
        urls=urls,
        locale=locale,
        lang=locale.replace("_", "-"),
        said=outbox_words(),
    )
    response = Response(script, mimetype="text/javascript")
    response.cache_control.no_cache = True
    return response


def outbox_words() -> dict[str, str]:
    """What the service worker says about the hands it keeps, in the reader's language
    (`%(name)s` filled in by the worker)."""
    return {
        "open": gettext("Open hand %(number)s"),
        "forget": gettext("Forget it"),
        "recorded": gettext("Hand %(number)s of match %(match)s recorded."),
        "waiting": gettext(
            "Hand %(number)s of match %(match)s is waiting to be sent: it goes by itself "
            "once the connection is back."
        ),
        "asked": gettext(
            "Hand %(number)s of match %(match)s is not saved: the server asks about it."
        ),
        "refused": gettext("Hand %(number)s of match %(match)s is not saved: open it to see why."),
    }


@bp.get("/offline")
def offline() -> str:
    return render_template("offline.html")
