"""Requests per second of the app under a club's load, as ratios to bare Flask in one run.

Starts the app as `make run` does (gunicorn, gunicorn.conf.py) and a bare Flask app that
answers "hello" with the same settings, fills the app with a club's data, then drives each
request of the table below with wrk (50 connections) and prints req/s, the ratio to bare
Flask measured in the same round, and p50/p95/p99, each the median of the rounds. Each
load starts once the server has served what the one before left queued (`Server.drain`).

    python bench/load.py [--rounds 5] [--seconds 5] [--connections 50]
                         [--database-url postgresql://...] [--quick] [--only NAME ...]

Needs wrk (Debian's package). Signed-in requests carry the session cookie of a member;
API requests an API token.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import Server, api_token, free_port, load_average, machine_note, migrate

GOALS = {  # the floors: ratio to bare Flask below which players or hosts would notice
    "poll 304": 0.25,
    "scoreboard": 0.08,
    "API state": 0.15,
    "post a hand": 0.03,
    "history": 0.05,
    "score": 0.30,
}
USUAL = [{"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5}]
SCORED = {
    "variant": "classic",
    "sides": [
        {"went_out": True, "canastas": {"natural": 2, "mixed": 1}, "meld_points": 450,
         "red_threes": 3},
        {"meld_points": 120, "hand_points": 85, "red_threes": 1},
    ],
}  # fmt: skip
DONE_LUA = """
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout + summary.errors.status
  io.write(string.format(
    "RESULT %d %d %d %d %d %d\\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), errors))
end
"""


@dataclass(frozen=True)
class Request:
    name: str
    path: str
    method: str = "GET"
    body: str | None = None
    headers: tuple[tuple[str, str], ...] = ()
    rotate: tuple[int, ...] = ()  # match ids to post to in turn ({id} in the path)

    def lua(self) -> str:
        lines = [f'wrk.method = "{self.method}"']
        if self.body is not None:
            lines.append(f"wrk.body = [[{self.body}]]")
        for name, value in self.headers:
            lines.append(f'wrk.headers["{name}"] = [[{value}]]')
        if self.rotate:
            ids = ", ".join(str(i) for i in self.rotate)
            lines.append(f"local ids = {{{ids}}}\nlocal n = 0")
            lines.append(
                "request = function()\n  n = n + 1\n  local path = string.gsub("
                f'[[{self.path}]], "{{id}}", ids[n % #ids + 1])\n'
                "  return wrk.format(nil, path)\nend"
            )
        return "\n".join(lines) + DONE_LUA


@dataclass(frozen=True)
class Measure:
    rps: float
    p50: float
    p95: float
    p99: float
    errors: int


def wrk(base: str, request: Request, seconds: int, connections: int, folder: Path) -> Measure:
    script = folder / f"{request.name.replace(' ', '_')}.lua"
    script.write_text(request.lua())
    path = request.path.replace("{id}", str(request.rotate[0])) if request.rotate else request.path
    done = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "-s", str(script), base + path],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"RESULT (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)", done.stdout)
    if found is None:
        raise RuntimeError(done.stdout + done.stderr)
    count, duration, p50, p95, p99, errors = (int(x) for x in found.groups())
    return Measure(count / (duration / 1e6), p50 / 1000, p95 / 1000, p99 / 1000, errors)


def call(base: str, method: str, path: str, token: str, body: object = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read() or b"{}")


def session_cookie(base: str, name: str, password: str) -> str:
    """The Cookie header of a browser signed in as `name`."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(base + "/login").read().decode()
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    form = {"csrf_token": csrf, "username": name, "password": password, "next": ""}
    opener.open(base + "/login", urllib.parse.urlencode(form).encode()).read()
    return "; ".join(f"{cookie.name}={cookie.value}" for cookie in jar)


def fill(base: str, token: str, matches: int = 60, finished: int = 100) -> dict:
    """A club: matches of 20 hands in progress, finished matches for the history."""
    teams = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
    playing = []
    for _ in range(matches):
        body = {"variant": "classic", "sides": teams, "options": {"target": 1_000_000}}
        match_id = call(base, "POST", "/api/v1/matches", token, body)["id"]
        for _ in range(20):
            call(base, "POST", f"/api/v1/matches/{match_id}/hands", token, {"sides": USUAL})
        playing.append(match_id)
    out = [{"went_out": True, "canastas": {"natural": 2}, "meld_points": 300},
           {"meld_points": 40, "hand_points": 30}]  # fmt: skip
    for _ in range(finished):
        body = {"variant": "classic-2p", "sides": [{"players": ["Ann"]}, {"players": ["Cy"]}],
                "options": {"target": 500}}  # fmt: skip
        match_id = call(base, "POST", "/api/v1/matches", token, body)["id"]
        call(base, "POST", f"/api/v1/matches/{match_id}/hands", token, {"sides": out})
    return {"playing": playing}


def requests(base: str, token: str, cookie: str, club: dict) -> list[Request]:
    shown = club["playing"][0]
    etag = urllib.request.urlopen(
        urllib.request.Request(f"{base}/matches/{shown}/board", headers={"Cookie": cookie})
    ).headers["ETag"]
    gzip = ("Accept-Encoding", "gzip")
    bearer = ("Authorization", f"Bearer {token}")
    signed = ("Cookie", cookie)
    return [
        Request(
            "poll 304", f"/matches/{shown}/board", headers=(signed, gzip, ("If-None-Match", etag))
        ),
        Request("scoreboard", f"/matches/{shown}", headers=(signed, gzip)),
        Request("API state", f"/api/v1/matches/{shown}", headers=(bearer, gzip)),
        Request(
            "post a hand",
            "/api/v1/matches/{id}/hands",
            "POST",
            json.dumps({"sides": USUAL}),
            (bearer, gzip, ("Content-Type", "application/json")),
            tuple(club["playing"][1:]),
        ),
        Request("history", "/history", headers=(signed, gzip)),
        Request(
            "score",
            "/api/v1/score",
            "POST",
            json.dumps(SCORED),
            (gzip, ("Content-Type", "application/json")),
        ),
    ]  # fmt: skip


def run(
    database_url: str,
    rounds: int,
    seconds: int,
    connections: int,
    club_size: int = 60,
    only: tuple[str, ...] = (),
) -> dict[str, list]:
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: sudo apt-get install wrk")
    migrate(database_url)
    token = api_token(database_url, "load")
    app = Server(database_url, free_port())
    hello = Server(database_url, free_port(), app="hello:app")
    app.start()
    hello.start()
    results: dict[str, list] = {}
    try:
        club = fill(app.base, token, club_size, club_size * 5 // 3)
        cookie = session_cookie(app.base, "load", "bench-password-1")
        table = [r for r in requests(app.base, token, cookie, club) if not only or r.name in only]
        with tempfile.TemporaryDirectory() as folder:
            for _ in range(rounds):
                bare = wrk(hello.base, Request("hello", "/"), seconds, connections, Path(folder))
                hello.drain()
                results.setdefault("bare Flask", []).append((bare, 1.0))
                for request in table:
                    measure = wrk(app.base, request, seconds, connections, Path(folder))
                    app.drain()  # the next one measures its own requests alone
                    results.setdefault(request.name, []).append((measure, measure.rps / bare.rps))
    finally:
        app.stop()
        hello.stop()
    return results


def report(results: dict[str, list]) -> tuple[str, bool]:
    lines = [
        "| request | req/s | ratio to bare Flask | goal | p50 ms | p95 ms | p99 ms | errors |",
        "|---|---|---|---|---|---|---|---|",
    ]
    met = True
    for name, runs in results.items():
        ratio = statistics.median(r for _, r in runs)
        rps = statistics.median(m.rps for m, _ in runs)
        p50, p95, p99 = (
            statistics.median(getattr(m, f) for m, _ in runs) for f in ("p50", "p95", "p99")
        )
        errors = sum(m.errors for m, _ in runs)
        goal = GOALS.get(name)
        if goal is not None and ratio < goal:
            met = False
        goal_text = f">= {goal:.2f}" if goal else ""
        lines.append(
            f"| {name} | {rps:.0f} | {ratio:.3f} | {goal_text} | {p50:.1f} | {p95:.1f} "
            f"| {p99:.1f} | {errors} |"
        )
    return "\n".join(lines), met


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument(
        "--quick", action="store_true", help="one round of 2 seconds on a small club"
    )
    parser.add_argument(
        "--only", action="append", default=[], choices=list(GOALS), help="drive only these"
    )
    args = parser.parse_args(argv)
    rounds, seconds = (1, 2) if args.quick else (args.rounds, args.seconds)
    at_start = load_average()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'load.sqlite'}"
        results = run(
            url, rounds, seconds, args.connections, 6 if args.quick else 60, tuple(args.only)
        )
    table, met = report(results)
    print(table)
    print(f"\n{rounds} round(s) of {seconds} s, {args.connections} connections; medians.")
    print(machine_note(at_start))
    print("Every goal is met." if met else "Some goals are not met.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
