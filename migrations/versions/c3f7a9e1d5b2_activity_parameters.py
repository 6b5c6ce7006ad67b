"""Activity entries keep their parameters, not English sentences

Each entry of a group's activity log is kept as its action and its parameters (names
and numbers), so it can be shown in any language. The sentences of existing entries are
read back into parameters; one that cannot be read is kept as a note with its text.

Revision ID: c3f7a9e1d5b2
Revises: a6c2e8d4f1b7
Create Date: 2026-11-28 10:00:00

"""

import json
import re

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = "c3f7a9e1d5b2"
down_revision = "a6c2e8d4f1b7"
branch_labels = None
depends_on = None

LINKS = re.compile(r"(\d+) (share|invite) links?")
SENTENCES = {
    "group_created": (re.compile(r"(?P<name>.*) made the group"), ()),
    "group_renamed": (re.compile(r"Renamed from (?P<old>.*) to (?P<new>.*)"), ()),
    "member_joined": (re.compile(r"(?P<name>.*) joined"), ()),
    "member_removed": (re.compile(r"(?P<name>.*?) left the group\.?(?P<rest>.*)"), ()),
    "role_changed": (re.compile(r"(?P<name>.*) is now (?P<role>member|admin)"), ()),
    "invite_created": (re.compile(r"Made an invite link"), ()),
    "invite_revoked": (re.compile(r"Revoked an invite link"), ()),
    "player_renamed": (re.compile(r"(?P<old>.*) is now (?P<new>.*)"), ()),
    "players_merged": (re.compile(r"(?P<gone>.*) merged into (?P<kept>.*)"), ()),
    "player_linked": (re.compile(r"(?P<player>.*) is linked to (?P<user>.*)"), ()),
    "match_deleted": (
        re.compile(r"Deleted match (?P<match>\d+) \((?P<game>[^:]*): (?P<sides>.*)\)"),
        (),
    ),
}


def parameters(action: str, details: str) -> tuple[str, dict]:
    """An old entry's sentence read back into its action's parameters (else a note)."""
    known = SENTENCES.get(action)
    found = known[0].fullmatch(details) if known else None
    if found is None:
        return "note", {"text": details}
    params = {key: value for key, value in found.groupdict().items() if key != "rest"}
    if action == "member_removed":
        counts = {kind: int(count) for count, kind in LINKS.findall(found.group("rest"))}
        params.update(share_links=counts.get("share", 0), invites=counts.get("invite", 0))
    elif action == "player_linked" and params["user"] == "nobody":
        params["user"] = None
    elif action == "match_deleted":
        params["match"] = int(params["match"])
        params["sides"] = params["sides"].split(" against ")
        params["variant"] = None
    return action, params


def upgrade():
    with op.batch_alter_table("activity", schema=None) as batch_op:
        batch_op.add_column(sa.Column("params", sa.JSON(), nullable=True))
    connection = op.get_bind()
    activity = sa.table(
        "activity",
        sa.column("id", sa.Integer),
        sa.column("action", sa.String),
        sa.column("details", sa.String),
        sa.column("params", sa.JSON),
    )
    rows = connection.execute(sa.select(activity.c.id, activity.c.action, activity.c.details))
    for entry_id, action, details in rows.fetchall():
        action, params = parameters(action, details or "")
        connection.execute(
            activity.update()
            .where(activity.c.id == entry_id)
            .values(action=action, params=params)
        )
    with op.batch_alter_table("activity", schema=None) as batch_op:
        batch_op.alter_column("params", existing_type=sa.JSON(), nullable=False)
        batch_op.drop_column("details")


def downgrade():
    with op.batch_alter_table("activity", schema=None) as batch_op:
        batch_op.add_column(sa.Column("details", sa.String(400), nullable=True))
    connection = op.get_bind()
    activity = sa.table(
        "activity",
        sa.column("id", sa.Integer),
        sa.column("params", sa.JSON),
        sa.column("details", sa.String),
    )
    for entry_id, params in connection.execute(
        sa.select(activity.c.id, activity.c.params)
    ).fetchall():
        text = json.dumps(params) if not isinstance(params, dict) else params.get("text")
        connection.execute(
            activity.update()
            .where(activity.c.id == entry_id)
            .values(details=(text or json.dumps(params))[:400])
        )
    with op.batch_alter_table("activity", schema=None) as batch_op:
        batch_op.drop_column("params")
