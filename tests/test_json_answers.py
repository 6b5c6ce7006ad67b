"""JSON answers are encoded by orjson and come out as the bytes Flask's encoder writes."""

from __future__ import annotations

import dataclasses
import enum
from datetime import UTC, datetime

import pytest
from flask import Flask
from flask.json.provider import DefaultJSONProvider

from scorekeeper.json_answers import FastJSONProvider


class Colour(enum.StrEnum):
    RED = "red"


@dataclasses.dataclass
class Point:
    x: int


def flask_answer(app: Flask, value: object) -> bytes:
    """What Flask's own provider writes for `value`, in the app's settings."""
    provider = DefaultJSONProvider(app)
    provider.sort_keys = False
    return provider.response(value).get_data()


@pytest.mark.parametrize(
    "value",
    [
        {"sides": [{"total": 2150, "lines": [{"rule": "x", "points": -5}]}], "warnings": []},
        {"b": 1, "a": [None, True, False, 0.25, 0.0001, 12.5]},  # key order kept
        {"name": "Zoë", "smile": "\U0001f600"},  # non-ASCII: Flask's \u escapes
        {"big": 2**70},  # past 64 bits: orjson refuses it
        {"broken": "a\ud800b"},  # a lone surrogate stored before text was checked
        {"at": datetime(2026, 11, 25, 20, 30, tzinfo=UTC)},  # an HTTP date, as Flask's
        {"colour": Colour.RED, "point": Point(3), 1: "int key"},
        [1, "two", {"three": 3}],
    ],
)
def test_an_answer_is_what_flask_writes(app, value):
    assert isinstance(app.json, FastJSONProvider)
    with app.test_request_context():
        assert app.json.response(value).get_data() == flask_answer(app, value)


def test_only_a_float_may_be_written_another_way(app):
    with app.test_request_context():
        assert app.json.response({"x": 1e-05}).get_json() == {"x": 1e-05}


def test_a_debug_app_indents_its_answers_as_flask_does(app):
    app.debug = True
    with app.test_request_context():
        assert b"\n  " in app.json.response({"a": [1]}).get_data()
        assert app.json.response({"a": [1]}).get_data() == flask_answer(app, {"a": [1]})


def test_the_api_answers_with_it(client):
    body = {"variant": "classic", "sides": [{"meld_points": 50}, {"meld_points": 70}]}
    answer = client.post("/api/v1/score", json=body)
    assert answer.status_code == 200
    assert answer.data.endswith(b"}\n")  # as Flask ends its answers
    assert b": " not in answer.data  # compact
    assert [side["total"] for side in answer.json["sides"]] == [50, 70]
