"""A group's page offers its matches as CSV and JSON files and imports a JSON export."""

from __future__ import annotations

import io
import json

from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.services import accounts, groups
from scorekeeper.services.storage import transaction
from tests.support import TESTER, add_user, sign_in

from .helpers import api_finished_match, count, csrf_token, field_errors, flashes, page, text_of

OUT = [{"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}, {"hand_points": 30}]


def personal_group(app, name: str = TESTER) -> int:
    with app.app_context():
        return groups.personal_group(accounts.find_user(name)).id


def group_players(app, group_id: int) -> list[str]:
    with app.app_context():
        return [player.name for player in groups.players(group_id)]


def delete_match(app, match_id: int) -> None:
    with app.app_context(), transaction():
        db.session.delete(db.session.get(Match, match_id))


def a_match(client) -> int:
    return api_finished_match(client, "classic-2p", [["Ann"], ["Bob"]], OUT, {"target": 200})


def upload(client, group_id: int, content: bytes, name: str = "export.json", token=None):
    page_html = client.get(f"/groups/{group_id}/import").text
    data = {
        "csrf_token": csrf_token(page_html) if token is None else token,
        "export": (io.BytesIO(content), name),
    }
    return client.post(f"/groups/{group_id}/import", data=data, content_type="multipart/form-data")


def test_the_group_page_downloads_both_files(app, client):
    a_match(client)
    group_id = personal_group(app)
    root = page(client.get(f"/groups/{group_id}"))
    links = {a.text(): a.attrs["href"] for a in root.find_all("a") if "download" in a.attrs}
    assert links == {
        "Download CSV": f"/groups/{group_id}/export.csv",
        "Download JSON": f"/groups/{group_id}/export.json",
    }
    as_csv = client.get(links["Download CSV"])
    assert as_csv.status_code == 200
    assert as_csv.mimetype == "text/csv"
    disposition = as_csv.headers["Content-Disposition"]
    assert disposition.startswith('attachment; filename="scorekeeper-tess-s-games-')
    assert disposition.endswith('.csv"')
    assert as_csv.text.splitlines()[0].startswith("match_uid,date,variant,hand,side")
    assert len(as_csv.text.splitlines()) == 3  # one hand, two sides
    as_json = client.get(links["Download JSON"])
    assert as_json.headers["Content-Disposition"].endswith('.json"')
    assert as_json.json["groups"][0]["matches"][0]["variant"] == "classic-2p"


def test_another_groups_files_are_not_found(app, client):
    add_user(app, "Olga")
    theirs = personal_group(app, "Olga")
    assert client.get(f"/groups/{theirs}/export.csv").status_code == 404
    assert client.get(f"/groups/{theirs}/export.json").status_code == 404
    assert client.get(f"/groups/{theirs}/import").status_code == 404
    assert client.get(f"/groups/{personal_group(app)}/export.xlsx").status_code == 404


def test_importing_a_file_adds_its_matches_once_and_says_so(app, client):
    a_match(client)
    a_match(client)
    export = client.get("/api/v1/export").data
    add_user(app, "Olga")
    olga = sign_in(app.test_client(), "Olga")
    group_id = personal_group(app, "Olga")
    # Tess's matches are on this server already: Olga's import skips them.
    response = upload(olga, group_id, export)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/groups/{group_id}")
    assert flashes(olga.get(response.headers["Location"])) == [
        "0 matches imported; 2 already on this server, skipped (their players too): "
        "2 in a group you are not in."
    ]
    assert group_players(app, group_id) == []  # a skipped match adds nobody
    # Tess deletes one of hers; importing it again brings it back, once.
    delete_match(app, 1)
    mine = personal_group(app)
    response = upload(client, mine, export)
    assert flashes(client.get(response.headers["Location"])) == [
        "1 match imported; 1 already on this server, skipped (their players too): 1 in this group."
    ]
    assert count(app, Match) == 2


def test_importing_a_groups_file_into_another_says_where_its_matches_are(app, client):
    a_match(client)
    export = client.get("/api/v1/export").data
    with app.app_context(), transaction():
        club = groups.create_group(accounts.find_user(TESTER), "Club").id
    response = upload(client, club, export)
    assert response.status_code == 303
    assert flashes(client.get(response.headers["Location"])) == [
        "0 matches imported; 1 already on this server, skipped (their players too): "
        "1 in Tess's games."
    ]
    assert group_players(app, club) == []
    assert count(app, Match) == 1


def test_a_wrong_file_is_an_error_next_to_the_field_and_saves_nothing(app, client):
    a_match(client)
    export = client.get("/api/v1/export").json
    group_id = personal_group(app)
    before = count(app, Match)
    not_json = upload(client, group_id, b"match,date\n1,2")
    assert not_json.status_code == 422
    assert field_errors(not_json, "export") == [
        "This file is not a Scorekeeper export: it is not JSON."
    ]
    export["groups"][0]["matches"][0]["uid"] = "0" * 32
    export["groups"][0]["matches"][0]["hands"][0]["sides"][1]["total"] = 5
    tampered = upload(client, group_id, json.dumps(export).encode())
    assert tampered.status_code == 422
    errors = field_errors(tampered, "export")
    assert errors[0].startswith("Nothing was imported")
    assert errors[1].startswith(
        "groups.0.matches.0.hands.0.sides.1.total: is 5, but the entries score"
    )
    empty = upload(client, group_id, b"", name="")
    assert empty.status_code == 422
    assert field_errors(empty, "export") == ["Choose a file"]
    assert count(app, Match) == before


def test_an_import_needs_the_forms_csrf_token_and_a_file_within_the_limit(app, client):
    a_match(client)
    export = client.get("/api/v1/export").data
    group_id = personal_group(app)
    delete_match(app, 1)
    forged = upload(client, group_id, export, token="forged")
    assert forged.status_code == 422
    assert field_errors(forged, "export") == [
        "This form had expired: choose the file again, then Import."
    ]
    assert count(app, Match) == 0
    app.config["IMPORT_MAX_BYTES"] = 500
    too_big = upload(client, group_id, export)
    assert too_big.status_code == 413
    assert "larger than" in field_errors(too_big, "export")[0]
    assert count(app, Match) == 0
    assert "Import matches" in text_of(client.get(f"/groups/{group_id}/import"))


def test_an_import_form_without_csrf_tokens_still_says_what_is_wrong(app, client):
    """A server run with WTF_CSRF_ENABLED off (as scripts do) has forms with no token
    field: a failed import is still the form with its message, never a 500."""
    app.config["WTF_CSRF_ENABLED"] = False
    group_id = personal_group(app)
    empty = client.post(f"/groups/{group_id}/import", data={}, content_type="multipart/form-data")
    assert empty.status_code == 422
    assert field_errors(empty, "export") == ["Choose a file"]
