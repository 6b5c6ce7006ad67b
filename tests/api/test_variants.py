"""GET /api/v1/variants, /variants/<key> and /variants/<key>/meld-requirement."""

from __future__ import annotations

import json

import pytest

from tests.rules.helpers import ALL_PRESETS, NEW_PRESETS, SEATED_PRESETS


def test_list_has_every_preset_with_layouts_fields_and_options(client):
    response = client.get("/api/v1/variants")
    assert response.status_code == 200
    assert response.is_json
    variants = {v["key"]: v for v in response.json}
    assert set(variants) == {*ALL_PRESETS, *NEW_PRESETS, *SEATED_PRESETS}
    for variant in variants.values():
        assert variant["name"]
        assert variant["source"]
        assert variant["layouts"]
        assert "went_out" in variant["fields"]
        # classic-6p's target is per layout unless the option sets one.
        assert variant["options"]["target"] is None or variant["options"]["target"] > 0
    assert variants["classic"]["layouts"] == [
        {"sides": 2, "players_per_side": 2, "label": "2 partnerships of 2"}
    ]
    assert [lay["players_per_side"] for lay in variants["burraco"]["layouts"]] == [1, 2]
    assert variants["classic-3p"]["layouts"][0]["sides"] == 3
    assert "red_threes" not in variants["buraco"]["fields"]
    assert "took_extra_hand" in variants["buraco"]["fields"]
    assert "black_threes_in_hand" in variants["brazilian"]["fields"]
    assert "red_threes_in_hand" in variants["samba-fournier"]["fields"]
    assert variants["samba"]["options"]["target"] == 10000
    assert variants["burraco"]["options"]["semi_clean"] is None
    assert variants["classic"]["options"]["red_threes_negative_when"] == "no_canasta"
    assert "concealed_going_out" not in variants["samba"]["options"]


def test_detail_is_fully_resolved(client):
    response = client.get("/api/v1/variants/brazilian")
    assert response.status_code == 200
    rules = response.json["rules"]
    values = {card["key"]: card["value"] for card in rules["cards"]}
    assert values == {"joker": 50, "two": 20, "ace": 20, "high": 10, "low": 5, "black_three": 5}
    assert rules["deck"]["size"] == 162
    bonuses = {kind["key"]: kind["bonus"] for kind in rules["canasta_kinds"]}
    assert bonuses == {"natural": 500, "mixed": 300, "samba": 1500, "bolivia": 2000}
    assert rules["going_out"]["bonus"] == 100
    assert rules["going_out"]["concealed_bonus"] == 200
    assert rules["target"] == 10000
    labels = [tier["label"] for tier in response.json["meld_table"]]
    assert labels[-1] == "A natural canasta"


def test_detail_applies_options(client):
    options = json.dumps({"bolivia": 2500, "target": 12000})
    response = client.get("/api/v1/variants/brazilian", query_string={"options": options})
    assert response.status_code == 200
    bonuses = {kind["key"]: kind["bonus"] for kind in response.json["rules"]["canasta_kinds"]}
    assert bonuses["bolivia"] == 2500
    assert response.json["rules"]["target"] == 12000


def test_unknown_variant_is_a_json_404(client):
    response = client.get("/api/v1/variants/poker")
    assert response.status_code == 404
    assert response.is_json
    assert response.json["errors"][0]["field"] == "variant"


@pytest.mark.parametrize(
    ("key", "score", "points", "canasta"),
    [
        ("classic", -5, 15, None),
        ("classic", 0, 50, None),
        ("classic", 1495, 50, None),
        ("classic", 1500, 90, None),
        ("classic", 2995, 90, None),
        ("classic", 3000, 120, None),
        ("classic", 9000, 120, None),
        ("samba", 6995, 120, None),
        ("samba", 7000, 160, None),
        ("bolivia", 7000, 150, None),
        ("brazilian", 6995, 120, None),
        ("brazilian", 7000, 0, "any"),
        ("brazilian", 7995, 0, "any"),
        ("brazilian", 8000, 200, "any"),
        ("brazilian", 8995, 200, "any"),
        ("brazilian", 9000, 0, "natural"),
        ("buraco", 2000, 0, None),
        ("burraco", -100, 0, None),
    ],
)
def test_meld_requirement(client, key, score, points, canasta):
    response = client.get(f"/api/v1/variants/{key}/meld-requirement", query_string={"score": score})
    assert response.status_code == 200
    assert response.json["points"] == points
    assert response.json["canasta"] == canasta
    assert response.json["label"]


def test_meld_requirement_labels(client):
    url = "/api/v1/variants/samba/meld-requirement?score=1500"
    assert client.get(url).json == {"points": 90, "canasta": None, "label": "90 points"}
    url = "/api/v1/variants/brazilian/meld-requirement?score=9100"
    assert client.get(url).json["label"] == "A natural canasta"


def test_meld_requirement_with_options_table(client):
    table = [
        {"min_score": None, "points": 15},
        {"min_score": 0, "points": 50},
        {"min_score": 1500, "points": 90},
        {"min_score": 3000, "points": 120},
        {"min_score": 7000, "points": 150},
    ]
    response = client.get(
        "/api/v1/variants/samba/meld-requirement",
        query_string={"score": 7000, "options": json.dumps({"meld_minimums": table})},
    )
    assert response.status_code == 200
    assert response.json["points"] == 150


@pytest.mark.parametrize("score", ["", "abc", "1.5", "1e3", "99999999999999999999"])
def test_meld_requirement_rejects_bad_scores(client, score):
    response = client.get(
        "/api/v1/variants/classic/meld-requirement", query_string={"score": score}
    )
    assert response.status_code == 400
    assert response.json["errors"][0]["field"] == "score"


def test_meld_requirement_needs_a_score(client):
    response = client.get("/api/v1/variants/classic/meld-requirement")
    assert response.status_code == 400
    assert response.json["errors"][0]["field"] == "score"
    assert "depends on the side's score" in response.json["errors"][0]["message"]


@pytest.mark.parametrize(("deal", "points"), [(1, 50), (2, 90), (3, 120), (4, 150), (9, 150)])
def test_meld_requirement_by_deal_needs_no_score(client, deal, points):
    url = f"/api/v1/variants/hand-and-foot/meld-requirement?deal={deal}"
    response = client.get(url)
    assert response.status_code == 200, response.json
    assert response.json["points"] == points
    with_score = client.get(f"{url}&score=4000").json
    assert response.json == with_score


def test_meld_requirement_without_a_table_needs_no_score(client):
    response = client.get("/api/v1/variants/buraco/meld-requirement")
    assert response.status_code == 200, response.json
    assert response.json == {"points": 0, "canasta": None, "label": "No minimum"}


def test_meld_requirement_rejects_bad_options(client):
    url = "/api/v1/variants/classic/meld-requirement"
    response = client.get(url, query_string={"score": 0, "options": "{not json"})
    assert response.status_code == 400
    response = client.get(url, query_string={"score": 0, "options": '{"samba": 1500}'})
    assert response.status_code == 422
    assert response.json["errors"][0]["field"] == "options.samba"


def test_unknown_api_url_and_method_answer_json(client):
    response = client.get("/api/v1/nothing-here")
    assert response.status_code == 404
    assert response.is_json
    response = client.delete("/api/v1/variants")
    assert response.status_code == 405
    assert response.is_json


def test_new_presets_and_options_are_described_with_types_and_defaults(client):
    variants = {v["key"]: v for v in client.get("/api/v1/variants").json}
    hf = variants["hand-and-foot"]
    assert {"foot_points", "foot_cards", "feet_taken", "red_threes_in_hand"} <= set(hf["fields"])
    assert hf["options"]["deals"] == 4
    assert hf["options"]["meld_minimums_by_deal"] == [50, 90, 120, 150]
    assert hf["options"]["tie_rule"] == "draw"
    assert hf["options"]["going_out_needs"] == [
        {"count": 2, "kinds": ["natural"]},
        {"count": 2, "kinds": ["mixed"]},
        {"count": 1, "kinds": ["wild"]},
    ]
    assert [lay["players_per_side"] for lay in hf["layouts"]] == [2, 3, 2, 1, 1, 1, 1, 1]
    assert variants["classic"]["options"]["red_three_totals"] == {"4": 800}
    assert variants["classic"]["options"]["wild_canasta"] is None
    assert variants["brazilian"]["options"]["red_three_totals"] == {"5": 1000, "6": 1200}
    assert "red_three_totals" not in variants["samba-fournier"]["options"]
    assert variants["buraco-4p"]["options"]["card_values"]["joker"] == 20
    detail = client.get("/api/v1/variants/hand-and-foot").json
    types = {o["name"]: o for o in detail["option_details"]}
    assert types["deals"]["type"] == "int"
    assert (types["deals"]["minimum"], types["deals"]["maximum"]) == (1, 12)
    assert types["going_out_needs"]["type"] == "clauses"
    assert types["going_out_needs_by_deal"]["type"] == "clauses_list"
    assert types["meld_minimums_by_deal"]["type"] == "points_list"
    assert types["going_out_needs_all_feet"]["type"] == "bool"
    assert types["card_values"]["type"] == "card_values"
    assert types["game_end"]["choices"] == ["target", "deals"]
    classic = client.get("/api/v1/variants/classic").json
    assert {o["name"]: o["type"] for o in classic["option_details"]}["red_three_totals"] == "totals"


def test_meld_requirement_by_deal_and_by_table_size(client):
    base = "/api/v1/variants"
    deal3 = client.get(f"{base}/hand-and-foot/meld-requirement?score=0&deal=3")
    assert deal3.json["points"] == 120
    assert (
        client.get(f"{base}/classic-6p/meld-requirement?score=7500&sides=2").json["points"] == 150
    )
    assert (
        client.get(f"{base}/classic-6p/meld-requirement?score=7500&sides=3").json["points"] == 120
    )
    bad = client.get(f"{base}/classic-6p/meld-requirement?score=0&sides=4")
    assert bad.status_code == 400
    assert bad.json["errors"][0]["field"] == "sides"
    assert client.get(f"{base}/classic/meld-requirement?score=0&deal=x").status_code == 400
