"""Compression sized to the text: every size unpacks to what was compressed."""

from __future__ import annotations

import gzip
import random
import zlib

import pytest

from scorekeeper.delivery import deflated, gzip_body, gzip_pieces

SIZES = [0, 1, 255, 256, 257, 511, 512, 513, 1_300, 4_097, 32_768, 32_769, 200_000]


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
    if size > 1_000:  # a window sized to the text compresses as well as zlib's largest
        assert len(packed) <= 1.01 * len(zlib.compress(body, 6, wbits=31)) + 8


def test_pieces_of_every_size_join_into_one_stream():
    pieces = [(("piece", size), text(size)) for size in SIZES] + [(None, b"loose")]
    packed = gzip_pieces(pieces, lambda _name, data: deflated(data))
    assert gzip.decompress(packed) == b"".join(data for _, data in pieces)
