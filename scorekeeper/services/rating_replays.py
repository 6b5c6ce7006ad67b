"""Replaying a group's ratings after the write that asked for it has committed.

A write that needs a replay (a correction, a removal, an import, a merge...) names the
group in its session (`ask_after_commit`); once the write commits, the replay runs in
a thread of its own, and the request waits for it up to `RATINGS_REPLAY_WAIT` seconds
(0.5 by default): a small club's pages show the new ratings at once, a large club's
page answers at once and says the ratings are being brought up to date until the
thread is done. One thread per group at a time; a request for a group whose replay
is under way runs it once more after (what it read may be out of date).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, current_app
from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction

from ..extensions import db

log = logging.getLogger(__name__)

EXTENSION = "scorekeeper.rating_replays"
PENDING = "scorekeeper.ratings_to_replay"  # in a session's `info`: groups to replay
DEFAULT_WAIT = 0.5  # seconds a request waits for the replay it caused


class Replays:
    """The replay threads of one app."""

    def __init__(self, app: Flask, replay: Callable[[int], object]) -> None:
        self.app = app
        self.replay = replay
        self.lock = threading.Lock()
        self.threads: dict[int, threading.Thread] = {}
        self.again: set[int] = set()

    def running(self, group_id: int) -> bool:
        with self.lock:
            return group_id in self.threads

    def start(self, group_ids: Iterable[int], wait: float = 0.0) -> None:
        """Replay these groups in the background; wait up to `wait` seconds for them."""
        started = []
        with self.lock:
            for group_id in sorted(set(group_ids)):
                thread = self.threads.get(group_id)
                if thread is None:
                    thread = threading.Thread(
                        target=self._run, args=(group_id,), daemon=True, name=f"ratings-{group_id}"
                    )
                    self.threads[group_id] = thread
                    thread.start()
                else:
                    self.again.add(group_id)
                started.append(thread)
        for thread in started:
            thread.join(wait)

    def wait_all(self, timeout: float = 30.0) -> None:
        """Wait for every replay under way (tests, and the end of a command)."""
        with self.lock:
            threads = list(self.threads.values())
        for thread in threads:
            thread.join(timeout)

    def _run(self, group_id: int) -> None:
        while True:
            try:
                with self.app.app_context():
                    self.replay(group_id)
            except Exception:
                log.exception("Replaying the ratings of group %s failed", group_id)
            with self.lock:
                if group_id in self.again:
                    self.again.discard(group_id)
                    continue
                del self.threads[group_id]
                return


def replays() -> Replays:
    found: Replays = current_app.extensions[EXTENSION]
    return found


def ask_after_commit(group_id: int) -> None:
    """Replay the group's ratings once the current write commits (never if it rolls back)."""
    pending: dict[str, Any] = db.session.info.setdefault(PENDING, {})
    pending.setdefault("groups", set()).add(group_id)
    pending["replays"] = replays()
    pending["wait"] = float(current_app.config.get("RATINGS_REPLAY_WAIT", DEFAULT_WAIT))


def _after_commit(session: Session) -> None:
    pending = session.info.pop(PENDING, None)
    if pending:
        pending["replays"].start(pending["groups"], pending["wait"])


def _after_rollback(session: Session, previous: SessionTransaction) -> None:
    if not previous.nested:  # a savepoint rolled back leaves the write going on
        session.info.pop(PENDING, None)


def init_app(app: Flask, replay: Callable[[int], object]) -> None:
    app.extensions[EXTENSION] = Replays(app, replay)
    if not event.contains(Session, "after_commit", _after_commit):
        event.listen(Session, "after_commit", _after_commit)
        event.listen(Session, "after_soft_rollback", _after_rollback)
