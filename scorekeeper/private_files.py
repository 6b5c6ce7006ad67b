"""Files that hold the club's data or secrets are the server's user's alone (mode 0600).

SQLite makes a database readable by everyone (0644, less the umask), and its -wal and
-shm files with the database's own mode: a database made here first, private, keeps
them private too. Backups, the secret key and the set-up code are made the same way.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from sqlalchemy.engine import make_url

PRIVATE = 0o600
SQLITE_COMPANIONS = ("", "-wal", "-shm", "-journal")


def create_private(path: Path) -> None:
    """An empty file at `path`, readable and writable by this user only, unless one is
    there already (then left as it is: see `keep_private`)."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE))


def keep_private(path: Path) -> None:
    """Take away what others may do with an existing file of this user's."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return
    if status.st_uid == os.getuid() and stat.S_IMODE(status.st_mode) & 0o077:
        path.chmod(stat.S_IMODE(status.st_mode) & 0o700)


def sqlite_file(url: str, instance_path: str) -> Path | None:
    """The file of a SQLite database URL (None for another database, or one in memory);
    a relative path is in the instance folder, as Flask-SQLAlchemy takes it."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    if parsed.database == ":memory:" or parsed.database.startswith("file:"):
        return None
    return Path(instance_path) / parsed.database


def private_database(url: str, instance_path: str) -> None:
    """Make the SQLite database of `url` private before SQLite first opens it, and tighten
    the files of one made before (the database, its -wal, -shm and -journal)."""
    path = sqlite_file(url, instance_path)
    if path is None or not path.parent.is_dir():
        return
    create_private(path)
    for suffix in SQLITE_COMPANIONS:
        keep_private(path.with_name(path.name + suffix))
