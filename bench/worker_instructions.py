"""Instructions a gunicorn worker spends on one request, counted by valgrind (cachegrind):
bare Flask's "hello" and the app's `POST /api/v1/score`, served as `make run` serves them
(gunicorn.conf.py, one sync worker). Their ratio is what `bench/load.py` measures for
scoring, less the load generator's and the kernel's share, and the same to the last
digit from one run to the next. For comparing one change with another; not part of
`make bench`.

Each request is counted as (a run serving `--requests` more requests after the warm-up
minus a run serving none) / `--requests`, on one new connection each (a sync worker
closes it after the answer, as under `wrk`). Needs valgrind (`apt-get install valgrind`).

    python bench/worker_instructions.py [--warm 100] [--requests 500]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import socket
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import SCORED
from serving import APP, Server, free_port, migrate

BODY = json.dumps(SCORED).encode()
ASKS = {  # name: (gunicorn's app, the request's bytes)
    "hello": ("hello:app", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n\r\n"),
    "score": (
        APP,
        b"POST /api/v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n"
        b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(BODY), BODY),
    ),
}


def ask(port: int, request: bytes) -> bytes:
    """One request on a new connection; the whole answer (the worker closes it)."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def worker_total(database_url: str, name: str, warm: int, count: int, folder: Path) -> int:
    """The instructions of the worker's whole life: start, `warm` + `count` requests, exit
    (its first request, `Server`'s probe, the same in every run)."""
    app, request = ASKS[name]
    out = folder / f"{name}-{count}"
    server = Server(
        database_url,
        free_port(),
        {"WEB_CONCURRENCY": "1", "PYTHONHASHSEED": "0"},  # the same dicts and sets each run
        app,
        wrapper=(
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--trace-children=yes",
            f"--cachegrind-out-file={out}.%p",
        ),
        start_timeout=300,  # the app starts slowly under valgrind
    )
    server.start()
    try:
        first = ask(server.port, request)
        assert first.startswith(b"HTTP/1.1 200 "), first[:200]
        for _ in range(warm - 1 + count):
            ask(server.port, request)
    finally:
        server.stop(timeout=300)  # valgrind writes its counts as the processes end
    totals = []  # the master's and the worker's
    for path in folder.glob(f"{out.name}.*"):
        found = re.search(r"^summary: (\d+)", path.read_text(), re.MULTILINE)
        assert found is not None, path
        totals.append(int(found[1]))
    return max(totals)  # the worker's: it served the requests


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm", type=int, default=100)
    parser.add_argument("--requests", type=int, default=500)
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: sudo apt-get install valgrind")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        database_url = f"sqlite:///{folder / 'instructions.sqlite'}"
        migrate(database_url)
        each = {}
        for ask_name in ASKS:
            base = worker_total(database_url, ask_name, args.warm, 0, folder)
            more = worker_total(database_url, ask_name, args.warm, args.requests, folder)
            each[ask_name] = (more - base) / args.requests
    print("| request | instructions in the worker | ratio to bare Flask |")
    print("|---|---|---|")
    for ask_name, count in each.items():
        print(f"| {ask_name} | {count / 1000:,.0f} K | {each['hello'] / count:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
