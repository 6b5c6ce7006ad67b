"""Getting pages to a phone fast: fingerprinted static files, compression, headers.

Static files are served under names that carry a hash of their content
(`app.3f9c2a1b.css`), so they can be cached for a year; a change gets a new
name. Text responses are gzipped for clients that accept it.
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    send_from_directory,
    url_for,
)
from werkzeug.datastructures import ETags
from werkzeug.http import parse_accept_header

from .current import this_request

try:
    from isal import isal_zlib
except ImportError:  # no ISA-L for this machine (pyproject.toml says where): see _quick
    isal_zlib = None  # type: ignore[assignment]

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
MIN_COMPRESS = 500
LEVEL = 6  # zlib's own default
SMALL_TEXT = 4096  # compressed by ISA-L at QUICK_LEVEL (see gzip_body)
QUICK_LEVEL = 1  # ISA-L's levels go from 0 to 3
TINY_TEXT = 2048  # compressed by ISA-L at TINY_LEVEL (see gzip_body)
TINY_LEVEL = 0
ZLIB_QUICK_LEVEL = 3  # zlib's level that makes about QUICK_LEVEL's bytes
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
    """The static files: their fingerprinted names, both ways, and a version for all."""

    folder: Path
    hashed: dict[str, str]
    real: dict[str, str]
    version: str

    @classmethod
    def scan(cls, folder: Path) -> Assets:
        hashed: dict[str, str] = {}
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            name = path.relative_to(folder).as_posix()
            digest = hashlib.sha256(path.read_bytes()).hexdigest()[:10]
            stem, dot, suffix = name.rpartition(".")
            hashed[name] = f"{stem}.{digest}.{suffix}" if dot else f"{name}.{digest}"
        real = {fingerprinted: name for name, fingerprinted in hashed.items()}
        version = hashlib.sha256("".join(sorted(hashed.values())).encode()).hexdigest()[:10]
        return cls(folder, hashed, real, version)

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
    if real is not None:
        response = send_from_directory(store.folder, real, max_age=YEAR)
        response.cache_control.immutable = True
        return response
    if filename not in store.hashed:
        abort(404)
    response = send_from_directory(store.folder, filename, max_age=0)
    response.cache_control.no_cache = True
    return response


GZIP_TAG = "-gzip"  # compressed answers carry their tag with this suffix


def tag_matches(tags: ETags, tag: str) -> bool:
    """Whether an If-None-Match/If-Match list names `tag`, compressed or not."""
    return tags.contains(tag) or tags.contains(tag + GZIP_TAG)


@lru_cache(maxsize=64)
def _gzip_accepted(accept_encoding: str) -> bool:
    """Read once per distinct header: a club's phones send a handful of them."""
    # Accept matches names with `in`; typed as a list of (name, quality) pairs.
    return "gzip" in parse_accept_header(accept_encoding)  # type: ignore[comparison-overlap]


def accepts_gzip() -> bool:
    return _gzip_accepted(this_request().environ.get("HTTP_ACCEPT_ENCODING", ""))


def vary_on(response: Response, name: str) -> None:
    """Add `name` to the response's Vary header, as `response.vary.add(name)` does,
    without parsing the header into a set and writing it back (most answers have
    none, or one name)."""
    headers = response.headers
    vary = headers.get("Vary")
    if vary is None:
        headers["Vary"] = name
    elif name.lower() not in (item.strip().lower() for item in vary.split(",")):
        headers["Vary"] = f"{vary}, {name}"


def gzipped(response: Response, compressed: bytes, present: set[str] | None = None) -> Response:
    """`response` with its body replaced by `compressed` (its gzip), headers to match.

    `present`, when the caller has them: the response's header names in lower case, so
    that the headers this adds are appended without looking through the others first."""
    response.set_data(compressed)
    headers = response.headers
    if present is None:
        present = {name.lower() for name, _ in headers.items()}
    if "content-encoding" in present:
        headers["Content-Encoding"] = "gzip"
    else:
        headers.add("Content-Encoding", "gzip")
    if "vary" in present:
        vary_on(response, "Accept-Encoding")
    else:
        headers.add("Vary", "Accept-Encoding")
    if "etag" in present:
        tag, weak = response.get_etag()
        if tag:
            response.set_etag(f"{tag}{GZIP_TAG}", weak=bool(weak))
    return response


def _deflate(data: bytes, gzip: bool, level: int = LEVEL) -> bytes:
    """`data` compressed (at LEVEL unless told), as gzip (whole) or as raw deflate blocks
    ending on a full flush, with a window that just holds it (32 KB at most): zlib's
    default sets up some 256 KB of tables for each text, a fifth of the work for an
    answer of a kilobyte or two, and a window larger than the text finds nothing more
    to refer to."""
    bits = max(9, min(zlib.MAX_WBITS, (len(data) - 1).bit_length()))
    memory = max(1, min(8, bits - 7))  # zlib's default 8 goes with its 32 KB window
    compressor = zlib.compressobj(level, zlib.DEFLATED, 16 + bits if gzip else -bits, memory)
    body = compressor.compress(data)
    return body + compressor.flush(zlib.Z_FINISH if gzip else zlib.Z_FULL_FLUSH)


def _quick(data: bytes, gzip: bool, level: int = QUICK_LEVEL) -> bytes:
    """`data` compressed as `_deflate` does, by ISA-L at `level`. QUICK_LEVEL makes zlib's
    format and about the bytes of zlib's level 3 for half its work or less (a scored hand
    of 1.3 KB: 444 bytes against 428, 73 K instructions against 139 K; a history page of
    3.3 KB: 1,201 bytes against 1,210, 19 us against 51). Where ISA-L is not installed
    (it has no wheel for 32-bit ARM), zlib's level 3 at any `level`: zlib's lower levels
    take about as much work."""
    if isal_zlib is None:
        return _deflate(data, gzip, ZLIB_QUICK_LEVEL)
    compressor = isal_zlib.compressobj(
        level, isal_zlib.DEFLATED, 16 + zlib.MAX_WBITS if gzip else -zlib.MAX_WBITS
    )
    body: bytes = compressor.compress(data)
    return body + compressor.flush(isal_zlib.Z_FINISH if gzip else isal_zlib.Z_FULL_FLUSH)


def gzip_body(body: bytes) -> bytes:
    """gzip, with no name or time in the header (the same body gives the same bytes).

    A text of 4 KB at most comes to a kilobyte or so, one packet on the phone's line
    whether compressed a little better or not: it is compressed the quick way
    (`_quick`). One of 2 KB at most (a scored hand, a short answer) takes ISA-L's
    quickest level, whose bytes, some 45% of the text's, still fit that one packet with
    the headers: a scored hand of 1.3 KB comes to 595 bytes against level 1's 443, for
    29 K instructions against 71 K. Larger texts, whose bytes do count, take zlib's
    level 6."""
    size = len(body)
    if size <= TINY_TEXT:
        return _quick(body, gzip=True, level=TINY_LEVEL)
    return _quick(body, gzip=True) if size <= SMALL_TEXT else _deflate(body, gzip=True)


GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"  # no name, time or flags
LAST_BLOCK = b"\x03\x00"  # an empty final deflate block: the stream ends here
Piece = tuple[bytes | None, bytes]  # a part of a text: (its deflated blocks when kept, text)


def deflated(data: bytes) -> bytes:
    """`data` as deflate blocks of their own, ending on a byte (a full flush): such runs
    of blocks can follow one another in one stream. At LEVEL: they are made once and
    kept."""
    return _deflate(data, gzip=False)


def gzip_pieces(pieces: Sequence[Piece]) -> bytes:
    """The gzip of the pieces' texts joined, where a piece that comes with its deflated
    blocks (`deflated` of its text, made once and kept by the caller) is not compressed
    again, and the others between them are compressed together: a long text that
    changes in a few places is compressed only there. Each run of blocks starts afresh,
    so the result is a little larger than `gzip_body` of the whole (a few per cent for
    pieces of some kilobytes). The loose runs, compressed for every text, are compressed
    the quick way (`_quick`): half the work, for some 20% more of their bytes than level
    6 (mostly a short run: the few hands since the last kept group)."""
    out = [GZIP_HEADER]
    check, size, loose = 0, 0, []
    for block, data in pieces:
        check, size = zlib.crc32(data, check), size + len(data)
        if block is None:
            loose.append(data)
            continue
        if loose:
            out.append(_quick(b"".join(loose), gzip=False))
            loose = []
        out.append(block)
    if loose:
        out.append(_quick(b"".join(loose), gzip=False))
    out += [LAST_BLOCK, struct.pack("<II", check, size & 0xFFFFFFFF)]
    return b"".join(out)


def _compress(response: Response) -> Response:
    """gzip the body when the client takes it and it is text worth compressing."""
    present = {name.lower() for name, _ in response.headers.items()}  # one walk of them
    if (
        response.status_code in (204, 206, 304)
        or "content-encoding" in present
        or not accepts_gzip()
        or response.mimetype not in COMPRESSIBLE
    ):
        return response
    kept = response.response
    if type(kept) is list and len(kept) == 1 and type(kept[0]) is bytes:
        body = kept[0]  # as `set_data` keeps a body (a JSON answer, a page): read as it is
    else:
        response.direct_passthrough = False
        body = response.get_data()
        response.close()  # a static file is read whole by now: let it go
    if len(body) < MIN_COMPRESS:
        return response
    return gzipped(response, gzip_body(body), present)


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
    app.after_request(_compress)
    app.wsgi_app = SecurityHeaders(app.wsgi_app)  # type: ignore[method-assign]
    app.add_template_global(lambda name: assets().url(name), "asset_url")
