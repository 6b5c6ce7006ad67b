"""`flask users create NAME [--password PW] [--admin]` and `flask users token NAME`.

For self-hosters and scripts: make accounts without the browser, and API tokens
(`users token` prints the new token as its last line, so `| tail -n 1` takes it).
"""

from __future__ import annotations

import click
from flask import Flask
from flask.cli import AppGroup

from .services import accounts
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


def init_app(app: Flask) -> None:
    app.cli.add_command(users)
