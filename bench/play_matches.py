"""Play a whole match of every preset through the match API, checking every answer.

For each preset (and each table layout of it) the script starts a match, records
random but valid hands (varying who goes out, respecting the preset's going-out
requirement, the meld points each canasta implies and the extra hand of
Buraco/Burraco) until the API says the game is over, and checks every answer
against its own reading of RULES.md: each hand total, the running totals, the
next initial-meld minimum, and the game end (target reached at or above it,
the highest total wins, an exact tie at the top plays on). Once the game is
over it checks that one more hand is refused with a 409.

Against a running server (standard library only):

    python bench/play_matches.py --url http://localhost:8000 --token TOKEN [--seed 7] \\
        [--variant samba]

(TOKEN: an API token, from the account page or `flask users token NAME`.)

From Python, `play_all(target)`, `play_match(target, variant, players_per_side)`
and `play_scripted(target, variant, players_per_side, hands)` take as `target`
a Flask test client, a base URL, or any callable
`send(method, path, body) -> (status, json_body)`.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

API = "/api/v1/matches"
Send = Callable[[str, str, Any], tuple[int, Any]]

# ---------------------------------------------------------------------------
# The rule book, transcribed from RULES.md (independently of the app's registry).
# ---------------------------------------------------------------------------

CLASSIC_TABLE = ((None, 15, None), (0, 50, None), (1500, 90, None), (3000, 120, None))


def _classic_reds(count: int) -> int:
    return 800 if count == 4 else 100 * count


def _samba_reds(count: int) -> int:
    return 1000 if count == 6 else 100 * count


def _brazilian_reds(count: int) -> int:
    return {5: 1000, 6: 1200}.get(count, 100 * count)


def _total(canastas: Mapping[str, int]) -> int:
    return sum(canastas.values())


@dataclass(frozen=True)
class RedThreeBook:
    deck: int
    value: Callable[[int], int]
    canastas_needed: int
    penalty_each: int | None = None  # Samba (Fournier): each costs this below the requirement

    def score(self, count: int, canastas: int) -> int:
        if count == 0:
            return 0
        if canastas >= self.canastas_needed:
            return self.value(count)
        if self.penalty_each is not None:
            return -self.penalty_each * count
        return -self.value(count)


@dataclass(frozen=True)
class Book:
    """What RULES.md says about one preset, as far as this script records hands."""

    key: str
    layouts: tuple[tuple[int, int], ...]  # (sides, players a side)
    target: int
    bonuses: Mapping[str, int]  # canasta kind -> bonus
    going_out: int
    concealed: int | None
    may_go_out: Callable[[Mapping[str, int]], bool]
    out_kinds: tuple[str, ...]  # the smallest canasta set that lets a side go out
    deck_size: int
    deck_value: int  # every card of the deck at its value: no hand counts more
    wild_kinds: tuple[str, ...] = ()  # kinds made of wild cards (bolivia): 7 x 20 at least
    red_threes: RedThreeBook | None = None
    black_threes: int = 0  # penalty per black three left in hand (0: no such field)
    short_sequence: int = 0  # penalty per short sequence (0: no such field)
    red_in_hand: int = 0  # penalty per red three still in hand (0: no such field)
    extra_hand: int | None = None  # penalty for not taking the extra hand
    meld_table: tuple[tuple[int | None, int, str | None], ...] = ()

    def min_meld(self, canastas: Mapping[str, int]) -> int:
        """7 x the cheapest card each canasta can hold: 5 (natural), 20 (wild)."""
        return sum(
            count * (140 if kind in self.wild_kinds else 35) for kind, count in canastas.items()
        )

    def meld_requirement(self, score: int) -> tuple[int, str | None]:
        chosen = (0, None)
        for min_score, points, canasta in self.meld_table:
            if min_score is None or score >= min_score:
                chosen = (points, canasta)
        return chosen

    def score_side(self, record: Mapping[str, Any]) -> int:
        canastas = record.get("canastas", {})
        total = sum(self.bonuses[kind] * count for kind, count in canastas.items())
        total += record.get("meld_points", 0)
        if record.get("went_out"):
            concealed = record.get("concealed") and self.concealed is not None
            total += self.concealed if concealed else self.going_out
        if self.red_threes is not None:
            total += self.red_threes.score(record.get("red_threes", 0), _total(canastas))
        total -= record.get("hand_points", 0)
        total -= self.black_threes * record.get("black_threes_in_hand", 0)
        total -= self.short_sequence * record.get("short_sequences", 0)
        total -= self.red_in_hand * record.get("red_threes_in_hand", 0)
        if self.extra_hand is not None and not record.get("took_extra_hand"):
            total -= self.extra_hand
        return total


def _any(count: int) -> Callable[[Mapping[str, int]], bool]:
    return lambda canastas: _total(canastas) >= count


def _samba_and_two(canastas: Mapping[str, int]) -> bool:
    return canastas.get("samba", 0) >= 1 and _total(canastas) >= 2


def _buraco_out(canastas: Mapping[str, int]) -> bool:
    return canastas.get("natural", 0) + canastas.get("ace_to_ace", 0) >= 1


_CLASSIC = {
    "bonuses": {"natural": 500, "mixed": 300},
    "going_out": 100,
    "concealed": 200,
    "deck_size": 108,
    "deck_value": 1180,  # 4x50 + 8x20 + 8x20 + 48x10 + 32x5 + 4x5
    "red_threes": RedThreeBook(4, _classic_reds, 1),
    "meld_table": CLASSIC_TABLE,
    "target": 5000,
}
_SAMBA = {
    "bonuses": {"natural": 500, "mixed": 300, "samba": 1500},
    "going_out": 200,
    "concealed": None,
    "deck_size": 162,
    "deck_value": 1770,  # 6x50 + 12x20 + 12x20 + 72x10 + 48x5 + 6x5
    "target": 10000,
}

BOOKS: dict[str, Book] = {
    book.key: book
    for book in (
        Book("classic", ((2, 2),), may_go_out=_any(1), out_kinds=("natural",), **_CLASSIC),
        Book(
            "classic-2p",
            ((2, 1),),
            may_go_out=_any(2),
            out_kinds=("natural", "mixed"),
            **_CLASSIC,
        ),
        Book("classic-3p", ((3, 1),), may_go_out=_any(1), out_kinds=("mixed",), **_CLASSIC),
        Book(
            "samba",
            ((2, 2),),
            may_go_out=_any(2),
            out_kinds=("samba", "natural"),
            red_threes=RedThreeBook(6, _samba_reds, 2),
            meld_table=(*CLASSIC_TABLE, (7000, 160, None)),
            **_SAMBA,
        ),
        Book(
            "samba-fournier",
            ((2, 2),),
            may_go_out=_any(1),
            out_kinds=("mixed",),
            red_threes=RedThreeBook(6, _samba_reds, 2, penalty_each=500),
            red_in_hand=1500,
            meld_table=CLASSIC_TABLE,
            **_SAMBA,
        ),
        Book(
            "brazilian",
            ((2, 2),),
            target=10000,
            bonuses={"natural": 500, "mixed": 300, "samba": 1500, "bolivia": 2000},
            going_out=100,
            concealed=200,
            may_go_out=_samba_and_two,
            out_kinds=("samba", "mixed"),
            deck_size=162,
            deck_value=1770,
            wild_kinds=("bolivia",),
            red_threes=RedThreeBook(6, _brazilian_reds, 1),
            black_threes=100,
            short_sequence=1000,
            meld_table=(
                *CLASSIC_TABLE,
                (7000, 0, "any"),
                (8000, 200, "any"),
                (9000, 0, "natural"),
            ),
        ),
        Book(
            "bolivia",
            ((2, 2),),
            target=15000,
            bonuses={"natural": 500, "mixed": 300, "samba": 1500, "bolivia": 2500},
            going_out=200,
            concealed=None,
            may_go_out=_samba_and_two,
            out_kinds=("samba", "natural"),
            deck_size=162,
            deck_value=1770,
            wild_kinds=("bolivia",),
            red_threes=RedThreeBook(6, _samba_reds, 2),
            black_threes=100,
            meld_table=(*CLASSIC_TABLE, (7000, 150, None)),
        ),
        Book(
            "buraco",
            ((2, 1),),
            target=3000,
            bonuses={"natural": 100, "mixed": 100, "ace_to_ace": 1000},
            going_out=100,
            concealed=None,
            may_go_out=_buraco_out,
            out_kinds=("natural",),
            deck_size=104,
            deck_value=880,  # 8x10 + 8x15 + 48x10 + 40x5
            extra_hand=100,
        ),
        Book(
            "burraco",
            ((2, 1), (2, 2)),
            target=2005,
            bonuses={"natural": 200, "mixed": 100},
            going_out=100,
            concealed=None,
            may_go_out=_any(1),
            out_kinds=("mixed",),
            deck_size=108,
            deck_value=1080,  # 4x30 + 8x20 + 8x15 + 48x10 + 40x5
            extra_hand=100,
        ),
    )
}

# Every preset with every table layout it allows: (variant, players a side).
LAYOUTS: tuple[tuple[str, int], ...] = tuple(
    (key, players) for key, book in BOOKS.items() for _, players in book.layouts
)

NAMES = ("Ana", "Bea", "Cid", "Dan", "Eva", "Fil")


def expected_result(target: int, totals: Sequence[int]) -> tuple[str, int | None]:
    """RULES.md: reached at or above the target; highest wins; a shared top plays on."""
    if not totals or max(totals) < target:
        return "playing", None
    best = max(totals)
    leaders = [seat for seat, total in enumerate(totals) if total == best]
    if len(leaders) > 1:
        return "tied", None
    return "finished", leaders[0]


# ---------------------------------------------------------------------------
# Sending requests: a Flask test client, a base URL (urllib), or a callable.
# ---------------------------------------------------------------------------


def client_sender(client: Any) -> Send:
    """Requests through a Flask test client."""

    def send(method: str, path: str, body: Any = None) -> tuple[int, Any]:
        kwargs = {} if body is None else {"json": body}
        response = client.open(path, method=method, **kwargs)
        return response.status_code, response.get_json(silent=True)

    return send


def url_sender(base_url: str, token: str = "", timeout: float = 30) -> Send:
    """Requests to a running server, with urllib only, as the holder of an API token."""
    base = base_url.rstrip("/")

    def send(method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json", "Authorization": f"Bearer {token}"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, _json_or_none(response.read())
        except urllib.error.HTTPError as error:
            with error:
                return error.code, _json_or_none(error.read())

    return send


def _json_or_none(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return None


def as_sender(target: Any) -> Send:
    if isinstance(target, str):
        return url_sender(target)
    if hasattr(target, "open") and hasattr(target, "application"):
        return client_sender(target)
    if callable(target):
        return target
    raise TypeError(f"cannot send requests through {target!r}")


# ---------------------------------------------------------------------------
# Playing.
# ---------------------------------------------------------------------------


class PlayError(AssertionError):
    """The API answered something the rules (or the API contract) do not allow."""


def check(condition: bool, message: str) -> None:
    if not condition:
        raise PlayError(message)


@dataclass
class MatchResult:
    variant: str
    players_per_side: int
    match_id: int
    hands: int
    totals: list[int]
    status: str
    finished: bool
    winner: int | None
    states: list[dict[str, Any]] = field(default_factory=list, repr=False)

    def summary(self) -> str:
        layout = f"{len(self.totals)}x{self.players_per_side}"
        outcome = f"winner side {self.winner}" if self.winner is not None else "no winner"
        totals = " to ".join(str(t) for t in self.totals)
        return f"{self.variant} {layout}: {self.hands} hands, {self.status}, {outcome} ({totals})"


def random_hand(
    book: Book, sides: int, players_per_side: int, rng: random.Random
) -> list[dict[str, Any]]:
    """One valid hand: who went out (or nobody), canastas, melds, cards left, threes."""
    out = None if rng.random() < 0.12 else rng.randrange(sides)
    kinds = [k for k in book.bonuses if k not in book.wild_kinds]
    chosen: list[dict[str, int]] = []
    for seat in range(sides):
        canastas: dict[str, int] = {}
        if seat == out:
            for kind in book.out_kinds:
                canastas[kind] = canastas.get(kind, 0) + 1
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            kind = rng.choice(kinds)
            canastas[kind] = canastas.get(kind, 0) + 1
        if book.wild_kinds and rng.random() < 0.08:
            canastas[book.wild_kinds[0]] = 1
        chosen.append(canastas)
    # What the canastas' cards are worth at least; the rest of the deck's value is shared
    # out, so the cards of the hand never count more than the deck holds.
    spare = book.deck_value - sum(book.min_meld(c) for c in chosen) - 5 * 2 * sides
    share = max(0, spare // sides)
    records: list[dict[str, Any]] = []
    for seat, canastas in enumerate(chosen):
        record: dict[str, Any] = {}
        if seat == out:
            record["went_out"] = True
            if rng.random() < 0.25:
                record["concealed"] = True
        if canastas:
            record["canastas"] = canastas
        extra = 5 * rng.randrange(0, min(120, share * 2 // 3 // 5) + 1)
        record["meld_points"] = book.min_meld(canastas) + extra
        alone_and_out = seat == out and players_per_side == 1
        held = 5 * rng.randrange(0, min(50, (share - extra) // 5) + 1)
        record["hand_points"] = 0 if alone_and_out else held
        if book.extra_hand is not None:
            record["took_extra_hand"] = seat == out or rng.random() < 0.7
        if seat != out:
            if book.black_threes and rng.random() < 0.2:
                record["black_threes_in_hand"] = rng.randrange(1, 3)
            if book.short_sequence and rng.random() < 0.05:
                record["short_sequences"] = 1
        records.append(record)
    if book.red_threes is not None:
        for _ in range(rng.randrange(book.red_threes.deck + 1)):
            record = records[rng.randrange(sides)]
            record["red_threes"] = record.get("red_threes", 0) + 1
        held = sum(r.get("red_threes", 0) for r in records)
        if book.red_in_hand and held < book.red_threes.deck and rng.random() < 0.1:
            seat = rng.choice([s for s in range(sides) if s != out])
            records[seat]["red_threes_in_hand"] = 1
    for seat, record in enumerate(records):
        if record.get("went_out"):
            check(book.may_go_out(record.get("canastas", {})), f"bad hand for seat {seat}")
    return records


class Player:
    """Plays one match through `send`, checking each answer against the rule book."""

    def __init__(
        self,
        send: Send,
        variant: str,
        players_per_side: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.send = send
        self.book = BOOKS[variant]
        layouts = {players: sides for sides, players in self.book.layouts}
        players_per_side = players_per_side or self.book.layouts[0][1]
        check(players_per_side in layouts, f"{variant} has no layout with {players_per_side}")
        unknown = set(options or {}) - {"target"}
        if unknown:
            raise ValueError(f"the script's rule book only follows the target option: {unknown}")
        self.options = dict(options or {})
        self.target = self.options.get("target", self.book.target)
        self.sides = layouts[players_per_side]
        self.players_per_side = players_per_side
        self.totals = [0] * self.sides
        self.hand_totals: list[list[int]] = []
        self.records: list[list[dict[str, Any]]] = []
        self.states: list[dict[str, Any]] = []
        self.where = f"{variant} {self.sides}x{players_per_side}"
        self.match_id = self._create()

    def _create(self) -> int:
        names = iter(NAMES)
        sides = [
            {
                "name": f"Side {seat + 1}",
                "players": [next(names) for _ in range(self.players_per_side)],
            }
            for seat in range(self.sides)
        ]
        body: dict[str, Any] = {"variant": self.book.key, "sides": sides}
        if self.options:
            body["options"] = self.options
        status, state = self.send("POST", API, body)
        check(status == 201, f"{self.where}: creating the match answered {status}: {state}")
        self.players = [s["players"] for s in sides]
        self.names = [s["name"] for s in sides]
        self._check_state(state)
        check(state["rules"]["target"] == self.target, f"{self.where}: rules.target")
        return state["id"]

    def _check_state(self, state: Any) -> None:
        where = f"{self.where}, after {len(self.hand_totals)} hands"
        check(isinstance(state, dict), f"{where}: the state is not a JSON object: {state!r}")
        for key in ("id", "variant", "rules", "sides", "hands", "finished", "winner", "dealer"):
            check(key in state, f"{where}: the state has no {key!r}")
        check(state["variant"] == self.book.key, f"{where}: variant {state['variant']!r}")
        check(len(state["sides"]) == self.sides, f"{where}: {len(state['sides'])} sides")
        for seat, side in enumerate(state["sides"]):
            check(side["name"] == self.names[seat], f"{where}: side {seat} name {side['name']!r}")
            check(side["players"] == self.players[seat], f"{where}: side {seat} players")
            check(
                side["total"] == self.totals[seat],
                f"{where}: side {seat} total {side['total']}, the rules give {self.totals[seat]}",
            )
            need = side["next_meld_requirement"]
            points, canasta = self.book.meld_requirement(self.totals[seat])
            check(
                (need["points"], need["canasta"]) == (points, canasta),
                f"{where}: side {seat} at {self.totals[seat]} needs {need}; "
                f"the rules give {points} points, canasta {canasta}",
            )
            check(isinstance(need.get("label"), str) and need["label"], f"{where}: no label")
        hands = state["hands"]
        check(len(hands) == len(self.hand_totals), f"{where}: {len(hands)} hands in the state")
        for number, (hand, totals, records) in enumerate(
            zip(hands, self.hand_totals, self.records, strict=True), start=1
        ):
            check(hand["number"] == number, f"{where}: hand numbered {hand['number']}")
            got = [side["total"] for side in hand["sides"]]
            check(got == totals, f"{where}: hand {number} totals {got}, the rules give {totals}")
            for seat, side in enumerate(hand["sides"]):
                lines = sum(line["points"] for line in side["lines"])
                check(lines == side["total"], f"{where}: hand {number} side {seat} lines {lines}")
                check(side["input"] == records[seat], f"{where}: hand {number} side {seat} input")
        status, winner = expected_result(self.target, self.totals)
        check(
            state["finished"] == (status == "finished"),
            f"{where}: totals {self.totals} (target {self.target}) give {status}, "
            f"the API says finished={state['finished']}",
        )
        check(
            state["winner"] == winner,
            f"{where}: totals {self.totals} give winner {winner}, the API says {state['winner']}",
        )
        if "status" in state:
            check(state["status"] == status, f"{where}: status {state['status']!r}, not {status!r}")
        seated = [name for players in self.players for name in players]
        check(state["dealer"] in seated, f"{where}: dealer {state['dealer']!r} is not playing")
        self.states.append(state)

    @property
    def status(self) -> str:
        return expected_result(self.target, self.totals)[0]

    def record(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        """Record one hand the rules accept and check the answer."""
        status, state = self.send("POST", f"{API}/{self.match_id}/hands", {"sides": records})
        check(
            status == 201,
            f"{self.where}: hand {len(self.hand_totals) + 1} {records} answered {status}: {state}",
        )
        totals = [self.book.score_side(record) for record in records]
        self.records.append(records)
        self.hand_totals.append(totals)
        self.totals = [a + b for a, b in zip(self.totals, totals, strict=True)]
        self._check_state(state)
        return state

    def refuse_after_end(self, records: list[dict[str, Any]]) -> None:
        """Once finished, one more hand is a 409 and changes nothing."""
        before = self.read()
        status, answer = self.send("POST", f"{API}/{self.match_id}/hands", {"sides": records})
        check(status == 409, f"{self.where}: a hand after the end answered {status}: {answer}")
        check(
            isinstance(answer, dict) and answer.get("errors"), f"{self.where}: 409 without errors"
        )
        check(self.read() == before, f"{self.where}: the refused hand changed the match")

    def read(self) -> dict[str, Any]:
        status, state = self.send("GET", f"{API}/{self.match_id}", None)
        check(status == 200, f"{self.where}: reading the match answered {status}")
        return state

    def result(self) -> MatchResult:
        state = self.read()
        self._check_state(state)
        return MatchResult(
            variant=self.book.key,
            players_per_side=self.players_per_side,
            match_id=self.match_id,
            hands=len(self.hand_totals),
            totals=list(self.totals),
            status=state.get("status", self.status),
            finished=state["finished"],
            winner=state["winner"],
            states=self.states,
        )


def play_match(
    target: Any,
    variant: str,
    players_per_side: int | None = None,
    seed: int = 0,
    max_hands: int = 300,
) -> MatchResult:
    """Play random valid hands until the API says the game is over."""
    rng = random.Random(f"{variant}/{players_per_side}/{seed}")
    player = Player(as_sender(target), variant, players_per_side)
    while player.status != "finished":
        check(len(player.hand_totals) < max_hands, f"{player.where}: no end after {max_hands}")
        player.record(random_hand(player.book, player.sides, player.players_per_side, rng))
    player.refuse_after_end(random_hand(player.book, player.sides, player.players_per_side, rng))
    return player.result()


def play_scripted(
    target: Any,
    variant: str,
    players_per_side: int | None,
    hands: Sequence[list[dict[str, Any]]],
    options: Mapping[str, Any] | None = None,
) -> MatchResult:
    """Record the given hands in order, checking each answer; `states` has one per hand."""
    player = Player(as_sender(target), variant, players_per_side, options)
    for records in hands:
        player.record(records)
    return player.result()


def play_all(target: Any, seed: int = 0, variants: Sequence[str] = ()) -> list[MatchResult]:
    return [
        play_match(target, variant, players, seed)
        for variant, players in LAYOUTS
        if not variants or variant in variants
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="base URL, e.g. http://localhost:8000")
    parser.add_argument("--token", required=True, help="an API token of the server")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variant", action="append", default=[], choices=sorted(BOOKS))
    args = parser.parse_args(argv)
    try:
        for result in play_all(url_sender(args.url, args.token), args.seed, args.variant):
            print(result.summary())
    except PlayError as error:
        print(f"FAILED: {error}", file=sys.stderr)
        return 1
    except urllib.error.URLError as error:
        print(f"Cannot reach {args.url}: {error.reason}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
