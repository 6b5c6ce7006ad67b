"""The app as `make run` serves it: gunicorn with gunicorn.conf.py."""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import os
import re
import secrets
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.support import load_bench

serving = load_bench("serving")
# The tests of the served app share one server: on one worker, it is started once.
ON_THE_SERVER = pytest.mark.xdist_group("gunicorn")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('gunicorn') / 'served.sqlite'}"
    with serving.served(url) as running:
        yield running


def get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


@ON_THE_SERVER
def test_an_over_long_url_is_a_json_414_under_the_api(server):
    status, kind, body = get(f"{server.base}/api/v1/variants?options={'x' * 8_100}")
    assert status == 414
    assert kind == "application/json"
    assert json.loads(body)["errors"][0]["message"].startswith("The address is too long")


@ON_THE_SERVER
@pytest.mark.parametrize("length", [9_000, 20_000, 200_000])
def test_a_url_past_gunicorns_request_line_is_a_414_from_gunicorn(server, length):
    """gunicorn bounds the request line (8190 bytes) and answers longer ones itself."""
    status, _, body = get(f"{server.base}/api/v1/variants?options={'x' * length}")
    assert status == 414
    assert "Request Line is too large" in body


@ON_THE_SERVER
def test_an_over_long_url_of_a_page_is_a_414_page(server):
    status, kind, body = get(f"{server.base}/history?player={'x' * 8_100}")
    assert status == 414
    assert kind.startswith("text/html")
    assert "too long" in body


@ON_THE_SERVER
def test_a_url_just_under_the_limit_is_served(server):
    status, _, _ = get(f"{server.base}/history?player={'x' * 5_000}")
    assert status == 200


def workers(server) -> set[int]:
    """The process ids of the server's workers (its master's children)."""
    pid = server.process.pid
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return {int(child) for child in children}


def trickle(port: int, stop: threading.Event) -> None:
    """A client that sends a request's headers one line a second, never finishing them
    (bounded: at most a minute)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as slow:
        slow.sendall(b"GET /api/v1/variants HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for line in range(60):
            if stop.wait(1):
                return
            try:
                slow.sendall(f"X-Slow-{line}: 1\r\n".encode())
            except OSError:
                return


@ON_THE_SERVER
def test_the_table_is_served_while_slow_clients_trickle(server):
    """Three connections that send their headers a line a second hold no worker: the
    phones at the table are still answered (sync workers were all held by two)."""
    port = int(server.base.rsplit(":", 1)[1])
    before = workers(server)
    stop = threading.Event()
    slow = [threading.Thread(target=trickle, args=(port, stop)) for _ in range(3)]
    for thread in slow:
        thread.start()
    try:
        time.sleep(1.5)  # the slow clients are connected and have sent a few lines
        answers = []
        for _ in range(6):
            with urllib.request.urlopen(f"{server.base}/api/v1/variants", timeout=10) as answer:
                answers.append(answer.status)
        assert answers == [200] * 6
        assert all(thread.is_alive() for thread in slow)  # still trickling meanwhile
    finally:
        stop.set()
        for thread in slow:
            thread.join()
    assert workers(server) == before


@ON_THE_SERVER
def test_a_12_mb_request_line_is_refused_and_the_worker_lives(server):
    port = int(server.base.rsplit(":", 1)[1])
    before = workers(server)
    line = b"GET /api/v1/variants?q=" + b"x" * 12_000_000 + b" HTTP/1.1\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        with contextlib.suppress(OSError):
            client.sendall(line[:100_000])  # gunicorn answers once the limit is passed
        answer = client.recv(4096).decode("latin-1")
        with contextlib.suppress(OSError):
            client.sendall(line[100_000:])  # the rest: refused, the connection is closed
    assert answer.startswith("HTTP/1.1 414")
    assert "Request Line is too large" in answer
    assert get(f"{server.base}/api/v1/variants")[0] == 200
    assert workers(server) == before


def test_the_durability_script_runs_and_loses_nothing(tmp_path):
    """bench/durability.py, in a short run: kill -9 under load, nothing lost or doubled."""
    durability = load_bench("durability")
    result = durability.run_once(f"sqlite:///{tmp_path / 'd.sqlite'}", 3, 12, 0.4)
    assert result.acknowledged == 36
    assert (result.present, result.duplicated, result.lost) == (36, 0, 0)


def gunicorn_settings(**environ: str) -> subprocess.CompletedProcess[str]:
    """gunicorn.conf.py read as `make run` reads it, in this environment (nothing served;
    gunicorn loads the app, on a database in memory)."""
    env = {k: v for k, v in os.environ.items() if k not in ("HOST", "SCOREKEEPER_PROXIES")}
    env["DATABASE_URL"] = "sqlite://"
    return subprocess.run(
        [*serving.GUNICORN, "--print-config", serving.APP],
        cwd=serving.ROOT,
        env={**env, "SECRET_KEY": secrets.token_hex(32), **environ},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_make_run_serves_the_lan_with_threaded_workers_by_default():
    printed = gunicorn_settings()
    assert printed.returncode == 0, printed.stderr
    settings = dict(re.findall(r"^(\w+)\s+= (.*)$", printed.stdout, re.M))
    assert settings["bind"] == "['0.0.0.0:8000']"
    assert (settings["worker_class"], settings["workers"], settings["threads"]) == (
        "gthread",
        "2",
        "4",
    )
    assert settings["limit_request_line"] == "8190"


def test_behind_a_proxy_it_listens_on_this_machine_only():
    printed = gunicorn_settings(SCOREKEEPER_PROXIES="1")
    assert printed.returncode == 0, printed.stderr
    assert re.search(r"^bind\s+= \['127\.0\.0\.1:8000'\]$", printed.stdout, re.M)


def test_a_proxied_server_open_to_the_network_will_not_start():
    """X-Forwarded-For believed on a port anyone can reach: any address can be claimed."""
    refused = gunicorn_settings(SCOREKEEPER_PROXIES="1", HOST="0.0.0.0")
    assert refused.returncode == 1
    assert "Not started: SCOREKEEPER_PROXIES is set" in refused.stderr
    assert "HOST=127.0.0.1" in refused.stderr


def sign_in_tries(base: str, password: str) -> int:
    """One try at the sign-in form, as a browser makes it; the answer's status."""
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with browser.open(f"{base}/login", timeout=30) as login:
        csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', login.read().decode())
    assert csrf is not None
    form = {"csrf_token": csrf.group(1), "username": "Ada", "password": password}
    try:
        with browser.open(f"{base}/login", urllib.parse.urlencode(form).encode(), timeout=30):
            return 200
    except urllib.error.HTTPError as error:
        return error.code


def test_two_app_servers_on_one_database_count_the_sign_in_tries_together(tmp_path):
    """Each server (or worker) counted 10 tries of its own in memory: 20 in all."""
    url = f"sqlite:///{tmp_path / 'limits.sqlite'}"
    serving.migrate(url)
    serving.flask_cli(url, "users", "create", "Ada", "--password", "the right one")
    servers = [serving.Server(url, serving.free_port(), {"WEB_CONCURRENCY": "1"}) for _ in "ab"]
    try:
        for server in servers:
            server.start()
        tries = [sign_in_tries(servers[i % 2].base, "not it") for i in range(10)]
        assert tries == [422] * 10
        assert sign_in_tries(servers[0].base, "the right one") == 429
        assert sign_in_tries(servers[1].base, "the right one") == 429
    finally:
        for server in servers:
            server.stop()
