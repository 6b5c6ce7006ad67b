"""What text a record may hold: characters that can be stored and shown.

A lone surrogate (half of a UTF-16 pair) cannot be encoded as UTF-8 and a NUL
byte cannot be stored in PostgreSQL text, so both are refused wherever text
comes in; free text in a hand record (a penalty's reason) must also be free of
control characters, since it is one line a player reads. Why a text is refused
is a key ("nul", "surrogate", "control"), put in words at the edge.
"""

from __future__ import annotations

import re

CONTROL = "Cc"
# Searched at C speed: every string a page shows goes through `unstorable`.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
# The characters of Unicode's category Cc (CONTROL), a set fixed by Unicode's stability
# policy, searched at C speed rather than asking unicodedata character by character.
CONTROL_CHARACTERS = re.compile("[\x00-\x1f\x7f-\x9f]")


def unstorable(text: str) -> str | None:
    """Why `text` cannot be stored ("nul" or "surrogate"), or None when it can."""
    found = UNSTORABLE.search(text)
    if found is None:
        return None
    return "nul" if found.group() == "\x00" else "surrogate"


def unprintable(text: str) -> str | None:
    """Why `text` is not one line of readable text (`unstorable`'s reasons, or "control"),
    or None when it is."""
    problem = unstorable(text)
    if problem is not None:
        return problem
    if CONTROL_CHARACTERS.search(text) is not None:
        return "control"
    return None


def printable(text: str) -> str:
    """`text` with what cannot be shown replaced, for rendering data stored earlier."""
    return UNSTORABLE.sub("\ufffd", text)
