"""Getting pages to a phone fast: fingerprinted static files, compression, headers.

Static files are served under names that carry a hash of their content
(`app.3f9c2a1b.css`), so they can be cached for a year; a change gets a new
name. Text answers of these types are gzipped by Flask-Compress (see `app`).
"""

from __future__ import annotations

import hashlib
import mimetypes
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    url_for,
)

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

YEAR = 365 * 24 * 3600
COMPRESSIBLE = frozenset(
    {
        "text/html",
        "text/css",
        "text/javascript",
        "application/javascript",
        "application/json",
        "application/manifest+json",
        "image/svg+xml",
    }
)
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
SECURITY_LIST = [(name.lower(), (name, value)) for name, value in SECURITY_HEADERS.items()]
HSTS = "max-age=31536000"
HSTS_NAME = "strict-transport-security"
SECURE = frozenset({"https", "wss"})  # werkzeug's `is_secure` schemes

bp = Blueprint("assets", __name__)


@dataclass(frozen=True)
class Assets:
    """The static files, read once (a few small files): their contents, their
    fingerprinted names both ways, and a version for all."""

    contents: dict[str, bytes]
    hashed: dict[str, str]
    real: dict[str, str]
    version: str

    @classmethod
    def scan(cls, folder: Path) -> Assets:
        contents: dict[str, bytes] = {}
        hashed: dict[str, str] = {}
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            name = path.relative_to(folder).as_posix()
            contents[name] = path.read_bytes()
            digest = hashlib.sha256(contents[name]).hexdigest()[:10]
            stem, dot, suffix = name.rpartition(".")
            hashed[name] = f"{stem}.{digest}.{suffix}" if dot else f"{name}.{digest}"
        real = {fingerprinted: name for name, fingerprinted in hashed.items()}
        version = hashlib.sha256("".join(sorted(hashed.values())).encode()).hexdigest()[:10]
        return cls(contents, hashed, real, version)

    def url(self, name: str) -> str:
        return url_for("assets.static", filename=self.hashed[name])


def assets() -> Assets:
    store: Assets = current_app.extensions["scorekeeper_assets"]
    return store


@bp.get("/static/<path:filename>")
def static(filename: str) -> Response:
    """Fingerprinted names are cached for a year; plain names must be revalidated."""
    store = assets()
    real = store.real.get(filename)
    name = real or filename
    if name not in store.contents:
        abort(404)
    mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
    response = Response(store.contents[name], mimetype=mimetype)
    if real is not None:
        response.cache_control.max_age = YEAR
        response.cache_control.public = True
        response.cache_control.immutable = True
    else:
        response.cache_control.no_cache = True
        response.set_etag(store.hashed[name])
    return response


class SecurityHeaders:
    """WSGI middleware: every answer carries the security headers it does not set itself,
    and HSTS when it goes over HTTPS (as the request's scheme says once ProxyFix, which
    it wraps, has read the proxy's). Added to the header list the server sends: as a
    Flask hook, werkzeug checked, copied and listed each of them again, some 10 us of
    every request."""

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            names = [name.lower() for name, _ in headers]  # a handful
            headers += [pair for key, pair in SECURITY_LIST if key not in names]
            if environ["wsgi.url_scheme"] in SECURE and HSTS_NAME not in names:
                headers.append(("Strict-Transport-Security", HSTS))
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


def init_app(app: Flask, folder: Path) -> None:
    app.extensions["scorekeeper_assets"] = Assets.scan(folder)
    app.register_blueprint(bp)
    app.wsgi_app = SecurityHeaders(app.wsgi_app)  # type: ignore[method-assign]
    app.add_template_global(lambda name: assets().url(name), "asset_url")
