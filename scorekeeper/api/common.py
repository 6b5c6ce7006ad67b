"""Request reading and error answers shared by the API blueprints."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, NoReturn

import orjson
from flask import Request, Response, jsonify

from .. import words
from ..current import this_app, this_request
from ..rules.text import unstorable
from ..validation import FieldError

PREFIX = "/api/v1"
# An integer orjson reads otherwise than `json`: one past 64 bits (a float to orjson),
# 19 digits or more. Easy to find once every digit is a 0.
DIGITS_AS_ZEROS = bytes.maketrans(b"123456789", b"000000000")
LONG_INTEGER = b"0" * 19


class ApiError(Exception):
    """An error answer: an HTTP status and the problems to report."""

    def __init__(self, status: int, problems: Iterable[FieldError]) -> None:
        super().__init__(status)
        self.status = status
        self.problems = tuple(problems)


def fail(status: int, message: str, field: str | None = None) -> NoReturn:
    raise ApiError(status, [FieldError(None, field, message)])


def error_response(status: int, problems: Iterable[FieldError]) -> tuple[Response, int]:
    return jsonify({"errors": [p.to_dict() for p in problems]}), status


def request_body() -> bytes:
    """The request's body, as `request.get_data()` reads (and keeps) it.

    A server that stops the input at the body's end says so (`wsgi.input_terminated`,
    as gunicorn does); a body whose Content-Length it gives, within the app's limit, is
    then read in one call. Werkzeug's general way (a limited stream over the input,
    read in chunks, the limit looked up through the app context) cost more than
    parsing the JSON. Anything else (no or an unreadable length, one past the limit, a
    server that does not stop the input, a body already read) goes werkzeug's way,
    answering 413 or 400 as it does.
    """
    current = this_request()
    environ = current.environ
    length = environ.get("CONTENT_LENGTH", "")
    if (
        "wsgi.input_terminated" in environ
        and "HTTP_TRANSFER_ENCODING" not in environ  # werkzeug ignores a chunked body's length
        and length.isdigit()  # plain ASCII digits: read by werkzeug as this number
        and length.isascii()
        and "stream" not in vars(current)  # not being read already
        and getattr(current, "_cached_data", None) is None
    ):
        size, limit = int(length), _body_limit(current)
        if limit is None or size <= limit:
            data: bytes = environ["wsgi.input"].read(size)
            current._cached_data = data  # where get_data keeps it, for any later reader
            return data
    body: bytes = current.get_data(cache=True)
    return body


def _body_limit(current: Request) -> int | None:
    """`current.max_content_length` (Flask 3.1): the limit set on the request, else the
    app's, the app read without the `current_app` proxy (see `current`)."""
    own: int | None = current._max_content_length
    return own if own is not None else this_app().config["MAX_CONTENT_LENGTH"]


def json_object() -> dict[str, Any]:
    """The request body as a JSON object, or a 400 saying what is wrong with it."""
    raw = request_body()
    try:
        body = parsed_json(raw)
    except (ValueError, RecursionError):
        fail(400, "The body must be a JSON object (it is not valid JSON)")
    if not isinstance(body, dict):
        fail(400, "The body must be a JSON object")
    problem = unstorable_text(body) if may_hold_unstorable(raw) else None
    if problem is not None:
        where, reason = problem
        fail(400, f"The text at {where or 'the top level'} {reason}", where or None)
    return body


def parsed_json(raw: bytes) -> Any:
    """`json.loads(raw)`: the same value, or the same error.

    orjson reads a body in a quarter of the work, and reads every JSON text it takes as
    `json` does (floats too, to the last bit), save integers past 64 bits: a body that
    may hold one (`LONG_INTEGER`; a regular expression looking for it cost more than
    `json`), or that orjson refuses (NaN, a byte-order mark, UTF-16, half a surrogate
    pair, nesting past 1024), goes to `json`, whose answer is the answer.
    """
    if raw.translate(DIGITS_AS_ZEROS).find(LONG_INTEGER) < 0:  # see `may_hold_unstorable`
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(raw)


def may_hold_unstorable(raw: bytes) -> bool:
    """Whether a JSON body could hold text that cannot be stored (a NUL, half a surrogate
    pair). Such text can come only as a \\u escape or as bytes outside ASCII: JSON
    refuses a raw NUL (a control character), and a body in UTF-16 or UTF-32 has zero
    bytes. Most bodies (plain ASCII, no escapes) are answered without walking them."""
    # `find`, not `in`: `in` takes its operand for a byte value first, making and dropping
    # a TypeError for every bytes one.
    return not raw.isascii() or raw.find(b"\\u") >= 0 or raw.find(b"\x00") >= 0


def unstorable_text(value: Any, where: str = "") -> tuple[str, str] | None:
    """The first text (key or value) in a JSON value that cannot be stored: (path, why)."""
    stack = [(where, value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            reason = unstorable(item)
            if reason is not None:
                return path, words.refusal(reason)
        elif isinstance(item, dict):
            for key, child in item.items():
                child_path = f"{path}.{key}" if path else str(key)
                reason = unstorable(str(key))
                if reason is not None:
                    return path, f"has a key that {words.refusal(reason)}"
                stack.append((child_path, child))
        elif isinstance(item, list):
            stack.extend((f"{path}.{i}" if path else str(i), child) for i, child in enumerate(item))
    return None


def reject_unknown_keys(body: dict[str, Any], allowed: Iterable[str]) -> list[FieldError]:
    allowed = set(allowed)
    return [
        FieldError(
            None, str(key), f"{key!r} is not expected here (expected: {', '.join(sorted(allowed))})"
        )
        for key in body
        if key not in allowed
    ]
