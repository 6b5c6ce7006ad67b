"""A hand posted through the API is scored before its write takes the lock and saved as
planned only when the match has not moved on; the answer is made from what the write
read. Whatever comes in between, no hand is lost, doubled or put on another hand, and
the answer is the state a fresh read gives."""

from __future__ import annotations

import pytest

from scorekeeper.api import matches as api_matches
from scorekeeper.caches import KEY as CACHES
from scorekeeper.extensions import db
from scorekeeper.models import Hand
from scorekeeper.services.hand_writes import record_hand
from scorekeeper.services.storage import transaction
from tests.api.test_burraco_three_matches import LONE_630, PAIR_135, SEATS
from tests.api.test_matches import URL, create, read

USUAL = [{"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5}]
OTHER = [{"meld_points": 95, "hand_points": 5}, {"meld_points": 25, "hand_points": 5}]
PAIR_12 = [[0], [1, 2]]  # seat 0 alone against seats 1 and 2
OUT = [{"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}, {"hand_points": 30}]


def another_device_records(app, match_id, sides):
    """Another worker saves a hand to the match (its own transaction)."""
    with app.app_context(), app.test_request_context():
        with transaction():
            record_hand(match_id, sides)
        db.session.remove()


def key_reads(monkeypatch) -> list[tuple[object, int]]:
    """The hand-key statements run from now on, each with the number of rows it gave."""
    from scorekeeper.services import match_state

    reads: list[tuple[object, int]] = []
    real = match_state.plain_rows

    def recording(session, statement, params):
        rows = real(session, statement, params)
        reads.append((statement, len(rows)))
        return rows

    monkeypatch.setattr(match_state, "plain_rows", recording)
    return reads


def test_a_hand_saved_between_the_plan_and_the_write_is_not_overwritten(app, client, monkeypatch):
    match_id = create(client)["id"]
    planned = api_matches.plan_hand

    def plan_then_another_save(match, post, revision):
        plan = planned(match, post, revision)
        assert plan is not None  # read as hand 1
        another_device_records(app, match_id, OTHER)
        return plan

    monkeypatch.setattr(api_matches, "plan_hand", plan_then_another_save)
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": USUAL})
    monkeypatch.undo()
    assert response.status_code == 201, response.json
    hands = response.json["hands"]
    assert [hand["number"] for hand in hands] == [1, 2]
    assert [hand["sides"][0]["input"]["meld_points"] for hand in hands] == [95, 55]
    assert [side["total"] for side in response.json["sides"]] == [90 + 50, 20 + 20]
    assert response.json == read(client, match_id)
    with app.app_context():
        assert db.session.query(Hand).filter_by(match_id=match_id).count() == 2


def test_a_stale_plan_still_meets_if_match(app, client, monkeypatch):
    """The revision the client read is checked at the write, plan or not: 412."""
    match_id = create(client)["id"]
    etag = client.get(f"{URL}/{match_id}").headers["ETag"]
    another_device_records(app, match_id, OTHER)
    response = client.post(
        f"{URL}/{match_id}/hands", json={"sides": USUAL}, headers={"If-Match": etag}
    )
    assert response.status_code == 412
    assert len(read(client, match_id)["hands"]) == 1


@pytest.mark.parametrize(
    ("variant", "sides", "options", "hands", "status"),
    [
        ("classic", None, {}, [{"sides": USUAL}, {"sides": OTHER}], "playing"),
        ("classic", None, {"target": 2000}, [{"sides": USUAL}, {"sides": OUT}] * 2, "finished"),
        ("burraco-3p", SEATS, {}, [{"sides": [LONE_630, PAIR_135], "lineup": PAIR_12}], "playing"),
    ],
    ids=["classic", "classic-to-the-end", "burraco-3p"],
)  # fmt: skip
def test_the_answer_to_a_save_is_what_a_fresh_read_gives(
    app, client, variant, sides, options, hands, status
):
    match_id = create(client, variant, sides, options=options)["id"]
    for body in hands:
        response = client.post(f"{URL}/{match_id}/hands", json=body)
        assert response.status_code == 201, response.json
        answer = {key: value for key, value in response.json.items() if key != "warnings"}
        app.extensions[CACHES]["pages"].values.clear()  # the read makes its own
        app.extensions[CACHES]["parts"].values.clear()
        assert answer == read(client, match_id)
    assert answer["status"] == status


def test_a_write_that_does_not_commit_leaves_nothing_in_the_caches(app, client, monkeypatch):
    """A write rolled back: its revision and hand id are used again by the next one, so
    nothing it made (its hand's parts, the state it read) may be kept; the match objects
    the last save left, which it took, are dropped with it (the next save loads them)."""
    from sqlalchemy.exc import OperationalError

    match_id = create(client)["id"]
    assert client.post(f"{URL}/{match_id}/hands", json={"sides": USUAL}).status_code == 201
    kept = {name: dict(cache.values) for name, cache in app.extensions[CACHES].items()}

    def refused(*_args, **_kwargs):
        raise OperationalError("COMMIT", {}, Exception("disk I/O error"))

    monkeypatch.setattr(db.session, "commit", refused)
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": OTHER})
    monkeypatch.undo()
    assert response.status_code == 503
    assert list(kept["matches"]) == [match_id]
    kept["matches"] = {}
    assert {name: dict(c.values) for name, c in app.extensions[CACHES].items()} == kept
    saved = client.post(f"{URL}/{match_id}/hands", json={"sides": OUT})
    assert saved.status_code == 201
    assert saved.json["hands"][1]["sides"][0]["input"] == OUT[0]
    assert saved.json == read(client, match_id)


def test_the_hands_kept_for_the_next_plan_are_those_of_its_revision(app, client):
    """A save keeps the match's hands under its new revision for the next plan; a
    removal or a correction in between moves the revision on, so they are read again."""
    match_id = create(client)["id"]
    for sides in (USUAL, OTHER, USUAL):
        assert client.post(f"{URL}/{match_id}/hands", json={"sides": sides}).status_code == 201
    assert client.delete(f"{URL}/{match_id}/hands/2").status_code == 200
    third = client.put(f"{URL}/{match_id}/hands/2", json={"sides": OTHER})
    assert third.status_code == 200, third.json
    saved = client.post(f"{URL}/{match_id}/hands", json={"sides": USUAL})
    assert saved.status_code == 201, saved.json
    assert [hand["number"] for hand in saved.json["hands"]] == [1, 2, 3]
    assert [side["total"] for side in saved.json["sides"]] == [
        sum(hand["sides"][seat]["total"] for hand in saved.json["hands"]) for seat in (0, 1)
    ]
    assert saved.json == read(client, match_id)


def test_two_workers_taking_turns_answer_with_what_a_fresh_read_gives(app, client):
    """Each gunicorn worker keeps its own parts (hands, audit entries, trails, state
    text); one saving after the other must not answer with what it kept from before
    the other's writes. A third app with nothing kept reads the truth."""
    from scorekeeper import create_app
    from scorekeeper.models import Player
    from scorekeeper.services.accounts import find_user
    from scorekeeper.services.groups import rename_player
    from tests.support import TESTER, app_config, sign_in

    url = app.config["SQLALCHEMY_DATABASE_URI"]
    other = sign_in(create_app(app_config(url)).test_client())
    fresh_app = create_app(app_config(url))
    match_id = create(client)["id"]

    def truth():
        fresh_app.extensions[CACHES]["pages"].values.clear()
        fresh_app.extensions[CACHES]["parts"].values.clear()
        return read(sign_in(fresh_app.test_client()), match_id)

    def rename(old, new):
        with app.app_context(), app.test_request_context(), transaction():
            player = db.session.execute(db.select(Player).filter_by(name=old)).scalar_one()
            rename_player(player.group_id, player, new, find_user(TESTER))

    steps = [
        (client, "post", USUAL),
        (other, "post", OTHER),
        (client, "post", USUAL),
        (other, "put", (2, USUAL)),
        (client, "post", OTHER),
        (other, "delete", 1),
        ("rename", "Ann", "Anna"),
        (client, "post", USUAL),
        (other, "post", OTHER),
        (client, "put", (1, OTHER)),
    ]
    for who, action, what in steps:
        if who == "rename":
            rename(action, what)
            continue
        if action == "post":
            response = who.post(f"{URL}/{match_id}/hands", json={"sides": what})
        elif action == "put":
            number, sides = what
            response = who.put(f"{URL}/{match_id}/hands/{number}", json={"sides": sides})
        else:
            response = who.delete(f"{URL}/{match_id}/hands/{what}")
        assert response.status_code in (200, 201), response.json
        expected = truth()
        assert response.json == expected
        assert read(client, match_id) == expected
        assert read(other, match_id) == expected
    assert [hand["number"] for hand in expected["hands"]] == [1, 2, 3, 4, 5]
    assert "Anna" in expected["seats"]
    assert [entry["action"] for entry in expected["audit"]][:3] == [
        "corrected",
        "recorded",
        "recorded",
    ]


def test_a_worker_reads_only_what_was_written_since_what_it_kept(app, client, monkeypatch):
    """After another worker's saves, a worker brings the hand keys it kept up to date
    by reading only the hands written since (a new hand, a corrected one); a removal in
    between renumbers hands without a new version, so it is noticed and everything is
    read again. Each answer is what a worker with nothing kept reads."""
    from scorekeeper import create_app
    from scorekeeper.services import match_state
    from tests.support import app_config, sign_in

    url = app.config["SQLALCHEMY_DATABASE_URI"]
    other = sign_in(create_app(app_config(url)).test_client())
    fresh_app = create_app(app_config(url))
    match_id = create(client)["id"]
    hands = f"{URL}/{match_id}/hands"
    for _ in range(3):
        assert client.post(hands, json={"sides": USUAL}).status_code == 201

    reads = key_reads(monkeypatch)

    def truth():
        return read(sign_in(fresh_app.test_client()), match_id)

    assert other.post(hands, json={"sides": OTHER}).status_code == 201  # hand 4
    assert other.put(f"{hands}/2", json={"sides": OTHER}).status_code == 200
    reads.clear()
    saved = client.post(hands, json={"sides": USUAL})  # hand 5
    assert saved.status_code == 201
    assert (match_state.HAND_KEYS_SINCE, 4) in reads  # hands 2 and 4, two seats each
    assert not [statement for statement, _ in reads if statement is match_state.HAND_KEYS]
    assert saved.json == truth()

    assert other.delete(f"{hands}/1").status_code == 200
    assert other.post(hands, json={"sides": OTHER}).status_code == 201  # as many as before
    reads.clear()
    saved = client.post(hands, json={"sides": USUAL})
    assert saved.status_code == 201
    assert (match_state.HAND_KEYS, 10) in reads  # all five hands read again
    assert saved.json == truth()
    assert [hand["number"] for hand in saved.json["hands"]] == [1, 2, 3, 4, 5, 6]


def test_a_save_without_a_plan_reads_under_the_lock_only_the_hands_written_since(
    app, client, monkeypatch
):
    """The pages save through record_hand, which reads the totals so far under the
    match's lock: after the other worker's save, only its hand is read there, and the
    hand lands as the next one."""
    from scorekeeper import create_app
    from scorekeeper.services import match_state
    from tests.support import app_config, sign_in

    other = sign_in(create_app(app_config(app.config["SQLALCHEMY_DATABASE_URI"])).test_client())
    match_id = create(client)["id"]
    hands = f"{URL}/{match_id}/hands"
    for _ in range(3):
        assert client.post(hands, json={"sides": USUAL}).status_code == 201
    assert other.post(hands, json={"sides": OTHER}).status_code == 201  # hand 4

    reads = key_reads(monkeypatch)
    another_device_records(app, match_id, USUAL)  # hand 5, through the pages' path
    assert (match_state.HAND_KEYS_SINCE, 2) in reads  # hand 4, two seats
    assert not [statement for statement, _ in reads if statement is match_state.HAND_KEYS]
    state = read(client, match_id)
    assert [hand["number"] for hand in state["hands"]] == [1, 2, 3, 4, 5]
    assert [hand["sides"][0]["input"]["meld_points"] for hand in state["hands"]] == [
        55, 55, 55, 95, 55,
    ]  # fmt: skip
    assert state == read(other, match_id)


@pytest.mark.parametrize("before", ["kept", "forgotten", "another worker's"])
def test_the_hand_that_reaches_the_target_ends_the_game(app, client, before):
    """The totals after a new hand come from the rows the last state kept (the hands of
    another worker's saves since added to them), or are summed when they are not kept:
    the game ends on the hand that reaches the target either way."""
    from scorekeeper import create_app
    from tests.support import app_config, sign_in

    other = sign_in(create_app(app_config(app.config["SQLALCHEMY_DATABASE_URI"])).test_client())
    match_id = create(client, options={"target": 4000})["id"]  # a hand of OUT: 1400
    for who in (client, other if before == "another worker's" else client):
        assert who.post(f"{URL}/{match_id}/hands", json={"sides": OUT}).status_code == 201
    if before == "forgotten":
        parts = app.extensions[CACHES]["parts"].values
        del parts[("rows", match_id)]
    saved = client.post(f"{URL}/{match_id}/hands", json={"sides": OUT})
    assert saved.status_code == 201, saved.json
    state = saved.json
    assert [side["total"] for side in state["sides"]] == [3 * 1400, 3 * -30]
    assert (state["finished"], state["winner"]) == (True, 0)
    assert state.pop("warnings") == [
        {"side": None, "field": None, "message": "This hand ends the game: Us wins."}
    ]
    assert state == read(client, match_id)
