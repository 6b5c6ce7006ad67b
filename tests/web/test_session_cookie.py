"""The session cookie: never trusted when tampered with."""

from __future__ import annotations


def session_cookie(client) -> str:
    cookie = client.get_cookie("session")
    assert cookie is not None
    return cookie.value


def test_a_tampered_cookie_opens_nothing(app, client):
    value = session_cookie(client)
    assert client.get("/account").status_code == 200
    body, _, signature = value.rpartition(".")
    forged = body + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
    client.set_cookie("session", forged)
    response = client.get("/account")
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]
