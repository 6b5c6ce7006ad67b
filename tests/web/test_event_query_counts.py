"""The event pages and the event state run as many queries for a big event (many entries,
rounds played, penalties) as for a small one, and a poll with nothing new reads no
entries, tables or hands."""

from __future__ import annotations

import pytest

from tests.api.events import create, ids, pairs, play, start
from tests.support import filled_fixtures

from .test_query_counts import Counter, queries


@pytest.fixture
def counter(app, client):
    client.get("/")  # the once-per-process check for a first account is behind us
    return Counter(app)


def _played(client, entries: int, rounds: int) -> int:
    """An event of this many entries with this many rounds played, every table finished
    but the last round's first, a penalty and a withdrawal."""
    state = create(client, entries=pairs(entries, f"E{entries}-"), rounds=rounds, deals_per_round=1)
    event = state["id"]
    client.post(
        f"/api/v1/events/{event}/penalties",
        json={"entry": ids(state)[2], "vp": 1, "reason": "Late"},
    )
    for number in range(1, rounds + 1):
        state = start(client, event)
        tables = state["rounds_played"][-1]["tables"]
        for index, table in enumerate(tables):
            if number == rounds and index == 0:
                continue
            first, second = (e for e in table["entries"])
            by_id = {v: k for k, v in ids(state).items()}
            play(client, state, number, by_id[first], by_id[second], (100 + 10 * index, 90))
    client.post(f"/api/v1/events/{event}/entries/{ids(state)[entries]}/withdraw")
    return event


def _small_and_big(_app, client) -> dict[str, int]:
    return {"small": _played(client, 4, 1), "big": _played(client, 30, 3)}


# Made once per test process: every path below reads the same two events.
played_database, app_database, played = filled_fixtures("played", _small_and_big)

PATHS = [
    "/events/{id}",
    "/events/{id}/tables",
    "/events/{id}/standings",
    "/events/{id}/standings/live",
    "/events/{id}/projector",
    "/events/{id}/projector/live",
    "/events/{id}/entries/1",
    "/events/{id}/standings.csv",
    "/events/{id}/rounds/1/cards",
    "/api/v1/events/{id}",
]


@pytest.mark.parametrize("path", PATHS)
def test_an_event_page_runs_as_many_queries_for_30_entries_and_3_rounds_as_for_4_and_1(
    client, counter, played, path
):
    events = (played["small"], played["big"])
    counts = [queries(counter, client, path.format(id=event)) for event in events]
    assert counts[0] == counts[1]


@pytest.mark.parametrize(
    "path", ["/events/{id}/tables", "/events/{id}/standings/live", "/events/{id}/projector/live"]
)
def test_a_poll_with_nothing_new_is_the_sign_in_and_the_events_state(client, counter, played, path):
    counts = []
    for event in (played["small"], played["big"]):
        url = path.format(id=event)
        tag = client.get(url).headers["ETag"]
        with counter.counting(forget=False) as found:
            assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
        counts.append(found[0])
    assert counts[0] == counts[1] <= 2


def test_the_event_list_runs_as_many_queries_for_many_events(client, counter):
    _played(client, 4, 1)
    few = [queries(counter, client, path) for path in ("/api/v1/events", "/groups/1/events")]
    for _ in range(3):
        _played(client, 6, 1)
    many = [queries(counter, client, path) for path in ("/api/v1/events", "/groups/1/events")]
    assert many == few


def test_a_vp_league_runs_as_many_queries_for_many_events(client, counter):
    """A league's standings gather every event of its period in a fixed number of
    queries, however many events and tables it has."""
    league = client.post(
        "/api/v1/leagues",
        json={"name": "Season", "start": "2000-01-01", "end": "2999-12-31", "scoring": "vp"},
    ).get_json()["id"]
    paths = (f"/api/v1/leagues/{league}", f"/groups/1/leagues/{league}")
    _played(client, 4, 1)
    few = [queries(counter, client, path) for path in paths]
    for _ in range(3):
        _played(client, 6, 2)
    many = [queries(counter, client, path) for path in paths]
    assert many == few
    standings = client.get(f"/api/v1/leagues/{league}").get_json()["standings"]
    assert len(standings) == 4 * 2 + 6 * 2  # every player (the 6-pair events share theirs)
