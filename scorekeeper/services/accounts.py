"""Accounts: users, passwords, API tokens and the registration setting.

The first account of a database is its administrator; creating it also hands the
matches and players kept from before accounts existed to its personal group.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from flask import current_app
from sqlalchemy import bindparam, delete, func, select, update
from werkzeug.security import check_password_hash, generate_password_hash

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
    SignIn,
    User,
    key_fits,
    long_key,
    name_key,
    utcnow,
)
from ..validation import FieldError, ValidationError
from ..words.translate import gettext
from . import names, setup_code
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


def set_locale(user: User, locale: str | None) -> None:
    """The user's own language (None: each phone's own); chosen on the account page only."""
    user.locale = locale


def set_registration(mode: Registration) -> None:
    setting = db.session.get(Setting, REGISTRATION)
    if setting is None:
        db.session.add(Setting(key=REGISTRATION, value=mode.value))
    else:
        setting.value = mode.value


def _check_username(raw: object, problems: list[FieldError]) -> str:
    name = clean_name(raw)
    if not name:
        problems.append(FieldError(None, "username", gettext("Choose a user name")))
    elif len(name) > NAME_LENGTH:
        problems.append(
            FieldError(
                None,
                "username",
                gettext("Keep it to %(count)s characters", count=str(NAME_LENGTH)),
            )
        )
    elif not key_fits(name):
        problems.append(FieldError(None, "username", long_key()))
    elif find_user(name) is not None:
        problems.append(
            FieldError(
                None, "username", gettext("%(name)s is taken: choose another name", name=name)
            )
        )
    elif names.problem(name):
        problems.append(FieldError(None, "username", str(names.problem(name))))
    else:
        taken = list(db.session.execute(select(User.username)).scalars())
        alike = names.look_alike(name, taken)
        if alike is not None:
            problems.append(
                FieldError(
                    None,
                    "username",
                    gettext(
                        "%(name)s looks just like %(alike)s, who has an account here: choose "
                        "another name",
                        name=name,
                        alike=alike,
                    ),
                )
            )
    return name


def password_problem(password: object) -> str | None:
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        return gettext("Use at least %(count)s characters", count=str(MIN_PASSWORD))
    if len(password) > MAX_PASSWORD:
        return gettext("Use at most %(count)s characters", count=str(MAX_PASSWORD))
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
    # A default name in the language the account was opened in: the group's name from then
    # on, which its user may change like any group's.
    group = Group(name=gettext("%(name)s's games", name=name), personal=True)
    group.memberships.append(Membership(user=user, role=Role.ADMIN))
    db.session.add_all([user, group])
    db.session.flush()
    if first:
        _claim_what_came_before(group)
        setup_code.consume()  # set-up is over, whoever made the first account
    return user


def _claim_what_came_before(group: Group) -> None:
    """Matches and players from before accounts existed join the first admin's group."""
    db.session.execute(update(Match).where(Match.group_id.is_(None)).values(group_id=group.id))
    db.session.execute(update(Player).where(Player.group_id.is_(None)).values(group_id=group.id))


def authenticate(username: str, password: str) -> User | None:
    user = find_user(clean_name(username))
    if user is None:
        check_password_hash(_hash("x"), password)  # about the same time either way
        return None
    return user if check_password_hash(user.password_hash, password) else None


def change_password(
    user: User, current: str, new: str, revoke_tokens: bool = False
) -> list[FieldError]:
    """Change it, ending every other sign-in of the user (and, if asked, revoking every
    API token of theirs); [] when done."""
    problems = []
    if not check_password_hash(user.password_hash, current):
        problems.append(FieldError(None, "current", gettext("That is not your current password")))
    reason = password_problem(new)
    if reason:
        problems.append(FieldError(None, "new", reason))
    if not problems:
        set_password(user, new)
        end_sign_ins(user, keep=user.sign_in_key)
        if revoke_tokens:
            revoke_api_tokens(user)
    return problems


def set_password(user: User, password: str) -> None:
    user.password_hash = _hash(password)


def password_matches(user: User, password: object) -> bool:
    return isinstance(password, str) and check_password_hash(user.password_hash, password)


# --- sign-ins ------------------------------------------------------------------------


def start_sign_in(user: User) -> None:
    """A new sign-in of the user, which `user.get_id()` then names (for Flask-Login).
    The user's sign-ins older than the longest "keep me signed in" go: no cookie that
    names them is still kept by a browser."""
    kept_for = current_app.config["REMEMBER_COOKIE_DURATION"]
    db.session.execute(
        delete(SignIn).where(SignIn.user_id == user.id, SignIn.created_at < utcnow() - kept_for)
    )
    key = secrets.token_urlsafe(24)
    db.session.add(SignIn(key=key, user_id=user.id))
    db.session.flush()
    user.sign_in_key = key


# Built once (every signed-in request runs it, see `access.ACCESS`).
SIGNED_IN_USER = (
    select(User)
    .join(SignIn)
    .where(SignIn.key == bindparam("key"), SignIn.user_id == bindparam("user_id"))
)


def signed_in_user(user_id: str) -> User | None:
    """The user of a session's "user id:sign-in key", with its sign-in; None when the
    sign-in was ended (or never was)."""
    number, _, key = user_id.partition(":")
    if not number.isdigit() or len(number) > 18 or not key:
        return None
    user = db.session.execute(
        SIGNED_IN_USER, {"key": key, "user_id": int(number)}
    ).scalar_one_or_none()
    if user is not None:
        user.sign_in_key = key
    return user


def end_sign_in(user: User) -> None:
    """This sign-in of the user ends: its session and cookies open nothing any more."""
    db.session.execute(
        delete(SignIn).where(SignIn.user_id == user.id, SignIn.key == user.sign_in_key)
    )


def end_sign_ins(user: User, keep: str | None = None) -> int:
    """Every sign-in of the user ends (but `keep`'s); how many ended."""
    query = delete(SignIn).where(SignIn.user_id == user.id)
    if keep is not None:
        query = query.where(SignIn.key != keep)
    ended: int = db.session.execute(query).rowcount  # type: ignore[attr-defined]
    return ended


def sign_ins(user: User) -> int:
    return db.session.execute(
        select(func.count()).select_from(SignIn).where(SignIn.user_id == user.id)
    ).scalar_one()


def user_count() -> int:
    return db.session.execute(select(func.count()).select_from(User)).scalar_one()


def new_api_token(user: User, name: str) -> NewToken:
    secret = "sk_" + secrets.token_urlsafe(30)
    token = ApiToken(user=user, name=clean_name(name)[:NAME_LENGTH] or gettext("API token"))
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


def revoke_api_tokens(user: User) -> int:
    """Every API token of the user stops working; how many there were."""
    revoked: int = db.session.execute(  # type: ignore[attr-defined]
        delete(ApiToken).where(ApiToken.user_id == user.id)
    ).rowcount
    return revoked


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
    locale: str | None = None  # the user's language setting: what its answers are in


def account_for_token(secret: str) -> Account | None:
    found = db.session.execute(
        select(User.id, User.username, User.locale)
        .join(ApiToken, ApiToken.user_id == User.id)
        .where(ApiToken.token_hash == token_hash(secret))
    ).first()
    return Account(*found) if found else None


def all_users() -> list[User]:
    return list(db.session.execute(select(User).order_by(User.username_key)).scalars())
