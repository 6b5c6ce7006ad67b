"""Phones writing to one match at the same moment, through a real threaded server.

Every acknowledged hand is there exactly once; a correction lands only on the hand it
was aimed at; hand numbers stay 1..n. On SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
import random
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import flask_migrate
import pytest
from sqlalchemy import text
from werkzeug.serving import make_server

from scorekeeper.extensions import db
from tests.support import api_token_of_tester

from .conftest import make_app

LONG = {"target": 100_000}  # so many hands do not end the game
PHONES = 6
HANDS_EACH = 8


def call(base: str, method: str, path: str, body: object = None) -> tuple[int, dict]:
    """`base` is "http://host:port|TOKEN": the server and the API token to send."""
    base, _, token = base.partition("|")
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request, tmp_path) -> Iterator[tuple[str, object]]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'busy.sqlite'}"
    else:
        url = request.getfixturevalue("postgres_schema_url")
    app = make_app(url)
    with app.app_context():
        flask_migrate.upgrade()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}|{api_token_of_tester(app)}", app
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
        with app.app_context():
            db.engine.dispose()


def usual(marker: int) -> list[dict]:
    """A hand whose first side's meld points say which post it came from."""
    return [
        {"meld_points": 5 * marker + 5, "hand_points": 5},
        {"meld_points": 30, "hand_points": 5},
    ]


def post_until_answered(base: str, match_id: int, body: dict) -> dict:
    """A phone resends with the same token until it gets an answer (503: busy, try again)."""
    for _ in range(50):
        status, answer = call(base, "POST", f"/api/v1/matches/{match_id}/hands", body)
        if status in (200, 201):
            return answer
        assert status == 503, answer
    raise AssertionError("never answered")


def test_concurrent_posts_record_every_acknowledged_hand_exactly_once(served):
    base, app = served
    teams = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
    _, created = call(
        base, "POST", "/api/v1/matches", {"variant": "classic", "sides": teams, "options": LONG}
    )
    match_id = created["id"]

    def phone(index: int) -> list[str]:
        tokens = []
        for n in range(HANDS_EACH):
            marker = index * HANDS_EACH + n
            token = f"phone-{index:02d}-hand-{n:03d}-xxxx"
            body = {"sides": usual(marker), "token": token}
            post_until_answered(base, match_id, body)
            if n % 3 == 0:  # the answer was lost: the same post again
                post_until_answered(base, match_id, body)
            tokens.append(token)
        return tokens

    with ThreadPoolExecutor(PHONES) as pool:
        acknowledged = [t for tokens in pool.map(phone, range(PHONES)) for t in tokens]

    _, state = call(base, "GET", f"/api/v1/matches/{match_id}")
    hands = state["hands"]
    assert len(hands) == PHONES * HANDS_EACH
    assert [h["number"] for h in hands] == list(range(1, len(hands) + 1))
    markers = sorted(h["sides"][0]["input"]["meld_points"] // 5 - 1 for h in hands)
    assert markers == list(range(PHONES * HANDS_EACH))  # each post once, none lost
    assert len({h["version"] for h in hands}) == len(hands)
    with app.app_context():
        stored = db.session.execute(
            text("SELECT submission_token FROM hand WHERE match_id = :m"), {"m": match_id}
        ).scalars()
        assert sorted(stored) == sorted(acknowledged)


def test_racing_corrections_and_removals_never_land_on_another_hand(served):
    base, _ = served
    teams = [{"players": ["Ann"]}, {"players": ["Bob"]}]
    _, created = call(
        base, "POST", "/api/v1/matches", {"variant": "classic-2p", "sides": teams, "options": LONG}
    )
    match_id = created["id"]
    for marker in range(12):
        post_until_answered(base, match_id, {"sides": usual(marker)})

    def editor(seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(10):
            status, state = call(base, "GET", f"/api/v1/matches/{match_id}")
            assert status == 200, state
            if len(state["hands"]) < 3:
                return
            aimed = rng.choice(state["hands"])
            path = f"/api/v1/matches/{match_id}/hands/{aimed['number']}"
            if rng.random() < 0.25:
                status, _ = call(base, "DELETE", f"{path}?version={aimed['version']}")
            else:
                sides = usual(50)
                reason = f"for hand id {aimed['id']}"
                sides[0]["penalties"] = [{"points": 5, "reason": reason}]
                body = {"sides": sides, "version": aimed["version"]}
                status, _ = call(base, "PUT", path, body)
            assert status in (200, 404, 409, 503)

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(editor, range(4)))

    status, state = call(base, "GET", f"/api/v1/matches/{match_id}")
    assert status == 200, state
    assert [h["number"] for h in state["hands"]] == list(range(1, len(state["hands"]) + 1))
    for hand in state["hands"]:
        for penalty in hand["sides"][0]["input"].get("penalties", []):
            assert penalty["reason"] == f"for hand id {hand['id']}"
