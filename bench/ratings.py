"""Ratings of a large club: the replay from scratch, and stored ratings against ratings
computed on demand. In-process, on one database, in one run.

A club of 40 players with 10,000 finished matches (20 different partnerships played
through the API, then copied row by row). The table shows, each the median of
`--repeat` runs:

- the replay from scratch a correction, removal, import or merge causes: read every
  finished match (three queries), replay them, store the ratings;
- what a rating read costs with the ratings stored (this app) and what it would cost
  computed on demand (read and replay every match: what every first read after any
  finished match would pay with a cache keyed by the group's matches);
- a hand that finishes a match, with its one more step of the ratings, against the same
  hand with no ratings at all (the step's own cost).

    python bench/ratings.py [--matches 10000] [--repeat 5] [--database-url URL] [--quick]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from scaling import Club, copy_match, databases, settle  # noqa: E402
from serving import load_average, machine_note  # noqa: E402
from sqlalchemy import select  # noqa: E402

from scorekeeper.clubs import replay  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Match  # noqa: E402
from scorekeeper.season_models import Rating  # noqa: E402
from scorekeeper.services import ratings  # noqa: E402
from scorekeeper.services.hand_writes import record_hand  # noqa: E402
from scorekeeper.services.rating_replays import EXTENSION  # noqa: E402
from scorekeeper.services.storage import transaction  # noqa: E402

GOAL_SECONDS = 10.0  # the replay of 10,000 matches
OUT = [{"went_out": True, "canastas": {"natural": 2}, "meld_points": 300}, {"hand_points": 30}]
PLAYERS = [f"Player {n}" for n in range(40)]


def fill(club: Club, matches: int) -> int:
    """`matches` finished matches of 20 partnerships of the 40 players; the group's id."""
    rng = random.Random(44)
    firsts = []
    for _ in range(20):
        four = rng.sample(PLAYERS, 4)
        teams = [{"players": four[:2]}, {"players": four[2:]}]
        body = {"variant": "classic", "sides": teams, "options": {"target": 200}}
        first = club.api("POST", "/api/v1/matches", body)["id"]
        club.api("POST", f"/api/v1/matches/{first}/hands", {"sides": OUT[:: rng.choice((1, -1))]})
        firsts.append(first)
    with club.app.app_context():
        for n, first in enumerate(firsts):
            copies = matches // 20 - 1 + (1 if n < matches % 20 else 0)
            if copies:
                copy_match(first, copies)
        group_id = db.session.execute(select(Match.group_id)).scalars().first()
        assert group_id is not None
        with transaction():
            ratings.invalidate(group_id)
    club.app.extensions[EXTENSION].wait_all()
    return group_id


def median(action: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(url: str | None, matches: int, repeat: int) -> list[str]:
    with databases(url) as (address, _):
        club = Club(address)
        group_id = fill(club, matches)
        settle(club)
        app = club.app
        with app.app_context():
            counted = len(ratings.group_matches(group_id))
            player = (
                db.session.execute(select(Rating.player_id).order_by(Rating.player_id))
                .scalars()
                .first()
            )

        def replay_group() -> None:
            with app.app_context():
                with transaction():
                    ratings.invalidate(group_id)
                app.extensions[EXTENSION].wait_all()

        def read_stored() -> None:
            response = club.client.get(f"/api/v1/players/{player}/rating")
            assert response.status_code == 200, response.get_data(as_text=True)

        def read_on_demand() -> None:
            with app.app_context():
                replay(ratings.group_matches(group_id)).of_player(player)

        body = {"variant": "classic", "sides": [{"players": PLAYERS[:2]},
                {"players": PLAYERS[2:4]}], "options": {"target": 200}}  # fmt: skip
        waiting = [club.api("POST", "/api/v1/matches", body)["id"] for _ in range(repeat * 8)]

        def finishing_hand(with_ratings: bool) -> Callable[[], None]:
            def action() -> None:
                match_id = waiting.pop()
                step = ratings.match_settled
                if not with_ratings:
                    ratings.match_settled = lambda match, was: None
                try:
                    with app.app_context(), transaction():
                        record_hand(match_id, OUT, token=uuid.uuid4().hex)
                finally:
                    ratings.match_settled = step

            return action

        app.config["RATINGS_REPLAY_WAIT"] = 0
        replayed = median(replay_group, repeat)
        stored = median(read_stored, repeat * 4)
        on_demand = median(read_on_demand, repeat)
        with_step = median(finishing_hand(True), repeat * 4)
        without = median(finishing_hand(False), repeat * 4)
        with app.app_context():
            db.engine.dispose()
    verdict = "ok" if replayed <= GOAL_SECONDS * matches / 10_000 else "MISSED"
    return [
        f"{counted} finished matches of 40 players ({'PostgreSQL' if url else 'SQLite'}).",
        "| what | median | |",
        "|---|---|---|",
        f"| replay from scratch (read, replay, store) | {replayed:.2f} s | goal "
        f"{GOAL_SECONDS * matches / 10_000:.1f} s: {verdict} |",
        f"| a rating read, stored | {stored * 1000:.1f} ms | |",
        f"| a rating read, computed on demand | {on_demand * 1000:.0f} ms | "
        f"{on_demand / stored:.0f} x the stored read |",
        f"| a hand that finishes a match, with the ratings' step | {with_step * 1000:.1f} ms | "
        f"+{(with_step - without) * 1000:.1f} ms for the step |",
        f"| the same hand, ratings left out | {without * 1000:.1f} ms | |",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--quick", action="store_true", help="1,000 matches, 2 repeats")
    args = parser.parse_args(argv)
    matches, repeat = (1000, 2) if args.quick else (args.matches, args.repeat)
    url = args.database_url
    if url and url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    at_start = load_average()
    lines = run(url, matches, repeat)
    print("\n".join(lines))
    print(machine_note(at_start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
