"""Flask-Babel's gettext functions with their types (Flask-Babel ships none).

The words modules call these by the usual names, with literal msgids, so that
`pybabel extract` (babel.cfg) finds every message.
"""

from __future__ import annotations

import flask_babel


def gettext(string: str, **variables: str) -> str:
    return str(flask_babel.gettext(string, **variables))


def ngettext(singular: str, plural: str, num: int, **variables: str) -> str:
    return str(flask_babel.ngettext(singular, plural, num, **variables))


def pgettext(context: str, string: str, **variables: str) -> str:
    return str(flask_babel.pgettext(context, string, **variables))


def npgettext(context: str, singular: str, plural: str, num: int, **variables: str) -> str:
    return str(flask_babel.npgettext(context, singular, plural, num, **variables))


def lazy_pgettext(context: str, string: str, **variables: str) -> str:
    lazy: str = flask_babel.lazy_pgettext(context, string, **variables)
    return lazy


def lazy_gettext(string: str, **variables: str) -> str:
    """A message translated when it is shown, not when it is made (a form's label, made
    once with its class): what it gives works as text wherever text is asked for."""
    lazy: str = flask_babel.lazy_gettext(string, **variables)
    return lazy
