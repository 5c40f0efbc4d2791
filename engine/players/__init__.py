"""Computer players for meadhall's games (issue 8).

``make_player(game_id, level, seed)`` returns a :class:`Player` whose ``choose(view, legal)`` picks
one of a seat's legal actions from that seat's ``view`` only. Levels: ``random`` (uniform),
``heuristic`` (plays like a sensible human), ``search`` (determinized Monte Carlo over the hidden
information with the heuristic as rollout policy, ``budget`` seconds per decision).
"""

from __future__ import annotations

from typing import Any

from .base import Player, RandomPlayer

LEVELS = ("random", "heuristic", "search")
GAMES = ("vikings", "brian-boru")


def make_player(game_id: str, level: str, seed: int = 0, **options: Any) -> Player:
    """A seeded computer player. ``options`` go to the search player (``budget`` in seconds, …)."""
    game_id = {"brianboru": "brian-boru", "brian_boru": "brian-boru"}.get(game_id, game_id)
    if game_id not in GAMES:
        raise ValueError(f"unknown game {game_id!r} (known: {', '.join(GAMES)})")
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (known: {', '.join(LEVELS)})")
    if options and level != "search":
        raise ValueError(f"level {level!r} takes no options; got {sorted(options)}")
    if level == "random":
        return RandomPlayer(seed, game_id)
    if game_id == "vikings":
        from .vikings import VikingsHeuristic

        heuristic: type[Player] = VikingsHeuristic
    else:
        from .brianboru import BrianBoruHeuristic

        heuristic = BrianBoruHeuristic
    if level == "heuristic":
        return heuristic(seed)
    from .search import SearchPlayer

    return SearchPlayer(game_id, seed, **options)


__all__ = ["Player", "RandomPlayer", "make_player", "LEVELS", "GAMES"]
