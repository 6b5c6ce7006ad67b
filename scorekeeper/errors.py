"""Error answers: JSON under the API prefix, a friendly page everywhere else."""

from __future__ import annotations

from flask import Flask, render_template, request
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException, InternalServerError, NotFound, SecurityError

from .api.common import PREFIX, ApiError, error_response
from .services.storage import StorageUnavailable, unavailable
from .validation import FieldError


def _wants_json() -> bool:
    return request.path == PREFIX or request.path.startswith(PREFIX + "/")


def init_app(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(error: ApiError) -> ResponseReturnValue:
        response, status = error_response(error.status, error.problems)
        response.headers.update(error.headers)
        return response, status

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        status = error.code or 500
        message = error.description or error.name
        if isinstance(error, SecurityError):  # a Host header not on the allow-list
            host = request.environ.get("HTTP_HOST", "")
            message = (
                f"This server does not answer to the name {host!r}. If you run it, add "
                "that name to SCOREKEEPER_HOSTS (see the README)."
            )
            if not _wants_json():  # no links: URLs cannot be built for an unknown host
                return render_template("error_bare.html", title=error.name, message=message), (
                    status
                )
        if isinstance(error, NotFound) and request.url_rule is None:  # no route has the path
            message = (
                f"There is no page at {request.path}. The address may be mistyped, or a "
                "number in it wrong: matches, groups and hands are named by whole numbers."
            )
        if status == 429:  # Flask-Limiter: too many sign-in (or invite) attempts
            message = f"Too many attempts from here ({message}): wait a minute, then try again."
        if _wants_json():
            return error_response(status, [FieldError(None, None, message)])
        return render_template("error.html", status=status, title=error.name, message=message), (
            status
        )

    @app.errorhandler(StorageUnavailable)
    def storage_unavailable(error: StorageUnavailable) -> ResponseReturnValue:
        if _wants_json():
            return error_response(503, [FieldError(None, None, error.message)])
        return render_template(
            "error.html", status=503, title="Cannot save right now", message=error.message
        ), 503

    @app.errorhandler(DBAPIError)
    def database_error(error: DBAPIError) -> ResponseReturnValue:
        refused = unavailable(error)
        if refused is None:
            return unexpected_error(error)
        app.logger.error("The database failed: %s", error)
        return storage_unavailable(refused)

    @app.errorhandler(Exception)
    def unexpected_error(error: Exception) -> ResponseReturnValue:
        app.logger.exception("Unhandled error", exc_info=error)
        wrapped = InternalServerError()
        if _wants_json():
            return error_response(500, [FieldError(None, None, "Something went wrong on our side")])
        return render_template(
            "error.html",
            status=500,
            title=wrapped.name,
            message="Something went wrong on our side.",
        ), 500
