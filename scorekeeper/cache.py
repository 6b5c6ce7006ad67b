"""A small bounded cache, for what is worth keeping per process: a match's rules (frozen
at its start), and what is shown of a match at one revision (its live board and
scoreboard, `web.matches`; its API state, `api.matches`), keyed by the match's uid, its
revision and everything else that changes the bytes (the reader's language, level)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LruCache(Generic[K, V]):
    """`get(key, make)`: the value kept for `key`, else made and kept; the least recently
    used goes first once `size` are kept. Thread-safe (gthread workers)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.values: OrderedDict[K, V] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: K, make: Callable[[], V]) -> V:
        with self.lock:
            if key in self.values:
                self.values.move_to_end(key)
                return self.values[key]
        value = make()
        self.put(key, value)
        return value

    def put(self, key: K, value: V) -> None:
        with self.lock:
            self.values[key] = value
            self.values.move_to_end(key)
            while len(self.values) > self.size:
                self.values.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.values.clear()

    def __len__(self) -> int:
        return len(self.values)
