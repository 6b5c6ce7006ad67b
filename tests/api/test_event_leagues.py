"""A `vp` league of four club evenings, worked by hand from real events made and played
through the API: a pair's VP go to both its players, byes and penalties included; an
event's evening is the date its round 1 started in the server's time zone; best 3 of 4
evenings with a minimum of 2; a substitute earns for the player replaced only once the
director credits them. Events of other games or outside the period do not count.

Every event is Classic for pairs, one round (Danish: 1 against 2, 3 against 4, an odd
entry has the bye), two deals per table (of half the MP each), the `fibur-3` table, bye 12 VP:

| evening | tables (MP)                         | VP                                   |
|---------|-------------------------------------|--------------------------------------|
| Jan 5   | Ann&Bob 400-100 Cid&Dee             | 13-7 (difference 300)                |
|         | Eve&Fay 600-0 Gus&Hal; Ivy&Jon bye  | 15-5 (600); 12                       |
| Jan 12  | Ann&Kim 700-100 Cid&Dee (Kim for Bob)| 15-5 (600)                          |
|         | Eve&Fay 0-1600 Gus&Hal              | 0-20 (over 1500)                     |
| Jan 19  | Ann&Bob 150-200 Cid&Dee, Cid&Dee -3 | 10-10 (50: the first row), 10-7      |
|         | Eve&Fay 900-100 Gus&Hal             | 16-4 (800)                           |
| Jan 26  | Ann&Bob 1100-0 Cid&Dee; Eve&Fay bye | 18-2 (1100); 12                      |
"""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from sqlalchemy import update

from scorekeeper.event_models import EventRound
from scorekeeper.extensions import db
from scorekeeper.services.storage import transaction
from tests.web.helpers import csrf_token, page, text_of

from .events import create, play, start

JANUARY = {"start": "2026-01-01", "end": "2026-01-31"}


def event(client, app, pairs: list[tuple[str, str]], started: datetime, tables, **body) -> dict:
    """An event of these pairs, round 1 started at `started` (UTC) and every table played:
    `tables` gives (a, b, a's MP, b's MP) by entry number."""
    entries = [{"players": list(pair)} for pair in pairs]
    state = create(client, entries=entries, rounds=1, deals_per_round=2, **body)
    state = start(client, state["id"])
    for a, b, mp_a, mp_b in tables:  # two deals of half the MP each
        play(client, state, 1, a, b, (mp_a // 2, mp_b // 2), (mp_a // 2, mp_b // 2))
    with app.app_context(), transaction():
        db.session.execute(
            update(EventRound)
            .where(EventRound.event_id == state["id"], EventRound.number == 1)
            .values(started_at=started)
        )
    return state


def rows(state: dict) -> list[tuple]:
    return [
        (r["rank"], r["name"], r["points"], r["evenings"], r["per_evening"], r["ranked"])
        for r in state["standings"]
    ]


@pytest.fixture
def season(app, client):
    app.config["SCOREKEEPER_TIMEZONE"] = "Europe/Rome"
    four = [("Ann", "Bob"), ("Cid", "Dee"), ("Eve", "Fay"), ("Gus", "Hal")]
    # Round 1 of the first evening starts at 23:30 UTC on Jan 4: Jan 5 in Rome.
    first = event(
        client,
        app,
        [*four, ("Ivy", "Jon")],
        datetime(2026, 1, 4, 23, 30),
        [(1, 2, 400, 100), (3, 4, 600, 0)],
        name="Epiphany pairs",
    )
    assert first["rounds_played"][0]["byes"] == [first["entries"][4]["id"]]
    with_kim = [("Ann", "Kim"), *four[1:]]
    tables = [(1, 2, 700, 100), (3, 4, 0, 1600)]
    event(client, app, with_kim, datetime(2026, 1, 12, 20), tables, name="Monday pairs")
    third = event(
        client, app, four, datetime(2026, 1, 19, 20), [(1, 2, 150, 200), (3, 4, 900, 100)]
    )
    penalty = {"entry": third["entries"][1]["id"], "vp": 3, "reason": "Late"}
    assert client.post(f"/api/v1/events/{third['id']}/penalties", json=penalty).status_code == 201
    fourth = event(client, app, four[:3], datetime(2026, 1, 26, 20), [(1, 2, 1100, 0)])
    # Not counted: a game outside the league's, an evening after its end, a table unplayed.
    single = [("Ann",), ("Cid",)]
    event(client, app, single, datetime(2026, 1, 12, 21), [(1, 2, 500, 0)], variant="classic-2p")
    event(client, app, four, datetime(2026, 2, 2, 20), [(1, 2, 500, 0), (3, 4, 500, 0)])
    answer = client.post(
        "/api/v1/leagues",
        json={"name": "Winter", **JANUARY, "scoring": "vp", "variants": ["classic"]}
        | {"best_of": 3, "min_evenings": 2},
    )
    assert answer.status_code == 201, answer.get_json()
    return {**answer.get_json(), "fourth": fourth}


def credit(client, league_id: int, evening: str, substitute: int, replaced: int):
    page = client.get(f"/groups/1/leagues/{league_id}").get_data(as_text=True)
    form = {"csrf_token": csrf_token(page), "evening": evening}
    form |= {"substitute": str(substitute), "replaced": str(replaced)}
    return client.post(f"/groups/1/leagues/{league_id}/credits", data=form)


def test_a_vp_league_sums_the_vp_of_its_events(client, season):
    assert season["group"] == 1
    assert season["evenings"] == ["2026-01-05", "2026-01-12", "2026-01-19", "2026-01-26"]
    assert rows(season) == [
        (1, "Ann", 46, 4, [13, 15, 10, 18], True),  # best 3: 18 + 15 + 13
        (2, "Eve", 43, 4, [15, 0, 16, 12], True),  # a bye's 12 on the 26th
        (3, "Fay", 43, 4, [15, 0, 16, 12], True),  # the pair's VP to both: by name
        (4, "Bob", 41, 3, [13, None, 10, 18], True),  # Kim played for him on the 12th
        (5, "Gus", 29, 3, [5, 20, 4, None], True),
        (6, "Hal", 29, 3, [5, 20, 4, None], True),
        (7, "Cid", 19, 4, [7, 5, 7, 2], True),  # 10 less the penalty's 3 on the 19th
        (8, "Dee", 19, 4, [7, 5, 7, 2], True),
        (None, "Kim", 15, 1, [None, 15, None, None], False),  # one evening of the 2 needed
        (None, "Ivy", 12, 1, [12, None, None, None], False),  # the bye of the 5th
        (None, "Jon", 12, 1, [12, None, None, None], False),
    ]


def test_a_substitute_earns_for_the_player_replaced_once_credited(client, season):
    ids = {r["name"]: r["player"] for r in season["standings"]}
    answer = credit(client, season["id"], "2026-01-12", ids["Kim"], ids["Bob"])
    assert answer.status_code == 303
    state = client.get(f"/api/v1/leagues/{season['id']}").get_json()
    assert rows(state)[:4] == [
        (1, "Ann", 46, 4, [13, 15, 10, 18], True),
        (2, "Bob", 46, 4, [13, 15, 10, 18], True),  # Kim's 15 now his: best 3 of 4
        (3, "Eve", 43, 4, [15, 0, 16, 12], True),
        (4, "Fay", 43, 4, [15, 0, 16, 12], True),
    ]
    assert "Kim" not in [r["name"] for r in state["standings"]]
    # The league's page and Bob's card say so.
    text = text_of(client.get(f"/groups/1/leagues/{season['id']}"))
    assert "Kim played for Bob on Jan 12, 2026" in text
    card = client.get(f"/groups/1/leagues/{season['id']}/players/{ids['Bob']}")
    assert card.status_code == 200
    assert "Jan 12, 2026 : 15 points , counts Kim played for Bob on Jan 12, 2026" in text_of(card)
    assert "Jan 19, 2026 : 10 points , beyond the best evenings: does not count" in text_of(card)


def test_the_league_follows_a_correction_and_a_penalty(client, season):
    state = season["fourth"]
    table = state["rounds_played"][0]["tables"][0]
    # Its first deal, 550-0, was in fact 0-350: the table is now 550-350.
    fixed = {"sides": [{"meld_points": 0}, {"meld_points": 350}]}
    assert client.put(f"/api/v1/matches/{table['match']}/hands/1", json=fixed).status_code == 200
    cid = state["entries"][1]["id"]
    penalty = {"entry": cid, "vp": 1, "reason": "Phone"}
    assert client.post(f"/api/v1/events/{state['id']}/penalties", json=penalty).status_code == 201
    after = client.get(f"/api/v1/leagues/{season['id']}").get_json()
    by_name = {r["name"]: r for r in after["standings"]}
    # 550-350: a difference of 200, 12-8; Cid & Dee 8 less 1.
    # Ann: 15 + 13 + 12 = 40; Cid: 7 + 7 + 7 = 21.
    assert by_name["Ann"]["per_evening"] == [13, 15, 10, 12]
    assert by_name["Ann"]["points"] == 40
    assert by_name["Cid"]["per_evening"] == [7, 5, 7, 7]
    assert by_name["Cid"]["points"] == 21


def test_a_players_card_names_each_event_and_its_vp(client, anonymous_client, season):
    """Each evening of Bob's card lists the event that earned it, linked to its standings,
    with the VP; the evening Kim played for him says so once credited."""
    ids = {r["name"]: r["player"] for r in season["standings"]}
    url = f"/groups/1/leagues/{season['id']}/players/{ids['Bob']}"
    card = text_of(client.get(url))
    assert "Jan 5, 2026 : 13 points , counts Epiphany pairs : 13 VP" in card
    assert "Monday pairs" not in card  # Kim played that evening, not yet credited to Bob
    assert credit(client, season["id"], "2026-01-12", ids["Kim"], ids["Bob"]).status_code == 303
    response = client.get(url)
    assert "Monday pairs : 15 VP played by Kim" in text_of(response)
    links = [a.attrs.get("href") for a in page(response).find_all("a")]
    assert f"/events/{season['fourth']['id']}/standings" in links
    # Through a viewer link: the events named, and no link into the group's events.
    share = client.get(f"/groups/1/leagues/{season['id']}/share").get_data(as_text=True)
    form = {"csrf_token": csrf_token(share)}
    assert client.post(f"/groups/1/leagues/{season['id']}/share", data=form).status_code == 303
    share = client.get(f"/groups/1/leagues/{season['id']}/share").get_data(as_text=True)
    token = re.search(r"/l/([A-Za-z0-9_-]+)", share).group(1)
    viewer = anonymous_client.get(f"/l/{token}/players/{ids['Bob']}")
    assert "Monday pairs: 15 VP played by Kim" in text_of(viewer)
    assert not [a for a in page(viewer).find_all("a") if "/events/" in a.attrs.get("href", "")]
