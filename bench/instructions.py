"""Instructions a hand save costs, counted by valgrind (cachegrind): the same to the
last digit from one run to the next, where timings on a shared machine move by a
tenth. For comparing one change with another; not part of `make bench`.

Two app instances in one process take turns at random (as two workers do) on a copy
of one club; the run with `--saves` more saves after the warm-up, minus the run
without them, divided by `--saves`. Needs valgrind (`apt-get install valgrind`).

    python bench/instructions.py [--matches 20] [--hands 100] [--warm 100] [--saves 100]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))


def prepare(folder: Path, matches: int, hands: int) -> None:
    """A club of `matches` matches of `hands` hands, and an API token, in `folder`."""
    from scaling import Club

    from scorekeeper.extensions import db
    from scorekeeper.models import User
    from scorekeeper.services import accounts
    from scorekeeper.services.storage import transaction

    club = Club(f"sqlite:///{folder / 'club.db'}")
    ids = club.matches(hands, matches)
    with club.app.app_context(), transaction():
        user = db.session.execute(db.select(User)).scalars().first()
        assert user is not None
        token = accounts.new_api_token(user, "instructions").secret
    (folder / "token").write_text(token)
    (folder / "ids").write_text(",".join(str(i) for i in ids))


def saves(folder: Path, count: int) -> None:
    """`count` saves on a copy of the club, two apps taking turns at random."""
    import gc

    from scaling import USUAL

    from scorekeeper import create_app

    work = Path(tempfile.mkdtemp())
    for suffix in ("", "-wal"):  # what the club's last commits left in its WAL too
        if (folder / f"club.db{suffix}").exists():
            shutil.copy(folder / f"club.db{suffix}", work / f"club.db{suffix}")
    config = {
        "SECRET_KEY": "bench",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{work / 'club.db'}",
        "RATELIMIT_ENABLED": False,
    }
    clients = [create_app(dict(config)).test_client() for _ in range(2)]
    gc.freeze()  # as gunicorn.conf.py does once a worker has started
    headers = {
        "Accept-Encoding": "gzip",
        "Authorization": f"Bearer {(folder / 'token').read_text()}",
    }
    ids = [int(i) for i in (folder / "ids").read_text().split(",")]
    turns = random.Random(7)
    for index in range(count):
        client = clients[turns.random() < 0.5]
        url = f"/api/v1/matches/{ids[index % len(ids)]}/hands"
        answer = client.post(url, json={"sides": USUAL}, headers=headers)
        assert answer.status_code == 201, answer.get_data(as_text=True)
    shutil.rmtree(work)


def counted(folder: Path, count: int) -> int:
    """The instructions of a run of `count` saves (startup included)."""
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--run",
        str(folder),
        "--count",
        str(count),
    ]
    done = subprocess.run(
        command, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit("valgrind printed no instruction count")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--warm", type=int, default=100)
    parser.add_argument("--saves", type=int, default=100)
    parser.add_argument("--run", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run is not None:  # the child valgrind runs
        saves(args.run, args.count)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: sudo apt-get install valgrind")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        prepare(folder, args.matches, args.hands)
        base = counted(folder, args.warm)
        more = counted(folder, args.warm + args.saves)
    per_save = (more - base) / args.saves
    print(f"{per_save / 1e6:.3f} M instructions per save")
    print(f"({args.matches} matches of {args.hands} hands, {args.saves} saves after {args.warm})")


if __name__ == "__main__":
    main()
