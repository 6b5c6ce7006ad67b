"""Shared by several test packages: the table layouts RULES.md allows, the bench script."""

from __future__ import annotations

import copy
import importlib.util
import shutil
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import pytest
from flask import Flask
from hypothesis import HealthCheck, settings

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.services import accounts
from scorekeeper.services.audit import Actor
from scorekeeper.services.hand_writes import record_hand
from scorekeeper.services.storage import transaction

T = TypeVar("T")
BENCH_DIR = Path(__file__).resolve().parents[1] / "bench"
BENCH = BENCH_DIR / "play_matches.py"

# Every table layout of RULES.md: preset, sides, players a side.
LAYOUTS = [
    ("classic", 2, 2),
    ("classic-2p", 2, 1),
    ("classic-3p", 3, 1),
    ("samba", 2, 2),
    ("samba-fournier", 2, 2),
    ("brazilian", 2, 2),
    ("bolivia", 2, 2),
    ("buraco", 2, 1),
    ("burraco", 2, 1),
    ("burraco", 2, 2),
]


def load_play_matches() -> ModuleType:
    """bench/play_matches.py, which is a script and not part of the package."""
    return load_bench("play_matches")


def load_bench(name: str) -> ModuleType:
    """A module of bench/ (scripts, not part of the package), by its name."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH_DIR / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


HTTP_SHARE = 10  # a property test over HTTP runs this share of the profile's examples


def over_http(*checks: HealthCheck) -> settings:
    """Hypothesis settings for a property test whose every example goes through the app
    (requests, transactions, pages): a tenth of the loaded profile's examples, so the
    `ci` profile keeps such a test short and `soak` (bench/fuzz.py) runs it long. Made
    when the test module is read, after conftest loaded the profile; `checks` are the
    health checks the test also suppresses."""
    profile = settings()
    return settings(
        max_examples=max(10, profile.max_examples // HTTP_SHARE),
        suppress_health_check=[*profile.suppress_health_check, *checks],
    )


TESTER = "Tess"
PASSWORD = "correct horse battery"
FAST_HASH = "pbkdf2:sha256:1000"  # tests only: the real default is scrypt


def app_config(url: str, **extra) -> dict:
    return {
        "TESTING": True,
        "SECRET_KEY": "test",
        "SQLALCHEMY_DATABASE_URI": url,
        "PASSWORD_HASH_METHOD": FAST_HASH,
        "RATELIMIT_ENABLED": False,
        **extra,
    }


def app_on_new_database(path: Path, **extra) -> Flask:
    """An app on a new SQLite file at `path`, its tables made and nobody signed up: the
    start of a module's own data (the template's copy already has TESTER)."""
    app = create_app(app_config(f"sqlite:///{path}", **extra))
    with app.app_context():
        db.create_all()
    return app


def add_user(app, name: str, password: str = PASSWORD, admin: bool = False) -> None:
    with app.app_context(), transaction():
        accounts.create_user(name, password, admin=admin)


def make_tester(app) -> None:
    """TESTER exists in the app's database (which may have been migrated just now)."""
    with app.app_context():
        missing = accounts.find_user(TESTER) is None
    if missing:
        add_user(app, TESTER, admin=True)


def signed_in(app):
    """A test client signed in as TESTER (made if need be)."""
    make_tester(app)
    return sign_in(app.test_client())


def api_token_of_tester(app) -> str:
    """A new API token of TESTER (made if need be), for clients outside the test client."""
    make_tester(app)
    with app.app_context(), transaction():
        return accounts.new_api_token(accounts.find_user(TESTER), "tests").secret


def sign_in(client, name: str = TESTER):
    """Sign a test client in as `name` (its session, as after the sign-in form)."""
    with client.application.app_context(), transaction():
        user = accounts.find_user(name)
        accounts.start_sign_in(user)
        user_id = user.get_id()
    with client.session_transaction() as session:
        session["_user_id"] = user_id
        session["_fresh"] = True
    return client


def record_hands(app, match_id: int, hands: Iterable[list[dict[str, Any]]]) -> None:
    """Record hands as TESTER through the service the API's hand write calls, each in its
    own transaction, without making the API's answer (the whole match) for each: for
    tests that need a long match, not the answers on the way."""
    with app.app_context():
        tester = accounts.find_user(TESTER)
        actor = Actor(tester.username, tester.id)
        for sides in hands:
            with transaction():
                record_hand(match_id, sides, actor=actor)


def filled_database(template: Path, path: Path, fill: Callable[..., T]) -> tuple[Path, T]:
    """A copy of the template database at `path`, filled by `fill(app, client)` (TESTER
    signed in), and what `fill` answered: data many tests of a module start from, made once
    per test process instead of once per test (each test's app gets its own copy)."""
    shutil.copyfile(template, path)
    app = create_app(app_config(f"sqlite:///{path}"))
    made = fill(app, sign_in(app.test_client()))
    with app.app_context():
        db.session.remove()
        db.engine.dispose()  # the last connection closed: the WAL is folded into the file
    return path, made


def filled_fixtures(name: str, fill: Callable[..., Any]) -> tuple[Any, Any, Any]:
    """The fixtures of a module whose tests start from `fill`'s data: `<name>_database`
    fills a copy of the template once per test process (`filled_database`); `app_database`
    gives the app of a test that asks for `name` a copy of that file; `name` answers (a
    copy of) what `fill` answered. Bind all three in the module."""

    @pytest.fixture(scope="session", name=f"{name}_database")
    def database(tmp_path_factory: Any, template_database: Path) -> tuple[Path, Any]:
        path = tmp_path_factory.mktemp(name) / f"{name}.sqlite"
        return filled_database(template_database, path, fill)

    @pytest.fixture(name="app_database")
    def app_database(request: Any, template_database: Path) -> Path:
        if name in request.fixturenames:
            return request.getfixturevalue(f"{name}_database")[0]  # type: ignore[no-any-return]
        return template_database

    @pytest.fixture(name=name)
    def made(request: Any, client: Any) -> Any:  # after `client`: its app has the copy
        return copy.deepcopy(request.getfixturevalue(f"{name}_database")[1])

    return database, app_database, made


def stored_ratings(app) -> dict[tuple[int, str], tuple[float, float, int]]:
    """Every stored rating as (player, family) -> (mu, sigma, matches), once any replay
    under way has ended."""
    from scorekeeper.season_models import Rating
    from scorekeeper.services.rating_replays import EXTENSION

    app.extensions[EXTENSION].wait_all()
    with app.app_context():
        return {
            (r.player_id, r.family): (r.mu, r.sigma, r.matches)
            for r in db.session.execute(db.select(Rating)).scalars()
        }
