"""The per-process caches: what a write made is seen by it at once and kept only once it
commits; `peek_many` answers as `peek` would, key by key."""

from __future__ import annotations

from flask import Flask

from scorekeeper.caches import Cache, hold_writes


def test_peek_many_answers_as_peek_does_held_values_first():
    app = Flask(__name__)
    parts = Cache(3, held=True)
    with app.test_request_context():
        parts.put("a", 1)
        parts.put("b", 2)
        with hold_writes() as keep:
            parts.put("b", 20)  # this write's: seen by it, not yet by others
            parts.put("c", 3)
            parts.put("c", 30)  # the last put of a key wins
            keys = ["a", "b", "c", "d"]
            assert parts.peek_many(keys) == [parts.peek(k) for k in keys] == [1, 20, 30, None]
            assert dict(parts.values) == {"a": 1, "b": 2}
            keep()
        assert parts.peek_many(["c", "b", "a"]) == [30, 20, 1]
        parts.put("d", 4)  # three at most: the least recently used (c) goes
        assert parts.peek_many(["a", "b", "c", "d"]) == [1, 20, None, 4]


def test_peek_many_sees_nothing_a_rolled_back_write_made():
    app = Flask(__name__)
    parts = Cache(8, held=True)
    with app.test_request_context():
        with hold_writes():
            parts.put("x", 1)
            assert parts.peek_many(["x"]) == [1]
        assert parts.peek_many(["x"]) == [None]
