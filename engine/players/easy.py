"""The ``easy`` level (issue 30): the mistakes a person makes, never nonsense.

It looks at the same values as the heuristic (``score_actions``) but does not always take the best:
it draws one of the plausible actions — those within :data:`PLAUSIBLE` of the best value, at most
:data:`WIDTH` of them — with weights ``exp((score - best) / TEMPERATURE)``. So a clearly better move
is usually taken, two close moves are a coin toss, and a move far below the best (a throwaway) is
never taken. Seeded: the same view and seed give the same choice.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Action

from .base import Player
from .heuristic import heuristic_player

TEMPERATURE = {"vikings": 2.5, "brian-boru": 2.0}  # in the heuristic's units (about VP)
PLAUSIBLE = {"vikings": 8.0, "brian-boru": 6.0}  # a move further below the best is never chosen
WIDTH = 4  # at most this many candidates


class EasyPlayer(Player):
    level = "easy"

    def __init__(self, game_id: str, seed: int = 0) -> None:
        super().__init__(seed)
        self.game_id = game_id
        self.heuristic: Any = heuristic_player(game_id, self.rng.next64())

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("choose() needs at least one legal action")
        if self.game_id == "brian-boru":
            self.heuristic.remember(view)
        if len(legal) == 1:
            return legal[0]
        scores = self.heuristic.score_actions(view, legal)
        order = sorted(range(len(legal)), key=lambda i: -scores[i])
        top = scores[order[0]]
        near = [i for i in order[:WIDTH] if scores[i] >= top - PLAUSIBLE[self.game_id]]
        t = TEMPERATURE[self.game_id]
        weights = [math.exp((scores[i] - top) / t) for i in near]
        x = self.rng.next64() / 2**64 * sum(weights)
        for i, w in zip(near, weights):
            x -= w
            if x < 0:
                return legal[i]
        return legal[near[-1]]
