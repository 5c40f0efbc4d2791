"""``step`` (the unchecked apply of the players' simulations, issue 30) agrees with ``apply``.

Seeded random games of both engines are played twice side by side, one with ``apply`` and one with
``step``, on legal actions only: after every action the events and the whole state (``to_json``,
RNG included) must be the same.
"""

from __future__ import annotations

import pytest

from engine.brianboru import BrianBoruGame
from engine.core import Game, Rng
from engine.vikings import VikingsGame

CASES = [(VikingsGame, 4, None), (VikingsGame, 2, {"advanced": True}), (VikingsGame, 3, {"ships_any_order": False}),
         (BrianBoruGame, 4, None), (BrianBoruGame, 3, None), (BrianBoruGame, 5, None)]


@pytest.mark.parametrize(("cls", "n", "options"), CASES, ids=lambda x: getattr(x, "__name__", str(x)))
def test_step_changes_the_state_as_apply_does(cls: type[Game], n: int, options) -> None:
    for seed in range(3):
        checked = cls.new(["A", "B", "C", "D", "E"][:n], seed=seed, options=options)
        fast = checked.copy()
        chooser = Rng(seed)
        while not checked.is_over:
            s = checked.acting_seats()[0]
            legal = checked.legal_actions(s)
            assert fast.legal_actions(s) == legal
            a = legal[chooser.randbelow(len(legal))]
            assert [e.to_json() for e in fast.step(s, a)] == [e.to_json() for e in checked.apply(s, a)]
            assert fast.to_json() == checked.to_json()
        assert fast.is_over
