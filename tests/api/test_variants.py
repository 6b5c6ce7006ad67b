"""GET /api/v1/variants, /variants/<key> and /variants/<key>/meld-requirement."""

from __future__ import annotations

import json

import pytest

from tests.rules.helpers import ALL_PRESETS


def test_list_has_every_preset_with_layouts_fields_and_options(client):
    response = client.get("/api/v1/variants")
    assert response.status_code == 200
    assert response.is_json
    variants = {v["key"]: v for v in response.json}
    assert set(variants) == set(ALL_PRESETS)
    for variant in variants.values():
        assert variant["name"]
        assert variant["source"]
        assert variant["layouts"]
        assert "went_out" in variant["fields"]
        assert variant["options"]["target"] > 0
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
