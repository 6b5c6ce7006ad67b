"""Random junk sent to the stateless endpoints gets 400 or 422, never a 500."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.rules import PRESETS
from scorekeeper.rules.hand import SIDE_FIELDS
from tests.support import app_config, over_http

json_scalars = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=8)
json_scalars |= st.floats(allow_nan=False, allow_infinity=False)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)
keys = st.sampled_from(
    ["natural", "mixed", "samba", "bolivia", "wild", "ace_to_king", "joker", "two", "low", "x", ""]
)
counts = st.integers(-3, 400) | json_values
side_records = st.dictionaries(
    st.sampled_from(SIDE_FIELDS) | st.text(max_size=5),
    st.booleans()
    | counts
    | st.dictionaries(keys, counts, max_size=3)
    | st.lists(
        st.dictionaries(
            st.sampled_from(["rule", "count", "points", "reason"]),
            st.sampled_from(["stock_out_of_turn", "x"]) | counts,
        ),
        max_size=2,
    ),
    max_size=6,
)
score_bodies = st.fixed_dictionaries(
    {"variant": st.sampled_from([*PRESETS, "nope"]) | json_values},
    optional={
        "sides": st.lists(side_records | json_values, max_size=4) | json_values,
        "options": st.dictionaries(
            st.sampled_from(
                [
                    "target",
                    "samba",
                    "meld_minimums",
                    "zz",
                    # RULES-2's options, every type of them.
                    "red_three_totals",
                    "going_out_needs",
                    "going_out_needs_by_deal",
                    "meld_minimums_by_deal",
                    "card_values",
                    "deals",
                    "packs",
                    "wild_canasta",
                    "incomplete_wild_penalty",
                    "canastas_to_go_out",
                    "going_out_needs_all_feet",
                    "tie_rule",
                ]
            ),
            json_values,
        )
        | json_values,
        "players": st.integers(-1, 4) | json_values,
        "deal": st.integers(-1, 20) | json_values,
    },
)


@pytest.fixture(scope="module")
def api_client(tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite"
    app = create_app(app_config(f"sqlite:///{path}"))
    return app.test_client()  # the stateless endpoints need no account


@over_http()
@given(body=score_bodies | json_values)
def test_junk_score_bodies_never_500(api_client, body):
    response = api_client.post(
        "/api/v1/score", data=json.dumps(body), content_type="application/json"
    )
    assert response.status_code in (200, 400, 422), response.get_data(as_text=True)
    assert response.is_json
    if response.status_code == 200:
        for side in response.json["sides"]:
            assert sum(line["points"] for line in side["lines"]) == side["total"]
            assert side["total"] % 5 == 0
    else:
        assert response.json["errors"]
        for error in response.json["errors"]:
            assert error["message"]


@over_http()
@given(raw=st.binary(max_size=64))
def test_raw_bytes_never_500(api_client, raw):
    response = api_client.post("/api/v1/score", data=raw, content_type="application/json")
    assert response.status_code in (400, 422)
    assert response.is_json


@over_http()
@given(
    key=st.sampled_from([*PRESETS, "nope"]),
    score=st.text(max_size=12),
    options=st.text(max_size=20) | json_values.map(json.dumps),
    deal=st.text(max_size=5),
    sides=st.text(max_size=5),
)
def test_junk_meld_requirement_queries_never_500(api_client, key, score, options, deal, sides):
    response = api_client.get(
        f"/api/v1/variants/{key}/meld-requirement",
        query_string={"score": score, "options": options, "deal": deal, "sides": sides},
    )
    assert response.status_code in (200, 400, 404, 422)
    assert response.is_json
