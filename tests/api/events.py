"""Helpers of the event API tests: make an event, find a table by its entries' numbers,
play its hands with the match points wanted (Classic for pairs: a side that melds M
points and holds nothing scores M)."""

from __future__ import annotations

from typing import Any

URL = "/api/v1/events"


def pairs(count: int, prefix: str = "P") -> list[dict[str, Any]]:
    return [{"players": [f"{prefix}{n}a", f"{prefix}{n}b"]} for n in range(1, count + 1)]


def create(client, **body: Any) -> dict[str, Any]:
    body = {"name": "Friday cup", "variant": "classic", **body}
    body.setdefault("entries", pairs(4))
    response = client.post(URL, json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def ids(state: dict[str, Any]) -> dict[int, int]:
    """Entry id by entry number."""
    return {entry["number"]: entry["id"] for entry in state["entries"]}


def numbers(state: dict[str, Any]) -> dict[int, int]:
    """Entry number by entry id."""
    return {entry["id"]: entry["number"] for entry in state["entries"]}


def pairings(state: dict[str, Any], round_number: int) -> tuple[list, list]:
    """A round's tables as (table, first number, second number) and its byes by number."""
    played = state["rounds_played"][round_number - 1]
    number = numbers(state)
    tables = [(t["table"], *(number[e] for e in t["entries"])) for t in played["tables"]]
    return tables, sorted(number[e] for e in played["byes"])


def table_of(state: dict[str, Any], round_number: int, a: int, b: int) -> tuple[dict, bool]:
    """The table of entries `a` and `b` (numbers) in a round, and whether `a` sits second."""
    by_id = ids(state)
    for table in state["rounds_played"][round_number - 1]["tables"]:
        if table["entries"] == [by_id[a], by_id[b]]:
            return table, False
        if table["entries"] == [by_id[b], by_id[a]]:
            return table, True
    raise AssertionError(f"no table of {a} and {b} in round {round_number}")


def hand(mp_first: int, mp_second: int) -> dict[str, Any]:
    return {"sides": [{"meld_points": mp_first}, {"meld_points": mp_second}]}


def play(client, state: dict[str, Any], round_number: int, a: int, b: int, *deals) -> int:
    """Play the table of `a` and `b`: each deal gives (a's MP, b's MP). Returns its match."""
    table, flipped = table_of(state, round_number, a, b)
    for mp_a, mp_b in deals:
        body = hand(mp_b, mp_a) if flipped else hand(mp_a, mp_b)
        response = client.post(f"/api/v1/matches/{table['match']}/hands", json=body)
        assert response.status_code == 201, response.get_json()
    return table["match"]


def start(client, event_id: int) -> dict[str, Any]:
    response = client.post(f"{URL}/{event_id}/rounds")
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def read(client, event_id: int) -> dict[str, Any]:
    response = client.get(f"{URL}/{event_id}")
    assert response.status_code == 200
    return response.get_json()


def ranked(state: dict[str, Any]) -> list[tuple[int, int, int, int, int, int]]:
    """The standings by number: (rank, entry number, vp, mp_diff, mp, played)."""
    number = numbers(state)
    return [
        (row["rank"], number[row["entry"]], row["vp"], row["mp_diff"], row["mp"], row["played"])
        for row in state["standings"]
    ]
