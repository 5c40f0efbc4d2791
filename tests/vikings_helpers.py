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


def a_whole_plan(game, seat: int) -> list[list[str]]:
    """The trips of a legal whole sailing for ``seat`` (the sailor dialog, V-34 … V-35, V-44): each
    sailor in turn takes one of each kind, else all of one kind, else one viking, whichever the
    engine accepts; until no sailor of ``seat`` can move a viking."""
    from engine.vikings.data import KINDS, SAILOR, cell_name

    g = game.copy()
    trips: list[list[str]] = []
    while g.phase == "sail" and g.turn == seat:
        h = g.homeland(seat)
        kinds = [k for k in KINDS if k != SAILOR and h.base[k] > 0 and h.empty_tiles(k)]
        candidates = [[cell_name(*h.empty_tiles(k)[0]) for k in kinds]]
        candidates += [[cell_name(*c) for c in h.empty_tiles(k)[:h.base[k]]] for k in kinds]
        candidates += [[cell_name(*h.empty_tiles(k)[0])] for k in kinds]
        for trip in candidates:
            text = "sail plan " + " ".join(trip)
            if g.is_legal(seat, text):
                g.apply(seat, text)
                trips.append(trip)
                break
        else:
            errors = []
            for trip in candidates:
                try:
                    g.copy().apply(seat, "sail plan " + " ".join(trip))
                except Exception as e:  # noqa: BLE001 - shown in the failure
                    errors.append(str(e))
            raise AssertionError(f"no legal trip for seat {seat} after {trips} (trip {g.trip}, {g.homeland(seat).rows}, {g.homeland(seat).base}): {errors}")
    return trips
