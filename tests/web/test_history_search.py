"""Searching the history: period, partner, result, order; the search in the URL."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import update

from scorekeeper.extensions import db
from scorekeeper.models import Match
from tests.support import filled_fixtures, load_bench

from .helpers import api_finished_match, page, text_of
from .test_home_and_history import cards
from .test_query_counts import Counter, queries

# Classic (partnerships) to 50: a hand of 100 against 50 ends it, the higher side wins.
SHORT = {"target": 50}
FIRST_WINS = [{"meld_points": 100}, {"meld_points": 50}]
SECOND_WINS = [{"meld_points": 50}, {"meld_points": 100}]


def dated(app, match_id: int, day: str) -> None:
    with app.app_context():
        finished = datetime.fromisoformat(day + " 20:00")
        db.session.execute(update(Match).where(Match.id == match_id).values(finished_at=finished))
        db.session.commit()


def play_the_season(app, client) -> list[int]:
    """Four matches of Classic for four, on four days:

    2025-01-10 Ann & Bob beat Cid & Dee; 2025-02-10 Ann & Cid lose to Bob & Dee;
    2025-03-10 Ann & Bob lose to Cid & Dee; 2025-04-10 a drawn Hand and Foot, Ann & Bob
    against Cid & Dee.
    """
    ids = [
        api_finished_match(client, "classic", [["Ann", "Bob"], ["Cid", "Dee"]], FIRST_WINS, SHORT),
        api_finished_match(client, "classic", [["Ann", "Cid"], ["Bob", "Dee"]], SECOND_WINS, SHORT),
        api_finished_match(client, "classic", [["Ann", "Bob"], ["Cid", "Dee"]], SECOND_WINS, SHORT),
    ]
    body = {
        "variant": "hand-and-foot",
        "sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cid", "Dee"]}],
        "options": {"deals": 1, "tie_rule": "draw"},
    }
    drawn = client.post("/api/v1/matches", json=body).json["id"]
    tie = [{"meld_points": 50, "hand_points": 5}, {"meld_points": 50, "hand_points": 5}]
    assert client.post(f"/api/v1/matches/{drawn}/hands", json={"sides": tie}).json["status"] == (
        "drawn"
    )
    ids.append(drawn)
    for month, match_id in enumerate(ids, start=1):
        dated(app, match_id, f"2025-{month:02d}-10")
    return ids


# `season`: the four matches of `play_the_season`, oldest first, played once per test
# process (they took more requests than most of these tests).
season_database, app_database, season = filled_fixtures("season", play_the_season)


def listed(client, query: str) -> list[int]:
    response = client.get(f"/history?{query}")
    assert response.status_code == 200, text_of(response)
    return [int(href.rsplit("/", 1)[1]) for href, *_ in cards(response)]


def test_by_period_both_days_included(client, season):
    first, second, third, drawn = season
    assert listed(client, "from=2025-02-10&to=2025-03-10") == [third, second]
    assert listed(client, "from=2025-03-11") == [drawn]
    assert listed(client, "to=2025-01-10") == [first]


def test_by_partnership_and_by_result_for_a_player(client, season):
    first, second, third, drawn = season
    assert listed(client, "player=Ann&partner=Bob") == [drawn, third, first]
    assert listed(client, "player=Ann&partner=Cid") == [second]
    assert listed(client, "player=Ann&result=won") == [first]
    assert listed(client, "player=Ann&result=lost") == [third, second]
    assert listed(client, "player=Dee&result=won") == [third, second]
    assert listed(client, "result=drawn") == [drawn]
    assert listed(client, "player=Ann&partner=Bob&result=lost") == [third]


def test_oldest_first(client, season):
    assert listed(client, "sort=oldest") == season


def test_the_search_stays_in_the_page_links(client, season):
    for _ in range(20):  # 21 matches Ann lost with Cid: two pages
        api_finished_match(client, "classic", [["Ann", "Cid"], ["Bob", "Dee"]], SECOND_WINS, SHORT)
    response = client.get("/history?player=Ann&partner=Cid&result=lost&sort=oldest")
    assert "21 matches with Ann partnered with Cid, lost." in text_of(response)
    assert cards(response)[0][0] == f"/matches/{season[1]}"  # the oldest first
    nav = page(response).find("nav", class_="pages")
    following = nav.find("a", rel="next").attrs["href"]
    asked = parse_qs(urlsplit(following).query)
    assert asked.pop("after")  # where the next page starts
    assert asked == {
        "player": ["Ann"],
        "partner": ["Cid"],
        "result": ["lost"],
        "sort": ["oldest"],
    }
    assert len(cards(client.get(following))) == 1
    root = page(response)
    assert root.find("details", class_="more-filters").attrs.get("open") == ""
    chosen = root.find("select", name="result").find("option", selected="")
    assert chosen.attrs["value"] == "lost"


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("result=won", "result", "Choose whose matches to see them won"),
        ("result=maybe", "result", "Choose won, lost or drawn"),
        ("partner=Bob", "partner", "Choose a player to find their matches with this partner"),
        ("player=Ann&partner=ann", "partner", "Choose someone else as the partner"),
        ("from=2025-02-30", "from", "'2025-02-30' is not a date: write it as YYYY-MM-DD"),
        ("from=2025-03-01&to=2025-02-01", "to", "The end of the period comes before its start"),
        ("sort=best", "sort", "Choose newest or oldest first"),
    ],
)
def test_a_bad_search_is_explained_next_to_its_field(client, season, query, field, message):
    response = client.get(f"/history?{query}")
    assert response.status_code == 400
    root = page(response)
    assert root.find(id=f"{field}-error").text() == message
    assert root.find(id=field).attrs.get("aria-invalid") == "true"
    assert cards(response) == []


def finished_copies(app, client, count: int) -> None:
    match_id = api_finished_match(
        client, "classic", [["Ann", "Bob"], ["Cid", "Dee"]], FIRST_WINS, SHORT
    )
    if count > 1:
        with app.app_context():
            load_bench("scaling").copy_match(match_id, count - 1)


SEARCHES = [
    "/history?player=Ann&partner=Bob&result=won&from=2000-01-01&to=2100-01-01&sort=oldest",
    "/history?player=Cid&result=lost",
    "/history?result=drawn&variant=classic",
]


def test_a_search_runs_as_many_queries_for_2000_matches_as_for_10(app, client):
    client.get("/")
    counter = Counter(app)
    finished_copies(app, client, 10)
    few = [queries(counter, client, path) for path in SEARCHES]
    finished_copies(app, client, 1990)
    assert "2,000 matches with Ann partnered with Bob, won." in text_of(client.get(SEARCHES[0]))
    assert [queries(counter, client, path) for path in SEARCHES] == few
