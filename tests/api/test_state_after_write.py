"""The answer to a save is made after its commit, outside the writers' lock: from what
the write kept, and what must still be read is read at the write's revision. When
another write came in between, the answer is the match as it is then; a write that
expired the match's objects reads what the state needs under its lock. Every answer is
what a server that never saw the match reads."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from flask import g

from scorekeeper.api import matches as api_matches
from scorekeeper.caches import HELD
from scorekeeper.caches import KEY as CACHES
from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.services import match_lock
from scorekeeper.services.match_lock import MovedOn, reading_after_write
from scorekeeper.services.storage import transaction
from tests.api.test_kept_match import USUAL, fresh, post
from tests.api.test_matches import URL, create
from tests.support import app_config, sign_in


@pytest.fixture
def state_reads(monkeypatch) -> list[bool]:
    """For each state a write's answer reads: whether it read inside the write."""
    inside: list[bool] = []
    read = api_matches.StateReads.read

    def recorded(match, keys=None):
        inside.append(g.get(HELD) is not None)  # set while a write's transaction runs
        return read(match, keys)

    monkeypatch.setattr(api_matches.StateReads, "read", recorded)
    return inside


def forget(app, *names: str) -> None:
    for name, cache in app.extensions[CACHES].items():
        if not names or name in names:
            cache.values.clear()


def between_commit_and_answer(monkeypatch, then) -> None:
    """Run `then()` after the next write commits and before its answer reads anything."""
    real = api_matches.reading_after_write
    pending = [then]

    @contextmanager
    def after(match_id, revision):
        while pending:
            pending.pop()()
        with real(match_id, revision):
            yield

    monkeypatch.setattr(api_matches, "reading_after_write", after)


def test_a_save_reads_its_state_after_the_commit(app, client, state_reads):
    match_id = create(client)["id"]
    state_reads.clear()
    post(client, match_id)
    second = post(client, match_id)
    assert state_reads == [False, False]
    assert second == fresh(app, match_id)


def test_a_removal_answers_with_what_a_fresh_read_gives(app, client, state_reads):
    match_id = create(client)["id"]
    post(client, match_id)
    post(client, match_id)
    response = client.delete(f"{URL}/{match_id}/hands/1?version=1")
    assert response.status_code == 200, response.json
    assert response.json == fresh(app, match_id)


def test_a_write_that_leaves_its_objects_expired_reads_under_its_lock(
    app, client, state_reads, monkeypatch
):
    match_id = create(client)["id"]
    post(client, match_id)

    def expiring(saved):
        db.session.add(saved.match)  # as a write that loads the match under its lock,
        db.session.expire_all()  # and renumbers hands, may leave it

    assert_read_inside_the_write(app, client, match_id, state_reads, monkeypatch, expiring)


def assert_read_inside_the_write(app, client, match_id, state_reads, monkeypatch, then):
    """A save whose write runs `then(saved)` once its hand is recorded reads its state
    inside the write, and answers what a fresh read gives."""
    record = api_matches.record_planned

    def recorded(*args, **kwargs):
        saved = record(*args, **kwargs)
        then(saved)
        return saved

    monkeypatch.setattr(api_matches, "record_planned", recorded)
    state_reads.clear()
    answer = post(client, match_id)
    assert state_reads == [True]
    assert answer == fresh(app, match_id)


def test_a_write_between_the_commit_and_the_answer_gives_the_state_after_both(
    app, client, monkeypatch
):
    other = sign_in(api_matches_app(app).test_client())
    match_id = create(client)["id"]
    post(client, match_id)

    def another_device_saves():
        post(other, match_id, [{"meld_points": 90, "hand_points": 5}, *USUAL[1:]])
        forget(app, "parts")  # so the answer must read: it may not mix the two revisions

    between_commit_and_answer(monkeypatch, another_device_saves)
    answer = client.post(f"{URL}/{match_id}/hands", json={"sides": USUAL})
    assert answer.status_code == 201
    monkeypatch.undo()
    state = fresh(app, match_id)
    assert [hand["number"] for hand in answer.json["hands"]] == [1, 2, 3]
    assert [entry["hand_number"] for entry in answer.json["audit"]] == [3, 2, 1]
    assert answer.json == state
    assert answer.headers["ETag"] == client.get(f"{URL}/{match_id}").headers["ETag"]


def test_rules_no_longer_kept_by_the_answer_are_read_afresh(app, client, monkeypatch):
    match_id = create(client)["id"]
    post(client, match_id)
    between_commit_and_answer(monkeypatch, lambda: forget(app, "rules"))
    answer = post(client, match_id)
    assert answer == fresh(app, match_id)


def api_matches_app(app):
    from scorekeeper import create_app

    return create_app(app_config(app.config["SQLALCHEMY_DATABASE_URI"]))


def test_reads_after_a_write_see_its_revision_or_say_the_match_moved_on(app, client):
    match_id = create(client)["id"]
    post(client, match_id)
    with app.test_request_context():
        with transaction():
            revision = match_lock.take_lock(match_id)
        with reading_after_write(match_id, revision):
            assert db.session.execute(match_lock.REVISION, {"match_id": match_id}).scalar() == (
                revision
            )
        db.session.rollback()
        with reading_after_write(match_id, revision):
            pass  # nothing read: nothing checked, and nothing left to check later
        assert db.session.execute(match_lock.REVISION, {"match_id": match_id}).scalar() == (
            revision
        )
        db.session.rollback()
        with transaction():
            match_lock.take_lock(match_id)  # another write, before the reads after the first
        with pytest.raises(MovedOn), reading_after_write(match_id, revision):
            db.session.execute(match_lock.REVISION, {"match_id": match_id})
        db.session.rollback()


def test_a_save_as_planned_whose_rules_text_left_the_cache_reads_it(app, client):
    """What the state needs of the match's row is read, whatever left the caches."""
    match_id = create(client)["id"]
    post(client, match_id)
    rules = app.extensions[CACHES]["rules"].values
    for key in [key for key in rules if key[0] in ("json", "json.text")]:
        del rules[key]
    answer = post(client, match_id)
    assert answer == fresh(app, match_id)


def test_a_save_as_planned_leaves_the_match_out_of_its_session_unless_it_ends_the_game(
    app, client, monkeypatch
):
    """Only the hand and its audit entry are written: the session has no match to walk,
    flush and let go of. A hand that ends the game puts the match back, and its end is
    stored."""
    match_id = create(client, options={"target": 200})["id"]
    post(client, match_id)
    in_session: list[bool] = []
    record = api_matches.record_planned

    def recorded(*args, **kwargs):
        saved = record(*args, **kwargs)
        in_session.append(saved.match in db.session)
        return saved

    monkeypatch.setattr(api_matches, "record_planned", recorded)
    assert post(client, match_id) == fresh(app, match_id)
    out = [{"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}, {"hand_points": 30}]
    assert post(client, match_id, out)["finished"]
    assert in_session == [False, True]
    with app.app_context():
        assert db.session.get(Match, match_id).status == "finished"


def test_a_save_whose_rules_leave_the_cache_during_its_write_reads_them_under_its_lock(
    app, client, state_reads, monkeypatch
):
    """The match a save as planned left detached cannot read its row: when its frozen
    rules left the cache meanwhile (a busy worker), it goes back into the session and the
    state is read inside the write."""
    match_id = create(client)["id"]
    post(client, match_id)

    def evicting(_saved):
        rules = app.extensions[CACHES]["rules"].values
        for key in [key for key in rules if key[0] in ("json", "json.text")]:
            del rules[key]

    assert_read_inside_the_write(app, client, match_id, state_reads, monkeypatch, evicting)


def test_a_save_as_planned_that_ends_the_game_stores_the_end(app, client):
    match_id = create(client, options={"target": 200})["id"]
    post(client, match_id)
    out = [{"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}, {"hand_points": 30}]
    answer = post(client, match_id, out)
    assert answer["finished"]
    assert answer["winner"] == 0
    assert answer.pop("warnings")[0]["message"].startswith("This hand ends the game")
    assert answer == fresh(app, match_id)
    again = client.post(f"{URL}/{match_id}/hands", json={"sides": USUAL})
    assert again.status_code == 409  # the stored match says the game is over
    with app.app_context():
        stored = db.session.get(Match, match_id)
        assert (stored.status, stored.winner) == (answer["status"], 0)
        assert stored.finished_at is not None
