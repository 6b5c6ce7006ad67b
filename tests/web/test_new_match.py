"""Starting a match: the preset, the layout, players, the first dealer, house rules."""

from __future__ import annotations

import warnings

import pytest

from scorekeeper import words
from scorekeeper.models import Match
from scorekeeper.rules import PRESETS

from .helpers import (
    PLAYERS2,
    count,
    counts,
    create_match,
    csrf_token,
    field_errors,
    field_wrapper,
    input_value,
    page,
    record_ok,
    side_cards,
    submit_new_match,
    text_of,
    totals,
)


def test_pages_render_without_deprecation_warnings(client):
    """WTForms 3.3 deprecates tuple choices (removed in 3.4); the pages must not rely on them."""
    match_id = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert client.get("/matches/new/classic").status_code == 200
        match_id = create_match(client, "classic")
        assert client.get(f"/matches/{match_id}/hands/new").status_code == 200
    deprecations = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    assert deprecations == []


def test_choose_a_preset(client):
    response = client.get("/matches/new")
    assert response.status_code == 200
    items = page(response).find("ul", class_="presets").find_all("a")
    assert [a.attrs["href"] for a in items] == [f"/matches/new/{key}" for key in PRESETS]
    for link, preset in zip(items, PRESETS.values(), strict=True):
        assert link.find(class_="preset-name").text() == words.game_name(preset.key)
        assert link.find(class_="preset-desc").text() == words.game_description(preset.key)
        source = words.game_source(preset.key)
        assert link.find(class_="preset-source").text() == f"Source: {source}"


def test_home_links_to_new_match(client):
    root = page(client.get("/"))
    assert any(a.attrs.get("href") == "/matches/new" for a in root.find_all("a"))


def test_new_match_form(client):
    response = client.get("/matches/new/classic")
    assert response.status_code == 200
    root = page(response)
    assert root.find("h1").text() == "New match: Classic Canasta"
    assert words.game_description("classic") in text_of(response)
    # Players clockwise, partners alternating.
    labels = [root.find("label", for_=f"seat_{i}").text() for i in range(4)]
    assert labels == [
        "Team 1, player 1",
        "Team 2, player 1",
        "Team 1, player 2",
        "Team 2, player 2",
    ]
    for index in range(4):
        node = root.find("input", name=f"seat_{index}")
        assert node.attrs["list"] == "known-players"
    dealer = field_wrapper(root, "first_dealer")
    assert dealer.find("legend").text() == "Deals first"
    assert input_value(root, "first_dealer") == "0"
    assert [label.text() for label in dealer.find_all("label")] == labels
    # House rules are folded away, with the preset's defaults.
    details = field_wrapper(root, "opt_target").parent
    assert details.tag == "details"
    assert "open" not in details.attrs
    assert details.find("summary").text() == "House rules (optional)"
    assert input_value(root, "opt_target") == "5000"
    assert input_value(root, "opt_natural_canasta") == "500"
    assert input_value(root, "opt_red_threes_negative_when") == "no_canasta"
    # The one-player layout has no team names.
    assert root.find_all("input", name="side_name_0")


def test_unknown_variant_is_404(client):
    response = client.get("/matches/new/poker")
    assert response.status_code == 404
    assert "There is no game called 'poker'." in text_of(response)
    token = csrf_token(client.get("/matches/new/classic").get_data(as_text=True))
    assert client.post("/matches/new/poker", data={"csrf_token": token}).status_code == 404


def test_layouts_the_preset_allows(client):
    root = page(client.get("/matches/new/burraco"))
    nav = root.find("nav", class_="segmented")
    links = nav.find_all("a")
    assert [a.text() for a in links] == ["2 players, each on their own", "2 partnerships of 2"]
    assert links[0].attrs.get("aria-current") == "page"
    assert "aria-current" not in links[1].attrs
    assert [n.attrs["name"] for n in root.find_all("input", type="text")] == ["seat_0", "seat_1"]

    root = page(client.get("/matches/new/burraco?layout=2x2"))
    links = root.find("nav", class_="segmented").find_all("a")
    assert links[1].attrs.get("aria-current") == "page"
    seats = [n.attrs["name"] for n in root.find_all("input", type="text")]
    assert seats == ["seat_0", "seat_1", "seat_2", "seat_3", "side_name_0", "side_name_1"]
    # A preset with one layout shows no choice.
    assert not page(client.get("/matches/new/classic")).find_all("nav", class_="segmented")


def test_two_player_form_labels(client):
    root = page(client.get("/matches/new/classic-2p"))
    assert root.find("label", for_="seat_0").text() == "Player 1"
    assert root.find("label", for_="seat_1").text() == "Player 2"
    assert not root.find_all("input", name="side_name_0")


def test_start_a_match(client, app):
    response = submit_new_match(client, "classic", ["Ann", "Bob", "Cid", "Dee"], first_dealer=1)
    assert response.status_code == 303
    assert response.headers["Location"] == "/matches/1"
    scoreboard = client.get("/matches/1")
    assert [c.name for c in side_cards(scoreboard)] == ["Ann & Cid", "Bob & Dee"]
    assert "Seats clockwise: Ann, Bob, Cid, Dee" in text_of(scoreboard)
    assert "Bob deals." in text_of(scoreboard)
    assert counts(app)["player"] == 4


def test_team_names(client):
    match_id = create_match(client, "classic", team_names=("Sharks", "Jets"))
    response = client.get(f"/matches/{match_id}")
    root = page(response)
    cards = root.find_all("article", class_="side-card")
    assert [c.find("h2").text() for c in cards] == ["Sharks", "Jets"]
    # With a team name, the players are shown under it.
    assert [c.find("p", class_="players").text() for c in cards] == ["Ann & Cid", "Bob & Dee"]


def test_names_are_tidied(client):
    match_id = create_match(client, "classic-2p", ["  Ann   Lee ", "Bob"])
    response = client.get(f"/matches/{match_id}")
    assert [c.name for c in side_cards(response)] == ["Ann Lee", "Bob"]


def test_known_players_are_offered(client):
    create_match(client, "classic", ["dee", "Bob", "Cid", "Ann"])
    root = page(client.get("/matches/new/classic"))
    options = root.find("datalist", id="known-players").find_all("option")
    assert [o.attrs["value"] for o in options] == ["Ann", "Bob", "Cid", "dee"]


def test_known_player_is_reused(client, app):
    create_match(client, "classic-2p", PLAYERS2)
    create_match(client, "classic-2p", ["Ann", "Eve"])
    assert counts(app)["player"] == 3


def test_house_rules_are_frozen_into_the_match(client):
    match_id = create_match(
        client, "classic", options={"target": 3000, "natural_canasta": 600, "going_out": 150}
    )
    # A natural canasta now 600, going out 150: 600 + 200 + 150 = 950.
    record_ok(client, match_id, 0, {"canasta_natural": 1, "meld_points": 200}, {"meld_points": 50})
    response = client.get(f"/matches/{match_id}")
    assert totals(response) == [950, 50]
    # 950 * 100 // 3000 = 31
    assert side_cards(response)[0].progress == "31% of 3,000"
    rules = text_of(client.get(f"/matches/{match_id}/rules"))
    assert "Target 3,000" in rules
    assert "Natural canastas 600 each" in rules
    assert "Target 5,000" in text_of(client.get("/rules/classic"))


def test_choice_option(client):
    # Red threes minus only when nothing was melded at all.
    match_id = create_match(client, "classic", options={"red_threes_negative_when": "no_meld"})
    # Bob & Dee have no canasta but melded 50: their red three counts plus.
    # Ann & Cid: 100; Bob & Dee: 50 + 100 = 150.
    record_ok(client, match_id, "none", {"meld_points": 100}, {"meld_points": 50, "red_threes": 1})
    assert totals(client.get(f"/matches/{match_id}")) == [100, 150]


# --- errors -------------------------------------------------------------------------------


def test_missing_names(client, app):
    before = count(app, Match)
    response = submit_new_match(client, "classic", ["", "Bob", "Cid", ""], first_dealer=2)
    assert response.status_code == 422
    assert count(app, Match) == before
    assert field_errors(response, "seat_0") == ["Enter a name"]
    assert field_errors(response, "seat_3") == ["Enter a name"]
    assert field_errors(response, "seat_1") == []
    # What was entered is kept.
    assert input_value(response, "seat_1") == "Bob"
    assert input_value(response, "seat_2") == "Cid"
    assert input_value(response, "first_dealer") == "2"
    node = page(response).find("input", name="seat_0")
    assert node.attrs["aria-invalid"] == "true"


def test_same_player_twice(client, app):
    before = counts(app)
    response = submit_new_match(client, "classic", ["Ann", "Bob", "ann", "Dee"])
    assert response.status_code == 422
    assert counts(app) == before
    assert field_errors(response, "seat_2") == ["ann is already at the table"]
    assert field_errors(response, "seat_0") == []
    assert input_value(response, "seat_2") == "ann"


def test_name_too_long(client, app):
    before = counts(app)
    response = submit_new_match(client, "classic-2p", ["A" * 41, "Bob"])
    assert response.status_code == 422
    assert counts(app) == before
    assert len(field_errors(response, "seat_0")) == 1
    assert input_value(response, "seat_0") == "A" * 41


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("0", "Target score must be more than 0"),
        ("5001", "Target score must be a multiple of 5"),
        ("abc", "Enter a whole number"),
    ],
)
def test_bad_target(client, app, value, message):
    before = counts(app)
    response = submit_new_match(client, "classic", options={"target": value})
    assert response.status_code == 422
    assert counts(app) == before
    assert message in field_errors(response, "opt_target")
    assert input_value(response, "opt_target") == value
    # The folded house rules open to show the problem.
    details = field_wrapper(page(response), "opt_target").parent
    assert details.tag == "details"
    assert "open" in details.attrs


def test_bad_first_dealer(client, app):
    before = counts(app)
    response = submit_new_match(client, "classic", first_dealer=9)
    assert response.status_code == 422
    assert counts(app) == before
    assert field_errors(response, "first_dealer")


def test_bad_choice_option(client, app):
    before = counts(app)
    response = submit_new_match(
        client, "classic", options={"red_threes_negative_when": "sometimes"}
    )
    assert response.status_code == 422
    assert counts(app) == before
    assert field_errors(response, "opt_red_threes_negative_when")


def test_optional_points_option(client, app):
    before = counts(app)
    response = submit_new_match(client, "burraco", PLAYERS2, options={"semi_clean": 7})
    assert response.status_code == 422
    assert counts(app) == before
    assert field_errors(response, "opt_semi_clean") == [
        "Bonus for each semi-clean burraco (off unless set) must be a multiple of 5"
    ]


def test_meld_table_error_is_next_to_the_tier_it_names(client, app):
    before = counts(app)
    # Tier 3 (from 1500) moved below tier 2 (from 0).
    response = submit_new_match(client, "classic", options={"meld_2_from": -10})
    assert response.status_code == 422
    assert counts(app) == before
    table = page(response).find("fieldset", class_="meld-table")
    assert "Tier 3 must start above the tier before it" in table.text()
    assert input_value(response, "opt_meld_2_from") == "-10"
    errors = field_errors(response, "opt_meld_2_from")
    assert errors == ["Tier 3 must start above the tier before it"]


def test_a_team_named_after_known_players_uses_their_names(client):
    """ "ann" is the known player Ann: the team is called as its players are listed."""
    create_match(client, "classic", ["Ann", "Bob", "Cid", "Dee"])
    match_id = create_match(client, "classic", ["ann", "BOB", "Cid", "Dee"])
    board = text_of(client.get(f"/matches/{match_id}"))
    assert "Ann & Cid" in board
    assert "ann & Cid" not in board
