"""Run Lighthouse on the main pages of a freshly started app and print the scores.

The app runs under gunicorn (as `make run` serves it) on a new SQLite database
with one Samba match in progress. Reports go to test-results/lighthouse/.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "bench" / "node_modules" / "lighthouse" / "cli" / "index.js"
REPORTS = ROOT / "test-results" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices")
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage "
    "--disable-background-networking --disable-component-update --disable-sync --no-first-run"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def call(base: str, method: str, path: str, body: object) -> dict:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), method=method,
        headers={"Content-Type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def seed(base: str) -> int:
    sides = [{"players": ["Ana", "Cy"]}, {"players": ["Bo", "Di"]}]
    match = call(base, "POST", "/api/v1/matches", {"variant": "samba", "sides": sides})["id"]
    hands = [
        [{"went_out": True, "canastas": {"samba": 1, "natural": 1}, "meld_points": 600},
         {"canastas": {"mixed": 1}, "meld_points": 150, "hand_points": 60}],
        [{"meld_points": 240, "hand_points": 30},
         {"went_out": True, "canastas": {"natural": 2}, "meld_points": 500, "red_threes": 2}],
        [{"canastas": {"samba": 1, "mixed": 1}, "meld_points": 700, "went_out": True},
         {"meld_points": 90, "hand_points": 120}],
    ]  # fmt: skip
    for hand in hands:
        call(base, "POST", f"/api/v1/matches/{match}/hands", {"sides": hand})
    return match


def start_app(folder: Path, port: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'lighthouse.sqlite'}",
        "SECRET_KEY": "lighthouse",
    }
    app = "scorekeeper:create_app()"
    subprocess.run([ROOT / ".venv/bin/flask", "--app", app, "db", "upgrade"], env=env, check=True,
                   capture_output=True)  # fmt: skip
    server = subprocess.Popen(
        [ROOT / ".venv/bin/gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "2", app],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).close()
            return server
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise SystemExit("the app did not start")


def audit(url: str, name: str, chrome: str) -> dict[str, int]:
    REPORTS.mkdir(parents=True, exist_ok=True)
    report = REPORTS / f"{name}.json"
    subprocess.run(
        ["node", LIGHTHOUSE, url, "--quiet", "--output=json", f"--output-path={report}",
         f"--only-categories={','.join(CATEGORIES)}", f"--chrome-path={chrome}",
         f"--chrome-flags={CHROME_FLAGS}"],
        check=True,
    )  # fmt: skip
    result = json.loads(report.read_text())
    return {key: round(result["categories"][key]["score"] * 100) for key in CATEGORIES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--min", type=int, default=95, help="fail below this score")
    parser.add_argument("--chrome", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    args = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = start_app(Path(folder), port)
        try:
            match = seed(base)
            pages = {
                "home": f"{base}/",
                "scoreboard": f"{base}/matches/{match}",
                "record-hand": f"{base}/matches/{match}/hands/new",
            }
            scores = {name: audit(url, name, args.chrome) for name, url in pages.items()}
        finally:
            server.terminate()
            server.wait()
    print(f"\n{'page':<14}" + "".join(f"{c:>16}" for c in CATEGORIES))
    for name, values in scores.items():
        print(f"{name:<14}" + "".join(f"{values[c]:>16}" for c in CATEGORIES))
    low = [(n, c, v) for n, vs in scores.items() for c, v in vs.items() if v < args.min]
    if low:
        sys.exit(f"below {args.min}: {low}")


if __name__ == "__main__":
    main()
