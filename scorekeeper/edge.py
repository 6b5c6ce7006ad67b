"""What comes in is checked at the door: the Host, the URL, text that cannot be stored.

- Only the names the server is meant to answer are served (localhost, this
  machine's LAN address as `make run` prints it, and `SCOREKEEPER_HOSTS`), so a
  web page elsewhere cannot reach the app through DNS rebinding.
- Over-long URLs, and text a database cannot store (a NUL byte, half a UTF-16
  surrogate pair) in the query string, are refused with a clear 400/414
  before any view runs; JSON bodies are checked where they are read.
- Whatever was stored before these checks existed still renders.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Collection
from typing import Any, NamedTuple

from flask import Flask, abort
from markupsafe import Markup
from werkzeug.wsgi import get_host

from .current import this_request
from .lan import lan_address
from .rules.text import printable, unstorable
from .words import refusal

MAX_URL_LENGTH = 8192
LOCAL_HOSTS = ("localhost", "127.0.0.1")
ACCEPTED_HOSTS = 256  # distinct Host values remembered as accepted


def default_hosts() -> list[str]:
    """The names a server started on this machine answers to without configuration."""
    hostname = socket.gethostname()
    names = [*LOCAL_HOSTS, lan_address(), hostname, f"{hostname}.local"]
    return list(dict.fromkeys(name for name in names if name))


def configured_hosts(raw: str | None) -> list[str]:
    """`SCOREKEEPER_HOSTS`: names separated by commas; ".example.org" allows its subdomains."""
    return [name.strip() for name in (raw or "").split(",") if name.strip()]


def trusted_hosts(app: Flask) -> list[str] | None:
    """The Host allow-list, or None when the operator allows any host ("*")."""
    extra = configured_hosts(os.environ.get("SCOREKEEPER_HOSTS"))
    extra += configured_hosts(app.config.get("SCOREKEEPER_HOSTS"))
    if "*" in extra:
        return None
    return list(dict.fromkeys([*default_hosts(), *extra]))


class HostCheck:
    """werkzeug's Host check against the allow-list, made once per distinct Host.

    werkzeug IDNA-encodes every allowed name on every request (4 us for this machine's
    names, 12 us for a public name after them), and the URL map's binding finds the
    host and IDNA-encodes it again. Both answers depend only on the request's scheme,
    Host header and server address, and the list: an accepted host is remembered with
    the name the URL map binds to, and all are forgotten when the list changes. A
    refused host is never remembered: it is checked, and refused, every time.
    """

    def __init__(self) -> None:
        self._accepted: tuple[tuple[str, ...], dict[tuple[Any, ...], Host]] = ((), {})

    def host(self, environ: dict[str, Any], trusted: Collection[str]) -> Host:
        """`werkzeug.wsgi.get_host(environ, trusted)` (or SecurityError, a 400), with the
        name `Map.bind_to_environ` binds to (None when werkzeug's binding would fail)."""
        names = tuple(trusted)
        allowed, accepted = self._accepted  # one read: a list change replaces both
        if names != allowed:
            accepted = {}
            self._accepted = (names, accepted)
        key = (
            environ["wsgi.url_scheme"],
            environ.get("HTTP_HOST"),
            environ.get("SERVER_NAME"),
            environ.get("SERVER_PORT"),
        )
        host = accepted.get(key)
        if host is None:
            name = get_host(environ, trusted)  # the host werkzeug's binding finds too
            host = Host(name, _bound_name(name))
            if len(accepted) < ACCEPTED_HOSTS:
                accepted[key] = host
        return host


class Host(NamedTuple):
    name: str  # the request's host, as `request.host`
    bound: str | None  # the name a URL map binds to for it


def _bound_name(host: str) -> str | None:
    """The server name `Map.bind` makes of a request's host: lower case, the name part
    IDNA-encoded (None when it cannot be, where werkzeug raises BadHost)."""
    name, colon, port = host.lower().partition(":")
    try:
        return name.encode("idna").decode("ascii") + colon + port
    except UnicodeError:
        return None


def wsgi_text(environ: dict[str, Any], name: str) -> str | None:
    """A WSGI environ string as werkzeug reads it for routing (latin-1 bytes as UTF-8)."""
    value = environ.get(name)
    return None if value is None else value.encode("latin1").decode(errors="replace")


def _check_url() -> None:
    current = this_request()
    environ = current.environ
    raw = environ.get("RAW_URI") or current.full_path
    if len(raw) > MAX_URL_LENGTH:
        abort(414, description=f"The address is too long (more than {MAX_URL_LENGTH} characters).")
    if not environ.get("QUERY_STRING"):
        return  # no query: nothing to parse (most requests, every live board poll)
    for key, value in current.args.items(multi=True):
        for text in (key, value):
            problem = unstorable(text)
            if problem is not None:
                abort(400, description=f"The query parameter {key!r} {refusal(problem)}.")


def _printable(value: Any) -> Any:
    """Rendering: text stored before it was checked may hold what UTF-8 cannot encode."""
    if isinstance(value, str) and unstorable(value) is not None:
        cleaned = printable(value)
        return Markup(cleaned) if isinstance(value, Markup) else cleaned
    return value


def init_app(app: Flask) -> None:
    if "TRUSTED_HOSTS" not in app.config or app.config["TRUSTED_HOSTS"] is None:
        app.config["TRUSTED_HOSTS"] = trusted_hosts(app)
    app.before_request(_check_url)
    app.jinja_env.finalize = _printable
