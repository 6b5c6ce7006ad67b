"""Building the Flask application: configuration, extensions, blueprints."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

from . import api, errors, web
from .extensions import csrf, db, migrate

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def database_url(raw: str) -> str:
    """Point PostgreSQL URLs at the psycopg 3 driver the project installs."""
    for prefix in ("postgres://", "postgresql://"):
        if raw.startswith(prefix):
            return "postgresql+psycopg://" + raw[len(prefix) :]
    return raw


def _secret_key(instance_path: str) -> str:
    """A key kept in the instance folder, so sessions survive a restart."""
    path = Path(instance_path) / "secret_key"
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_hex(32)
    path.write_text(key)
    path.chmod(0o600)
    return key


def build_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=str(PROJECT_ROOT / "instance"),
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///"
        + os.path.join(app.instance_path, "scorekeeper.sqlite"),
        MAX_CONTENT_LENGTH=256 * 1024,
    )
    app.config.from_pyfile("config.py", silent=True)
    if os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    if os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
    if test_config is not None:
        app.config.from_mapping(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)

    app.json.sort_keys = False  # keep answers in the documented order
    db.init_app(app)
    migrate.init_app(app, db, directory=str(PROJECT_ROOT / "migrations"), render_as_batch=True)
    csrf.init_app(app)

    for blueprint in api.BLUEPRINTS:
        app.register_blueprint(blueprint)
        csrf.exempt(blueprint)
    for blueprint in web.BLUEPRINTS:
        app.register_blueprint(blueprint)
    errors.init_app(app)
    return app
