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
from typing import Any

from flask import Flask, abort, request
from markupsafe import Markup

from .lan import lan_address
from .rules.text import printable, unstorable
from .words import number, refusal
from .words.translate import gettext

MAX_URL_LENGTH = 8000  # under gunicorn's request line (8190), so that the app answers first
LOCAL_HOSTS = ("localhost", "127.0.0.1")


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


def _check_url() -> None:
    raw = request.environ.get("RAW_URI") or request.full_path
    if len(raw) > MAX_URL_LENGTH:
        abort(
            414,
            description=gettext(
                "The address is too long (more than %(count)s characters).",
                count=number(MAX_URL_LENGTH),
            ),
        )
    for key, value in request.args.items(multi=True):
        for text in (key, value):
            problem = unstorable(text)
            if problem is not None:
                abort(
                    400,
                    description=gettext(
                        "The query parameter %(name)s %(problem)s.",
                        name=repr(key),
                        problem=refusal(problem),
                    ),
                )


def _printable(value: Any) -> Any:
    """Rendering: text stored before it was checked may hold what UTF-8 cannot encode."""
    if isinstance(value, str) and unstorable(value) is not None:
        cleaned = printable(value)
        return Markup(cleaned) if isinstance(value, Markup) else cleaned
    return value


def init_app(app: Flask) -> None:
    app.before_request(_check_url)
    app.jinja_env.finalize = _printable
