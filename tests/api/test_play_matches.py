"""bench/play_matches.py plays a whole match of every preset through the API, to the end."""

from __future__ import annotations

import random
import threading

import pytest
from werkzeug.serving import make_server

from tests.rules.helpers import TARGETS
from tests.support import LAYOUTS, api_token_of_tester, load_play_matches

play_matches = load_play_matches()

# RULES.md, preset by preset: the target, and the table layouts (sides, players a side).


def test_the_script_covers_every_preset_and_layout():
    assert sorted(play_matches.LAYOUTS) == sorted((v, p) for v, _, p in LAYOUTS)
    assert {key: book.target for key, book in play_matches.BOOKS.items()} == TARGETS


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(("variant", "sides", "players"), LAYOUTS)
def test_a_whole_match_is_played_to_the_end(client, variant, sides, players, seed):
    result = play_matches.play_match(client, variant, players, seed=seed)
    assert result.variant == variant
    assert len(result.totals) == sides
    assert result.players_per_side == players
    assert result.finished is True
    assert result.status == "finished"
    best = max(result.totals)
    assert best >= TARGETS[variant]
    assert result.totals.count(best) == 1
    assert result.winner == result.totals.index(best)
    # The game ended with the last hand, not before.
    *playing, last_hand, final_read = result.states
    assert [state["finished"] for state in playing] == [False] * len(playing)
    assert last_hand["finished"] is True
    # The hand that ends the game says so, as the page asks before saving it.
    last_answer = dict(last_hand)
    warnings = last_answer.pop("warnings")
    assert (warnings[-1]["side"], warnings[-1]["field"]) == (None, None)
    assert warnings[-1]["message"].startswith("This hand ends the game:")
    assert final_read == last_answer
    final = client.get(f"/api/v1/matches/{result.match_id}").json
    assert len(final["hands"]) == result.hands
    assert [side["total"] for side in final["sides"]] == result.totals
    assert final["winner"] == result.winner


def test_random_hands_vary_who_goes_out():
    """The generated hands exercise every seat going out, and hands nobody goes out."""
    rng = random.Random(5)
    book = play_matches.BOOKS["classic-3p"]
    outs = set()
    for _ in range(200):
        hand = play_matches.random_hand(book, 3, 1, rng)
        out = [seat for seat, record in enumerate(hand) if record.get("went_out")]
        assert len(out) <= 1
        outs.add(out[0] if out else None)
    assert outs == {0, 1, 2, None}


# The short Burraco game (1005 is in common use): a tie at the target fits in one hand.
SHORT_BURRACO = {"target": 1005}


def burraco_side(out=False, clean=0, meld=0, hand=0, took=True):
    record = {"took_extra_hand": took, "meld_points": meld}
    if out:
        record["went_out"] = True
    if clean:
        record["canastas"] = {"natural": clean}
    if hand:
        record["hand_points"] = hand
    return record


def test_an_exact_tie_at_the_target_plays_on_until_one_side_leads(client):
    hands = [
        # 3 x 200 + 305 + 100 closing = 1005 | 3 x 200 + 405 = 1005: both at the target.
        [burraco_side(True, 3, 305), burraco_side(False, 3, 405)],
        # 50 - 100 = -50 | 200 + 100 + 100 = 400
        [burraco_side(False, 0, 50, 100), burraco_side(True, 1, 100)],
    ]
    result = play_matches.play_scripted(client, "burraco", 1, hands, SHORT_BURRACO)
    created, tied, decided = result.states[:3]
    assert created["finished"] is False
    assert [s["total"] for s in tied["sides"]] == [1005, 1005]
    assert tied["status"] == "tied"
    assert tied["finished"] is False
    assert tied["winner"] is None
    assert [s["total"] for s in decided["sides"]] == [955, 1405]
    assert decided["status"] == "finished"
    assert decided["finished"] is True
    assert decided["winner"] == 1


def test_a_tie_after_the_next_hand_still_plays_on(client):
    hands = [
        [burraco_side(True, 3, 305), burraco_side(False, 3, 405)],  # 1005 | 1005
        [burraco_side(False, 0, 100), burraco_side(True, 0, 0, 0, False)],  # 100 | -100
    ]
    # The second hand's closing side has no burraco and no pozzetto: refused.
    sender = play_matches.as_sender(client)
    player = play_matches.Player(sender, "burraco", 2, SHORT_BURRACO)
    player.record(hands[0])
    response = client.post(f"/api/v1/matches/{player.match_id}/hands", json={"sides": hands[1]})
    assert response.status_code == 422
    # Both sides score the same: still tied.
    state = player.record([burraco_side(False, 0, 100), burraco_side(False, 0, 100)])
    assert state["status"] == "tied"
    assert state["finished"] is False
    state = player.record([burraco_side(False, 0, 5), burraco_side(False, 0, 0, 0)])
    assert state["status"] == "finished"
    assert state["winner"] == 0


def test_three_players_two_tied_on_top_play_on_and_the_third_can_win(client):
    def out(naturals, meld):
        return {"went_out": True, "canastas": {"natural": naturals}, "meld_points": meld}

    hands = [
        # 500 + 400 + 100 | 500 + 500 | 200: two tied at the target of 1000
        [out(1, 400), {"canastas": {"natural": 1}, "meld_points": 500}, {"meld_points": 200}],
        # 50 - 100 | 0 | 1000 + 400 + 100: the third side overtakes both
        [{"meld_points": 50, "hand_points": 100}, {}, out(2, 400)],
    ]
    result = play_matches.play_scripted(client, "classic-3p", 1, hands, {"target": 1000})
    tied, decided = result.states[1:3]
    assert [s["total"] for s in tied["sides"]] == [1000, 1000, 200]
    assert (tied["status"], tied["finished"], tied["winner"]) == ("tied", False, None)
    assert [s["total"] for s in decided["sides"]] == [950, 1000, 1700]
    assert (decided["status"], decided["finished"], decided["winner"]) == ("finished", True, 2)


def test_a_single_leader_wins_even_when_the_others_tie(client):
    def out(naturals, meld):
        return {"went_out": True, "canastas": {"natural": naturals}, "meld_points": meld}

    two = {"canastas": {"natural": 1, "mixed": 1}, "meld_points": 300}  # 500 + 300 + 300 = 1100
    hands = [[out(2, 100), two, dict(two)]]  # 1000 + 100 + 100 = 1200 | 1100 | 1100
    result = play_matches.play_scripted(client, "classic-3p", 1, hands, {"target": 1000})
    final = result.states[-1]
    assert (final["status"], final["finished"], final["winner"]) == ("finished", True, 0)


def test_the_script_notices_a_wrong_answer(client):
    """The checks can fail: an API that names the wrong winner is caught."""
    honest = play_matches.as_sender(client)

    def lying(method, path, body):
        status, answer = honest(method, path, body)
        if isinstance(answer, dict) and answer.get("finished"):
            answer["winner"] = 1 - answer["winner"]
        return status, answer

    with pytest.raises(play_matches.PlayError, match="winner"):
        play_matches.play_match(lying, "burraco", 1)


def test_the_script_notices_a_wrong_total(client):
    honest = play_matches.as_sender(client)

    def off_by_five(method, path, body):
        status, answer = honest(method, path, body)
        if method == "POST" and path.endswith("/hands") and status == 201:
            answer["sides"][0]["total"] += 5
        return status, answer

    with pytest.raises(play_matches.PlayError, match="total"):
        play_matches.play_match(off_by_five, "classic", 2)


@pytest.fixture
def live_url(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_the_command_line_plays_against_a_live_server(app, live_url, capsys):
    token = api_token_of_tester(app)
    variants = ["--variant", "burraco", "--variant", "classic-3p"]
    status = play_matches.main(["--url", live_url, "--token", token, "--seed", "3", *variants])
    out = capsys.readouterr().out
    assert status == 0, capsys.readouterr().err
    lines = out.splitlines()
    assert len(lines) == 3  # burraco 2x1 and 2x2, classic-3p
    assert all("finished" in line for line in lines)


def test_the_url_sender_reads_error_answers(app, live_url):
    send = play_matches.url_sender(live_url, api_token_of_tester(app))
    status, answer = send("GET", "/api/v1/matches/424242", None)
    assert status == 404
    assert answer["errors"]
    status, answer = send("POST", "/api/v1/matches", {"variant": "nope", "sides": []})
    assert status == 422
    assert answer["errors"]
