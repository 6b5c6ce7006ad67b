"""Compression sized to the text: every size unpacks to what was compressed."""

from __future__ import annotations

import gzip
import random
import zlib

import pytest
from flask import Response

from scorekeeper import delivery
from scorekeeper.delivery import (
    GZIP_TAG,
    LEVEL,
    SMALL_TEXT,
    TINY_TEXT,
    ZLIB_QUICK_LEVEL,
    deflated,
    gzip_body,
    gzip_pieces,
    gzipped,
)

SIZES = [
    0,
    1,
    255,
    256,
    257,
    511,
    512,
    513,
    1_300,
    2_048,
    2_049,
    4_096,
    4_097,
    32_768,
    32_769,
    200_000,
]


def text(size: int) -> bytes:
    """JSON-like text that repeats itself some (as answers do), `size` bytes long."""
    words = [b'{"total":', b'"lines":[', b"],", b"500", b'"Ann"', b"null,", b"}"]
    picker = random.Random(size)
    out = b"".join(picker.choice(words) for _ in range(size // 3 + 1))
    return out[:size]


@pytest.mark.parametrize("size", SIZES)
def test_a_gzipped_answer_unpacks_to_its_text(size):
    body = text(size)
    packed = gzip_body(body)
    assert gzip.decompress(packed) == body
    assert gzip_body(body) == packed  # the same text, the same bytes
    assert packed[3] == 0  # no name or other flags
    assert packed[4:8] == bytes(4)  # no time
    if size > SMALL_TEXT:  # a window sized to the text compresses as well as zlib's largest
        assert len(packed) <= 1.01 * len(zlib.compress(body, LEVEL, wbits=31)) + 8
    elif size > TINY_TEXT:  # the quick way makes about the bytes of zlib's level 3
        assert len(packed) <= 1.1 * len(zlib.compress(body, ZLIB_QUICK_LEVEL, wbits=31)) + 8
    elif size > 500:  # the quickest way: smaller still, and one packet with the headers
        assert len(packed) <= min(0.6 * size, 1_000)


def test_without_isal_zlib_compresses_the_small_texts(monkeypatch):
    """A machine with no ISA-L wheel (32-bit ARM) still answers in gzip, by zlib."""
    small = text(1_300)
    monkeypatch.setattr(delivery, "isal_zlib", None)
    packed = gzip_body(small)
    assert gzip.decompress(packed) == small
    assert packed[9] == 3  # zlib's header names Unix; ISA-L's names no system
    assert len(packed) <= 1.01 * len(zlib.compress(small, ZLIB_QUICK_LEVEL, wbits=31)) + 8
    kept = (deflated(text(5_000)), text(5_000))
    pieces = [(None, b"loose"), kept, (None, small)]
    assert gzip.decompress(gzip_pieces(pieces)) == b"".join(data for _, data in pieces)


def test_pieces_of_every_size_join_into_one_stream():
    kept = [(deflated(text(size)), text(size)) for size in SIZES]
    pieces = [*kept, (None, b"loose"), (None, b" and more"), kept[-1], (None, b"end")]
    packed = gzip_pieces(pieces)
    assert gzip.decompress(packed) == b"".join(data for _, data in pieces)


@pytest.mark.parametrize("known", [False, True])
@pytest.mark.parametrize(
    "before",
    [
        {},
        {"Vary": "Cookie"},
        {"vary": "accept-encoding"},
        {"ETag": '"m1.4"'},
        {"ETag": 'W/"m1.4"', "Vary": "Cookie"},
        {"Content-Encoding": "identity"},
    ],
)
def test_a_gzipped_response_names_its_encoding_once(before, known):
    """With the header names given or looked up, each header the gzip needs appears once,
    Vary keeps what it said and ETags take the gzip suffix."""
    response = Response("x" * 600, headers=before)
    present = {name.lower() for name in before} if known else None
    gzipped(response, gzip_body(b"x" * 600), present)
    headers = response.headers
    assert headers.getlist("Content-Encoding") == ["gzip"]
    assert len(headers.getlist("Vary")) == 1
    said = [item.strip().lower() for item in headers["Vary"].split(",")]
    assert said.count("accept-encoding") == 1
    assert set(said) == {"accept-encoding"} | {
        v.lower() for k, v in before.items() if k.lower() == "vary"
    }
    if "ETag" in before:
        assert headers["ETag"] == before["ETag"][:-1] + GZIP_TAG + '"'
    else:
        assert "ETag" not in headers
    assert int(headers["Content-Length"]) == len(response.get_data())


def test_a_security_header_the_view_set_is_kept_whatever_its_case(app):
    from flask import Blueprint

    probe = Blueprint("probe", __name__)

    @probe.get("/probe-headers")
    def own_headers():
        return Response("x", headers={"referrer-policy": "no-referrer"})

    app.register_blueprint(probe)
    answer = app.test_client().get("/probe-headers")
    assert answer.headers.getlist("Referrer-Policy") == ["no-referrer"]
    assert answer.headers.getlist("X-Content-Type-Options") == ["nosniff"]
    assert len(answer.headers.getlist("Content-Security-Policy")) == 1


SECURITY = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")


def test_every_kind_of_answer_carries_the_security_headers_once(client, app):
    from tests.web.helpers import create_match

    match_id = create_match(client, "classic")
    board = f"/matches/{match_id}/board"
    etag = client.get(board).headers["ETag"]
    asset = app.extensions["scorekeeper_assets"].hashed["app.css"]
    answers = {
        "page": client.get(f"/matches/{match_id}"),
        "not modified": client.get(board, headers={"If-None-Match": etag}),
        "redirect": client.get("/setup"),
        "static file": client.get(f"/static/{asset}"),
        "score": client.post("/api/v1/score", json={"variant": "classic", "sides": [{}, {}]}),
        "API error": client.get("/api/v1/matches/999999"),
        "missing page": client.get("/no/such/page"),
        "wrong method": client.delete("/rules"),
    }
    statuses = {name: answer.status_code for name, answer in answers.items()}
    assert statuses == {
        "page": 200,
        "not modified": 304,
        "redirect": 302,
        "static file": 200,
        "score": 200,
        "API error": 404,
        "missing page": 404,
        "wrong method": 405,
    }
    for name, answer in answers.items():
        answer.close()  # the static file's
        for header in SECURITY:
            assert len(answer.headers.getlist(header)) == 1, (name, header)
        assert "Strict-Transport-Security" not in answer.headers, name  # plain HTTP


def test_hsts_goes_with_https_alone(anonymous_client):
    secure = anonymous_client.get("/rules", base_url="https://localhost")
    assert secure.headers.getlist("Strict-Transport-Security") == ["max-age=31536000"]
    assert all(len(secure.headers.getlist(header)) == 1 for header in SECURITY)
    plain = anonymous_client.get("/rules", base_url="http://localhost")
    assert "Strict-Transport-Security" not in plain.headers
