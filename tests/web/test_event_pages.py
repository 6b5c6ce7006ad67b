"""The event pages as a director and the players use them: making an event through its
form, the entries until round 1, the director's page (rounds, penalties, withdrawals,
late corrections), table cards, standings and their live part, the projector view, entry
cards, the CSV, viewer links, and table matches marked wherever matches are listed."""

from __future__ import annotations

import csv
import io

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Player
from scorekeeper.services import accounts, groups
from scorekeeper.services.storage import transaction
from tests.api.events import create, hand, ids, pairs, play, read, start
from tests.support import TESTER

from .helpers import flashes, form_values, input_value, page, text_of, top_errors
from .test_accessibility import check_page

GROUP = 1  # TESTER's personal group in the template database


def new_event_form(client, key: str = "classic", **query) -> dict[str, str]:
    response = client.get(f"/groups/{GROUP}/events/new/{key}", query_string=query)
    assert response.status_code == 200
    return form_values(page(response))


def post_new(client, data: dict, key: str = "classic", **query):
    return client.post(f"/groups/{GROUP}/events/new/{key}", data=data, query_string=query)


def local_path(url: str) -> str:
    """A link's path on this server (links name the LAN or public address)."""
    return "/" + url.split("://", 1)[1].split("/", 1)[1]


def error_at(response, name: str) -> str:
    """The error shown at an input (its aria-describedby), or at its field wrapper."""
    root = page(response)
    node = root.find(name=name)
    assert node.attrs.get("aria-invalid") == "true", name
    described = node.attrs["aria-describedby"].split()[-1]
    return root.find(id=described).text()


def test_a_director_makes_an_event_with_the_form(client):
    play_known = client.post(
        "/api/v1/matches",
        json={
            "variant": "classic",
            "sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}],
        },
    )
    assert play_known.status_code == 201
    response = client.get(f"/groups/{GROUP}/events/new/classic")
    root = page(response)
    assert [o.attrs["value"] for o in root.find("datalist", id="pl").find_all("option")] == [
        "Ann", "Bob", "Cy", "Di"
    ]  # fmt: skip
    assert root.find_all(name="opt_target") == []  # the event ends its games itself
    assert root.find_all(name="opt_going_out")
    data = form_values(root)
    data.update(name="Friday cup", rounds="2", deals_per_round="2", opt_going_out="200")
    for row, players in enumerate([("Ann", "Bob"), ("Cy", "Di"), ("Eve", "Flo"), ("Gus", "Hal")]):
        data[f"p{row}_0"], data[f"p{row}_1"] = players
    response = post_new(client, data)
    assert response.status_code == 303
    event_id = int(response.location.rsplit("/", 1)[1])
    state = read(client, event_id)
    assert [e["players"] for e in state["entries"]] == [
        ["Ann", "Bob"], ["Cy", "Di"], ["Eve", "Flo"], ["Gus", "Hal"]
    ]  # fmt: skip
    assert state["entries"][2]["name"] is None
    assert root.find_all(name="n0") == []  # entries are named on their own page
    assert (state["rounds"], state["deals_per_round"], state["movement"]) == (2, 2, "danish")
    assert state["options"] == {"going_out": 200}
    page_of_event = client.get(response.location)
    assert "start round 1" in flashes(page_of_event)[0]
    check_page(page_of_event)


def test_problems_are_shown_at_their_inputs_with_the_entries_kept(client):
    data = new_event_form(client)
    data.update(name="Cup", rounds="9", movement="mitchell")
    data.update(p0_0="Ann", p0_1="Bob", p1_0="Cy", p1_1="ann", p2_0="Eve", p3_1="Late")
    response = post_new(client, data)
    assert response.status_code == 422
    assert error_at(response, "p1_1") == "ann is already in entry 1: a player plays in one entry."
    assert error_at(response, "p2_1") == "Enter a name for each player."
    assert error_at(response, "p3_0") == "Enter a name for each player."
    assert input_value(response, "p2_0") == "Eve"
    assert input_value(response, "p3_1") == "Late"
    check_page(response)
    data.update(p1_1="Dan", p2_1="Fay", p3_1="", rounds="9")
    response = post_new(client, data)
    assert response.status_code == 422
    assert "from 1 to 2" in page(response).find(id="rounds-error").text()


def test_more_rows_keep_what_was_typed(client):
    data = new_event_form(client)
    assert data["rows"] == "8"
    data.update(name="Big night", p7_0="Last")
    response = post_new(client, {**data, "more": "1"})
    assert response.status_code == 200
    assert input_value(response, "p7_0") == "Last"
    assert input_value(response, "p15_1") == ""
    assert input_value(response, "rows") == "16"
    assert top_errors(response) == []


def test_a_club_table_of_its_own_from_the_form(client):
    data = new_event_form(client)
    data.update(
        name="Cup", rounds="1", vp_table="custom", vp_rows="100 5 5\n400 7 3", vp_over="10 0"
    )
    data.update(p0_0="A", p0_1="B", p1_0="C", p1_1="D")
    response = post_new(client, data)
    assert response.status_code == 303, top_errors(response)
    event_id = int(response.location.rsplit("/", 1)[1])
    state = read(client, event_id)
    assert state["vp_table"] == {"rows": [[100, 5, 5], [400, 7, 3]], "over": [10, 0]}
    assert state["bye_vp"] == 5
    data.update(vp_rows="100 5 5\n50 6 4", vp_over="10 0")
    response = post_new(client, data)
    assert response.status_code == 422
    assert "Row 2" in page(response).find(id="vp_rows-error").text()


def test_single_player_entries_for_a_game_of_both(client):
    root = page(client.get(f"/groups/{GROUP}/events/new/burraco"))
    assert [a.text() for a in root.find("nav", class_="segmented").find_all("a")] == [
        "Entries of 1 player", "Entries of 2 players"
    ]  # fmt: skip
    data = new_event_form(client, "burraco", players=1)
    assert "p0_1" not in data
    data.update(name="Solo", rounds="1", p0_0="A", p1_0="B")
    response = post_new(client, data, "burraco", players=1)
    assert response.status_code == 303
    assert client.get(f"/groups/{GROUP}/events/new/classic-3p").status_code == 404


def test_entries_change_until_round_1(client):
    state = create(client, rounds=1)
    root = page(client.get(f"/events/{state['id']}/entries"))
    assert input_value(root, "p3_1") == "P4b"
    data = form_values(root)
    data.update(n0="Aces", p4_0="New", p4_1="Pair")
    response = client.post(f"/events/{state['id']}/entries", data=data)
    assert response.status_code == 303
    changed = read(client, state["id"])
    assert [e["number"] for e in changed["entries"]] == [1, 2, 3, 4, 5]
    assert changed["entries"][0]["name"] == "Aces"
    assert changed["entries"][0]["id"] == state["entries"][0]["id"]
    start(client, state["id"])
    response = client.get(f"/events/{state['id']}/entries")
    assert response.status_code == 303
    assert any("can no longer change" in said for said in flashes(client.get(response.location)))


def _director(client, event_id: int):
    response = client.get(f"/events/{event_id}")
    assert response.status_code == 200
    return response


def test_the_director_starts_rounds_only_when_every_table_is_finished(client):
    state = create(client, rounds=2, deals_per_round=1)
    event = state["id"]
    root = page(_director(client, event))
    data = form_values(root, 0)
    assert data["round"] == "1"
    assert client.post(f"/events/{event}/rounds", data=data).status_code == 303
    again = client.post(f"/events/{event}/rounds", data=data, follow_redirects=True)
    assert "Round 1 was started already." in flashes(again)
    response = _director(client, event)
    text = text_of(response)
    assert "2 tables are still playing" in text
    assert "Start round 2" not in text
    assert page(response).find_all("form", action=f"/events/{event}/rounds") == []
    state = read(client, event)
    play(client, state, 1, 1, 2, (300, 100))
    play(client, state, 1, 3, 4, (200, 200))
    response = _director(client, event)
    assert "Start round 2" in text_of(response)
    check_page(response)


def test_a_penalty_form_keeps_what_was_typed_when_refused(client):
    state = start(client, create(client, rounds=1)["id"])
    event = state["id"]
    root = page(_director(client, event))
    form = next(f for f in root.find_all("form") if f.attrs.get("action", "").endswith("penalties"))
    token = form.find(name="csrf_token").attrs["value"]
    entry = str(ids(state)[3])
    response = client.post(
        f"/events/{event}/penalties", data={"csrf_token": token, "entry": entry, "vp": "x"}
    )
    assert response.status_code == 422
    assert page(response).find(id="pen-vp-e").text().startswith("Take off a whole number")
    assert page(response).find(id="pen-reason-e").text().startswith("Give the reason")
    assert input_value(response, "entry") == entry
    sent = {"csrf_token": token, "entry": entry, "vp": "2", "reason": "Slow play"}
    response = client.post(f"/events/{event}/penalties", data=sent, follow_redirects=True)
    assert "taken off" in flashes(response)[0]
    assert "2 VP off entry 3: Slow play" in text_of(response)
    assert read(client, event)["penalties"] == [
        {"entry": int(entry), "vp": 2, "reason": "Slow play"}
    ]


def test_withdrawing_from_the_directors_page(client):
    state = start(client, create(client, rounds=2, deals_per_round=1)["id"])
    root = page(_director(client, state["id"]))
    form = next(f for f in root.find_all("form") if f.attrs.get("action", "").endswith("withdraw"))
    data = {"csrf_token": form.find(name="csrf_token").attrs["value"], "entry": str(ids(state)[2])}
    response = client.post(f"/events/{state['id']}/withdraw", data=data, follow_redirects=True)
    assert "Entry 2 is withdrawn" in flashes(response)[0]
    assert read(client, state["id"])["entries"][1]["withdrawn"] is True


def test_a_late_correction_is_noted_on_the_directors_page(client):
    state = start(client, create(client, rounds=2, deals_per_round=1)["id"])
    late = play(client, state, 1, 1, 2, (300, 100))
    play(client, state, 1, 3, 4, (200, 200))
    assert "Corrected after" not in text_of(_director(client, state["id"]))
    start(client, state["id"])
    version = client.get(f"/api/v1/matches/{late}").get_json()["hands"][0]["version"]
    body = {**hand(100, 300), "version": version}
    assert client.put(f"/api/v1/matches/{late}/hands/1", json=body).status_code == 200
    text = text_of(_director(client, state["id"]))
    assert "Corrected after the next round was paired" in text
    assert "Round 1, table 1: hand 1 was changed" in text


def test_the_directors_page_follows_the_tables_live(client):
    state = start(client, create(client, rounds=1, deals_per_round=2)["id"])
    live = client.get(f"/events/{state['id']}/tables")
    tag = live.headers["ETag"]
    assert (
        client.get(f"/events/{state['id']}/tables", headers={"If-None-Match": tag}).status_code
        == 304
    )
    play(client, state, 1, 3, 4, (150, 100))
    changed = client.get(f"/events/{state['id']}/tables", headers={"If-None-Match": tag})
    assert changed.status_code == 200
    rows = page(changed).find("tbody").find_all("tr")
    assert "1/2" in rows[1].text()
    assert [a.attrs["href"] for a in rows[1].find_all("a", class_="hand")] == [
        f"/matches/{state['rounds_played'][0]['tables'][1]['match']}/hands/1"
    ]


def test_table_cards_with_the_scorer_links_qr_codes(client):
    state = start(client, create(client, entries=pairs(5), rounds=1)["id"])
    response = client.get(f"/events/{state['id']}/rounds/1/cards")
    root = page(response)
    cards = root.find_all("section", class_="table-card")
    assert [c.find("h2").text() for c in cards] == ["Table 1 round 1", "Table 2 round 1"]
    assert "Bye: 5. P5a & P5b" in text_of(response)
    image = cards[0].find("img").attrs["src"]
    code = client.get(image)
    assert code.status_code == 200
    assert code.mimetype == "image/svg+xml"
    assert code.data.startswith(b"<svg")
    link = cards[0].find("figcaption").text()
    scorer = client.application.test_client()
    opened = scorer.get(local_path(link))
    assert opened.location == f"/matches/{state['rounds_played'][0]['tables'][0]['match']}"
    one = client.get(f"/events/{state['id']}/rounds/1/tables/2")
    assert [a.text() for a in page(one).find("nav", class_="pages").find_all("a")] == ["Table 1"]
    assert page(one).find("figure", class_="qr").find("svg")
    assert client.get(f"/events/{state['id']}/rounds/1/tables/3").status_code == 404
    assert client.get(f"/events/{state['id']}/rounds/2/cards").status_code == 404
    check_page(response)


def test_the_live_standings_are_rendered_once_a_state_and_follow_every_change(client, app):
    """Every phone following the standings gets the part made once for the event's state
    (and language); a result, a penalty or a renamed player makes a new one."""
    state = start(client, create(client, rounds=2, deals_per_round=1)["id"])
    event, url = state["id"], f"/events/{state['id']}/standings/live"
    first = client.get(url)
    assert client.get(url).get_data() == first.get_data()
    kept = app.extensions["scorekeeper.event_parts"]
    assert len(kept) == 1
    play(client, state, 1, 1, 2, (500, 200))
    after = client.get(url)
    assert after.headers["ETag"] != first.headers["ETag"]
    assert "+300" in page(after).text()
    assert len(kept) == 2
    penalty = {"entry": ids(state)[1], "vp": 2, "reason": "Late"}
    assert client.post(f"/api/v1/events/{event}/penalties", json=penalty).status_code == 201
    rows = page(client.get(url)).find("tbody").find_all("tr")
    assert [td.text() for td in rows[0].find_all("td")][:2] == ["1", "11"]  # 13 less 2
    with app.app_context(), transaction():
        player = db.session.execute(db.select(Player).where(Player.name == "P1a")).scalar_one()
        groups.rename_player(GROUP, player, "Zed", accounts.find_user(TESTER))
    assert "Zed" in page(client.get(url)).text()


def test_standings_live_and_as_csv_and_each_entrys_card(client):
    state = start(client, create(client, entries=pairs(5), rounds=2, deals_per_round=1)["id"])
    event = state["id"]
    play(client, state, 1, 1, 2, (500, 200))
    response = client.get(f"/events/{event}/standings")
    check_page(response)
    rows = page(response).find("tbody").find_all("tr")
    assert [r.find("th").text() for r in rows][:3] == [
        "1. P1a & P1b",
        "5. P5a & P5b",
        "2. P2a & P2b",
    ]
    assert [td.text() for td in rows[0].find_all("td")] == ["1", "13", "+300", "500", "1"]
    assert "1 table still playing" in text_of(response)
    tag = client.get(f"/events/{event}/standings/live").headers["ETag"]
    poll = client.get(f"/events/{event}/standings/live", headers={"If-None-Match": tag})
    assert poll.status_code == 304
    play(client, state, 1, 3, 4, (100, 100))
    poll = client.get(f"/events/{event}/standings/live", headers={"If-None-Match": tag})
    assert poll.status_code == 200
    assert "Round 1 of 2" in page(poll).text()
    table = list(
        csv.reader(io.StringIO(client.get(f"/events/{event}/standings.csv").get_data(as_text=True)))
    )
    assert table[0] == [
        "rank",
        "entry",
        "name",
        "players",
        "vp",
        "mp_diff",
        "mp",
        "played",
        "withdrawn",
    ]
    assert table[1] == ["1", "1", "P1a & P1b", "P1a & P1b", "13", "300", "500", "1", "no"]
    card = client.get(f"/events/{event}/entries/2")
    check_page(card)
    lines = page(card).find("tbody").find_all("tr")
    assert [line.text() for line in lines] == ["1 1. P1a & P1b 200 500 -300 7"]
    bye = page(client.get(f"/events/{event}/entries/5")).find("tbody").text()
    assert bye == "1 bye 12"
    assert client.get(f"/events/{event}/entries/6").status_code == 404


def test_the_projector_view_puts_40_entries_in_two_columns(client):
    state = start(client, create(client, entries=pairs(40), rounds=1, deals_per_round=1)["id"])
    play(client, state, 1, 1, 2, (300, 100))
    response = client.get(f"/events/{state['id']}/projector")
    root = page(response)
    board = root.find("ol", class_="proj")
    assert "cols-2" in board.classes
    assert len(board.find_all("li")) == 40
    assert root.find(class_="proj-tables").text().startswith("Still playing: tables 2, 3, 4")
    check_page(response)
    live = client.get(f"/events/{state['id']}/projector/live")
    assert live.status_code == 200
    assert (
        client.get(
            f"/events/{state['id']}/projector/live", headers={"If-None-Match": live.headers["ETag"]}
        ).status_code
        == 304
    )


def test_a_viewer_link_opens_the_standings_only_until_revoked(app, client):
    state = start(client, create(client, rounds=1)["id"])
    event = state["id"]
    share = client.get(f"/events/{event}/share")
    check_page(share)
    data = form_values(page(share))
    response = client.post(f"/events/{event}/share", data=data, follow_redirects=True)
    link = page(response).find("section", class_="share-link").find("figcaption").text()
    path = local_path(link)
    assert "Players follow the standings" in text_of(client.get(f"/events/{event}/standings"))
    phone = app.test_client()
    assert phone.get(path).status_code == 302
    assert phone.get(f"/events/{event}/standings").status_code == 200
    assert phone.get(f"/events/{event}/projector").status_code == 200
    assert phone.get(f"/events/{event}").status_code == 403
    assert phone.get(f"/events/{event}/share").status_code == 403
    match = state["rounds_played"][0]["tables"][0]["match"]
    assert phone.get(f"/matches/{match}").status_code == 302  # to the sign-in page
    root = page(client.get(f"/events/{event}/share"))
    form = next(f for f in root.find_all("form") if "revoke" in f.attrs.get("action", ""))
    token = form.find(name="csrf_token").attrs["value"]
    assert client.post(form.attrs["action"], data={"csrf_token": token}).status_code == 303
    assert phone.get(f"/events/{event}/standings/live").status_code == 401
    assert phone.get(path).status_code == 404


def test_table_matches_are_marked_in_history_player_page_and_scoreboard(client):
    state = start(client, create(client, rounds=1, deals_per_round=1)["id"])
    match = play(client, state, 1, 3, 4, (250, 100))
    history = text_of(client.get("/history"))
    assert "Friday cup, round 1, table 2" in history
    board = client.get(f"/matches/{match}")
    assert page(board).find("p", class_="crumbs").text() == "Friday cup, round 1, table 2"
    player = next(
        p for p in client.get("/api/v1/stats").get_json()["players"] if p["name"] == "P3a"
    )
    assert player["matches"] == 1
    with client.application.app_context():
        player_id = db.session.execute(
            db.select(Player.id).where(Player.name == "P3a")
        ).scalar_one()
    assert (
        "Friday cup, round 1, table 2"
        in page(client.get(f"/groups/{GROUP}/players/{player_id}"))
        .find("table", class_="visually-hidden")
        .text()
    )


def test_the_history_and_statistics_by_event(client):
    first = start(client, create(client, rounds=1, deals_per_round=1)["id"])
    play(client, first, 1, 1, 2, (300, 100))
    play(client, first, 1, 3, 4, (100, 100))
    other = start(client, create(client, name="Other cup", rounds=1, deals_per_round=1)["id"])
    play(client, other, 1, 1, 2, (100, 300))
    history = text_of(client.get(f"/history?event={first['id']}"))
    assert "Friday cup, round 1, table 1" in history
    assert "Friday cup, round 1, table 2" in history
    assert "2 matches." in history
    assert "Other cup, round 1" not in history
    assert "Other cup, round 1" in text_of(client.get("/history"))
    stats = client.get(f"/api/v1/stats?group={GROUP}&event={first['id']}").get_json()
    p1 = next(p for p in stats["players"] if p["name"] == "P1a")
    assert (p1["matches"], p1["wins"], p1["losses"]) == (1, 1, 0)
    p3 = next(p for p in stats["players"] if p["name"] == "P3a")
    assert (p3["matches"], p3["draws"]) == (1, 1)
    both = client.get(f"/api/v1/stats?group={GROUP}").get_json()
    assert next(p for p in both["players"] if p["name"] == "P1a")["matches"] == 2
    choices = page(client.get(f"/groups/{GROUP}/stats")).find("select", id="event")
    assert [o.text() for o in choices.find_all("option")] == [
        "Any match",
        "Other cup",
        "Friday cup",
    ]
    wrong = client.get(f"/groups/{GROUP}/stats?event=999")
    assert wrong.status_code == 400
    assert "Choose one of your groups' events" in text_of(wrong)
    assert client.get("/history?event=999").status_code == 400


def test_a_table_match_is_neither_abandoned_nor_deleted(client):
    state = start(client, create(client, rounds=1)["id"])
    match = state["rounds_played"][0]["tables"][0]["match"]
    manage = page(client.get(f"/matches/{match}/manage"))
    token = manage.find(name="csrf_token").attrs["value"]
    response = client.post(
        f"/matches/{match}/abandon", data={"csrf_token": token}, follow_redirects=True
    )
    assert any("table 1 of round 1" in message for message in flashes(response))
    delete = page(client.get(f"/matches/{match}/delete"))
    response = client.post(
        f"/matches/{match}/delete", data=form_values(delete), follow_redirects=True
    )
    assert client.get(f"/api/v1/matches/{match}").status_code == 200
    assert read(client, state["id"])["rounds_played"][0]["tables"][0]["status"] == "playing"


@pytest.mark.parametrize(
    "path",
    ["/groups/{group}/events", "/groups/{group}/events/new", "/events/{event}/entries"],
)
def test_the_other_event_pages_read_well(client, path):
    state = create(client, rounds=1)
    response = client.get(path.format(group=GROUP, event=state["id"]))
    check_page(response)
    assert "Friday cup" in text_of(client.get(f"/groups/{GROUP}/events"))
    group_page = page(client.get(f"/groups/{GROUP}"))
    assert group_page.find("a", href=f"/groups/{GROUP}/events").text() == "Events"
