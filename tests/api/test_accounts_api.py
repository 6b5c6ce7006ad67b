"""The API with accounts: bearer tokens, groups, share links, ETags (API.md, additions)."""

from __future__ import annotations

import pytest

from scorekeeper.services import accounts, groups
from scorekeeper.services.storage import transaction
from tests.support import add_user

URL = "/api/v1/matches"
PAIR = [{"players": ["Ann"]}, {"players": ["Bob"]}]
USUAL = [{"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5}]


def token_of(app, name: str) -> str:
    with app.app_context(), transaction():
        return accounts.new_api_token(accounts.find_user(name), "t").secret


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def api(app):
    """A client with no session: only what its headers say."""
    return app.test_client()


@pytest.fixture
def tess(app):
    return bearer(token_of(app, "Tess"))


def test_without_credentials_every_match_endpoint_is_a_json_401(api):
    for method, path in [
        ("POST", URL),
        ("GET", f"{URL}/1"),
        ("POST", f"{URL}/1/hands"),
        ("PUT", f"{URL}/1/hands/1"),
        ("DELETE", f"{URL}/1/hands/1"),
        ("GET", f"{URL}/1/links"),
        ("POST", f"{URL}/1/links"),
        ("DELETE", f"{URL}/1/links/1"),
    ]:
        response = api.open(path, method=method, json={})
        assert response.status_code == 401, path
        assert response.json["errors"][0]["message"].startswith("Sign in")
    assert api.open(URL + "/1", headers=bearer("sk_wrong")).status_code == 401


def test_the_stateless_endpoints_need_no_credentials(api):
    assert api.get("/api/v1/variants").status_code == 200
    assert api.get("/api/v1/variants/classic/meld-requirement?score=0").status_code == 200
    body = {"variant": "classic", "sides": USUAL}
    assert api.post("/api/v1/score", json=body).status_code == 200


def test_a_match_goes_to_the_personal_group_or_the_group_asked_for(app, api, tess):
    personal = api.post(URL, json={"variant": "classic-2p", "sides": PAIR}, headers=tess)
    assert personal.status_code == 201
    with app.app_context(), transaction():
        user = accounts.find_user("Tess")
        club = groups.create_group(user, "Club").id
        assert groups.personal_group(user).id != club
    body = {"variant": "classic-2p", "sides": PAIR, "group": club}
    in_club = api.post(URL, json=body, headers=tess)
    assert in_club.status_code == 201
    add_user(app, "Out")
    with app.app_context():
        theirs = groups.personal_group(accounts.find_user("Out")).id
    for group in (theirs, 99999, "1", True):
        refused = api.post(URL, json={**body, "group": group}, headers=tess)
        assert refused.status_code == 422
        assert refused.json["errors"][0]["field"] == "group"


def test_another_groups_match_is_404_on_every_url(app, api, tess):
    match_id = api.post(URL, json={"variant": "classic-2p", "sides": PAIR}, headers=tess).json["id"]
    add_user(app, "Out")
    out = bearer(token_of(app, "Out"))
    for method, path in [
        ("GET", f"{URL}/{match_id}"),
        ("POST", f"{URL}/{match_id}/hands"),
        ("PUT", f"{URL}/{match_id}/hands/1"),
        ("DELETE", f"{URL}/{match_id}/hands/1"),
        ("GET", f"{URL}/{match_id}/links"),
        ("POST", f"{URL}/{match_id}/links"),
        ("DELETE", f"{URL}/{match_id}/links/1"),
    ]:
        response = api.open(path, method=method, json={"sides": USUAL}, headers=out)
        assert response.status_code == 404, path
    score = api.post("/api/v1/score", json={"match": match_id, "sides": USUAL}, headers=out)
    assert score.status_code == 422  # as for a match that does not exist
    assert api.post("/api/v1/score", json={"match": match_id, "sides": USUAL}).status_code == 422


def test_share_links_by_the_api_and_what_their_tokens_may_do(app, api, tess):
    match_id = api.post(URL, json={"variant": "classic-2p", "sides": PAIR}, headers=tess).json["id"]
    made = api.post(f"{URL}/{match_id}/links", json={"role": "viewer"}, headers=tess)
    assert made.status_code == 201
    viewer = made.json
    assert set(viewer) >= {"id", "role", "token", "url"}
    assert viewer["url"].endswith(f"/s/{viewer['token']}")
    scorer = api.post(f"{URL}/{match_id}/links", json={"role": "scorer"}, headers=tess).json
    listed = api.get(f"{URL}/{match_id}/links", headers=tess).json["links"]
    assert [link["id"] for link in listed] == [viewer["id"], scorer["id"]]
    bad = api.post(f"{URL}/{match_id}/links", json={"role": "owner"}, headers=tess)
    assert bad.status_code == 422

    as_viewer, as_scorer = bearer(viewer["token"]), bearer(scorer["token"])
    assert api.get(f"{URL}/{match_id}", headers=as_viewer).status_code == 200
    assert (
        api.post(f"{URL}/{match_id}/hands", json={"sides": USUAL}, headers=as_viewer).status_code
        == 403
    )
    assert (
        api.post(f"{URL}/{match_id}/hands", json={"sides": USUAL}, headers=as_scorer).status_code
        == 201
    )
    corrected = api.put(f"{URL}/{match_id}/hands/1", json={"sides": USUAL[::-1]}, headers=as_scorer)
    assert corrected.status_code == 200
    assert corrected.json["audit"][0]["by"] == f"scorer link {scorer['id']}"
    for token in (as_viewer, as_scorer):
        assert api.get(f"{URL}/{match_id}/links", headers=token).status_code == 403
        created = api.post(URL, json={"variant": "classic-2p", "sides": PAIR}, headers=token)
        assert created.status_code == 403

    assert api.delete(f"{URL}/{match_id}/links/{viewer['id']}", headers=tess).status_code == 204
    assert api.get(f"{URL}/{match_id}", headers=as_viewer).status_code == 401
    again = api.delete(f"{URL}/{match_id}/links/{viewer['id']}", headers=tess)
    assert again.status_code == 404


def test_reads_carry_an_etag_and_answer_304_until_the_match_changes(api, tess):
    created = api.post(URL, json={"variant": "classic-2p", "sides": PAIR}, headers=tess)
    match_id = created.json["id"]
    etag = api.get(f"{URL}/{match_id}", headers=tess).headers["ETag"]
    same = api.get(f"{URL}/{match_id}", headers={**tess, "If-None-Match": etag})
    assert same.status_code == 304
    api.post(f"{URL}/{match_id}/hands", json={"sides": USUAL}, headers=tess)
    changed = api.get(f"{URL}/{match_id}", headers={**tess, "If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag


def test_a_write_with_a_stale_if_match_is_412_and_changes_nothing(api, tess):
    match_id = api.post(URL, json={"variant": "classic-2p", "sides": PAIR}, headers=tess).json["id"]
    etag = api.get(f"{URL}/{match_id}", headers=tess).headers["ETag"]
    first = api.post(
        f"{URL}/{match_id}/hands", json={"sides": USUAL}, headers={**tess, "If-Match": etag}
    )
    assert first.status_code == 201
    stale = api.post(
        f"{URL}/{match_id}/hands", json={"sides": USUAL}, headers={**tess, "If-Match": etag}
    )
    assert stale.status_code == 412
    assert stale.is_json
    fresh = api.put(
        f"{URL}/{match_id}/hands/1",
        json={"sides": USUAL[::-1]},
        headers={**tess, "If-Match": first.headers["ETag"]},
    )
    assert fresh.status_code == 200
    state = api.get(f"{URL}/{match_id}", headers=tess).json
    assert len(state["hands"]) == 1
    foreign = api.delete(f"{URL}/{match_id}/hands/1", headers={**tess, "If-Match": '"nonsense"'})
    assert foreign.status_code == 412
