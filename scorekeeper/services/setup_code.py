"""The one-time set-up code: only whoever can read the server's terminal makes the first
account (a fresh server on the LAN would otherwise belong to the first phone to ask).

`make run` prints a new code while no account exists (as Jupyter and Jenkins do), and
`flask setup-code` prints one on a server started otherwise. Only its SHA-256 is kept,
in the database (so every app server of one database knows it, and a test's database
its own); it is checked in constant time and ends with the first account.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from ..extensions import db
from ..models import Setting

SETTING = "setup_code"
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: read off a screen, typed
LENGTH = 12  # 60 bits, at most 100 guesses a day (the set-up page's rate limit)


def _digest(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def normalised(raw: object) -> str:
    """A code as typed: any case, with or without the dashes and spaces shown."""
    if not isinstance(raw, str):
        return ""
    return "".join(raw.split()).replace("-", "").upper()


def new_code() -> str:
    """A new code (the one before no longer works), shown as XXXX-XXXX-XXXX."""
    code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    setting = db.session.get(Setting, SETTING)
    if setting is None:
        db.session.add(Setting(key=SETTING, value=_digest(code)))
    else:
        setting.value = _digest(code)
    return "-".join(code[i : i + 4] for i in range(0, LENGTH, 4))


def matches(raw: object) -> bool:
    setting = db.session.get(Setting, SETTING)
    code = normalised(raw)
    if setting is None or len(code) != LENGTH:
        return False
    return hmac.compare_digest(_digest(code), setting.value)


def consume() -> None:
    """The first account is made: set-up is over, and the code with it."""
    setting = db.session.get(Setting, SETTING)
    if setting is not None:
        db.session.delete(setting)
