"""The application factory: configuration, extensions, blueprints."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from flask_babel import Babel

from . import (
    access,
    api,
    backup,
    delivery,
    deployment,
    edge,
    errors,
    event_models,
    ids,
    languages,
    private_files,
    rate_limits,
    season_models,  # noqa: F401 (the tables of ratings and leagues, for migrations)
    user_commands,
    web,
    words,
)
from .api import state as api_state
from .database import database_url, engine_options
from .extensions import compress, csrf, db, limiter, migrate
from .services import match_state, rating_replays, ratings
from .web import event_common, matches
from .web.activity import activity_text, change_text

PROJECT_ROOT = Path(__file__).resolve().parent.parent
MODELS = (event_models,)  # every model's table is in the metadata (migrations, create_all)


def _secret_key(instance_path: str) -> str:
    """A key kept in the instance folder, so sessions survive a restart.

    Created atomically: several gunicorn workers starting at once agree on one key.
    """
    path = Path(instance_path) / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):
            key = path.read_text().strip()
            if key:
                return key
            time.sleep(0.02)
        raise RuntimeError(f"{path} is empty: delete it and start again") from None
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key


def _configure(app: Flask, test_config: Mapping[str, Any] | None) -> None:
    """Defaults, then instance/config.py, the environment, and the test's mapping."""
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///"
        + os.path.join(app.instance_path, "scorekeeper.sqlite"),
        MAX_CONTENT_LENGTH=256 * 1024,
        # Page forms are FlaskForms that check their own CSRF token, so a view can keep
        # the entries of an expired form; a token lasts a whole evening at the table.
        WTF_CSRF_CHECK_DEFAULT=False,
        WTF_CSRF_TIME_LIMIT=12 * 3600,
        SESSION_COOKIE_SAMESITE="Lax",
        # Compressed by zlib's gzip, which every browser and script takes (brotli and
        # zstd are left to a proxy such as Caddy: see deploy/).
        COMPRESS_ALGORITHM=["gzip"],
        COMPRESS_MIMETYPES=sorted(delivery.COMPRESSIBLE),
    )
    app.config.from_pyfile("config.py", silent=True)
    if os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    if os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
    app.config.from_mapping(deployment.environment())
    if test_config is not None:
        app.config.from_mapping(test_config)
    deployment.configure(app)
    url = app.config["SQLALCHEMY_DATABASE_URI"] = database_url(
        app.config["SQLALCHEMY_DATABASE_URI"]
    )
    engine = app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", {})
    for name, value in engine_options(url).items():
        engine.setdefault(name, value)
    private_files.private_database(app.config["SQLALCHEMY_DATABASE_URI"], app.instance_path)
    rate_limits.configure(app)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)
    if app.config.get("TRUSTED_HOSTS") is None:
        app.config["TRUSTED_HOSTS"] = edge.trusted_hosts(app)


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=str(PROJECT_ROOT / "instance"),
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=None,  # served fingerprinted by `delivery`
    )
    ids.init_app(app.url_map)  # first: every route's `<int:...>` is an id's range
    os.makedirs(app.instance_path, exist_ok=True)
    _configure(app, test_config)

    db.init_app(app)
    migrate.init_app(app, db, directory=str(PROJECT_ROOT / "migrations"), render_as_batch=True)
    csrf.init_app(app)
    limiter.init_app(app)
    compress.init_app(app)
    # One Babel object per app: it keeps the catalogues it has read, and two apps in one
    # process (the tests) must each read their own.
    Babel(app, locale_selector=languages.reader_locale)
    languages.init_app(app)
    words.init_app(app)
    access.init_app(app)

    edge.init_app(app)
    for blueprint in api.BLUEPRINTS:
        app.register_blueprint(blueprint)
        csrf.exempt(blueprint)
    for blueprint in web.BLUEPRINTS:
        app.register_blueprint(blueprint)
    app.add_template_global(activity_text)
    app.add_template_global(change_text)
    errors.init_app(app)
    match_state.init_app(app)
    rating_replays.init_app(app, ratings.replay_group)
    matches.init_app(app)
    event_common.init_app(app)
    api_state.init_app(app)
    backup.init_app(app)
    user_commands.init_app(app)
    delivery.init_app(app, PROJECT_ROOT / "static")
    return app
