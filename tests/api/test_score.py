"""POST /api/v1/score: totals for every preset, count mode, options, rejections."""

from __future__ import annotations

import pytest

from scorekeeper import words
from scorekeeper.services.hands import evaluate_request
from tests.rules.helpers import HF_OTHER, HF_OUT
from tests.rules.worked_hands import EACH_WORKED_HAND, WORKED_HANDS

URL = "/api/v1/score"


def score(client, variant, sides, **extra):
    return client.post(URL, json={"variant": variant, "sides": sides, **extra})


def totals(response):
    assert response.status_code == 200, response.json
    for side in response.json["sides"]:
        assert sum(line["points"] for line in side["lines"]) == side["total"]
    return [side["total"] for side in response.json["sides"]]


def errors(response):
    assert response.status_code == 422, response.json
    return {(e["side"], e["field"]) for e in response.json["errors"]}


@pytest.mark.parametrize("hand", EACH_WORKED_HAND)
def test_each_worked_hand_totals_as_the_engine_does(client, hand):
    """Each preset's worked hands (tests/rules/worked_hands.py, which the engine's tests score)."""
    assert totals(client.post(URL, json=hand.body())) == hand.totals


ANSWERED = [(hand.preset, hand.players, hand.sides) for hand in WORKED_HANDS.values()] + [
    (  # lines with cards and reasons; a free penalty whose reason is not ASCII
        "classic",
        None,
        [
            {"canastas": {"natural": 1}, "meld_cards": {"joker": 2, "ace": 5}, "red_threes": 2},
            {
                "meld_points": 50,
                "hand_cards": {"high": 3},
                "red_threes": 1,
                "penalties": [{"points": 100, "reason": "Zoë showed a card"}],
            },
        ],
    ),
]


@pytest.mark.parametrize(("variant", "players", "sides"), ANSWERED)
def test_the_answer_is_each_sides_score_in_words(app, client, variant, players, sides):
    """The answer holds each side's score in words (`words.scored`)."""
    body = {"variant": variant, "sides": sides}
    if players is not None:
        body["players"] = players
    response = client.post(URL, json=body)
    assert response.status_code == 200, response.json
    evaluation = evaluate_request(variant, None, sides, players)
    with app.test_request_context():
        vocabulary = evaluation.rules.vocabulary
        documented = {
            "sides": [words.scored(side, vocabulary) for side in evaluation.scores],
            "warnings": [warning.to_dict() for warning in evaluation.warnings],
        }
    assert response.json == documented


def test_lines_name_rules_and_labels(client):
    sides = WORKED_HANDS["classic concealed, all four red threes"].sides
    response = score(client, "classic", sides)
    lines = response.json["sides"][0]["lines"]
    by_rule = {line["rule"]: line for line in lines}
    assert by_rule["canasta.natural"] == {
        "rule": "canasta.natural",
        "label": "1 natural canasta x 500",
        "points": 500,
        "key": "line.canastas",
        "params": {"kind": "natural", "count": 1, "bonus": 500},
    }
    assert by_rule["going_out.concealed"]["points"] == 200
    assert by_rule["red_threes"]["points"] == 800


def test_count_mode_uses_the_value_set(client):
    sides = [
        {
            "went_out": True,
            "canastas": {"mixed": 1},
            # 50 + 2 x 20 + 3 x 20 + 10 x 10 + 6 x 5 = 280
            "meld_cards": {"joker": 1, "two": 2, "ace": 3, "high": 10, "low": 6},
        },
        {"hand_cards": {"joker": 1, "black_three": 1}},  # -(50 + 5)
    ]
    response = score(client, "classic", sides)
    assert totals(response) == [300 + 280 + 100, -55]
    meld_line = response.json["sides"][0]["lines"][1]
    assert meld_line["rule"] == "meld_points"
    assert "1 joker x 50" in meld_line["label"]


def test_count_mode_in_buraco_values(client):
    sides = [
        # buraco: twos 10, aces 15; 7 cards: 1 two, 1 ace, 5 low = 10 + 15 + 25 = 50
        {
            "went_out": True,
            "took_extra_hand": True,
            "canastas": {"natural": 1},
            "meld_cards": {"two": 1, "ace": 1, "low": 5},
        },
        {"took_extra_hand": True, "hand_cards": {"two": 2, "ace": 1}},  # -(20 + 15)
    ]
    assert totals(score(client, "buraco", sides)) == [100 + 50 + 100, -35]


def test_options_change_the_score(client):
    sides = [
        {"went_out": True, "canastas": {"natural": 1}, "meld_points": 100, "red_threes": 1},
        {"meld_points": 100},
    ]
    plain = totals(score(client, "classic", sides))
    assert plain == [500 + 100 + 100 + 100, 100]
    options = {"natural_canasta": 600, "going_out": 150, "red_three": 150}
    assert totals(score(client, "classic", sides, options=options)) == [600 + 100 + 150 + 150, 100]


def test_no_meld_option_keeps_red_threes_positive_with_a_meld(client):
    sides = [{"meld_points": 60, "red_threes": 2}, {"meld_points": 0, "red_threes": 1}]
    assert totals(score(client, "classic", sides)) == [60 - 200, -100]
    options = {"red_threes_negative_when": "no_meld"}
    assert totals(score(client, "classic", sides, options=options)) == [60 + 200, -100]


def test_rejections_name_side_and_field(client):
    response = score(
        client,
        "samba",
        [
            {"went_out": True, "canastas": {"natural": 1}, "meld_points": 50},
            {"went_out": True, "canastas": {"natural": 2, "bolivia": 1}, "meld_points": 100},
        ],
    )
    found = errors(response)
    assert (0, "went_out") in found
    assert (1, "canastas.bolivia") in found
    assert (None, "went_out") in found
    messages = [e["message"] for e in response.json["errors"]]
    assert "Team 1 cannot have gone out: Samba needs 2 canastas, 1 recorded" in messages


@pytest.mark.parametrize(
    ("variant", "sides", "expected"),
    [
        ("classic", [{"canastas": {"samba": 1}, "meld_points": 100}, {}], (0, "canastas.samba")),
        (
            "buraco",
            [{"took_extra_hand": True, "red_threes": 1}, {"took_extra_hand": True}],
            (0, "red_threes"),
        ),
        (
            "buraco",
            [{"took_extra_hand": True, "meld_cards": {"joker": 1}}, {"took_extra_hand": True}],
            (0, "meld_cards.joker"),
        ),
        ("classic", [{"meld_points": -5}, {}], (0, "meld_points")),
        ("classic", [{"meld_points": 12}, {}], (0, "meld_points")),
        ("classic", [{"red_threes": 1.5}, {}], (0, "red_threes")),
        ("classic", [{}, {"meld_points": 10, "meld_cards": {"low": 2}}], (1, "meld_cards")),
        ("classic", [{"concealed": True}, {}], (0, "concealed")),
        ("classic", [{"red_threes": 3}, {"red_threes": 2}], (None, "red_threes")),
        (
            "classic",
            [{"meld_cards": {"joker": 3}}, {"hand_cards": {"joker": 2}}],
            (None, "meld_cards.joker"),
        ),
        ("classic", [{"canastas": {"natural": 2}, "meld_points": 65}, {}], (0, "meld_points")),
        ("brazilian", [{"canastas": {"bolivia": 1}, "meld_points": 135}, {}], (0, "meld_points")),
        ("classic", [{}, {}, {}], (None, "sides")),
        (
            "classic-2p",
            [
                {
                    "went_out": True,
                    "canastas": {"natural": 2},
                    "meld_points": 100,
                    "hand_points": 10,
                },
                {},
            ],
            (0, "hand_points"),
        ),
        ("brazilian", [{"hand_cards": {"black_three": 1}}, {}], (0, "hand_cards.black_three")),
        ("buraco", [{}, {"took_extra_hand": False}], (0, "took_extra_hand")),
        ("classic", [{"penalties": [{"rule": "stock_out_of_turn"}]}, {}], (0, "penalties.0.rule")),
        (
            "classic",
            [{"penalties": [{"points": 12, "reason": "x"}]}, {}],
            (0, "penalties.0.points"),
        ),
        (
            "burraco",
            [
                {
                    "went_out": True,
                    "took_extra_hand": False,
                    "canastas": {"natural": 1},
                    "meld_points": 100,
                },
                {"took_extra_hand": True},
            ],
            (0, "went_out"),
        ),
    ],
)
def test_each_rejection(client, variant, sides, expected):
    assert expected in errors(score(client, variant, sides))


def test_burraco_one_player_check_applies_with_players_1(client):
    sides = [
        {
            "went_out": True,
            "took_extra_hand": True,
            "canastas": {"natural": 1},
            "meld_points": 100,
            "hand_points": 10,
        },
        {"took_extra_hand": True},
    ]
    assert (0, "hand_points") in errors(score(client, "burraco", sides, players=1))
    assert totals(score(client, "burraco", sides, players=2)) == [200 + 100 + 100 - 10, -0]


def test_bad_players_value(client):
    sides = [{"took_extra_hand": True}, {"took_extra_hand": True}]
    assert (None, "players") in errors(score(client, "burraco", sides, players=3))


def test_options_and_hand_problems_reported_together(client):
    response = score(client, "classic", [{"meld_points": 3}, {}], options={"target": "lots"})
    assert {(0, "meld_points"), (None, "options.target")} <= errors(response)


@pytest.mark.parametrize(
    "body",
    [
        {"sides": [{}, {}]},
        {"variant": "poker", "sides": [{}, {}]},
        {"variant": 7, "sides": [{}, {}]},
    ],
)
def test_unknown_or_missing_variant_is_422(client, body):
    response = client.post(URL, json=body)
    assert response.status_code == 422
    assert response.json["errors"][0]["field"] == "variant"


def test_unknown_top_level_key_is_named(client):
    body = {"variant": "classic", "sides": [{}, {}], "option": {}}
    assert (None, "option") in errors(client.post(URL, json=body))


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        ("not json", "application/json"),
        ("[1, 2]", "application/json"),
        ('"text"', "application/json"),
        ("", "application/json"),
        ("[" * 5000, "application/json"),
        ("variant=classic", "application/x-www-form-urlencoded"),
    ],
)
def test_bad_bodies_are_400_json(client, data, content_type):
    response = client.post(URL, data=data, content_type=content_type)
    assert response.status_code == 400
    assert response.is_json
    assert response.json["errors"][0]["message"]


def test_no_csrf_token_needed_even_with_csrf_on(app, client):
    assert app.config.get("WTF_CSRF_ENABLED", True) is True
    hand = WORKED_HANDS["samba, all six red threes"]
    assert totals(score(client, "samba", hand.sides)) == hand.totals


# --- what cannot have happened, and what is only unlikely ------------------------


def test_a_meld_beyond_the_deck_value_is_422_naming_side_field_and_deck_value(client):
    body = {
        "variant": "classic",
        "sides": [
            {"went_out": True, "canastas": {"natural": 1}, "meld_points": 4200},
            {"meld_points": 120, "hand_points": 85},
        ],
    }
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 422
    [error] = response.json["errors"]
    assert (error["side"], error["field"]) == (0, "meld_points")
    assert "1,180" in error["message"]


def test_an_unlikely_hand_is_scored_with_a_warning(client):
    body = {
        "variant": "classic",
        "sides": [
            {"went_out": True, "canastas": {"natural": 1}, "meld_points": 200},
            {"meld_points": 120},
        ],
    }
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 200
    assert [s["total"] for s in response.json["sides"]] == [800, 120]
    [warning] = response.json["warnings"]
    assert (warning["side"], warning["field"]) == (1, "hand_points")
    assert "nothing left in hand" in warning["message"]


def test_a_usual_hand_has_no_warnings(client):
    body = {
        "variant": "classic",
        "sides": [
            {"went_out": True, "canastas": {"natural": 1}, "meld_points": 200},
            {"meld_points": 120, "hand_points": 85},
        ],
    }
    assert client.post("/api/v1/score", json=body).json["warnings"] == []


# --- RULES-2: the new presets and options ------------------------------------------------


def test_hand_and_foot_through_the_api(client):
    out, other = HF_OUT, HF_OTHER
    assert totals(score(client, "hand-and-foot", [out, other])) == [4000, 595]
    by_deal = {"going_out_by_deal": [100, 200, 300, 400]}
    response = score(client, "hand-and-foot", [out, other], options=by_deal, deal=4)
    assert totals(response) == [4300, 595]
    lines = response.json["sides"][1]["lines"]
    foot = next(line for line in lines if line["rule"] == "foot_points")
    assert foot["key"] == "line.foot_points"
    assert foot["label"] == "Cards in feet never picked up"
    no_foot = {**out, "feet_taken": 0}
    assert errors(score(client, "hand-and-foot", [no_foot, other])) == {(0, "went_out")}
    assert errors(score(client, "hand-and-foot", [out, {**other, "feet_taken": 3}])) == {
        (1, "feet_taken")
    }
    assert errors(score(client, "hand-and-foot", [out, other], deal=0)) == {(None, "deal")}


def test_classic_6p_and_buraco_4p_through_the_api(client):
    six = [
        {"went_out": True, "canastas": {"natural": 1, "mixed": 1}, "meld_points": 300,
         "red_threes": 5},
        {"meld_points": 50, "hand_points": 30},
        {},
    ]  # fmt: skip
    assert totals(score(client, "classic-6p", six, players=2)) == [2200, 20, 0]
    assert errors(score(client, "classic-6p", six, players=3)) == {(None, "sides")}
    buraco = [
        {"went_out": True, "took_extra_hand": True, "canastas": {"natural": 1, "ace_to_king": 1},
         "meld_points": 200},
        {"took_extra_hand": False, "canastas": {"mixed": 1}, "meld_points": 80,
         "hand_points": 45},
    ]  # fmt: skip
    assert totals(score(client, "buraco-4p", buraco)) == [1000, 35]


def test_new_options_and_their_rejections_through_the_api(client):
    sides = [{"red_threes": 4, "canastas": {"mixed": 1}, "meld_points": 50}, {}]
    options = {"red_three": 150, "red_three_totals": {"4": 1000}}
    assert totals(score(client, "classic", sides, options=options)) == [1350, 0]
    wild = [{"canastas": {"wild": 1}, "meld_points": 140}, {}]
    assert errors(score(client, "classic", wild)) == {(0, "canastas.wild")}
    assert totals(score(client, "classic", wild, options={"wild_canasta": True})) == [1140, 0]
    both = {"canastas_to_go_out": 2, "going_out_needs": [{"count": 1, "kinds": ["natural"]}]}
    assert (None, "options.canastas_to_go_out") in errors(
        score(client, "classic", [{}, {}], options=both)
    )
    unknown_kind = {"going_out_needs": [{"count": 1, "kinds": ["bolivia"]}]}
    assert errors(score(client, "classic", [{}, {}], options=unknown_kind)) == {
        (None, "options.going_out_needs")
    }
    assert errors(score(client, "classic", [{}, {}], options={"red_three_totals": {"9": 5}})) == {
        (None, "options.red_three_totals")
    }


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b'{"variant": "classic", "sides": [{"x\\u0000": 1}, {}]}', "NUL"),
        (b'{"variant": "classic\\ud800", "sides": [{}, {}]}', "surrogate"),
        (
            '{"variant": "classic\ud800", "sides": [{}, {}]}'.encode("utf-8", "surrogatepass"),
            "surrogate",
        ),
        ('{"variant": "classic\\u0000", "sides": [{}, {}]}'.encode("utf-16"), "NUL"),
        ('{"variant": "classic\\ud800", "sides": [{}, {}]}'.encode("utf-32"), "surrogate"),
    ],
    ids=["escaped NUL in a key", "escaped surrogate", "raw surrogate", "UTF-16", "UTF-32"],
)
def test_text_that_cannot_be_stored_is_refused_however_it_is_written(client, data, why):
    """However the text is written, the answer is a 400 that names what is wrong."""
    response = client.post("/api/v1/score", data=data, content_type="application/json")
    assert response.status_code == 400, response.json
    [error] = response.json["errors"]
    assert why in error["message"]
