"""Computer players for meadhall's games (issues 8 and 30).

``make_player(game_id, level, seed)`` returns a :class:`Player` whose ``choose(view, legal)`` picks
one of a seat's legal actions from that seat's ``view`` only.

Levels offered to players (:data:`LEVELS`, weakest first):

* ``random`` — uniform over the legal actions (a baseline, no opponent);
* ``easy`` — plausible moves chosen as a hurried person would: the heuristic's values, chosen by
  chance weighted towards the better ones (:mod:`engine.players.easy`);
* ``normal`` — the heuristic: plays like a sensible person, instantly;
* ``hard`` — information-set Monte Carlo tree search (:mod:`engine.players.ismcts`; ``budget``
  seconds of fixed work per decision).

The names of issue 8 stay accepted (:data:`ALIASES`: ``heuristic`` is ``normal``, ``search`` is
``hard``), so stored tables and old commands keep working. :data:`INTERNAL` levels are for the
arena's ladder only, never offered to players (``montecarlo``: issue 8's flat Monte Carlo, kept for
comparison).
"""

from __future__ import annotations

from typing import Any

from .base import Player, RandomPlayer
from .heuristic import heuristic_player

LEVELS = ("random", "easy", "normal", "hard")
ALIASES = {"heuristic": "normal", "search": "hard"}
INTERNAL = ("montecarlo",)
# levels that search: they take options (``budget`` …) and the host runs them in its CPU pool
SEARCHING = frozenset({"hard", "montecarlo"})
GAMES = ("vikings", "brian-boru")


def canonical_level(name: str, *, internal: bool = False) -> str:
    """The level ``name`` stands for (an old name gives its new one); ``ValueError`` naming the input
    and the known levels when it is none. ``internal``: also accept the ladder's :data:`INTERNAL` levels."""
    level = ALIASES.get(name, name)
    if level in LEVELS or (internal and level in INTERNAL):
        return level
    known = (*LEVELS, *INTERNAL) if internal else LEVELS
    raise ValueError(f"unknown level {name!r} (known: {', '.join(known)})")


def make_player(game_id: str, level: str, seed: int = 0, **options: Any) -> Player:
    """A seeded computer player. ``options`` go to a searching level (``budget`` in seconds, …)."""
    game_id = {"brianboru": "brian-boru", "brian_boru": "brian-boru"}.get(game_id, game_id)
    if game_id not in GAMES:
        raise ValueError(f"unknown game {game_id!r} (known: {', '.join(GAMES)})")
    level = canonical_level(level, internal=True)
    if options and level not in SEARCHING:
        raise ValueError(f"level {level!r} takes no options; got {sorted(options)}")
    player: Player
    if level == "random":
        player = RandomPlayer(seed, game_id)
    elif level == "easy":
        from .easy import EasyPlayer

        player = EasyPlayer(game_id, seed)
    elif level == "normal":
        player = heuristic_player(game_id, seed)
    elif level == "hard":
        from .ismcts import ISMCTSPlayer

        player = ISMCTSPlayer(game_id, seed, **options)
    else:
        from .search import SearchPlayer

        player = SearchPlayer(game_id, seed, **options)
    player.level = level  # the canonical name, whatever name was asked for
    return player


__all__ = ["Player", "RandomPlayer", "make_player", "heuristic_player", "canonical_level", "LEVELS",
           "ALIASES", "INTERNAL", "SEARCHING", "GAMES"]
