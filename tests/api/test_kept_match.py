"""A worker keeps the match its last write left and starts the next save of the match
from those objects, brought up to date with what is stored now: whatever changed in
between (another worker's saves, a renamed side or player, other players, another match
under the same id), the answer is what a fresh read gives."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.caches import KEY as CACHES
from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.services import kept_match, match_lock
from scorekeeper.services.kept_match import CACHE, current_match, keep_match
from scorekeeper.services.match_state import load_match
from tests.api.test_matches import URL, create, read
from tests.support import app_config, sign_in

USUAL = [{"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5}]


@pytest.fixture
def loads(monkeypatch) -> list[int]:
    """The matches a save loads through the ORM: to plan (nothing kept, or other objects
    kept) or under the lock (the plan was made from a stale match)."""
    loaded: list[int] = []

    def counted(match_id):
        loaded.append(match_id)
        return load_match(match_id)

    monkeypatch.setattr(kept_match, "load_match", counted)
    monkeypatch.setattr(match_lock, "load_match", counted)
    return loaded


def post(client, match_id, sides=USUAL):
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": sides})
    assert response.status_code == 201, response.json
    return response.json


def fresh(app, match_id):
    """The match state as an app with nothing kept reads it."""
    return read(
        sign_in(create_app(app_config(app.config["SQLALCHEMY_DATABASE_URI"])).test_client()),
        match_id,
    )


def sql(app, statement, **params):
    with app.app_context():
        db.session.execute(text(statement), params)
        db.session.commit()
        db.session.remove()


def test_a_save_starts_from_the_match_the_last_one_kept(app, client, loads):
    match_id = create(client)["id"]
    post(client, match_id)
    assert loads == [match_id]  # nothing kept yet: loaded
    assert list(app.extensions[CACHES][CACHE].values) == [match_id]
    second = post(client, match_id)
    assert loads == [match_id]  # the kept objects, brought up to date
    assert second == fresh(app, match_id)
    assert [hand["number"] for hand in second["hands"]] == [1, 2]


def test_the_kept_match_is_brought_up_to_date_with_what_others_changed(app, client, loads):
    """Another worker's saves move the revision; a renamed side and a renamed player
    change their rows: the next save shows them, from the same objects."""
    other = sign_in(create_app(app_config(app.config["SQLALCHEMY_DATABASE_URI"])).test_client())
    match_id = create(client)["id"]
    post(client, match_id)
    post(other, match_id)
    assert loads == [match_id, match_id]  # each app's first save of it
    sql(app, "UPDATE side SET name = 'Winners' WHERE match_id = :m AND seat = 0", m=match_id)
    sql(app, "UPDATE player SET name = 'Anna' WHERE name = 'Ann'")
    sql(app, "UPDATE match SET revision = revision + 1 WHERE id = :m", m=match_id)
    answer = post(client, match_id)
    assert loads == [match_id, match_id]  # kept, and brought up to date
    assert answer == fresh(app, match_id)
    assert answer["sides"][0]["name"] == "Winners"
    assert "Anna" in answer["sides"][0]["players"]
    assert [hand["number"] for hand in answer["hands"]] == [1, 2, 3]


def test_a_kept_match_at_the_revision_read_is_taken_without_its_rows(app, client, monkeypatch):
    """Every write to a match moves its revision on: a save that finds the kept match at
    the revision its access check read takes it as it is; after another worker's save it
    reads the match's rows to bring it up to date."""
    rows_read: list[int] = []
    real = kept_match.typed_rows

    def counted(session, statement, params):
        if statement is kept_match.MATCH_ROWS:
            rows_read.append(params["match_id"])
        return real(session, statement, params)

    monkeypatch.setattr(kept_match, "typed_rows", counted)
    other = sign_in(create_app(app_config(app.config["SQLALCHEMY_DATABASE_URI"])).test_client())
    match_id = create(client)["id"]
    post(client, match_id)
    post(client, match_id)
    assert rows_read == []
    post(other, match_id)  # (nothing kept there: loaded)
    answer = post(client, match_id)
    assert rows_read == [match_id]
    assert answer == fresh(app, match_id)
    assert [hand["number"] for hand in answer["hands"]] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    "change",
    [
        "UPDATE match SET uid = 'another' WHERE id = :m",  # another match under this id
        "UPDATE side_member SET player_id = (SELECT max(id) + 0 FROM player) "
        "WHERE id = (SELECT min(id) FROM side_member)",  # another player in a seat
    ],
)
def test_other_objects_under_the_same_id_are_loaded_afresh(app, client, loads, change):
    """Such a change comes with a revision this worker never saw (a restore moves every
    match past the revisions it had)."""
    match_id = create(client)["id"]
    post(client, match_id)
    sql(app, change, m=match_id)
    sql(app, "UPDATE match SET revision = revision + 100 WHERE id = :m", m=match_id)
    answer = post(client, match_id)
    assert loads == [match_id, match_id]
    assert answer == fresh(app, match_id)


def test_a_match_whose_hands_were_read_is_not_kept(app, client):
    match_id = create(client)["id"]
    post(client, match_id)
    with app.test_request_context():
        kept = app.extensions[CACHES][CACHE]
        kept.values.clear()
        match = db.session.get(Match, match_id)
        assert match is not None
        assert len(match.hands) == 1  # read: it would go stale
        keep_match(match)
        assert not kept.values
        db.session.expunge_all()
        untouched = load_match(match_id)
        assert untouched is not None
        keep_match(untouched)
        assert list(kept.values) == [match_id]
        assert current_match(match_id) is untouched  # taken out: one user at a time
        assert not kept.values


def test_a_kept_match_whose_rules_left_the_cache_is_loaded_afresh(app, client, loads):
    """The rules are read from the match's row when they are not kept (a detached
    match cannot read them), so a save then starts from a loaded match."""
    match_id = create(client)["id"]
    post(client, match_id)
    app.extensions[CACHES]["rules"].values.clear()
    answer = post(client, match_id)
    assert loads == [match_id, match_id]
    assert answer == fresh(app, match_id)


def test_a_kept_match_with_parts_no_longer_loaded_is_loaded_afresh(app, client, loads):
    """A write may expire what it read (a removal that scores later hands again expires
    everything in its session): a kept match whose seats are not all loaded is not used,
    as a detached match cannot load them."""
    match_id = create(client)["id"]
    post(client, match_id)
    with app.test_request_context():
        kept = app.extensions[CACHES][CACHE].values[match_id]
        db.session.add(kept)
        db.session.expire(kept.sides[1])
        db.session.expire(kept.sides[0].members[1].player)
        db.session.expunge_all()
    answer = post(client, match_id)
    assert loads == [match_id, match_id]
    assert answer == fresh(app, match_id)


def test_values_no_longer_loaded_are_set_from_the_rows(app, client, loads):
    """A kept match whose columns were expired (not its seats) has them set from the rows
    and reads them detached, as the state made after the commit does."""
    match_id = create(client)["id"]
    post(client, match_id)
    with app.test_request_context():
        kept = app.extensions[CACHES][CACHE].values[match_id]
        db.session.add(kept)
        db.session.expire(kept, ["first_dealer", "revision", "status"])
        db.session.expire(kept.sides[0], ["name"])
        db.session.expunge_all()
    answer = post(client, match_id)
    assert loads == [match_id]
    assert answer == fresh(app, match_id)


@pytest.mark.parametrize(
    "others",
    [
        ["add", "add"],
        ["correct 2"],
        ["remove 3"],
        ["remove 4"],  # the last hand: the count alone tells
        ["remove 2", "add"],
        ["remove 4", "add", "add"],
        ["correct 1", "add"],
    ],
)
def test_a_save_after_another_workers_changes_reads_them(app, client, others):
    """The hands another worker added, corrected or removed since this worker's last save
    are read (only those added, when that is all): the next save's answer is what a
    fresh read gives."""
    other = sign_in(create_app(app_config(app.config["SQLALCHEMY_DATABASE_URI"])).test_client())
    match_id = create(client)["id"]
    for _ in range(4):
        post(client, match_id)
    for change in others:
        action, _, number = change.partition(" ")
        if action == "add":
            response = other.post(f"{URL}/{match_id}/hands", json={"sides": USUAL})
        elif action == "correct":
            sides = [{"meld_points": 95, "hand_points": 5}, USUAL[1]]
            response = other.put(f"{URL}/{match_id}/hands/{number}", json={"sides": sides})
        else:
            response = other.delete(f"{URL}/{match_id}/hands/{number}")
        assert response.status_code in (200, 201), response.json
    answer = post(client, match_id)
    assert answer == fresh(app, match_id)
