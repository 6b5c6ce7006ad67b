"""Flat cost as data grows: each request on a small and a large club, in-process, same run.

For every row the request runs on small data and on large data, alternately (so a busy
machine slows both alike), and the table shows the median time of each, their ratio
against the goal, and the number of SQL queries each ran (they must not grow with the
data). Then the weight of the pages of a 300-hand match (gzip, with CSS and JS).

    python bench/scaling.py [--repeat 15] [--matches 10000] [--database-url URL] [--quick]

Without --database-url it uses fresh SQLite files; with a PostgreSQL URL it makes two
schemas in it (and drops them after).
"""

from __future__ import annotations

import argparse
import gzip
import re
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import event, insert, select, text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from serving import load_average, machine_note  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.cache import LruCache  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Hand, HandSide, Match, Side, SideMember  # noqa: E402
from scorekeeper.services.hand_changes import correct_hand, remove_hand  # noqa: E402
from scorekeeper.services.hand_writes import record_hand  # noqa: E402
from scorekeeper.services.listing import Cursor  # noqa: E402
from scorekeeper.services.storage import transaction  # noqa: E402

BUDGET = 14 * 1024
TEAMS = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
USUAL = [{"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5}]
OTHER = [{"meld_points": 95, "hand_points": 5}, {"meld_points": 25, "hand_points": 5}]
OUT = [{"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}, {"hand_points": 30}]


@dataclass(frozen=True)
class Row:
    name: str
    goal: float | None
    small: tuple[float, int]  # median seconds, queries
    large: tuple[float, int]

    def line(self) -> str:
        ratio = self.large[0] / self.small[0]
        goal = f"<= {self.goal:.1f}" if self.goal else ""
        met = "" if self.goal is None else (" ok" if ratio <= self.goal else " MISSED")
        return (
            f"| {self.name} | {self.small[0] * 1000:.2f} | {self.large[0] * 1000:.2f} "
            f"| {ratio:.2f} | {goal}{met} | {self.small[1]} | {self.large[1]} |"
        )


class Club:
    """An app on its own database, with a signed-in client and an API client."""

    def __init__(self, url: str) -> None:
        self.app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": url,
                "RATELIMIT_ENABLED": False,
                "WTF_CSRF_ENABLED": False,
                "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
            }
        )
        with self.app.app_context():
            db.create_all()
        from scorekeeper.services import accounts

        with self.app.app_context(), transaction():
            accounts.create_user("bench", "bench-password-1", admin=True)
        self.client = self.app.test_client()
        page = self.client.get("/login").get_data(as_text=True)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
        form = {"username": "bench", "password": "bench-password-1", "next": ""}
        if token:
            form["csrf_token"] = token.group(1)
        self.client.post("/login", data=form)
        self.queries = 0

        with self.app.app_context():

            @event.listens_for(db.engine, "before_cursor_execute")
            def count(*_args: Any) -> None:
                self.queries += 1

    def api(self, method: str, path: str, body: object = None) -> dict:
        response = self.client.open(path, method=method, json=body)
        assert response.status_code in (200, 201), (path, response.get_data(as_text=True))
        return response.get_json()

    def match(self, hands: int, variant: str = "classic", target: int = 1_000_000) -> int:
        body = {"variant": variant, "sides": TEAMS, "options": {"target": target}}
        match_id = self.api("POST", "/api/v1/matches", body)["id"]
        for _ in range(hands):
            self.api("POST", f"/api/v1/matches/{match_id}/hands", {"sides": USUAL})
        return match_id

    def matches(self, hands: int, count: int) -> list[int]:
        """`count` matches in progress of `hands` hands: one played, the others copies."""
        first = self.match(hands)
        with self.app.app_context():
            return [first, *copy_match(first, count - 1)]

    def finished(self, count: int) -> None:
        """`count` finished matches: one played, then copied row by row (fast)."""
        body = {"variant": "classic", "sides": TEAMS, "options": {"target": 200}}
        first = self.api("POST", "/api/v1/matches", body)["id"]
        self.api("POST", f"/api/v1/matches/{first}/hands", {"sides": OUT})
        if count > 1:
            with self.app.app_context():
                copy_match(first, count - 1)

    def cursor(self, skipped: int) -> str:
        """The history's page link after its `skipped` newest matches (a keyset page)."""
        with self.app.app_context():
            row = db.session.execute(
                select(Match.finished_at, Match.id)
                .where(Match.finished_at.is_not(None))
                .order_by(Match.finished_at.desc(), Match.id.desc())
                .offset(skipped - 1)
                .limit(1)
            ).one()
            return Cursor(row[0], row[1]).token()

    def forget(self) -> None:
        """Empty the per-process caches: time the first view after a change."""
        for kept in self.app.extensions.values():
            if isinstance(kept, LruCache):
                kept.clear()


def copy_match(match_id: int, copies: int) -> list[int]:
    """Copies of a match, each a minute older, with their sides and hands; their ids."""
    session = db.session
    match = session.get(Match, match_id)
    sides = session.execute(select(Side).where(Side.match_id == match_id)).scalars().all()
    members = {
        side.id: session.execute(select(SideMember).where(SideMember.side_id == side.id))
        .scalars()
        .all()
        for side in sides
    }
    hands = session.execute(select(Hand).where(Hand.match_id == match_id)).scalars().all()
    hand_sides = {
        hand.id: session.execute(select(HandSide).where(HandSide.hand_id == hand.id))
        .scalars()
        .all()
        for hand in hands
    }
    top = {
        name: session.execute(text(f'SELECT coalesce(max(id), 0) FROM "{name}"')).scalar_one()
        for name in ("match", "side", "side_member", "hand", "hand_side")
    }
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in top}
    columns = [c.key for c in Match.__table__.columns if c.key != "id"]
    for n in range(1, copies + 1):
        new_match = top["match"] + n
        row = {c: getattr(match, c) for c in columns}
        older = timedelta(minutes=n)
        row.update(id=new_match, created_at=match.created_at - older)
        if "uid" in row:  # a match's uid names it alone
            row["uid"] = uuid.uuid4().hex
        if match.finished_at is not None:
            row["finished_at"] = match.finished_at - older
        rows["match"].append(row)
        for side in sides:
            top["side"] += 1
            rows["side"].append(
                {"id": top["side"], "match_id": new_match, "seat": side.seat, "name": side.name}
            )
            for member in members[side.id]:
                top["side_member"] += 1
                rows["side_member"].append(
                    {
                        "id": top["side_member"],
                        "side_id": top["side"],
                        "player_id": member.player_id,
                        "position": member.position,
                    }
                )
        for hand in hands:
            top["hand"] += 1
            rows["hand"].append(
                {"id": top["hand"], "match_id": new_match, "number": hand.number,
                 "version": hand.version, "recorded_at": hand.recorded_at,
                 "updated_at": hand.updated_at}
            )  # fmt: skip
            for hand_side in hand_sides[hand.id]:
                top["hand_side"] += 1
                rows["hand_side"].append(
                    {"id": top["hand_side"], "hand_id": top["hand"], "seat": hand_side.seat,
                     "record": hand_side.record, "total": hand_side.total,
                     "lines": hand_side.lines}
                )  # fmt: skip
    tables = {"match": Match, "side": Side, "side_member": SideMember, "hand": Hand}
    tables["hand_side"] = HandSide
    for name, model in tables.items():
        for start in range(0, len(rows[name]), 5000):
            session.execute(insert(model.__table__), rows[name][start : start + 5000])
    if session.get_bind().dialect.name == "postgresql":
        for name in tables:
            session.execute(
                text(f"SELECT setval(pg_get_serial_sequence('\"{name}\"', 'id'), "
                     f'(SELECT max(id) FROM "{name}"))')
            )  # fmt: skip
    session.commit()
    return [row["id"] for row in rows["match"]]


def timed(club: Club, action: Callable[[], object]) -> tuple[float, int]:
    before = club.queries
    start = time.perf_counter()
    action()
    return time.perf_counter() - start, club.queries - before


def compare(
    name: str,
    goal: float | None,
    small: Club,
    large: Club,
    action: Callable[[Club, int], Callable[[], object]],
    repeat: int,
) -> Row:
    """Run `action` alternately on both clubs (`action(club, i)` gives the i-th call)."""
    runs: dict[int, list[tuple[float, int]]] = {0: [], 1: []}
    for i in range(repeat + 1):
        for side, club in enumerate((small, large)):
            measure = timed(club, action(club, i))
            if i:  # the first call warms up
                runs[side].append(measure)

    def median(values: list[tuple[float, int]]) -> tuple[float, int]:
        return statistics.median(v[0] for v in values), max(v[1] for v in values)

    return Row(name, goal, median(runs[0]), median(runs[1]))


def get(path: str, forget: bool = False) -> Callable[[Club, int], Callable[[], object]]:
    def action(club: Club, _i: int) -> Callable[[], object]:
        def call() -> None:
            if forget:
                club.forget()
            response = club.client.get(path.format(**club.__dict__))
            assert response.status_code == 200, (path, response.status_code)

        return call

    return action


def write(kind: str) -> Callable[[Club, int], Callable[[], object]]:
    """Record, correct (hand 1) or remove (hand 1) a hand of the i-th prepared match."""

    def action(club: Club, i: int) -> Callable[[], object]:
        match_id = club.writable[i]  # type: ignore[attr-defined]

        def call() -> None:
            with club.app.app_context(), transaction():
                if kind == "record":
                    record_hand(match_id, USUAL, token=uuid.uuid4().hex)
                elif kind == "correct":
                    version = db.session.execute(
                        select(Hand.version).where(Hand.match_id == match_id, Hand.number == 1)
                    ).scalar_one()
                    correct_hand(match_id, 1, OTHER, version)
                else:
                    remove_hand(match_id, 1)

        return call

    return action


def weight(club: Club, path: str) -> int:
    """Bytes over the wire of a page with its stylesheet and script (gzip)."""
    response = club.client.get(path, headers={"Accept-Encoding": "gzip"})
    html = gzip.decompress(response.get_data()).decode()
    size = len(response.get_data())
    for asset in re.findall(r'(?:href|src)="(/static/[^"]+\.(?:css|js))"', html):
        size += len(club.client.get(asset, headers={"Accept-Encoding": "gzip"}).get_data())
    return size


@contextmanager
def databases(url: str | None) -> Iterator[tuple[str, str]]:
    if url is None:
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{folder}/small.sqlite", f"sqlite:///{folder}/large.sqlite"
        return
    import psycopg

    plain = url.replace("postgresql+psycopg://", "postgresql://")
    names = [f"bench_{uuid.uuid4().hex[:8]}" for _ in range(2)]
    with psycopg.connect(plain, autocommit=True) as connection:
        for name in names:
            connection.execute(f"CREATE SCHEMA {name}")
    try:
        joiner = "&" if "?" in url else "?"
        yield tuple(f"{url}{joiner}options=-csearch_path%3D{n}" for n in names)  # type: ignore[misc]
    finally:
        with psycopg.connect(plain, autocommit=True) as connection:
            for name in names:
                connection.execute(f"DROP SCHEMA {name} CASCADE")


def settle(*clubs: Club) -> None:
    """PostgreSQL plans from table statistics, which its autovacuum gathers as a database
    grows; rows copied in bulk a moment ago have none yet, so gather them now."""
    for club in clubs:
        with club.app.app_context():
            if db.engine.dialect.name == "postgresql":
                with db.engine.connect() as connection:
                    connection.execute(text("ANALYZE"))
                    connection.commit()


def run(url: str | None, matches: int, repeat: int) -> tuple[list[Row], list[str]]:
    with databases(url) as (small_url, large_url):
        small, large = Club(small_url), Club(large_url)
        small.finished(10)
        large.finished(matches)
        for club in (small, large):
            club.match(3)  # matches in progress on the home page
        small.board, large.board = small.match(5), large.match(200)  # type: ignore[attr-defined]
        settle(small, large)
        far = matches // 25  # page 400 of 10,000
        small.page = small.cursor(1)  # type: ignore[attr-defined]
        large.page = large.cursor((far - 1) * 20)  # type: ignore[attr-defined]
        rows = [
            # A history page is kept until its groups change: the first view after a
            # change (caches emptied) lists the matches, a view before one reuses it.
            compare(
                "history page 1, first view",
                1.3,
                small,
                large,
                get("/history", forget=True),
                repeat,
            ),
            compare(
                f"history page {far} (large) / page 1 (small), first view",
                1.3,
                small,
                large,
                get("/history?after={page}", forget=True),
                repeat,
            ),
            compare(
                "history, one player, first view",
                1.3,
                small,
                large,
                get("/history?player=Ann", forget=True),
                repeat,
            ),
            compare("history page 1, seen before", 1.3, small, large, get("/history"), repeat),
            compare("home", 1.3, small, large, get("/"), repeat),
            compare(
                "scoreboard 5 / 200 hands, first view",
                2.0,
                small,
                large,
                get("/matches/{board}", forget=True),
                repeat,
            ),
            compare(
                "scoreboard 5 / 200 hands, seen before",
                2.0,
                small,
                large,
                get("/matches/{board}"),
                repeat,
            ),
        ]
        for kind in ("record", "correct", "remove"):
            for club, hands in ((small, 5), (large, 200)):
                club.writable = club.matches(hands, repeat + 1)  # type: ignore[attr-defined]
            settle(small, large)
            rows.append(
                compare(f"{kind} a hand, 5 / 200 hands", 1.5, small, large, write(kind), repeat)
            )
        heavy = large.match(300, variant="bolivia")
        weights = []
        for name, path in (
            ("scoreboard", f"/matches/{heavy}"),
            ("record a hand", f"/matches/{heavy}/hands/new"),
            ("hand 300 explained", f"/matches/{heavy}/hands/300"),
        ):
            size = weight(large, path)
            verdict = "ok" if size <= BUDGET else "OVER"
            weights.append(f"| {name}, 300 hands | {size / 1024:.1f} KB | {verdict} |")
        for club in (small, large):
            with club.app.app_context():
                db.engine.dispose()
    return rows, weights


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--database-url", help="default: fresh SQLite files")
    parser.add_argument("--quick", action="store_true", help="1,000 matches, 3 repeats")
    args = parser.parse_args(argv)
    matches, repeat = (1000, 3) if args.quick else (args.matches, args.repeat)
    url = args.database_url
    if url and url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    at_start = load_average()
    rows, weights = run(url, matches, repeat)
    print(f"Small: 10 finished matches, a 5-hand match. Large: {matches} finished, 200 hands.")
    print("| request | small ms | large ms | ratio | goal | queries small | queries large |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print(row.line())
    print("\n| page | weight (gzip, with CSS and JS) | within 14 KB |\n|---|---|---|")
    print("\n".join(weights))
    grew = [row.name for row in rows if row.large[1] != row.small[1]]
    print(f"\nMedians of {repeat}; queries: the most any call ran.")
    print("Query counts grew for: " + ", ".join(grew) if grew else "No query count grew.")
    print(machine_note(at_start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
