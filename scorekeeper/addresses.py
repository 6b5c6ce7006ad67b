"""The address a link is given as, in a QR code or a text: one a phone can open.

A server opened on its own machine is browsed at 127.0.0.1, which names the phone
itself once scanned. A link is made with the public address when the server has one
(SCOREKEEPER_PUBLIC_URL), else with this machine's address on the local network in
place of a loopback name; only when neither is known does it stay on loopback, and
the page says so.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from flask import current_app, url_for

from . import lan


@dataclass(frozen=True)
class SharedAddress:
    url: str
    loopback_only: bool  # no address but this machine's own is known: phones cannot open it


def is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def shared_url(endpoint: str, **values: Any) -> SharedAddress:
    """The address of `endpoint` as phones should be given it."""
    made = urlsplit(url_for(endpoint, _external=True, **values))
    public = current_app.config.get("SCOREKEEPER_PUBLIC_URL")
    if public:
        base = urlsplit(public)
        return SharedAddress(
            urlunsplit(made._replace(scheme=base.scheme, netloc=base.netloc)), False
        )
    if not is_loopback(made.hostname):
        return SharedAddress(made.geturl(), False)
    here = lan.lan_address()
    if is_loopback(here):
        return SharedAddress(made.geturl(), True)
    netloc = f"{here}:{made.port}" if made.port else here
    return SharedAddress(urlunsplit(made._replace(netloc=netloc)), False)
