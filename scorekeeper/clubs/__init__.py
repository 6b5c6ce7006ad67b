"""Club play's pure core: VP tables, movements, standings, leagues and ratings.

Pure Python beside the rules engine: no web framework, no database. Services,
views and the API build these values from stored events and matches and turn
the problems (message keys and parameters) into words at the edge.
"""

from .leagues import (
    EveningPoints,
    LeagueRow,
    LeagueScoring,
    LeagueSettings,
    LeagueStandings,
    SubstituteCredit,
    entry_points,
    evening_of,
    league_settings_problems,
    league_standings,
    read_league_settings,
    wdl_points,
)
from .matches import FinishedMatch
from .movements import (
    Movement,
    Pairing,
    Table,
    danish_round,
    max_rounds,
    mitchell_round,
    pair_round,
    round_robin_round,
)
from .problems import InvalidSettings, Problem
from .ratings import PlayerRating, Ratings, replay, win_chances
from .settings import EventSettings, read_event_settings
from .standings import (
    Bye,
    CardLine,
    Entry,
    EventResults,
    Penalty,
    StandingsRow,
    TableResult,
    entry_card,
    ranking,
    standings,
)
from .victory_points import (
    BUILT_IN,
    VPRow,
    VPTable,
    VPTableName,
    default_vp_table,
    read_vp_table,
    table_problems,
    vp_table_name,
    vp_table_to_json,
)

__all__ = [
    "BUILT_IN",
    "Bye",
    "CardLine",
    "Entry",
    "EveningPoints",
    "EventResults",
    "EventSettings",
    "FinishedMatch",
    "InvalidSettings",
    "LeagueRow",
    "LeagueScoring",
    "LeagueSettings",
    "LeagueStandings",
    "Movement",
    "Pairing",
    "Penalty",
    "PlayerRating",
    "Problem",
    "Ratings",
    "StandingsRow",
    "SubstituteCredit",
    "Table",
    "TableResult",
    "VPRow",
    "VPTable",
    "VPTableName",
    "danish_round",
    "default_vp_table",
    "entry_card",
    "entry_points",
    "evening_of",
    "league_settings_problems",
    "league_standings",
    "max_rounds",
    "mitchell_round",
    "pair_round",
    "ranking",
    "read_event_settings",
    "read_league_settings",
    "read_vp_table",
    "replay",
    "round_robin_round",
    "standings",
    "table_problems",
    "vp_table_name",
    "vp_table_to_json",
    "wdl_points",
    "win_chances",
]
