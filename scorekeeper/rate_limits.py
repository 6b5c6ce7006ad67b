"""Where the sign-in limits are counted: in the app's own database, by default.

Flask-Limiter counts in memory unless told otherwise, and each gunicorn worker has its
own memory: with two workers, 10 tries a minute were 20. This storage for `limits`
(its documented extension point: a `Storage` subclass registered by `STORAGE_SCHEME`)
keeps fixed-window counters in the `rate_limit` table of the database every worker
and app server already shares: nothing else to install or run. It has its own engine
(no pool: limits are checked on sign-in forms only), so a count is saved whatever
becomes of the request's own transaction.

`SCOREKEEPER_RATELIMIT_STORAGE` still names another storage (`redis://...`, or
`memory://`); a database in memory (tests) counts in memory.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Flask
from limits.storage import Storage
from sqlalchemy import create_engine, delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from .models import RateLimit
from .private_files import sqlite_file

SCHEME = "scorekeeper-database"
COUNTERS = RateLimit.__table__


class DatabaseStorage(Storage):
    """Fixed-window counters in the app's database (what Flask-Limiter's default
    fixed-window strategy asks of a storage)."""

    STORAGE_SCHEME = [SCHEME]  # noqa: RUF012 (as `limits` declares it)

    def __init__(
        self,
        uri: str | None = None,
        wrap_exceptions: bool = False,
        database_url: str = "",
        **options: Any,
    ) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.engine = create_engine(database_url, poolclass=NullPool)
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        self.insert = dialect.insert

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return SQLAlchemyError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count `amount` more for `key` in its window (a new window of `expiry` seconds
        when the last one is over); the count now."""
        now = time.time()
        fresh = {"key": key, "count": amount, "expires_at": now + expiry}
        upsert = self.insert(COUNTERS).values(**fresh)
        upsert = upsert.on_conflict_do_update(
            index_elements=[COUNTERS.c.key], set_={"count": COUNTERS.c.count + amount}
        )
        with self.engine.begin() as connection:
            # Windows that are over go first (this one's too: it starts again at `amount`).
            connection.execute(delete(COUNTERS).where(COUNTERS.c.expires_at <= now))
            connection.execute(upsert)
            count: int = connection.execute(
                select(COUNTERS.c.count).where(COUNTERS.c.key == key)
            ).scalar_one()
        return count

    def get(self, key: str) -> int:
        with self.engine.connect() as connection:
            count = connection.execute(
                select(COUNTERS.c.count).where(
                    COUNTERS.c.key == key, COUNTERS.c.expires_at > time.time()
                )
            ).scalar_one_or_none()
        return int(count or 0)

    def get_expiry(self, key: str) -> float:
        with self.engine.connect() as connection:
            expires = connection.execute(
                select(COUNTERS.c.expires_at).where(COUNTERS.c.key == key)
            ).scalar_one_or_none()
        return float(expires) if expires is not None else time.time()

    def check(self) -> bool:
        try:
            with self.engine.connect() as connection:
                connection.execute(select(func.count()).select_from(COUNTERS))
        except SQLAlchemyError:
            return False
        return True

    def reset(self) -> int | None:
        with self.engine.begin() as connection:
            cleared: int = connection.execute(delete(COUNTERS)).rowcount
        return cleared

    def clear(self, key: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(delete(COUNTERS).where(COUNTERS.c.key == key))


def configure(app: Flask) -> None:
    """Count in the app's database unless the settings name another storage."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if app.config.get("RATELIMIT_STORAGE_URI"):
        return
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        path = sqlite_file(url, app.instance_path)
        if path is None:  # a database in memory: this process's alone anyway
            app.config["RATELIMIT_STORAGE_URI"] = "memory://"
            return
        url = parsed.set(database=str(path)).render_as_string(hide_password=False)
    app.config["RATELIMIT_STORAGE_URI"] = f"{SCHEME}://"
    app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", {})["database_url"] = url
