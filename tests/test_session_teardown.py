"""The database session of an app context is removed when the context ends, and a
context that made none ends without looking for one."""

from __future__ import annotations

from sqlalchemy import text

from scorekeeper.extensions import db


def _sessions() -> dict:
    """Each app context's session that is still open, by the context's id."""
    return db.session.registry.registry  # type: ignore[no-any-return]


def test_a_session_made_in_a_context_is_closed_and_removed_when_it_ends(app):
    before = dict(_sessions())
    with app.app_context():
        session = db.session()
        assert session.execute(text("SELECT 1")).scalar() == 1
        assert session.in_transaction()
        assert len(_sessions()) == len(before) + 1
    assert not session.in_transaction()  # closed: its connection went back to the pool
    assert _sessions() == before


def test_a_request_that_used_the_database_leaves_no_session_behind(client):
    before = dict(_sessions())
    assert client.get("/").status_code == 200  # home lists the member's matches
    assert _sessions() == before


def test_a_request_that_made_no_session_ends_cleanly(client):
    before = dict(_sessions())
    answer = client.post("/api/v1/score", json={"variant": "classic", "sides": [{}, {}]})
    assert answer.status_code == 200
    assert _sessions() == before
