"""Computer players for Vikings: ``determinize`` and the heuristic (issue 8).

The heuristic values a homeland the way a sensible player does: what each viking will still
produce in the scorings left (goldsmiths 3 gold in every scoring, nobles 2 VP and scouts 1–3 VP in
every major one), threats by undefended ships (V-31), warriors under ships (V-30), fishers for the
food of the final scoring (V-37.6), the sailor, island and longest-island majorities compared with
the other homelands, and gold whose worth falls as the end nears (5 gold = 1 VP at the end). A
purchase is worth the best placement of its tile and viking minus its price.

Everything is computed from ``view(seat)`` only; :func:`determinize` builds a full
:class:`~engine.vikings.VikingsGame` consistent with a view, filling the face-down stacks, the bag
and the special-tile stacks at random from what is not visible.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, cast

from engine.core import Action
from engine.vikings import actions as A
from engine.vikings.data import (
    BUILDING_TILES,
    ISLAND_ROWS,
    KIND_ROW,
    KINDS,
    ROUNDS,
    ROW_KIND,
    SAILOR,
    SCORING,
    SCORING_AFTER,
    SHIP_ROW,
    SHIPS,
    SPECIAL_TILES,
    START_TILE,
)
from engine.vikings.determinize import determinize, homeland_of
from engine.vikings.game import WHEEL, VikingsGame
from engine.vikings.homeland import EMPTY, Homeland

from .base import Player, argmax

# What 1 gold in the purse is worth in VP, by round: it buys combos early, 1/5 VP at the end (V-37.2).
GOLD_NOW = (0.45, 0.42, 0.38, 0.33, 0.28, 0.22)
GOLD_LATER = 0.3  # gold that scorings will pay later
THREAT_LEFT = 0.2  # share of a threatened viking's yield kept (a warrior may still come)


# --------------------------------------------------------------------------- context


class Context:
    """What the valuation needs besides the homeland: scorings left and the rivals' majorities."""

    __slots__ = ("round", "small_left", "major_left", "buys_left", "opp_sailors", "opp_islands", "opp_longest",
                 "gold_now", "last_round", "single_sailor")

    def __init__(self, view: Mapping[str, Any], seat: int) -> None:
        r = max(1, view["round"])
        self.round = r
        left = SCORING_AFTER[r - 1:]
        self.small_left = left.count("small")
        self.major_left = left.count("major")
        n = len(view["players"])
        # purchases this seat still makes after the current decision (food eaters to come)
        wheel_left = sum(1 for c in view["wheel"] if c is not None)
        if view["phase"] in ("bid", "remove"):  # V-42: the round's 12 tiles are still face down
            wheel_left = WHEEL
        this_round = wheel_left // n
        self.buys_left = this_round + (ROUNDS - r) * (WHEEL // n)
        others = [p for p in view["players"] if p["seat"] != seat]
        homes = [_home(p) for p in others]
        self.opp_sailors = max((h.base[SAILOR] + h.specials.count("sailor") for h in homes), default=0)
        isl = [h.completed_islands() for h in homes]
        self.opp_islands = max((len(x) for x in isl), default=0)
        self.opp_longest = max((max(x, default=0) for x in isl), default=0)
        self.gold_now = GOLD_NOW[r - 1]
        self.last_round = r == ROUNDS
        self.single_sailor = bool(view["options"].get("single_sailor"))


def _home(p: Mapping[str, Any]) -> Homeland:
    return homeland_of(p)


def _majority(mine: int, best_other: int, prize: float, sharp: bool) -> float:
    """Expected share of a majority prize (V-37.3–5) from the current lead."""
    if mine <= 0:
        return 0.0
    d = mine - best_other
    slope = 3.0 if sharp else 1.2
    return prize / (1.0 + math.exp(-slope * d - 0.4))


# --------------------------------------------------------------------------- valuation


def home_value(h: Homeland, ctx: Context) -> float:
    """VP the homeland will still bring (not counting the purse), as a sensible player guesses it."""
    zone = h.threat_zone()
    rows = h.rows
    small, major = ctx.small_left, ctx.major_left
    keep = THREAT_LEFT if not ctx.last_round else 0.0
    v = 0.0
    specials = h.specials
    gold_bonus = 3 + specials.count("goldsmith1") + 2 * specials.count("goldsmith2")
    g_yield = gold_bonus * (small + major) * GOLD_LATER
    noble_yield = (2 + specials.count("noble1")) * major
    grow, frow, srow = KIND_ROW["G"], KIND_ROW["F"], KIND_ROW["S"]
    fishers = 0
    eaters = sum(h.base.values())
    tile_value = {}  # per kind: what one more viking standing on a tile of its row is worth
    tile_value["G"] = g_yield
    tile_value["N"] = noble_yield
    tile_value["S"] = major * (1.5 + specials.count("scout1"))
    tile_value["F"] = 0.0
    tile_value["W"] = 0.3 * major
    for row in ISLAND_ROWS:
        kind = ROW_KIND[row]
        for i, tok in enumerate(rows[row]):
            if not tok.endswith("*"):
                if tok != EMPTY:
                    v += 0.15  # an empty tile: a sailor may still fill it
                continue
            col = i + 1
            threatened = (row, col) in zone
            if tok[0] != "X":
                eaters += 1
            share = keep if threatened else 1.0
            if kind == "G":
                v += share * g_yield
            elif kind == "N":
                v += share * noble_yield
            elif kind == "S":
                per = 1 + (1 if h.has_viking(grow, col) else 0) + (1 if h.has_viking(frow, col) else 0)
                v += share * major * (per + specials.count("scout1"))
            elif kind == "F":
                if not threatened and tok[0] != "X":
                    fishers += 1
                if major and h.has_viking(srow, col):
                    pass  # counted with the scout
            elif kind == "W":
                if h.get(SHIP_ROW, col) == EMPTY:
                    v += 0.3 * major  # a ship may still come over it
    # ships (V-30, V-33.1, V-37.1)
    for _col, sail, defended in h.ships():
        ship = SHIPS[sail]
        amount = ship["amount"]
        if defended:
            v += amount * major * (GOLD_LATER if ship["reward"] == "gold" else 1.0)
        else:
            v -= amount * (0.2 if ship["reward"] == "gold" else 1.0)
    # food (V-37.6), counting the vikings this seat will still buy
    eat = eaters + ctx.buys_left
    fed = fishers * SCORING["fisher_feeds"]
    surplus = SPECIAL_TILES["feast"]["surplus_vp"] if "feast" in specials else SCORING["food_surplus_vp"]
    v += (fed - eat) * surplus if fed >= eat else -(eat - fed) * SCORING["food_shortfall_vp"]
    # base vikings may still sail onto an empty tile of their row (V-34)
    sailors = h.base[SAILOR]
    if major and sailors:
        for kind in KINDS:
            if kind == SAILOR or not h.base[kind]:
                continue
            room = sum(1 for t in rows[KIND_ROW[kind]] if t != EMPTY and not t.endswith("*"))
            v += 0.6 * min(room, h.base[kind]) * tile_value[kind]
    # majorities of the final scoring (V-37.3–5)
    v += _majority(sailors + specials.count("sailor"), ctx.opp_sailors, SCORING["sailor_majority_vp"],
                   ctx.last_round)
    isl = h.completed_islands()
    v += _majority(len(isl), ctx.opp_islands, SCORING["islands_majority_vp"], ctx.last_round)
    v += _majority(max(isl, default=0), ctx.opp_longest, SCORING["longest_island_vp"], ctx.last_round)
    v += 0.8 * len(isl)
    if not ctx.last_round:  # open islands (L, M … with room on the right) may still be completed
        for row in ISLAND_ROWS:
            r = rows[row]
            if r and r[-1][0] in "LMX":
                v += 0.6
    return v


def purse_value(gold: int, vp: int, ctx: Context) -> float:
    return vp + gold * ctx.gold_now


def _placements(h: Homeland, tile: str, viking: str, ships_any_order: bool) -> list[Homeland]:
    """Every homeland the bought tile and viking can lead to (start tile included, V-23 … V-27)."""
    out: list[Homeland] = []
    starts: list[Homeland] = []
    if h.start_pending:
        for row, _c in h.start_cells():
            s = h.copy()
            s.set(row, 1, START_TILE)
            s.start_pending = False
            starts.append(s)
    else:
        starts.append(h)
    vrow = KIND_ROW.get(viking)
    for s in starts:
        cells = s.cells_for(tile, ships_any_order)
        if not cells:  # V-23: fits nowhere, viking to the base
            x = s.copy()
            x.base[viking] += 1
            out.append(x)
            continue
        for r, c in cells:
            x = s.copy()
            on = r == vrow
            x.set(r, c, tile + ("*" if on else ""))
            if not on:
                x.base[viking] += 1
            out.append(x)
    return out


def best_placement_value(h: Homeland, tile: str, viking: str, ctx: Context, ships_any_order: bool) -> float:
    return max(home_value(x, ctx) for x in _placements(h, tile, viking, ships_any_order))


def price_cost(price: int, gold: int, ctx: Context) -> float:
    """V-13, V-16: gold first, the shortfall in VP 1 : 1."""
    from_gold = min(price, gold)
    return from_gold * ctx.gold_now + (price - from_gold)


# --------------------------------------------------------------------------- the heuristic player


class VikingsHeuristic(Player):
    level = "heuristic"
    game_id = "vikings"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        scores = self.score_actions(view, legal)
        return argmax(list(legal), scores)

    # one score per legal action, higher is better (also used by the search player to prune)
    def score_actions(self, view: Mapping[str, Any], legal: Sequence[Action]) -> list[float]:
        seat = view["seat"]
        phase = view["phase"]
        ctx = Context(view, seat)
        me = view["players"][seat]
        h = _home(me)
        any_order = view["options"]["ships_any_order"]
        # the engine offers one kind of action per phase (casts name it; no cost in the search's loop)
        if phase == "buy":
            out = []
            for a in cast("Sequence[A.Buy]", legal):
                combo = view["wheel"][a.pos]
                val = best_placement_value(h, combo["tile"], combo["viking"], ctx, any_order)
                val -= price_cost(a.pos, me["gold"], ctx)
                out.append(val)
            return out
        if phase == "place":
            return [self._place_score(h, view["pending"], a, ctx, any_order)
                    for a in cast("Sequence[A.Place | A.Start]", legal)]
        if phase == "sail":
            return self._sail_scores(view, legal, ctx)
        if phase == "bid":
            return [self._bid_score(me, a, ctx) for a in cast("Sequence[A.Bid | A.Pass]", legal)]
        if phase in ("remove", "lay"):
            return [self._kind_score(h, a.kind, ctx, phase) for a in cast("Sequence[A.Remove | A.Lay]", legal)]
        if phase == "special":
            return [self._special_score(h, a.name, ctx) for a in cast("Sequence[A.TakeSpecial]", legal)]
        if phase == "swap":
            return [_around(h, a.row, a.col) for a in cast("Sequence[A.Swap]", legal)]
        return [0.0] * len(legal)

    def _place_score(self, h: Homeland, pend: Mapping[str, Any], a: A.Place | A.Start, ctx: Context,
                     any_order: bool) -> float:
        tile, viking = pend["tile"], pend["viking"]
        x = h.copy()
        if isinstance(a, A.Start):
            x.set(a.row, 1, START_TILE)
            x.start_pending = False
            if pend["placed"]:
                return home_value(x, ctx)
            return best_placement_value(x, tile, viking, ctx, any_order)
        on = KIND_ROW.get(viking) == a.row and not a.to_base
        x.set(a.row, a.col, tile + ("*" if on else ""))
        if not on:
            x.base[viking] += 1
        if x.start_pending:
            return max(home_value(_with_start(x, r), ctx) for r, _c in x.start_cells()) if x.start_cells() else \
                home_value(x, ctx)
        return home_value(x, ctx)

    def _sail_scores(self, view: Mapping[str, Any], legal: Sequence[Action], ctx: Context) -> list[float]:
        """Sailor trips (V-34): play each choice out greedily on a game rebuilt from the view."""
        seat = view["seat"]
        game = determinize(view, self.rng.fork())
        out = []
        for a in legal:
            g = VikingsGame.from_json(game.to_json())  # game.copy(), typed
            g.apply(seat, a)
            steps = 0
            while g.sailor_under_way(seat) and steps < 30:
                nxt = g.legal_actions(seat)
                vals = []
                for b in nxt:
                    g2 = VikingsGame.from_json(g.to_json())
                    g2.apply(seat, b)
                    vals.append(home_value(g2.homeland(seat), ctx))
                g.apply(seat, argmax(nxt, vals))
                steps += 1
            out.append(home_value(g.homeland(seat), ctx))
        return out

    def _bid_score(self, me: Mapping[str, Any], a: A.Bid | A.Pass, ctx: Context) -> float:
        """V-41: being start player is worth a few gold; bid only cheaply."""
        if isinstance(a, A.Pass):
            return 0.0
        worth = 3 if ctx.round < ROUNDS else 2
        return (worth - a.amount) * ctx.gold_now - (0.0 if a.amount <= me["gold"] else a.amount)

    def _kind_score(self, h: Homeland, kind: str, ctx: Context, phase: str) -> float:
        """V-42: remove the kind least useful to others … and lay first (dearest places) the least useful to me."""
        own = _kind_use(h, kind, ctx)
        return -own if phase == "lay" else -abs(own - 3.0)

    def _special_score(self, h: Homeland, name: str, ctx: Context) -> float:
        if name == "none":
            return 0.0
        if name == "gold5":
            return 5 * ctx.gold_now
        safe_g = h.vikings_on_islands("G")[0]
        if name in ("goldsmith1", "goldsmith2"):
            return SPECIAL_TILES[name]["gold"] * (safe_g + 1) * (ctx.small_left + ctx.major_left) * GOLD_LATER
        if name == "noble1":
            return (h.vikings_on_islands("N")[0] + 1) * ctx.major_left
        if name == "scout1":
            return (h.vikings_on_islands("S")[0] + 1) * ctx.major_left
        if name == "fisher1":
            return (h.vikings_on_islands("F")[0] + 1) * ctx.major_left
        if name == "sailor":
            return 4.0
        if name == "boat":
            return 2.0 if ctx.single_sailor and ctx.major_left else 0.1
        if name == "feast":
            return 2.0
        if name == "treasury":
            return 2.0
        if name in BUILDING_TILES:
            return 3.0
        return 0.5


def _with_start(h: Homeland, row: int) -> Homeland:
    x = h.copy()
    x.set(row, 1, START_TILE)
    x.start_pending = False
    return x


def _around(h: Homeland, row: int, col: int) -> float:
    """V-49 building tile: vikings on it and the 8 tiles around it."""
    return float(sum(1 for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                     if 1 <= row + dr <= 5 and col + dc >= 1 and h.has_viking(row + dr, col + dc)))


def _kind_use(h: Homeland, kind: str, ctx: Context) -> float:
    if kind == SAILOR:
        return 3.0
    room = sum(1 for t in h.rows[KIND_ROW[kind]] if t != EMPTY and not t.endswith("*"))
    base = {"G": 3 * GOLD_LATER * (ctx.small_left + ctx.major_left), "N": 2 * ctx.major_left,
            "S": 1.5 * ctx.major_left, "F": 2.0, "W": 1.5}[kind]
    return base + 0.5 * room


