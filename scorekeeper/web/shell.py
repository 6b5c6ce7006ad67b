"""What makes the app installable: the web app manifest, the service worker, the offline page."""

from __future__ import annotations

from flask import Blueprint, Response, json, render_template, url_for

from ..delivery import assets

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
        "short_name": "Scores",
        "description": "Score pad for Canasta, Samba, Buraco and their cousins.",
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
    script = render_template("sw.js", version=store.version, urls=urls)
    response = Response(script, mimetype="text/javascript")
    response.cache_control.no_cache = True
    return response


@bp.get("/offline")
def offline() -> str:
    return render_template("offline.html")
