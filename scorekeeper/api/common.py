"""Request reading and error answers shared by the API blueprints."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NoReturn

from flask import Response, jsonify, request

from .. import words
from ..rules.text import unstorable
from ..validation import FieldError
from ..words.translate import gettext

PREFIX = "/api/v1"


class ApiError(Exception):
    """An error answer: an HTTP status and the problems to report."""

    def __init__(
        self,
        status: int,
        problems: Iterable[FieldError],
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(status)
        self.status = status
        self.problems = tuple(problems)
        self.headers = headers or {}


def fail(status: int, message: str, field: str | None = None) -> NoReturn:
    raise ApiError(status, [FieldError(None, field, message)])


def error_response(status: int, problems: Iterable[FieldError]) -> tuple[Response, int]:
    return jsonify({"errors": [p.to_dict() for p in problems]}), status


def json_object() -> dict[str, Any]:
    """The request body as a JSON object, or a 400 saying what is wrong with it."""
    try:
        body = request.get_json(force=True, silent=True)
    except RecursionError:
        fail(400, gettext("The body nests lists and objects too deep to be read"))
    if body is None and request.get_data().strip() not in (b"", b"null"):
        fail(400, gettext("The body must be a JSON object (it is not valid JSON)"))
    if not isinstance(body, dict):
        fail(400, gettext("The body must be a JSON object"))
    problem = unstorable_text(body)
    if problem is not None:
        where, reason = problem
        if not where:
            fail(400, gettext("The text at the top level %(reason)s", reason=reason))
        fail(400, gettext("The text at %(where)s %(reason)s", where=where, reason=reason), where)
    return body


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
                    return path, gettext("has a key that %(reason)s", reason=words.refusal(reason))
                stack.append((child_path, child))
        elif isinstance(item, list):
            stack.extend((f"{path}.{i}" if path else str(i), child) for i, child in enumerate(item))
    return None


def reject_unknown_keys(body: dict[str, Any], allowed: Iterable[str]) -> list[FieldError]:
    allowed = set(allowed)
    return [
        FieldError(
            None,
            str(key),
            gettext(
                "%(key)s is not expected here (expected: %(expected)s)",
                key=repr(key),
                expected=", ".join(sorted(allowed)),
            ),
        )
        for key in body
        if key not in allowed
    ]
