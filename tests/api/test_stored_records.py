"""A hand record with null fields is refused, and a stored one with nulls or odd values
(saved before that check, or written by hand) still shows its pages and takes a correction,
on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import AuditEntry, Hand, HandSide
from tests.support import app_config, signed_in
from tests.web.helpers import form_values, page

URL = "/api/v1/matches"
TEAMS = [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cy", "Di"]}]
HAND = [{"meld_points": 70}, {"meld_points": 50}]
NULLS = [
    "went_out",
    "concealed",
    "canastas",
    "meld_points",
    "meld_cards",
    "hand_points",
    "red_threes",
    "penalties",
    "special_hand",
]
# What a record stored before the checks may hold, or a hand-edited database.
ODD_RECORDS = [
    [{"meld_points": 70, "canastas": None}, {"meld_points": 50}],
    [{"meld_points": 70, "penalties": None}, {"meld_points": 50, "special_hand": None}],
    [{"meld_points": "70", "canastas": [1, 2]}, {"meld_cards": "lots", "hand_points": None}],
    [{"penalties": [5, None, {"rule": ["x"]}, {"points": "x"}]}, {"special_hand": 7}],
    [{"went_out": "yes", "canastas": {"natural": None}}, {"red_threes": 1.5}],
    [{"penalties": {"rule": "x"}, "hand_cards": None, "foot_cards": [None]}, {}],
]


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'stored.sqlite'}"
    return request.getfixturevalue("migrated_postgres_url")


def new_app(url):
    app = create_app(app_config(url, WTF_CSRF_ENABLED=False))
    if url.startswith("sqlite"):
        with app.app_context():
            db.create_all()
    return app


def close(app):
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.mark.parametrize("field", NULLS)
def test_a_null_field_is_refused_with_the_field_named(client, field):
    match_id = client.post(URL, json={"variant": "classic", "sides": TEAMS}).json["id"]
    sides = [{**HAND[0], field: None}, HAND[1]]
    response = client.post(f"{URL}/{match_id}/hands", json={"sides": sides})
    assert response.status_code == 422, response.json
    assert {"side": 0, "field": field} in [
        {"side": e["side"], "field": e["field"]} for e in response.json["errors"]
    ]
    assert field in response.json["errors"][0]["message"]
    assert client.get(f"{URL}/{match_id}").json["hands"] == []
    stateless = client.post("/api/v1/score", json={"variant": "classic", "sides": sides})
    assert stateless.status_code == 422
    assert stateless.json["errors"][0]["field"] == field


def test_a_null_field_in_a_correction_is_refused(client):
    match_id = client.post(URL, json={"variant": "classic", "sides": TEAMS}).json["id"]
    assert client.post(f"{URL}/{match_id}/hands", json={"sides": HAND}).status_code == 201
    sides = [HAND[0], {**HAND[1], "penalties": None}]
    response = client.put(f"{URL}/{match_id}/hands/1", json={"sides": sides})
    assert response.status_code == 422
    assert (response.json["errors"][0]["side"], response.json["errors"][0]["field"]) == (
        1,
        "penalties",
    )


@pytest.mark.parametrize("records", ODD_RECORDS, ids=range(len(ODD_RECORDS)))
def test_a_stored_odd_record_still_shows_its_pages_and_takes_a_correction(database_url, records):
    app = new_app(database_url)
    client = signed_in(app)
    match_id = client.post(URL, json={"variant": "classic", "sides": TEAMS}).json["id"]
    assert client.post(f"{URL}/{match_id}/hands", json={"sides": HAND}).status_code == 201
    with app.app_context():
        hand_id = db.session.scalar(select(Hand.id).where(Hand.match_id == match_id))
        for seat, record in enumerate(records):
            db.session.execute(
                update(HandSide)
                .where(HandSide.hand_id == hand_id, HandSide.seat == seat)
                .values(record=record)
            )
        db.session.commit()
    close(app)
    # A fresh process on the database, as after a restart: nothing kept from before.
    app = new_app(database_url)
    client = signed_in(app)
    try:
        for shown in ("", "/hands/1", "/hands/1/edit", "/hands/new", "/board", "/manage"):
            response = client.get(f"/matches/{match_id}{shown}")
            assert response.status_code == 200, (shown, response.status_code)
        detail = client.get(f"/matches/{match_id}/hands/1").get_data(as_text=True)
        assert "Something went wrong" not in detail
        state = client.get(f"{URL}/{match_id}")
        assert state.status_code == 200
        assert [s["input"] for s in state.json["hands"][0]["sides"]] == records
        # The correction is taken, through the form and through the API.
        form = form_values(page(client.get(f"/matches/{match_id}/hands/1/edit")))
        form.update({"s0_meld_points": "80", "s1_meld_points": "50", "out": "none"})
        posted = client.post(f"/matches/{match_id}/hands/1/edit", data=form)
        if posted.status_code == 200:  # an unlikely hand: "Is this right?", then yes
            form = form_values(page(posted))
            posted = client.post(f"/matches/{match_id}/hands/1/edit", data=form)
        assert posted.status_code == 303, posted.get_data(as_text=True)
        assert [s["total"] for s in client.get(f"{URL}/{match_id}").json["sides"]] == [80, 50]
        corrected = client.put(
            f"{URL}/{match_id}/hands/1", json={"sides": [{"meld_points": 90}, {"meld_points": 50}]}
        )
        assert corrected.status_code == 200, corrected.json
        assert [s["total"] for s in corrected.json["sides"]] == [90, 50]
        with app.app_context():
            kept = db.session.scalars(
                select(AuditEntry).where(AuditEntry.action == "corrected")
            ).all()
            assert len(kept) == 2
        for shown in ("", "/hands/1"):
            assert client.get(f"/matches/{match_id}{shown}").status_code == 200
    finally:
        close(app)
