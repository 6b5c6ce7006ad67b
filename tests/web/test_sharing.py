"""Share links and the live scoreboard; renaming sides, abandoning and deleting a match;
who made each change."""

from __future__ import annotations

import re

from scorekeeper.extensions import db
from scorekeeper.models import Match
from tests.support import add_user, sign_in

from .helpers import (
    PLAYERS2,
    audit_entries,
    correct_hand,
    create_match,
    csrf_token,
    flashes,
    hand_data,
    page,
    record_ok,
    side_cards,
    text_of,
)

USUAL = ({"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5})
API_USUAL = [{"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5}]


def post(client, url: str, **data):
    token = csrf_token(client.get("/account").text) if "/s/" not in url else ""
    return client.post(url, data={"csrf_token": token, **data})


def share(client, match_id: int, role: str) -> str:
    """Make a link of `role` on the share page; returns its path (/s/...)."""
    assert post(client, f"/matches/{match_id}/share", role=role).status_code == 303
    urls = re.findall(
        r'href="https?://[^/"]+(/s/[\w-]+)"', client.get(f"/matches/{match_id}/share").text
    )
    return urls[-1]


def test_the_share_page_makes_links_with_qr_codes(client):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    assert "No link yet." in text_of(client.get(f"/matches/{match_id}/share"))
    share(client, match_id, "viewer")
    share(client, match_id, "scorer")
    root = page(client.get(f"/matches/{match_id}/share"))
    headings = [h.text() for h in root.find_all("h2")]
    assert any(h.startswith("Viewer link") for h in headings)
    assert any(h.startswith("Scorer link") for h in headings)
    assert len(root.find_all("svg")) == 2


def test_a_viewer_link_follows_the_score_without_an_account_and_changes_nothing(app, client):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    record_ok(client, match_id, "none", *USUAL)
    link = share(client, match_id, "viewer")
    phone = app.test_client()
    assert phone.get(link).headers["Location"] == f"/matches/{match_id}"
    board = phone.get(f"/matches/{match_id}")
    assert board.status_code == 200
    assert [c.total for c in side_cards(board)] == [50, 20]
    assert "Record hand" not in text_of(board)
    assert "Share" not in text_of(board)
    assert phone.get(f"/matches/{match_id}/hands/1").status_code == 200
    assert phone.get(f"/matches/{match_id}/hands/new").status_code == 403
    assert phone.get(f"/matches/{match_id}/share").status_code == 403
    assert phone.get("/").status_code == 302  # no account: nothing else is open to it


def test_a_scorer_link_records_hands_of_its_match_only(app, client):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    other = create_match(client, "classic-2p", ("Cy", "Di"))
    link = share(client, match_id, "scorer")
    phone = app.test_client()
    phone.get(link)
    data = hand_data(phone, match_id, "none", *USUAL)
    assert phone.post(f"/matches/{match_id}/hands/new", data=data).status_code == 303
    assert (
        client.get(f"/api/v1/matches/{match_id}").json["audit"][0]["by"].startswith("scorer link")
    )
    correct_hand(phone, match_id, 1, "none", {"meld_points": 95}, {})
    changes = audit_entries(client.get(f"/matches/{match_id}"))
    assert changes[0].startswith("Hand 1 corrected by scorer link")
    assert phone.get(f"/matches/{other}").headers["Location"].startswith("/login")
    assert phone.get(f"/matches/{match_id}/manage").status_code == 403


def test_a_revoked_link_stops_at_once(app, client):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    link = share(client, match_id, "viewer")
    phone = app.test_client()
    phone.get(link)
    assert phone.get(f"/matches/{match_id}").status_code == 200
    with app.app_context():
        link_id = db.session.execute(db.text("SELECT id FROM share_link")).scalar_one()
    post(client, f"/matches/{match_id}/share/{link_id}/revoke")
    assert phone.get(f"/matches/{match_id}").headers["Location"].startswith("/login")
    assert phone.get(f"/matches/{match_id}/board").status_code == 401  # the script stops
    assert app.test_client().get(link).status_code == 404


def test_each_change_says_who_made_it(app, client):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    record_ok(client, match_id, "none", *USUAL)
    state = client.get(f"/api/v1/matches/{match_id}").json
    assert state["audit"][0]["by"] == "Tess"
    correct_hand(client, match_id, 1, "none", {"meld_points": 95}, {})
    changes = audit_entries(client.get(f"/matches/{match_id}"))
    assert changes[0].startswith("Hand 1 corrected by Tess")


# --- the live scoreboard ------------------------------------------------------------------


def test_the_board_answers_304_until_the_match_changes(client):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    first = client.get(f"/matches/{match_id}/board")
    assert first.status_code == 200
    etag = first.headers["ETag"]
    same = client.get(f"/matches/{match_id}/board", headers={"If-None-Match": etag})
    assert same.status_code == 304
    assert same.get_data() == b""
    record_ok(client, match_id, "none", *USUAL)
    changed = client.get(f"/matches/{match_id}/board", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    assert "+50" in changed.text


def test_the_scoreboard_works_without_javascript_through_a_refresh_link(client):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    board = page(client.get(f"/matches/{match_id}"))
    refresh = board.find("p", class_="refresh").find("a")
    assert refresh.attrs["href"] == f"/matches/{match_id}"
    live = board.find(id="live")
    assert live.attrs["data-live"] == f"/matches/{match_id}/board"


def test_a_viewer_and_the_scorer_get_different_boards(app, client):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    phone = app.test_client()
    phone.get(share(client, match_id, "viewer"))
    mine = client.get(f"/matches/{match_id}/board")
    theirs = phone.get(f"/matches/{match_id}/board")
    assert mine.headers["ETag"] != theirs.headers["ETag"]
    assert "Record hand 1" in mine.text
    assert "Record hand 1" not in theirs.text


# --- sides, abandoning, deleting -------------------------------------------------------------


def test_a_member_renames_a_side(app, client):
    match_id = create_match(client, "classic", ("Ann", "Bob", "Cid", "Dee"))
    post(client, f"/matches/{match_id}/sides/1", name="The Cardsharps")
    assert [c.name for c in side_cards(client.get(f"/matches/{match_id}"))] == [
        "Ann & Cid",
        "The Cardsharps",
    ]
    post(client, f"/matches/{match_id}/sides/1", name="")
    assert side_cards(client.get(f"/matches/{match_id}"))[1].name == "Bob & Dee"


def test_an_abandoned_match_leaves_home_and_stays_in_the_history(client):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    record_ok(client, match_id, "none", *USUAL)
    assert f'href="/matches/{match_id}"' in client.get("/").text
    post(client, f"/matches/{match_id}/abandon")
    assert f'href="/matches/{match_id}"' not in client.get("/").text
    history = text_of(client.get("/history"))
    assert "Abandoned after 1 hand" in history
    board = client.get(f"/matches/{match_id}")
    assert "Abandoned" in text_of(board)
    assert "Record hand" not in text_of(board)
    refused = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": API_USUAL})
    assert refused.status_code == 409
    assert "abandoned" in refused.json["errors"][0]["message"]


def test_deleting_a_match_asks_first_and_is_logged_for_the_group(app, client):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    confirm = client.get(f"/matches/{match_id}/delete")
    assert "cannot be undone" in text_of(confirm)
    done = post(client, f"/matches/{match_id}/delete")
    assert done.status_code == 303
    assert client.get(f"/matches/{match_id}").status_code == 404
    with app.app_context():
        assert db.session.get(Match, match_id) is None
        group_id = db.session.execute(db.text('SELECT id FROM "group"')).scalar_one()
    assert f"Deleted match {match_id}" in text_of(client.get(f"/groups/{group_id}"))


def test_only_the_groups_admins_delete_matches(app, client):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    with app.app_context():
        group_id = db.session.get(Match, match_id).group_id
    add_user(app, "Bea")
    bea = sign_in(app.test_client(), "Bea")
    post(client, f"/groups/{group_id}/invites")
    invite = re.search(r"/invite/([\w-]+)", client.get(f"/groups/{group_id}").text).group(1)
    post(bea, f"/invite/{invite}")
    assert bea.get(f"/matches/{match_id}").status_code == 200
    assert bea.get(f"/matches/{match_id}/delete").status_code == 403
    assert post(bea, f"/matches/{match_id}/delete").status_code == 403
    assert "Delete this match" not in text_of(bea.get(f"/matches/{match_id}/manage"))
    assert flashes(client.get("/")) == []
