"""Start the app as `make run` does (migrate, then gunicorn with gunicorn.conf.py), for the
benchmark scripts and the tests that need a real server. Standard library only."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = "scorekeeper:create_app()"
GUNICORN = (sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def app_env(database_url: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "bench-secret-key"}
    env.update(extra or {})
    return env


def migrate(database_url: str, extra: Mapping[str, str] | None = None) -> None:
    subprocess.run(
        [sys.executable, "-m", "flask", "--app", APP, "db", "upgrade"],
        cwd=ROOT,
        env=app_env(database_url, extra),
        check=True,
        capture_output=True,
    )


def flask_cli(database_url: str, *args: str) -> str:
    """Run a `flask` command of the app on that database; its output."""
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", APP, *args],
        cwd=ROOT,
        env=app_env(database_url),
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def api_token(database_url: str, name: str = "bench") -> str:
    """An API token of a (new) account `name`, made with the shell commands self-hosters use."""
    try:
        flask_cli(database_url, "users", "create", name, "--password", "bench-password-1")
    except subprocess.CalledProcessError as error:
        if "is taken" not in (error.stderr or ""):
            raise
    return flask_cli(database_url, "users", "token", name).strip().splitlines()[-1]


def load_average() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


def machine_note(at_start: str) -> str:
    """The line under every table (`at_start`: `load_average()` when the run began): other
    work on the machine moves the figures, so a table says how busy the machine was."""
    return f"Machine: {os.cpu_count()} cores; {at_start} at the start, {load_average()} at the end."


def wait_until_up(base: str, path: str = "/api/v1/variants", timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(base + path, timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server at {base} did not come up") from None
            time.sleep(0.1)


class Server:
    """A gunicorn running the app; `kill()` is `kill -9` of its master and workers."""

    def __init__(
        self,
        database_url: str,
        port: int,
        extra: Mapping[str, str] | None = None,
        app: str = APP,
        wrapper: Sequence[str] = (),
        start_timeout: float = 30,
    ):
        """`wrapper` runs gunicorn under another program (valgrind), which may need
        longer than `start_timeout` seconds to answer."""
        self.database_url = database_url
        self.port = port
        self.extra = dict(extra or {})
        self.app = app
        self.wrapper = tuple(wrapper)
        self.start_timeout = start_timeout
        self.base = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = app_env(self.database_url, {"HOST": "127.0.0.1", "PORT": str(self.port)})
        env.update(self.extra)
        self.process = subprocess.Popen(
            # bench/ on the path for the yardstick app (hello:app), as make run's settings.
            [*self.wrapper, *GUNICORN, "--pythonpath", str(ROOT / "bench"), self.app],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group, so kill() reaches the workers
        )
        wait_until_up(self.base, self.probe, self.start_timeout)

    @property
    def probe(self) -> str:
        """A cheap path that answers 200 without signing in."""
        return "/api/v1/variants" if self.app == APP else "/"

    def drain(self) -> None:
        """Return once the requests a load left queued are served: wrk stops with up to
        one request per connection waiting in the listen queue, which the workers serve
        anyway (some 150 ms of work after a load of hand saves). Two requests in turn on
        the probe path are answered only after those queued ahead of them, so the next
        measurement starts on a server with nothing left over to do."""
        for _ in range(2):
            with urllib.request.urlopen(self.base + self.probe, timeout=60):
                pass

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self, timeout: float = 20) -> None:
        """SIGTERM, and `kill()` if it has not ended within `timeout` seconds."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def served(database_url: str, extra: Mapping[str, str] | None = None) -> Iterator[Server]:
    """A migrated database served by gunicorn on a free local port."""
    migrate(database_url, extra)
    server = Server(database_url, free_port(), extra)
    server.start()
    try:
        yield server
    finally:
        server.stop()
