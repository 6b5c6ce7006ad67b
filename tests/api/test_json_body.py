"""Parsing a JSON body: `parsed_json` gives what `json.loads` gives (the same value, of
the same types, or the same error), whichever parser read it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from scorekeeper.api.common import parsed_json

EDGES = [
    b'{"variant": "classic", "sides": [{"meld_points": 120, "went_out": true}, {}]}',
    b'{"a": 1, "a": 2}',  # the last of a repeated key
    b"9223372036854775807",  # the largest 64-bit integer
    b"-9223372036854775808",
    b"18446744073709551615",
    b"18446744073709551616",  # past 64 bits: orjson would read a float
    b"-9223372036854775809",
    b'{"red_threes": 123456789012345678901234567890}',
    b"[1.0, 0.1, 1e2, 1E-2, -0.0, 2.5e+3]",
    b"1e400",  # json: inf
    b"-0",
    b"NaN",
    b"[Infinity, -Infinity]",
    b'\xef\xbb\xbf{"sides": []}',  # a byte-order mark
    '{"name": "Zoë"}'.encode("utf-16"),
    '{"name": "Zoë"}'.encode("utf-16-le"),
    '{"name": "Zoë"}'.encode("utf-32"),
    b'{"name": "\\ud800"}',  # half a surrogate pair, as an escape
    b'"\xed\xa0\x80"',  # and as bytes
    b'"\xff"',  # not UTF-8
    b'"\\u0000"',
    b'{"a": "\x01"}',  # a raw control character
    b"",
    b"   ",
    b"\t[]\r\n",
    b"01",
    b"[1,]",
    b'{"a": 1,}',
    b"{'a': 1}",
    b"[1] [2]",
    b"[" * 1100 + b"]" * 1100,  # nesting past orjson's limit
    b"[" * 200 + b"]" * 200,
    b'{"e": "1.5", "x1e": 3}',  # a point or exponent inside text
    b"true",
    b"null",
]


def outcome(parse: Any, raw: bytes) -> tuple[str, str]:
    """What parsing gave: the value's repr (which tells 1 from 1.0 and True from 1) or the
    kind of error."""
    try:
        return "value", repr(parse(raw))
    except (ValueError, RecursionError) as error:
        return "error", type(error).__name__


@pytest.mark.parametrize("raw", EDGES, ids=range(len(EDGES)))
def test_an_edge_case_parses_as_json_loads_parses_it(raw):
    assert outcome(parsed_json, raw) == outcome(json.loads, raw)


def test_floats_read_alike_to_the_last_bit():
    rng = random.Random(7)
    for _ in range(20000):
        digits = str(rng.randrange(10 ** rng.randint(1, 18)))
        fraction = str(rng.randrange(10 ** rng.randint(1, 18)))
        text = f"{rng.choice(['', '-'])}{digits}.{fraction}e{rng.randint(-330, 310)}"
        for raw in (text.encode(), text.split("e")[0].encode()):
            assert outcome(parsed_json, raw) == outcome(json.loads, raw)


PIECES = [
    b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b"u", b"d800", b"0", b"7", b"-", b"+",
    b".", b"e", b"E", b" ", b"true", b"null", b"NaN", b"\xc3\xa9", b"\xff", b"\x00",
    b"12345678901234567890", b'"meld_points"', b"\n",
]  # fmt: skip


def test_mangled_bodies_parse_as_json_loads_parses_them():
    """Bodies a few pieces away from a valid one: most are refused, some read; each ends
    as `json.loads` ends it."""
    rng = random.Random(2026)
    base = EDGES[0]
    seen = {"value": 0, "error": 0}
    for _ in range(3000):
        raw = bytearray(base)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(raw) + 1)
            if rng.random() < 0.5 and at < len(raw):
                del raw[at : at + rng.randint(1, 3)]
            else:
                raw[at:at] = rng.choice(PIECES)
        expected = outcome(json.loads, bytes(raw))
        assert outcome(parsed_json, bytes(raw)) == expected, bytes(raw)
        seen[expected[0]] += 1
    assert seen["value"] > 100  # both ways were tried
    assert seen["error"] > 100


def test_the_score_answers_alike_for_a_body_with_a_number_past_64_bits(client):
    big = 2**64
    answer = client.post(
        "/api/v1/score",
        data=json.dumps({"variant": "classic", "sides": [{"meld_points": big}, {}]}),
        content_type="application/json",
    )
    assert answer.status_code == 422
    [error] = answer.get_json()["errors"]
    assert error["field"] == "meld_points"
    assert "whole" not in error["message"]  # read as the integer it is, not a float
