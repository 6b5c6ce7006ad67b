"""Flask's signed-cookie session, read faster when the same cookie comes again.

A phone following a live board sends the same session cookie every two seconds. Its
signature is checked once; later requests with the very same cookie only check its age
and decode its content again (fresh objects each time, so nothing a request changes is
shared). The serializer is made once, not twice per request.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from flask import Flask, Request, Response
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature, URLSafeTimedSerializer

from .delivery import vary_on

CHECKED_COOKIES = 4096  # distinct cookies remembered as checked (a club's phones)


class CheckedCookieSessions(SecureCookieSessionInterface):
    def __init__(self) -> None:
        self._serializer: tuple[tuple[Any, ...], URLSafeTimedSerializer | None] | None = None
        self._checked: OrderedDict[str, tuple[bytes, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        made = self._serializer
        if made is None or made[0] != keys:
            made = self._serializer = (keys, super().get_signing_serializer(app))
        return made[1]

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        if not request.environ.get("HTTP_COOKIE"):
            return self.session_class()  # no cookies at all (API clients): none to parse
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        with self._lock:
            checked = self._checked.get(cookie)
            if checked is not None:
                self._checked.move_to_end(cookie)
        if checked is None:
            checked = self._check(serializer, cookie, max_age)
            if checked is None:
                return self.session_class()
        payload, signed_at = checked
        if not 0 <= int(time.time()) - signed_at <= max_age:  # as itsdangerous counts
            with self._lock:
                self._checked.pop(cookie, None)
            return self.session_class()
        try:
            return self.session_class(serializer.load_payload(payload))
        except BadSignature:
            return self.session_class()

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """As Flask's. A session this request did not change, and that is not refreshed on
        each request (a poll, signed in or not), has no cookie to write or delete: it is
        done without reading the seven cookie settings first, only "Vary: Cookie" when
        the session was read."""
        if session.modified or (session and self.should_set_cookie(app, session)):
            super().save_session(app, session, response)
        elif session.accessed:
            vary_on(response, "Cookie")

    def _check(
        self, serializer: URLSafeTimedSerializer, cookie: str, max_age: int
    ) -> tuple[bytes, int] | None:
        """The cookie's signed content and signing time, its signature checked; None
        when no key signed it or it is too old."""
        for signer in serializer.iter_unsigners():
            try:
                payload, signed = signer.unsign(cookie, max_age=max_age, return_timestamp=True)
            except BadSignature:
                continue  # expired, or another key's: as Flask, a new session
            checked = (payload, int(signed.timestamp()))
            with self._lock:
                self._checked[cookie] = checked
                while len(self._checked) > CHECKED_COOKIES:
                    self._checked.popitem(last=False)
            return checked
        return None
