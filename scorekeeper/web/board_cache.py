"""Rendered live boards, shared by every phone following a match.

A board depends only on the match's revision and on what the caller may do with it
(the ETag says both), so the first phone to ask after a change renders it and the
others are served the same bytes. Bounded, per process, never stale (a change is a
new revision, so a new key); losing it only costs a render.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from flask import Flask, current_app

KEY = "scorekeeper.boards"
SIZE = 256


class BoardCache:
    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self.boards: OrderedDict[str, str] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, etag: str, render: Callable[[], str]) -> str:
        with self.lock:
            if etag in self.boards:
                self.boards.move_to_end(etag)
                return self.boards[etag]
        html = render()
        with self.lock:
            self.boards[etag] = html
            while len(self.boards) > self.size:
                self.boards.popitem(last=False)
        return html


def boards() -> BoardCache:
    cache: BoardCache = current_app.extensions[KEY]
    return cache


def init_app(app: Flask) -> None:
    app.extensions[KEY] = BoardCache()
