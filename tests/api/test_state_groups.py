"""What is kept of a match's state: its hands and audit trail are compressed in groups,
a full group once, kept for every later state; the short group a save changes is not
kept, and one state (text and compressed) is kept per match, the last made. So a long
match does not fill the caches with what no later read uses."""

from __future__ import annotations

import gzip

from scorekeeper.api.state_document import GROUP, Run
from scorekeeper.caches import KEY as CACHES
from scorekeeper.delivery import GZIP_TAG
from tests.api.test_matches import URL, create, read

USUAL = [{"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5}]


def test_only_full_groups_are_kept(app, client):
    match_id = create(client)["id"]
    hands = GROUP + 8
    for _ in range(hands):
        response = client.post(
            f"{URL}/{match_id}/hands", json={"sides": USUAL}, headers={"Accept-Encoding": "gzip"}
        )
        assert response.status_code == 201
    parts = app.extensions[CACHES]["parts"].values
    runs = {key[1:]: run for key, run in parts.items() if isinstance(run, Run)}
    # Hands 1 to 32, first in their list; the 32 oldest audit entries, first in the list
    # (at 32 entries) and after a comma (from 33 on). Not one block per save for the short
    # groups.
    assert sorted(
        (len(names), isinstance(names[0], bytes), "first" in run.__dict__, "later" in run.__dict__)
        for names, run in runs.items()
    ) == [(GROUP, False, True, False), (GROUP, True, True, True)]
    text = gzip.decompress(response.data)
    assert text == client.get(f"{URL}/{match_id}").data
    assert len(read(client, match_id)["hands"]) == hands


def test_one_state_is_kept_per_match(app, client):
    first, second = create(client)["id"], create(client)["id"]
    gzip_client = {"Accept-Encoding": "gzip"}
    for match_id in (first, second, first, first):
        response = client.post(
            f"{URL}/{match_id}/hands", json={"sides": USUAL}, headers=gzip_client
        )
        assert response.status_code == 201
    pages = app.extensions[CACHES]["pages"].values
    states = {key: state for key, state in pages.items() if key[0] == "state"}
    assert sorted(states) == [("state", first), ("state", second)]
    kept = states[("state", first)]
    assert kept.revision == 3
    assert client.get(f"{URL}/{first}").data == kept.text
    again = client.get(f"{URL}/{first}", headers=gzip_client)
    assert again.data == kept.gzipped
    assert again.headers["ETag"] == f'"m{first}.3{GZIP_TAG}"'


def test_only_hands_without_a_kept_part_are_read(app, client, monkeypatch):
    """A state is made from the hands' kept parts; the records read are those of the
    hands whose part is not kept, and of the last hand (the game end may need them).
    (The last state's parts are kept with it too: both are let go here.)"""
    from scorekeeper.api import state_document

    match_id = create(client)["id"]
    for _ in range(5):
        assert client.post(f"{URL}/{match_id}/hands", json={"sides": USUAL}).status_code == 201
    expected = read(client, match_id)
    read_numbers: list[list[int]] = []
    real = state_document.hand_records

    def recording(keys):
        read_numbers.append([key.number for key in keys])
        return real(keys)

    monkeypatch.setattr(state_document, "hand_records", recording)
    caches = app.extensions[CACHES]
    caches["pages"].values.clear()
    assert read(client, match_id) == expected
    assert read_numbers == [[5]]
    caches["pages"].values.clear()
    second = next(
        key
        for key in caches["parts"].values
        if key[:2] == ("hand.json", expected["hands"][1]["id"])
    )
    del caches["parts"].values[second]
    del caches["parts"].values[("hand parts", match_id)]
    assert read(client, match_id) == expected
    assert read_numbers[1] == [2, 5]


def test_a_save_names_only_its_new_hand(app, client, monkeypatch):
    """The state after a save takes the hands' rows and parts of the match's last state
    as they are: only the new hand gets a row and a name, and its part is looked up; the
    answer is what a server that never saw the match reads."""
    from scorekeeper import create_app
    from scorekeeper.caches import Cache
    from scorekeeper.services import match_state
    from tests.support import app_config, sign_in

    match_id = create(client)["id"]
    for _ in range(GROUP + 3):
        assert client.post(f"{URL}/{match_id}/hands", json={"sides": USUAL}).status_code == 201
    dealt: list[list[int]] = []
    looked_up: list[list[str]] = []
    real_dealers, real_peek = match_state.dealers_of, Cache.peek_many

    def dealers(match, order, numbers):
        numbers = list(numbers)
        dealt.append(numbers)
        return real_dealers(match, order, numbers)

    def peek_many(self, keys):
        keys = list(keys)
        looked_up.append([key[0] for key in keys if key[0] == "hand.json"])
        return real_peek(self, keys)

    monkeypatch.setattr(match_state, "dealers_of", dealers)
    monkeypatch.setattr(Cache, "peek_many", peek_many)
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": USUAL})
    assert response.status_code == 201
    number = GROUP + 4
    assert [number] in dealt
    assert not any(len(numbers) > 1 for numbers in dealt)
    assert [names for names in looked_up if names] == [["hand.json"]]
    fresh = sign_in(create_app(app_config(app.config["SQLALCHEMY_DATABASE_URI"])).test_client())
    assert response.json == read(fresh, match_id)


def test_every_answer_is_the_state_a_fresh_read_makes(app, client):
    """Two workers (apps) save a long match in turn at random, past several full runs of
    hands and of audit entries, with a correction and a removal on the way: each answer,
    compressed or not, is byte for byte what a worker with nothing kept reads."""
    import random

    from scorekeeper import create_app
    from tests.support import app_config, sign_in

    url = app.config["SQLALCHEMY_DATABASE_URI"]
    other = sign_in(create_app(app_config(url)).test_client())
    fresh_app = create_app(app_config(url))
    fresh = sign_in(fresh_app.test_client())
    match_id = create(client, options={"target": 1_000_000})["id"]
    turns = random.Random(5)
    gzip_header = {"Accept-Encoding": "gzip"}

    def fresh_text():
        for kept in fresh_app.extensions[CACHES].values():
            kept.values.clear()
        return fresh.get(f"{URL}/{match_id}").data

    for step in range(1, 2 * GROUP + 12):
        who = turns.choice([client, other])
        if step == GROUP + 5:
            response = who.put(f"{URL}/{match_id}/hands/3", json={"sides": USUAL[::-1]})
        elif step == GROUP + 9:
            response = who.delete(f"{URL}/{match_id}/hands/{GROUP}")
        else:
            response = who.post(
                f"{URL}/{match_id}/hands", json={"sides": USUAL}, headers=gzip_header
            )
        assert response.status_code in (200, 201), response.data[:200]
        text = (
            gzip.decompress(response.data)
            if response.headers.get("Content-Encoding")
            else response.data
        )
        assert text.rstrip(b"\n") == fresh_text().rstrip(b"\n"), step
    assert len(read(client, match_id)["hands"]) == 2 * GROUP + 8
