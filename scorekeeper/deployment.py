"""Settings for serving on the internet behind a TLS-terminating proxy (see deploy/).

- `SCOREKEEPER_PUBLIC_URL` (e.g. https://scores.example.org): the address players use.
  Its host is served (added to the Host allow-list); with https, cookies are sent only
  over HTTPS and links are built with https.
- `SCOREKEEPER_PROXIES`: how many proxies are in front (Caddy alone: 1); their
  X-Forwarded-For/-Proto/-Host headers are then believed (werkzeug's ProxyFix).
- `SECRET_KEY` must be set explicitly for such a server (all app servers behind one
  proxy share it); a LAN server keeps the key it makes in instance/secret_key.
- `SCOREKEEPER_RATELIMIT_STORAGE`: where the sign-in rate limits are counted
  (memory:// by default; redis://host:6379 when several app servers share them).
Answers over HTTPS also carry HSTS (`delivery.SecurityHeaders`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

REMEMBERED_FOR = timedelta(days=400)  # "keep me signed in": the phone stays signed in


class ConfigurationError(RuntimeError):
    """The server cannot start safely as configured; the message says what to set."""


def from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    config: dict[str, Any] = {}
    if environ.get("SCOREKEEPER_PUBLIC_URL"):
        config["SCOREKEEPER_PUBLIC_URL"] = environ["SCOREKEEPER_PUBLIC_URL"]
    if environ.get("SCOREKEEPER_PROXIES"):
        config["SCOREKEEPER_PROXIES"] = environ["SCOREKEEPER_PROXIES"]
    if environ.get("SCOREKEEPER_RATELIMIT_STORAGE"):
        config["RATELIMIT_STORAGE_URI"] = environ["SCOREKEEPER_RATELIMIT_STORAGE"]
    return config


def configure(app: Flask, secret_given: bool) -> None:
    """Apply the deployment settings; refuse to start an internet server without SECRET_KEY."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    app.config.setdefault("REMEMBER_COOKIE_DURATION", REMEMBERED_FOR)
    app.config.setdefault("REMEMBER_COOKIE_SAMESITE", "Lax")
    public = app.config.get("SCOREKEEPER_PUBLIC_URL") or ""
    try:
        proxies = int(app.config.get("SCOREKEEPER_PROXIES") or 0)
    except ValueError:
        raise ConfigurationError("SCOREKEEPER_PROXIES must be a whole number") from None
    if (public or proxies) and not secret_given:
        raise ConfigurationError(
            "Set SECRET_KEY (a long random string, e.g. from `python3 -c 'import secrets; "
            "print(secrets.token_hex(32))'`): this server is configured for the internet "
            "(SCOREKEEPER_PUBLIC_URL or SCOREKEEPER_PROXIES), where the key must be chosen "
            "and shared by every app server."
        )
    if public:
        parts = urlsplit(public)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigurationError(f"SCOREKEEPER_PUBLIC_URL is not an address: {public!r}")
        hosts = app.config.get("SCOREKEEPER_HOSTS") or ""
        app.config["SCOREKEEPER_HOSTS"] = ",".join(filter(None, [hosts, parts.hostname]))
        if parts.scheme == "https":
            app.config["SESSION_COOKIE_SECURE"] = True
            app.config["REMEMBER_COOKIE_SECURE"] = True
            app.config["PREFERRED_URL_SCHEME"] = "https"
    if proxies:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies
        )


def environment() -> dict[str, Any]:
    return from_environment(os.environ)
