"""Helpers that set a Vikings game into a written-down position for rule tests."""

from __future__ import annotations

import json

from engine.vikings import VikingsGame
from engine.vikings.homeland import Homeland
from engine.vikings.notation import parse_table


def new_game(n: int = 2, seed: int = 1, start_seat: int = 0, **options) -> VikingsGame:
    names = ["Astrid", "Bjorn", "Cnut", "Dagny"][:n]
    return VikingsGame.new(names, seed=seed, options=options, start_seat=start_seat)


def homeland(text: str) -> Homeland:
    """A homeland from notation rows (the ``player:`` line may be left out)."""
    if "player:" not in text:
        text = "player: x gold=0 vp=0\n" + text
    return parse_table(text).players[0].homeland


def set_homeland(g: VikingsGame, seat: int, text: str, start_pending: bool = False) -> None:
    h = homeland(text)
    h.start_pending = start_pending
    g.homelands[seat] = h


def set_wheel(g: VikingsGame, combos: dict[int, tuple[str, str]]) -> None:
    """Put exactly these combos on the wheel (position -> (tile, viking))."""
    g.wheel = [None] * 12
    for pos, (tile, viking) in combos.items():
        g.wheel[pos] = [tile, viking]


def snapshot(g: VikingsGame) -> str:
    return json.dumps(g.to_json(), sort_keys=True)
