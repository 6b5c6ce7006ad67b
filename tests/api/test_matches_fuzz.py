"""Junk sent to the match endpoints: never a 500, always JSON, a refused write changes nothing."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Match, Player
from scorekeeper.rules import PRESETS
from scorekeeper.rules.hand import SIDE_FIELDS
from tests.postgres import new_schema
from tests.support import app_config, app_on_new_database, over_http, signed_in

URL = "/api/v1/matches"
ERROR_STATUSES = {400, 404, 405, 409, 415, 422}

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=8,
)
big_ints = st.sampled_from([0, 5, 100, 2**31, 2**63, 10**20, -5, 7])
LONG_KEY_NAME = "\ufdfa" * 40  # 40 characters, 720 once case-folded
LONG_NAMES = [f"{'x' * 39}{n}" for n in range(6)]  # a side of three: a name over 120
names = (
    st.sampled_from(["Ann", "Bob", "Cy", "Di", "ann", "", "  ", "x" * 41, "Zoë", "a\u0000b"])
    | st.sampled_from([LONG_KEY_NAME, *LONG_NAMES, "\u00b2"])
    | st.text(max_size=10)
    | json_values
)
side_specs = (
    st.fixed_dictionaries(
        {},
        optional={
            "name": names,
            "players": st.lists(names, max_size=3) | json_values,
            "colour": json_values,
        },
    )
    | json_values
)
meld_tables = st.lists(
    st.fixed_dictionaries(
        {},
        optional={
            "min_score": st.none() | big_ints,
            "points": big_ints,
            "canasta": st.sampled_from([None, "any", "natural", "x"]),
        },
    ),
    max_size=3,
)
options = (
    st.dictionaries(
        st.sampled_from(
            [
                "target",
                "going_out",
                "natural_canasta",
                "samba",
                "red_three",
                "semi_clean",
                "red_threes_negative_when",
                "meld_minimums",
                "zz",
            ]
        ),
        big_ints | json_values | meld_tables | st.sampled_from(["no_meld", "no_canasta"]),
        max_size=3,
    )
    | json_values
)
create_bodies = (
    st.fixed_dictionaries(
        {"variant": st.sampled_from([*PRESETS, "nope"]) | json_values},
        optional={
            "sides": st.lists(side_specs, max_size=4) | json_values,
            "options": options,
            "first_dealer": st.integers(-2, 5) | names,
            "zz": json_values,
        },
    )
    | json_values
)

counts = st.integers(-2, 12) | st.sampled_from([2**63, 10**20]) | json_values
points = st.integers(-2, 100).map(lambda n: n * 5) | st.integers(-10, 10**7) | json_values
side_records = st.fixed_dictionaries(
    {},
    optional={
        "went_out": st.booleans() | json_values,
        "concealed": st.booleans(),
        "canastas": st.dictionaries(
            st.sampled_from(["natural", "mixed", "samba", "bolivia", "ace_to_ace", "x"]),
            counts,
            max_size=3,
        )
        | json_values,
        "meld_points": points,
        "hand_points": points,
        "meld_cards": st.dictionaries(st.sampled_from(["joker", "two", "low", "x"]), counts),
        "red_threes": counts,
        "took_extra_hand": st.booleans() | json_values,
        "penalties": st.lists(
            st.dictionaries(
                st.sampled_from(["rule", "count", "points", "reason"]),
                st.sampled_from(["stock_out_of_turn", "late"]) | counts,
            ),
            max_size=2,
        ),
        "went_ot": json_values,
    },
) | st.dictionaries(st.sampled_from(SIDE_FIELDS) | st.text(max_size=5), json_values, max_size=4)

# Two tables the writes are tried on, with valid hands to set them up.
TABLES = {
    "classic-2p": {
        "sides": [{"players": ["Ann"]}, {"players": ["Bob"]}],
        "quiet": [{}, {}],
        "out": [
            {"went_out": True, "canastas": {"natural": 2}, "meld_points": 100},
            {"meld_points": 50, "hand_points": 20},
        ],
    },
    "burraco": {
        "sides": [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}],
        "quiet": [{"took_extra_hand": True}, {"took_extra_hand": True}],
        "out": [
            {"went_out": True, "canastas": {"natural": 1}, "meld_points": 100},
            {"took_extra_hand": False, "hand_points": 35},
        ],
    },
}
TABLES["burraco"]["out"][0]["took_extra_hand"] = True
TABLES["classic-2p"]["other"] = [
    {"meld_points": 100, "hand_points": 5, "red_threes": 2},
    {"went_out": True, "concealed": True, "canastas": {"mixed": 2}, "meld_points": 200},
]
TABLES["burraco"]["other"] = [
    {"took_extra_hand": True, "canastas": {"mixed": 1}, "meld_points": 70, "hand_points": 25},
    {"went_out": True, "took_extra_hand": True, "canastas": {"natural": 2}, "meld_points": 140},
]

hand_sides = (
    st.lists(side_records, min_size=1, max_size=3)
    | st.sampled_from([t[k] for t in TABLES.values() for k in ("quiet", "out")])
    | json_values
)
write_bodies = (
    st.fixed_dictionaries(
        {},
        optional={
            "sides": hand_sides,
            "version": st.integers(-1, 4) | json_values,
            "number": st.integers(-1, 5) | json_values,
            "extra": json_values,
        },
    )
    | json_values
)
hand_numbers = (
    st.integers(1, 3).map(str)
    | st.integers(-3, 6).map(str)
    | st.sampled_from([2**31, 2**63, 10**20, "01", "+1", "1.0"]).map(str)
    | st.text(max_size=4).map(lambda s: quote(s, safe=""))
)
content_types = st.sampled_from(
    ["application/json", "text/plain", "application/x-www-form-urlencoded", ""]
)


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory):
    app = app_on_new_database(tmp_path_factory.mktemp("match-fuzz") / "fuzz.sqlite")
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="module")
def fuzz_client(fuzz_app):
    return signed_in(fuzz_app)


def rows(app):
    with app.app_context():
        return db.session.query(Match).count(), db.session.query(Player).count()


def assert_error_answer(response):
    assert response.status_code != 500, response.get_data(as_text=True)
    assert response.status_code in ERROR_STATUSES, response.get_data(as_text=True)
    assert response.is_json, response.get_data(as_text=True)
    errors = response.json["errors"]
    assert errors
    for error in errors:
        assert set(error) >= {"side", "field", "message"}
        assert error["message"]


def expected_result(target, totals):
    if max(totals) < target:
        return False, None
    best = max(totals)
    leaders = [i for i, total in enumerate(totals) if total == best]
    return (False, None) if len(leaders) > 1 else (True, leaders[0])


def assert_consistent(state):
    assert [h["number"] for h in state["hands"]] == list(range(1, len(state["hands"]) + 1))
    running = [0] * len(state["sides"])
    for hand in state["hands"]:
        assert len(hand["sides"]) == len(running)
        for seat, hand_side in enumerate(hand["sides"]):
            assert sum(line["points"] for line in hand_side["lines"]) == hand_side["total"]
            running[seat] += hand_side["total"]
    assert [s["total"] for s in state["sides"]] == running
    finished, winner = expected_result(state["rules"]["target"], running)
    assert state["finished"] is finished
    assert state["winner"] == winner


@over_http()
@given(body=create_bodies)
def test_junk_new_matches_never_500(fuzz_app, fuzz_client, body):
    before = rows(fuzz_app)
    response = fuzz_client.post(URL, data=json.dumps(body), content_type="application/json")
    event(f"create {response.status_code}")
    if response.status_code != 201:
        assert_error_answer(response)
        assert response.status_code in (400, 422)
        assert rows(fuzz_app) == before
        return
    state = response.json
    assert response.headers["Location"].endswith(f"{URL}/{state['id']}")
    assert state["variant"] == body["variant"]
    assert state["hands"] == []
    assert state["finished"] is False
    # An accepted match can be played: a hand where nobody scores is always valid.
    quiet = [{"took_extra_hand": True} if PRESETS[state["variant"]].extra_hand else {}]
    answer = fuzz_client.post(
        f"{URL}/{state['id']}/hands", json={"sides": quiet * len(state["sides"])}
    )
    assert answer.status_code == 201, answer.get_data(as_text=True)
    assert_consistent(answer.json)


@over_http()
@given(
    raw=st.binary(max_size=40),
    content_type=content_types,
    method=st.sampled_from(["POST", "PUT"]),
)
def test_raw_bytes_to_the_match_endpoints_never_500(
    fuzz_app, fuzz_client, raw, content_type, method
):
    created = fuzz_client.post(
        URL, json={"variant": "classic-2p", "sides": TABLES["classic-2p"]["sides"]}
    )
    match_id = created.json["id"]
    fuzz_client.post(f"{URL}/{match_id}/hands", json={"sides": TABLES["classic-2p"]["quiet"]})
    before = fuzz_client.get(f"{URL}/{match_id}").json
    count = rows(fuzz_app)
    for path in (URL, f"{URL}/{match_id}/hands", f"{URL}/{match_id}/hands/1"):
        verb = "PUT" if path.endswith("/1") else method if path != URL else "POST"
        response = fuzz_client.open(path, method=verb, data=raw, content_type=content_type)
        if response.status_code in (200, 201):  # the bytes happened to be a valid write
            return
        assert_error_answer(response)
    assert rows(fuzz_app) == count
    assert fuzz_client.get(f"{URL}/{match_id}").json == before


def start_table(client, table, finished):
    spec = TABLES[table]
    body = {"variant": table, "sides": spec["sides"]}
    if finished:
        body["options"] = {"target": 300}
    created = client.post(URL, json=body)
    assert created.status_code == 201, created.json
    match_id = created.json["id"]
    for hand in (spec["quiet"], spec["out"]):
        response = client.post(f"{URL}/{match_id}/hands", json={"sides": hand})
        assert response.status_code == 201, response.json
    state = client.get(f"{URL}/{match_id}").json
    assert state["finished"] is finished
    return match_id, state


@over_http()
@given(
    table=st.sampled_from(sorted(TABLES)),
    finished=st.booleans(),
    method=st.sampled_from(["POST", "PUT", "DELETE"]),
    number=hand_numbers,
    data=st.data(),
)
def test_junk_writes_to_a_match_never_500_and_refusals_change_nothing(
    fuzz_client, table, finished, method, number, data
):
    valid = st.sampled_from([TABLES[table][k] for k in ("quiet", "out", "other")])
    likely = st.fixed_dictionaries(
        {"sides": valid | hand_sides},
        optional={"version": st.integers(1, 3) | json_values, "number": st.integers(1, 4)},
    )
    body = data.draw(st.fixed_dictionaries({"sides": valid}) | likely | write_bodies, label="body")
    match_id, before = start_table(fuzz_client, table, finished)
    path = f"{URL}/{match_id}/hands" + ("" if method == "POST" else f"/{number}")
    kwargs = (
        {} if method == "DELETE" else {"data": json.dumps(body), "content_type": "application/json"}
    )
    response = fuzz_client.open(path, method=method, **kwargs)
    event(f"{method} {response.status_code}")
    after = fuzz_client.get(f"{URL}/{match_id}").json
    if response.status_code >= 400:
        assert_error_answer(response)
        assert after == before
        return
    assert response.status_code == (201 if method == "POST" else 200)
    assert response.is_json
    answer = dict(response.json)
    for warning in answer.pop("warnings", []):  # an unlikely hand is saved, and said so
        assert set(warning) >= {"side", "field", "message"}
    assert answer == after
    assert_consistent(after)
    change = {"POST": 1, "PUT": 0, "DELETE": -1}[method]
    assert len(after["hands"]) == len(before["hands"]) + change
    if method == "POST":
        assert not before["finished"]
        assert after["hands"][:2] == before["hands"]
        assert [s["input"] for s in after["hands"][-1]["sides"]] == body["sides"]
    elif method == "PUT":
        changed = int(number) - 1
        assert [s["input"] for s in after["hands"][changed]["sides"]] == body["sides"]
    else:
        gone = int(number) - 1
        assert after["hands"][:gone] == before["hands"][:gone]


@over_http()
@given(
    match_id=st.integers(10**6, 2**80).map(str)
    | st.integers(-(2**70), -1).map(str)
    | st.text(min_size=1, max_size=6)
    .filter(lambda s: not any(c.isdigit() for c in s))
    .map(lambda s: quote(s, safe="")),
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
    body=write_bodies,
)
def test_weird_match_numbers_are_a_json_404(fuzz_client, match_id, method, body):
    path = f"{URL}/{match_id}"
    if method != "GET":
        path += "/hands" + ("/1" if method != "POST" else "")
    response = fuzz_client.open(
        path, method=method, data=json.dumps(body), content_type="application/json"
    )
    assert response.status_code in (404, 405), (path, response.get_data(as_text=True))
    assert response.is_json


def deep(depth: int) -> str:
    """JSON text of objects `depth` deep (written out: `json` cannot encode that deep)."""
    return '{"a": ' * depth + "1" + "}" * depth


SIX = "classic-6p"
# Each class of input that once ended in a 500, as bodies for the match endpoints.
CLASS_BODIES = {
    "name key past its column": {
        "variant": "classic",
        "sides": [{"players": [LONG_KEY_NAME, "B"]}, {"players": ["C", "D"]}],
    },
    "six long names": {
        "variant": SIX,
        "sides": [{"players": LONG_NAMES[:3]}, {"players": LONG_NAMES[3:]}],
    },
    "huge numbers": {"variant": "classic", "sides": TABLES["classic-2p"]["sides"], "group": 2**63},
    "digit int() refuses": {"variant": "classic", "first_dealer": "\u00b2", "sides": [{}, {}]},
    "nulls": {"sides": [{"meld_points": 50, "canastas": None}, {"penalties": None}]},
}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def both_clients(request, tmp_path_factory):
    if request.param == "sqlite":
        app = app_on_new_database(tmp_path_factory.mktemp("classes") / "classes.sqlite")
        yield app, signed_in(app)
        with app.app_context():
            db.engine.dispose()
        return
    with new_schema(request.getfixturevalue("postgres_url")) as (_, url):
        app = create_app(app_config(url))
        with app.app_context():
            db.create_all()
        yield app, signed_in(app)
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.mark.parametrize("name", sorted(CLASS_BODIES))
def test_each_class_that_once_failed_is_refused_or_taken_never_500(both_clients, name):
    app, client = both_clients
    body = CLASS_BODIES[name]
    before = rows(app)
    created = client.post(URL, json=body)
    assert created.status_code != 500
    if name == "six long names":  # taken: the side's name is cut to fit its column
        assert created.status_code == 201, created.get_data(as_text=True)
        side_names = [side["name"] for side in created.json["sides"]]
        assert all(len(side_name) <= 120 for side_name in side_names)
        assert side_names[0].startswith(LONG_NAMES[0])
        return
    assert_error_answer(created)
    assert rows(app) == before
    match = client.post(URL, json={"variant": "classic-2p", "sides": TABLES["classic-2p"]["sides"]})
    match_id = match.json["id"]
    for path in (f"{URL}/{match_id}/hands", f"{URL}/{match_id}/hands/1"):
        method = "POST" if path.endswith("hands") else "PUT"
        answer = client.open(path, method=method, json=body)
        assert_error_answer(answer)
    for path in (
        f"{URL}/{2**63}",
        f"{URL}/{match_id}/hands/{2**63}",
        f"{URL}/{match_id}/links/{2**63}",
    ):
        for method in ("GET", "PUT", "DELETE"):
            answer = client.open(path, method=method, json=body)
            assert answer.status_code in (404, 405), (method, path)
            assert answer.is_json


def test_options_nested_990_deep_are_refused_on_both_databases(both_clients):
    app, client = both_clients
    before = rows(app)
    for body in (
        f'{{"variant": "classic", "options": {deep(990)}, "sides": []}}',
        f'{{"variant": "classic", "options": {{"target": {deep(990)}}}}}',
    ):
        answer = client.post(URL, data=body, content_type="application/json")
        assert_error_answer(answer)
    doc = client.get("/api/v1/export").json
    doc["groups"] = [{"name": "g", "players": [], "matches": ["DEEP"]}]
    raw = json.dumps(doc).replace('"DEEP"', deep(990))
    answer = client.post("/api/v1/import", data=raw, content_type="application/json")
    # Refused as a body too deep to read (400), or read and refused as an export (422).
    assert answer.status_code in (400, 422)
    message = answer.json["errors"][0]["message"]
    assert "deeper than" in message or "too deep to be read" in message
    assert rows(app) == before
