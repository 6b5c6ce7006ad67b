"""Building the Flask application: configuration, extensions, blueprints."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Mapping
from inspect import iscoroutinefunction
from pathlib import Path
from typing import Any

from flask import Flask, Request, Response
from flask import typing as ft
from flask.sessions import SessionMixin
from werkzeug.routing import MapAdapter

from . import (
    access,
    api,
    backup,
    caches,
    delivery,
    deployment,
    edge,
    errors,
    user_commands,
    web,
    words,
)
from .current import this_request_context
from .database import engine_options
from .edge import wsgi_text
from .extensions import babel, csrf, db, limiter, login_manager, migrate
from .json_answers import FastJSONProvider
from .services import storage
from .sessions import CheckedCookieSessions
from .web.common import signed

PROJECT_ROOT = Path(__file__).resolve().parent.parent
LIMITER_STATE = "_limiter_request_context"  # Flask-Limiter's, on the request context
ASYNC_ANSWERS = 1024  # functions whose `async def` answer is kept (hooks, views, handlers)


class Scorekeeper(Flask):
    """Flask, with the per-request questions whose answers do not change asked once."""

    json_provider_class = FastJSONProvider

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.async_answers: dict[Callable[..., Any], bool] = {}
        self.host_check = edge.HostCheck()

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """As Flask's, which asks of every hook and view, on every request, whether it is
        `async def` (about ten times a request); a function's answer is kept."""
        try:
            is_async = self.async_answers[func]
        except KeyError:
            is_async = iscoroutinefunction(func)
            if len(self.async_answers) < ASYNC_ANSWERS:
                self.async_answers[func] = is_async
        except TypeError:  # an unhashable callable object: asked every time
            return super().ensure_sync(func)
        return self.async_to_sync(func) if is_async else func

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        """As Flask's (3.1), with the Host checked against TRUSTED_HOSTS by `host_check`,
        which does werkzeug's check once per distinct Host and remembers the name the
        URL map binds to: binding is then `Map.bind_to_environ`'s last step alone."""
        trusted = self.config["TRUSTED_HOSTS"]
        if request is None or trusted is None:
            return super().create_url_adapter(request)
        environ = request.environ
        request.trusted_hosts = trusted
        request.host, bound = self.host_check.host(environ, trusted)
        subdomain = None
        server_name = self.config["SERVER_NAME"]
        url_map = self.url_map
        if url_map.host_matching:
            server_name = None  # the actual host is matched, not SERVER_NAME
        elif not self.subdomain_matching:
            subdomain = url_map.default_subdomain or ""
            if server_name is None and bound is not None and "HTTP_UPGRADE" not in environ:
                script_name = wsgi_text(environ, "SCRIPT_NAME")
                path_info = wsgi_text(environ, "PATH_INFO")
                return MapAdapter(
                    url_map,
                    bound,
                    "/" if script_name is None else script_name,
                    subdomain,
                    environ["wsgi.url_scheme"],
                    "/" if path_info is None else path_info,
                    environ["REQUEST_METHOD"],
                    wsgi_text(environ, "QUERY_STRING"),
                )
        return url_map.bind_to_environ(environ, server_name=server_name, subdomain=subdomain)


def database_url(raw: str) -> str:
    """Point PostgreSQL URLs at the psycopg 3 driver the project installs."""
    for prefix in ("postgres://", "postgresql://"):
        if raw.startswith(prefix):
            return "postgresql+psycopg://" + raw[len(prefix) :]
    return raw


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


def _context_vars() -> dict[str, Any]:
    """The request context's own attributes, read without its properties' side effects."""
    attributes: dict[str, Any] = vars(this_request_context())
    return attributes


def _limits_checked() -> bool:
    """Whether a limit check ran in this request: Flask-Limiter keeps its state for the
    request (limits met, headers to send) on the request context, made by the first check."""
    return LIMITER_STATE in _context_vars()  # 0.4 us; hasattr through the proxy: 2.8 us


def _session_read() -> bool:
    """Whether this request read or wrote its session. Asked through the `session` proxy,
    Flask (3.1) would count the question itself as a read."""
    opened: SessionMixin | None = _context_vars().get("_session")
    return opened is None or opened.accessed


def _init_remember_cookie(app: Flask) -> None:
    """Flask-Login's after-request hook, run on the requests it can have work for.

    It writes or clears the "keep me signed in" cookie when `login_user` or
    `logout_user` asked for it in the session during the request. It asks by reading the
    session through Flask's proxy, which marks the session read: every answer, even one
    that depends on no cookie (scoring a hand, the variants), then said "Vary: Cookie".
    Run only when the request read its session (or when the cookie is refreshed on every
    request), it leaves those answers alone and costs them nothing.
    """
    hook = login_manager._update_remember_cookie

    def update_remember_cookie(response: Response) -> Response:
        if _session_read() or app.config.get("REMEMBER_COOKIE_REFRESH_EACH_REQUEST"):
            answer: Response = hook(response)
            return answer
        return response

    hooks = app.after_request_funcs[None]
    app.after_request_funcs[None] = [update_remember_cookie if f == hook else f for f in hooks]


def _init_session_teardown(app: Flask) -> None:
    """Flask-SQLAlchemy's teardown, run when the app context made a database session.

    It removes the context's session; with none made (scoring a hand, the variants, a
    static file), SQLAlchemy's registry looked for it twice and raised and caught a
    KeyError to find nothing, about 7 us of every such request.
    """
    hook = db._teardown_session
    registry = db.session.registry

    def teardown_session(error: BaseException | None) -> None:
        if registry.has():
            hook(error)

    hooks = app.teardown_appcontext_funcs
    app.teardown_appcontext_funcs = [teardown_session if f == hook else f for f in hooks]


def _init_limiter(app: Flask) -> None:
    """Flask-Limiter, its hooks cut to the requests they have work for.

    Only decorated views have limits (signing in, invites), and they check themselves:
    the check Flask-Limiter also runs before every request would find nothing to count
    for the others, at a cost to every poll of a live board. Its after-request hook
    (rate-limit headers, deductions) and teardown work only on what a check left on
    the request: they run when one did, and would otherwise build it three times to
    find nothing.
    """
    after = list(app.after_request_funcs.get(None, []))
    teardown = list(app.teardown_request_funcs.get(None, []))
    limiter.init_app(app)
    before = app.before_request_funcs.get(None, [])
    app.before_request_funcs[None] = [f for f in before if f != limiter._check_request_limit]

    def if_checked(hook: ft.AfterRequestCallable[Any]) -> ft.AfterRequestCallable[Any]:
        def after_request(response: Response) -> Response:
            if not _limits_checked():
                return response
            answer: Response = app.ensure_sync(hook)(response)
            return answer

        return after_request

    def if_checked_teardown(hook: ft.TeardownCallable) -> ft.TeardownCallable:
        def teardown_request(error: BaseException | None) -> None:
            if _limits_checked():
                app.ensure_sync(hook)(error)

        return teardown_request

    hooks = app.after_request_funcs[None]
    app.after_request_funcs[None] = [f if f in after else if_checked(f) for f in hooks]
    hooks = app.teardown_request_funcs[None]
    app.teardown_request_funcs[None] = [
        f if f in teardown else if_checked_teardown(f) for f in hooks
    ]


def build_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Scorekeeper(
        __name__,
        instance_relative_config=True,
        instance_path=str(PROJECT_ROOT / "instance"),
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=None,  # served fingerprinted by `delivery`
    )
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///"
        + os.path.join(app.instance_path, "scorekeeper.sqlite"),
        MAX_CONTENT_LENGTH=256 * 1024,
        # Page forms are FlaskForms that check their own CSRF token, so a view can keep
        # the entries of an expired form; a token lasts a whole evening at the table.
        WTF_CSRF_CHECK_DEFAULT=False,
        WTF_CSRF_TIME_LIMIT=12 * 3600,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    app.config.from_pyfile("config.py", silent=True)
    if os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    if os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
    app.config.from_mapping(deployment.environment())
    if test_config is not None:
        app.config.from_mapping(test_config)
    deployment.configure(app, secret_given=bool(app.config.get("SECRET_KEY")))
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    engine = app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", {})
    for name, value in engine_options(app.config["SQLALCHEMY_DATABASE_URI"]).items():
        engine.setdefault(name, value)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)

    app.session_interface = CheckedCookieSessions()
    db.init_app(app)
    _init_session_teardown(app)
    migrate.init_app(app, db, directory=str(PROJECT_ROOT / "migrations"), render_as_batch=True)
    csrf.init_app(app)
    babel.init_app(app, locale_selector=words.reader_locale)
    words.init_app(app)
    access.init_app(app)
    _init_remember_cookie(app)
    _init_limiter(app)

    edge.init_app(app)  # first: what is refused at the door is refused before anything else
    for blueprint in api.BLUEPRINTS:
        app.register_blueprint(blueprint)
        csrf.exempt(blueprint)
    for blueprint in web.BLUEPRINTS:
        app.register_blueprint(blueprint)
    app.add_template_filter(signed)  # (the scoreboard's and the hand pages')
    caches.init_app(app)
    storage.init_app(app)
    errors.init_app(app)
    backup.init_app(app)
    user_commands.init_app(app)
    delivery.init_app(app, PROJECT_ROOT / "static")
    return app
