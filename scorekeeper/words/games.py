"""The games by name: each preset's name, what it is in a sentence, and where its rules
come from. The games' proper names (Canasta, Samba, Bolivia, Buraco, Burraco) stay in
every language; the rest of a name is translated."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .translate import gettext


@dataclass(frozen=True)
class GameWords:
    name: Callable[[], str]
    description: Callable[[], str]
    source: Callable[[], str]


def _classic_source() -> str:
    return gettext("Classic (American) Canasta, the 1950s standard rules")


GAMES: dict[str, GameWords] = {
    "classic": GameWords(
        lambda: gettext("Classic Canasta"),
        lambda: gettext("Two partnerships of two with a double deck; first side to 5000 wins."),
        _classic_source,
    ),
    "classic-2p": GameWords(
        lambda: gettext("Classic Canasta for two"),
        lambda: gettext("Two players head to head; two canastas are needed to go out."),
        _classic_source,
    ),
    "classic-3p": GameWords(
        lambda: gettext("Classic Canasta for three"),
        lambda: gettext("Three players, each on their own; one canasta is needed to go out."),
        _classic_source,
    ),
    "samba": GameWords(
        lambda: gettext("Samba"),
        lambda: gettext(
            "Canasta with three decks and sequences (sambas); first side to 10000 wins."
        ),
        lambda: gettext("Samba as the standard American card-game rule books give it"),
    ),
    "samba-fournier": GameWords(
        lambda: gettext("Samba (Fournier)"),
        lambda: gettext("Samba as the Spanish card maker Fournier prints it, with its penalties."),
        lambda: gettext("The Fournier Samba rule book"),
    ),
    "brazilian": GameWords(
        lambda: gettext("Brazilian Canasta"),
        lambda: gettext(
            "Three decks, sambas and bolivias of wild cards; first side to 10000 wins."
        ),
        lambda: gettext("Brazilian Canasta as a card-game reference site describes it"),
    ),
    "bolivia": GameWords(
        lambda: gettext("Bolivia"),
        lambda: gettext(
            "Three decks, escaleras (sequences) and bolivias; first side to 15000 wins."
        ),
        lambda: gettext("Bolivia as the Bicycle rule book and pagat give it"),
    ),
    "buraco": GameWords(
        lambda: gettext("Buraco"),
        lambda: gettext("Two players, runs only, an extra hand (morto) each; first to 3000 wins."),
        lambda: gettext("A Brazilian Buraco rules leaflet for two players"),
    ),
    "burraco": GameWords(
        lambda: gettext("Burraco"),
        lambda: gettext("Italian Burraco for two or four, with the pozzetto; first to 2005 wins."),
        lambda: gettext(
            "The Italian Burraco federation rules, as pagat and eburraco summarise them"
        ),
    ),
    "classic-6p": GameWords(
        lambda: gettext("Classic Canasta for six"),
        lambda: gettext("Six players with three decks, in two teams of three or three pairs."),
        lambda: gettext(
            "Randy Rasa's Canasta for six players (rummy-games.com); pagat for wild-card canastas"
        ),
    ),
    "hand-and-foot": GameWords(
        lambda: gettext("Hand and Foot"),
        lambda: gettext(
            "Each player has a hand and a foot; books of seven; four deals, most points wins."
        ),
        lambda: gettext(
            "Hand and Foot as pagat gives Bill Whitnack's partnership rules; house rules "
            "from players' pages and other scorekeepers"
        ),
    ),
    "buraco-4p": GameWords(
        lambda: gettext("Buraco in partnerships"),
        lambda: gettext(
            "Buraco as played in Brazil: two pairs, jokers, runs of 500 and 1000; to 3000."
        ),
        lambda: gettext(
            "pagat's Buraco (players, pack, card values); Brazilian Buraco rule pages for scoring"
        ),
    ),
    "burraco-3p": GameWords(
        lambda: gettext("Burraco for three"),
        lambda: gettext(
            "Three players, pair against one and then each for himself; first to 1505."
        ),
        lambda: gettext(
            "The Italian Burraco federation's three-player method (eburraco, biska, "
            "ilburraco, burraco2); genovagioca's tournament rules for each for himself "
            "throughout"
        ),
    ),
    "modern-american": GameWords(
        lambda: gettext("Modern American Canasta"),
        lambda: gettext(
            "Canastas of sevens, aces and wild cards, threes on a schedule, special hands; "
            "first side to 8500 wins."
        ),
        lambda: gettext(
            "The Canasta League of America rules; pagat's Modern American section where "
            "they are silent"
        ),
    ),
}


def game_name(key: str) -> str:
    """A game's name ("Classic Canasta for two"); a game no longer played here, by its key."""
    words = GAMES.get(key)
    return words.name() if words is not None else key


def game_description(key: str) -> str:
    words = GAMES.get(key)
    return words.description() if words is not None else ""


def game_source(key: str) -> str:
    words = GAMES.get(key)
    return words.source() if words is not None else ""
