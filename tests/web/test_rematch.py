"""Rematch on a game-over scoreboard: the same players in the same seats, the same rules
and options, the same group, the next dealer dealing first; one tap to the new match."""

from __future__ import annotations

from scorekeeper.extensions import db
from scorekeeper.models import Match

from .helpers import PLAYERS4, create_match, flashes, form_values, next_dealer, page, record_ok


def finished_game(client) -> int:
    """Classic to 1000, players renamed into a side of their own name; Ann & Cid win."""
    match_id = create_match(client, "classic", PLAYERS4, first_dealer=1, options={"target": 1000})
    record_ok(client, match_id, "none", {"meld_points": 500}, {"meld_points": 300})
    record_ok(client, match_id, "none", {"meld_points": 600}, {"meld_points": 300})
    return match_id


def rematch_form(root):
    forms = [f for f in root.find_all("form", method="post") if "rematch" in f.attrs["action"]]
    return forms[0] if forms else None


def test_a_game_over_scoreboard_offers_a_rematch_that_starts_it(app, client):
    match_id = finished_game(client)
    board = page(client.get(f"/matches/{match_id}"))
    form = rematch_form(board)
    assert form is not None
    assert form.find("button").text() == "Rematch"
    data = form_values(board, board.find_all("form", method="post").index(form))
    response = client.post(form.attrs["action"], data=data)
    assert response.status_code == 303
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert new_id != match_id
    shown = client.get(response.headers["Location"])
    dealer = next_dealer(shown)
    assert f"{dealer} deals first" in " ".join(flashes(shown))
    with app.app_context():
        old, new = db.session.get(Match, match_id), db.session.get(Match, new_id)
        assert (new.variant, new.options, new.group_id) == (old.variant, old.options, old.group_id)
        assert new.rules == old.rules
        assert [[m.player_id for m in s.members] for s in new.sides] == [
            [m.player_id for m in s.members] for s in old.sides
        ]
        assert [s.name for s in new.sides] == [s.name for s in old.sides]
        assert new.hands == []
        # The deal passes one seat clockwise a hand: the next dealer deals first.
        assert new.first_dealer == (old.first_dealer + len(old.hands)) % 4 == 3
    assert rematch_form(page(shown)) is None  # a game not over offers none


def test_a_game_still_played_offers_no_rematch_and_refuses_one(app, client):
    match_id = create_match(client, "classic", PLAYERS4)
    root = page(client.get(f"/matches/{match_id}"))
    assert rematch_form(root) is None
    data = form_values(root, 0) if root.find_all("form", method="post") else {}
    response = client.post(f"/matches/{match_id}/rematch", data=data)
    assert response.status_code == 303
    with app.app_context():
        assert db.session.query(Match).count() == 1
