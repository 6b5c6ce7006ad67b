"""Accounts: users, passwords, API tokens and the registration setting.

The first account of a database is its administrator; creating it also hands the
matches and players kept from before accounts existed to its personal group.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from flask import current_app
from sqlalchemy import bindparam, func, select, update
from werkzeug.security import check_password_hash, generate_password_hash

from ..database import plain_rows
from ..extensions import db
from ..models import (
    NAME_LENGTH,
    ApiToken,
    Group,
    Match,
    Membership,
    Player,
    Registration,
    Role,
    Setting,
    User,
    name_key,
)
from ..validation import FieldError, ValidationError
from .listing import touch_history
from .match_setup import clean_name

MIN_PASSWORD = 8
MAX_PASSWORD = 200
REGISTRATION = "registration"


@dataclass(frozen=True)
class NewToken:
    """A token as its owner sees it once; only its hash is kept."""

    token: ApiToken
    secret: str


def _hash(password: str) -> str:
    """werkzeug's scrypt; the tests set a cheap method (PASSWORD_HASH_METHOD) to run fast."""
    method = current_app.config.get("PASSWORD_HASH_METHOD", "scrypt")
    return generate_password_hash(password, method=method)


def token_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def has_users() -> bool:
    return db.session.execute(select(User.id).limit(1)).first() is not None


def registration() -> Registration:
    value = db.session.get(Setting, REGISTRATION)
    try:
        return Registration(value.value) if value else Registration.INVITE
    except ValueError:
        return Registration.INVITE


def set_registration(mode: Registration) -> None:
    setting = db.session.get(Setting, REGISTRATION)
    if setting is None:
        db.session.add(Setting(key=REGISTRATION, value=mode.value))
    else:
        setting.value = mode.value


def _check_username(raw: object, problems: list[FieldError]) -> str:
    name = clean_name(raw)
    if not name:
        problems.append(FieldError(None, "username", "Choose a user name"))
    elif len(name) > NAME_LENGTH:
        problems.append(FieldError(None, "username", f"Keep it to {NAME_LENGTH} characters"))
    elif find_user(name) is not None:
        problems.append(FieldError(None, "username", f"{name} is taken: choose another name"))
    return name


def password_problem(password: object) -> str | None:
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        return f"Use at least {MIN_PASSWORD} characters"
    if len(password) > MAX_PASSWORD:
        return f"Use at most {MAX_PASSWORD} characters"
    return None


def find_user(username: str) -> User | None:
    return db.session.execute(
        select(User).where(User.username_key == name_key(username))
    ).scalar_one_or_none()


def create_user(username: object, password: object, *, admin: bool = False) -> User:
    """A new account with its personal group; raises ValidationError with every problem."""
    problems: list[FieldError] = []
    name = _check_username(username, problems)
    reason = password_problem(password)
    if reason:
        problems.append(FieldError(None, "password", reason))
    if problems:
        raise ValidationError(problems)
    assert isinstance(password, str)
    first = not has_users()
    user = User(
        username=name,
        username_key=name_key(name),
        password_hash=_hash(password),
        is_admin=admin or first,
    )
    group = Group(name=f"{name}'s games", personal=True)
    group.memberships.append(Membership(user=user, role=Role.ADMIN))
    db.session.add_all([user, group])
    db.session.flush()
    if first:
        _claim_what_came_before(group)
    return user


def _claim_what_came_before(group: Group) -> None:
    """Matches and players from before accounts existed join the first admin's group."""
    db.session.execute(update(Match).where(Match.group_id.is_(None)).values(group_id=group.id))
    db.session.execute(update(Player).where(Player.group_id.is_(None)).values(group_id=group.id))
    touch_history(group.id)


def authenticate(username: str, password: str) -> User | None:
    user = find_user(clean_name(username))
    if user is None:
        check_password_hash(_hash("x"), password)  # about the same time either way
        return None
    return user if check_password_hash(user.password_hash, password) else None


def change_password(user: User, current: str, new: str) -> list[FieldError]:
    """Change it, ending every other session of the user; [] when done."""
    problems = []
    if not check_password_hash(user.password_hash, current):
        problems.append(FieldError(None, "current", "That is not your current password"))
    reason = password_problem(new)
    if reason:
        problems.append(FieldError(None, "new", reason))
    if not problems:
        set_password(user, new)
    return problems


def set_password(user: User, password: str) -> None:
    user.password_hash = _hash(password)
    user.session_epoch += 1


def user_count() -> int:
    return db.session.execute(select(func.count()).select_from(User)).scalar_one()


def new_api_token(user: User, name: str) -> NewToken:
    secret = "sk_" + secrets.token_urlsafe(30)
    token = ApiToken(user=user, name=clean_name(name)[:NAME_LENGTH] or "API token")
    token.token_hash = token_hash(secret)
    db.session.add(token)
    db.session.flush()
    return NewToken(token, secret)


def api_tokens(user: User) -> list[ApiToken]:
    return list(
        db.session.execute(
            select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.id)
        ).scalars()
    )


def revoke_api_token(user: User, token_id: int) -> bool:
    token = db.session.get(ApiToken, token_id)
    if token is None or token.user_id != user.id:
        return False
    db.session.delete(token)
    return True


@dataclass(frozen=True)
class Account:
    """Who an API token belongs to: what a request needs of the user to check access
    and name who made a change (the user's row is loaded only if a view asks for it)."""

    id: int
    username: str


_USER, _TOKEN = User.__table__, ApiToken.__table__
ACCOUNT_OF_TOKEN = (  # every API call asks it: built once, run past the ORM
    select(_USER.c.id, _USER.c.username)
    .join(_TOKEN, _TOKEN.c.user_id == _USER.c.id)
    .where(_TOKEN.c.token_hash == bindparam("token_hash"))
)


def account_for_token(secret: str) -> Account | None:
    found = plain_rows(db.session, ACCOUNT_OF_TOKEN, {"token_hash": token_hash(secret)})
    return Account(*found[0]) if found else None


def all_users() -> list[User]:
    return list(db.session.execute(select(User).order_by(User.username_key)).scalars())
