"""A club night: how many tables one server holds with every phone following its table.

N tables play at once. Each table has four phones following its live board (opened
first, then polled every 2 seconds with the ETag the phone has: 304 while nothing
changed) and saves a hand every 3 minutes (through the API, at a moment of its own). The
app is served as `make run` serves it (gunicorn, gunicorn.conf.py). For each N the
polling runs for a while and the answers' 95th percentile latency and errors are
counted; the report gives the largest N served with p95 under 100 ms and no error.

    python bench/club_night.py [--tables 50,100,150,200] [--seconds 60]
                               [--database-url postgresql://...] [--quick]

Standard library only: the phones are asyncio tasks, each on its own keep-alive
connection, in this process (which takes some of the machine's two cores too: the
figures are what one machine serving and loading itself holds).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import call, session_cookie
from serving import Server, api_token, free_port, load_average, machine_note, migrate

POLL_EVERY = 2.0  # seconds between a phone's polls
SAVE_EVERY = 180.0  # seconds between a table's hands
PHONES = 4
P95_GOAL_MS = 100.0
TEAMS = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
HAND = [{"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5}]


@dataclass
class Tally:
    """What the phones and tables saw: latencies in ms by kind, and the errors."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def add(self, kind: str, ms: float) -> None:
        self.latencies.setdefault(kind, []).append(ms)

    def p95(self, kind: str | None = None) -> float:
        values = (
            self.latencies.get(kind, [])
            if kind
            else [v for values in self.latencies.values() for v in values]
        )
        if len(values) < 2:
            return values[0] if values else 0.0
        return statistics.quantiles(values, n=20)[-1]

    def count(self, kind: str) -> int:
        return len(self.latencies.get(kind, []))


class Connection:
    """One keep-alive HTTP/1.1 connection, opened again when the server closed it."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, dict[str, str], bytes]:
        for attempt in (1, 2):  # a kept connection the server closed: once more, afresh
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            try:
                return await self._exchange(method, path, headers, body)
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _exchange(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        assert self.reader is not None
        assert self.writer is not None
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body:
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readuntil(b"\r\n")
        if not status_line:
            raise ConnectionError("closed")
        status = int(status_line.split()[1])
        answer: dict[str, str] = {}
        while True:
            line = await self.reader.readuntil(b"\r\n")
            if line == b"\r\n":
                break
            name, _, value = line.decode("latin-1").partition(":")
            answer[name.strip().lower()] = value.strip()
        length = int(answer.get("content-length", "0"))
        data = await self.reader.readexactly(length) if length else b""
        if answer.get("connection", "").lower() == "close":
            await self.close()
        return status, answer, data

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await self.writer.wait_closed()
        self.reader = self.writer = None


async def open_board(
    connection: Connection, match_id: int, cookie: str, opening: asyncio.Semaphore
) -> str | None:
    """A phone opens its table's board (not counted: a night is the polling); its ETag."""
    async with opening:
        _, first, _ = await connection.request(
            "GET", f"/matches/{match_id}/board", {"Cookie": cookie, "Accept-Encoding": "gzip"}
        )
    return first.get("etag")


async def follow(
    connection: Connection,
    path: str,
    kind: str,
    cookie: str,
    etag: str | None,
    until: float,
    tally: Tally,
    every: float = POLL_EVERY,
) -> None:
    """A screen following something live (a table's board, an event's standings): `path`
    every `every` seconds, with the ETag it has (304 while nothing changed), from a
    moment of its own; counted as "`kind` 304" and "`kind` 200"."""
    await asyncio.sleep(random.uniform(0, every))
    try:
        while time.monotonic() < until:
            headers = {"Cookie": cookie, "Accept-Encoding": "gzip"}
            if etag:
                headers["If-None-Match"] = etag
            started = time.perf_counter()
            try:
                status, answer, _ = await connection.request("GET", path, headers)
            except (OSError, asyncio.IncompleteReadError) as error:
                tally.errors.append(f"{kind}: {error!r}")
            else:
                if status in (200, 304):
                    tally.add(f"{kind} {status}", (time.perf_counter() - started) * 1000)
                    etag = answer.get("etag", etag)
                else:
                    tally.errors.append(f"{kind}: {status}")
            await asyncio.sleep(every)
    finally:
        await connection.close()


def phone(
    connection: Connection, match_id: int, cookie: str, etag: str | None, until: float, tally: Tally
) -> Coroutine[None, None, None]:
    """A phone following its table's board."""
    return follow(connection, f"/matches/{match_id}/board", "poll", cookie, etag, until, tally)


async def pause(seconds: float, until: float) -> None:
    """Sleep `seconds`, but never past the end of the night (a table that would save its
    next hand after it saves none, and the night ends on time)."""
    await asyncio.sleep(max(0.0, min(seconds, until - time.monotonic())))


async def table(
    match_id: int, token: str, until: float, tally: Tally, port: int, save_every: float
) -> None:
    """A table saving a hand every `save_every` seconds, from a moment of its own."""
    connection = Connection("127.0.0.1", port)
    await pause(random.uniform(0, save_every), until)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    try:
        while time.monotonic() < until:
            body = json.dumps({"sides": HAND}).encode()
            started = time.perf_counter()
            try:
                status, _, _ = await connection.request(
                    "POST", f"/api/v1/matches/{match_id}/hands", headers, body
                )
            except (OSError, asyncio.IncompleteReadError) as error:
                tally.errors.append(f"save: {error!r}")
            else:
                if status == 201:
                    tally.add("save", (time.perf_counter() - started) * 1000)
                else:
                    tally.errors.append(f"save: {status}")
            await pause(save_every, until)
    finally:
        await connection.close()


async def opened_phones(
    ids: list[int], cookie: str, port: int
) -> list[tuple[int, Connection, str | None]]:
    """Four phones a table, each with its table's board opened, a few at a time (in a club
    the phones come in over the first minutes, not all in one second): (match, its
    connection, the board's ETag)."""
    following = [
        (match_id, Connection("127.0.0.1", port)) for match_id in ids for _ in range(PHONES)
    ]
    opening = asyncio.Semaphore(8)
    etags = await asyncio.gather(
        *(open_board(connection, match_id, cookie, opening) for match_id, connection in following)
    )
    return [(m, c, etag) for (m, c), etag in zip(following, etags, strict=True)]


async def night(
    server: Server, ids: list[int], cookie: str, token: str, seconds: float, save_every: float
) -> Tally:
    """Every phone opens its table's board first; then the night is measured."""
    tally = Tally()
    port = server.port
    phones = await opened_phones(ids, cookie, port)
    until = time.monotonic() + seconds
    tasks = [phone(c, match_id, cookie, etag, until, tally) for match_id, c, etag in phones]
    tasks += [table(match_id, token, until, tally, port, save_every) for match_id in ids]
    await asyncio.gather(*tasks)
    return tally


def tables_of(base: str, token: str, count: int, have: list[int]) -> list[int]:
    """`count` matches in play (more made when need be), each with a few hands."""
    while len(have) < count:
        body = {"variant": "classic", "sides": TEAMS, "options": {"target": 1_000_000}}
        match_id = call(base, "POST", "/api/v1/matches", token, body)["id"]
        for _ in range(3):
            call(base, "POST", f"/api/v1/matches/{match_id}/hands", token, {"sides": HAND})
        have.append(match_id)
    return have[:count]


@dataclass(frozen=True)
class Row:
    tables: int
    polls: int
    saves: int
    p95_poll: float
    p95_save: float
    p95_all: float
    errors: int

    @property
    def held(self) -> bool:
        return self.p95_all < P95_GOAL_MS and self.errors == 0


def run(
    database_url: str, counts: list[int], seconds: float, save_every: float
) -> tuple[list[Row], list[str]]:
    migrate(database_url)
    token = api_token(database_url, "club")
    server = Server(database_url, free_port())
    server.start()
    rows: list[Row] = []
    errors: list[str] = []
    try:
        cookie = session_cookie(server.base, "club", "bench-password-1")
        made: list[int] = []
        for count in counts:
            ids = tables_of(server.base, token, count, made)
            server.drain()
            tally = asyncio.run(night(server, ids, cookie, token, seconds, save_every))
            server.drain()
            polls = tally.count("poll 304") + tally.count("poll 200")
            rows.append(
                Row(
                    count,
                    polls,
                    tally.count("save"),
                    max(tally.p95("poll 304"), tally.p95("poll 200")),
                    tally.p95("save"),
                    tally.p95(),
                    len(tally.errors),
                )
            )
            errors += tally.errors[:5]
            if not rows[-1].held and len(rows) >= 2 and not rows[-2].held:
                break  # two in a row past the goal: larger nights will not hold either
    finally:
        server.stop()
    return rows, errors


def report(rows: list[Row]) -> str:
    lines = [
        "| tables | phones | polls | saves | p95 poll ms | p95 save ms | p95 all ms | errors |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row.tables} | {row.tables * PHONES} | {row.polls} | {row.saves} "
            f"| {row.p95_poll:.1f} | {row.p95_save:.1f} | {row.p95_all:.1f} | {row.errors} |"
        )
    held = [row.tables for row in rows if row.held]
    lines.append("")
    lines.append(
        f"Largest night held (p95 under {P95_GOAL_MS:.0f} ms, no error): "
        + (f"{max(held)} tables." if held else "none of those tried.")
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="50,100,150,200,250,300")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument(
        "--save-every", type=float, default=SAVE_EVERY, help="seconds between a table's hands"
    )
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--quick", action="store_true", help="10 and 20 tables, 8 s each")
    args = parser.parse_args(argv)
    counts = [10, 20] if args.quick else [int(n) for n in args.tables.split(",")]
    seconds = 8.0 if args.quick else args.seconds
    at_start = load_average()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'night.sqlite'}"
        rows, errors = run(url, counts, seconds, args.save_every)
    print(report(rows))
    print(
        f"\n{seconds:.0f} s a night; {PHONES} phones a table polling every {POLL_EVERY:.0f} s, "
        f"a hand saved every {args.save_every:.0f} s a table."
    )
    print(machine_note(at_start))
    for error in errors:
        print("error:", error)
    return 0


if __name__ == "__main__":
    sys.exit(main())
