"""The languages the app speaks, and which of them a reader's browser asks for.

Pure: no request here (`scorekeeper.languages` reads the request). A locale is Babel's
name of it (`pt_BR`); a page's `<html lang>` is its BCP 47 tag (`pt-BR`).
"""

from __future__ import annotations

from collections.abc import Iterable

DEFAULT = "en"  # the language of the msgids

# Each language by its own name, as the chooser shows it (never translated: a reader who
# cannot read the page's language still finds their own).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "pt_BR": "Português",  # Brazilian: the only Portuguese, which every Portuguese finds
    "es": "Español",
    "it": "Italiano",
}

# What a browser's language tag finds, by its primary subtag: every Portuguese
# (pt-BR, pt_BR, pt, pt-PT) finds Brazilian Portuguese, the only Portuguese here.
BY_PRIMARY: dict[str, str] = {"en": "en", "pt": "pt_BR", "es": "es", "it": "it"}


def known(value: object) -> str | None:
    """A locale the app speaks, from what a form, a cookie or the database holds
    ("pt_BR", "pt-BR", "pt-br"); None for anything else."""
    if not isinstance(value, str) or len(value) > 16:
        return None
    wanted = value.strip().replace("-", "_").lower()
    return next((locale for locale in LANGUAGES if locale.lower() == wanted), None)


def from_accept_language(tags: Iterable[tuple[str, float]]) -> str:
    """The first language of an `Accept-Language` header (best quality first) the app
    speaks, by its primary subtag; English when none is."""
    for tag, quality in tags:
        if quality <= 0:
            continue
        primary = tag.replace("_", "-").split("-", 1)[0].strip().lower()
        if primary in BY_PRIMARY:
            return BY_PRIMARY[primary]
    return DEFAULT


def html_lang(locale: str) -> str:
    """A locale as `<html lang>` and `hreflang` write it: "pt_BR" -> "pt-BR"."""
    return locale.replace("_", "-")
