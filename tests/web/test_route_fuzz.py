"""Junk sent to every route of the app: odd ids, query strings, form fields, JSON bodies
and headers, signed in or not, with and without CSRF tokens required, on SQLite and
PostgreSQL. Never a 500; the API answers its errors in JSON.

Besides the random junk, each class of input that once ended in a 500 is sent to every
route, every method, on both databases (`CLASSES`): ids past what a database holds, the
last date there is, digits `int()` refuses, a line break in `next`, JSON nested 990 deep,
a name whose case-folded key outgrows its column, a side of three long names."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.postgres import new_schema
from tests.support import app_config, app_on_new_database, over_http, sign_in, signed_in

TEAMS = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
HAND = {"sides": [{"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5}]}
ARGUMENT = re.compile(r"<(?:[^:>]+:)?(\w+)>")

HUGE_ID = str(2**63)
LONG_KEY_NAME = "\ufdfa" * 40  # 40 characters; 720 once case-folded
JUNK = ["", "0", "-1", "1", "2", "1.5", "1e3", " 1", "abc", "é", "\x00", "' OR 1=1", "<b>"]
JUNK += ["9" * 25, "null", "[]", "true", "2026-13-45", "2026-01-01", "week", "won", "oldest"]
JUNK += [HUGE_ID, str(2**31), "9999-12-31", "\u00b2", "\u0663", "/a\nb", LONG_KEY_NAME]
text = st.sampled_from([*JUNK, "x" * 3000]) | st.text(
    st.characters(exclude_categories=("Cs",)), max_size=10
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
    max_leaves=6,
)
# What a server can hand over as a header value: latin-1, no line breaks.
header_text = text.filter(lambda value: "\n" not in value and "\r" not in value).map(
    lambda value: value.encode("latin-1", "replace").decode("latin-1")
)
QUERY_NAMES = ["page", "player", "partner", "game", "result", "period", "order", "from", "to"]
QUERY_NAMES += ["group", "format", "layout", "next", "q", "league", "seat_0", "seat_1"]
FORM_NAMES = ["out", "name", "username", "password", "password2", "role", "variant", "target"]
FORM_NAMES += ["s0_meld_points", "s1_hand_points", "seat_0", "first_dealer", "expected_number"]
FORM_NAMES += ["version", "confirmed", "token", "player", "into", "next", "mode", "registration"]
FORM_NAMES += ["user", "hand_id", "gone", "kept", "group", "side_name_0", "opt_meld_minimums"]
FORM_NAMES += ["start", "end", "scoring", "best_of", "min_evenings", "variants", "evening"]
FORM_NAMES += ["substitute", "replaced"]
JSON_NAMES = ["variant", "sides", "options", "players", "deal", "lineup", "match", "name"]
JSON_NAMES += ["role", "expected_version", "confirm", "groups", "dealer", "seats", "format"]
JSON_NAMES += ["group", "number", "version", "token"]
JSON_NAMES += ["start", "end", "scoring", "best_of", "min_evenings", "variants"]
HEADERS = ["If-None-Match", "If-Match", "Accept-Encoding", "Accept", "Authorization"]
HEADERS += ["Content-Type", "X-Forwarded-For", "Cookie", "Range"]


def fill(app) -> None:
    """Two matches with a hand each, a share link and a league."""
    client = signed_in(app)
    for variant in ("classic", "hand-and-foot"):
        made = client.post("/api/v1/matches", json={"variant": variant, "sides": TEAMS})
        assert made.status_code == 201
        played = client.post(f"/api/v1/matches/{made.json['id']}/hands", json=HAND)
        assert played.status_code == 201, played.json
    assert client.post("/api/v1/matches/1/links", json={"role": "viewer"}).status_code == 201
    league = {"name": "Autumn", "start": "2026-01-01", "end": "2026-12-31", "scoring": "wdl"}
    assert client.post("/api/v1/leagues", json=league).status_code == 201


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def fuzz_app(request, tmp_path_factory):
    if request.param == "sqlite":
        app = app_on_new_database(tmp_path_factory.mktemp("routes") / "routes.sqlite")
        fill(app)
        yield app
        with app.app_context():
            db.engine.dispose()
        return
    with new_schema(request.getfixturevalue("postgres_url")) as (_, url):
        app = create_app(app_config(url))
        with app.app_context():
            db.create_all()
        fill(app)
        yield app
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def argument(name: str) -> st.SearchStrategy[str]:
    """A value for a URL argument: mostly one that names something, sometimes not."""
    if name == "key":
        return st.sampled_from(["classic", "samba", "hand-and-foot", "nope", "é"])
    if name == "filename":
        return st.sampled_from(["app.css", "app.js", "../etc/passwd", "x"])
    if name == "fmt":
        return st.sampled_from(["csv", "json"])
    if name == "token":
        return st.sampled_from(["abc", "x" * 80, "é"])
    return st.sampled_from(["1", "2", "0", "7", "99999999"])


@st.composite
def requests(draw, rules: list[Any]) -> dict[str, Any]:
    rule = draw(st.sampled_from(rules))
    url = ARGUMENT.sub(lambda found: draw(argument(found.group(1))), rule.rule)
    method = draw(st.sampled_from(sorted(rule.methods - {"HEAD", "OPTIONS"})))
    call: dict[str, Any] = {
        "path": url,
        "method": method,
        "query_string": draw(st.dictionaries(st.sampled_from(QUERY_NAMES), text, max_size=3)),
        "headers": draw(st.dictionaries(st.sampled_from(HEADERS), header_text, max_size=2)),
    }
    if method in ("POST", "PUT"):
        if url.startswith("/api/"):
            body = draw(st.dictionaries(st.sampled_from(JSON_NAMES), json_values, max_size=4))
            call["json"] = draw(st.sampled_from([body, HAND, {**HAND, **body}]))
        else:
            call["data"] = draw(st.dictionaries(st.sampled_from(FORM_NAMES), text, max_size=5))
    return call


def test_every_route_answers_junk_without_a_500(fuzz_app):
    rules = list(fuzz_app.url_map.iter_rules())

    @over_http(HealthCheck.function_scoped_fixture)
    @given(call=requests(rules), signed=st.booleans(), csrf=st.booleans())
    def answer(call: dict[str, Any], signed: bool, csrf: bool) -> None:
        fuzz_app.config["WTF_CSRF_ENABLED"] = csrf
        client = fuzz_app.test_client()
        if signed:
            sign_in(client)
        response = client.open(**call, buffered=True)  # read whole, files closed, as servers do
        event(f"status {response.status_code}")
        assert response.status_code < 500, (call, response.status_code)
        if call["path"].startswith("/api/") and response.status_code >= 400:
            assert response.is_json, (call, response.get_data(as_text=True)[:200])

    answer()


def nested(depth: int) -> str:
    """A JSON text of objects `depth` deep (written out: `json` cannot encode that deep)."""
    return '{"a": ' * depth + "1" + "}" * depth


DEEP = nested(990)
SIX_LONG = [{"players": [f"{side}{'x' * 39}{n}"[:40] for n in range(3)]} for side in "AB"]
# Each class: (URL int arguments, query, form fields, JSON body). None: as `argument` says.
CLASSES: dict[str, tuple[str | None, dict[str, str], dict[str, str], Any]] = {
    "huge id": (
        HUGE_ID,
        {"page": HUGE_ID, "group": HUGE_ID, "player": HUGE_ID, "league": HUGE_ID},
        dict.fromkeys(("user", "hand_id", "version", "gone", "kept", "group"), HUGE_ID)
        | dict.fromkeys(("substitute", "replaced", "best_of", "min_evenings"), HUGE_ID),
        {"group": 2**63, "match": 2**63, "number": 2**63, "version": 2**63, "sides": [{}, {}]}
        | {"best_of": 2**63, "min_evenings": 2**63},
    ),
    "just past an id": (
        str(2**31),
        {"page": str(2**31), "group": str(2**31)},
        dict.fromkeys(("user", "hand_id", "version", "gone", "kept", "group"), str(2**31)),
        {"group": 2**31, "match": 2**31, "number": 2**31, "version": 2**31},
    ),
    "last date": (
        None,
        {"from": "9999-12-31", "to": "9999-12-31"},
        {"from": "9999-12-31", "to": "9999-12-31"}
        | {"start": "9999-12-31", "end": "9999-12-31", "evening": "9999-12-31"},
        {"from": "9999-12-31", "to": "9999-12-31", "start": "0001-01-01", "end": "9999-12-31"},
    ),
    "digit int() refuses": (
        None,
        {"page": "\u00b2", "group": "\u00b2", "player": "\u00b2", "deal": "\u00b2"},
        dict.fromkeys(("user", "hand_id", "version", "first_dealer", "group"), "\u00b2")
        | {"opt_meld_minimums": "50, \u00b2", "s0_meld_points": "\u00b2"},
        {"group": "\u00b2", "sides": [{"meld_points": "\u00b2"}, {}], "first_dealer": "\u00b2"},
    ),
    "line break in next": (
        None,
        {"next": "/a\nb"},
        {"next": "/a\r\nb", "username": "Tess", "password": "correct horse battery"},
        {"next": "/a\nb"},
    ),
    "nested 990 deep": (
        None,
        {"options": DEEP},
        {"options": DEEP},
        f'{{"variant": "classic", "options": {DEEP}, "sides": [{DEEP}], "groups": [{DEEP}]}}',
    ),
    "name key past its column": (
        None,
        {"player": LONG_KEY_NAME, "partner": LONG_KEY_NAME},
        {"name": LONG_KEY_NAME, "username": LONG_KEY_NAME, "password": "a long password 1"}
        | {f"seat_{n}": f"{LONG_KEY_NAME[:-1]}{n}" for n in range(6)},
        {"variant": "classic", "sides": [{"players": [LONG_KEY_NAME, "B"]}, TEAMS[1]]}
        | {"name": LONG_KEY_NAME},
    ),
    "six long names": (
        None,
        {"layout": "2x3"},
        {f"seat_{n}": f"{'x' * 39}{n}" for n in range(6)},
        {"variant": "classic-6p", "sides": SIX_LONG},
    ),
}


# Writes that undo what later calls need (the session, the membership, the match): last.
UNDOING = ("logout", "remove_member", "set_role", "delete", "abandon", "remove", "revoke")


def class_calls(rules: list[Any], name: str) -> list[dict[str, Any]]:
    """Every route, every method, with the inputs of class `name`; where the class has a
    URL number, each `int` argument of the route takes it in turn."""
    number, query, form, body = CLASSES[name]
    defaults = {"key": "classic-6p", "filename": "app.css", "fmt": "json", "token": "abc"}
    raw = body if isinstance(body, str) else json.dumps(body)
    calls = []
    for rule in sorted(rules, key=lambda r: r.endpoint.endswith(UNDOING)):
        if rule.endpoint == "assets.static":
            continue
        numbers = len(re.findall(r"<int:", rule.rule))
        for target in range(numbers) if number is not None and numbers else [None]:
            found = iter(range(numbers))

            def value(match: re.Match[str], target: int | None = target, found: Any = found) -> str:
                if "int:" in match.group(0):
                    return number if next(found) == target and number is not None else "1"
                return defaults.get(match.group(1), "1")

            path = ARGUMENT.sub(value, rule.rule)
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                call: dict[str, Any] = {"path": path, "method": method, "query_string": query}
                if method in ("POST", "PUT", "DELETE") and path.startswith("/api/"):
                    call["data"], call["content_type"] = raw, "application/json"
                elif method == "POST":
                    call["data"] = form
                calls.append(call)
    return calls


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_every_route_answers_each_class_that_once_failed_without_a_500(fuzz_app, name):
    fuzz_app.config["WTF_CSRF_ENABLED"] = False  # the forms are read, not refused at the door
    client = fuzz_app.test_client()
    statuses = {}
    for call in class_calls(list(fuzz_app.url_map.iter_rules()), name):
        sign_in(client)  # again: a call may have signed it out
        response = client.open(**call, buffered=True)
        statuses[(call["method"], call["path"])] = response.status_code
        assert response.status_code < 500, (name, call["method"], call["path"])
        if call["path"].startswith("/api/") and response.status_code >= 400:
            assert response.is_json, (call, response.get_data(as_text=True)[:200])
    assert len(statuses) > 60  # every route was asked
    number = CLASSES[name][0]
    if number is not None:  # a number no id can be names nothing: a 404, never a query
        assert {status for (_, path), status in statuses.items() if number in path} == {404}
    if name == "last date":
        for path in ("/history", "/groups/1/stats", "/api/v1/stats"):
            assert statuses[("GET", path)] == 400, path


IMPORTS = {
    "nested 990 deep": lambda doc: doc["groups"][0]["matches"][0].update(options="DEEP"),
    "name key past its column": lambda doc: doc["groups"][0]["players"].append(
        {"name": LONG_KEY_NAME}
    ),
}


@pytest.mark.parametrize("name", sorted(IMPORTS))
def test_an_import_of_each_class_is_refused_in_words(fuzz_app, name):
    fuzz_app.config["WTF_CSRF_ENABLED"] = False
    client = sign_in(fuzz_app.test_client())
    # A match of its own: the fuzz before it in this module may have removed the others.
    made = client.post("/api/v1/matches", json={"variant": "classic", "sides": TEAMS})
    assert made.status_code == 201
    doc = client.get("/api/v1/export").json
    doc["groups"][0]["matches"][0]["uid"] = "f" * 32  # not one already here
    IMPORTS[name](doc)
    raw = json.dumps(doc).replace('"DEEP"', DEEP)
    api = client.post("/api/v1/import", data=raw, content_type="application/json")
    assert api.status_code in (400, 422), api.get_data(as_text=True)[:300]
    words = {"nested 990 deep": "deep", "name key past its column": "Written out in full"}
    assert words[name] in api.json["errors"][0]["message"]
    page = client.post(
        "/groups/1/import",
        data={"export": (io.BytesIO(raw.encode()), "export.json")},
        content_type="multipart/form-data",
    )
    assert page.status_code == 422
    assert "Nothing was imported" in page.get_data(as_text=True)
