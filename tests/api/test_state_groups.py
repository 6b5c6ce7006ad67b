"""A match state's hands and audit trail are compressed in groups: a full group once,
kept for every later state; the short group a save changes is not kept, so a long match
does not fill the cache with blocks no later state uses."""

from __future__ import annotations

import gzip

from scorekeeper.api.state_document import GROUP
from scorekeeper.caches import KEY as CACHES
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
    groups = [key[1] for key in parts if key[0] == "deflated" and isinstance(key[1][0], bool)]
    # Hands 1 to 32; the 32 oldest audit entries, first in the list (at 32 entries) and
    # after a comma (from 33 on). Not one block per save for the short groups.
    assert sorted((len(name) - 1, isinstance(name[1], bytes), name[0]) for name in groups) == [
        (GROUP, False, False),
        (GROUP, True, False),
        (GROUP, True, True),
    ]
    text = gzip.decompress(response.data)
    assert text == client.get(f"{URL}/{match_id}").data
    assert len(read(client, match_id)["hands"]) == hands
