"""Hand-made Vikings views (the dict of docs/engine-api.md) for renderer tests and benchmarks.

The views are written by hand so that the renderer can be tested without the engine. Threat
(V-30, V-31) is derived from the rows here with the rulebook's sail depths (V-3) so that the
``threatened`` and ``defended`` lists agree with the homelands drawn.
"""

from __future__ import annotations

import copy
from typing import Any

NAMES = ["Astrid", "Bjorn", "Sigrid", "Ulf"]
ROWS = "^WNSGF"
KINDS = "FGSNWB"
# V-3: the deepest island row (1 = W … 5 = F) an undefended ship threatens.
SAIL_DEPTH = {"r": 2, "g": 3, "y": 4, "b": 5}
SCORINGS = ["small", "major", "small", "major", "small", "final"]


def threat(rows: list[list[str]]) -> tuple[list[str], list[str]]:
    """(threatened cells, defended ships) of one homeland, by V-30 and V-31."""
    threatened: list[str] = []
    defended: list[str] = []
    ships = rows[0]
    for i, ship in enumerate(ships):
        if ship in ("", "."):
            continue
        col = i + 1
        warriors = rows[1]
        if len(warriors) >= col and warriors[col - 1].endswith("*"):  # V-30
            defended.append(f"^{col}")
            continue
        for r in range(1, SAIL_DEPTH[ship[1]] + 1):  # V-31
            row = rows[r]
            if len(row) >= col and row[col - 1].endswith("*"):
                threatened.append(f"{ROWS[r]}{col}")
    return threatened, defended


def player(seat: int, name: str, gold: int, vp: int, rows: list[list[str]],
           base: dict[str, int] | None = None, specials: list[str] | None = None,
           start_tile_pending: bool = False) -> dict[str, Any]:
    threatened, defended = threat(rows)
    full_base = {k: 0 for k in KINDS}
    full_base.update(base or {})
    return {
        "seat": seat, "name": name, "gold": gold, "vp": vp,
        "rows": [list(r) for r in rows],
        "base": full_base,
        "threatened": threatened,
        "defended": defended,
        "start_tile_pending": start_tile_pending,
        "specials": list(specials or []),
    }


# Early game: round 1, each player has the start tile and at most one more tile.
_EARLY_ROWS = [
    [[], ["L*"], [], [], [], []],
    [["^r"], [], ["L"], [], [], []],
    [[], [], [], ["L*", "R"], [], []],
    [[], [], [], [], [], []],
]
_EARLY_BASE = [{}, {"N": 1}, {}, {}]

# Late game: round 6, long rows, ships defended and not, vikings threatened.
_LATE_ROWS = [
    [["^g", "^b", "^r", "^y"],
     ["L", "Ma*", "R*", "L*", "R"],
     ["L*", "R*", "L", "Mc*", "Md", "R*"],
     ["L*", "Mb*", "R*"],
     ["L*", "R*", "L", "Ma*", "R"],
     ["L*", "Mc", "Md*", "R*", "L*", "Mb", "R*"]],
    [["^b", "^y", "^g", "^r", "^g"],
     ["L*", "R*", "L*", "Ma", "R*"],
     ["L*", "Mb*", "Mc", "R*"],
     ["L", "R*", ".", "L*", "R"],
     ["L*", "Md*", "Ma*", "Mb", "Mc*", "R*", "L", "R*"],
     ["L*", "R"]],
    [["^y", "^r", "^b"],
     ["L", "R", "L*"],
     ["L*", "Ma*", "Mb", "Mc*", "Md", "Ma*", "Mb*", "R*", "L"],
     ["L*", "R*"],
     ["L", "Mc*", "R*"],
     ["L*", "Md*", "R", "L*", "Ma", "R*"]],
    [["^r", "^g", "^g", "^b", "^y", "^r"],
     ["L*", "R", "L*", "R*", "L", "Md*", "R*"],
     ["L", "R*"],
     ["L*", "Ma*", "Mb", "R*", "L*"],
     ["L*", "R"],
     ["L", "Mc*", "Md", "Ma*", "Mb", "R*", "L*", "R", "L", "Mc*"]],
]
_LATE_BASE = [
    {"F": 1, "G": 0, "S": 2, "N": 0, "W": 1, "B": 3},
    {"F": 0, "G": 1, "S": 0, "N": 2, "W": 0, "B": 1},
    {"F": 2, "G": 0, "S": 1, "N": 0, "W": 0, "B": 0},
    {"F": 0, "G": 0, "S": 0, "N": 1, "W": 2, "B": 4},
]
_GOLD = {2: 30, 3: 25, 4: 20}  # V-5


def _early_wheel() -> list[dict[str, Any] | None]:
    # V-10 / V-11: islands from 0 up, ships from 11 down; vikings sorted F G S N W B. Two bought.
    tiles = ["L", "R", "Ma", "L", "Mb", "R", "L", "Md", "R", "^g", "^y", "^b"]
    vikings = ["F", "F", "G", "G", "S", "N", "N", "W", "W", "W", "B", "B"]
    wheel: list[dict[str, Any] | None] = [
        {"tile": t, "viking": v, "price": p} for p, (t, v) in enumerate(zip(tiles, vikings))
    ]
    wheel[3] = None
    wheel[9] = None
    return wheel


def _late_wheel() -> list[dict[str, Any] | None]:
    # Round 6 after most purchases: the wheel has turned (V-18), prices dropped by 4.
    wheel: list[dict[str, Any] | None] = [None] * 12
    for pos, tile, viking in [(0, "L", "S"), (2, "Mc", "N"), (5, "R", "W"), (7, "^y", "B")]:
        wheel[pos] = {"tile": tile, "viking": viking, "price": pos}
    return wheel


def make_view(players: int = 4, stage: str = "early", *, phase: str | None = None,
              pending: dict[str, Any] | None = None, names: list[str] | None = None,
              options: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """A view of a ``players``-player table in the ``early`` (round 1) or ``late`` (round 6) game."""
    if players not in (2, 3, 4):
        raise ValueError("Vikings is for 2-4 players")
    if stage not in ("early", "late"):
        raise ValueError("stage is 'early' or 'late'")
    names = list(names or NAMES[:players])
    late = stage == "late"
    rows_src = _LATE_ROWS if late else _EARLY_ROWS
    bases = _LATE_BASE if late else _EARLY_BASE
    plist = []
    for seat in range(players):
        if late:
            gold, vp = [7, 23, 2, 14][seat], [31, 18, 44, 26][seat]
        else:
            gold, vp = _GOLD[players] - [0, 3, 1, 0][seat], 10
        plist.append(player(seat, names[seat], gold, vp, copy.deepcopy(rows_src[seat]), bases[seat],
                            start_tile_pending=(not late and seat == 3)))
    view: dict[str, Any] = {
        "game": "vikings",
        "options": {"ships_any_order": True, "auction": False, "single_sailor": False, "specials": False},
        "round": 6 if late else 1,
        "scorings": list(SCORINGS),
        "phase": phase or "buy",
        "active": 1 % players if late else 2 % players,
        "start_player": 1 % players if late else 0,
        "wheel": _late_wheel() if late else _early_wheel(),
        "pending": pending,
        "players": plist,
        "stacks_left": 0 if late else 5,
        "bag": 6 if late else 54,
        "last": ({"seat": 0, "action": "place F7 base", "cells": ["F7"]} if late
                 else {"seat": 1, "action": "place N1", "cells": ["N1"]}),
        "final": None,
    }
    if options:
        view["options"].update(options)
    view.update(extra)
    return view


def placing_view(players: int = 4, stage: str = "early") -> dict[str, Any]:
    """The active seat has bought a combo and must place it (phase ``place``)."""
    view = make_view(players, stage, phase="place")
    seat = view["active"]
    view["pending"] = {"seat": seat, "tile": "L", "viking": "S", "start_tile": False}
    return view


def progress_view(players: int = 4) -> dict[str, Any]:
    """An early progress-variant view (auction and specials on) with display and auction keys."""
    view = make_view(players, "early", options={"auction": True, "single_sailor": True, "specials": True})
    view["specials_display"] = ["gold5", "boat", None, "noble1"]
    # the engine's shapes: auction while bidding (V-41), 13 drawn vikings not yet laid (V-40)
    view["phase"] = "bid"
    view["round"] = 2  # one viking was removed in round 1 (V-42 [D-9])
    view["wheel"] = [dict(c, viking=None) if c else None for c in view["wheel"]]
    view["auction"] = {
        "drawn": list("FFGGSSNNWWWBB"),
        "bids": {"high": 4, "leader": 1, "active": [1, 2], "order": [0, 1, 2, 3][:players]},
        "removed": ["W"],
    }
    view["specials_stacks"] = [9, 10]
    view["players"][0]["specials"] = ["boat", "sailor"]
    return view


def final_view(players: int = 4) -> dict[str, Any]:
    view = make_view(players, "late", phase="over")
    view["active"] = None
    view["wheel"] = [None] * 12
    view["final"] = {
        "winners": [2 % players],
        "lines": [["green ship in column 1, undefended: -5 gold", "31 gold: +6 VP, 1 gold left",
                   "most sailors (3): +10 VP", "2 completed islands", "food: 23 vikings, 5 fishers: +4 VP"]
                  for _ in range(players)],
        "vp": [p["vp"] for p in view["players"]],
        "gold": [p["gold"] for p in view["players"]],
    }
    return view
