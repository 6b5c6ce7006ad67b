"""Accounts in the browser: the first account, signing in and out, registering (open, by
invite or closed), changing the password, API tokens, and the administrator's settings."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_user, logout_user
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, PasswordField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length

from ..access import is_api, login_required
from ..current import this_app
from ..extensions import limiter
from ..models import NAME_LENGTH, Registration, User
from ..services import accounts, groups
from ..services.accounts import MAX_PASSWORD
from ..services.storage import transaction
from ..validation import ValidationError
from .common import add_problems

bp = Blueprint("auth", __name__)

# Signing in and opening accounts are the doors people try to force.
ATTEMPTS = "10 per minute;100 per day"
READY = "scorekeeper.has_users"  # app.extensions flag: once there is a user, there always is
OPEN_BEFORE_SETUP = {"auth.setup", "assets.static", "shell.manifest", "shell.service_worker"}


class SetupForm(FlaskForm):
    username = StringField("Your name", validators=[InputRequired(), Length(max=NAME_LENGTH)])
    password = PasswordField("Password", validators=[InputRequired(), Length(max=MAX_PASSWORD)])


class RegisterForm(SetupForm):
    invite = HiddenField()


class LoginForm(FlaskForm):
    username = StringField("Name", validators=[InputRequired(), Length(max=NAME_LENGTH)])
    password = PasswordField("Password", validators=[InputRequired(), Length(max=MAX_PASSWORD)])
    remember = BooleanField("Keep me signed in on this phone", default=True)
    next = HiddenField()


class PasswordForm(FlaskForm):
    current = PasswordField("Current password", validators=[InputRequired()])
    new = PasswordField("New password", validators=[InputRequired(), Length(max=MAX_PASSWORD)])


class TokenForm(FlaskForm):
    name = StringField("What the token is for", validators=[Length(max=NAME_LENGTH)])


class SettingsForm(FlaskForm):
    registration = SelectField(
        "Who can open an account",
        choices=[
            SelectChoice(Registration.INVITE.value, "Only people with an invite link"),
            SelectChoice(Registration.OPEN.value, "Anyone who can reach this server"),
            SelectChoice(Registration.CLOSED.value, "Nobody (the administrator adds people)"),
        ],
    )


def _safe_next(target: str | None) -> str:
    """Only a path of this site: never a link to elsewhere."""
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return url_for("home.index")


def _sign_in(user: User, remember: bool = True) -> None:
    session.pop("_flashes", None)
    login_user(user, remember=remember)


@bp.before_app_request
def first_run() -> ResponseReturnValue | None:
    """A fresh database: every page leads to creating the first account."""
    app = this_app()
    if app.extensions.get(READY) or is_api():
        return None
    if accounts.has_users():
        app.extensions[READY] = True
        return None
    if request.endpoint not in OPEN_BEFORE_SETUP:
        return redirect(url_for("auth.setup"))
    return None


@bp.route("/setup", methods=["GET", "POST"])
@limiter.limit(ATTEMPTS, methods=["POST"])
def setup() -> ResponseReturnValue:
    if accounts.has_users():
        return redirect(url_for("home.index"))
    form = SetupForm()
    top: list[str] = []
    if form.validate_on_submit():
        try:
            with transaction():
                user = accounts.create_user(form.username.data, form.password.data, admin=True)
            _sign_in(user)
            flash(f"Welcome, {user.username}. You run this server: invite your players.")
            return redirect(url_for("home.index"), code=303)
        except ValidationError as error:
            top = add_problems(form, error.problems, lambda p: p.field)
    status = 422 if request.method == "POST" else 200
    return render_template("setup.html", form=form, top_errors=top), status


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(ATTEMPTS, methods=["POST"])
def login() -> ResponseReturnValue:
    form = LoginForm()
    if request.method == "GET":
        form.next.data = request.args.get("next", "")
    top: list[str] = []
    if form.validate_on_submit():
        user = accounts.authenticate(form.username.data, form.password.data)
        if user is not None:
            _sign_in(user, remember=bool(form.remember.data))
            return redirect(_safe_next(form.next.data), code=303)
        top.append("That name and password do not match an account here.")
    elif form.errors.get("csrf_token"):
        top.append("This page had expired: please sign in again.")
    status = 422 if request.method == "POST" else 200
    return render_template(
        "login.html", form=form, top_errors=top, registration=accounts.registration()
    ), status


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    if FlaskForm().validate_on_submit():
        # Cleared first: logout_user leaves word in the session for the "keep me signed
        # in" cookie to be cleared with the answer, which clearing after it lost.
        session.clear()
        logout_user()
    response = redirect(url_for("auth.login"), code=303)
    # A shared phone keeps no copy of the scoreboards once signed out.
    response.headers["Clear-Site-Data"] = '"cache"'
    return response


@bp.route("/register", methods=["GET", "POST"])
@limiter.limit(ATTEMPTS, methods=["POST"])
def register() -> ResponseReturnValue:
    mode = accounts.registration()
    form = RegisterForm()
    token = request.args.get("invite") or form.invite.data or ""
    invite = groups.open_invite(token)
    form.invite.data = token
    allowed = mode == Registration.OPEN or (mode == Registration.INVITE and invite is not None)
    if not allowed:
        return render_template("register_closed.html", mode=mode, invited=bool(token)), 403
    top: list[str] = []
    if form.validate_on_submit():
        try:
            with transaction():
                user = accounts.create_user(form.username.data, form.password.data)
                if invite is not None:
                    groups.join(invite, user)
            _sign_in(user)
            flash(f"Welcome, {user.username}.")
            return redirect(url_for("home.index"), code=303)
        except ValidationError as error:
            top = add_problems(form, error.problems, lambda p: p.field)
    status = 422 if request.method == "POST" else 200
    return render_template("register.html", form=form, invite=invite, top_errors=top), status


@bp.route("/account", methods=["GET", "POST"])
@login_required
@limiter.limit(ATTEMPTS, methods=["POST"])
def account() -> ResponseReturnValue:
    user: User = current_user
    password = PasswordForm(prefix="pw")
    token = TokenForm(prefix="token")
    top: list[str] = []
    if password.validate_on_submit() and "pw-current" in request.form:
        with transaction():
            problems = accounts.change_password(user, password.current.data, password.new.data)
        if not problems:
            _sign_in(user)  # this phone stays signed in; every other session ends
            flash("Password changed. Other phones and browsers must sign in again.")
            return redirect(url_for("auth.account"), code=303)
        top = add_problems(password, problems, lambda p: p.field)
    elif token.validate_on_submit() and "token-name" in request.form:
        with transaction():
            made = accounts.new_api_token(user, token.name.data or "")
        session["new_token"] = made.secret
        return redirect(url_for("auth.account"), code=303)
    status = 422 if request.method == "POST" else 200
    return render_template(
        "account.html",
        password=password,
        token=token,
        tokens=accounts.api_tokens(user),
        new_token=session.pop("new_token", None),
        top_errors=top,
    ), status


@bp.post("/account/tokens/<int:token_id>/revoke")
@login_required
def revoke_token(token_id: int) -> ResponseReturnValue:
    if FlaskForm().validate_on_submit():
        with transaction():
            revoked = accounts.revoke_api_token(current_user, token_id)
        if not revoked:
            abort(404)
        flash("The token was revoked: it no longer works.")
    return redirect(url_for("auth.account"), code=303)


@bp.route("/admin", methods=["GET", "POST"])
@login_required
def admin() -> ResponseReturnValue:
    if not current_user.is_admin:
        abort(403, description="Only the administrator of this server can change its settings.")
    form = SettingsForm(registration=accounts.registration().value)
    if form.validate_on_submit():
        with transaction():
            accounts.set_registration(Registration(form.registration.data))
        flash("Saved.")
        return redirect(url_for("auth.admin"), code=303)
    return render_template("admin.html", form=form, users=accounts.all_users())
