"""The rules engine: Canasta-family presets as data, hand validation and scoring.

Pure Python: nothing here imports Flask or SQLAlchemy. It speaks keys: lines,
problems and labels are message keys with parameters (numbers and keys), put in
words at the edge (`scorekeeper.words`).
"""

from .errors import InvalidHand, InvalidOptions, InvalidRules, Problem, RulesError, UnknownVariant
from .game import DealLabel, GameResult, GameStatus, deal_label, game_result, instant_winner
from .hand import read_hand
from .meld import MeldRequirement, meld_requirement
from .model import GameFamily, Rules, Vocabulary
from .options import OptionSpec, available_options, option_defaults, resolve, resolve_options
from .presets import PRESETS, get_preset
from .record import Hand, PenaltyEntry, SideHand
from .scoring import Line, SideScore, score, score_side
from .serialize import rules_from_json, rules_to_json
from .validate import hand_warnings

__all__ = [
    "PRESETS",
    "DealLabel",
    "GameFamily",
    "GameResult",
    "GameStatus",
    "Hand",
    "InvalidHand",
    "InvalidOptions",
    "InvalidRules",
    "Line",
    "MeldRequirement",
    "OptionSpec",
    "PenaltyEntry",
    "Problem",
    "Rules",
    "RulesError",
    "SideHand",
    "SideScore",
    "UnknownVariant",
    "Vocabulary",
    "available_options",
    "deal_label",
    "game_result",
    "get_preset",
    "hand_warnings",
    "instant_winner",
    "meld_requirement",
    "option_defaults",
    "read_hand",
    "resolve",
    "resolve_options",
    "rules_from_json",
    "rules_to_json",
    "score",
    "score_side",
]
