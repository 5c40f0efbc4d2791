"""The games the host offers, each behind its adapter (see ``bot.games``); replaying their logs
is :mod:`bot.games.replay`."""

from __future__ import annotations

from bot.games import GameRegistry


def default_registry() -> GameRegistry:
    """Every game meadhall hosts; the first is what a table gets when nobody names a game."""
    from bot.games.brianboru import BrianBoruAdapter
    from bot.games.vikings import VikingsAdapter

    return GameRegistry([VikingsAdapter(), BrianBoruAdapter()])
