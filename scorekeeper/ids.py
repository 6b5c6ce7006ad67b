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


class IdConverter(IntegerConverter):
    """`<int:...>` in every route: a number a database id can be (0 to MAX_ID); a URL
    with a longer number matches no route (a 404 page), and never reaches a query.

    Past ten digits the path does not match at all; a ten-digit number over MAX_ID is
    refused by the range check (werkzeug may then answer 405 where another rule has the
    same path for other methods)."""

    regex = r"\d{1,10}"

    def __init__(self, url_map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", MAX_ID)
        super().__init__(url_map, *args, **kwargs)


def init_app(url_map: Map) -> None:
    """Make `IdConverter` the `int` of `url_map` (before any route is added)."""
    url_map.converters["int"] = IdConverter
