"""The queries a page or a write runs do not grow with the hands of a match or the
matches of a group (counts, not times: bench/scaling.py has the times)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event

from scorekeeper.cache import LruCache
from scorekeeper.extensions import db
from tests.support import filled_fixtures

from .helpers import edit_data, form_values, hand_data, page

TEAMS = [{"players": ["Ann", "Bob"]}, {"players": ["Cid", "Dee"]}]
USUAL = [{"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5}]
OUT = [{"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}, {"hand_points": 30}]
FORM_USUAL = ({"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5})


class Counter:
    """Counts every statement the app runs inside `counting`, through SQLAlchemy's own
    event (set-up pragmas and the beginnings and ends of transactions aside). It listens
    only while counting: the app of a test process serves every later test too."""

    def __init__(self, app) -> None:
        self.app = app
        self.count = 0

    def seen(self, _conn, _cursor, statement: str, *_args) -> None:
        if not statement.startswith(("PRAGMA", "BEGIN", "COMMIT", "ROLLBACK")):
            self.count += 1

    @contextmanager
    def counting(self, forget: bool = True) -> Iterator[list[int]]:
        """Count the queries of the block; by default as a server that never saw the match."""
        if forget:
            for kept in self.app.extensions.values():
                if isinstance(kept, LruCache):
                    kept.clear()
        found: list[int] = []
        before = self.count
        with self.app.app_context():
            engine = db.engine
        event.listen(engine, "before_cursor_execute", self.seen)
        try:
            yield found
        finally:
            event.remove(engine, "before_cursor_execute", self.seen)
        found.append(self.count - before)


@pytest.fixture
def counter(app, client):
    client.get("/")  # the once-per-process check for a first account is behind us
    return Counter(app)


def new_match(client, hands: int, target: int = 1_000_000, corrections: int = 0) -> int:
    body = {"variant": "classic", "sides": TEAMS, "options": {"target": target}}
    match_id = client.post("/api/v1/matches", json=body).json["id"]
    for _ in range(hands):
        response = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": USUAL})
        assert response.status_code == 201
    for number in range(1, corrections + 1):
        other = [{**USUAL[0], "meld_points": 60}, USUAL[1]]
        response = client.put(f"/api/v1/matches/{match_id}/hands/{number}", json={"sides": other})
        assert response.status_code == 200
    return match_id


def finished_matches(client, count: int) -> None:
    for _ in range(count):
        body = {"variant": "classic", "sides": TEAMS, "options": {"target": 200}}
        match_id = client.post("/api/v1/matches", json=body).json["id"]
        response = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": OUT})
        assert response.json["finished"]


def _short_and_long(_app, client) -> dict[str, int]:
    return {
        "short": new_match(client, 2, corrections=1),
        "long": new_match(client, 25, corrections=6),
    }


# Made once per test process: a match of 2 hands and one of 25, each with corrections.
two_matches_database, app_database, two_matches = filled_fixtures("two_matches", _short_and_long)


def queries(counter: Counter, client, path: str, forget: bool = True) -> int:
    with counter.counting(forget) as found:
        assert client.get(path).status_code == 200
    return found[0]


@pytest.mark.parametrize("path", ["/matches/{id}", "/matches/{id}/board", "/api/v1/matches/{id}"])
def test_reading_a_match_runs_as_many_queries_for_2_hands_as_for_25(
    client, counter, two_matches, path
):
    short, long = two_matches["short"], two_matches["long"]
    first_view = [queries(counter, client, path.format(id=m)) for m in (short, long)]
    assert first_view[0] == first_view[1]
    client.get(path.format(id=short))  # both seen before now
    seen_before = [queries(counter, client, path.format(id=m), forget=False) for m in (short, long)]
    assert seen_before[0] == seen_before[1] <= first_view[0]


def _older_page(client) -> str:
    """The address of the history's second page (a keyset page: its link on the first)."""
    found = re.search(r'rel="next" href="([^"]+)"', client.get("/history").get_data(as_text=True))
    assert found is not None
    return html.unescape(found.group(1))


@pytest.mark.parametrize("path", ["/", "/history", "/history?player=Ann", "older"])
def test_home_and_history_run_as_many_queries_for_21_matches_as_for_45(client, counter, path):
    new_match(client, 3)
    finished_matches(client, 21)
    few = queries(counter, client, _older_page(client) if path == "older" else path)
    finished_matches(client, 24)
    new_match(client, 3)
    assert queries(counter, client, _older_page(client) if path == "older" else path) == few


def test_the_dispute_view_runs_as_many_queries_in_a_long_match(client, counter, two_matches):
    short, long = two_matches["short"], two_matches["long"]
    counts = [queries(counter, client, f"/matches/{m}/hands/2") for m in (short, long)]
    assert counts[0] == counts[1]


def _record(client, counter, match_id: int) -> int:
    data = hand_data(client, match_id, "none", *FORM_USUAL)
    with counter.counting() as found:
        assert client.post(f"/matches/{match_id}/hands/new", data=data).status_code == 303
    return found[0]


def _correct(client, counter, match_id: int) -> int:
    data = edit_data(client, match_id, 1, "none", {"meld_points": 95}, {})
    with counter.counting() as found:
        assert client.post(f"/matches/{match_id}/hands/1/edit", data=data).status_code == 303
    return found[0]


def _remove(client, counter, match_id: int) -> int:
    data = form_values(page(client.get(f"/matches/{match_id}/hands/1/remove")))
    with counter.counting() as found:
        assert client.post(f"/matches/{match_id}/hands/1/remove", data=data).status_code == 303
    return found[0]


@pytest.mark.parametrize("write", [_record, _correct, _remove], ids=["record", "correct", "remove"])
def test_a_write_runs_as_many_queries_in_a_long_match_as_in_a_short_one(
    client, counter, two_matches, write
):
    short, long = two_matches["short"], two_matches["long"]
    counts = [write(client, counter, match_id) for match_id in (short, long)]
    assert counts[0] == counts[1]


def test_an_api_write_runs_as_many_queries_in_a_long_match(client, counter, two_matches):
    short, long = two_matches["short"], two_matches["long"]
    counts = []
    for match_id in (short, long):
        with counter.counting() as found:
            response = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": USUAL})
            assert response.status_code == 201
        counts.append(found[0])
    assert counts[0] == counts[1]


def test_a_members_poll_of_the_live_board_reads_no_hands(client, counter):
    """A poll with nothing new is the session's sign-in with its user (Flask-Login's user
    loader: an ended sign-in or a removed account stops at once) and the member's access
    to the match with its revision: as few queries for a long match as for a short one."""
    counts = []
    for hands in (1, 25):
        match_id = new_match(client, hands)
        etag = client.get(f"/matches/{match_id}/board").headers["ETag"]
        with counter.counting(forget=False) as found:
            response = client.get(f"/matches/{match_id}/board", headers={"If-None-Match": etag})
            assert response.status_code == 304
        counts.append(found[0])
    assert counts[0] == counts[1] <= 2


def test_a_poll_refuses_whoever_is_no_longer_a_member(app, client):
    match_id = new_match(client, 1)
    with app.app_context():
        db.session.execute(db.text("DELETE FROM membership"))
        db.session.commit()
    assert client.get(f"/matches/{match_id}/board").status_code == 404


HF_OUT = {
    "went_out": True,
    "canastas": {"natural": 2, "mixed": 2, "wild": 1},
    "meld_points": 700,
    "feet_taken": 1,
}


@pytest.mark.parametrize("path", ["/matches/{id}", "/matches/{id}/board", "/api/v1/matches/{id}"])
def test_a_deal_count_game_whose_tie_needs_who_went_out_reads_in_fixed_queries(
    client, counter, path
):
    """Hand and Foot with a tie going to the side that went out last reads the last hand's
    records too: still as many queries for 2 hands as for 10."""
    options = {"deals": 12, "tie_rule": "went_out_last"}
    ids = []
    for hands in (2, 10):
        body = {"variant": "hand-and-foot", "sides": TEAMS, "options": options}
        match_id = client.post("/api/v1/matches", json=body).json["id"]
        for number in range(hands):
            sides = [HF_OUT, {"meld_points": 50}] if number % 2 else [{"meld_points": 50}, HF_OUT]
            response = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": sides})
            assert response.status_code == 201, response.json
        ids.append(match_id)
    first_view = [queries(counter, client, path.format(id=m)) for m in ids]
    assert first_view[0] == first_view[1]
