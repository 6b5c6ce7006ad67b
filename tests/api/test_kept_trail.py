"""A match's audit trail is kept whole per revision: a state of a long match takes it as
it is, and after another worker's writes only the entries written since are read. In
every case the trail is the one a server that never saw the match reads."""

from __future__ import annotations

import pytest
from sqlalchemy import event

from scorekeeper import create_app
from scorekeeper.caches import KEY as CACHES
from scorekeeper.extensions import db
from scorekeeper.services.audit import audit_rows
from scorekeeper.services.match_state import load_match
from tests.api.test_kept_match import USUAL, fresh, post, sql
from tests.api.test_matches import create
from tests.support import app_config, sign_in


@pytest.fixture
def statements(app) -> list[str]:
    """The statements SQLite runs from now on (on SQLAlchemy's path or the driver's)."""
    seen: list[str] = []
    with app.app_context():
        db.engine.dispose()  # every connection from now on is a traced one
        event.listen(db.engine, "connect", lambda dbapi, _: dbapi.set_trace_callback(seen.append))
    return seen


def trail_reads(seen: list[str]) -> list[str]:
    return [s for s in seen if "FROM audit_entry" in s and s.lstrip().startswith("SELECT")]


def explained(rows) -> list[tuple]:
    return [(row.action, row.number, row.changes, row.details) for row in rows]


def test_the_trail_of_the_revision_is_taken_whole(app, client, statements):
    match_id = create(client)["id"]
    for _ in range(3):
        post(client, match_id)
    with app.app_context():
        match = load_match(match_id)
        statements.clear()
        rows = audit_rows(match)
        assert trail_reads(statements) == []  # the save kept it: nothing read
        assert [row.number for row in rows] == [3, 2, 1]
        rows.clear()  # a copy: the kept trail is not the caller's to change
        assert len(audit_rows(match)) == 3
        app.extensions[CACHES]["parts"].values.clear()
        statements.clear()
        assert explained(audit_rows(match)) == explained(audit_rows(match))
        assert len(trail_reads(statements)) == 2  # once the ids, once the entries; then kept


def test_after_another_workers_writes_only_their_entries_are_read(app, client, statements):
    other = sign_in(create_app(app_config(app.config["SQLALCHEMY_DATABASE_URI"])).test_client())
    match_id = create(client)["id"]
    post(client, match_id)
    post(client, match_id)
    post(other, match_id)
    post(other, match_id, [{"meld_points": 90, "hand_points": 5}, *USUAL[1:]])
    statements.clear()
    answer = post(client, match_id)  # its kept trail is two revisions behind
    reads = trail_reads(statements)
    assert any("audit_entry.id >=" in s for s in reads)  # from the newest it kept on
    assert not any("ORDER BY" in s and "audit_entry.id >=" not in s for s in reads)
    assert [entry["hand_number"] for entry in answer["audit"]] == [5, 4, 3, 2, 1]
    assert answer == fresh(app, match_id)


def test_a_renamed_side_explains_the_trail_afresh(app, client):
    match_id = create(client)["id"]
    post(client, match_id)
    sql(app, "UPDATE side SET name = 'Winners' WHERE match_id = :m AND seat = 0", m=match_id)
    sql(app, "UPDATE match SET revision = revision + 1 WHERE id = :m", m=match_id)
    answer = post(client, match_id)
    assert answer == fresh(app, match_id)
    with app.app_context():
        rows = audit_rows(load_match(match_id))
        assert [names for names, *_ in rows[-1].changes] == ["Winners", answer["sides"][1]["name"]]
