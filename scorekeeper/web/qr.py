"""QR codes as inline SVG (segno), drawn here: no third-party service sees the links."""

from __future__ import annotations

import io
from collections.abc import Iterable

import segno
from markupsafe import Markup

from ..addresses import shared_url
from ..services.links import Link


def qr_svg(url: str) -> Markup:
    """Black on white whatever the colour scheme, so every camera reads it."""
    code = segno.make(url, error="m")
    return Markup(code.svg_inline(scale=4, dark="#000", light="#fff", omitsize=False))


def qr_svg_file(url: str) -> bytes:
    """The same code as an SVG file of its own (an `<img>` of a printed table card)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", xmldecl=False, scale=4, dark="#000", light="#fff"
    )
    return out.getvalue()


def shown_links(
    links: Iterable[Link], endpoint: str
) -> tuple[list[tuple[Link, str, Markup]], bool]:
    """Links as a share page lists them, each with the address it opens (`endpoint` with
    its token) and that address's QR code; and whether an address opens only on this
    machine (the page then says so)."""
    shown = []
    loopback_only = False
    for link in links:
        address = shared_url(endpoint, token=link.token)
        loopback_only = loopback_only or address.loopback_only
        shown.append((link, address.url, qr_svg(address.url)))
    return shown, loopback_only
