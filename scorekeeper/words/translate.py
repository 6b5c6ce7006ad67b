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
