"""Ids and whole numbers read from URLs, forms and query strings.

Every id column is a 32-bit integer on every supported database, so a number past
`MAX_ID` names nothing: it is refused where it is read (the URL's `int` converter, a
form field) rather than sent to a database that cannot hold it. Digits are plain ASCII:
`int()` refuses some of what `str.isdigit` accepts (`"²"`).
"""

from __future__ import annotations

from typing import Any

from werkzeug.routing import IntegerConverter, Map

MAX_ID = 2**31 - 1  # the largest id every supported database can hold


def valid_id(value: int) -> bool:
    return 0 < value <= MAX_ID


def whole_number(raw: object, low: int = 0, high: int = MAX_ID) -> int | None:
    """`raw` (text, spaces around it allowed) as a whole number in [low, high], else None."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = raw
    else:
        text = raw.strip() if isinstance(raw, str) else ""
        if not (text.isascii() and text.isdigit()) or len(text) > len(str(high)):
            return None
        value = int(text)
    return value if low <= value <= high else None


def id_of(raw: object) -> int | None:
    """An id written as text: 1 to MAX_ID in plain digits, else None."""
    return whole_number(raw, 1, MAX_ID)


def digits_up_to(limit: int) -> str:
    """A regular expression of the numbers 0 to `limit` in plain digits (no sign)."""
    digits = str(limit)
    parts = [f"[0-9]{{1,{len(digits) - 1}}}"] if len(digits) > 1 else []
    for place, digit in enumerate(digits):
        if digit != "0":
            rest = len(digits) - place - 1
            parts.append(f"{digits[:place]}[0-{int(digit) - 1}][0-9]{{{rest}}}")
    parts.append(digits)
    return "(?:" + "|".join(parts) + ")"


class IdConverter(IntegerConverter):
    """`<int:...>` in every route: a number a database id can be (0 to MAX_ID); a URL
    with a larger number matches no route (a 404 page), and never reaches a query.

    The range is in the pattern rather than only in the conversion: werkzeug answers a
    path refused by a converter with 405 where a rule of the same path has other
    methods."""

    regex = digits_up_to(MAX_ID)

    def __init__(self, url_map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", MAX_ID)
        super().__init__(url_map, *args, **kwargs)


def init_app(url_map: Map) -> None:
    """Make `IdConverter` the `int` of `url_map` (before any route is added)."""
    url_map.converters["int"] = IdConverter
