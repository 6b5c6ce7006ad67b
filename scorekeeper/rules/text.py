"""What text a record may hold: characters that can be stored and shown.

A lone surrogate (half of a UTF-16 pair) cannot be encoded as UTF-8 and a NUL
byte cannot be stored in PostgreSQL text, so both are refused wherever text
comes in; free text in a hand record (a penalty's reason) must also be free of
control characters, since it is one line a player reads.
"""

from __future__ import annotations

import unicodedata

SURROGATE = "Cs"
CONTROL = "Cc"


def unstorable(text: str) -> str | None:
    """Why `text` cannot be stored, or None when it can."""
    for character in text:
        if character == "\x00":
            return "contains a NUL character, which cannot be stored"
        if unicodedata.category(character) == SURROGATE:
            return "contains a broken character (half of a surrogate pair)"
    return None


def unprintable(text: str) -> str | None:
    """Why `text` is not one line of readable text, or None when it is."""
    problem = unstorable(text)
    if problem is not None:
        return problem
    if any(unicodedata.category(character) == CONTROL for character in text):
        return "contains a control character (such as a line break)"
    return None


def printable(text: str) -> str:
    """`text` with what cannot be shown replaced, for rendering data stored earlier."""
    if unstorable(text) is None:
        return text
    cleaned = "".join(
        "\ufffd" if c == "\x00" or unicodedata.category(c) == SURROGATE else c for c in text
    )
    return cleaned
