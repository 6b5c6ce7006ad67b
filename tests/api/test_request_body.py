"""Reading a JSON body: the one-call read under a server that ends the input at the
body's end gives what werkzeug's `get_data` gives, and every other case goes its way."""

from __future__ import annotations

import io
import itertools
import json
from functools import partial
from typing import Any

import pytest
from flask import request
from werkzeug.exceptions import HTTPException
from werkzeug.test import EnvironBuilder

from scorekeeper.api.common import request_body

BODY = json.dumps({"variant": "classic", "sides": [{"meld_points": 120}, {}]}).encode()
LIMIT = 256 * 1024  # the app's MAX_CONTENT_LENGTH


class CountedInput(io.BytesIO):
    """The server's input, counting the calls that read it."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.reads = 0

    def read(self, size: int | None = -1) -> bytes:
        self.reads += 1
        return super().read(size)

    def readinto(self, buffer: Any) -> int:
        self.reads += 1
        return super().readinto(buffer)


def _environ(body: bytes, length: str | None, terminated: bool, chunked: bool) -> dict[str, Any]:
    environ = EnvironBuilder(path="/api/v1/score", method="POST").get_environ()
    environ["wsgi.input"] = CountedInput(body)
    environ.pop("CONTENT_LENGTH", None)
    if length is not None:
        environ["CONTENT_LENGTH"] = length
    if terminated:
        environ["wsgi.input_terminated"] = True
    if chunked:
        environ["HTTP_TRANSFER_ENCODING"] = "chunked"
    return environ


def _outcome(app, environ: dict[str, Any], read) -> tuple[str, Any]:
    with app.request_context(environ):
        try:
            first = read()
        except HTTPException as error:
            return "refused", error.code
        assert request.get_data() == first  # kept for any later reader
        return "read", first


LENGTHS = [str(len(BODY)), "0", "", None, "abc", " 57", "\u0661\u0662", str(LIMIT + 1), "-1"]


@pytest.mark.parametrize(
    ("length", "terminated", "chunked"),
    list(itertools.product(LENGTHS, (True, False), (False, True))),
)
def test_the_body_read_is_werkzeugs(app, length, terminated, chunked):
    body = BODY if length != str(LIMIT + 1) else b"x" * (LIMIT + 1)
    if terminated and length == "0":
        body = b""  # a server that ends the input ends it where the length says
    ours = _outcome(app, _environ(body, length, terminated, chunked), request_body)
    werkzeugs = _outcome(
        app, _environ(body, length, terminated, chunked), lambda: request.get_data(cache=True)
    )
    assert ours == werkzeugs


def test_a_body_of_given_length_is_read_in_one_call(app):
    environ = _environ(BODY, str(len(BODY)), terminated=True, chunked=False)
    with app.request_context(environ):
        assert request_body() == BODY
        assert request_body() == BODY  # kept: the input is not read again
    assert environ["wsgi.input"].reads == 1


def test_a_body_past_the_limit_is_refused_unread(client):
    assert client.application.config["MAX_CONTENT_LENGTH"] == LIMIT  # the cases above use it
    environ = {"wsgi.input_terminated": True}
    answer = client.post(
        "/api/v1/score",
        data=b"[" + b"1," * LIMIT + b"1]",
        content_type="application/json",
        environ_overrides=environ,
    )
    assert answer.status_code == 413
    assert "error" in answer.json or "errors" in answer.json


def test_a_score_reads_alike_either_way(client):
    plain = client.post("/api/v1/score", data=BODY, content_type="application/json")
    ended = client.post(
        "/api/v1/score",
        data=BODY,
        content_type="application/json",
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert plain.status_code == ended.status_code == 200
    assert plain.json == ended.json


@pytest.mark.parametrize("own_limit", [len(BODY) - 1, len(BODY), None])
def test_a_limit_set_on_the_request_is_kept_as_werkzeug_keeps_it(app, own_limit):
    """A view may set `request.max_content_length` for itself (Flask 3.1): the one-call
    read honours it as `get_data` does, and without one the app's limit applies."""

    def read(reader):
        def limited():
            request.max_content_length = own_limit
            return reader()

        return limited

    environ = partial(_environ, BODY, str(len(BODY)), True, False)
    ours = _outcome(app, environ(), read(request_body))
    werkzeugs = _outcome(app, environ(), read(lambda: request.get_data(cache=True)))
    assert ours == werkzeugs
    assert ours == (("refused", 413) if own_limit == len(BODY) - 1 else ("read", BODY))
