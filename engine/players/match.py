"""One game among computer players (issues 8 and 30): the arena, the ladder and the tests play it.
Its own module, so that the ladder need not import the arena's command line, which imports it."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import Game

from . import GAMES
from .analysis import final_vp
from .base import Player

NAMES = ["Astrid", "Bjorn", "Cnut", "Dagny", "Eira"]


def game_class(game_id: str) -> type[Game]:
    if game_id == "vikings":
        from engine.vikings import VikingsGame

        return VikingsGame
    if game_id == "brian-boru":
        from engine.brianboru import BrianBoruGame

        return BrianBoruGame
    raise ValueError(f"unknown game {game_id!r} (known: {', '.join(GAMES)})")


@dataclass
class GameRecord:
    levels: list[str]
    vp: list[int]
    winners: list[int]
    decisions: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)


class IllegalChoice(AssertionError):
    """A computer player returned an action outside its seat's legal actions."""


def play_game(
    game_id: str,
    players: Sequence[Player],
    seed: int,
    options: dict[str, Any] | None = None,
    record_actions: bool = False,
    max_steps: int = 20_000,
) -> tuple[Game, GameRecord]:
    """One game, seat ``i`` played by ``players[i]``; checks every choice is legal."""
    cls = game_class(game_id)
    game = cls.new(NAMES[: len(players)], seed=seed, options=options)
    rec = GameRecord([p.level for p in players], [], [], [0] * len(players), [0.0] * len(players))
    steps = 0
    while not game.is_over:
        seat = game.acting_seats()[0]
        legal = game.legal_actions(seat)
        view = game.view(seat)
        t = time.perf_counter()
        action = players[seat].choose(view, legal)
        rec.seconds[seat] += time.perf_counter() - t
        rec.decisions[seat] += 1
        if action not in legal:
            raise IllegalChoice(f"{players[seat]!r} chose {action} at seat {seat}, not among {[str(a) for a in legal]}")
        if record_actions:
            rec.actions.append(f"{seat}:{action}")
        game.apply(seat, action)
        steps += 1
        if steps > max_steps:
            raise RuntimeError("game did not end")
    rec.vp = final_vp(game)
    rec.winners = game.winners()
    return game, rec


__all__ = ["NAMES", "GameRecord", "IllegalChoice", "game_class", "play_game"]
