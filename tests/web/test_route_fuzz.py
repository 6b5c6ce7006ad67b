"""Junk sent to every route of the app: odd ids, query strings, form fields, JSON bodies
and headers, signed in or not, with and without CSRF tokens required. Never a 500; the
API answers its errors in JSON."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scorekeeper.extensions import db
from tests.support import app_on_new_database, sign_in, signed_in

SETTINGS = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
TEAMS = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
HAND = {"sides": [{"meld_points": 55, "hand_points": 5}, {"meld_points": 25, "hand_points": 5}]}
ARGUMENT = re.compile(r"<(?:[^:>]+:)?(\w+)>")

JUNK = ["", "0", "-1", "1", "2", "1.5", "1e3", " 1", "abc", "é", "\x00", "' OR 1=1", "<b>"]
JUNK += ["9" * 25, "null", "[]", "true", "2026-13-45", "2026-01-01", "week", "won", "oldest"]
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
QUERY_NAMES += ["group", "format", "layout", "next", "q"]
FORM_NAMES = ["out", "name", "username", "password", "password2", "role", "variant", "target"]
FORM_NAMES += ["s0_meld_points", "s1_hand_points", "seat_0", "first_dealer", "expected_number"]
FORM_NAMES += ["version", "confirmed", "token", "player", "into", "next", "mode", "registration"]
JSON_NAMES = ["variant", "sides", "options", "players", "deal", "lineup", "match", "name"]
JSON_NAMES += ["role", "expected_version", "confirm", "groups", "dealer", "seats", "format"]
HEADERS = ["If-None-Match", "If-Match", "Accept-Encoding", "Accept", "Authorization"]
HEADERS += ["Content-Type", "X-Forwarded-For", "Cookie", "Range"]


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory):
    app = app_on_new_database(tmp_path_factory.mktemp("routes") / "routes.sqlite")
    client = signed_in(app)
    for variant in ("classic", "hand-and-foot"):
        made = client.post("/api/v1/matches", json={"variant": variant, "sides": TEAMS})
        assert made.status_code == 201
        played = client.post(f"/api/v1/matches/{made.json['id']}/hands", json=HAND)
        assert played.status_code == 201, played.json
    yield app
    with app.app_context():
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

    @SETTINGS
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
