"""Accounts: the first account, signing in and out, keeping signed in, passwords, registering,
rate limits, API tokens, the shell commands, and the settings for the internet."""

from __future__ import annotations

import re
import secrets
from datetime import timedelta
from pathlib import Path

import pytest
from flask import url_for
from sqlalchemy import func, select, text, update

from scorekeeper import create_app, lan
from scorekeeper.deployment import ConfigurationError
from scorekeeper.extensions import db
from scorekeeper.models import Match, Player, SignIn, User, utcnow
from scorekeeper.services import accounts, groups
from scorekeeper.services.storage import transaction
from scorekeeper.user_commands import new_setup_code
from tests.support import PASSWORD, TESTER, add_user, app_on_new_database, sign_in

from .helpers import all_field_errors, csrf_token, flashes, form_values, page, text_of, top_errors

DEPLOY_ENV = Path(__file__).resolve().parents[2] / "deploy" / "scorekeeper.env"


def fresh(tmp_path, **config):
    """An app on an empty database: nobody has an account yet."""
    return app_on_new_database(tmp_path / "fresh.sqlite", **config)


def log_in(client, name: str = TESTER, password: str = PASSWORD, **extra):
    form = form_values(page(client.get("/login")))
    return client.post("/login", data={**form, "username": name, "password": password, **extra})


# --- the first account ------------------------------------------------------------------


def setup_code_of(app) -> str:
    """A new set-up code, as `make run` prints it."""
    with app.app_context():
        code = new_setup_code()
    assert code is not None
    return code


def first_account(client, code: str, **fields):
    form = form_values(page(client.get("/setup")))
    data = {**form, "code": code, "username": "Ada", "password": "x" * 12, **fields}
    return client.post("/setup", data=data)


def test_a_fresh_server_asks_for_the_first_account_everywhere(tmp_path):
    client = fresh(tmp_path).test_client()
    for url in ("/", "/history", "/login", "/matches/new", "/rules"):
        response = client.get(url)
        assert response.status_code == 302
        assert response.headers["Location"] == "/setup"
    assert "Create the first account" in text_of(client.get("/setup"))
    assert client.get("/api/v1/matches/1").status_code == 401  # the API needs credentials


def test_the_first_account_runs_the_server_and_is_signed_in(tmp_path):
    app = fresh(tmp_path)
    code = setup_code_of(app)
    client = app.test_client()
    form = form_values(page(client.get(f"/setup?code={code}")))  # the address make run prints
    assert form["code"] == code
    response = client.post("/setup", data={**form, "username": "Ada", "password": "x" * 12})
    assert response.status_code == 303
    home = client.get("/")
    assert home.status_code == 200
    assert "You run this server" in " ".join(flashes(home))
    with app.app_context():
        ada = accounts.find_user("Ada")
        assert ada.is_admin
    # Once there is an account, /setup is over.
    assert client.get("/setup").headers["Location"] == "/"


@pytest.mark.parametrize("code", ["", "WRONG-CODE-1234", "guessed"])
def test_the_first_account_needs_the_set_up_code(tmp_path, code):
    """Whoever reaches a fresh server first does not own it: the code is shown only
    where the server was started."""
    app = fresh(tmp_path)
    setup_code_of(app)
    client = app.test_client()
    response = first_account(client, code)
    assert response.status_code == 422
    errors = all_field_errors(response)
    assert list(errors) == ["code"]
    assert errors["code"][0].startswith(("That is not the set-up code", "Enter the set-up code"))
    assert form_values(page(response))["username"] == "Ada"  # what was typed is kept
    assert client.get("/").headers["Location"] == "/setup"
    with app.app_context():
        assert not accounts.has_users()


def test_a_new_code_replaces_the_last_and_the_first_account_ends_it(tmp_path):
    app = fresh(tmp_path)
    old, new = setup_code_of(app), setup_code_of(app)
    client = app.test_client()
    assert first_account(client, old).status_code == 422
    typed = new.lower().replace("-", " ")  # any case, spaces for dashes
    assert first_account(client, typed).status_code == 303
    other = app.test_client()
    assert other.get("/setup").headers["Location"] == "/"  # set-up is over
    data = {"code": new, "username": "Eve", "password": "x" * 12}
    assert other.post("/setup", data=data).headers["Location"] == "/"
    with app.app_context():
        assert accounts.user_count() == 1


def test_a_server_with_no_code_printed_says_where_to_get_one(tmp_path):
    client = fresh(tmp_path).test_client()
    page_text = text_of(client.get("/setup"))
    assert "make run" in page_text
    assert "setup-code" in page_text
    assert first_account(client, "ABCD-EFGH-JKLM").status_code == 422


def test_make_run_prints_the_set_up_code_while_there_is_no_account(tmp_path, monkeypatch, capsys):
    app = fresh(tmp_path)
    monkeypatch.setenv("DATABASE_URL", app.config["SQLALCHEMY_DATABASE_URI"])
    monkeypatch.setenv("SECRET_KEY", "test")
    lan.main(["lan", "8000"])
    printed = capsys.readouterr().out
    address = re.search(r"http://[\d.]+:8000/setup\?code=([A-Z0-9-]{14})", printed)
    assert address is not None
    client = app.test_client()
    form = form_values(page(client.get(address.group(0).split(":8000", 1)[1])))
    assert form["code"] == address.group(1)
    assert first_account(client, form["code"]).status_code == 303
    lan.main(["lan", "8000"])
    assert "setup?code" not in capsys.readouterr().out  # an account exists: no code


def test_the_shell_prints_a_set_up_code_until_there_is_an_account(tmp_path):
    app = fresh(tmp_path)
    printed = app.test_cli_runner().invoke(args=["setup-code"])
    assert printed.exit_code == 0, printed.output
    code = printed.output.strip().splitlines()[-1]
    assert first_account(app.test_client(), code).status_code == 303
    over = app.test_cli_runner().invoke(args=["setup-code"])
    assert over.exit_code != 0
    assert "set-up is over" in over.output


def test_the_first_account_checks_what_it_is_given(tmp_path):
    app = fresh(tmp_path)
    client = app.test_client()
    response = first_account(client, setup_code_of(app), password="short")
    assert response.status_code == 422
    assert "at least 8 characters" in text_of(response)
    assert client.get("/").headers["Location"] == "/setup"


def test_the_first_administrator_receives_the_matches_from_before_accounts(tmp_path):
    app = fresh(tmp_path)
    with app.app_context():
        db.session.execute(
            text(
                "INSERT INTO player (name, name_key, created_at) VALUES ('Old', 'old', '2026-1-1')"
            )
        )
        db.session.execute(
            text(
                "INSERT INTO match (uid, variant, options, rules, players_per_side,"
                " first_dealer, status, created_at, revision) VALUES ('0123456789abcdef"
                "0123456789abcdef', 'classic', '{}', '{}', 2, 0, 'playing', '2026-01-01', 0)"
            )
        )
        db.session.commit()
    assert first_account(app.test_client(), setup_code_of(app)).status_code == 303
    with app.app_context():
        group_id = db.session.scalar(select(Match.group_id))
        assert group_id is not None
        assert db.session.scalar(select(Player.group_id)) == group_id
    # A second account does not get them.
    add_user(app, "Bea")
    with app.app_context():
        assert db.session.scalar(select(Match.group_id)) == group_id


# --- signing in and out --------------------------------------------------------------


def test_signing_in_goes_back_to_the_page_asked_for(anonymous_client):
    asked = anonymous_client.get("/history?player=Ann")
    assert asked.headers["Location"] == "/login?next=/history?player%3DAnn"
    login = anonymous_client.get(asked.headers["Location"])
    form = form_values(page(login))
    assert form["next"] == "/history?player=Ann"
    response = anonymous_client.post(
        "/login", data={**form, "username": TESTER, "password": PASSWORD}
    )
    assert response.headers["Location"] == "/history?player=Ann"


ELSEWHERE = [
    "//evil.example/x",
    "https://evil.example",
    "/\\evil",
    "\\\\evil.example",
    "/\t/evil.example",  # a browser drops tabs and line breaks: //evil.example
    "/\n/evil.example",
    "/\r\n/evil.example",
    " //evil.example",
    "\x01//evil.example",
    "/\x00/evil.example",
    "javascript:alert(1)",
    "evil.example",
]


@pytest.mark.parametrize("target", ELSEWHERE)
def test_signing_in_never_sends_elsewhere(anonymous_client, target):
    response = log_in(anonymous_client, next=target)
    assert response.headers["Location"] == "/"


def test_a_next_with_an_encoded_tab_does_not_lead_elsewhere(anonymous_client):
    login = anonymous_client.get("/login?next=/%09/evil.com")
    form = form_values(page(login))
    assert form["next"] == "/\t/evil.com"
    response = anonymous_client.post(
        "/login", data={**form, "username": TESTER, "password": PASSWORD}
    )
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_a_next_is_taken_as_a_browser_reads_it(anonymous_client):
    response = log_in(anonymous_client, next=" /his\ttory?player=Ann\n")
    assert response.headers["Location"] == "/history?player=Ann"


def test_a_wrong_password_says_so_and_signs_nobody_in(anonymous_client):
    response = log_in(anonymous_client, password="wrong password")
    assert response.status_code == 422
    assert top_errors(response) == ["That name and password do not match an account here."]
    assert anonymous_client.get("/").status_code == 302


def test_the_name_is_matched_whatever_its_case(anonymous_client):
    assert log_in(anonymous_client, name=TESTER.upper()).status_code == 303


def test_keep_me_signed_in_is_on_by_default_and_lasts_months(anonymous_client):
    form = form_values(page(anonymous_client.get("/login")))
    assert form["remember"] == "y"
    response = log_in(anonymous_client, remember="y")
    cookie = next(c for c in response.headers.getlist("Set-Cookie") if c.startswith("remember"))
    expires = re.search(r"Expires=\w+, \d+ \w+ (\d+)", cookie)
    assert expires
    assert int(expires.group(1)) >= 2027
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie


def test_a_phone_kept_signed_in_comes_back_signed_in(app):
    phone = app.test_client()
    log_in(phone, remember="y")
    remember = phone.get_cookie("remember_token")
    later = app.test_client()  # the session cookie is gone, the remember cookie stays
    later.set_cookie("remember_token", remember.value)
    assert later.get("/").status_code == 200


def test_signing_out_forgets_a_phone_kept_signed_in(anonymous_client):
    log_in(anonymous_client, remember="y")
    assert anonymous_client.get_cookie("remember_token") is not None
    token = csrf_token(anonymous_client.get("/account").text)
    response = anonymous_client.post("/logout", data={"csrf_token": token})
    cleared = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("remember")]
    assert len(cleared) == 1
    assert "Expires=Thu, 01 Jan 1970" in cleared[0]
    assert anonymous_client.get_cookie("remember_token") is None
    assert anonymous_client.get("/").status_code == 302


def test_a_remember_cookie_refreshed_on_each_request_is_refreshed_on_api_calls_too(app):
    app.config["REMEMBER_COOKIE_REFRESH_EACH_REQUEST"] = True
    phone = app.test_client()
    log_in(phone, remember="y")
    hand = {"variant": "classic", "sides": [{"meld_points": 50}, {"meld_points": 30}]}
    answer = phone.post("/api/v1/score", json=hand)
    assert answer.status_code == 200
    assert any(c.startswith("remember_token=") for c in answer.headers.getlist("Set-Cookie"))
    app.config["REMEMBER_COOKIE_REFRESH_EACH_REQUEST"] = False
    answer = phone.post("/api/v1/score", json=hand)
    assert not any(c.startswith("remember") for c in answer.headers.getlist("Set-Cookie"))


def test_signing_out_ends_the_session_and_clears_the_phones_copies(client):
    token = csrf_token(client.get("/account").text)
    response = client.post("/logout", data={"csrf_token": token})
    assert response.status_code == 303
    assert response.headers["Clear-Site-Data"] == '"cache", "storage"'
    assert client.get("/").status_code == 302


def test_a_copy_of_the_cookies_opens_nothing_once_signed_out(app):
    """Someone who copied a phone's cookies (session and "keep me signed in") cannot use
    them after the phone signed out: the sign-in they name is gone from the server."""
    phone = app.test_client()
    log_in(phone, remember="y")
    copied = {name: phone.get_cookie(name).value for name in ("session", "remember_token")}
    signed_out = phone.post("/logout", data={"csrf_token": csrf_token(phone.get("/account").text)})
    assert signed_out.status_code == 303
    for name, value in copied.items():
        thief = app.test_client()
        thief.set_cookie(name, value)
        assert thief.get("/").status_code == 302, name  # to the sign-in page
        assert thief.get("/api/v1/stats").status_code == 401, name


def test_signing_out_everywhere_ends_every_sign_in(app):
    phone, tablet = app.test_client(), app.test_client()
    log_in(phone, remember="y")
    log_in(tablet, remember="y")
    kept = tablet.get_cookie("remember_token").value
    account = tablet.get("/account")
    assert "2 phones and browsers are signed in" in text_of(account)
    response = tablet.post(
        "/account/sign-out-everywhere", data={"csrf_token": csrf_token(account.text)}
    )
    assert response.status_code == 303
    assert response.headers["Clear-Site-Data"] == '"cache", "storage"'
    assert "Signed out everywhere (2 sign-ins ended)." in flashes(tablet.get("/login"))
    assert phone.get("/").status_code == 302
    assert tablet.get("/").status_code == 302
    replay = app.test_client()
    replay.set_cookie("remember_token", kept)
    assert replay.get("/").status_code == 302


def test_sign_ins_older_than_the_longest_keep_me_signed_in_are_forgotten(app):
    phone = app.test_client()
    log_in(phone)
    with app.app_context(), transaction():
        ancient = utcnow() - app.config["REMEMBER_COOKIE_DURATION"] - timedelta(days=1)
        db.session.execute(update(SignIn).values(created_at=ancient))
    assert phone.get("/").status_code == 200  # tidied when the user next signs in
    log_in(app.test_client())  # the next sign-in clears it away
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(SignIn)).scalar() == 1
    assert phone.get("/").status_code == 302


def test_a_live_board_stops_at_once_for_a_phone_signed_out_elsewhere(app):
    phone, laptop = app.test_client(), app.test_client()
    log_in(phone)
    log_in(laptop)
    body = {"variant": "classic-2p", "sides": [{"players": ["A"]}, {"players": ["B"]}]}
    match_id = phone.post("/api/v1/matches", json=body).json["id"]
    assert phone.get(f"/matches/{match_id}/board").status_code == 200
    account = laptop.get("/account")
    laptop.post("/account/sign-out-everywhere", data={"csrf_token": csrf_token(account.text)})
    assert phone.get(f"/matches/{match_id}/board").status_code == 401


# --- passwords --------------------------------------------------------------------------


def test_a_new_password_ends_every_other_session(app):
    phone, tablet = app.test_client(), app.test_client()
    log_in(phone)
    log_in(tablet, remember="y")
    remembered = tablet.get_cookie("remember_token").value
    form = form_values(page(phone.get("/account")), form_index=1)
    changed = phone.post(
        "/account", data={**form, "pw-current": PASSWORD, "pw-new": "a new long secret"}
    )
    assert changed.status_code == 303
    assert phone.get("/").status_code == 200  # this phone stays signed in
    assert tablet.get("/").status_code == 302  # the other one must sign in again
    replay = app.test_client()
    replay.set_cookie("remember_token", remembered)
    assert replay.get("/").status_code == 302  # and its "keep me signed in" is over too
    assert log_in(app.test_client(), password="a new long secret").status_code == 303
    assert log_in(app.test_client()).status_code == 422


def token_of(app, name: str = TESTER) -> str:
    with app.app_context(), transaction():
        return accounts.new_api_token(accounts.find_user(name), "script").secret


MATCH = {"variant": "classic-2p", "sides": [{"players": ["A"]}, {"players": ["B"]}]}


def works(app, token: str) -> bool:
    headers = {"Authorization": f"Bearer {token}"}
    answer = app.test_client().post("/api/v1/matches", json=MATCH, headers=headers)
    assert answer.status_code in (201, 401)
    return answer.status_code == 201


def test_a_new_password_revokes_the_api_tokens_unless_told_not_to(app, client):
    token = token_of(app)
    form = form_values(page(client.get("/account")), form_index=1)
    assert form["pw-revoke_tokens"] == "y"  # offered, and ticked
    kept = {k: v for k, v in form.items() if k != "pw-revoke_tokens"}
    changed = client.post("/account", data={**kept, "pw-current": PASSWORD, "pw-new": "x" * 12})
    assert changed.status_code == 303
    assert works(app, token)
    form = form_values(page(client.get("/account")), form_index=1)
    changed = client.post("/account", data={**form, "pw-current": "x" * 12, "pw-new": "y" * 12})
    assert changed.status_code == 303
    assert "Your API tokens (1) were revoked." in " ".join(flashes(client.get("/account")))
    assert not works(app, token)


def test_changing_the_password_needs_the_current_one(client, app):
    form = form_values(page(client.get("/account")), form_index=1)
    response = client.post("/account", data={**form, "pw-current": "nope", "pw-new": "x" * 10})
    assert response.status_code == 422
    assert "That is not your current password" in text_of(response)
    assert log_in(app.test_client()).status_code == 303


# --- registering ---------------------------------------------------------------------------


def invite_of(app) -> str:
    with app.app_context(), transaction():
        user = accounts.find_user(TESTER)
        return groups.new_invite(groups.personal_group(user), user).token


def register(client, name: str, invite: str = ""):
    url = "/register" + (f"?invite={invite}" if invite else "")
    form = form_values(page(client.get(url)))
    return client.post(url, data={**form, "username": name, "password": "long enough pw"})


def test_by_default_an_account_needs_an_invite_link(app, anonymous_client):
    assert anonymous_client.get("/register").status_code == 403
    assert "invite link" in text_of(anonymous_client.get("/register"))
    token = invite_of(app)
    response = register(anonymous_client, "Bea", token)
    assert response.status_code == 303
    # Bea is in her own group and in the group that invited her.
    with app.app_context():
        assert len(groups.groups_of(accounts.find_user("Bea"))) == 2


def test_open_registration_lets_anyone_in_and_closed_lets_nobody(app, client):
    form = form_values(page(client.get("/admin")))
    client.post("/admin", data={**form, "registration": "open"})
    assert register(app.test_client(), "Bea").status_code == 303
    client.post("/admin", data={**form, "registration": "closed"})
    token = invite_of(app)
    closed = app.test_client().get(f"/register?invite={token}")
    assert closed.status_code == 403
    assert "administrator" in text_of(closed)


def test_only_the_administrator_sees_the_server_settings(app):
    add_user(app, "Bea")
    assert sign_in(app.test_client(), "Bea").get("/admin").status_code == 403


def test_a_taken_name_is_refused_whatever_its_case(app):
    token = invite_of(app)
    response = register(app.test_client(), TESTER.lower(), token)
    assert response.status_code == 422
    assert "is taken" in text_of(response)


# --- rate limits ----------------------------------------------------------------------


def test_signing_in_is_rate_limited_with_a_clear_message(tmp_path):
    app = fresh(tmp_path, RATELIMIT_ENABLED=True)
    add_user(app, "Ada")
    client = app.test_client()
    answers = [log_in(client, "Ada", "wrong password").status_code for _ in range(11)]
    assert answers[:10] == [422] * 10
    assert answers[10] == 429
    page_429 = log_in(client, "Ada", PASSWORD)
    assert page_429.status_code == 429
    assert "Too many" in text_of(page_429)


def test_the_sign_in_limits_are_counted_in_the_database_unless_told_otherwise(
    tmp_path, monkeypatch
):
    """(Counted across processes: tests/db/test_gunicorn.py.)"""
    assert fresh(tmp_path).config["RATELIMIT_STORAGE_URI"] == "scorekeeper-database://"
    monkeypatch.setenv("SCOREKEEPER_RATELIMIT_STORAGE", "memory://")
    assert fresh(tmp_path).config["RATELIMIT_STORAGE_URI"] == "memory://"


# --- API tokens -------------------------------------------------------------------------


def make_token(client, **fields):
    form = form_values(page(client.get("/account")), form_index=2)
    return client.post("/account", data={**form, **fields})


def test_an_api_token_is_shown_once_works_and_can_be_revoked(client, app):
    made = make_token(client, **{"token-name": "my script", "token-password": PASSWORD})
    assert made.status_code == 200  # shown in this answer, not kept for the next one
    assert made.headers["Cache-Control"] == "no-store"
    token = re.search(r"sk_[\w-]+", made.text).group(0)
    for cookie in made.headers.getlist("Set-Cookie"):
        session = app.session_interface.get_signing_serializer(app).loads(
            cookie.split(";")[0].split("=", 1)[1]
        )
        assert token not in str(session)
    assert "sk_" not in client.get("/account").text  # shown this once
    assert works(app, token)
    with app.app_context():
        token_id = accounts.api_tokens(accounts.find_user(TESTER))[0].id
    shown = client.get("/account")
    client.post(f"/account/tokens/{token_id}/revoke", data={"csrf_token": csrf_token(shown.text)})
    assert not works(app, token)


def test_making_a_token_asks_for_the_password_again(client, app):
    """A copied cookie alone cannot make a credential that outlives the session."""
    missing = make_token(client, **{"token-name": "my script"})
    assert missing.status_code == 422
    assert "Enter your password" in text_of(missing)
    wrong = make_token(client, **{"token-name": "my script", "token-password": "not it"})
    assert wrong.status_code == 422
    assert "That is not your password" in text_of(wrong)
    assert form_values(page(wrong), form_index=2)["token-name"] == "my script"  # kept
    assert "sk_" not in wrong.text
    with app.app_context():
        assert accounts.api_tokens(accounts.find_user(TESTER)) == []


def test_tokens_are_kept_hashed(client, app):
    with app.app_context():
        with transaction():
            made = accounts.new_api_token(accounts.find_user(TESTER), "x")
        stored = db.session.execute(text("SELECT token_hash FROM api_token")).scalar_one()
    assert made.secret not in stored
    assert len(stored) == 64


# --- the shell commands -----------------------------------------------------------------


def test_users_can_be_made_from_the_shell_and_given_a_token(app, runner):
    made = runner.invoke(args=["users", "create", "Cal", "--password", "long enough pw"])
    assert made.exit_code == 0, made.output
    assert "Created user Cal" in made.output
    prompted = runner.invoke(
        args=["users", "create", "Dee", "--admin"], input="another long pw\nanother long pw\n"
    )
    assert prompted.exit_code == 0, prompted.output
    with app.app_context():
        assert accounts.find_user("Dee").is_admin
        assert not accounts.find_user("Cal").is_admin
    token = runner.invoke(args=["users", "token", "Cal"])
    assert token.exit_code == 0
    secret = token.output.strip().splitlines()[-1]
    headers = {"Authorization": f"Bearer {secret}"}
    body = {"variant": "classic-2p", "sides": [{"players": ["A"]}, {"players": ["B"]}]}
    assert app.test_client().post("/api/v1/matches", json=body, headers=headers).status_code == 201
    missing = runner.invoke(args=["users", "token", "Nobody"])
    assert missing.exit_code != 0
    assert "There is no user" in missing.output
    taken = runner.invoke(args=["users", "create", "cal", "--password", "long enough pw"])
    assert taken.exit_code != 0
    assert "taken" in taken.output


# --- on the internet ----------------------------------------------------------------------


def test_a_server_for_the_internet_will_not_start_without_a_secret_key(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("SCOREKEEPER_PUBLIC_URL", "https://scores.example.org")
    url = f"sqlite:///{tmp_path / 's.sqlite'}"
    with pytest.raises(ConfigurationError, match="Set SECRET_KEY"):
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    monkeypatch.setenv("SCOREKEEPER_PROXIES", "1")
    monkeypatch.delenv("SCOREKEEPER_PUBLIC_URL")
    with pytest.raises(ConfigurationError):
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    monkeypatch.setenv("SECRET_KEY", secrets.token_hex(32))
    assert create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})


@pytest.mark.parametrize(
    "weak",
    ["a" * 64, "0123456789" * 3, secrets.token_hex(16), secrets.token_urlsafe(20), "abc" * 40],
    ids=["one letter", "digits", "16 bytes in hex", "20 bytes in base64", "three letters"],
)
def test_a_server_for_the_internet_refuses_a_weak_secret_key(tmp_path, monkeypatch, weak):
    monkeypatch.setenv("SCOREKEEPER_PROXIES", "1")
    monkeypatch.setenv("SECRET_KEY", weak)
    url = f"sqlite:///{tmp_path / 's.sqlite'}"
    with pytest.raises(ConfigurationError, match="at least 32 random bytes") as refused:
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    assert "secrets.token_hex(32)" in str(refused.value)  # says how to make one


@pytest.mark.parametrize(
    "strong", [secrets.token_hex(32), secrets.token_urlsafe(32)], ids=["hex", "base64"]
)
def test_a_random_key_of_32_bytes_is_enough(tmp_path, monkeypatch, strong):
    monkeypatch.setenv("SCOREKEEPER_PROXIES", "1")
    monkeypatch.setenv("SECRET_KEY", strong)
    url = f"sqlite:///{tmp_path / 's.sqlite'}"
    assert create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})


@pytest.mark.parametrize("proxies", ["1", ""])
def test_the_placeholder_key_of_the_deploy_file_is_refused(tmp_path, monkeypatch, proxies):
    """With the placeholder, anyone could sign a session cookie that opens /admin."""
    placeholder = re.search(r"^SECRET_KEY=(.*)$", DEPLOY_ENV.read_text(), re.M).group(1)
    monkeypatch.setenv("SCOREKEEPER_PROXIES", proxies)
    monkeypatch.setenv("SECRET_KEY", placeholder)
    url = f"sqlite:///{tmp_path / 's.sqlite'}"
    with pytest.raises(ConfigurationError, match="placeholder"):
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})


def test_behind_an_https_proxy_cookies_are_secure_and_hsts_is_sent(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_PUBLIC_URL", "https://scores.example.org")
    monkeypatch.setenv("SCOREKEEPER_PROXIES", "1")
    app = fresh(tmp_path, SECRET_KEY=secrets.token_hex(32))
    add_user(app, "Ada")
    client = app.test_client()
    public = "https://scores.example.org"
    proxied = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example.org"}
    login = client.get("/login", headers=proxied, base_url=public)
    assert login.status_code == 200
    assert login.headers["Strict-Transport-Security"] == "max-age=31536000"
    cookie = login.headers["Set-Cookie"]
    assert "Secure" in cookie
    assert "HttpOnly" in cookie
    form = form_values(page(login))
    signed = client.post(
        "/login",
        data={**form, "username": "Ada", "password": PASSWORD},
        headers={**proxied, "Referer": f"{public}/login"},  # as browsers send it
        base_url=public,
    )
    assert signed.status_code == 303
    # Links are built with the public address.
    with app.test_request_context("/", base_url="https://scores.example.org"):
        assert url_for("home.index", _external=True) == "https://scores.example.org/"
    plain = app.test_client().get("/login", base_url="http://localhost")  # no HTTPS: no HSTS
    assert "Strict-Transport-Security" not in plain.headers
    # The proxy speaks plain HTTP to the app; its X-Forwarded-Proto says the phone used HTTPS.
    forwarded = app.test_client().get(
        "/login", headers=proxied, base_url="http://scores.example.org"
    )
    assert forwarded.headers.getlist("Strict-Transport-Security") == ["max-age=31536000"]


def test_the_users_table_keeps_no_password(app):
    with app.app_context():
        user = db.session.scalar(select(User))
        assert PASSWORD not in user.password_hash
        assert user.password_hash.startswith("pbkdf2:")  # tests; scrypt by default
