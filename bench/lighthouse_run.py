"""Run Lighthouse on the main pages of a freshly started app and print the scores.

The app runs as `make run` serves it (gunicorn with gunicorn.conf.py) on a new SQLite
database with one account, signed in, and one Samba match in progress. Reports go to
test-results/lighthouse/.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
LIGHTHOUSE = ROOT / "bench" / "node_modules" / "lighthouse" / "cli" / "index.js"
REPORTS = ROOT / "test-results" / "lighthouse"
APP = "scorekeeper:create_app()"
USER, PASSWORD = "Lighthouse", "lighthouse-password-1"
CATEGORIES = ("performance", "accessibility", "best-practices")
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage "
    "--disable-background-networking --disable-component-update --disable-sync --no-first-run"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Browser:
    """A cookie jar signed in as USER: the pages need an account, as on a real server."""

    def __init__(self, base: str):
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def sign_in(self) -> None:
        with self.opener.open(self.base + "/login") as response:
            page = response.read().decode()
        found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
        if found is None:
            raise SystemExit("no CSRF token on the sign-in page")
        form = {"csrf_token": found[1], "username": USER, "password": PASSWORD, "remember": "y"}
        self.opener.open(self.base + "/login", urllib.parse.urlencode(form).encode()).close()
        if not any(cookie.name == "remember_token" for cookie in self.cookies):
            raise SystemExit("signing in did not work")

    def call(self, method: str, path: str, body: object) -> dict:
        request = urllib.request.Request(
            self.base + path, data=json.dumps(body).encode(), method=method,
            headers={"Content-Type": "application/json"},
        )  # fmt: skip
        with self.opener.open(request) as response:
            return json.loads(response.read())

    def cookie_header(self) -> str:
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.cookies)


def seed(browser: Browser) -> int:
    sides = [{"players": ["Ana", "Cy"]}, {"players": ["Bo", "Di"]}]
    match = browser.call("POST", "/api/v1/matches", {"variant": "samba", "sides": sides})["id"]
    hands = [
        [{"went_out": True, "canastas": {"samba": 1, "natural": 1}, "meld_points": 600},
         {"canastas": {"mixed": 1}, "meld_points": 150, "hand_points": 60}],
        [{"meld_points": 240, "hand_points": 30},
         {"went_out": True, "canastas": {"natural": 2}, "meld_points": 500, "red_threes": 2}],
        [{"canastas": {"samba": 1, "mixed": 1}, "meld_points": 700, "went_out": True},
         {"meld_points": 90, "hand_points": 120}],
    ]  # fmt: skip
    for hand in hands:
        browser.call("POST", f"/api/v1/matches/{match}/hands", {"sides": hand})
    return match


def start_app(folder: Path, port: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'lighthouse.sqlite'}",
        "SECRET_KEY": "lighthouse",
        "HOST": "127.0.0.1",
        "PORT": str(port),
    }
    flask = [BIN / "flask", "--app", APP]
    for command in (["db", "upgrade"], ["users", "create", USER, "--password", PASSWORD]):
        subprocess.run([*flask, *command], env=env, cwd=ROOT, check=True, capture_output=True)
    server = subprocess.Popen(
        [BIN / "gunicorn", "--config", "gunicorn.conf.py", APP],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/variants", timeout=1).close()
            return server
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise SystemExit("the app did not start")


def audit(url: str, name: str, chrome: str, cookie: str) -> dict[str, int]:
    REPORTS.mkdir(parents=True, exist_ok=True)
    report = REPORTS / f"{name}.json"
    subprocess.run(
        ["node", LIGHTHOUSE, url, "--quiet", "--output=json", f"--output-path={report}",
         f"--only-categories={','.join(CATEGORIES)}", f"--chrome-path={chrome}",
         f"--chrome-flags={CHROME_FLAGS}", f"--extra-headers={json.dumps({'Cookie': cookie})}"],
        check=True,
    )  # fmt: skip
    result = json.loads(report.read_text())
    if result.get("runtimeError"):
        raise SystemExit(f"Lighthouse could not audit {name}: {result['runtimeError']}")
    if result.get("finalDisplayedUrl", url) != url:
        raise SystemExit(f"{name}: Lighthouse was sent on to {result['finalDisplayedUrl']}")
    scores = {}
    for key in CATEGORIES:
        score = result["categories"][key]["score"]
        if score is None:
            raise SystemExit(f"{name}: no {key} score")
        scores[key] = round(score * 100)
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--min", type=int, default=95, help="fail below this score")
    parser.add_argument(
        "--min-performance",
        type=int,
        help="fail below this performance score (default: --min); CI lowers it, since the "
        "performance score moves with the machine's load and the others do not",
    )
    parser.add_argument("--chrome", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    args = parser.parse_args()
    floors = dict.fromkeys(CATEGORIES, args.min)
    if args.min_performance is not None:
        floors["performance"] = args.min_performance
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = start_app(Path(folder), port)
        try:
            browser = Browser(base)
            browser.sign_in()
            match = seed(browser)
            pages = {
                "home": f"{base}/",
                "scoreboard": f"{base}/matches/{match}",
                "record-hand": f"{base}/matches/{match}/hands/new",
            }
            cookie = browser.cookie_header()
            scores = {name: audit(url, name, args.chrome, cookie) for name, url in pages.items()}
        finally:
            server.terminate()
            server.wait()
    print(f"\n{'page':<14}" + "".join(f"{c:>16}" for c in CATEGORIES))
    for name, values in scores.items():
        print(f"{name:<14}" + "".join(f"{values[c]:>16}" for c in CATEGORIES))
    low = [(n, c, v) for n, vs in scores.items() for c, v in vs.items() if v < floors[c]]
    if low:
        sys.exit(f"below the floor {floors}: {low}")


if __name__ == "__main__":
    main()
