"""Names that would show alike: invisible characters are refused in every name; a
person's name that mixes scripts, or looks just like another player's or account's,
is refused with a message naming the one it looks like (docs/names.md)."""

from __future__ import annotations

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Player, User
from tests.support import TESTER, add_user, sign_in

from .helpers import (
    all_field_errors,
    create_match,
    csrf_token,
    flashes,
    form_values,
    page,
    submit_new_match,
)

CYRILLIC_ANN = "\u0410nn"  # a Cyrillic A, then Latin n n: shows as "Ann"
INVISIBLE = {
    "zero width space": "Ann\u200b",
    "zero width joiner": "An\u200dn",
    "word joiner": "\u2060Ann",
    "byte order mark": "Ann\ufeff",
    "right-to-left override": "\u202eAnn",
    "left-to-right isolate": "Ann\u2066",
    "soft hyphen": "An\u00adn",
    "hangul filler": "Ann\u3164",
}


def players(app) -> list[str]:
    with app.app_context():
        return sorted(db.session.execute(db.select(Player.name)).scalars())


@pytest.mark.parametrize("name", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_an_invisible_character_in_a_players_name_is_refused_at_its_field(client, app, name):
    response = submit_new_match(client, "classic-2p", (name, "Bob"))
    assert response.status_code == 422
    errors = all_field_errors(response)
    assert list(errors) == ["seat_0"]
    assert errors["seat_0"][0].startswith("Remove the invisible character (U+")
    assert form_values(page(response))["seat_0"] == name  # kept as typed
    assert players(app) == []


def test_the_api_refuses_an_invisible_character_naming_the_field(client):
    body = {"variant": "classic-2p", "sides": [{"players": ["Ann\u200b"]}, {"players": ["B"]}]}
    response = client.post("/api/v1/matches", json=body)
    assert response.status_code == 422
    error = response.json["errors"][0]
    assert error["field"].endswith("players.0")
    assert "U+200B Zero Width Space" in error["message"]


def test_a_name_mixing_scripts_is_refused(client, app):
    response = submit_new_match(client, "classic-2p", (CYRILLIC_ANN, "Bob"))
    assert response.status_code == 422
    assert all_field_errors(response)["seat_0"] == [
        "This name mixes Cyrillic and Latin letters, which can look alike: type it with one "
        "keyboard"
    ]
    assert players(app) == []


@pytest.mark.parametrize("name", ["Zoë", "José-María O'Brien", "Дмитрий", "山田たろう", "김민준"])
def test_names_in_one_writing_are_welcome(client, name):
    create_match(client, "classic-2p", (name, "Bob"))


def test_a_new_name_that_looks_like_a_player_of_the_group_names_them(client, app):
    create_match(client, "classic-2p", ("Ian", "Bob"))
    response = submit_new_match(client, "classic-2p", ("lan", "Bob"))  # a small L
    assert response.status_code == 422
    assert all_field_errors(response)["seat_0"] == [
        "lan looks just like Ian, a player of this group: choose Ian, or write the name so "
        "that it can be told apart"
    ]
    create_match(client, "classic-2p", ("IAN", "Bob"))  # the same player, any case
    assert players(app) == ["Bob", "Ian"]


def test_a_look_alike_of_a_player_of_another_group_is_no_problem(app, client):
    create_match(client, "classic-2p", ("Ian", "Bob"))
    add_user(app, "Bea")
    create_match(sign_in(app.test_client(), "Bea"), "classic-2p", ("lan", "Cy"))


def post(client, url: str, **data):
    token = csrf_token(client.get("/account").text)
    return client.post(url, data={"csrf_token": token, **data})


def test_side_and_group_names_refuse_invisible_characters(client, app):
    four = ("Ann", "Bob", "Cy", "Di")
    response = submit_new_match(client, "classic", four, team_names=("Us\u200b", "Them"))
    assert response.status_code == 422
    assert all_field_errors(response)["side_name_0"][0].startswith("Remove the invisible")
    made = post(client, "/groups", name="Thursday\u202e")
    assert made.status_code == 422
    assert "Remove the invisible character (U+202E" in made.text
    # A side name that joins two people's names in two scripts is fine.
    mixed = ("Ann", "Bob", "Борис", "Di")  # partners sit opposite: Ann and Борис
    create_match(client, "classic", mixed, team_names=("Ann & Борис", "Bob & Di"))


def test_renaming_a_player_to_a_look_alike_is_refused(client, app):
    match_id = create_match(client, "classic-2p", ("Ian", "Bob"))
    assert match_id
    with app.app_context():
        bob = db.session.execute(db.select(Player).where(Player.name == "Bob")).scalar_one()
        group_id, bob_id = bob.group_id, bob.id
    renamed = post(client, f"/groups/{group_id}/players/{bob_id}/rename", name="lan")
    assert renamed.status_code == 303
    assert flashes(client.get(renamed.location)) == [
        "lan looks just like Ian, a player of this group: choose another name"
    ]
    assert players(app) == ["Bob", "Ian"]


def test_an_account_name_that_looks_like_another_is_refused(app, client):
    form = form_values(page(client.get("/admin")))
    client.post("/admin", data={**form, "registration": "open"})
    visitor = app.test_client()
    tries = {
        "Tess\u200b": "Remove the invisible character (U+200B Zero Width Space) from the name",
        "T\u0435ss": "This name mixes Cyrillic and Latin letters",
        "TESS": "TESS is taken: choose another name",
    }
    for name, said in tries.items():
        form = form_values(page(visitor.get("/register")))
        response = visitor.post("/register", data={**form, "username": name, "password": "x" * 10})
        assert response.status_code == 422, name
        assert all_field_errors(response)["username"][0].startswith(said), name
    add_user(app, "Ian")
    form = form_values(page(visitor.get("/register")))
    response = visitor.post("/register", data={**form, "username": "lan", "password": "x" * 10})
    assert all_field_errors(response)["username"] == [
        "lan looks just like Ian, who has an account here: choose another name"
    ]
    with app.app_context():
        names = sorted(u.username for u in db.session.execute(db.select(User)).scalars())
    assert names == ["Ian", TESTER]


def test_an_import_refuses_an_invisible_character_in_a_name(app, client):
    create_match(client, "classic-2p", ("Ann", "Bob"))
    export = client.get("/api/v1/export?format=json").json
    export["groups"][0]["matches"][0]["sides"][0]["players"][0] = "Ann\u200b"
    export["groups"][0]["matches"][0]["uid"] = "f" * 32  # a match this server lacks
    add_user(app, "Bea")
    response = sign_in(app.test_client(), "Bea").post("/api/v1/import", json=export)
    assert response.status_code == 422
    error = response.json["errors"][0]
    assert error["field"].endswith("sides.0.players.0")
    assert "invisible character (U+200B Zero Width Space)" in error["message"]
