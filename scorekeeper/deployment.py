"""Settings for serving on the internet behind a TLS-terminating proxy (see deploy/).

- `SCOREKEEPER_PUBLIC_URL` (e.g. https://scores.example.org): the address players use.
  Its host is served (added to the Host allow-list); with https, cookies are sent only
  over HTTPS and links are built with https.
- `SCOREKEEPER_PROXIES`: how many proxies are in front (Caddy alone: 1); their
  X-Forwarded-For/-Proto/-Host headers are then believed (werkzeug's ProxyFix).
- `SECRET_KEY` must be set explicitly for such a server (all app servers behind one
  proxy share it), to at least 32 random bytes; a LAN server keeps the key it makes in
  instance/secret_key. The placeholder of deploy/scorekeeper.env is refused everywhere.
- `SCOREKEEPER_RATELIMIT_STORAGE`: where the sign-in rate limits are counted (by
  default in the app's own database, which every worker and app server shares, see
  `rate_limits`; or redis://host:6379, or memory:// for one process).
- `SCOREKEEPER_TIMEZONE` (e.g. Europe/Rome; UTC by default): the server's time zone,
  whose dates are a league's evenings (a match's evening is the date it finished there).
Answers over HTTPS also carry HSTS (`delivery.SecurityHeaders`).
"""

from __future__ import annotations

import math
import os
import string
from collections.abc import Mapping
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

REMEMBERED_FOR = timedelta(days=400)  # "keep me signed in": the phone stays signed in


KEY_BITS = 256  # a session key of at least 32 random bytes
KEY_VARIETY = 12  # distinct characters: a random key of 32 bytes shows many more
PLACEHOLDERS = {"change-me", "changeme", "change-me-too", "secret", "dev", "test-key"}
HEX = frozenset(string.hexdigits)
BASE64 = frozenset(string.ascii_letters + string.digits + "+/=-_")
MAKE_A_KEY = "python3 -c 'import secrets; print(secrets.token_hex(32))'"


class ConfigurationError(RuntimeError):
    """The server cannot start safely as configured; the message says what to set."""


def key_bits(key: str | bytes) -> float:
    """About how many random bits a key can hold: its length times the bits of the
    alphabet it is written in (hexadecimal 4, base64 6, any other text or bytes 8);
    0 for a key of few distinct characters, which no random key is."""
    if len(set(key)) < KEY_VARIETY:
        return 0
    if isinstance(key, bytes):
        return 8.0 * len(key)
    alphabet = 16 if HEX.issuperset(key) else 64 if BASE64.issuperset(key) else 256
    return len(key) * math.log2(alphabet)


def check_secret_key(key: object, required: bool) -> None:
    """Refuse the placeholder of deploy/scorekeeper.env anywhere, and, where the key must
    be chosen (a server for the internet), a key of under 32 random bytes: anyone who
    knows or guesses the key can sign a session cookie and be anyone, the admin too."""
    if isinstance(key, str) and key.strip().lower() in PLACEHOLDERS:
        raise ConfigurationError(
            f"SECRET_KEY is the placeholder {key.strip()!r}, which anyone can read: make a key "
            f"with `{MAKE_A_KEY}` and set SECRET_KEY to it."
        )
    if required and isinstance(key, str | bytes) and key_bits(key) < KEY_BITS:
        raise ConfigurationError(
            "SECRET_KEY is too short or not random enough: it must hold at least 32 random "
            f"bytes (64 hexadecimal digits). Make one with `{MAKE_A_KEY}` and set SECRET_KEY "
            "to it."
        )


def from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    config: dict[str, Any] = {}
    if environ.get("SCOREKEEPER_PUBLIC_URL"):
        config["SCOREKEEPER_PUBLIC_URL"] = environ["SCOREKEEPER_PUBLIC_URL"]
    if environ.get("SCOREKEEPER_PROXIES"):
        config["SCOREKEEPER_PROXIES"] = environ["SCOREKEEPER_PROXIES"]
    if environ.get("SCOREKEEPER_RATELIMIT_STORAGE"):
        config["RATELIMIT_STORAGE_URI"] = environ["SCOREKEEPER_RATELIMIT_STORAGE"]
    if environ.get("SCOREKEEPER_TIMEZONE"):
        config["SCOREKEEPER_TIMEZONE"] = environ["SCOREKEEPER_TIMEZONE"]
    return config


def time_zone(name: object) -> ZoneInfo:
    """The server's time zone by its IANA name; a name the system does not know stops
    the server with the reason (dates of leagues would be wrong otherwise)."""
    try:
        return ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigurationError(
            f"SCOREKEEPER_TIMEZONE is not a time zone this system knows: {name!r} "
            "(write an IANA name such as Europe/Rome, or UTC)"
        ) from None


def configure(app: Flask) -> None:
    """Apply the deployment settings; refuse to start an internet server without a strong
    SECRET_KEY, and any server with the placeholder key."""
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    app.config.setdefault("REMEMBER_COOKIE_DURATION", REMEMBERED_FOR)
    app.config.setdefault("REMEMBER_COOKIE_SAMESITE", "Lax")
    app.config.setdefault("SCOREKEEPER_TIMEZONE", "UTC")
    time_zone(app.config["SCOREKEEPER_TIMEZONE"])
    public = app.config.get("SCOREKEEPER_PUBLIC_URL") or ""
    try:
        proxies = int(app.config.get("SCOREKEEPER_PROXIES") or 0)
    except ValueError:
        raise ConfigurationError("SCOREKEEPER_PROXIES must be a whole number") from None
    secret = app.config.get("SECRET_KEY")
    if (public or proxies) and not secret:
        raise ConfigurationError(
            "Set SECRET_KEY (a long random string, e.g. from `python3 -c 'import secrets; "
            "print(secrets.token_hex(32))'`): this server is configured for the internet "
            "(SCOREKEEPER_PUBLIC_URL or SCOREKEEPER_PROXIES), where the key must be chosen "
            "and shared by every app server."
        )
    check_secret_key(secret, required=bool(public or proxies))
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
