"""The app as deployed: Caddy (Debian's package, `tls internal`) terminating HTTPS in front
of two app servers served as `make run` serves them, which share the database and, through
Redis, the sign-in rate limits. Nothing is kept per process: a phone may be answered by
either server.

Without caddy or redis-server installed this fails, it is not skipped (.ci/run installs
them).
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import secrets
import shutil
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message

import pytest

from tests.support import load_bench

serving = load_bench("serving")
pytestmark = pytest.mark.xdist_group("caddy")  # one site, one worker: the tests run in order
SECRET = secrets.token_hex(32)


def free_port() -> int:
    return serving.free_port()


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: apt-get install {name} (.ci/run does)")
    return found


def wait_for_port(port: int, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        if time.monotonic() > deadline:
            raise RuntimeError(f"nothing listens on {port}")
        time.sleep(0.1)


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory) -> Iterator[str]:
    port = free_port()
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [tool("redis-server"), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_for_port(port)
        yield f"redis://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def site(tmp_path_factory, redis_url) -> Iterator[dict]:
    """Caddy on https://localhost:PORT in front of two app servers."""
    folder = tmp_path_factory.mktemp("caddy")
    https_port, http_port = free_port(), free_port()
    public = f"https://localhost:{https_port}"
    env = {
        "SCOREKEEPER_PUBLIC_URL": public,
        "SCOREKEEPER_PROXIES": "1",
        "SECRET_KEY": SECRET,
        "SCOREKEEPER_RATELIMIT_STORAGE": redis_url,
    }
    database = f"sqlite:///{folder / 'club.sqlite'}"
    serving.migrate(database, env)
    servers = [serving.Server(database, free_port(), env) for _ in range(2)]
    for server in servers:
        server.start()
    upstreams = " ".join(f"127.0.0.1:{server.port}" for server in servers)
    (folder / "Caddyfile").write_text(
        "{\n\tadmin off\n\tskip_install_trust\n"
        f"\thttp_port {http_port}\n\thttps_port {https_port}\n"
        f"\tstorage file_system {folder / 'data'}\n}}\n"
        f"localhost:{https_port} {{\n\ttls internal\n"
        f"\treverse_proxy {upstreams} {{\n\t\tlb_policy round_robin\n\t}}\n}}\n"
    )
    caddy = subprocess.Popen(
        [tool("caddy"), "run", "--config", str(folder / "Caddyfile"), "--adapter", "caddyfile"],
        env={**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data")},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(https_port)
        root = folder / "data" / "pki" / "authorities" / "local" / "root.crt"
        deadline = time.monotonic() + 20
        while not root.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        token = serving.api_token(database, "club")
        yield {
            "public": public,
            "http_port": http_port,
            "tls": ssl.create_default_context(cafile=str(root)),  # Caddy's own CA
            "servers": servers,
            "token": token,
        }
    finally:
        caddy.terminate()
        caddy.wait(timeout=10)
        for server in servers:
            server.stop()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def browser(site: dict) -> tuple[urllib.request.OpenerDirector, http.cookiejar.CookieJar]:
    """An HTTPS client with cookies that trusts Caddy's CA and does not follow redirects."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(
        urllib.request.HTTPSHandler(context=site["tls"]),
        urllib.request.HTTPCookieProcessor(jar),
        NoRedirect,
    )
    return opener, jar


@dataclass(frozen=True)
class Answer:
    status: int
    headers: Message
    body: str


def fetch(opener, url: str, data: bytes | None = None, headers: dict | None = None) -> Answer:
    """One request, its answer read whole (and the connection let go)."""
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        response = opener.open(request, timeout=20)
    except urllib.error.HTTPError as error:
        response = error
    with response:
        return Answer(response.status, response.headers, response.read().decode())


def sign_in(site: dict, opener, name: str, password: str):
    page = fetch(opener, site["public"] + "/login").body
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    form = urllib.parse.urlencode(
        {"csrf_token": csrf, "username": name, "password": password, "remember": "y", "next": ""}
    ).encode()
    return fetch(
        opener,
        site["public"] + "/login",
        form,
        {"Referer": site["public"] + "/login", "Content-Type": "application/x-www-form-urlencoded"},
    )


def test_https_secure_cookies_hsts_and_a_sign_in_through_the_proxy(site):
    opener, jar = browser(site)
    login = fetch(opener, site["public"] + "/login")
    assert login.status == 200
    assert login.headers["Strict-Transport-Security"] == "max-age=31536000"
    cookie = login.headers["Set-Cookie"]
    assert "Secure" in cookie
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    signed = sign_in(site, opener, "club", "bench-password-1")
    assert signed.status == 303
    assert signed.headers["Location"] == "/"
    # Each request goes to the next server: the session holds on both.
    for _ in range(4):
        home = fetch(opener, site["public"] + "/")
        assert home.status == 200
        assert ">club</a>" in home.body
    remember = next(c for c in jar if c.name == "remember_token")
    assert remember.secure


def test_links_are_built_with_the_public_https_address(site):
    api, _ = browser(site)
    headers = {"Authorization": f"Bearer {site['token']}", "Content-Type": "application/json"}
    body = {"variant": "classic-2p", "sides": [{"players": ["Ann"]}, {"players": ["Bob"]}]}
    made = fetch(api, site["public"] + "/api/v1/matches", json.dumps(body).encode(), headers)
    assert made.status == 201
    assert made.headers["Location"].startswith("/api/v1/matches/")
    match_id = json.loads(made.body)["id"]
    link = fetch(
        api,
        f"{site['public']}/api/v1/matches/{match_id}/links",
        json.dumps({"role": "viewer"}).encode(),
        headers,
    )
    assert json.loads(link.body)["url"].startswith(site["public"] + "/s/")


def test_plain_http_is_sent_to_https(site):
    opener, _ = browser(site)
    answer = fetch(opener, f"http://localhost:{site['http_port']}/history")
    assert answer.status in (301, 308)
    assert answer.headers["Location"].startswith("https://localhost")


def test_a_live_scoreboard_follows_a_hand_saved_through_the_other_server(site):
    opener, _ = browser(site)
    sign_in(site, opener, "club", "bench-password-1")
    headers = {"Authorization": f"Bearer {site['token']}", "Content-Type": "application/json"}
    body = {"variant": "classic-2p", "sides": [{"players": ["Cy"]}, {"players": ["Di"]}]}
    api, _ = browser(site)
    made = fetch(api, site["public"] + "/api/v1/matches", json.dumps(body).encode(), headers)
    match_id = json.loads(made.body)["id"]
    board = f"{site['public']}/matches/{match_id}/board"
    first = fetch(opener, board)
    etag = first.headers["ETag"]
    for _ in range(3):  # unchanged, whichever server answers
        assert fetch(opener, board, headers={"If-None-Match": etag}).status == 304
    hand = [{"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5}]
    fetch(api, f"{site['public']}/api/v1/matches/{match_id}/hands",
          json.dumps({"sides": hand}).encode(), headers)  # fmt: skip
    changed = fetch(opener, board, headers={"If-None-Match": etag})
    assert changed.status == 200
    assert "+50" in changed.body


def test_the_sign_in_rate_limit_is_shared_by_every_app_server(site):
    """10 attempts a minute from one address: counted per server, two servers would let
    about 20 through; counted together in Redis, the 11th of the minute is refused."""
    opener, _ = browser(site)
    statuses = [sign_in(site, opener, "club", "wrong password!").status for _ in range(11)]
    assert 429 in statuses
    first_refused = statuses.index(429)
    assert first_refused <= 10  # this minute's earlier sign-ins (above) count too
    assert statuses[:first_refused] == [422] * first_refused
