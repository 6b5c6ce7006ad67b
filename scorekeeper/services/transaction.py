"""One write, one transaction: commit on success, roll back on any error."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..extensions import db


@contextmanager
def transaction() -> Iterator[None]:
    try:
        yield
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
