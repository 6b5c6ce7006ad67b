"""Per-process caches of what never changes once made: keyed so that a key names one value.

- A match's rules are frozen at its start: built from JSON once per match, not per call.
- A rendered live board, a match state as JSON, a hand's or an audit entry's part of it:
  each key (or, for a match's one kept state, the value) carries the match revision or
  the hand version it was made at, and every write moves those on (see `Match`), so a
  cached value is never stale; a change makes a new one. What a write transaction makes
  of these is kept only once it commits (`hold_writes`): a rolled-back write's revision,
  hand version or entry id is used again by the next.
- The match objects a write left (`services.kept_match`) are taken out by the next save
  of the match, which brings them up to date with the stored rows before using them.

Bounded (least recently used goes first), thread-safe, and kept in `app.extensions`
rather than at module level, so each app (and each test) has its own. Several app
servers each keep their own: losing a value only costs making it again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from flask import Flask, g

from .current import this_app

T = TypeVar("T")
KEY = "scorekeeper.caches"
HELD = "scorekeeper_held_cache_writes"  # in `g`: puts waiting for their transaction
SIZES = {
    "rules": 1024,  # rule sets by match (keyed by start time too: safe before a commit)
    "pages": 512,  # rendered boards by revision and access level; each match's last state
    "parts": 16384,  # hands and audit entries as the API shows them, by version / id
    "matches": 256,  # the match (ORM objects) a write left, taken by the next (kept_match)
}
HELD_UNTIL_COMMIT = frozenset({"pages", "parts", "matches"})
_ABSENT = object()


class Cache:
    """A bounded least-recently-used mapping with `get(key, make)`."""

    def __init__(self, size: int, held: bool = False) -> None:
        self.size = size
        self.held = held  # inside a write transaction, puts wait for its commit
        self.values: OrderedDict[Hashable, Any] = OrderedDict()
        self.lock = threading.Lock()

    def peek(self, key: Hashable) -> Any | None:
        return self.peek_many((key,))[0]

    def peek_many(self, keys: Iterable[Hashable]) -> list[Any | None]:
        """The value kept for each key, or None: this write's own first (made by it, seen
        by it, kept once it commits), the lock taken once (a long match asks for every
        hand). Each key is hashed twice at most: a long match's keys are many, and a
        group of hands is named by its hands' keys."""
        waiting = _waiting() if self.held else None
        held = {key: value for cache_, key, value in waiting if cache_ is self} if waiting else {}
        found: list[Any | None] = []
        with self.lock:
            kept, used = self.values.get, self.values.move_to_end
            for key in keys:
                value = held.get(key, _ABSENT) if held else _ABSENT
                if value is _ABSENT:
                    value = kept(key)
                    if value is not None:
                        used(key)
                found.append(value)
        return found

    def take(self, key: Hashable) -> Any | None:
        """The value kept for `key`, no longer kept: one user at a time has it."""
        with self.lock:
            return self.values.pop(key, None)

    def put(self, key: Hashable, value: Any) -> None:
        waiting = _waiting() if self.held else None
        if waiting is not None:
            waiting.append((self, key, value))
            return
        self.store(key, value)

    def store(self, key: Hashable, value: Any) -> None:
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
    """The app's cache `name` (asked some thirty times a save: see `current`)."""
    caches: dict[str, Cache] = this_app().extensions[KEY]
    return caches[name]


def _waiting() -> list[tuple[Cache, Hashable, Any]] | None:
    """The puts this request's write holds until it commits (None outside a write)."""
    found: list[tuple[Cache, Hashable, Any]] | None = g._get_current_object().get(HELD)
    return found


@contextmanager
def hold_writes() -> Iterator[Callable[[], None]]:
    """Hold the puts of the block; they are kept when the returned function is called
    (after the commit) and dropped otherwise."""
    waiting: list[tuple[Cache, Hashable, Any]] = []
    outer = g.get(HELD)
    g.setdefault(HELD, waiting)  # a nested write joins the outer one's list
    mine = outer is None

    def keep() -> None:
        if mine:
            for cache_, key, value in waiting:
                cache_.store(key, value)
            waiting.clear()

    try:
        yield keep
    finally:
        if mine:
            g.pop(HELD, None)


def init_app(app: Flask) -> None:
    app.extensions[KEY] = {
        name: Cache(size, held=name in HELD_UNTIL_COMMIT) for name, size in SIZES.items()
    }
