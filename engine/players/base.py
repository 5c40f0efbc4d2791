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


def check_search(budget: float, top_k: int, horizon: str | int, wall_limit: float | None,
                 max_rollouts: int | None = None) -> None:
    """The options both searches share (``montecarlo``'s :class:`~engine.players.search.SearchPlayer`
    and ``hard``'s :class:`~engine.players.ismcts.ISMCTSPlayer`): ``ValueError`` naming the bad one."""
    if budget <= 0:
        raise ValueError("budget must be more than 0 seconds")
    if top_k < 1:
        raise ValueError("top_k must be at least 1")
    if max_rollouts is not None and max_rollouts < 1:
        raise ValueError("max_rollouts must be at least 1")
    if not (horizon in ("round", "game") or (type(horizon) is int and horizon >= 0)):
        raise ValueError("horizon is 'round', 'game' or a number of rollout decisions (0 or more)")
    if wall_limit is not None and wall_limit <= 0:
        raise ValueError("wall_limit is a positive multiple of the budget, or None (no limit)")


def argmax(items: Sequence[Any], scores: Sequence[float]) -> Any:
    """The item with the highest score; the first one on a tie (so choices are deterministic)."""
    best = 0
    for i in range(1, len(scores)):
        if scores[i] > scores[best]:
            best = i
    return items[best]
