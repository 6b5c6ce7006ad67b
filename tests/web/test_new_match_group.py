"""A new match is offered in the group last used: the group page last opened in this
browser or the group of the last match started, else the personal group."""

from __future__ import annotations

from scorekeeper.services import accounts, groups
from scorekeeper.services.storage import transaction
from tests.support import TESTER, sign_in

from .helpers import PLAYERS4, form_values, page

TEAMS = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]


def offered(client) -> str:
    """The name of the group the new-match form has chosen."""
    root = page(client.get("/matches/new/classic"))
    select = root.find("select", name="group")
    chosen = [o for o in select.find_all("option") if "selected" in o.attrs]
    assert len(chosen) == 1
    return chosen[0].text()


def club(app) -> int:
    with app.app_context(), transaction():
        return groups.create_group(accounts.find_user(TESTER), "Club").id


def test_the_group_page_last_opened_is_offered(app, client):
    club_id = club(app)
    assert offered(client) == "Tess's games"  # nothing used yet: the personal group
    assert client.get(f"/groups/{club_id}").status_code == 200  # e.g. to invite friends
    assert offered(client) == "Club"
    personal = client.get("/groups").text.split('href="/groups/')[1].split('"')[0]
    client.get(f"/groups/{personal}")
    assert offered(client) == "Tess's games"


def test_the_group_a_match_was_started_in_is_offered_next(app, client):
    club_id = club(app)
    data = form_values(page(client.get("/matches/new/classic")))
    data.update({f"seat_{i}": name for i, name in enumerate(PLAYERS4)}, group=str(club_id))
    assert client.post("/matches/new/classic", data=data).status_code == 303
    assert offered(client) == "Club"


def test_in_a_new_browser_the_group_of_the_last_match_started_is_offered(app, client):
    club_id = club(app)
    made = client.post(
        "/api/v1/matches", json={"variant": "classic", "sides": TEAMS, "group": club_id}
    )
    assert made.status_code == 201
    elsewhere = sign_in(app.test_client())
    assert offered(elsewhere) == "Club"
