"""The computer-player interface shared by both games (issue 8).

A player is told only what its seat may see: ``choose(view, legal)`` gets ``game.view(seat)`` (plain
JSON: no face-down stacks, no bag order, no other hands) and that seat's legal actions, and returns
one of those actions. It never holds the game object. Every player owns a seeded
:class:`engine.core.Rng`, so a game played by computer players replays identically from the seeds.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Action, Rng


class Player(ABC):
    """A computer player for one seat. ``level`` names it in the arena and the host."""

    level: str = ""
    game_id: str = ""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = Rng(seed)

    @abstractmethod
    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` (never empty) knowing only ``view``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


class RandomPlayer(Player):
    """Uniform over the legal actions: the baseline."""

    level = "random"

    def __init__(self, seed: int = 0, game_id: str = "") -> None:
        super().__init__(seed)
        self.game_id = game_id

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("choose() needs at least one legal action")
        return self.rng.choice(list(legal))


def argmax(items: Sequence[Any], scores: Sequence[float]) -> Any:
    """The item with the highest score; the first one on a tie (so choices are deterministic)."""
    best = 0
    for i in range(1, len(scores)):
        if scores[i] > scores[best]:
            best = i
    return items[best]
