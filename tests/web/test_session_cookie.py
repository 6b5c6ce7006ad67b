"""The session cookie: checked once per distinct value (a live board's phone sends the
same one every two seconds), never trusted past its age or when tampered with."""

from __future__ import annotations

import time

from scorekeeper import sessions
from scorekeeper.sessions import CheckedCookieSessions

from .helpers import create_match


def session_cookie(client) -> str:
    cookie = client.get_cookie("session")
    assert cookie is not None
    return cookie.value


def test_a_cookie_seen_before_opens_the_same_account(app, client):
    assert client.get("/account").status_code == 200
    assert client.get("/account").status_code == 200  # the checked cookie, again
    checked = app.session_interface._checked
    assert session_cookie(client) in checked


def test_a_tampered_cookie_opens_nothing(app, client):
    value = session_cookie(client)
    assert client.get("/account").status_code == 200
    body, _, signature = value.rpartition(".")
    forged = body + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
    client.set_cookie("session", forged)
    response = client.get("/account")
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]


def test_a_cookie_checked_before_is_refused_once_too_old(app, client, monkeypatch):
    match_id = create_match(client, "classic-2p", ("Ann", "Bob"))
    assert client.get(f"/matches/{match_id}/board").status_code == 200
    lifetime = int(app.permanent_session_lifetime.total_seconds())
    later = time.time() + lifetime + 60
    monkeypatch.setattr(sessions.time, "time", lambda: later)
    response = client.get(f"/matches/{match_id}/board")
    assert response.status_code in (302, 401, 403, 404), response.status_code
    assert session_cookie(client) not in app.session_interface._checked


def test_each_request_gets_its_own_session_objects(app, client):
    """What a request puts in its session (a flash message list) is never seen by the
    next request with the same cookie unless the cookie says so."""
    interface: CheckedCookieSessions = app.session_interface
    with app.test_request_context(headers={"Cookie": f"session={session_cookie(client)}"}):
        from flask import request

        first = interface.open_session(app, request)
        assert first is not None
        first.setdefault("_flashes", []).append(("message", "only mine"))
        second = interface.open_session(app, request)
        assert second is not None
        assert "_flashes" not in second
        assert second["_user_id"] == first["_user_id"]
