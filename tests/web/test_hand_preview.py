"""The live preview: the hand form posted as it stands, scored by the server, nothing saved."""

from __future__ import annotations

from .helpers import (
    PLAYERS2,
    counts,
    create_match,
    hand_data,
    page,
    record_ok,
    totals,
)

# The typical Classic hand: Ann & Cid go out with 2 natural and 1 mixed canasta, 3 red
# threes and 450 melded; Bob & Dee lay down 1 red three, meld 120 and hold 85.
TYPICAL = (
    {"canasta_natural": 2, "canasta_mixed": 1, "red_threes": 3, "meld_points": 450},
    {"red_threes": 1, "meld_points": 120, "hand_points": 85},
)


def preview(client, match_id: int, data: dict):
    return client.post(f"/matches/{match_id}/hands/preview", data=data)


def test_the_preview_scores_the_form_as_saving_would(client, app):
    match_id = create_match(client, "classic")
    data = hand_data(client, match_id, 0, *TYPICAL)
    before = counts(app)
    response = preview(client, match_id, data)
    assert response.status_code == 200
    sides = response.get_json()["sides"]
    # 2 x 500 + 300 + 3 x 100 + 450 + 100 for going out; the red three of a side
    # without a canasta counts minus: -100 + 120 - 85.
    assert [side["total"] for side in sides] == [2150, -65]
    assert {"label": "Going out", "points": 100} in [
        {"label": line["label"], "points": line["points"]} for line in sides[0]["lines"]
    ]
    assert counts(app) == before  # a preview saves nothing
    record_ok(client, match_id, 0, *TYPICAL)
    assert totals(client.get(f"/matches/{match_id}")) == [2150, -65]


def test_the_preview_counts_cards_from_the_same_form(client):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    counted = {"meld_mode": "cards", "meld_joker": 2, "meld_high": 8, "meld_points": 999}
    data = hand_data(client, match_id, "none", counted, {"hand_points": 35})
    response = preview(client, match_id, data)
    assert response.status_code == 200
    # Counted: 2 x 50 + 8 x 10; the points input of a counted block is left out.
    assert [side["total"] for side in response.get_json()["sides"]] == [180, -35]


def test_the_preview_says_why_a_hand_is_not_valid_yet(client, app):
    match_id = create_match(client, "classic")
    before = counts(app)
    went_out_bare = hand_data(client, match_id, 0, {"meld_points": 203}, {"red_threes": "x"})
    response = preview(client, match_id, went_out_bare)
    assert response.status_code == 422
    messages = [error["message"] for error in response.get_json()["errors"]]
    assert "Ann & Cid cannot have gone out: Classic Canasta needs 1 canasta, 0 recorded" in messages
    assert any("multiple of 5" in message for message in messages)
    assert any("Bob & Dee" in message and "red threes" in message.lower() for message in messages)
    nobody = hand_data(client, match_id, "none", {}, {})
    nobody.pop("out")
    response = preview(client, match_id, nobody)
    assert response.status_code == 422
    assert [e["message"] for e in response.get_json()["errors"]] == [
        "Choose who went out, or Nobody"
    ]
    assert counts(app) == before


def test_only_a_scorer_may_preview(app, client, anonymous_client):
    match_id = create_match(client, "classic")
    data = hand_data(client, match_id, "none", {"meld_points": 50}, {})
    response = preview(anonymous_client, match_id, data)
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login")
    assert preview(client, 999_999, data).status_code == 404


def test_the_form_points_its_preview_at_this_match(client):
    match_id = create_match(client, "classic")
    form = page(client.get(f"/matches/{match_id}/hands/new")).find("form", id="hand-form")
    assert form.attrs["data-preview"] == f"/matches/{match_id}/hands/preview"


def test_hostile_input_gets_messages_never_a_server_error(client):
    match_id = create_match(client, "classic")
    for value in ("99999999999999999999999", "-5", "1e3", "\x00", "x" * 100_000, " 7 "):
        data = hand_data(client, match_id, "none", {"meld_points": value}, {})
        data["s1_free_reason"] = value
        data["out"] = value if value != " 7 " else "none"
        response = preview(client, match_id, data)
        assert response.status_code in (200, 413, 422), (value[:20], response.status_code)
        if response.status_code == 422:
            assert all(error["message"] for error in response.get_json()["errors"])
