"""Fixtures in the flaskr style: `app`, `client`, `runner`.

`app` has one account, the administrator TESTER (the first account of a database is
its administrator); `client` is signed in as TESTER, as a phone would be.
`anonymous_client` is signed out.

Hypothesis profiles: `ci` (loaded here, what `make test` runs) gives the pure engine's
property tests (scorekeeper/rules, scorekeeper/clubs, the words) its `max_examples`;
a property test that goes over HTTP takes `support.over_http()`, a tenth of them.
`soak` (`pytest --hypothesis-profile=soak`, as `bench/fuzz.py` runs the fuzz tests)
runs 5,000 and 500.
"""

from __future__ import annotations

import shutil

import jinja2
import pytest
from hypothesis import HealthCheck, settings

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.services.rating_replays import EXTENSION

from .postgres import (  # noqa: F401 (fixtures for every test)
    migrated_postgres_schema,
    migrated_postgres_url,
    postgres_schema_url,
    postgres_url,
)
from .support import TESTER, add_user, app_config, app_on_new_database, sign_in

# No deadline: the machine is shared and a slow example is not a wrong one (speed is
# measured in bench/, never asserted in tests).
settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("soak", settings.get_profile("ci"), max_examples=5000)
settings.load_profile("ci")  # `--hypothesis-profile` loads another after this

FILES = ("-wal", "-shm", "-journal")  # what SQLite keeps beside a database file


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Tests marked `xdist_group` run on one worker, as `--dist loadgroup` promises.

    pytest-xdist (3.8) tells the scheduler a test's group by appending `@group` to the
    test's node id through `item._nodeid`, which pytest 9.2 no longer reads (it keeps the
    id in `item._id`): the suffix was lost and the marked tests were spread over the
    workers like any other, each worker building their module fixtures again (the Caddy
    site twice). The suffix is added here when pytest-xdist's did not take
    (pytest-dev/pytest-xdist#1386); once it does again, this changes nothing.
    """
    if not getattr(config.option, "loadgroup", False):
        return  # not a worker of a --dist loadgroup run
    for item in items:
        names = {
            str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
            for mark in item.iter_markers("xdist_group")
        }
        suffix = "@" + "_".join(sorted(names))
        if names and not item.nodeid.endswith(suffix):
            item._id = type(item._id).parse(item.nodeid + suffix)


class CompiledTemplates(jinja2.BytecodeCache):
    """Jinja's bytecode cache, in memory: a template is compiled once per test process,
    not once per test's app (rendering the first pages of a new app cost more than the
    rest of most tests). Jinja keys it by template name and file and checks the source's
    checksum, so an app renders exactly what it would have compiled itself."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.codes.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()


@pytest.fixture(scope="session")
def compiled_templates():
    return CompiledTemplates()


@pytest.fixture(scope="session")
def template_database(tmp_path_factory):
    """A SQLite file with the schema and TESTER, made once per test process: each test's
    `app` starts from a copy (making the tables and hashing a password cost more than
    most tests)."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite"
    template = app_on_new_database(path)
    add_user(template, TESTER, admin=True)
    with template.app_context():
        db.engine.dispose()  # the last connection closed: the WAL is folded into the file
    return path


@pytest.fixture
def app_database(template_database):
    """The SQLite file each test's `app` starts from a copy of: the template, unless a test
    module overrides this fixture with a database it filled once (`support.filled_database`)."""
    return template_database


@pytest.fixture(scope="session")
def worker_app(tmp_path_factory, compiled_templates):
    """The one app of a test process, on its own SQLite file (`app` fills it afresh for
    each test): making an app cost more than most tests."""
    database = tmp_path_factory.mktemp("app") / "app.sqlite"
    app = create_app(app_config(f"sqlite:///{database}"))
    app.jinja_env.bytecode_cache = compiled_templates
    return app, database


@pytest.fixture
def app(worker_app, app_database):
    """The test process's app on a fresh copy of `app_database`, its settings as made.

    Before the test, the app's connections are closed and its database file replaced by
    a new copy (a new file: a connection a test left open still reads the old one); after
    it, the ratings replays it started are waited for and the settings it changed put
    back. What the app keeps per process (a match's rules, boards, API states) is keyed
    by each match's uid, which no other match of any database has."""
    app, database = worker_app
    made = dict(app.config)
    with app.app_context():
        db.engine.dispose()
    for path in (database, *(database.with_name(database.name + end) for end in FILES)):
        path.unlink(missing_ok=True)
    shutil.copyfile(app_database, database)
    yield app
    app.extensions[EXTENSION].wait_all()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    app.config.clear()
    app.config.update(made)


@pytest.fixture
def client(app):
    return sign_in(app.test_client())


@pytest.fixture
def anonymous_client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
