"""Leagues worked by hand: a `wdl` league with a draw and an abandoned match; best 3 of 4
evenings with a minimum of 2, a substitute credited by the director and one not; the
evening in the server's time zone; the league page, its cards, CSV and viewer links
following new results (304 while nothing changed); the history and statistics by league."""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime

import pytest
from sqlalchemy import update

from scorekeeper import create_app
from scorekeeper.deployment import ConfigurationError
from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.services import match_admin
from scorekeeper.services.storage import transaction
from tests.support import app_config
from tests.web.helpers import csrf_token, text_of
from tests.web.test_statistics import LEAD, OUT_FIRST, new_match, play

TIED = [{"meld_points": 50}, {"meld_points": 50}]
TARGET = {"target": 1000}
JANUARY = {"start": "2026-01-01", "end": "2026-01-31"}


def won(client, first: str, second: str, variant: str = "classic-2p") -> int:
    """A match of two players, won by the first."""
    match_id = new_match(client, variant, [[first], [second]], TARGET)
    assert play(client, match_id, OUT_FIRST)["winner"] == 0
    return match_id


def finished_on(app, match_id: int, moment: datetime) -> None:
    """The match finished at this moment (UTC), as if played then."""
    with app.app_context(), transaction():
        db.session.execute(update(Match).where(Match.id == match_id).values(finished_at=moment))


def league(client, **settings) -> dict:
    answer = client.post("/api/v1/leagues", json={"name": "Winter", **JANUARY, **settings})
    assert answer.status_code == 201, answer.json
    return answer.json


def rows(state: dict) -> list[tuple]:
    return [
        (r["rank"], r["name"], r["points"], r["evenings"], r["per_evening"], r["ranked"])
        for r in state["standings"]
    ]


@pytest.fixture
def plain_matches(app, client):
    """Plain matches of January (the hour is UTC):

    - Jan 5: Ann beats Bob; Ann & Cid draw with Bob & Dee (Hand and Foot);
    - Jan 12: Bob beats Ann; Ann and Bob start another, abandoned;
      Ann & Cid beat Bob & Dee at Classic (not a game of the league);
    - Cid and Dee play on (not finished); Cid beats Dee on Feb 2 (after the end);
    - Dee beats Cid on Dec 31 at 23:30 UTC (Jan 1 in Rome).
    """
    finished_on(app, won(client, "Ann", "Bob"), datetime(2026, 1, 5, 20))
    drawn = new_match(
        client, "hand-and-foot", [["Ann", "Cid"], ["Bob", "Dee"]], {"deals": 1, "tie_rule": "draw"}
    )
    assert play(client, drawn, TIED)["status"] == "drawn"
    finished_on(app, drawn, datetime(2026, 1, 5, 21))
    finished_on(app, won(client, "Bob", "Ann"), datetime(2026, 1, 12, 20))
    abandoned = new_match(client, "classic-2p", [["Ann"], ["Bob"]], TARGET)
    play(client, abandoned, LEAD)
    with app.app_context(), transaction():
        match_admin.abandon_match(abandoned)
    finished_on(app, abandoned, datetime(2026, 1, 12, 21))
    classic = new_match(client, "classic", [["Ann", "Cid"], ["Bob", "Dee"]], TARGET)
    play(client, classic, OUT_FIRST)
    finished_on(app, classic, datetime(2026, 1, 12, 22))
    play(client, new_match(client, "classic-2p", [["Cid"], ["Dee"]], TARGET), LEAD)
    finished_on(app, won(client, "Cid", "Dee"), datetime(2026, 2, 2, 20))
    finished_on(app, won(client, "Dee", "Cid"), datetime(2025, 12, 31, 23, 30))


def test_a_wdl_league_of_plain_matches_with_a_draw_and_an_abandoned_match(client, plain_matches):
    state = league(client, scoring="wdl", variants=["classic-2p", "hand-and-foot"])
    assert state["evenings"] == ["2026-01-05", "2026-01-12"]
    # Ann: won 2 + drawn 1 on the 5th, lost on the 12th; Bob: lost + drawn, then won.
    assert rows(state) == [
        (1, "Ann", 3, 2, [3, 0], True),
        (2, "Bob", 3, 2, [1, 2], True),  # as many points and evenings: by name
        (3, "Cid", 1, 1, [1, None], True),
        (4, "Dee", 1, 1, [1, None], True),
    ]
    assert {k: state[k] for k in ("scoring", "best_of", "min_evenings", "start", "end")} == {
        "scoring": "wdl",
        "best_of": None,
        "min_evenings": 1,
        **JANUARY,
    }
    assert state["variants"] == ["classic-2p", "hand-and-foot"]
    # Every game: the Classic match of the 12th counts too.
    every = league(client, scoring="wdl")
    assert rows(every)[:2] == [(1, "Ann", 5, 2, [3, 2], True), (2, "Bob", 3, 2, [1, 2], True)]


def test_the_evening_is_the_date_in_the_servers_time_zone(app, client, plain_matches):
    app.config["SCOREKEEPER_TIMEZONE"] = "Europe/Rome"
    state = league(client, scoring="wdl", variants=["classic-2p", "hand-and-foot"])
    assert state["evenings"] == ["2026-01-01", "2026-01-05", "2026-01-12"]
    assert rows(state) == [
        (1, "Ann", 3, 2, [None, 3, 0], True),
        (2, "Bob", 3, 2, [None, 1, 2], True),
        (3, "Dee", 3, 2, [2, 1, None], True),
        (4, "Cid", 1, 2, [0, 1, None], True),
    ]


@pytest.fixture
def season(app, client):
    """Four evenings of January, each match won by its first player:

    - Jan 5: Ann-Bob, Cid-Dee;   Jan 12: Ann-Cid, Eve-Dee (Eve sits in for Bob);
    - Jan 19: Bob-Ann, Fay-Cid (Fay sits in for Dee);   Jan 26: Ann-Dee, Bob-Cid.
    """
    days = {5: [("Ann", "Bob"), ("Cid", "Dee")], 12: [("Ann", "Cid"), ("Eve", "Dee")]}
    days |= {19: [("Bob", "Ann"), ("Fay", "Cid")], 26: [("Ann", "Dee"), ("Bob", "Cid")]}
    for day, pairs in days.items():
        for hour, (first, second) in enumerate(pairs, start=20):
            finished_on(app, won(client, first, second), datetime(2026, 1, day, hour))
    return league(client, scoring="wdl", best_of=3, min_evenings=2)


def credit(client, league_id: int, evening: str, substitute: int, replaced: int):
    page = client.get(f"/groups/1/leagues/{league_id}").get_data(as_text=True)
    form = {"csrf_token": csrf_token(page), "evening": evening}
    form |= {"substitute": str(substitute), "replaced": str(replaced)}
    return client.post(f"/groups/1/leagues/{league_id}/credits", data=form)


def test_best_3_of_4_evenings_a_minimum_of_2_and_substitutes(client, season):
    # Without a credit, each substitute earns for themselves.
    assert rows(season) == [
        (1, "Ann", 6, 4, [2, 2, 0, 2], True),  # the 0 of the 19th does not count
        (2, "Bob", 4, 3, [0, None, 2, 2], True),
        (3, "Cid", 2, 4, [2, 0, 0, 0], True),
        (4, "Dee", 0, 3, [0, 0, None, 0], True),
        (None, "Eve", 2, 1, [None, 2, None, None], False),  # one evening of the 2 needed
        (None, "Fay", 2, 1, [None, None, 2, None], False),
    ]
    ids = {r["name"]: r["player"] for r in season["standings"]}
    league_id = season["id"]
    answer = credit(client, league_id, "2026-01-12", ids["Eve"], ids["Bob"])
    assert answer.status_code == 303
    state = client.get(f"/api/v1/leagues/{league_id}").json
    # Eve's evening counts for Bob; Fay's, not credited, stays hers.
    assert rows(state) == [
        (1, "Ann", 6, 4, [2, 2, 0, 2], True),
        (2, "Bob", 6, 4, [0, 2, 2, 2], True),  # best 3: 2 + 2 + 2; the 0 dropped
        (3, "Cid", 2, 4, [2, 0, 0, 0], True),
        (4, "Dee", 0, 3, [0, 0, None, 0], True),
        (None, "Fay", 2, 1, [None, None, 2, None], False),
    ]
    page = client.get(f"/groups/1/leagues/{league_id}")
    text = text_of(page)
    assert "Eve played for Bob on Jan 12, 2026" in text
    assert "(0)" in text  # an evening beyond the best 3
    card = text_of(client.get(f"/groups/1/leagues/{league_id}/players/{ids['Bob']}"))
    assert "Rank 2 of 4" in card
    assert "Eve played for Bob on Jan 12, 2026" in card
    assert "played by Eve" in card
    assert "beyond the best evenings: does not count" in card
    fay = text_of(client.get(f"/groups/1/leagues/{league_id}/players/{ids['Fay']}"))
    assert "Not ranked yet: 1 of the 2 evenings needed" in fay
    # The CSV, as the table: a row per player, a column per evening.
    sheet = client.get(f"/groups/1/leagues/{league_id}/standings.csv")
    assert sheet.headers["Content-Type"].startswith("text/csv")
    assert 'filename="winter.csv"' in sheet.headers["Content-Disposition"]
    table = list(csv.reader(io.StringIO(sheet.get_data(as_text=True))))
    assert table[0] == ["rank", "player", "points", "evenings", "ranked", "2026-01-05",
                        "2026-01-12", "2026-01-19", "2026-01-26"]  # fmt: skip
    assert table[2] == ["2", "Bob", "6", "4", "yes", "0", "2", "2", "2"]
    assert table[5] == ["", "Fay", "2", "1", "no", "", "", "2", ""]
    # Taken back, Eve earns for herself again.
    credit_id = client.get(f"/groups/1/leagues/{league_id}").get_data(as_text=True)
    found = re.search(r"/groups/1/leagues/\d+/credits/\d+/remove", credit_id)
    assert found
    page = client.get(f"/groups/1/leagues/{league_id}").get_data(as_text=True)
    taken = client.post(found.group(0), data={"csrf_token": csrf_token(page)})
    assert taken.status_code == 303
    assert rows(client.get(f"/api/v1/leagues/{league_id}").json) == rows(season)


def test_a_credit_is_checked_and_refused_with_its_reason(client, season):
    ids = {r["name"]: r["player"] for r in season["standings"]}
    league_id = season["id"]
    # Fay did not play on the 12th.
    answer = credit(client, league_id, "2026-01-12", ids["Fay"], ids["Dee"])
    assert answer.status_code == 422
    assert "Choose who played that evening" in answer.get_data(as_text=True)
    answer = credit(client, league_id, "2026-01-13", ids["Eve"], ids["Bob"])
    assert "Choose an evening of the league" in answer.get_data(as_text=True)
    answer = credit(client, league_id, "2026-01-12", ids["Eve"], ids["Eve"])
    assert "Choose someone other than the substitute" in answer.get_data(as_text=True)
    assert credit(client, league_id, "2026-01-12", ids["Eve"], ids["Bob"]).status_code == 303
    answer = credit(client, league_id, "2026-01-12", ids["Eve"], ids["Dee"])
    assert "already credited" in answer.get_data(as_text=True)
    assert rows(client.get(f"/api/v1/leagues/{league_id}").json)[1][1:3] == ("Bob", 6)


def test_a_viewer_link_follows_new_results_and_stops_when_revoked(
    app, client, anonymous_client, season
):
    league_id = season["id"]
    share = client.get(f"/groups/1/leagues/{league_id}/share").get_data(as_text=True)
    made = client.post(
        f"/groups/1/leagues/{league_id}/share", data={"csrf_token": csrf_token(share)}
    )
    assert made.status_code == 303
    share = client.get(f"/groups/1/leagues/{league_id}/share").get_data(as_text=True)
    token = re.search(r"/l/([A-Za-z0-9_-]+)", share).group(1)
    assert "<svg" in share  # its QR code
    page = anonymous_client.get(f"/l/{token}")
    assert page.status_code == 200
    assert "Winter" in text_of(page)
    live = anonymous_client.get(f"/l/{token}/standings")
    etag = live.headers["ETag"]
    assert (
        anonymous_client.get(f"/l/{token}/standings", headers={"If-None-Match": etag}).status_code
        == 304
    )
    # A new result of the period: the next poll has it.
    finished_on(app, won(client, "Gil", "Ann"), datetime(2026, 1, 26, 23))
    newer = anonymous_client.get(f"/l/{token}/standings", headers={"If-None-Match": etag})
    assert newer.status_code == 200
    assert "Gil" in newer.get_data(as_text=True)
    gil = next(
        r["player"]
        for r in client.get(f"/api/v1/leagues/{league_id}").json["standings"]
        if r["name"] == "Gil"
    )
    assert anonymous_client.get(f"/l/{token}/players/{gil}").status_code == 200
    assert anonymous_client.get(f"/l/{token}/standings.csv").status_code == 200
    link_id = re.search(r"/share/(\d+)/revoke", share).group(1)
    revoked = client.post(
        f"/groups/1/leagues/{league_id}/share/{link_id}/revoke",
        data={"csrf_token": csrf_token(share)},
    )
    assert revoked.status_code == 303
    assert anonymous_client.get(f"/l/{token}").status_code == 404
    assert anonymous_client.get(f"/l/{token}/standings").status_code == 404


def test_the_league_page_follows_results_with_a_cheap_poll(app, client, season):
    league_id = season["id"]
    page = client.get(f"/groups/1/leagues/{league_id}").get_data(as_text=True)
    url = f"/groups/1/leagues/{league_id}/standings"
    assert f'data-live="{url}"' in page
    etag = re.search(r'data-etag="([0-9a-f]+)"', page).group(1)
    assert client.get(url, headers={"If-None-Match": f'W/"{etag}"'}).status_code == 304
    # A hand of a match still being played changes nothing the page shows.
    play(client, new_match(client, "classic-2p", [["Ann"], ["Bob"]], TARGET), LEAD)
    assert client.get(url, headers={"If-None-Match": f'W/"{etag}"'}).status_code == 304
    finished_on(app, won(client, "Dee", "Ann"), datetime(2026, 1, 26, 23))
    changed = client.get(url, headers={"If-None-Match": f'W/"{etag}"'})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != f'W/"{etag}"'


def test_new_league_form_keeps_what_was_typed_and_lists_every_problem(client):
    page = client.get("/groups/1/leagues").get_data(as_text=True)
    form = {"csrf_token": csrf_token(page), "name": "Spring", "start": "2026-04-30"}
    form |= {"end": "2026-04-01", "scoring": "wdl", "best_of": "0", "min_evenings": "x"}
    answer = client.post("/groups/1/leagues", data=form)
    assert answer.status_code == 422
    text = text_of(answer)
    assert "The end of the period comes before its start" in text
    assert text.count("Write a whole number of 1 or more") == 2
    assert 'value="Spring"' in answer.get_data(as_text=True)
    form |= {"end": "2026-06-30", "best_of": "", "min_evenings": "2", "variants": "classic"}
    made = client.post("/groups/1/leagues", data=form)
    assert made.status_code == 303
    state = client.get("/api/v1/leagues").json["leagues"][0]
    assert (state["name"], state["variants"], state["best_of"], state["min_evenings"]) == (
        "Spring",
        ["classic"],
        None,
        2,
    )


def test_a_vp_league_is_accepted_and_waits_for_events(client, season):
    state = league(client, scoring="vp", name="Tournaments")
    assert (state["scoring"], state["evenings"], state["standings"]) == ("vp", [], [])
    page = text_of(client.get(f"/groups/1/leagues/{state['id']}"))
    assert "No event has finished in this league's period yet" in page


def test_the_history_and_statistics_by_league(client, plain_matches):
    state = league(client, scoring="wdl", variants=["classic-2p", "hand-and-foot"])
    history = text_of(client.get(f"/history?league={state['id']}"))
    # The league's games in its period: the won, drawn and lost ones, and the abandoned.
    assert history.startswith("Finished matches") or "4 matches" in history
    assert "4 matches" in history
    stats = client.get(f"/api/v1/stats?group=1&league={state['id']}").json
    ann = next(p for p in stats["players"] if p["name"] == "Ann")
    assert (ann["matches"], ann["wins"], ann["draws"], ann["losses"]) == (3, 1, 1, 1)
    everything = client.get("/api/v1/stats?group=1").json
    assert next(p for p in everything["players"] if p["name"] == "Ann")["matches"] == 4
    wrong = client.get("/groups/1/stats?league=999")
    assert wrong.status_code == 400
    assert "Choose one of your groups' leagues" in text_of(wrong)
    assert client.get("/history?league=999").status_code == 400


def test_the_time_zone_comes_from_the_environment_and_must_exist(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'zone.sqlite'}"
    monkeypatch.setenv("SCOREKEEPER_TIMEZONE", "Europe/Rome")
    assert create_app(app_config(url)).config["SCOREKEEPER_TIMEZONE"] == "Europe/Rome"
    monkeypatch.setenv("SCOREKEEPER_TIMEZONE", "Europe/Atlantis")
    with pytest.raises(ConfigurationError, match="SCOREKEEPER_TIMEZONE"):
        create_app(app_config(url))
    monkeypatch.delenv("SCOREKEEPER_TIMEZONE")
    assert create_app(app_config(url)).config["SCOREKEEPER_TIMEZONE"] == "UTC"


def test_the_director_changes_the_settings_and_deletes_the_league(client, season):
    league_id = season["id"]
    url = f"/groups/1/leagues/{league_id}/settings"
    page = client.get(url).get_data(as_text=True)
    assert 'name="best_of" inputmode="numeric" value="3"' in page
    form = {"csrf_token": csrf_token(page), "name": "Winter", "start": "2026-01-01"}
    form |= {"end": "2026-01-31", "scoring": "wdl", "best_of": "", "min_evenings": "1"}
    wrong = client.post(url, data={**form, "end": "2025-12-31"})
    assert wrong.status_code == 422
    assert "The end of the period comes before its start" in text_of(wrong)
    assert client.post(url, data=form).status_code == 303
    state = client.get(f"/api/v1/leagues/{league_id}").json
    assert (state["best_of"], state["min_evenings"]) == (None, 1)
    assert rows(state)[0] == (1, "Ann", 6, 4, [2, 2, 0, 2], True)  # every evening counts
    assert rows(state)[3][:3] == (4, "Eve", 2)  # one evening is enough now
    deleted = client.post(
        f"/groups/1/leagues/{league_id}/delete", data={"csrf_token": csrf_token(page)}
    )
    assert deleted.status_code == 303
    assert client.get(f"/api/v1/leagues/{league_id}").status_code == 404
    assert client.get("/api/v1/stats?group=1").json["players"]  # the matches stay
