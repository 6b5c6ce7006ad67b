"""The statistics page of a group and a player's page (filters in the URL, charts)."""

from __future__ import annotations

from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Player
from scorekeeper.rules import resolve
from scorekeeper.services import accounts, groups
from scorekeeper.services.record_words import describe_record
from scorekeeper.services.storage import transaction
from tests.support import add_user

from .helpers import page, text_of
from .test_query_counts import Counter, queries
from .test_statistics import OUT_FIRST, OUT_SECOND, finished_copies, new_match, play


def rows(response, caption: str) -> dict[str, list[str]]:
    """A statistics table's rows by their header cell: the other cells' text."""
    for table in page(response).find_all("table"):
        if table.find("caption").text() == caption:
            out = {}
            for row in table.find("tbody").kids("tr"):
                out[row.find("th").text()] = [cell.text() for cell in row.kids("td")]
            return out
    raise AssertionError(f"no table {caption!r}")


def two_matches(client) -> None:
    """Ann beats Bob (1400 to -30), then Bob beats Ann, in Classic for two."""
    first = new_match(client, "classic-2p", [["Ann"], ["Bob"]], {"target": 1000})
    play(client, first, OUT_FIRST)
    second = new_match(client, "classic-2p", [["Ann"], ["Bob"]], {"target": 1000})
    play(client, second, OUT_SECOND)


def personal(app) -> int:
    with app.app_context():
        return groups.personal_group(accounts.find_user("Tess")).id


def test_the_statistics_page_lists_each_players_record(app, client):
    two_matches(client)
    group_id = personal(app)
    response = client.get(f"/groups/{group_id}/stats")
    assert response.status_code == 200
    results = rows(response, "Results")
    # Played, won, drawn, lost, win rate, streak now (longest).
    assert results["Ann"] == ["2", "1", "0", "1", "50%", "0 (1)"]
    assert results["Bob"] == ["2", "1", "0", "1", "50%", "1 (1)"]
    points = rows(response, "Points")
    # Margins +1430 and -1430: 0 on average; best hand and top total 1400; out 1 in 2.
    assert points["Ann"] == ["0", "1,400", "1,400", "50%", "1.00"]


def test_the_filters_are_in_the_url_and_shown_back(app, client):
    two_matches(client)
    group_id = personal(app)
    url = f"/groups/{group_id}/stats?variant=classic-2p&player=ann&against=Bob&from=2020-01-01"
    response = client.get(url)
    assert response.status_code == 200
    root = page(response)
    assert root.find("option", selected="").text() == "Classic Canasta for two"
    assert root.find("input", id="from").attrs["value"] == "2020-01-01"
    assert "2 matches on opposite sides: ann won 1, Bob won 1, 0 drawn." in text_of(response)
    other_game = client.get(f"/groups/{group_id}/stats?variant=samba")
    assert "No match played to the end with these filters." in text_of(other_game)


def test_a_bad_filter_is_explained_next_to_its_field(app, client):
    two_matches(client)
    group_id = personal(app)
    response = client.get(f"/groups/{group_id}/stats?variant=poker&from=31/12/2025&player=Zed")
    assert response.status_code == 400
    root = page(response)
    assert root.find(id="variant-error").text() == "There is no game called 'poker'"
    assert root.find(id="from-error").text().startswith("'31/12/2025' is not a date")
    assert root.find(id="player-error").text() == "Nobody called 'Zed' has played here"
    assert root.find("input", id="from").attrs["value"] == "31/12/2025"  # kept


def test_another_groups_statistics_and_players_are_404(app, client):
    two_matches(client)
    add_user(app, "Out")
    with app.app_context():
        theirs = groups.personal_group(accounts.find_user("Out")).id
        ann = db.session.execute(select(Player.id).where(Player.name == "Ann")).scalar_one()
    assert client.get(f"/groups/{theirs}/stats").status_code == 404
    assert client.get(f"/groups/{theirs}/players/{ann}").status_code == 404
    assert client.get(f"/groups/{personal(app)}/players/999999").status_code == 404


def test_a_players_page_has_their_record_and_a_chart_of_their_results(app, client):
    two_matches(client)
    group_id = personal(app)
    with app.app_context():
        ann = db.session.execute(select(Player.id).where(Player.name == "Ann")).scalar_one()
    listed = page(client.get(f"/groups/{group_id}/stats"))
    assert f"/groups/{group_id}/players/{ann}" in [
        a.attrs.get("href") for a in listed.find_all("a")
    ]
    response = client.get(f"/groups/{group_id}/players/{ann}")
    assert response.status_code == 200
    assert rows(response, "Results")["Tess's games"] == ["2", "1", "0", "1", "50%", "0 (1)"]
    svg = page(response).find("svg", class_="chart")
    assert svg.attrs["role"] == "img"
    assert svg.find("title").text() == "Ann: wins minus losses over the last 2 matches"
    assert "1 won, 0 drawn, 1 lost" in svg.find("desc").text()
    # Wins minus losses: 1 after the first match, 0 after the second.
    hidden = rows(response, "The last 2 matches, oldest first")
    assert [cells[1:] for cells in hidden.values()] == [["Won", "+1,430"], ["Lost", "-1,430"]]


def test_a_player_linked_to_an_account_gathers_every_group(app, client):
    two_matches(client)
    with app.app_context(), transaction():
        tess = accounts.find_user("Tess")
        club = groups.create_group(tess, "Club").id
    body = {
        "variant": "classic-2p",
        "sides": [{"players": ["Ann"]}, {"players": ["Cid"]}],
        "options": {"target": 1000},
        "group": club,
    }
    match_id = client.post("/api/v1/matches", json=body).json["id"]
    play(client, match_id, OUT_FIRST)
    with app.app_context(), transaction():
        tess = accounts.find_user("Tess")
        for ann in db.session.execute(select(Player).where(Player.name == "Ann")).scalars():
            assert ann.group_id is not None
            groups.link_player(ann.group_id, ann, tess.id, tess)
        home = groups.personal_group(tess).id
        ann_home = db.session.execute(
            select(Player.id).where(Player.name == "Ann", Player.group_id == home)
        ).scalar_one()
    response = client.get(f"/groups/{home}/players/{ann_home}")
    results = rows(response, "Results")
    assert results == {
        "Tess's games": ["2", "1", "0", "1", "50%", "0 (1)"],
        "Club": ["1", "1", "0", "0", "100%", "1 (1)"],
    }
    assert "over the last 3 matches" in page(response).find("svg").find("title").text()


def test_head_to_head_of_two_partnerships(app, client):
    def teams(first: list[str], second: list[str], winner: int) -> None:
        match_id = new_match(client, "classic", [first, second], {"target": 1000})
        play(client, match_id, OUT_FIRST if winner == 0 else OUT_SECOND)

    teams(["Ann", "Cid"], ["Bob", "Dee"], 0)
    teams(["Dee", "Bob"], ["Cid", "Ann"], 0)  # the same partnerships, other seats
    teams(["Dee", "Bob"], ["Cid", "Ann"], 0)
    teams(["Ann", "Bob"], ["Cid", "Dee"], 1)
    group_id = personal(app)
    with app.app_context():
        ids = dict(db.session.execute(select(Player.name, Player.id)).all())
    ann_cid = "-".join(str(i) for i in sorted((ids["Ann"], ids["Cid"])))
    bob_dee = "-".join(str(i) for i in sorted((ids["Bob"], ids["Dee"])))
    response = client.get(f"/groups/{group_id}/stats?variant=classic&team={ann_cid}&vs={bob_dee}")
    assert response.status_code == 200
    assert page(response).find("p", id="team-duel").text() == (
        "3 matches against each other: Ann & Cid won 1, Bob & Dee won 2, 0 drawn."
    )
    # Most wins first, then the best win rate.
    options = page(response).find("select", id="team").find_all("option")
    assert [o.text() for o in options][1:] == ["Bob & Dee", "Cid & Dee", "Ann & Cid", "Ann & Bob"]
    refused = client.get(f"/groups/{group_id}/stats?team={ann_cid}&vs=1-99")
    assert refused.status_code == 400
    assert page(refused).find(id="vs-error").text() == "Choose partners from the list"


def test_the_statistics_pages_run_as_many_queries_for_2000_matches_as_for_10(app, client):
    client.get("/")
    counter = Counter(app)
    finished_copies(app, client, 10)
    group_id = personal(app)
    with app.app_context():
        ids = dict(db.session.execute(select(Player.name, Player.id)).all())
    ann_bob = "-".join(str(i) for i in sorted((ids["Ann"], ids["Bob"])))
    cid_dee = "-".join(str(i) for i in sorted((ids["Cid"], ids["Dee"])))
    paths = [
        f"/groups/{group_id}/stats",
        f"/groups/{group_id}/stats?player=Ann&against=Cid&team={ann_bob}&vs={cid_dee}",
        f"/groups/{group_id}/stats?variant=classic&from=2000-01-01&to=2100-01-01",
        f"/groups/{group_id}/players/{ids['Ann']}",
        "/api/v1/stats",
    ]
    few = [queries(counter, client, path) for path in paths]
    finished_copies(app, client, 1990)
    assert "2,000 matches on opposite sides" in text_of(client.get(paths[1]))
    assert [queries(counter, client, path) for path in paths] == few


RECORD_WORDS = {  # "Record" in its two senses: wins and losses, and what a hand holds
    "en-GB": ("Record", "Record"),
    "pt-BR": ("Retrospecto", "Registro"),
    "es-ES": ("Historial", "Registro"),
    "it-IT": ("Bilancio", "Registrazione"),
}


def test_a_players_record_and_a_hands_record_are_two_words(app, client):
    """English says "Record" for both; the other languages do not: a player's wins and
    losses are not what was entered for a hand."""
    two_matches(client)
    group_id = personal(app)
    with app.app_context():
        ann = db.session.execute(select(Player.id).where(Player.name == "Ann")).scalar_one()
    for language, (wins_and_losses, entered) in RECORD_WORDS.items():
        headers = {"Accept-Language": language}
        response = client.get(f"/groups/{group_id}/players/{ann}", headers=headers)
        assert page(response).find(id="records-heading").text() == wins_and_losses, language
        with app.test_request_context(headers=headers):
            rules = resolve("classic")
            assert describe_record(rules, 7) == [(entered, "7")], language
