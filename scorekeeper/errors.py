"""Error answers: JSON under the API prefix, a friendly page everywhere else."""

from __future__ import annotations

from flask import Flask, render_template, request
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException, NotFound, SecurityError

from .api.common import PREFIX, ApiError, error_response
from .services.storage import StorageUnavailable, unavailable
from .validation import FieldError
from .words.translate import gettext


def _wants_json() -> bool:
    return request.path == PREFIX or request.path.startswith(PREFIX + "/")


def _title(status: int) -> str:
    """An error page's heading, by its status, in the reader's language."""
    titles = {
        400: lambda: gettext("Bad request"),
        401: lambda: gettext("Sign in first"),
        403: lambda: gettext("Not allowed"),
        404: lambda: gettext("Not found"),
        405: lambda: gettext("Not done this way"),
        409: lambda: gettext("Changed meanwhile"),
        412: lambda: gettext("Changed meanwhile"),
        413: lambda: gettext("Too large"),
        414: lambda: gettext("Address too long"),
        415: lambda: gettext("Not a kind of content this takes"),
        422: lambda: gettext("Not valid"),
        429: lambda: gettext("Too many attempts"),
        503: lambda: gettext("Cannot save right now"),
    }
    said = titles.get(status)
    return said() if said is not None else gettext("Something went wrong")


def _default_message(status: int) -> str:
    """What an error says when its view gave no words of its own (werkzeug's own
    descriptions are English)."""
    messages = {
        400: lambda: gettext("The request could not be understood."),
        401: lambda: gettext("Sign in to see this."),
        403: lambda: gettext("You may not do this here."),
        404: lambda: gettext("There is nothing at this address."),
        405: lambda: gettext("This address does not take this kind of request."),
        413: lambda: gettext("What was sent is larger than this server takes."),
        415: lambda: gettext("What was sent is not a kind of content this address takes."),
    }
    said = messages.get(status)
    return said() if said is not None else gettext("Something went wrong on our side.")


def init_app(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(error: ApiError) -> ResponseReturnValue:
        response, status = error_response(error.status, error.problems)
        response.headers.update(error.headers)
        return response, status

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        status = error.code or 500
        own = error.description and error.description != type(error).description
        message = str(error.description) if own else _default_message(status)
        if isinstance(error, SecurityError):  # a Host header not on the allow-list
            host = request.environ.get("HTTP_HOST", "")
            message = gettext(
                "This server does not answer to the name %(host)s. If you run it, add that "
                "name to %(setting)s (see the README).",
                host=repr(host),
                setting="SCOREKEEPER_HOSTS",
            )
            if not _wants_json():  # no links: URLs cannot be built for an unknown host
                page = render_template("error_bare.html", title=_title(status), message=message)
                return page, status
        if isinstance(error, NotFound) and request.url_rule is None:  # no route has the path
            message = gettext(
                "There is no page at %(path)s. The address may be mistyped, or a number in it "
                "wrong: matches, groups and hands are named by whole numbers.",
                path=request.path,
            )
        if status == 429:  # Flask-Limiter: too many sign-in (or invite) attempts
            message = gettext(
                "Too many attempts from here (%(limit)s): wait a minute, then try again.",
                limit=str(error.description),
            )
        if _wants_json():
            return error_response(status, [FieldError(None, None, message)])
        return render_template(
            "error.html", status=status, title=_title(status), message=message
        ), (status)

    @app.errorhandler(StorageUnavailable)
    def storage_unavailable(error: StorageUnavailable) -> ResponseReturnValue:
        if _wants_json():
            return error_response(503, [FieldError(None, None, error.message)])
        return render_template(
            "error.html", status=503, title=_title(503), message=error.message
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
        if _wants_json():
            said = gettext("Something went wrong on our side.")
            return error_response(500, [FieldError(None, None, said)])
        return render_template(
            "error.html",
            status=500,
            title=_title(500),
            message=gettext("Something went wrong on our side."),
        ), 500
