"""Who is asking, and what they may do with a match.

A caller is a signed-in user (session cookie, or a personal API token as
`Authorization: Bearer`), and/or holds share links: a link opened in this
browser is kept in the session; a link's token can also be a bearer token. On a
match a caller is a group admin, a member, a scorer (link), a viewer (link) or
nobody. `require_match` answers exactly as the API contract says: anonymous ->
sign in (401 under /api/); nobody -> 404, whether or not the match exists; a
link asking for more than its role -> 403.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property
from typing import TypeVar, cast

from flask import Flask, g, redirect, request, session, url_for
from flask_login import current_user
from flask_login import login_required as untyped_login_required
from sqlalchemy import bindparam, select
from werkzeug.exceptions import Forbidden, HTTPException, NotFound, Unauthorized

from .extensions import db, login_manager
from .ids import valid_id
from .models import LinkRole, Match, Membership, Role, ShareLink, User
from .services import event_links
from .services.accounts import Account, account_for_token, signed_in_user
from .services.sharing import open_link
from .words.translate import gettext

LINKS = "links"  # session key: ids of the share links opened in this browser
MAX_LINKS = 20
API_PREFIX = "/api/"

View = TypeVar("View", bound=Callable[..., object])


class Level(IntEnum):
    NONE = 0
    VIEWER = 1
    SCORER = 2
    MEMBER = 3
    ADMIN = 4


LINK_LEVELS = {LinkRole.VIEWER: Level.VIEWER, LinkRole.SCORER: Level.SCORER}
ROLE_LEVELS = {Role.MEMBER: Level.MEMBER, Role.ADMIN: Level.ADMIN}


@dataclass(frozen=True)
class Caller:
    """Who asks: an account (signed in, or by its API token), share links, or nobody."""

    account: Account | None
    link_ids: tuple[int, ...] = ()
    link_token: str | None = None  # a share (or event) link's token sent as a bearer token
    signed_in: User | None = None  # the session's user, as Flask-Login loaded it

    @cached_property
    def user(self) -> User | None:
        """The account's user row: the session's, else loaded when a view first asks (a
        token's request that only checks access and records a hand never does)."""
        if self.signed_in is not None or self.account is None:
            return self.signed_in
        return db.session.get(User, self.account.id)

    @property
    def anonymous(self) -> bool:
        return self.account is None and not self.link_ids and self.link_token is None


@dataclass(frozen=True)
class MatchAccess:
    match_id: int
    uid: str  # the match's identity for good: ids can come back (a restore), uids not
    group_id: int | None
    revision: int
    level: Level
    link_id: int | None  # the link that gives the level, when a link does

    def actor(self, caller: Caller) -> tuple[str | None, int | None, int | None]:
        """Who made a change, for the audit trail: (the user's name, user id, link id);
        a change made through a share link is kept by the link's number alone."""
        if self.link_id is not None or caller.account is None:
            return (None, None, self.link_id)
        return (caller.account.username, caller.account.id, None)


def load_user(user_id: str) -> User | None:
    """Sessions carry "user id:sign-in key": a sign-in that was ended opens nothing."""
    return signed_in_user(user_id)


def is_api() -> bool:
    return request.path.startswith(API_PREFIX)


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def caller() -> Caller:
    """The caller of this request (computed once)."""
    if "caller" not in g:
        token = bearer()
        if token is not None and is_api():
            account = account_for_token(token) if len(token) <= 200 else None
            link = open_link(token) if account is None else None
            held = link is not None
            if account is None and not held:
                held = event_links.open_link(token) is not None  # an event's viewer link
            # A token that is neither (revoked, mistyped) is no credential at all: 401.
            g.caller = Caller(account, link_token=token if held else None)
        else:
            user = current_user if current_user.is_authenticated else None
            links = tuple(i for i in session.get(LINKS, []) if isinstance(i, int))
            account = Account(user.id, user.username, user.locale) if user is not None else None
            g.caller = Caller(account, links, signed_in=user)
    computed: Caller = g.caller
    return computed


def grant_link(link: ShareLink) -> None:
    """Keep an opened share link in this browser's session; checked again on every
    request (a revoked link opens nothing). A member of the match's group needs no link
    and none is kept: taken out of the group, they keep nothing a link gave them."""
    membership = match_access(link.match_id, Caller(caller().account))
    if membership is not None and membership.level >= Level.MEMBER:
        return
    links = [i for i in session.get(LINKS, []) if isinstance(i, int) and i != link.id]
    session[LINKS] = [*links, link.id][-MAX_LINKS:]
    g.pop("caller", None)


# Built once and run with its parameters: every request that reads a match (each live
# board poll) runs it, and building a statement costs more than running it
# (bench/club_night.py).
ACCESS = (
    select(Match.id, Match.uid, Match.group_id, Match.revision, Membership.role)
    .outerjoin(
        Membership,
        (Membership.group_id == Match.group_id) & (Membership.user_id == bindparam("user_id")),
    )
    .where(Match.id == bindparam("match_id"))
)


def match_access(match_id: int, who: Caller | None = None) -> MatchAccess | None:
    """The caller's level on a match, or None when the match does not exist."""
    who = who or caller()
    if not valid_id(match_id):
        return None
    user_id = who.account.id if who.account else None
    row = db.session.execute(ACCESS, {"user_id": user_id, "match_id": match_id}).first()
    if row is None:
        return None
    found_id, uid, group_id, revision, role = row
    level = ROLE_LEVELS.get(Role(role), Level.NONE) if role else Level.NONE
    link_id = None
    if who.link_ids or who.link_token:
        query = select(ShareLink.id, ShareLink.role).where(
            ShareLink.match_id == match_id, ShareLink.revoked_at.is_(None)
        )
        if who.link_token:
            query = query.where(ShareLink.token == who.link_token)
        else:
            query = query.where(ShareLink.id.in_(who.link_ids))
        for link, link_role in db.session.execute(query):
            link_level = LINK_LEVELS[LinkRole(link_role)]
            if link_level > level:
                level, link_id = link_level, link
    return MatchAccess(found_id, uid, group_id, revision, level, link_id)


def unauthorized() -> HTTPException:
    """Not signed in: a 401 under /api/, else the sign-in page (and back here after)."""
    if is_api():
        return Unauthorized(
            gettext(
                "Sign in, or send an API token: %(header)s.",
                header="Authorization: Bearer <token>",
            )
        )
    response = redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
    return HTTPException(response=response)


def no_match(match_id: int) -> str:
    """What a match that is not there (or not the caller's) is said as, everywhere alike."""
    return gettext(
        "There is no match %(number)s. The address may be mistyped.", number=str(match_id)
    )


def require_match(match_id: int, need: Level) -> MatchAccess:
    """The caller's access to a match if it is at least `need`, else the right refusal."""
    who = caller()
    access = match_access(match_id, who)
    if access is not None and access.level >= need:
        return access
    missing = NotFound(no_match(match_id))
    if who.account is None and (access is None or access.link_id is None):
        raise missing if who.link_token is not None else unauthorized()
    if access is None or access.level == Level.NONE:
        raise missing
    if access.link_id is not None and access.level <= Level.SCORER:
        if need == Level.SCORER:
            raise Forbidden(gettext("This link does not let you record or change hands."))
        raise Forbidden(gettext("This link does not let you do that."))
    raise Forbidden(gettext("Only the admins of the match's group can do that."))


def require_user() -> User:
    """A signed-in user (session or API token), else the right refusal."""
    who = caller()
    user = who.user
    if user is None and who.link_token is not None:
        raise Forbidden(gettext("A share link's token only opens its match."))
    if user is None:
        raise unauthorized()
    return user


def login_required(view: View) -> View:
    """Flask-Login's `login_required`, typed (the library has none): the view keeps its
    signature, so mypy still checks it."""
    return cast(View, untyped_login_required(view))


def _login_required() -> None:
    raise unauthorized()


def init_app(app: Flask) -> None:
    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    login_manager.user_loader(load_user)
    login_manager.unauthorized_handler(_login_required)
    app.add_template_global(Level, "Level")  # pages compare a caller's level by name
