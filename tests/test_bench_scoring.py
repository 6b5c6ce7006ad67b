"""`make bench` starts with bench/scoring.py: it needs a sample hand for every preset."""

from __future__ import annotations

import pytest

from scorekeeper.rules import PRESETS, read_hand, score

from .support import load_bench


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_preset_has_a_sample_hand_the_engine_scores(key):
    sides, players, lineup = load_bench("scoring").sample_hand(key)
    scored = score(PRESETS[key], read_hand(PRESETS[key], sides, players, lineup=lineup))
    assert len(scored) == len(sides)
    assert all(side.total % 5 == 0 for side in scored)
