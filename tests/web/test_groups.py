"""Groups: who sees which matches, invites, members and roles, players and their names."""

from __future__ import annotations

import re

from scorekeeper.extensions import db
from scorekeeper.models import Player
from scorekeeper.services import accounts
from tests.support import add_user, sign_in

from .helpers import (
    PLAYERS2,
    create_match,
    csrf_token,
    flashes,
    page,
    record_ok,
    side_cards,
    text_of,
)

WIN = ({"canasta_natural": 2, "meld_points": 100}, {"meld_points": 40, "hand_points": 30})


def post(client, url: str, **data):
    """A small action form of a page, as a browser posts it."""
    token = csrf_token(client.get("/account").text)
    return client.post(url, data={"csrf_token": token, **data})


def new_group(client, name: str) -> int:
    response = post(client, "/groups", name=name)
    assert response.status_code == 303, response.text
    return int(response.headers["Location"].rsplit("/", 1)[1])


def invite_link(client, group_id: int) -> str:
    post(client, f"/groups/{group_id}/invites")
    return re.search(
        r'href="https?://[^/"]+(/invite/[\w-]+)"', client.get(f"/groups/{group_id}").text
    ).group(1)


def joined(app, name: str, client, group_id: int):
    """`name` opens an account and joins `group_id` through an invite link of `client`."""
    add_user(app, name)
    other = sign_in(app.test_client(), name)
    link = invite_link(client, group_id)
    assert "Join" in text_of(other.get(link))
    response = post(other, link)
    assert response.status_code == 303
    return other


def group_match(client, group_id: int, players=PLAYERS2) -> int:
    body = {
        "variant": "classic-2p",
        "options": {"target": 1000},  # WIN ends it
        "group": group_id,
        "sides": [{"players": [players[0]]}, {"players": [players[1]]}],
    }
    return client.post("/api/v1/matches", json=body).json["id"]


def test_a_new_user_has_a_personal_group_and_sees_only_their_groups_matches(app, client):
    mine = create_match(client, "classic-2p", PLAYERS2)
    add_user(app, "Bea")
    bea = sign_in(app.test_client(), "Bea")
    assert "Bea's games" in text_of(bea.get("/groups"))
    assert f'href="/matches/{mine}"' not in bea.get("/").text
    assert bea.get(f"/matches/{mine}").status_code == 404
    theirs = create_match(bea, "classic-2p", ("Cy", "Di"))
    assert f'href="/matches/{theirs}"' in bea.get("/").text
    assert f'href="/matches/{theirs}"' not in client.get("/").text


def test_an_invite_link_with_its_qr_code_brings_a_member_in(app, client):
    group_id = new_group(client, "Thursday table")
    match_id = group_match(client, group_id)
    detail = client.get(f"/groups/{group_id}")
    assert "<svg" not in detail.text  # no invite yet
    link = invite_link(client, group_id)
    detail = page(client.get(f"/groups/{group_id}"))
    assert detail.find("figure", class_="qr").find("svg")  # its QR code, drawn here
    bea = joined(app, "Bea", client, group_id)
    assert "Thursday table" in text_of(bea.get("/groups"))
    assert bea.get(f"/matches/{match_id}").status_code == 200
    # Joining twice changes nothing.
    again = post(bea, link)
    assert "already in Thursday table" in " ".join(flashes(bea.get(again.headers["Location"])))


def test_a_revoked_invite_link_stops_at_once(app, client):
    group_id = new_group(client, "Thursday table")
    link = invite_link(client, group_id)
    with app.app_context():
        invite_id = db.session.execute(db.text("SELECT id FROM invite")).scalar_one()
    post(client, f"/groups/{group_id}/invites/{invite_id}/revoke")
    response = app.test_client().get(link)
    assert response.status_code == 404
    assert "does not work" in text_of(response)
    add_user(app, "Bea")
    assert post(sign_in(app.test_client(), "Bea"), link).status_code == 404


def test_only_group_admins_rename_the_group_and_remove_members(app, client):
    group_id = new_group(client, "Thursday table")
    bea = joined(app, "Bea", client, group_id)
    assert post(bea, f"/groups/{group_id}/rename", name="Mine now").status_code == 403
    with app.app_context():
        tess = accounts.find_user("Tess").id
        bea_id = accounts.find_user("Bea").id
    assert post(bea, f"/groups/{group_id}/members/{tess}/remove").status_code == 403
    assert post(client, f"/groups/{group_id}/rename", name="Friday table").status_code == 303
    assert "Friday table" in text_of(client.get(f"/groups/{group_id}"))
    assert post(client, f"/groups/{group_id}/members/{bea_id}/remove").status_code == 303
    assert bea.get(f"/groups/{group_id}").status_code == 404
    activity = text_of(client.get(f"/groups/{group_id}"))
    assert "Renamed from Thursday table to Friday table" in activity
    assert "Bea left the group" in activity


def test_a_member_may_leave_but_the_only_admin_may_not(app, client):
    group_id = new_group(client, "Thursday table")
    bea = joined(app, "Bea", client, group_id)
    with app.app_context():
        tess = accounts.find_user("Tess").id
        bea_id = accounts.find_user("Bea").id
    refused = post(client, f"/groups/{group_id}/members/{tess}/remove")
    assert "only admin cannot leave" in " ".join(flashes(client.get(refused.headers["Location"])))
    post(client, f"/groups/{group_id}/members/{bea_id}/role", role="admin")
    assert "Bea (admin)" in text_of(client.get(f"/groups/{group_id}"))
    assert post(bea, f"/groups/{group_id}/members/{bea_id}/remove").status_code == 303
    assert bea.get(f"/groups/{group_id}").status_code == 404


def test_the_same_name_in_two_groups_is_two_players(app, client):
    one = new_group(client, "One")
    two = new_group(client, "Two")
    group_match(client, one, ("Ann", "Bob"))
    group_match(client, two, ("ann", "Bob"))
    with app.app_context():
        rows = db.session.execute(db.select(Player.group_id, Player.name)).all()
    assert sorted(rows) == sorted([(one, "Ann"), (one, "Bob"), (two, "ann"), (two, "Bob")])


def test_renaming_a_player_renames_them_in_every_match_and_the_history(app, client):
    group_id = new_group(client, "Club")
    first = group_match(client, group_id)
    record_ok(client, first, 0, *WIN)
    with app.app_context():
        ann = db.session.execute(db.select(Player.id).where(Player.name == "Ann")).scalar_one()
    post(client, f"/groups/{group_id}/players/{ann}/rename", name="Annie")
    assert [c.name for c in side_cards(client.get(f"/matches/{first}"))] == ["Annie", "Bob"]
    assert "1 match with Annie" in text_of(client.get("/history?player=Annie"))
    assert "0 matches with Ann." in text_of(client.get("/history?player=Ann"))


def test_merging_two_names_of_one_person_keeps_their_history(app, client):
    group_id = new_group(client, "Club")
    first = group_match(client, group_id, ("Ann", "Bob"))
    second = group_match(client, group_id, ("Annie", "Cy"))
    for match_id in (first, second):
        record_ok(client, match_id, 0, *WIN)
    with app.app_context():
        ids = dict(db.session.execute(db.select(Player.name, Player.id)).all())
    post(client, f"/groups/{group_id}/players/merge", gone=ids["Annie"], kept=ids["Ann"])
    assert "2 matches with Ann" in text_of(client.get("/history?player=Ann"))
    assert [c.name for c in side_cards(client.get(f"/matches/{second}"))] == ["Ann", "Cy"]
    assert "Annie merged into Ann" in text_of(client.get(f"/groups/{group_id}"))


def test_two_players_of_one_match_cannot_be_merged(app, client):
    group_id = new_group(client, "Club")
    group_match(client, group_id, ("Ann", "Bob"))
    with app.app_context():
        ids = dict(db.session.execute(db.select(Player.name, Player.id)).all())
    response = post(client, f"/groups/{group_id}/players/merge", gone=ids["Bob"], kept=ids["Ann"])
    assert "two people" in " ".join(flashes(client.get(response.headers["Location"])))
    with app.app_context():
        assert db.session.execute(db.select(db.func.count()).select_from(Player)).scalar() == 2


def test_a_player_can_be_linked_to_a_members_account(app, client):
    group_id = new_group(client, "Club")
    group_match(client, group_id, ("Ann", "Bob"))
    joined(app, "Bea", client, group_id)
    with app.app_context():
        ann = db.session.execute(db.select(Player).where(Player.name == "Ann")).scalar_one()
        bea = accounts.find_user("Bea").id
        outsider_name = "Zed"
    post(client, f"/groups/{group_id}/players/{ann.id}/link", user=str(bea))
    with app.app_context():
        assert db.session.get(Player, ann.id).user_id == bea
    add_user(app, outsider_name)
    with app.app_context():
        zed = accounts.find_user(outsider_name).id
    refused = post(client, f"/groups/{group_id}/players/{ann.id}/link", user=str(zed))
    assert "Only a member" in " ".join(flashes(client.get(refused.headers["Location"])))


def test_a_players_name_and_account_are_changed_on_their_page_by_admins(app, client):
    group_id = new_group(client, "Club")
    group_match(client, group_id, ("Ann", "Bob"))
    bea = joined(app, "Bea", client, group_id)
    with app.app_context():
        ann = db.session.execute(db.select(Player).where(Player.name == "Ann")).scalar_one()
    player_page = f"/groups/{group_id}/players/{ann.id}"
    assert page(client.get(f"/groups/{group_id}")).find("a", href=player_page).text() == "Ann"
    forms = [f.attrs["action"] for f in page(client.get(player_page)).find_all("form")]
    assert f"{player_page}/rename" in forms
    assert f"{player_page}/link" in forms
    done = post(client, f"{player_page}/rename", name="Annie")
    assert done.headers["Location"] == player_page
    assert "Renamed, in every match." in flashes(client.get(player_page))
    assert bea.get(player_page).status_code == 200
    assert page(bea.get(player_page)).find_all("form", action=f"{player_page}/rename") == []


def share(client, match_id: int, role: str) -> str:
    """A new share link of the match (made by `client`), as its path /s/<token>."""
    made = post(client, f"/matches/{match_id}/share", role=role)
    assert made.status_code == 303
    shown = client.get(made.location).text  # (a link carries the LAN or public address)
    links = re.findall(r'href="https?://[^/"]+(/s/[\w-]+)"', shown)
    return links[-1]


def test_removing_a_member_revokes_the_links_they_made_and_says_how_many(app, client):
    group_id = new_group(client, "Thursday")
    bea = joined(app, "Bea", client, group_id)
    match_id = group_match(client, group_id)
    beas_scorer, beas_viewer = share(bea, match_id, "scorer"), share(bea, match_id, "viewer")
    post(bea, f"/groups/{group_id}/invites")
    invites = re.findall(
        r'href="https?://[^/"]+(/invite/[\w-]+)"', bea.get(f"/groups/{group_id}").text
    )
    beas_invite = invites[-1]  # the newest: Bea's
    tess_viewer = share(client, match_id, "viewer")
    assert bea.get(beas_scorer).status_code == 302  # Bea opens links, as anyone may
    assert bea.get(tess_viewer).status_code == 302
    friend = app.test_client()  # and gave her scorer link to a friend
    assert friend.get(beas_scorer).status_code == 302
    assert friend.get(f"/matches/{match_id}/hands/new").status_code == 200
    with app.app_context():
        bea_id = accounts.find_user("Bea").id

    removed = post(client, f"/groups/{group_id}/members/{bea_id}/remove")
    assert removed.status_code == 303
    assert flashes(client.get(removed.location)) == [
        "Bea is no longer in Thursday. The 2 share links and 1 invite link they made stopped "
        "working."
    ]
    # Bea's browser reaches the match neither as a member nor through the links it opened.
    for url in (f"/matches/{match_id}", f"/api/v1/matches/{match_id}"):
        assert bea.get(url).status_code == 404, url
    assert bea.get(f"/matches/{match_id}/board").status_code == 404
    # What she made opens nothing, for anyone.
    assert friend.get(f"/matches/{match_id}/hands/new").status_code == 302  # to sign in
    for link in (beas_scorer, beas_viewer, beas_invite):
        assert app.test_client().get(link).status_code == 404, link
    # A link someone else made is still a link: whoever holds it may follow the match.
    assert app.test_client().get(tess_viewer).status_code == 302
    activity = text_of(client.get(f"/groups/{group_id}"))
    assert "Bea left the group. The 2 share links and 1 invite link they made" in activity


def test_leaving_a_group_says_which_links_stopped(app, client):
    group_id = new_group(client, "Thursday")
    bea = joined(app, "Bea", client, group_id)
    share(bea, group_match(client, group_id), "viewer")
    with app.app_context():
        bea_id = accounts.find_user("Bea").id
    left = post(bea, f"/groups/{group_id}/members/{bea_id}/remove")
    assert flashes(bea.get(left.location)) == [
        "You left Thursday. The 1 share link you made stopped working."
    ]
