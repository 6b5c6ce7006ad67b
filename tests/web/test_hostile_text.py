"""Lone surrogates, NUL bytes and 1 MB strings in every text of every endpoint and form.

Every answer is below 500; under /api/ it is JSON; a refused write saves nothing.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest

from .helpers import PLAYERS2, counts, create_match, form_values, page, record_ok

MEGABYTE = "x" * (1024 * 1024)
HOSTILE = {
    "surrogate": "\ud800",
    "low surrogate in text": "Ann\udfffe",
    "nul": "\x00",
    "nul in text": "An\x00n",
    "1 MB": MEGABYTE,
}
USUAL = [{"meld_points": 105, "hand_points": 5}, {"meld_points": 55, "hand_points": 5}]


def put_at(body: Any, path: tuple, value: Any) -> Any:
    """A copy of `body` with `value` at `path` (a key of None replaces the key itself)."""
    body = json.loads(json.dumps(body))
    *parents, last = path
    target = body
    for step in parents:
        target = target[step]
    if isinstance(last, tuple):  # ("key", old): rename the key `old` to `value`
        target[value] = target.pop(last[1])
    else:
        target[last] = value
    return body


def raw_json(body: Any) -> bytes:
    """JSON text as a client sends it: lone surrogates written as \\u escapes."""
    return json.dumps(body, ensure_ascii=True).encode()


def form_bytes(data: dict[str, str]) -> bytes:
    """A form body as a broken client might send it: invalid UTF-8 included."""
    return "&".join(
        f"{quote(k.encode('utf-8', 'surrogatepass'))}={quote(v.encode('utf-8', 'surrogatepass'))}"
        for k, v in data.items()
    ).encode()


def check(response, api: bool) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)[:300]
    if api:
        assert response.is_json
        if response.status_code >= 400:
            assert response.json["errors"][0]["message"]


SCORE = {
    "variant": "classic",
    "options": {"target": 3000},
    "sides": [
        {"meld_points": 100, "penalties": [{"points": 5, "reason": "late"}]},
        {"hand_points": 5},
    ],
}
CREATE = {
    "variant": "classic-2p",
    "options": {"red_threes_negative_when": "no_meld"},
    "first_dealer": "Ann",
    "sides": [{"name": "Us", "players": ["Ann"]}, {"name": "Them", "players": ["Bob"]}],
}
HAND = {"sides": [dict(USUAL[0], penalties=[{"points": 5, "reason": "late"}]), USUAL[1]]}

API_BODIES = [
    ("POST", "/api/v1/score", SCORE, ("variant",)),
    ("POST", "/api/v1/score", SCORE, ("options", ("key", "target"))),
    ("POST", "/api/v1/score", SCORE, ("sides", 0, "penalties", 0, "reason")),
    ("POST", "/api/v1/score", SCORE, ("sides", 0, ("key", "meld_points"))),
    ("POST", "/api/v1/score", SCORE, ("sides", 1, "hand_points")),
    ("POST", "/api/v1/matches", CREATE, ("variant",)),
    ("POST", "/api/v1/matches", CREATE, ("first_dealer",)),
    ("POST", "/api/v1/matches", CREATE, ("options", "red_threes_negative_when")),
    ("POST", "/api/v1/matches", CREATE, ("sides", 0, "name")),
    ("POST", "/api/v1/matches", CREATE, ("sides", 1, "players", 0)),
    ("POST", "/api/v1/matches/{id}/hands", HAND, ("sides", 0, "penalties", 0, "reason")),
    ("POST", "/api/v1/matches/{id}/hands", {**HAND, "token": "t" * 20}, ("token",)),
    ("POST", "/api/v1/matches/{id}/hands", HAND, ("sides", 1, ("key", "meld_points"))),
    ("PUT", "/api/v1/matches/{id}/hands/1", {**HAND, "version": 1}, ("version",)),
    ("PUT", "/api/v1/matches/{id}/hands/1", HAND, ("sides", 0, "penalties", 0, "reason")),
]


@pytest.fixture
def match_id(client) -> int:
    created = client.post("/api/v1/matches", json=CREATE)
    match_id = created.json["id"]
    assert (
        client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": USUAL}).status_code == 201
    )
    return match_id


@pytest.mark.parametrize("hostile", HOSTILE.values(), ids=HOSTILE.keys())
@pytest.mark.parametrize(("method", "url", "body", "path"), API_BODIES)
def test_hostile_text_in_api_bodies(client, app, match_id, hostile, method, url, body, path):
    before = counts(app)
    data = raw_json(put_at(body, path, hostile))
    response = client.open(
        url.format(id=match_id), method=method, data=data, content_type="application/json"
    )
    check(response, api=True)
    if response.status_code >= 400:
        assert counts(app) == before


@pytest.mark.parametrize("hostile", HOSTILE.values(), ids=HOSTILE.keys())
@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/variants/{q}",
        "/api/v1/variants/classic?options={q}",
        "/api/v1/variants/classic/meld-requirement?score={q}",
        "/api/v1/variants/classic/meld-requirement?score=5&options={q}",
        "/api/v1/matches/{id}?x={q}",
        "/api/v1/matches/{id}/hands/1?version={q}",
        "/api/v1/{q}",
    ],
)
def test_hostile_text_in_api_urls(client, app, match_id, hostile, url):
    before = counts(app)
    quoted = quote(hostile.encode("utf-8", "surrogatepass"), safe="")
    method = "DELETE" if "version" in url else "GET"
    response = client.open(url.format(q=quoted, id=match_id), method=method)
    check(response, api=True)
    if response.status_code >= 400:
        assert counts(app) == before


@pytest.mark.parametrize("hostile", HOSTILE.values(), ids=HOSTILE.keys())
@pytest.mark.parametrize(
    "url",
    [
        "/history?player={q}",
        "/history?variant={q}&page=2",
        "/history?page={q}",
        "/rules/{q}",
        "/matches/new/{q}",
        "/matches/{q}",
        "/{q}",
    ],
)
def test_hostile_text_in_page_urls(client, hostile, url):
    quoted = quote(hostile.encode("utf-8", "surrogatepass"), safe="")
    check(client.get(url.format(q=quoted)), api=False)


def post_form(client, url: str, data: dict[str, str]):
    return client.post(url, data=form_bytes(data), content_type="application/x-www-form-urlencoded")


@pytest.mark.parametrize("hostile", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_text_in_every_field_of_the_forms(client, app, hostile):
    match_id = create_match(client, "classic-2p", PLAYERS2)
    record_ok(
        client,
        match_id,
        "none",
        *[
            {"meld_points": 105, "hand_points": 5},
            {"meld_points": 55, "hand_points": 5},
        ],
    )
    forms = [
        "/matches/new/classic",
        f"/matches/{match_id}/hands/new",
        f"/matches/{match_id}/hands/1/edit",
        f"/matches/{match_id}/hands/1/remove",
    ]
    for url in forms:
        rendered = form_values(page(client.get(url)))
        for name in rendered:
            if name == "csrf_token":
                continue
            before = counts(app)
            response = post_form(client, url, {**rendered, name: hostile})
            check(response, api=False)
            if response.status_code >= 400:
                assert counts(app) == before, (url, name)
