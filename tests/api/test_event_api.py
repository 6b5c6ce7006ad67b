"""The event endpoints' contract beyond whole events: every refusal CLUBS.md lists (all
problems at once), the ETag, the list, table matches and their mark."""

from __future__ import annotations

import pytest

from scorekeeper.services import accounts, groups
from tests.support import TESTER, add_user, sign_in

from .events import URL, create, hand, ids, pairs, play, read, start


def refused(client, body: dict, status: int = 422) -> dict[str, str]:
    body = {"name": "Cup", "variant": "classic", "entries": pairs(4), **body}
    response = client.post(URL, json=body)
    assert response.status_code == status, response.get_json()
    return {problem["field"]: problem["message"] for problem in response.get_json()["errors"]}


def test_every_problem_of_a_new_event_is_listed_at_once(client):
    fields = refused(
        client,
        {
            "variant": "classic-3p",
            "rounds": 0,
            "deals_per_round": 13,
            "bye_vp": 30,
            "entries": [{"players": ["Ann"]}],
        },
    )
    assert set(fields) == {"variant", "entries", "deals_per_round", "rounds", "bye_vp"}
    assert "two sides" in fields["variant"]
    assert "at least 2 entries" in fields["entries"]
    assert "1 to 12" in fields["deals_per_round"]


def test_a_player_twice_and_entries_that_do_not_fit_the_game(client):
    entries = [
        {"players": ["Ann", "Bob"]},
        {"players": ["Cy", "ann"]},
        {"players": ["Di"]},
        {"players": ["Ed", "Flo", "Gus"]},
    ]
    fields = refused(client, {"rounds": 3, "entries": entries})
    assert fields == {
        "entries[1].players[1]": "ann is already in entry 1: a player plays in one entry.",
        "entries[2].players": "This entry has 1 player: every entry of this event has 2.",
        "entries[3].players": "This entry has 3 players: every entry of this event has 2.",
    }


@pytest.mark.parametrize(
    ("movement", "entries", "most"),
    [("mitchell", 7, 4), ("mitchell", 8, 4), ("round_robin", 6, 5), ("round_robin", 5, 5)],
)
def test_more_rounds_than_the_movement_allows(client, movement, entries, most):
    body = {"movement": movement, "rounds": most + 1, "entries": pairs(entries)}
    assert refused(client, body) == {"rounds": f"Choose a whole number from 1 to {most}."}
    create(client, movement=movement, rounds=most, entries=pairs(entries))


def test_a_bad_vp_table_names_its_row(client):
    table = {"rows": [[50, 10, 10], [150, 11, 9], [100, 13, 8]], "over": [20, 0]}
    fields = refused(client, {"rounds": 2, "vp_table": table})
    assert set(fields) == {"vp_table.rows[2]"}
    assert refused(client, {"rounds": 2, "vp_table": "fibur-5"}) == {
        "vp_table": "Choose fibur-3, fibur-4, wdl, or give a table of your own."
    }


def test_settings_out_of_range(client):
    assert refused(client, {"rounds": 2, "bye_vp": 21}) == {
        "bye_vp": "Choose a whole number from 0 to 20."
    }
    assert refused(client, {"rounds": 2, "vp_table": "wdl", "bye_vp": 3}) == {
        "bye_vp": "Choose a whole number from 0 to 2."
    }
    assert set(refused(client, {"rounds": 2, "deals_per_round": 0})) == {"deals_per_round"}
    assert set(refused(client, {"rounds": "three"})) == {"rounds"}
    assert set(refused(client, {"rounds": 2, "movement": "swiss"})) == {"movement"}


def test_options_that_end_a_game_name_and_a_bad_body_are_refused(client):
    fields = refused(client, {"rounds": 2, "name": " ", "options": {"target": 3000}})
    assert set(fields) == {"name", "options.target"}
    assert set(refused(client, {"rounds": 2, "colour": "red"})) == {"colour"}
    assert client.post(URL, data="{}", content_type="text/plain").status_code == 415
    fields = refused(client, {"rounds": 2, "group": 999})
    assert set(fields) == {"group"}


def test_a_custom_table_and_its_default_bye(client):
    table = {"rows": [[100, 5, 5], [400, 7, 3]], "over": [10, 0]}
    state = create(client, rounds=1, deals_per_round=1, vp_table=table)
    assert (state["vp_table"], state["bye_vp"]) == (table, 5)
    state = start(client, state["id"])
    play(client, state, 1, 1, 2, (600, 300))
    play(client, state, 1, 3, 4, (100, 700))
    tables = read(client, state["id"])["rounds_played"][0]["tables"]
    assert [t["vp"] for t in tables] == [[7, 3], [0, 10]]


def test_single_player_entries_play_a_one_against_one_game(client):
    entries = [{"name": f"Seat {n}", "players": [f"Solo {n}"]} for n in range(1, 5)]
    state = create(client, variant="classic-2p", rounds=1, entries=entries)
    state = start(client, state["id"])
    match = client.get(f"/api/v1/matches/{state['rounds_played'][0]['tables'][0]['match']}")
    sides = match.get_json()["sides"]
    assert [(s["name"], s["players"]) for s in sides] == [
        ("Seat 1", ["Solo 1"]),
        ("Seat 2", ["Solo 2"]),
    ]


def test_a_table_match_is_a_match_of_the_group_marked_with_its_event(client):
    state = start(client, create(client, rounds=2, deals_per_round=3)["id"])
    table = state["rounds_played"][0]["tables"][1]
    match = client.get(f"/api/v1/matches/{table['match']}").get_json()
    assert match["event"] == {"id": state["id"], "round": 1, "table": 2}
    assert match["rules"]["game_end"] == {
        "mode": "deals",
        "deals": 3,
        "tie_rule": "draw",
        "targets_by_layout": [],
    }
    assert (
        "event"
        not in client.post(
            "/api/v1/matches",
            json={
                "variant": "classic",
                "sides": [{"players": ["X", "Y"]}, {"players": ["Z", "W"]}],
            },
        ).get_json()
    )
    links = client.get(f"/api/v1/matches/{table['match']}/links").get_json()["links"]
    assert [link["role"] for link in links] == ["scorer"]


def test_starting_a_round_waits_for_every_table(client):
    state = start(client, create(client, rounds=2, deals_per_round=2)["id"])
    play(client, state, 1, 1, 2, (100, 50), (100, 50))
    play(client, state, 1, 3, 4, (100, 50))
    response = client.post(f"{URL}/{state['id']}/rounds")
    assert response.status_code == 409
    assert response.get_json()["errors"][0]["message"] == (
        "1 table is still playing: the next round starts once every table is finished."
    )
    assert read(client, state["id"])["round"] == 1
    assert client.post(f"{URL}/{state['id']}/rounds", json={"round": 2}).status_code == 422


def test_a_penalty_needs_an_entry_a_positive_vp_and_a_reason(client):
    state = create(client, rounds=1)
    response = client.post(
        f"{URL}/{state['id']}/penalties", json={"entry": 999, "vp": 0, "reason": ""}
    )
    assert response.status_code == 422
    assert {e["field"] for e in response.get_json()["errors"]} == {"entry", "vp", "reason"}
    response = client.post(f"{URL}/{state['id']}/penalties", json={"entry": 1, "vp": 3})
    assert {e["field"] for e in response.get_json()["errors"]} == {"reason"}
    assert read(client, state["id"])["penalties"] == []


def test_withdrawing_an_unknown_entry_is_404_and_withdrawing_twice_changes_nothing(client):
    state = create(client, rounds=1)
    assert client.post(f"{URL}/{state['id']}/entries/999/withdraw").status_code == 404
    entry = ids(state)[2]
    first = client.post(f"{URL}/{state['id']}/entries/{entry}/withdraw")
    again = client.post(f"{URL}/{state['id']}/entries/{entry}/withdraw")
    assert first.status_code == again.status_code == 200
    assert first.get_json() == again.get_json()


def test_the_etag_moves_with_every_change_and_a_poll_gets_304_between(client):
    state = create(client, rounds=1, deals_per_round=2)
    first = client.get(f"{URL}/{state['id']}")
    tag = first.headers["ETag"]
    assert client.get(f"{URL}/{state['id']}", headers={"If-None-Match": tag}).status_code == 304
    state = start(client, state["id"])
    second = client.get(f"{URL}/{state['id']}").headers["ETag"]
    assert second != tag
    play(client, state, 1, 1, 2, (100, 50))  # a hand at a table: the standings may move
    third = client.get(f"{URL}/{state['id']}").headers["ETag"]
    assert third != second
    assert client.get(f"{URL}/{state['id']}", headers={"If-None-Match": third}).status_code == 304
    client.post(f"{URL}/{state['id']}/penalties", json={"entry": 1, "vp": 1, "reason": "Phone"})
    assert client.get(f"{URL}/{state['id']}", headers={"If-None-Match": third}).status_code == 200


def test_the_list_is_the_callers_groups_events(app, client):
    mine = create(client, rounds=1)
    add_user(app, "Other")
    other = sign_in(app.test_client(), "Other")
    theirs = create(other, rounds=1, name="Their cup")
    listed = client.get(URL).get_json()["events"]
    assert listed == [
        {"id": mine["id"], "name": "Friday cup", "variant": "classic", "status": "setup",
         "round": 0, "rounds": 1}
    ]  # fmt: skip
    assert client.get(f"{URL}/{theirs['id']}").status_code == 404
    assert client.get(f"{URL}?group=abc").status_code == 400
    with app.app_context():
        own = groups.personal_group(accounts.find_user(TESTER)).id
        their_group = groups.personal_group(accounts.find_user("Other")).id
    assert client.get(f"{URL}?group={own}").get_json()["events"] == listed
    assert client.get(f"{URL}?group={their_group}").status_code == 404


def test_an_instant_win_ends_a_table_early(client):
    entries = [{"players": [f"I{n}a", f"I{n}b"]} for n in range(1, 3)]
    state = create(client, variant="modern-american", rounds=1, deals_per_round=4,
                   entries=entries)  # fmt: skip
    state = start(client, state["id"])
    table = state["rounds_played"][0]["tables"][0]
    dream = {"went_out": True, "special_hand": "dream_plus_4"}
    body = {"sides": [dream, {"meld_points": 50}]}
    response = client.post(f"/api/v1/matches/{table['match']}/hands", json=body)
    assert response.status_code == 201, response.get_json()
    state = read(client, state["id"])
    assert state["rounds_played"][0]["tables"][0]["status"] == "finished"
    assert state["status"] == "finished"


def test_hand_helper_makes_the_wanted_totals(client):
    """The helper the tests above lean on: a deal (a, b) gives a and b."""
    body = {"variant": "classic", **hand(350, 120)}
    totals = [side["total"] for side in client.post("/api/v1/score", json=body).get_json()["sides"]]
    assert totals == [350, 120]
