"""`flask backup` while the server runs, `flask restore` into a fresh instance."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import stat
import threading
import urllib.parse
import urllib.request

import flask_migrate
from werkzeug.serving import make_server

from scorekeeper.extensions import db
from scorekeeper.models import Match
from tests.support import api_token_of_tester, load_bench, sign_in, signed_in

from .conftest import make_app

USUAL = [{"meld_points": 105, "hand_points": 5}, {"meld_points": 55, "hand_points": 5}]
TEAMS = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}]
serving = load_bench("serving")


def post(base: str, path: str, body: dict, token: str) -> dict:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def test_a_backup_taken_under_load_restores_every_hand_acknowledged_before_it(tmp_path):
    live = make_app(f"sqlite:///{tmp_path / 'live.sqlite'}")
    with live.app_context():
        flask_migrate.upgrade()
    server = make_server("127.0.0.1", 0, live, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    token = api_token_of_tester(live)
    match_id = post(
        base,
        "/api/v1/matches",
        {"variant": "classic", "sides": TEAMS, "options": {"target": 100000}},
        token,
    )["id"]

    acknowledged: list[int] = []
    stop = threading.Event()

    def phone() -> None:
        while not stop.is_set():
            state = post(base, f"/api/v1/matches/{match_id}/hands", {"sides": USUAL}, token)
            acknowledged.append(len(state["hands"]))

    for _ in range(5):  # some hands before the backup starts
        post(base, f"/api/v1/matches/{match_id}/hands", {"sides": USUAL}, token)
    writer = threading.Thread(target=phone)
    writer.start()
    try:
        before_backup = 5 + len(acknowledged)
        result = live.test_cli_runner().invoke(args=["backup", str(tmp_path / "copy.sqlite")])
        assert result.exit_code == 0, result.output
        assert "Backed up 1 matches and" in result.output
    finally:
        stop.set()
        writer.join()
        server.shutdown()
        server.server_close()
    assert len(acknowledged) > 0  # the phone kept posting while the backup ran

    fresh = make_app(f"sqlite:///{tmp_path / 'fresh.sqlite'}")
    result = fresh.test_cli_runner().invoke(
        args=["restore", str(tmp_path / "copy.sqlite"), "--yes"]
    )
    assert result.exit_code == 0, result.output
    state = signed_in(fresh).get(f"/api/v1/matches/{match_id}").json
    hands = state["hands"]
    assert len(hands) >= before_backup
    assert [h["number"] for h in hands] == list(range(1, len(hands) + 1))
    assert [side["total"] for side in state["sides"]] == [100 * len(hands), 50 * len(hands)]
    # A new hand can be recorded on the restored database.
    recorded = signed_in(fresh).post(f"/api/v1/matches/{match_id}/hands", json={"sides": USUAL})
    assert recorded.status_code == 201
    for app in (live, fresh):
        with app.app_context():
            db.engine.dispose()


def test_a_restore_asks_first_and_keeps_the_database_it_replaces(tmp_path):
    source = make_app(f"sqlite:///{tmp_path / 'a.sqlite'}")
    with source.app_context():
        flask_migrate.upgrade()
    signed_in(source).post("/api/v1/matches", json={"variant": "classic", "sides": TEAMS})
    assert source.test_cli_runner().invoke(args=["backup", str(tmp_path / "a.bak")]).exit_code == 0

    target = make_app(f"sqlite:///{tmp_path / 'b.sqlite'}")
    with target.app_context():
        flask_migrate.upgrade()
    sides = [{"players": ["Eve"]}, {"players": ["Fay"]}]
    signed_in(target).post("/api/v1/matches", json={"variant": "classic-2p", "sides": sides})
    runner = target.test_cli_runner()
    declined = runner.invoke(args=["restore", str(tmp_path / "a.bak")], input="n\n")
    assert declined.exit_code != 0
    assert signed_in(target).get("/api/v1/matches/1").json["variant"] == "classic-2p"
    accepted = runner.invoke(args=["restore", str(tmp_path / "a.bak")], input="y\n")
    assert accepted.exit_code == 0, accepted.output
    assert signed_in(target).get("/api/v1/matches/1").json["variant"] == "classic"
    kept = list(tmp_path.glob("b.before-restore-*.sqlite"))
    assert len(kept) == 1
    with sqlite3.connect(kept[0]) as connection:
        assert connection.execute("SELECT variant FROM match").fetchall() == [("classic-2p",)]
    for app in (source, target):
        with app.app_context():
            db.engine.dispose()


def test_a_restore_refuses_what_is_not_a_backup_and_changes_nothing(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'live.sqlite'}")
    with app.app_context():
        flask_migrate.upgrade()
    signed_in(app).post("/api/v1/matches", json={"variant": "classic", "sides": TEAMS})
    runner = app.test_cli_runner()
    (tmp_path / "notes.txt").write_text("not a database")
    with sqlite3.connect(tmp_path / "other.sqlite") as connection:
        connection.execute("CREATE TABLE things (x)")
    with sqlite3.connect(tmp_path / "future.sqlite") as connection:
        connection.execute("CREATE TABLE alembic_version (version_num TEXT)")
        connection.execute("INSERT INTO alembic_version VALUES ('fffffffffff0')")
        connection.execute("CREATE TABLE match (id INTEGER)")
        connection.execute("CREATE TABLE hand (id INTEGER)")
    for name, reason in [
        ("missing.sqlite", "does not exist"),
        ("notes.txt", "not a SQLite database"),
        ("other.sqlite", "not a Scorekeeper database"),
        ("future.sqlite", "newer version of Scorekeeper"),
    ]:
        result = runner.invoke(args=["restore", str(tmp_path / name), "--yes"])
        assert result.exit_code != 0
        assert "Not restored" in result.output
        assert reason in result.output
    assert signed_in(app).get("/api/v1/matches/1").status_code == 200
    with app.app_context():
        db.engine.dispose()


def test_backup_on_postgresql_gives_the_pg_dump_line(postgres_schema_url):
    app = make_app(postgres_schema_url)
    result = app.test_cli_runner().invoke(args=["backup", "/tmp/never-written.sqlite"])
    assert result.exit_code != 0
    assert "pg_dump --format=custom" in result.output
    assert "restart the server after a pg_restore" in result.output
    with app.app_context():
        db.engine.dispose()


def backed_up_match(tmp_path):
    """A served database with a match of one hand, backed up to club.bak: the app, a
    signed-in client, a CLI runner and the match's id."""
    app = make_app(f"sqlite:///{tmp_path / 'club.sqlite'}")
    with app.app_context():
        flask_migrate.upgrade()
    client = signed_in(app)
    match_id = client.post("/api/v1/matches", json={"variant": "classic", "sides": TEAMS}).json[
        "id"
    ]
    client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": USUAL})
    runner = app.test_cli_runner()
    assert runner.invoke(args=["backup", str(tmp_path / "club.bak")]).exit_code == 0
    return app, client, runner, match_id


def test_a_running_server_shows_the_restored_match_and_what_is_recorded_after(tmp_path):
    """Servers keep each match state they showed by revision: after a restore, hands
    recorded anew must never be shown as the ones the restore took away."""
    app, client, runner, match_id = backed_up_match(tmp_path)
    lost = [{"meld_points": 300, "hand_points": 10}, {"meld_points": 70, "hand_points": 10}]
    client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": lost})
    assert len(client.get(f"/api/v1/matches/{match_id}").json["hands"]) == 2  # shown, kept
    assert runner.invoke(args=["restore", "--yes", str(tmp_path / "club.bak")]).exit_code == 0

    restored = client.get(f"/api/v1/matches/{match_id}").json
    assert [h["sides"][0]["total"] for h in restored["hands"]] == [100]
    again = [{"meld_points": 90, "hand_points": 20}, {"meld_points": 40, "hand_points": 20}]
    state = client.post(f"/api/v1/matches/{match_id}/hands", json={"sides": again}).json
    assert [h["sides"][0]["total"] for h in state["hands"]] == [100, 70]
    assert client.get(f"/api/v1/matches/{match_id}").json == state
    board = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "+290" not in board  # the hand the restore took away is nowhere
    with app.app_context():
        db.engine.dispose()


def test_a_running_server_forgets_a_correction_the_restore_took_away(tmp_path):
    """A worker brings the hand keys it kept up to date from the hands written since;
    a restore puts back a hand it saw corrected, with as many hands as before, and the
    worker must show it (and the audit trail) as restored."""
    app, client, runner, match_id = backed_up_match(tmp_path)
    hands = f"/api/v1/matches/{match_id}/hands"
    before = client.get(f"/api/v1/matches/{match_id}").json
    corrected = [{"meld_points": 300, "hand_points": 10}, {"meld_points": 70, "hand_points": 10}]
    assert client.put(f"{hands}/1", json={"sides": corrected}).status_code == 200
    shown = client.get(f"/api/v1/matches/{match_id}").json
    assert shown["hands"][0]["sides"][0]["total"] == 290  # shown, and kept
    assert shown["audit"][0]["action"] == "corrected"
    assert runner.invoke(args=["restore", "--yes", str(tmp_path / "club.bak")]).exit_code == 0

    restored = client.get(f"/api/v1/matches/{match_id}").json
    assert [h["sides"][0]["total"] for h in restored["hands"]] == [100]
    assert [entry["action"] for entry in restored["audit"]] == ["recorded"]
    assert restored["hands"][0]["sides"] == before["hands"][0]["sides"]
    again = client.post(hands, json={"sides": USUAL}).json
    assert [h["sides"][0]["total"] for h in again["hands"]] == [100, 100]
    assert [entry["action"] for entry in again["audit"]] == ["recorded", "recorded"]
    with app.app_context():
        db.engine.dispose()


def test_another_worker_shows_the_entries_recorded_after_a_restore(tmp_path):
    """Workers keep each audit entry they explained by its id; entries recorded after a
    restore must not take ids a running worker saw with other content."""
    app, client, runner, match_id = backed_up_match(tmp_path)
    other = signed_in(make_app(app.config["SQLALCHEMY_DATABASE_URI"]))
    hands = f"/api/v1/matches/{match_id}/hands"
    corrected = [{"meld_points": 300, "hand_points": 10}, {"meld_points": 70, "hand_points": 10}]
    assert client.put(f"{hands}/1", json={"sides": corrected}).status_code == 200
    seen = other.get(f"/api/v1/matches/{match_id}").json  # the other worker keeps it
    assert [entry["action"] for entry in seen["audit"]] == ["corrected", "recorded"]
    assert runner.invoke(args=["restore", "--yes", str(tmp_path / "club.bak")]).exit_code == 0
    # The backup was taken before the other phone signed in: the restore ended that
    # sign-in, as it ends every one made after the backup.
    assert other.get(f"/api/v1/matches/{match_id}").status_code == 401
    sign_in(other)

    saved = client.post(hands, json={"sides": USUAL}).json
    assert [entry["action"] for entry in saved["audit"]] == ["recorded", "recorded"]
    assert other.get(f"/api/v1/matches/{match_id}").json == saved
    with app.app_context():
        db.engine.dispose()


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_database_and_its_backups_are_readable_by_the_servers_user_only(tmp_path):
    """Made under the usual umask (022), which left them readable by everyone."""
    old_umask = os.umask(0o022)
    try:
        live = make_app(f"sqlite:///{tmp_path / 'live.sqlite'}")
        with live.app_context():
            flask_migrate.upgrade()
        client = signed_in(live)
        body = {"variant": "classic", "sides": TEAMS}
        assert client.post("/api/v1/matches", json=body).status_code == 201
        files = [tmp_path / name for name in ("live.sqlite", "live.sqlite-wal", "live.sqlite-shm")]
        assert all(path.exists() for path in files)
        assert [mode(path) for path in files] == [0o600] * 3
        runner = live.test_cli_runner()
        assert runner.invoke(args=["backup", str(tmp_path / "copy.sqlite")]).exit_code == 0
        assert mode(tmp_path / "copy.sqlite") == 0o600
        restored = runner.invoke(args=["restore", str(tmp_path / "copy.sqlite"), "--yes"])
        assert restored.exit_code == 0, restored.output
        kept = list(tmp_path.glob("live.before-restore-*.sqlite"))
        assert len(kept) == 1
        assert mode(kept[0]) == 0o600
        assert mode(tmp_path / "live.sqlite") == 0o600
        with live.app_context():
            db.engine.dispose()
    finally:
        os.umask(old_umask)


def test_a_database_made_before_is_made_private_when_the_server_starts(tmp_path):
    path = tmp_path / "old.sqlite"
    sqlite3.connect(path).close()
    path.chmod(0o644)
    make_app(f"sqlite:///{path}")
    assert mode(path) == 0o600


def served_json(base: str, path: str, token: str) -> dict:
    request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def signed_in_browser(base: str, name: str) -> urllib.request.OpenerDirector:
    """A browser (a cookie jar) signed in through the sign-in page, as a phone is."""
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    with browser.open(base + "/login", timeout=30) as response:
        form = response.read().decode()
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', form)
    assert token is not None
    fields = {"csrf_token": token.group(1), "username": name, "password": "bench-password-1"}
    with browser.open(base + "/login", urllib.parse.urlencode(fields).encode(), timeout=30):
        pass
    return browser


def served_text(browser: urllib.request.OpenerDirector, url: str) -> str:
    with browser.open(url, timeout=30) as response:
        return response.read().decode()


def test_a_restore_under_a_running_server_never_shows_one_groups_match_on_anothers(tmp_path):
    """Back up; group A plays a match; restore while gunicorn (as `make run`) serves; group
    B starts a match. It takes an id never given before, and every page and answer shows
    B's players and hand, in every worker, never A's (which the workers had shown)."""
    url = f"sqlite:///{tmp_path / 'club.sqlite'}"
    serving.migrate(url)
    ana, bea = serving.api_token(url, "Ana"), serving.api_token(url, "Bea")
    serving.flask_cli(url, "backup", str(tmp_path / "club.bak"))
    server = serving.Server(url, serving.free_port())
    server.start()
    try:
        teams_a = [{"players": ["Ana", "Abe"]}, {"players": ["Amy", "Art"]}]
        match_a = post(
            server.base, "/api/v1/matches", {"variant": "classic", "sides": teams_a}, ana
        )
        hand_a = [{"meld_points": 70}, {"meld_points": 55}]
        post(server.base, f"/api/v1/matches/{match_a['id']}/hands", {"sides": hand_a}, ana)
        phone_a = signed_in_browser(server.base, "Ana")
        for _ in range(4):  # both workers show (and keep) A's match
            served_json(server.base, f"/api/v1/matches/{match_a['id']}", ana)
            for page in (f"/matches/{match_a['id']}", f"/matches/{match_a['id']}/board"):
                assert "Abe" in served_text(phone_a, server.base + page)
        restored = serving.flask_cli(url, "restore", "--yes", str(tmp_path / "club.bak"))
        assert "Restored 0 matches" in restored
        # (A restore ends the sign-ins made after its backup: Bea's phone signs in now.)
        phone_b = signed_in_browser(server.base, "Bea")

        teams_b = [{"players": ["Bea", "Ben"]}, {"players": ["Bo", "Bud"]}]
        match_b = post(
            server.base, "/api/v1/matches", {"variant": "classic", "sides": teams_b}, bea
        )
        assert match_b["id"] != match_a["id"]  # an id is never given twice
        hand_b = [{"meld_points": 90}, {"meld_points": 50}]
        post(server.base, f"/api/v1/matches/{match_b['id']}/hands", {"sides": hand_b}, bea)
        for _ in range(4):  # whichever worker answers
            state = served_json(server.base, f"/api/v1/matches/{match_b['id']}", bea)
            assert [side["players"] for side in state["sides"]] == [
                ["Bea", "Ben"],
                ["Bo", "Bud"],
            ]
            assert [side["total"] for side in state["hands"][0]["sides"]] == [90, 50]
            for page in (f"/matches/{match_b['id']}", f"/matches/{match_b['id']}/board"):
                shown = served_text(phone_b, server.base + page)
                assert "Bea" in shown
                assert "Ana" not in shown
                assert "Abe" not in shown
    finally:
        server.stop()
    with sqlite3.connect(tmp_path / "club.sqlite") as connection:
        ids = dict(connection.execute("SELECT name, seq FROM sqlite_sequence"))
    assert ids["match"] >= match_b["id"] > match_a["id"]


def test_the_live_board_is_kept_and_tagged_by_the_matchs_uid(tmp_path):
    """An id and a revision can come back (a restore); a uid never does: the board a
    worker keeps, and the copy a phone revalidates with its ETag, are named by it."""
    app, client, _, match_id = backed_up_match(tmp_path)
    with app.app_context():
        uid = db.session.get(Match, match_id).uid
    board = client.get(f"/matches/{match_id}/board")
    assert board.status_code == 200
    assert uid in board.headers["ETag"]
    assert board.headers["ETag"].removeprefix("W/").split(".")[0] == f'"{uid}'
    again = client.get(
        f"/matches/{match_id}/board", headers={"If-None-Match": board.headers["ETag"]}
    )
    assert again.status_code == 304
    with app.app_context():
        db.engine.dispose()
