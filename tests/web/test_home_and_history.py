"""Home (in progress, new match, recent results) and the history of finished matches."""

from __future__ import annotations

import re

import pytest

from tests.support import filled_fixtures

from .helpers import (
    PLAYERS2,
    api_finished_match,
    create_match,
    page,
    record_ok,
    remove_hand,
    text_of,
)

# Classic for two to 50: one hand of 100 against 50 ends it (both over: higher wins).
SHORT = {"target": 50}
ANN_WINS = [{"meld_points": 100}, {"meld_points": 50}]
SECOND_WINS = [{"meld_points": 50}, {"meld_points": 100}]


def cards(response):
    """Each listed match: (href, title, [(side text, won)], meta text)."""
    out = []
    for link in page(response).find_all("a", class_="match-card"):
        scores = [
            (span.text(), "won" in span.classes)
            for span in link.find("span", class_="match-score").kids("span")
        ]
        out.append(
            (
                link.attrs["href"],
                link.find(class_="match-title").text(),
                scores,
                link.find(class_="match-meta").text(),
            )
        )
    return out


def undated(meta: str) -> str:
    """A match card's meta line with its (clock-dependent) date left out."""
    return re.sub(r"[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M UTC", "<date>", meta)


def section(response, heading_id):
    return page(response).find("section", **{"aria-labelledby": heading_id})


# --- home ---------------------------------------------------------------------------------


def test_empty_home(client):
    response = client.get("/")
    assert response.status_code == 200
    text = text_of(response)
    assert "No match in progress." in text
    assert "No finished match yet." in text
    link = page(response).find("a", class_="primary")
    assert link.text() == "New match"
    assert link.attrs["href"] == "/matches/new"


def test_home_resumes_matches_in_progress(client):
    first = create_match(client, "classic")
    record_ok(client, first, "none", {"meld_points": 150}, {"meld_points": 20})
    second = create_match(client, "burraco", PLAYERS2)
    response = client.get("/")
    playing = section(response, "playing-heading")
    links = playing.find_all("a", class_="match-card")
    # Newest first; one tap goes to the scoreboard.
    assert [a.attrs["href"] for a in links] == [f"/matches/{second}", f"/matches/{first}"]
    # Four matches of the same players are told apart by date, hands and leader.
    assert [(*card[:3], undated(card[3])) for card in cards(response)] == [
        (
            f"/matches/{second}",
            "Burraco",
            [("Ann 0", False), ("Bob 0", False)],
            "Started <date> · 0 hands",
        ),
        (
            f"/matches/{first}",
            "Classic Canasta",
            [("Ann & Cid 150", False), ("Bob & Dee 20", False)],
            "Started <date> · 1 hand · Ann & Cid ahead by 130",
        ),
    ]
    assert "No finished match yet." in section(response, "recent-heading").text()


def test_home_tells_apart_four_matches_of_the_same_players(client):
    hands = [
        [],
        [[{"meld_points": 150}, {"meld_points": 20}]],
        [[{"meld_points": 50}, {"meld_points": 50}], [{"meld_points": 30}, {"meld_points": 30}]],
        [[{"meld_points": 20}, {"meld_points": 90}]] * 3,
    ]
    for played in hands:
        match_id = create_match(client, "classic-2p", PLAYERS2)
        for sides in played:
            record_ok(client, match_id, "none", *sides)
    metas = [undated(card[3]) for card in cards(client.get("/"))]
    # Newest first: each says when it started, how far it is and who leads.
    assert metas == [
        "Started <date> · 3 hands · Bob ahead by 210",
        "Started <date> · 2 hands · Ann and Bob level at 80",
        "Started <date> · 1 hand · Ann ahead by 130",
        "Started <date> · 0 hands",
    ]
    dates = page(client.get("/")).find("section", **{"aria-labelledby": "playing-heading"})
    assert len(dates.find_all("time")) == 4


def test_home_shows_a_tied_match_as_in_progress(client):
    match_id = create_match(client, "classic-2p", PLAYERS2, options={"target": 100})
    record_ok(client, match_id, "none", {"meld_points": 100}, {"meld_points": 100})
    response = client.get("/")
    assert undated(cards(response)[0][3]) == "Started <date> · 1 hand · tied at the top"
    assert "No finished match yet." in text_of(response)


def test_home_recent_results(client):
    ids = [api_finished_match(client, "classic-2p", [["Ann"], ["Bob"]], ANN_WINS, SHORT)]
    ids += [
        api_finished_match(client, "classic-2p", [["Cid"], ["Dee"]], SECOND_WINS, SHORT)
        for _ in range(6)
    ]
    response = client.get("/")
    recent = section(response, "recent-heading")
    links = recent.find_all("a", class_="match-card")
    # The five most recent, newest first.
    assert [a.attrs["href"] for a in links] == [f"/matches/{i}" for i in reversed(ids[-5:])]
    listed = cards(response)
    assert listed[0][2] == [("Cid 50", False), ("Dee 100", True)]
    assert listed[0][3].startswith("Won by Dee · ")
    more = next(a for a in recent.find_all("a") if a.text() == "All finished matches")
    assert more.attrs["href"] == "/history"
    assert "No match in progress." in text_of(response)


# --- history ------------------------------------------------------------------------------


def play_the_finished_matches(app, client):
    """25 finished matches: 12 Ann-Bob (Ann wins), 9 Cid-Ann (Ann wins), 4 Samba."""
    ids = {"ann_bob": [], "cid_ann": [], "samba": []}
    for _ in range(12):
        ids["ann_bob"].append(
            api_finished_match(client, "classic-2p", [["Ann"], ["Bob"]], ANN_WINS, SHORT)
        )
    for _ in range(9):
        ids["cid_ann"].append(
            api_finished_match(client, "classic-2p", [["Cid"], ["Ann"]], SECOND_WINS, SHORT)
        )
    for _ in range(4):
        ids["samba"].append(
            api_finished_match(client, "samba", [["Eve", "Gus"], ["Fay", "Hal"]], ANN_WINS, SHORT)
        )
    return ids


# `finished`: the 25 finished matches (12 Ann-Bob, Ann wins; 9 Cid-Ann, Ann wins; 4 Samba),
# played once per test process (they took more requests than most history tests).
finished_database, app_database, finished = filled_fixtures("finished", play_the_finished_matches)


def test_history_first_page(client, finished):
    response = client.get("/history")
    assert response.status_code == 200
    text = text_of(response)
    assert "25 matches." in text
    listed = cards(response)
    assert len(listed) == 20
    # Newest finished first: the last Samba match.
    newest = finished["samba"][-1]
    assert listed[0] == (
        f"/matches/{newest}",
        "Samba",
        [("Eve & Gus 100", True), ("Fay & Hal 50", False)],
        listed[0][3],
    )
    assert listed[0][3].startswith("Won by Eve & Gus · ")
    when = page(response).find("a", class_="match-card").find("time")
    assert when.attrs["datetime"].endswith("Z")
    links = nav_links(response)
    assert list(links) == ["next"]
    assert links["next"].startswith("/history?after=")


def nav_links(response) -> dict[str, str]:
    """The history's page links by their rel (prev: newer, next: older)."""
    navs = page(response).find_all("nav", class_="pages")
    return {a.attrs["rel"]: a.attrs["href"] for nav in navs for a in nav.find_all("a")}


def test_history_second_page(client, finished):
    response = client.get(nav_links(client.get("/history"))["next"])
    listed = cards(response)
    # 25 - 20 = 5 oldest: the first five Ann-Bob matches, newest first.
    assert [c[0] for c in listed] == [f"/matches/{i}" for i in reversed(finished["ann_bob"][:5])]
    assert listed[0][1] == "Classic Canasta for two"
    assert listed[0][2] == [("Ann 100", True), ("Bob 50", False)]
    assert "25 matches." in text_of(response)
    links = nav_links(response)
    assert list(links) == ["prev"]
    back = client.get(links["prev"])  # newer: the first page again
    assert cards(back) == cards(client.get("/history"))


@pytest.mark.parametrize("sort", ["", "&sort=oldest"])
def test_every_history_page_holds_its_own_slice_walked_either_way(
    client, finished, monkeypatch, sort
):
    """With pages of 3, the 25 matches make 9 pages that together list each match once,
    in order, following the Older links; the Newer links walk back through the same."""
    monkeypatch.setattr("scorekeeper.services.listing.PAGE_SIZE", 3)
    every = [*finished["ann_bob"], *finished["cid_ann"], *finished["samba"]]
    expected = [f"/matches/{i}" for i in (every if sort else reversed(every))]
    url: str | None = f"/history?{sort.lstrip('&')}"
    pages = []
    while url is not None:
        response = client.get(url)
        assert "25 matches." in text_of(response)
        pages.append([c[0] for c in cards(response)])
        url = nav_links(response).get("next")
    assert [len(listed) for listed in pages] == [3] * 8 + [1]
    assert [link for listed in pages for link in listed] == expected
    backwards = []
    url = nav_links(client.get(url_of_last := _last_page(client, sort))).get("prev")
    assert url_of_last
    while url is not None:
        response = client.get(url)
        backwards.append([c[0] for c in cards(response)])
        url = nav_links(response).get("prev")
    assert backwards == pages[-2::-1]


def _last_page(client, sort: str) -> str:
    url = f"/history?{sort.lstrip('&')}"
    while (older := nav_links(client.get(url)).get("next")) is not None:
        url = older
    return url


def test_a_match_leaves_the_history_when_its_last_hand_is_removed(client):
    match_id = api_finished_match(client, "classic-2p", [["Ann"], ["Bob"]], ANN_WINS, SHORT)
    assert [c[0] for c in cards(client.get("/history"))] == [f"/matches/{match_id}"]
    assert remove_hand(client, match_id, 1).status_code in (302, 303)
    response = client.get("/history")
    assert "0 matches." in text_of(response)
    assert cards(response) == []


def test_history_filter_by_player(client, finished):
    response = client.get("/history?player=Ann")
    # 12 + 9 = 21 matches with Ann: two pages, the filter kept in the links.
    assert "21 matches with Ann." in text_of(response)
    assert len(cards(response)) == 20
    links = nav_links(response)
    assert list(links) == ["next"]
    assert links["next"].startswith("/history?player=Ann&after=")
    second = client.get(links["next"])
    assert [c[0] for c in cards(second)] == [f"/matches/{finished['ann_bob'][0]}"]
    # The select shows the chosen player; names match whatever their case.
    root = page(client.get("/history?player=ann"))
    assert "21 matches with ann." in root.find("main").text()
    chosen = [
        o.text()
        for o in root.find("select", name="player").find_all("option")
        if "selected" in o.attrs
    ]
    assert chosen == ["Ann"]
    response = client.get("/history?player=Eve")
    assert "4 matches with Eve." in text_of(response)
    assert {c[1] for c in cards(response)} == {"Samba"}


def test_history_filter_by_variant(client, finished):
    response = client.get("/history?variant=samba")
    assert "4 matches." in text_of(response)
    assert [c[0] for c in cards(response)] == [f"/matches/{i}" for i in reversed(finished["samba"])]
    root = page(response)
    chosen = [
        o.attrs["value"]
        for o in root.find("select", name="variant").find_all("option")
        if "selected" in o.attrs
    ]
    assert chosen == ["samba"]
    assert not root.find_all("nav", class_="pages")


def test_history_filter_by_player_and_variant(client, finished):
    response = client.get("/history?player=Cid&variant=classic-2p")
    assert "9 matches with Cid." in text_of(response)
    listed = cards(response)
    assert all(c[2] == [("Cid 50", False), ("Ann 100", True)] for c in listed)
    assert all(c[3].startswith("Won by Ann · ") for c in listed)
    assert "0 matches with Cid." in text_of(client.get("/history?player=Cid&variant=samba"))


def test_history_filter_form(client, finished):
    root = page(client.get("/history"))
    form = root.find("form", class_="filters")
    assert form.attrs["method"] == "get"
    assert form.attrs["action"] == "/history"
    players = [o.text() for o in form.find("select", name="player").find_all("option")]
    assert players == ["Everyone", "Ann", "Bob", "Cid", "Eve", "Fay", "Gus", "Hal"]
    variants = [o.attrs["value"] for o in form.find("select", name="variant").find_all("option")]
    assert variants[0] == ""
    assert "brazilian" in variants


@pytest.mark.parametrize(
    "query",
    [
        "variant=poker",
        "after=abc",
        "after=0",
        "after=-1",
        "before=1.5",
        "after=2026-01-01T00:00:00_99999999999999999999",
        "player=",
        "variant=&player=&after=",
        "after=9999-12-31T23:59:59_1",
    ],
)
def test_history_bad_parameters_fall_back(client, finished, query):
    response = client.get(f"/history?{query}")
    assert response.status_code == 200
    assert "25 matches." in text_of(response)
    assert cards(response) == cards(client.get("/history"))


def test_history_unknown_player_is_empty(client, finished):
    response = client.get("/history?player=Zed")
    assert response.status_code == 200
    assert "0 matches with Zed." in text_of(response)
    assert cards(response) == []


def test_a_link_past_the_end_shows_the_first_page(client, finished):
    """A page link from before (its matches since removed) never shows an empty page."""
    response = client.get("/history?after=2000-01-01T00:00:00_1")
    assert response.status_code == 200
    assert cards(response) == cards(client.get("/history"))


def test_history_leaves_out_matches_in_progress(client):
    create_match(client, "classic", ["Ann", "Bob", "Cid", "Dee"])
    tied = create_match(client, "classic-2p", ["Eve", "Fay"], options={"target": 100})
    record_ok(client, tied, "none", {"meld_points": 100}, {"meld_points": 100})
    response = client.get("/history")
    assert "0 matches." in text_of(response)
    assert cards(response) == []


def test_empty_history(client):
    response = client.get("/history")
    assert response.status_code == 200
    assert "0 matches." in text_of(response)
    assert not page(response).find_all("nav", class_="pages")
