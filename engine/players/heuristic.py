"""The ``normal`` level of each game: its heuristic player (issue 30). Its own module, so that the
levels built on it (``easy``, the searches) need not import the package that imports them."""

from __future__ import annotations

from .base import Player


def heuristic_player(game_id: str, seed: int = 0) -> Player:
    """The ``normal`` level of ``game_id``: the heuristic."""
    if game_id == "vikings":
        from .vikings import VikingsHeuristic

        return VikingsHeuristic(seed)
    from .brianboru import BrianBoruHeuristic

    return BrianBoruHeuristic(seed)
