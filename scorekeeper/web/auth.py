"""Accounts in the browser: the first account, signing in and out, registering (open, by
invite or closed), changing the password, API tokens, and the administrator's settings."""

from __future__ import annotations

import flask_babel
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_user, logout_user
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import BooleanField, HiddenField, PasswordField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length

from ..access import is_api, login_required
from ..extensions import limiter
from ..models import NAME_LENGTH, Registration, User
from ..services import accounts, groups, setup_code
from ..services.accounts import MAX_PASSWORD
from ..services.storage import transaction
from ..validation import ValidationError
from ..words import number
from ..words.locale import LANGUAGES, html_lang, known
from ..words.translate import gettext, lazy_gettext, ngettext
from .common import add_problems, safe_next

bp = Blueprint("auth", __name__)

# Signing in and opening accounts are the doors people try to force.
ATTEMPTS = "10 per minute;100 per day"
READY = "scorekeeper.has_users"  # app.extensions flag: once there is a user, there always is
OPEN_BEFORE_SETUP = {"auth.setup", "assets.static", "shell.manifest", "shell.service_worker"}


class SetupForm(FlaskForm):
    username = StringField(
        lazy_gettext("Your name"), validators=[InputRequired(), Length(max=NAME_LENGTH)]
    )
    password = PasswordField(
        lazy_gettext("Password"), validators=[InputRequired(), Length(max=MAX_PASSWORD)]
    )


class FirstAccountForm(SetupForm):
    code = StringField(
        lazy_gettext("Set-up code"),
        validators=[InputRequired(message=lazy_gettext("Enter the set-up code")), Length(max=40)],
    )


class RegisterForm(SetupForm):
    invite = HiddenField()


class LoginForm(FlaskForm):
    username = StringField(
        lazy_gettext("Name"), validators=[InputRequired(), Length(max=NAME_LENGTH)]
    )
    password = PasswordField(
        lazy_gettext("Password"), validators=[InputRequired(), Length(max=MAX_PASSWORD)]
    )
    remember = BooleanField(lazy_gettext("Keep me signed in on this phone"), default=True)
    next = HiddenField()


class PasswordForm(FlaskForm):
    current = PasswordField(lazy_gettext("Current password"), validators=[InputRequired()])
    new = PasswordField(
        lazy_gettext("New password"), validators=[InputRequired(), Length(max=MAX_PASSWORD)]
    )
    revoke_tokens = BooleanField(
        lazy_gettext("Also revoke my API tokens (scripts that use them stop working)"),
        default=True,
    )


class TokenForm(FlaskForm):
    name = StringField(lazy_gettext("What the token is for"), validators=[Length(max=NAME_LENGTH)])
    password = PasswordField(
        lazy_gettext("Your password"),
        validators=[InputRequired(message=lazy_gettext("Enter your password"))],
    )


class LanguageForm(FlaskForm):
    """The account's language: one of the app's, or each phone's own (the default)."""

    locale = SelectField(
        lazy_gettext("Language"),
        choices=[
            SelectChoice("", lazy_gettext("Each phone's own (its browser's, or its chooser's)")),
            # Each language named in itself, and marked so (screen readers say it so).
            *(
                SelectChoice(locale, name, render_kw={"lang": html_lang(locale)})
                for locale, name in LANGUAGES.items()
            ),
        ],
    )


class SettingsForm(FlaskForm):
    registration = SelectField(
        lazy_gettext("Who can open an account"),
        choices=[
            SelectChoice(
                Registration.INVITE.value, lazy_gettext("Only people with an invite link")
            ),
            SelectChoice(Registration.OPEN.value, lazy_gettext("Anyone who can reach this server")),
            SelectChoice(
                Registration.CLOSED.value, lazy_gettext("Nobody (the administrator adds people)")
            ),
        ],
    )


def _sign_in(user: User, remember: bool = True) -> None:
    """A new sign-in, kept on the server: its session and cookie name it."""
    with transaction():
        accounts.start_sign_in(user)
    session.pop("_flashes", None)
    login_user(user, remember=remember)


def _signed_out(response: Response) -> Response:
    """A shared phone keeps nothing once signed out: no copy of the scoreboards, and no
    hands queued by the offline page for the next person to send."""
    response.headers["Clear-Site-Data"] = '"cache", "storage"'
    return response


@bp.before_app_request
def first_run() -> ResponseReturnValue | None:
    """A fresh database: every page leads to creating the first account."""
    app = current_app
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
    """The first account, for whoever has the set-up code the server's terminal shows."""
    if accounts.has_users():
        return redirect(url_for("home.index"))
    form = FirstAccountForm()
    if request.method == "GET":
        form.code.data = request.args.get("code", "")[:40]  # the address make run prints
    top: list[str] = []
    valid = form.validate_on_submit()
    if valid and not setup_code.matches(form.code.data):
        form.code.errors = [
            gettext(
                "That is not the set-up code of this server: it is shown where the server was "
                "started (make run), and each start shows a new one."
            )
        ]
    elif valid:
        try:
            with transaction():
                user = accounts.create_user(form.username.data, form.password.data, admin=True)
            _sign_in(user)
            flash(
                gettext(
                    "Welcome, %(name)s. You run this server: invite your players.",
                    name=user.username,
                )
            )
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
            return redirect(safe_next(form.next.data), code=303)
        top.append(gettext("That name and password do not match an account here."))
    elif form.errors.get("csrf_token"):
        top.append(gettext("This page had expired: please sign in again."))
    status = 422 if request.method == "POST" else 200
    return render_template(
        "login.html", form=form, top_errors=top, registration=accounts.registration()
    ), status


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    if FlaskForm().validate_on_submit():
        if current_user.is_authenticated:
            with transaction():
                accounts.end_sign_in(current_user)  # its cookies, even copied, open nothing
        # Cleared first: logout_user leaves word in the session for the "keep me signed
        # in" cookie to be cleared with the answer, which clearing after it lost.
        session.clear()
        logout_user()
    return _signed_out(redirect(url_for("auth.login"), code=303))


@bp.post("/account/sign-out-everywhere")
@login_required
def sign_out_everywhere() -> ResponseReturnValue:
    """Every phone and browser of the account is signed out, this one too."""
    if not FlaskForm().validate_on_submit():
        return redirect(url_for("auth.account"), code=303)
    with transaction():
        ended = accounts.end_sign_ins(current_user)
    session.clear()
    logout_user()
    flash(
        ngettext(
            "Signed out everywhere (%(count)s sign-in ended).",
            "Signed out everywhere (%(count)s sign-ins ended).",
            ended,
            count=number(ended),
        )
    )
    return _signed_out(redirect(url_for("auth.login"), code=303))


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
            flash(gettext("Welcome, %(name)s.", name=user.username))
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
    language = LanguageForm(prefix="lang")
    if request.method == "GET":
        language.locale.data = user.locale or ""
    top: list[str] = []
    new_token = None
    if language.validate_on_submit() and "lang-locale" in request.form:
        with transaction():
            accounts.set_locale(user, known(language.locale.data))
        flask_babel.refresh()  # the answer is in the language just chosen
        flash(gettext("Language saved."))
        return redirect(url_for("auth.account"), code=303)
    if password.validate_on_submit() and "pw-current" in request.form:
        revoke = bool(password.revoke_tokens.data)
        tokens = len(accounts.api_tokens(user)) if revoke else 0
        with transaction():
            problems = accounts.change_password(
                user, password.current.data, password.new.data, revoke_tokens=revoke
            )
        if not problems:
            if tokens:
                flash(
                    gettext(
                        "Password changed. Other phones and browsers must sign in again. Your "
                        "API tokens (%(count)s) were revoked.",
                        count=number(tokens),
                    )
                )
            else:
                flash(gettext("Password changed. Other phones and browsers must sign in again."))
            return redirect(url_for("auth.account"), code=303)
        top = add_problems(password, problems, lambda p: p.field)
    elif token.validate_on_submit() and "token-name" in request.form:
        # The password again: a copied cookie alone cannot make a lasting credential.
        if accounts.password_matches(user, token.password.data):
            with transaction():
                new_token = accounts.new_api_token(user, token.name.data or "").secret
            token = TokenForm(prefix="token", formdata=None)
        else:
            token.password.errors = [gettext("That is not your password")]
    status = 422 if request.method == "POST" and new_token is None else 200
    response = make_response(
        render_template(
            "account.html",
            password=password,
            token=token,
            language=language,
            tokens=accounts.api_tokens(user),
            new_token=new_token,  # shown in this answer only: never kept in the session
            sign_ins=accounts.sign_ins(user),
            top_errors=top,
        ),
        status,
    )
    response.cache_control.no_store = True
    return response


@bp.post("/account/tokens/<int:token_id>/revoke")
@login_required
def revoke_token(token_id: int) -> ResponseReturnValue:
    if FlaskForm().validate_on_submit():
        with transaction():
            revoked = accounts.revoke_api_token(current_user, token_id)
        if not revoked:
            abort(404)
        flash(gettext("The token was revoked: it no longer works."))
    return redirect(url_for("auth.account"), code=303)


@bp.route("/admin", methods=["GET", "POST"])
@login_required
def admin() -> ResponseReturnValue:
    if not current_user.is_admin:
        abort(
            403,
            description=gettext("Only the administrator of this server can change its settings."),
        )
    form = SettingsForm(registration=accounts.registration().value)
    if form.validate_on_submit():
        with transaction():
            accounts.set_registration(Registration(form.registration.data))
        flash(gettext("Saved."))
        return redirect(url_for("auth.admin"), code=303)
    return render_template("admin.html", form=form, users=accounts.all_users())
