"""What merging two players changes in a season: the ratings are replayed (the kept
player now has both players' matches), and league credits naming the player who goes
name the one kept (a credit of a player for themselves is dropped)."""

from __future__ import annotations

from sqlalchemy import or_, select

from ..extensions import db
from ..season_models import LeagueCredit
from . import ratings


def merge_in_seasons(group_id: int, gone: int, kept: int) -> None:
    ratings.invalidate(group_id)
    credits = list(
        db.session.execute(
            select(LeagueCredit).where(
                or_(LeagueCredit.substitute_id.in_((gone, kept)), LeagueCredit.replaced_id == gone)
            )
        ).scalars()
    )

    def renamed(player: int) -> int:
        return kept if player == gone else player

    # The kept player's own credits stand; one the gone player had the same evening goes.
    taken = {
        (c.league_id, c.evening)
        for c in credits
        if c.substitute_id == kept and renamed(c.replaced_id) != kept
    }
    for credit in credits:
        substitute, replaced = renamed(credit.substitute_id), renamed(credit.replaced_id)
        clash = credit.substitute_id == gone and (credit.league_id, credit.evening) in taken
        if substitute == replaced or clash:
            db.session.delete(credit)
        else:
            credit.substitute_id, credit.replaced_id = substitute, replaced
    db.session.flush()
