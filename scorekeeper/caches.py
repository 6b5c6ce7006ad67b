"""Per-process caches of what never changes once made: keyed so that a key names one value.

- A match's rules are frozen at its start: built from JSON once per match, not per call.
- A rendered live board, a match state as JSON, a hand's or an audit entry's part of it:
  each key carries the match revision or the hand version it was made at, and every write
  moves those on (see `Match`), so a cached value is never stale; a change makes a new key.

Bounded (least recently used goes first), thread-safe, and kept in `app.extensions`
rather than at module level, so each app (and each test) has its own. Several app
servers each keep their own: losing a value only costs making it again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from flask import Flask, current_app

T = TypeVar("T")
KEY = "scorekeeper.caches"
SIZES = {
    "rules": 1024,  # rule sets by match
    "pages": 512,  # rendered boards and match states, by revision and access level
    "parts": 16384,  # hands and audit entries as the API shows them, by version / id
}


class Cache:
    """A bounded least-recently-used mapping with `get(key, make)`."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.values: OrderedDict[Hashable, Any] = OrderedDict()
        self.lock = threading.Lock()

    def peek(self, key: Hashable) -> Any | None:
        with self.lock:
            if key in self.values:
                self.values.move_to_end(key)
                return self.values[key]
        return None

    def put(self, key: Hashable, value: Any) -> None:
        with self.lock:
            self.values[key] = value
            self.values.move_to_end(key)
            while len(self.values) > self.size:
                self.values.popitem(last=False)

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        found = self.peek(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        value = make()
        self.put(key, value)
        return value

    def __len__(self) -> int:
        return len(self.values)


def cache(name: str) -> Cache:
    caches: dict[str, Cache] = current_app.extensions[KEY]
    return caches[name]


def init_app(app: Flask) -> None:
    app.extensions[KEY] = {name: Cache(size) for name, size in SIZES.items()}
