"""`flask users create NAME [--password PW] [--admin]`, `flask users token NAME` and
`flask setup-code`.

For self-hosters and scripts: make accounts without the browser, and API tokens
(`users token` prints the new token as its last line, so `| tail -n 1` takes it); the
code that lets the first account be made in the browser (`make run` prints one itself).
"""

from __future__ import annotations

import click
from flask import Flask
from flask.cli import AppGroup, with_appcontext

from .services import accounts, setup_code
from .services.storage import transaction
from .validation import ValidationError

users = AppGroup("users", help="Accounts of this server.")


@users.command("create")
@click.argument("name")
@click.option("--password", help="Asked for (twice, hidden) when left out.")
@click.option("--admin", is_flag=True, help="An administrator of this server.")
def create(name: str, password: str | None, admin: bool) -> None:
    """Open an account (with its personal group)."""
    if password is None:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    try:
        with transaction():
            user = accounts.create_user(name, password, admin=admin)
    except ValidationError as error:
        raise click.ClickException("; ".join(p.message for p in error.problems)) from None
    role = "administrator" if user.is_admin else "user"
    click.echo(f"Created {role} {user.username}")


@users.command("token")
@click.argument("name")
@click.option("--label", default="made from the shell", help="What the token is for.")
def token(name: str, label: str) -> None:
    """Make a new API token for a user and print it (last line)."""
    user = accounts.find_user(name)
    if user is None:
        raise click.ClickException(f"There is no user {name!r}")
    with transaction():
        made = accounts.new_api_token(user, label)
    click.echo(f"A new API token for {user.username} (send it as Authorization: Bearer ...):")
    click.echo(made.secret)


def new_setup_code() -> str | None:
    """A new set-up code while the server has no account (None once it has one)."""
    if accounts.has_users():
        return None
    with transaction():
        return setup_code.new_code()


@click.command("setup-code")
@with_appcontext
def print_setup_code() -> None:
    """Print a new one-time code for making the first account at /setup (last line)."""
    code = new_setup_code()
    if code is None:
        raise click.ClickException("This server has accounts already: set-up is over.")
    click.echo(f"Open /setup?code={code} on this server, or enter this code there:")
    click.echo(code)


def init_app(app: Flask) -> None:
    app.cli.add_command(users)
    app.cli.add_command(print_setup_code)
