"""Error answers: JSON under the API prefix, a friendly page everywhere else."""

from __future__ import annotations

from flask import Flask, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

from .api.common import PREFIX, ApiError, error_response
from .rules import Problem


def _wants_json() -> bool:
    return request.path == PREFIX or request.path.startswith(PREFIX + "/")


def init_app(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(error: ApiError):
        return error_response(error.status, error.problems)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        status = error.code or 500
        if _wants_json():
            return error_response(status, [Problem(None, None, error.description or error.name)])
        return render_template(
            "error.html", status=status, title=error.name, message=error.description
        ), status

    @app.errorhandler(Exception)
    def unexpected_error(error: Exception):
        app.logger.exception("Unhandled error", exc_info=error)
        wrapped = InternalServerError()
        if _wants_json():
            return error_response(500, [Problem(None, None, "Something went wrong on our side")])
        return render_template(
            "error.html",
            status=500,
            title=wrapped.name,
            message="Something went wrong on our side.",
        ), 500
