"""SQLite writers of every worker take turns on a lock file (database.WriterQueue):
ordering, not timing, is asserted."""

from __future__ import annotations

import multiprocessing

import pytest

from scorekeeper import database
from scorekeeper.database import WriterQueue


def hold_turn(path: str, log: str, entered, release) -> None:
    queue = WriterQueue(path)
    with queue.turn():
        with open(log, "a") as out:
            out.write("other in\n")
        entered.set()
        release.wait(10)
        with open(log, "a") as out:
            out.write("other out\n")


@pytest.fixture
def other_writer(tmp_path):
    """Another process holding its turn on the same lock file until told to let go."""
    context = multiprocessing.get_context("fork")
    entered, release = context.Event(), context.Event()
    path, log = str(tmp_path / "db.sqlite-writers"), str(tmp_path / "log")
    process = context.Process(target=hold_turn, args=(path, log, entered, release))
    process.start()
    assert entered.wait(10)
    yield path, log, release
    release.set()
    process.join(10)


def lines(log: str) -> list[str]:
    with open(log) as found:
        return found.read().splitlines()


def test_a_writer_waits_for_the_other_workers_turn_to_end(other_writer):
    path, log, release = other_writer
    context = multiprocessing.get_context("fork")
    mine = context.Process(target=_write_after_turn, args=(path, log))
    mine.start()
    mine.join(0.5)  # it is waiting: nothing written yet
    assert lines(log) == ["other in"]
    release.set()
    mine.join(10)
    assert lines(log) == ["other in", "other out", "mine"]


def _write_after_turn(path: str, log: str) -> None:
    with WriterQueue(path).turn(), open(log, "a") as out:
        out.write("mine\n")


def test_past_the_busy_timeout_a_writer_goes_on_and_lets_sqlite_decide(other_writer, monkeypatch):
    path, log, _release = other_writer
    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 50)
    _write_after_turn(path, log)
    assert lines(log) == ["other in", "mine"]


def test_the_queue_is_for_sqlite_files_only(tmp_path):
    assert WriterQueue.for_url(f"sqlite:///{tmp_path / 'a.sqlite'}") is not None
    assert WriterQueue.for_url("sqlite://") is None
    assert WriterQueue.for_url("sqlite:///:memory:") is None
    assert WriterQueue.for_url(f"sqlite:///file:{tmp_path / 'a.sqlite'}?mode=ro&uri=true") is None
    assert WriterQueue.for_url("postgresql://u@localhost/db") is None


def test_a_lock_file_that_cannot_be_made_leaves_the_write_to_sqlite(tmp_path):
    """As in a folder the server may not write to: the write goes on (SQLite decides)."""
    queue = WriterQueue(str(tmp_path / "missing" / "db.sqlite-writers"))
    done = []
    with queue.turn():
        done.append("written")
    assert done == ["written"]
    assert not (tmp_path / "missing").exists()
