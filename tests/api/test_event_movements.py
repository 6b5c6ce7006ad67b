"""Whole events through the API, one for each movement, with VP and standings worked out
by hand from CLUBS.md (FIBUR-3: a difference up to 50 is 10-10, up to 150 11-9, up to 250
12-8, up to 350 13-7, up to 500 14-6, above 1500 20-0; wdl: 2 a win, 1 a draw).

Classic for pairs: a side that melds M points and holds nothing scores M, so a deal
(a, b) gives the two entries a and b match points.
"""

from __future__ import annotations

from .events import URL, create, hand, ids, pairings, play, ranked, read, start, table_of


def test_a_round_robin_ranks_by_vp_then_mp_difference_then_the_meeting(client):
    state = create(client, movement="round_robin", rounds=3, deals_per_round=1)
    assert state["vp_table"] == "fibur-3"
    assert state["bye_vp"] == 12
    assert state["status"] == "setup"
    state = start(client, state["id"])
    assert pairings(state, 1) == ([(1, 1, 4), (2, 2, 3)], [])
    play(client, state, 1, 1, 4, (300, 300))
    play(client, state, 1, 2, 3, (300, 500))
    state = start(client, state["id"])
    assert pairings(state, 2) == ([(1, 1, 3), (2, 4, 2)], [])
    play(client, state, 2, 1, 3, (400, 400))
    play(client, state, 2, 4, 2, (250, 250))
    state = start(client, state["id"])
    assert pairings(state, 3) == ([(1, 1, 2), (2, 3, 4)], [])
    play(client, state, 3, 1, 2, (200, 350))
    play(client, state, 3, 3, 4, (300, 400))
    state = read(client, state["id"])
    assert state["status"] == "finished"
    # 3 and 4: 31 VP and +100 each; 4 won their meeting 11-9, so 4 is first.
    # 1 and 2: 29 VP each; 2's difference (-50) beats 1's (-150).
    assert ranked(state) == [
        (1, 4, 31, 100, 950, 3),
        (2, 3, 31, 100, 1200, 3),
        (3, 2, 29, -50, 900, 3),
        (4, 1, 29, -150, 900, 3),
    ]
    last = state["rounds_played"][2]["tables"]
    assert [(t["mp"], t["vp"], t["status"]) for t in last] == [
        ([200, 350], [9, 11], "finished"),
        ([300, 400], [9, 11], "finished"),
    ]
    refused = client.post(f"{URL}/{state['id']}/rounds")
    assert refused.status_code == 409
    assert "Every round" in refused.get_json()["errors"][0]["message"]


def test_a_danish_event_with_a_bye_a_penalty_a_withdrawal_and_a_late_correction(client):
    state = create(client, entries=[{"players": [f"D{n}a", f"D{n}b"]} for n in range(1, 6)],
                   rounds=3, deals_per_round=1)  # fmt: skip
    event, entry = state["id"], ids(state)
    assert state["movement"] == "danish"
    state = start(client, event)
    assert pairings(state, 1) == ([(1, 1, 2), (2, 3, 4)], [5])
    # A bye counts 12 VP as soon as its round starts; nothing else has been played.
    assert ranked(state)[0] == (1, 5, 12, 0, 0, 0)
    play(client, state, 1, 1, 2, (600, 300))
    play(client, state, 1, 3, 4, (200, 200))
    state = read(client, event)
    # 3 and 4 drew (10 each, difference 0): their meeting is even, so the lower number.
    assert ranked(state) == [
        (1, 1, 13, 300, 600, 1),
        (2, 5, 12, 0, 0, 0),
        (3, 3, 10, 0, 200, 1),
        (4, 4, 10, 0, 200, 1),
        (5, 2, 7, -300, 300, 1),
    ]
    penalty = {"entry": entry[1], "vp": 2, "reason": "Late to the table"}
    response = client.post(f"{URL}/{event}/penalties", json=penalty)
    assert response.status_code == 201
    state = response.get_json()
    assert state["penalties"] == [penalty]
    assert [row[1] for row in ranked(state)] == [5, 1, 3, 4, 2]
    # Round 2: the bye goes to the lowest-ranked entry without one (2); 5 meets the best
    # entry it has not met (1); 3 has met 4, the only one left, so they meet again.
    state = start(client, event)
    assert pairings(state, 2) == ([(1, 5, 1), (2, 3, 4)], [2])
    play(client, state, 2, 5, 1, (450, 300))
    late_table = play(client, state, 2, 3, 4, (300, 700))
    state = read(client, event)
    assert [row[1:3] for row in ranked(state)] == [(4, 24), (5, 23), (1, 20), (2, 19), (3, 16)]
    response = client.post(f"{URL}/{event}/entries/{entry[3]}/withdraw")
    assert response.status_code == 200
    assert [e["withdrawn"] for e in response.get_json()["entries"]] == [
        False,
        False,
        True,
        False,
        False,
    ]
    state = start(client, event)
    # 3 is left out; 4 meets 5 (unmet), then 1 and 2 are all that is left.
    assert pairings(state, 3) == ([(1, 4, 5), (2, 1, 2)], [])
    # Table 2 of round 2 is corrected now that round 3 is paired: 3 won it 700 to 300.
    table, flipped = table_of(state, 2, 3, 4)
    assert (table["match"], flipped) == (late_table, False)
    hand_one = client.get(f"/api/v1/matches/{late_table}").get_json()["hands"][0]
    body = {**hand(700, 300), "version": hand_one["version"]}
    response = client.put(f"/api/v1/matches/{late_table}/hands/1", json=body)
    assert response.status_code == 200
    state = read(client, event)
    assert pairings(state, 3) == ([(1, 4, 5), (2, 1, 2)], [])  # the pairings stand
    assert state["rounds_played"][1]["tables"][1]["vp"] == [14, 6]
    play(client, state, 3, 4, 5, (500, 500))
    play(client, state, 3, 1, 2, (50, 1100))
    state = read(client, event)
    assert state["status"] == "finished"
    assert ranked(state) == [
        (1, 2, 37, 750, 1400, 2),
        (2, 5, 33, 150, 950, 2),
        (3, 4, 26, -400, 1000, 3),
        (4, 3, 24, 400, 900, 2),
        (5, 1, 22, -900, 950, 3),
    ]


def test_a_mitchell_event_of_two_deals_a_round_with_wdl(client):
    state = create(client, entries=[{"players": [f"M{n}a", f"M{n}b"]} for n in range(1, 6)],
                   movement="mitchell", rounds=2, deals_per_round=2, vp_table="wdl")  # fmt: skip
    assert state["bye_vp"] == 2
    event = state["id"]
    state = start(client, event)
    # Three tables: North-South 1, 2, 3; East-West slots 4, 5 and the empty one.
    assert pairings(state, 1) == ([(1, 1, 4), (2, 2, 5)], [3])
    play(client, state, 1, 1, 4, (300, 200), (100, 150))
    match = play(client, state, 1, 2, 5, (200, 200), (300, 300))
    third = client.post(f"/api/v1/matches/{match}/hands", json=hand(50, 0))
    assert third.status_code == 409  # a table match takes K hands, no more
    state = start(client, event)
    assert pairings(state, 2) == ([(2, 2, 4), (3, 3, 5)], [1])
    play(client, state, 2, 2, 4, (400, 100), (100, 300))
    play(client, state, 2, 3, 5, (250, 300), (300, 200))
    state = read(client, event)
    assert state["rounds_played"][0]["tables"][1]["status"] == "drawn"
    assert state["rounds_played"][0]["tables"][1]["vp"] == [1, 1]
    # 1 and 3: 4 VP and +50 each, and they have not met: the lower number first.
    assert ranked(state) == [
        (1, 1, 4, 50, 400, 1),
        (2, 3, 4, 50, 550, 1),
        (3, 2, 3, 100, 1000, 2),
        (4, 5, 1, -50, 1000, 2),
        (5, 4, 0, -150, 750, 2),
    ]
    assert state["status"] == "finished"


def test_an_entry_facing_a_withdrawn_one_has_the_bye(client):
    state = create(client, entries=[{"players": [f"W{n}a", f"W{n}b"]} for n in range(1, 6)],
                   movement="mitchell", rounds=3, deals_per_round=1)  # fmt: skip
    event, entry = state["id"], ids(state)
    state = start(client, event)
    play(client, state, 1, 1, 4, (300, 200))
    play(client, state, 1, 2, 5, (200, 200))
    client.post(f"{URL}/{event}/entries/{entry[4]}/withdraw")
    state = start(client, event)
    # Round 2 would set 2 against 4: 4 withdrew, so 2 has the bye as well as 1.
    assert pairings(state, 2) == ([(3, 3, 5)], [1, 2])
    rows = {row[1]: row for row in ranked(state)}
    assert rows[2][2] == 10 + 12  # a draw, then the bye
    assert rows[4][2] == 9  # a withdrawn entry keeps what it earned, and stays ranked
