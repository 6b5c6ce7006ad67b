"""A finished match as a play for BG Stats (Board Game Stats), through its push-plays link.

BG Stats documents a link that opens the app's import dialog with one play, given as
URL-encoded JSON in `data`: the game, the play date and length, and each player with
score, rank and whether they won (https://www.bgstatsapp.com/support/
push-plays-to-bg-stats-from-other-apps-or-websites/). Partners each get their side's
score, rank and result; `sourcePlayId` is the match's uid, so the app knows the play
again if it is sent twice.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from .. import words
from ..words.translate import ngettext
from .match_state import MatchState

LINK = "bgstats://app.bgstatsapp.com/addPlay.html?data="
SOURCE = "Scorekeeper"


def _ranks(totals: list[int]) -> list[int]:
    """1 for the highest total, sides level with each other sharing a rank."""
    return [1 + sum(other > total for other in totals) for total in totals]


def play_data(state: MatchState) -> dict[str, Any]:
    """The play BG Stats imports: players in seating order, each with their side's result."""
    match = state.match
    totals = [side.total for side in state.sides]
    ranks = _ranks(totals)
    order = state.table_order
    first = order[(match.first_dealer + 1) % len(order)]  # the dealer's left plays first
    players = []
    for seat, side in enumerate(match.sides):
        for member in side.members:
            players.append(
                {
                    "name": member.player.name,
                    "sourcePlayerId": str(member.player.id),
                    "score": totals[seat],
                    "rank": ranks[seat],
                    "winner": state.result.winner == seat,
                    "startPlayer": member.player.name == first,
                    "role": side.name if match.players_per_side > 1 else "",
                }
            )
    count = len(state.hands)
    ended = match.finished_at or match.created_at
    minutes = max(0, int((ended - match.created_at).total_seconds() // 60))
    return {
        "sourceName": SOURCE,
        "sourcePlayId": match.uid,
        "game": {
            "name": words.game_name(state.rules.key),
            "sourceGameId": match.variant,
            "highestWins": True,
            "noPoints": False,
        },
        "playDate": match.created_at.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": minutes,
        "players": players,
        "comments": ngettext(
            "%(count)s hand, scored with %(app)s",
            "%(count)s hands, scored with %(app)s",
            count,
            count=words.number(count),
            app=SOURCE,
        ),
    }


def play_link(state: MatchState) -> str | None:
    """The link that logs the match in BG Stats; None until the game is over (won or
    drawn: an abandoned match is no play to log)."""
    if not state.over:
        return None
    text = json.dumps(play_data(state), ensure_ascii=False, separators=(",", ":"))
    return LINK + quote(text, safe="")
