"""A club tournament's round at its busiest: a 60-table round of a 120-pair event.

Every table has four phones following its live board (opened first, then polled every
2 seconds with the ETag the phone has) and saves a hand (through the API) every 36
seconds: five times a club's pace of a hand every 3 minutes. The projector view and 60
players' phones follow the standings (their live part every 3 seconds, with their ETag:
304 while nothing changed). The app is served as `make run` serves it (gunicorn,
gunicorn.conf.py), with two workers of one thread each (`--threads` to change it). The
report gives each kind of request's count and 95th percentile latency, and the errors.

    python bench/event_night.py [--tables 60] [--seconds 60] [--threads 1]
                                [--database-url postgresql://...] [--quick]

Standard library only; the phones are asyncio tasks in this process (which takes some
of the machine's two cores too: the figures are one machine serving and loading itself).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from club_night import PHONES, POLL_EVERY, Connection, Tally, follow, opened_phones, phone, table
from load import call, session_cookie
from serving import Server, api_token, free_port, load_average, machine_note, migrate

SAVE_EVERY = 180.0 / 5  # a hand every 3 minutes, at five times the pace
STANDINGS_EVERY = 3.0
STANDINGS_PHONES = 60
KINDS = ("poll 304", "poll 200", "save", "standings 304", "standings 200")
KINDS += ("projector 304", "projector 200")


async def round_night(
    server: Server, event: int, matches: list[int], cookie: str, token: str, seconds: float
) -> Tally:
    tally = Tally()
    port = server.port
    phones = await opened_phones(matches, cookie, port)  # before the round is measured
    until = time.monotonic() + seconds
    tasks = [phone(c, m, cookie, etag, until, tally) for m, c, etag in phones]
    tasks += [table(m, token, until, tally, port, SAVE_EVERY) for m in matches]

    def screen(path: str, kind: str) -> Coroutine[None, None, None]:
        connection = Connection("127.0.0.1", port)
        return follow(connection, path, kind, cookie, None, until, tally, STANDINGS_EVERY)

    tasks += [
        screen(f"/events/{event}/standings/live", "standings") for _ in range(STANDINGS_PHONES)
    ]
    tasks.append(screen(f"/events/{event}/projector/live", "projector"))
    await asyncio.gather(*tasks)
    return tally


def make_round(base: str, token: str, tables: int) -> tuple[int, list[int]]:
    """An event of 2 x `tables` pairs, 12 deals a round (no table ends during the run),
    round 1 started: the event and its table matches."""
    entries = [{"players": [f"Ann {n}", f"Bob {n}"]} for n in range(1, 2 * tables + 1)]
    body = {"name": "Bench cup", "variant": "classic", "rounds": 3, "deals_per_round": 12}
    event = call(base, "POST", "/api/v1/events", token, {**body, "entries": entries})["id"]
    state = call(base, "POST", f"/api/v1/events/{event}/rounds", token, {})
    return event, [t["match"] for t in state["rounds_played"][0]["tables"]]


def run(database_url: str, tables: int, seconds: float, threads: int) -> Tally:
    migrate(database_url)
    token = api_token(database_url, "club")
    extra = {"WEB_CONCURRENCY": "2", "GUNICORN_THREADS": str(threads)}
    server = Server(database_url, free_port(), extra)
    server.start()
    try:
        cookie = session_cookie(server.base, "club", "bench-password-1")
        event, matches = make_round(server.base, token, tables)
        server.drain()
        tally = asyncio.run(round_night(server, event, matches, cookie, token, seconds))
        server.drain()
    finally:
        server.stop()
    return tally


def report(tally: Tally) -> str:
    lines = ["| request | count | p95 ms |", "|---|---|---|"]
    for kind in KINDS:
        if tally.count(kind):
            lines.append(f"| {kind} | {tally.count(kind)} | {tally.p95(kind):.1f} |")
    total = sum(tally.count(kind) for kind in KINDS)
    lines.append(f"| all | {total} | {tally.p95():.1f} |")
    lines.append(f"\nErrors: {len(tally.errors)}.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--threads", type=int, default=1, help="threads of each worker")
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--quick", action="store_true", help="10 tables for 8 s")
    args = parser.parse_args(argv)
    tables, seconds = (10, 8.0) if args.quick else (args.tables, args.seconds)
    at_start = load_average()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'event.sqlite'}"
        tally = run(url, tables, seconds, args.threads)
    print(report(tally))
    print(
        f"\n{tables} tables, {seconds:.0f} s: {PHONES} phones a table polling every "
        f"{POLL_EVERY:.0f} s, a hand every {SAVE_EVERY:.0f} s a table, the projector and "
        f"{STANDINGS_PHONES} phones following the standings every {STANDINGS_EVERY:.0f} s; "
        f"2 workers of {args.threads} thread(s)."
    )
    print(machine_note(at_start))
    for error in tally.errors[:10]:
        print("error:", error)
    return 0


if __name__ == "__main__":
    sys.exit(main())
