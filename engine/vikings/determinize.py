"""A whole Vikings game consistent with a view (issue 8, moved into the engine by issue 18).

The computer players search over full games, but may know only what their seat sees. This module
rebuilds a :class:`VikingsGame` from a view, drawing the face-down stacks, the bag and the special
tile stacks at random from the components the view does not show (V-1, V-2, V-45). It lives in the
engine because it writes the game's state; the players call :func:`determinize` and read views.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.core import Rng, json_copy

from .data import (
    BUILDING_TILES,
    ISLAND_COUNTS,
    ISLAND_ROWS,
    KINDS,
    PER_KIND,
    ROW_KIND,
    SHIPS,
    SPECIAL_TILES,
    START_TILE,
    START_TILES,
)
from .game import WHEEL, VikingsGame
from .homeland import EMPTY, Homeland


def homeland_of(player: Mapping[str, Any]) -> Homeland:
    """A homeland rebuilt from one player of a view (``view["players"][seat]``), sharing nothing."""
    return Homeland([list(r) for r in player["rows"]], dict(player["base"]), list(player["specials"]),
                    player["start_tile_pending"])


def determinize(view: Mapping[str, Any], rng: Rng) -> VikingsGame:
    """A full game consistent with ``view``: the hidden stacks, bag and special stacks are drawn at
    random from the components that the view does not show (V-1, V-2, V-45).

    Reads nothing but the view; components out of the game are public (``view["out"]``).
    """
    n = len(view["players"])
    g = VikingsGame()
    g._names = [p["name"] for p in view["players"]]
    g.options = dict(view["options"])
    g.seed = 0
    g.rng = Rng(rng.next64())
    g.round = view["round"]
    g.phase = view["phase"]
    g.start_player = view["start_player"]
    g.turn = view["active"] if view["active"] is not None else view["start_player"]
    g.homelands = [homeland_of(p) for p in view["players"]]
    g.gold = [p["gold"] for p in view["players"]]
    g.vp = [p["vp"] for p in view["players"]]
    g.wheel = [[c["tile"], c["viking"] or ""] if c else None for c in view["wheel"]]
    pend = view["pending"]
    filled = sum(1 for c in g.wheel if c is not None)
    if g.phase in ("bid", "remove", "lay"):
        g.purchases = 0
    else:
        g.purchases = WHEEL - filled - (1 if pend else 0)
    if pend:
        g.pending = {"tile": pend["tile"], "viking": pend["viking"], "placed": pend["placed"], "pos": 0}
        if g.phase == "swap":
            last = (view.get("last") or {}).get("action", "")
            name = last.split()[-1] if last.startswith("special ") else None
            if name not in BUILDING_TILES:
                name = next(s for s in g.homelands[g.turn].specials if s in BUILDING_TILES)
            g.pending["building"] = name
    if g.phase == "sail":
        order = g.turn_order()
        g.sail_queue = order[order.index(g.turn):]
    g.trip = json_copy(view.get("trip"))
    g.last = json_copy(view.get("last"))
    g.results = json_copy(view.get("final"))
    auction = view.get("auction")
    if auction:
        g.drawn = list(auction["drawn"])
        g.bids = json_copy(auction["bids"])
        g.removed = list(auction["removed"])
    # --- tiles: the stacks hold what is not visible (V-2, V-6)
    unseen = Counter({t: k for t, k in ISLAND_COUNTS.items()})
    for s, v in SHIPS.items():
        unseen["^" + s] += v["count"]
    for h in g.homelands:
        starts = 0 if h.start_pending else 1
        for row in h.rows:
            for tok in row:
                if tok == EMPTY:
                    continue
                t = tok.rstrip("*")
                if t[0] == "X":  # a special tile; the middle tile it replaced is in view["out"]
                    continue
                if t == START_TILE and starts:
                    starts -= 1
                    continue
                unseen[t] -= 1
    for c in g.wheel:
        if c:
            unseen[c[0]] -= 1
    if pend and not pend["placed"]:
        unseen[pend["tile"]] -= 1
    out = view.get("out") or {"tiles": [], "vikings": []}
    g.out_tiles = list(out["tiles"])
    g.out_vikings = list(out["vikings"])
    out_tiles = list(out["tiles"])
    for _ in range(START_TILES - n):  # unused start tiles left the game at set-up (V-5)
        if START_TILE in out_tiles:
            out_tiles.remove(START_TILE)
    for t in out_tiles:
        unseen[t] -= 1
    pool = [t for t, k in sorted(unseen.items()) for _ in range(max(0, k))]
    rng.shuffle(pool)
    size = 12
    need = view["stacks_left"] * size
    pool = pool[:need]
    g.stacks = [pool[i * size:(i + 1) * size] for i in range(view["stacks_left"])]
    # --- vikings: the bag holds what is not visible (V-1)
    seen: Counter[str] = Counter()
    for h in g.homelands:
        for kind, k in h.base.items():
            seen[kind] += k
        for r in ISLAND_ROWS:
            seen[ROW_KIND[r]] += sum(1 for t in h.rows[r] if t.endswith("*"))
    for c in g.wheel:
        if c and c[1]:
            seen[c[1]] += 1
    if pend and not pend["placed"]:
        seen[pend["viking"]] += 1
    for drawn in g.drawn:
        seen[drawn] += 1
    for gone in g.out_vikings:  # used sailors, vikings removed by the auction (V-34, V-42)
        seen[gone] += 1
    bag = [kind for kind in KINDS for _ in range(max(0, PER_KIND - seen[kind]))]
    rng.shuffle(bag)
    g.bag = bag[:view["bag"]]
    # --- special tiles (V-45)
    if g.options.get("specials"):
        g.special_display = list(view["specials_display"])
        left = Counter({name: v["count"] for name, v in SPECIAL_TILES.items()})
        for shown in g.special_display:
            if shown:
                left[shown] -= 1
        for h in g.homelands:
            for taken in h.specials:
                left[taken] -= 1
            for _r, _c, tok in h.island_cells():
                if tok[0] == "X":
                    left[tok.rstrip("*")] -= 1
        sp = [s for s, k in sorted(left.items()) for _ in range(max(0, k))]
        rng.shuffle(sp)
        sizes = view["specials_stacks"]
        g.special_stacks = [sp[:sizes[0]], sp[sizes[0]:sizes[0] + sizes[1]]]
    else:
        g.special_stacks = [[], []]
        g.special_display = []
    return g


