"""Kill the server mid-load and count the hands: acknowledged, present, duplicated, lost.

N clients post hands through the match API to the app served as `make run` serves it
(gunicorn, gunicorn.conf.py). After a while the server is killed with `kill -9` (master
and workers) and started again. A client whose post got no answer sends the same post
again, with the same idempotency token, until it is answered, as a phone would. At the
end every match is read back: each acknowledged hand must be there exactly once.

    python bench/durability.py [--clients 8] [--hands 40] [--kill-after 2.0]
                               [--database-url postgresql://...] [--runs 3]

Without --database-url a fresh SQLite file in a temporary folder is used.
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import Server, api_token, free_port, migrate

TEAMS = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


@dataclass
class Result:
    acknowledged: int
    present: int
    duplicated: int
    lost: int
    resent: int
    seconds: float

    def row(self, name: str) -> str:
        return (
            f"| {name} | {self.acknowledged} | {self.present} | {self.duplicated} "
            f"| {self.lost} | {self.resent} | {self.seconds:.1f} |"
        )


def call(
    base: str, method: str, path: str, body: object = None, token: str = ""
) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def hand(client: int, number: int) -> list[dict]:
    """A hand that says which client posted it and which of its hands it is."""
    probe = {"points": 5, "reason": f"probe {client}-{number}"}
    return [
        {"meld_points": 105, "hand_points": 5, "penalties": [probe]},
        {"meld_points": 55, "hand_points": 5},
    ]


def run_once(database_url: str, clients: int, hands: int, kill_after: float) -> Result:
    migrate(database_url)
    token = api_token(database_url, "durability")
    server = Server(database_url, free_port())
    server.start()
    started = time.monotonic()
    matches = []
    for _ in range(clients):
        status, state = call(
            server.base,
            "POST",
            "/api/v1/matches",
            {"variant": "classic", "sides": TEAMS, "options": {"target": 1_000_000}},
            token,
        )
        assert status == 201, state
        matches.append(state["id"])
    resent = Counter[int]()

    def post_all(client: int) -> list[str]:
        acknowledged = []
        for number in range(hands):
            body = {"sides": hand(client, number), "token": f"durability-{client}-{number:05d}"}
            while True:
                try:
                    path = f"/api/v1/matches/{matches[client]}/hands"
                    status, _ = call(server.base, "POST", path, body, token)
                except (OSError, http.client.HTTPException):
                    # No answer, or one cut off (IncompleteRead): the server is gone; send
                    # it again.
                    resent[client] += 1
                    time.sleep(0.2)
                    continue
                if status in (200, 201):
                    acknowledged.append(f"{client}-{number}")
                    break
                if status != 503:
                    raise RuntimeError(f"client {client} hand {number}: {status}")
                time.sleep(0.05)
        return acknowledged

    def killer() -> None:
        time.sleep(kill_after)
        server.kill()
        server.start()

    chaos = threading.Thread(target=killer)
    chaos.start()
    with ThreadPoolExecutor(clients) as pool:
        acknowledged = [probe for probes in pool.map(post_all, range(clients)) for probe in probes]
    chaos.join()

    seen: Counter[str] = Counter()
    for match_id in matches:
        status, state = call(server.base, "GET", f"/api/v1/matches/{match_id}", token=token)
        assert status == 200, state
        for recorded in state["hands"]:
            for penalty in recorded["sides"][0]["input"].get("penalties", []):
                seen[penalty["reason"].removeprefix("probe ")] += 1
    server.stop()
    wanted = set(acknowledged)
    return Result(
        acknowledged=len(acknowledged),
        present=sum(1 for probe in wanted if seen[probe] >= 1),
        duplicated=sum(count - 1 for count in seen.values() if count > 1),
        lost=sum(1 for probe in wanted if seen[probe] == 0),
        resent=sum(resent.values()),
        seconds=time.monotonic() - started,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--hands", type=int, default=40, help="hands each client posts")
    parser.add_argument("--kill-after", type=float, default=2.0, help="seconds into the load")
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args(argv)
    print("| run | acknowledged | present | duplicated | lost | resent | seconds |")
    print("|---|---|---|---|---|---|---|")
    failed = False
    for run in range(1, args.runs + 1):
        with tempfile.TemporaryDirectory() as folder:
            url = args.database_url or f"sqlite:///{Path(folder) / 'durability.sqlite'}"
            result = run_once(url, args.clients, args.hands, args.kill_after)
        print(result.row(str(run)), flush=True)
        failed |= result.lost > 0 or result.duplicated > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
