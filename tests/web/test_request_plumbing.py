"""The per-request plumbing made cheaper (answers kept, hooks skipped when they have
nothing to do) still answers exactly as Flask and its extensions would."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from flask import Flask
from werkzeug.exceptions import SecurityError

from tests.support import add_user, app_on_new_database

from .helpers import form_values, page


async def _async_view() -> dict[str, int]:
    return {"a": 1}


class _Hooks:
    async def async_hook(self) -> None:
        return None

    def hook(self) -> None:
        return None


class _Unhashable:
    __hash__ = None

    def __call__(self) -> str:
        return "called"


def test_a_kept_async_answer_is_flasks_answer(app, monkeypatch):
    wrapped: list[Any] = []
    monkeypatch.setattr(app, "async_to_sync", lambda func: wrapped.append(func) or "wrapped")

    def sync_view() -> str:
        return "sync"

    hooks = _Hooks()
    for _ in range(2):  # asked, then answered from what was kept
        assert app.ensure_sync(sync_view) is sync_view
        assert app.ensure_sync(hooks.hook) == hooks.hook
        assert app.ensure_sync(_async_view) == "wrapped"
        assert app.ensure_sync(hooks.async_hook) == "wrapped"
    assert wrapped == [_async_view, hooks.async_hook] * 2
    assert app.async_answers[sync_view] is False
    assert app.async_answers[_async_view] is True
    unhashable = _Unhashable()
    assert app.ensure_sync(unhashable) is unhashable


def test_requests_run_their_hooks_with_kept_answers(client, app):
    assert client.get("/rules").status_code == 200
    assert client.get("/rules").status_code == 200
    for hooks in (*app.before_request_funcs.values(), *app.after_request_funcs.values()):
        for hook in hooks:
            assert app.async_answers[hook] is False


# --- the Host allow-list, checked once per distinct Host -----------------------------------


def test_an_untrusted_host_is_refused_after_trusted_ones_were_served(client, app):
    assert client.get("/rules", headers={"Host": "localhost:8000"}).status_code == 200
    assert client.get("/rules", headers={"Host": "attacker.example:8000"}).status_code == 400
    assert client.get("/rules", headers={"Host": "localhost.attacker.example"}).status_code == 400
    assert client.get("/rules", headers={"Host": "localhost:8000"}).status_code == 200
    assert client.get("/rules", headers={"Host": "attacker.example:8000"}).status_code == 400
    _, accepted = app.host_check._accepted
    remembered = {host for _, host, _, _ in accepted}
    assert "localhost:8000" in remembered
    assert not any("attacker" in host for host in remembered)


def test_a_change_to_the_allow_list_is_followed_at_once(client, app):
    assert client.get("/rules", headers={"Host": "localhost"}).status_code == 200
    app.config["TRUSTED_HOSTS"].remove("localhost")
    assert client.get("/rules", headers={"Host": "localhost"}).status_code == 400
    app.config["TRUSTED_HOSTS"].append(".club.example")
    assert client.get("/rules", headers={"Host": "thursday.club.example"}).status_code == 200
    app.config["TRUSTED_HOSTS"] = ["127.0.0.1"]
    assert client.get("/rules", headers={"Host": "thursday.club.example"}).status_code == 400
    assert client.get("/rules", headers={"Host": "127.0.0.1"}).status_code == 200


def test_the_url_adapter_is_flasks(app):
    hosts = [
        ("localhost", "http"),
        ("127.0.0.1:8000", "http"),
        ("localhost:443", "https"),
        ("127.0.0.1:80", "http"),
    ]
    paths = ["/rules?x=1", "/matches/%C3%A9t%C3%A9?q=%C3%A9", "/"]
    upgrade = {"Connection": "Upgrade", "Upgrade": "websocket"}
    for (host, scheme), path, extra in itertools.product(hosts, paths, ({}, upgrade)):
        for _ in range(2):  # checked, then remembered
            with app.test_request_context(
                path,
                base_url=f"{scheme}://{host}/club",  # served under a prefix: SCRIPT_NAME
                headers={"Host": host, **extra},
            ) as context:
                ours = app.create_url_adapter(context.request)
                ours_host = context.request.host
                flasks = Flask.create_url_adapter(app, context.request)
                assert context.request.host == ours_host
                assert vars(ours) == vars(flasks)
    with app.test_request_context("/", headers={"Host": "attacker.example"}) as context:
        with pytest.raises(SecurityError, match=r"attacker\.example"):
            app.create_url_adapter(context.request)
        with pytest.raises(SecurityError, match=r"attacker\.example"):
            Flask.create_url_adapter(app, context.request)


# --- Flask-Limiter's hooks, run only for requests that checked a limit -------------------

LIMIT_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")


def test_a_limited_view_still_sends_and_enforces_its_limit(tmp_path):
    app = app_on_new_database(tmp_path / "limits.sqlite", RATELIMIT_ENABLED=True)
    add_user(app, "Ada")
    client = app.test_client()
    unlimited = client.get("/rules")
    assert not any(name in unlimited.headers for name in LIMIT_HEADERS)
    remaining = []
    for _ in range(11):
        form = form_values(page(client.get("/login")))
        answer = client.post("/login", data={**form, "username": "Ada", "password": "wrong"})
        assert answer.headers["X-RateLimit-Limit"] == "10"
        assert 0 < int(answer.headers["Retry-After"]) <= 60
        remaining.append((answer.status_code, answer.headers["X-RateLimit-Remaining"]))
    assert remaining == [(422, str(left)) for left in range(9, -1, -1)] + [(429, "0")]
    invite = client.post("/invite/nothing", data={})  # the other limited door
    assert invite.headers["X-RateLimit-Remaining"] == "9"
    unlimited = client.get("/rules")
    assert unlimited.status_code == 200
    assert not any(name in unlimited.headers for name in LIMIT_HEADERS)


# --- saving the session ------------------------------------------------------------------


def _cookie_shape(header: str) -> tuple[str, bool, frozenset[str]]:
    """A Set-Cookie header without what the clock changes (its value, its expiry)."""
    first, *attributes = header.split("; ")
    name, _, value = first.partition("=")
    return name, bool(value), frozenset(a.partition("=")[0] for a in attributes)


def _saved(interface, app, contents, modified, accessed, vary):
    from flask.sessions import SecureCookieSession

    session = SecureCookieSession(contents)
    session.modified, session.accessed = modified, accessed
    response = app.response_class("x")
    if vary:
        response.headers["Vary"] = vary
    interface(app, session, response)
    return [
        (name, _cookie_shape(value) if name == "Set-Cookie" else value)
        for name, value in response.headers.items()
    ]


@pytest.mark.parametrize("refresh", [True, False])
def test_a_saved_session_answers_as_flasks(app, refresh):
    from flask.sessions import SecureCookieSessionInterface

    app.config["SESSION_REFRESH_EACH_REQUEST"] = refresh
    ours = app.session_interface.save_session
    flasks = SecureCookieSessionInterface().save_session
    shown = set()
    with app.app_context():
        for contents in ({}, {"_user_id": "1:0"}, {"_user_id": "1:0", "_permanent": True}):
            for modified in (False, True):
                for accessed in (False, True):
                    for vary in ("", "Accept-Encoding"):
                        case = (contents, modified, accessed, vary)
                        answer = _saved(ours, app, *case)
                        assert answer == _saved(flasks, app, *case), case
                        shown.add(tuple(name for name, _ in answer))
    assert ("Content-Type", "Content-Length", "Vary", "Set-Cookie") in shown  # cookies written
    assert ("Content-Type", "Content-Length", "Vary") in shown  # and not


def test_an_answer_varies_on_the_cookie_when_it_read_the_session_and_sets_none(
    anonymous_client,
):
    """Whoever asks gets the same variants: that answer does not vary on the cookie (the
    remember-cookie hook no longer reads the session of every request); a match read
    asks who is calling, a page shows who is signed in."""
    answer = anonymous_client.get("/api/v1/variants", headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200
    assert answer.headers["Vary"] == "Accept-Encoding"
    assert "Set-Cookie" not in answer.headers
    answer = anonymous_client.get("/api/v1/matches/1")
    assert answer.status_code == 401
    assert answer.headers["Vary"] == "Cookie"
    answer = anonymous_client.get("/rules")
    assert answer.headers["Vary"] == "Cookie"
    assert "Set-Cookie" not in answer.headers


def test_a_request_without_cookies_opens_an_empty_session_that_can_be_written(app):
    interface = app.session_interface
    for headers in ({}, {"Cookie": ""}, {"Cookie": "other=1"}):
        with app.test_request_context("/", headers=headers) as context:
            session = interface.open_session(app, context.request)
            assert session is not None
            assert dict(session) == {}
            assert not session.modified
    client = app.test_client()
    login = client.get("/login")  # its form's CSRF token goes in a new session
    assert login.status_code == 200
    assert client.get_cookie("session") is not None
    assert client.get("/login").status_code == 200  # and the cookie is read back
