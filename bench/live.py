"""Do phones following the score slow the scorer? Hand saves with and without 200 viewers.

The app is served as `make run` serves it. A scorer posts a hand through the API every
second (a real table takes minutes), and the time of each save is measured: first with
nobody watching,
then while V viewers (opened through a viewer link, no account) each poll the live
scoreboard every 2 seconds with If-None-Match, as the page's script does. Prints the
saves' p50/p95 in both cases, their ratio, and the viewers' answers (mostly 304).

    python bench/live.py [--viewers 200] [--hands 60] [--pace 1.0] [--database-url URL]
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import api_token, served

POLL_SECONDS = 2.0
USUAL = [{"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5}]


def call(base: str, method: str, path: str, token: str, body: object = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def saves(base: str, token: str, match_id: int, count: int, pace: float) -> list[float]:
    """Seconds each of `count` hand saves took, one save every `pace` seconds."""
    times = []
    for _ in range(count):
        started = time.perf_counter()
        call(base, "POST", f"/api/v1/matches/{match_id}/hands", token, {"sides": USUAL})
        times.append(time.perf_counter() - started)
        time.sleep(max(0.0, pace - times[-1]))
    return times


def viewer(base: str, link: str, match_id: int, stop: threading.Event, seen: Counter) -> None:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(base + link, timeout=30).close()  # the link's grant, kept in the cookie
    etag = ""
    next_poll = time.monotonic()
    while not stop.is_set():
        request = urllib.request.Request(
            f"{base}/matches/{match_id}/board", headers={"If-None-Match": etag}
        )
        try:
            with opener.open(request, timeout=30) as response:
                response.read()
                etag = response.headers.get("ETag", "")
                seen[response.status] += 1
        except urllib.error.HTTPError as error:
            seen[error.code] += 1
        except OSError:
            seen["error"] += 1
        next_poll += POLL_SECONDS
        stop.wait(max(0.0, next_poll - time.monotonic()))


def percentiles(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.95) - 1] * 1000


def run(database_url: str, viewers: int, hands: int, pace: float) -> dict:
    with served(database_url) as server:
        token = api_token(database_url, "live")
        teams = [{"players": ["Ann"]}, {"players": ["Bob"]}]
        body = {"variant": "classic-2p", "sides": teams, "options": {"target": 1_000_000}}
        match_id = call(server.base, "POST", "/api/v1/matches", token, body)["id"]
        link = call(
            server.base, "POST", f"/api/v1/matches/{match_id}/links", token, {"role": "viewer"}
        )["url"]
        link = "/s/" + link.rsplit("/s/", 1)[1]
        saves(server.base, token, match_id, 5, 0)  # warm up
        alone = saves(server.base, token, match_id, hands, pace)
        stop, seen = threading.Event(), Counter()
        threads = [
            threading.Thread(target=viewer, args=(server.base, link, match_id, stop, seen))
            for _ in range(viewers)
        ]
        for thread in threads:
            thread.start()
            time.sleep(POLL_SECONDS / viewers)  # the phones' polls spread over the period
        watched = saves(server.base, token, match_id, hands, pace)
        stop.set()
        for thread in threads:
            thread.join()
    return {"alone": percentiles(alone), "watched": percentiles(watched), "seen": seen}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument(
        "--pace", type=float, default=1.0, help="seconds between saves (a real table: minutes)"
    )
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'live.sqlite'}"
        result = run(url, args.viewers, args.hands, args.pace)
    (a50, a95), (w50, w95) = result["alone"], result["watched"]
    print("| hand saves | p50 ms | p95 ms |")
    print("|---|---|---|")
    print(f"| nobody watching | {a50:.1f} | {a95:.1f} |")
    print(f"| {args.viewers} phones following | {w50:.1f} | {w95:.1f} |")
    print(f"| ratio | {w50 / a50:.2f} | {w95 / a95:.2f} |")
    seen = result["seen"]
    print(f"\nViewers' polls: {dict(seen)} (304: nothing changed since their last look)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
