"""Seeded games replay exactly as at 12896ee (issue 30, item 3: the speed-up changes no rule and no choice).

Each case plays a whole seeded game (heuristic and random seats, both games, basic and progress
variants) and compares its digest — every action and event, every score the heuristic seats
computed (exact floats), the final scores and the final state — with ``pinned_games.json``, captured
before the speed-up (``tests/engine/pinned_games.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.engine.pinned_games import CASES, case_id, play

PINNED = json.loads((Path(__file__).parent / "pinned_games.json").read_text(encoding="utf-8"))


def test_every_case_is_pinned() -> None:
    assert sorted(PINNED) == sorted(case_id(c) for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_seeded_game_replays_as_at_12896ee(case) -> None:
    assert play(case) == PINNED[case_id(case)]
