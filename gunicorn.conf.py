"""The gunicorn settings `make run` serves with (deploy/ uses them too).

HOST and PORT come from the environment (make passes them): HOST is 0.0.0.0 (the LAN)
by default, 127.0.0.1 when SCOREKEEPER_PROXIES says a proxy is the door, and a server
that believes a proxy's X-Forwarded-For refuses to listen beyond this machine (anyone
reaching the port directly could claim any address and escape the sign-in limits).

WEB_CONCURRENCY sets the number of workers (default 2) and GUNICORN_THREADS the threads
of each (default 4). Threaded workers, so that a phone on a poor connection, or someone
sending a request a line at a time, holds one thread and not a whole worker: the table
goes on being served while a few such connections trickle (tests/db/test_gunicorn.py).
Against many of them, serve the internet through a proxy that reads whole requests
before passing them on (Caddy, docs/hosting.md).

Request lines and headers are bounded (gunicorn's defaults, written out): a longer
request line is answered 414 by gunicorn itself; the app answers shorter over-long URLs
with its own 414 (JSON under /api/, see `edge.MAX_URL_LENGTH`).
"""

import gc
import ipaddress
import os
import sys


def _proxied() -> bool:
    return os.environ.get("SCOREKEEPER_PROXIES", "").strip() not in ("", "0")


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


host = os.environ.get("HOST") or ("127.0.0.1" if _proxied() else "0.0.0.0")
if _proxied() and not _loopback(host):
    sys.exit(
        f"Not started: SCOREKEEPER_PROXIES is set, so the app believes the X-Forwarded-For "
        f"header, but HOST={host} would let anyone reach it without the proxy and claim any "
        "address. Listen on this machine only (HOST=127.0.0.1, the proxy's target), or "
        "unset SCOREKEEPER_PROXIES to serve the network directly."
    )
bind = f"{host}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread"
accesslog = "-"
limit_request_line = 8190  # gunicorn's largest; more is answered 414 by gunicorn
limit_request_fields = 100
limit_request_field_size = 8190


def post_worker_init(worker):
    """The app and its libraries live as long as the worker: leave them out of the
    garbage collector's rounds, which then only look at what requests make."""
    gc.freeze()
