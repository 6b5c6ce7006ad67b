"""QR codes as inline SVG (segno), drawn here: no third-party service sees the links."""

from __future__ import annotations

import io

import segno
from markupsafe import Markup


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
