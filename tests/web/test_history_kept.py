"""History pages are kept per history revision of their groups: every change a history
page shows must move that revision on, or a kept page would show the past. The count
the whole history shows is the group's, counted again with each move: after every test
it must equal the matches its history holds.

Each test opens the history first (so the page is kept), changes something, and opens it
again; the last one changes the match through a second app on the same database, as
another server process would.
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Group, Match, Player, Side, SideMember

from ..support import app_config, sign_in
from .helpers import (
    PLAYERS2,
    correct_hand,
    create_match,
    csrf_token,
    page,
    record_ok,
    remove_hand,
    text_of,
)

SHORT = {"target": 50}  # classic for two: 100 against 50 ends it
ANN_WINS = [{"meld_points": 100}, {"meld_points": 50}]
BOB_WINS = [{"meld_points": 50}, {"meld_points": 100}]
USUAL = [{"meld_points": 20}, {"meld_points": 10}]


@pytest.fixture(autouse=True)
def counts_kept_right(app):
    """Each group's kept history count is the number of matches its history holds, each
    player's the number of those they sat at."""
    yield
    done = Match.finished_at.is_not(None)
    with app.app_context():
        kept = dict(db.session.execute(select(Group.id, Group.history_matches)).all())
        held = select(Match.group_id, func.count()).where(done).group_by(Match.group_id)
        counted = dict(db.session.execute(held).all())
        seated = dict(db.session.execute(select(Player.id, Player.history_matches)).all())
        sat = (
            select(SideMember.player_id, func.count(Side.match_id.distinct()))
            .join(Side, Side.id == SideMember.side_id)
            .join(Match, Match.id == Side.match_id)
            .where(done)
            .group_by(SideMember.player_id)
        )
        sat_at = dict(db.session.execute(sat).all())
    assert kept == {group_id: counted.get(group_id, 0) for group_id in kept}
    assert seated == {player_id: sat_at.get(player_id, 0) for player_id in seated}


def post(client, path, **data):
    token = csrf_token(client.get("/account").text)
    return client.post(path, data={"csrf_token": token, **data})


def history(client, query: str = "") -> str:
    response = client.get("/history" + query)
    assert response.status_code == 200
    return text_of(response)


def player_choices(client) -> list[str]:
    select = page(client.get("/history")).find("select", id="player")
    return [option.text() for option in select.find_all("option")]


def finished_match(client, hand=ANN_WINS) -> int:
    match_id = create_match(client, "classic-2p", PLAYERS2, options=SHORT)
    record_ok(client, match_id, "none", *hand)
    return match_id


def test_a_match_that_ends_appears(client):
    match_id = create_match(client, "classic-2p", PLAYERS2, options=SHORT)
    assert "0 matches." in history(client)
    record_ok(client, match_id, "none", *ANN_WINS)
    assert "1 match." in history(client)
    assert "Won by Ann" in history(client)


def test_a_correction_after_the_end_shows(client):
    match_id = finished_match(client)
    assert "Won by Ann" in history(client)
    response = correct_hand(client, match_id, 1, "none", *BOB_WINS)
    assert response.status_code == 303
    assert "Won by Bob" in history(client)
    assert "Won by Ann" not in history(client)


def test_removing_the_last_hand_takes_the_match_out(client):
    match_id = finished_match(client)
    assert "1 match." in history(client)
    assert remove_hand(client, match_id, 1).status_code == 303
    assert "0 matches." in history(client)


def test_abandoning_renaming_a_side_and_deleting_show(client):
    playing = create_match(client, "classic-2p", PLAYERS2, options=SHORT)
    record_ok(client, playing, "none", *USUAL)
    assert "0 matches." in history(client)
    post(client, f"/matches/{playing}/abandon")
    assert "Abandoned after 1 hand" in history(client)
    post(client, f"/matches/{playing}/sides/0", name="The Sharps")
    assert "The Sharps" in history(client)
    assert post(client, f"/matches/{playing}/delete").status_code == 303
    assert "0 matches." in history(client)


def test_renaming_a_player_and_a_new_player_show(app, client):
    finished_match(client)
    assert player_choices(client) == ["Everyone", "Ann", "Bob"]
    assert "1 match with Ann." in history(client, "?player=Ann")
    with app.app_context():
        ann = db.session.execute(db.select(Player).where(Player.name == "Ann")).scalar_one()
        group_id, ann_id = ann.group_id, ann.id
    post(client, f"/groups/{group_id}/players/{ann_id}/rename", name="Annie")
    assert player_choices(client) == ["Everyone", "Annie", "Bob"]
    assert "0 matches with Ann." in history(client, "?player=Ann")
    assert "1 match with Annie." in history(client, "?player=Annie")
    create_match(client, "classic-2p", ("Cy", "Bob"))
    assert player_choices(client) == ["Everyone", "Annie", "Bob", "Cy"]


def test_a_change_made_by_another_server_process_shows(app, client):
    match_id = create_match(client, "classic-2p", PLAYERS2, options=SHORT)
    assert "0 matches." in history(client)
    other = create_app(app_config(app.config["SQLALCHEMY_DATABASE_URI"]))
    try:
        record_ok(sign_in(other.test_client()), match_id, "none", *ANN_WINS)
    finally:
        with other.app_context():
            db.engine.dispose()
    assert "1 match." in history(client)


def test_joining_a_group_shows_its_matches(app, client):
    from ..support import add_user

    add_user(app, "Bea")
    bea = sign_in(app.test_client(), "Bea")
    finished_match(client)
    assert "0 matches." in history(bea)
    with app.app_context():
        group_id = db.session.execute(db.select(Player.group_id)).scalars().first()
    post(client, f"/groups/{group_id}/invites")
    invite = re.search(r"/invite/([\w-]+)", client.get(f"/groups/{group_id}").text)
    assert invite is not None
    post(bea, f"/invite/{invite.group(1)}")
    assert "1 match." in history(bea)


def test_an_import_shows(app, client):
    match_id = finished_match(client)
    exported = client.get("/api/v1/export?format=json")
    assert exported.status_code == 200
    assert post(client, f"/matches/{match_id}/delete").status_code == 303
    assert "0 matches." in history(client)
    imported = client.post("/api/v1/import", json=exported.json)
    assert imported.status_code == 201, imported.json
    assert imported.json == {"matches": 1, "skipped": 0}
    assert "1 match." in history(client)


def test_merging_two_players_shows_in_a_players_history(app, client):
    finished_match(client)
    first = create_match(client, "classic-2p", ("Annie", "Bob"), options=SHORT)
    record_ok(client, first, "none", *BOB_WINS)
    finished_match(client)
    assert "2 matches with Ann." in history(client, "?player=Ann")
    assert "1 match with Annie." in history(client, "?player=Annie")
    assert "3 matches with Bob." in history(client, "?player=Bob")
    with app.app_context():
        ids = dict(db.session.execute(db.select(Player.name, Player.id)).all())
        group_id = db.session.execute(db.select(Player.group_id)).scalars().first()
    merged = post(client, f"/groups/{group_id}/players/merge", gone=ids["Annie"], kept=ids["Ann"])
    assert merged.status_code == 303
    assert "3 matches with Ann." in history(client, "?player=Ann")
    assert "0 matches with Annie." in history(client, "?player=Annie")
    assert "3 matches with Bob." in history(client, "?player=Bob")


def test_a_players_history_count_follows_each_change(client):
    first = finished_match(client)
    second = finished_match(client, BOB_WINS)
    assert "2 matches with Ann." in history(client, "?player=Ann")
    assert remove_hand(client, second, 1).status_code == 303  # leaves the history
    assert "1 match with Ann." in history(client, "?player=Ann")
    post(client, f"/matches/{second}/abandon")  # back in it, abandoned
    assert "2 matches with Ann." in history(client, "?player=Ann")
    assert post(client, f"/matches/{first}/delete").status_code == 303
    assert "1 match with Ann." in history(client, "?player=Ann")
    assert "1 match with bob." in history(client, "?player=bob")  # whatever the case


def test_an_import_of_several_matches_counts_each_players_matches(client):
    first, second = finished_match(client), finished_match(client, BOB_WINS)
    create_match(client, "classic-2p", ("Ann", "Cy"))  # in progress: not in the history
    exported = client.get("/api/v1/export?format=json")
    assert exported.status_code == 200
    for match_id in (first, second):
        assert post(client, f"/matches/{match_id}/delete").status_code == 303
    assert "0 matches with Ann." in history(client, "?player=Ann")
    imported = client.post("/api/v1/import", json=exported.json)
    assert imported.status_code == 201, imported.json
    assert imported.json == {"matches": 2, "skipped": 1}
    assert "2 matches with Ann." in history(client, "?player=Ann")
    assert "2 matches with Bob." in history(client, "?player=Bob")
    assert "0 matches with Cy." in history(client, "?player=Cy")
