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
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from engine.core import Action
from engine.vikings import actions as A
from engine.vikings.data import (
    BUILDING_TILES,
    ISLAND_ROWS,
    KIND_ROW,
    ROUNDS,
    ROW_KIND,
    SAILOR,
    SCORING,
    SCORING_AFTER,
    SHIP_DEPTH,
    SHIP_ROW,
    SHIPS,
    SPECIAL_TILES,
    START_TILE,
)
from engine.vikings.determinize import determinize, homeland_of  # noqa: F401 (determinize: re-exported for search, undo)
from engine.vikings.game import WHEEL, sail_actions, sail_move
from engine.vikings.homeland import EMPTY, Homeland, completed_islands, row_islands

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
        self.small_left, self.major_left = _LEFT[r]
        players = view["players"]
        n = len(players)
        # purchases this seat still makes after the current decision (food eaters to come)
        if view["phase"] in ("bid", "remove"):  # V-42: the round's 12 tiles are still face down
            wheel_left = WHEEL
        else:
            wheel = view["wheel"]
            wheel_left = len(wheel) - wheel.count(None)
        this_round = wheel_left // n
        self.buys_left = this_round + (ROUNDS - r) * (WHEEL // n)
        # the rivals' majorities, read straight from the view (no homeland rebuilt)
        sailors = islands = longest = 0
        for p in players:
            if p["seat"] == seat:
                continue
            specials = p["specials"]
            x = p["base"][SAILOR] + specials.count("sailor") if specials else p["base"][SAILOR]
            if x > sailors:
                sailors = x
            rows = p["rows"]
            seen = _RIVAL_ISLANDS.get(p["seat"])
            if seen is not None and seen[0] == rows:
                isl = seen[1]
            else:
                isl = completed_islands(rows)
                _RIVAL_ISLANDS[p["seat"]] = ([list(r) for r in rows], isl)
            if isl:
                islands = max(islands, len(isl))
                longest = max(longest, max(isl))
        self.opp_sailors = sailors
        self.opp_islands = islands
        self.opp_longest = longest
        self.gold_now = GOLD_NOW[r - 1]
        self.last_round = r == ROUNDS
        self.single_sailor = bool(view["options"].get("single_sailor"))


# the completed islands last computed for a rival's seat, with a copy of the rows they are of (a
# homeland changes once in several decisions; the rows are compared, so any game may use it)
_RIVAL_ISLANDS: dict[int, tuple[list[list[str]], list[int]]] = {}

# the small and major scorings left from each round on (by round, 1-based)
_LEFT = {r: (SCORING_AFTER[r - 1:].count("small"), SCORING_AFTER[r - 1:].count("major")) for r in range(1, ROUNDS + 1)}


def _home(p: Mapping[str, Any]) -> Homeland:
    return homeland_of(p)


def _reader(p: Mapping[str, Any]) -> Homeland:
    """The homeland of a view's player over the view's own rows, base and specials, for reading
    only (``choose`` and ``score_actions`` change none: they copy, or make variants)."""
    return Homeland.over(p["rows"], p["base"], p["specials"], p["start_tile_pending"])


def _majority(mine: int, best_other: int, prize: float, sharp: bool) -> float:
    """Expected share of a majority prize (V-37.3–5) from the current lead."""
    if mine <= 0:
        return 0.0
    key = (mine - best_other, prize, sharp)
    share = _MAJORITY.get(key)
    if share is None:
        d = mine - best_other
        slope = 3.0 if sharp else 1.2
        share = _MAJORITY[key] = prize / (1.0 + math.exp(-slope * d - 0.4))
    return share


_MAJORITY: dict[tuple[int, float, bool], float] = {}  # _majority by (lead, prize, sharp): a few dozen keys

# --------------------------------------------------------------------------- valuation

# per sail (V-30, V-31, V-33.1, V-37.1): the deepest threatened row, the amount, whether it pays gold
_SHIP = {sail: (SHIP_DEPTH[sail], v["amount"], v["reward"] == "gold") for sail, v in SHIPS.items()}
_W, _N, _S, _G, _F = (KIND_ROW[k] for k in "WNSGF")
_WIDTH = 80  # more columns than any homeland can have (76 tiles in all, V-2)
_NO_THREAT = [0] * _WIDTH
_FEEDS = SCORING["fisher_feeds"]
_SURPLUS = SCORING["food_surplus_vp"]
_FEAST_SURPLUS = SPECIAL_TILES["feast"]["surplus_vp"]
_SHORTFALL = SCORING["food_shortfall_vp"]
_SAILOR_VP = SCORING["sailor_majority_vp"]
_ISLANDS_VP = SCORING["islands_majority_vp"]
_LONGEST_VP = SCORING["longest_island_vp"]


def home_value(h: Homeland, ctx: Context) -> float:
    """VP the homeland will still bring (not counting the purse), as a sensible player guesses it.

    Issue 30: one pass over the rows with the threat zone as a depth per column; the terms are
    the same and are added to ``v`` in the same order as before, so the value is the same float."""
    rows = h.rows
    base = h.base
    specials = h.specials
    small, major = ctx.small_left, ctx.major_left
    last_round = ctx.last_round
    keep = THREAT_LEFT if not last_round else 0.0
    ships_row = rows[SHIP_ROW]
    wrow, nrow, srow, grow, frow = rows[_W], rows[_N], rows[_S], rows[_G], rows[_F]
    nw, nship, ng, nf = len(wrow), len(ships_row), len(grow), len(frow)
    # V-31: an undefended ship threatens its column down to its sail's depth (V-30: a warrior defends)
    depth = _NO_THREAT  # the deepest threatened row by column index (0: none); shared while no threat
    for i in range(nship):
        tok = ships_row[i]
        if tok != EMPTY and not (i < nw and wrow[i][-1] == "*"):
            if depth is _NO_THREAT:
                depth = [0] * _WIDTH
            depth[i] = _SHIP[tok[1]][0]
    if specials:
        gold_bonus = 3 + specials.count("goldsmith1") + 2 * specials.count("goldsmith2")
        noble1 = specials.count("noble1")
        scout1 = specials.count("scout1")
    else:
        gold_bonus, noble1, scout1 = 3, 0, 0
    v = 0.0
    g_yield = gold_bonus * (small + major) * GOLD_LATER
    noble_yield = (2 + noble1) * major
    fishers = 0
    eaters = sum(base.values())
    room_w = room_n = room_s = room_g = room_f = 0  # empty tiles by row: room for a sailor (V-34)
    # row W: warriors guard the column against a ship still to come
    for i in range(nw):
        tok = wrow[i]
        if tok[-1] != "*":
            if tok != EMPTY:
                v += 0.15  # an empty tile: a sailor may still fill it
                room_w += 1
            continue
        if tok[0] != "X":
            eaters += 1
        if i >= nship or ships_row[i] == EMPTY:
            v += 0.3 * major  # a ship may still come over it
    # row N: nobles
    for i, tok in enumerate(nrow):
        if tok[-1] != "*":
            if tok != EMPTY:
                v += 0.15
                room_n += 1
            continue
        if tok[0] != "X":
            eaters += 1
        v += (keep if depth[i] >= _N else 1.0) * noble_yield
    # row S: scouts, with the goldsmith and fisher below them
    for i, tok in enumerate(srow):
        if tok[-1] != "*":
            if tok != EMPTY:
                v += 0.15
                room_s += 1
            continue
        if tok[0] != "X":
            eaters += 1
        per = 1 + (1 if i < ng and grow[i][-1] == "*" else 0) + (1 if i < nf and frow[i][-1] == "*" else 0)
        v += (keep if depth[i] >= _S else 1.0) * major * (per + scout1)
    # row G: goldsmiths
    for i, tok in enumerate(grow):
        if tok[-1] != "*":
            if tok != EMPTY:
                v += 0.15
                room_g += 1
            continue
        if tok[0] != "X":
            eaters += 1
        v += (keep if depth[i] >= _G else 1.0) * g_yield
    # row F: fishers feed (V-37.6)
    for i, tok in enumerate(frow):
        if tok[-1] != "*":
            if tok != EMPTY:
                v += 0.15
                room_f += 1
            continue
        if tok[0] != "X":
            eaters += 1
            if depth[i] < _F:
                fishers += 1
    # ships (V-30, V-33.1, V-37.1)
    for i in range(nship):
        tok = ships_row[i]
        if tok == EMPTY:
            continue
        _depth, amount, gold = _SHIP[tok[1]]
        if i < nw and wrow[i][-1] == "*":  # defended
            v += amount * major * (GOLD_LATER if gold else 1.0)
        else:
            v -= amount * (0.2 if gold else 1.0)
    # food (V-37.6), counting the vikings this seat will still buy
    eat = eaters + ctx.buys_left
    fed = fishers * _FEEDS
    surplus = _FEAST_SURPLUS if "feast" in specials else _SURPLUS
    v += (fed - eat) * surplus if fed >= eat else -(eat - fed) * _SHORTFALL
    # base vikings may still sail onto an empty tile of their row (V-34)
    sailors = base[SAILOR]
    if major and sailors:  # by kind in the V-11 order: F G S N W, what one more on a tile is worth
        waiting = base["F"]
        if waiting:
            v += 0.6 * min(room_f, waiting) * 0.0
        waiting = base["G"]
        if waiting:
            v += 0.6 * min(room_g, waiting) * g_yield
        waiting = base["S"]
        if waiting:
            v += 0.6 * min(room_s, waiting) * (major * (1.5 + scout1))
        waiting = base["N"]
        if waiting:
            v += 0.6 * min(room_n, waiting) * noble_yield
        waiting = base["W"]
        if waiting:
            v += 0.6 * min(room_w, waiting) * (0.3 * major)
    # majorities of the final scoring (V-37.3–5)
    v += _majority(sailors + specials.count("sailor") if specials else sailors, ctx.opp_sailors, _SAILOR_VP,
                   last_round)
    isl = completed_islands(rows)
    if isl:
        v += _majority(len(isl), ctx.opp_islands, _ISLANDS_VP, last_round)
        v += _majority(max(isl), ctx.opp_longest, _LONGEST_VP, last_round)
        v += 0.8 * len(isl)
    else:  # nothing to share: the same additions of 0.0
        v += 0.0
        v += 0.0
        v += 0.0
    if not last_round:  # open islands (L, M … with room on the right) may still be completed
        for row in ISLAND_ROWS:
            r = rows[row]
            if r and r[-1][0] in "LMX":
                v += 0.6
    return v


def purse_value(gold: int, vp: int, ctx: Context) -> float:
    return vp + gold * ctx.gold_now


def _placements(h: Homeland, tile: str, viking: str, ships_any_order: bool) -> list[Homeland]:
    """Every homeland the bought tile and viking can lead to (start tile included, V-23 … V-27),
    for reading only (they share unchanged parts with ``h`` and each other: ``Homeland.variant``)."""
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
    on_tile = tile + "*"
    for s in starts:
        cells = s.cells_for(tile, ships_any_order)
        based = dict(s.base)  # the viking in the base (V-27), shared by those placements (read only)
        based[viking] += 1
        if not cells:  # V-23: fits nowhere, viking to the base
            out.append(s.variant(0, 0, "", based))
            continue
        for r, c in cells:
            if r == vrow:
                out.append(s.variant(r, c, on_tile))
            else:
                out.append(s.variant(r, c, tile, based))
    return out


def best_placement_value(h: Homeland, tile: str, viking: str, ctx: Context, ships_any_order: bool) -> float:
    return max(home_value(x, ctx) for x in _placements(h, tile, viking, ships_any_order))


def price_cost(price: int, gold: int, ctx: Context) -> float:
    """V-13, V-16: gold first, the shortfall in VP 1 : 1."""
    from_gold = min(price, gold)
    return from_gold * ctx.gold_now + (price - from_gold)


# --------------------------------------------------------------------------- cheap values for choose

# How far _Frame's values may lie from home_value's: both add the same terms, in another order, so
# they differ by float rounding only (under 1e-12 for values of a few hundred VP); an action is taken
# on them only when every other one is more than this below it (see VikingsHeuristic.choose).
_TOL = 1e-6


class _Frame:
    """``home_value``'s terms of one homeland ``h`` split into those of each column and the rest, to
    value cheaply the homelands that differ from it in a few cells and the base (a placement, a
    sailor's trip) for :meth:`VikingsHeuristic.choose` (issue 30).

    A column's terms (its tiles' yields and empty tiles, its threat, its ship) depend on that
    column's six cells only; the others (food, sailing, the majorities, open islands) on counts
    kept here. :meth:`placed` and :meth:`sailed` add up the terms of the changed columns (less
    what ``h`` had there) and all the others: home_value less a constant of the frame (``h``'s
    unchanged columns), up to float rounding as the terms are added in another order (``_TOL``).
    Only for comparing candidates on one homeland, never as a score."""

    __slots__ = ("rows", "cols", "fish", "eaters", "rooms", "isl", "isl_n", "longest", "open", "n_open",
                 "w_guard", "ship_def", "ship_open", "yn", "yn_hit", "ys", "g_yield", "yg_hit", "keep", "scout1",
                 "sail_y", "specials_sailors", "surplus", "major", "buys_left", "open_v", "opp_sailors",
                 "opp_islands", "opp_longest", "sharp", "isl_v", "here", "base", "plus", "h", "depth",
                 "ctxkey", "isl_memo", "gains", "const")

    def __init__(self, h: Homeland, ctx: Context) -> None:
        rows = self.rows = h.rows
        major = ctx.major_left
        last_round = ctx.last_round
        key = (major, ctx.small_left, last_round, *h.specials)
        consts = _FRAME_CONSTS.get(key)
        if consts is None:
            consts = _FRAME_CONSTS[key] = _frame_consts(major, ctx.small_left, last_round, h.specials)
        (self.keep, self.scout1, self.g_yield, self.yn, self.yn_hit, self.ys, self.yg_hit, self.w_guard,
         self.ship_def, self.ship_open, self.sail_y, self.specials_sailors, self.surplus, self.open_v) = consts
        self.major = major
        self.sharp = last_round
        self.buys_left = ctx.buys_left
        self.ctxkey = _ctx_key(ctx)
        self.opp_sailors, self.opp_islands, self.opp_longest = ctx.opp_sailors, ctx.opp_islands, ctx.opp_longest
        self.cols: dict[int, tuple[float, int]] = {}  # h's column terms by column index, as asked for
        self.here: tuple[Mapping[str, int], int, float, list[float]] | None = None
        self.base = h.base
        self.plus: dict[str, tuple[Mapping[str, int], int, float, list[float]]] = {}
        self.h = h
        eaters = n_open = 0
        rooms = [0] * 6
        isl = [_NO_ISLANDS] * 6
        opened = [False] * 6
        for row in ISLAND_ROWS:
            r = rows[row]
            if not r:
                continue
            n = 0
            for tok in r:
                if tok[-1] == "*":
                    if tok[0] != "X":
                        eaters += 1
                elif tok != EMPTY:
                    n += 1
            rooms[row] = n
            if r[-1][0] in "LMX":
                opened[row] = True
                n_open += 1
            if "R" in r or "R*" in r:
                isl[row] = row_islands(r)
        self.eaters = eaters
        self.rooms = rooms
        self.open = opened
        self.n_open = n_open
        ships, wrow = rows[SHIP_ROW], rows[_W]
        nship, nw = len(ships), len(wrow)
        # V-31: the deepest threatened row by column (0: none), as in home_value
        self.depth = [_SHIP[tok[1]][0] if tok != EMPTY and not (i < nw and wrow[i][-1] == "*") else 0
                      for i, tok in enumerate(ships)]
        fish = 0
        for i, tok in enumerate(rows[_F]):
            if tok[-1] == "*" and tok[0] != "X":
                ship = ships[i] if i < nship else EMPTY
                if ship == EMPTY or (i < nw and wrow[i][-1] == "*") or _SHIP[ship[1]][0] < _F:
                    fish += 1
        self.fish = fish
        self.isl = isl
        n = longest = 0
        for x in isl:
            if x:
                n += len(x)
                longest = max(longest, max(x))
        self.isl_n, self.longest = n, longest
        self.isl_memo: dict[tuple[int, int], float] = {}
        self.gains: dict[tuple[int, int, str], float] = {}
        self.const: float | None = None
        self.isl_v = self._islands(isl) if n else 0.0

    def rebuy(self, buys_left: int) -> None:
        """The same frame with ``buys_left`` purchases to come (food eaters: :meth:`based`'s only
        use of them), as after a purchase of the homeland's owner."""
        if buys_left != self.buys_left:
            self.buys_left = buys_left
            self.here = None
            self.plus = {}

    def cells_for(self, tile: str, ships_any_order: bool) -> list[tuple[int, int]]:
        """Where ``tile`` may go on the frame's homeland (V-21 … V-23): ``h.cells_for``, which
        remembers each edge class's cells."""
        return self.h.cells_for(tile, ships_any_order)

    def constant(self) -> float:
        """The frame's constant: its homeland's column terms (then ``placed`` + this is about home_value)."""
        if self.const is not None:
            return self.const
        rows = self.rows
        cols = self.cols
        v = 0.0
        for i in range(max(len(r) for r in rows)):
            old = cols.get(i)
            if old is None:
                old = cols[i] = _column(self, *_tokens(rows, i))
            v += old[0]
        self.const = v
        return v

    def _delta(self, row: int, col: int, token: str) -> tuple[float, int]:
        """What the terms and fed fishers of column ``col`` gain with ``token`` at (row, col)."""
        i = col - 1
        if row > _W and token[-1] == "*":  # a viking on an N, S, G or F tile: the column's threat stays
            rows = self.rows
            depth = self.depth[i] if i < len(self.depth) else 0
            if row == _N:
                return (self.yn_hit if depth >= _N else self.yn), 0
            s = rows[_S]
            if row == _S:
                g, f = rows[_G], rows[_F]
                per = 1 + (1 if i < len(g) and g[i][-1] == "*" else 0) + (1 if i < len(f) and f[i][-1] == "*" else 0)
                return (self.keep if depth >= _S else 1.0) * self.ys * (per + self.scout1), 0
            # a goldsmith or fisher below a scout: one more for the scout (V-37.1)
            dv = (self.keep if depth >= _S else 1.0) * self.ys if i < len(s) and s[i][-1] == "*" else 0.0
            if row == _G:
                return dv + (self.yg_hit if depth >= _G else self.g_yield), 0
            return dv, (1 if token[0] != "X" and depth < _F else 0)
        t = _tokens(self.rows, i)
        old = self.cols.get(i)
        if old is None:
            old = self.cols[i] = _column(self, *t)
        t[row] = token
        nv, nf = _column(self, *t)
        return nv - old[0], nf - old[1]

    def based(self, base: Mapping[str, int]) -> tuple[Mapping[str, int], int, float, list[float]]:
        """What :meth:`placed` needs of a base: the base, its eaters with the purchases to come, its
        sailor majority and sailing with the frame's empty tiles, and what one more empty tile in a
        row adds to sailing (by row; nothing without a sailor in the base or a major scoring left)."""
        sailors = base[SAILOR]
        fixed = _majority(sailors + self.specials_sailors, self.opp_sailors, _SAILOR_VP, self.sharp)
        y = _NO_SAILING
        if sailors and self.major:
            y = self.sail_y
            fixed += self._sailing(base, self.rooms)
        return base, sum(base.values()) + self.buys_left, fixed, y

    def _sailing(self, base: Mapping[str, int], rooms: list[int]) -> float:
        """What the vikings waiting in ``base`` may still sail to (V-34): per island row, as many
        as it has empty tiles (``rooms``), each worth the row's yield (asked with a sailor in the
        base and a major scoring left)."""
        y = self.sail_y
        v = 0.0
        for row in (_G, _S, _N, _W):
            waiting = base[ROW_KIND[row]]
            if waiting:
                v += min(rooms[row], waiting) * y[row]
        return v

    def based_here(self) -> tuple[Mapping[str, int], int, float, list[float]]:
        """:meth:`based` of the homeland's own base (a viking on its tile), once per frame."""
        b = self.here
        if b is None:
            b = self.here = self.based(self.base)
        return b

    def based_plus(self, viking: str) -> tuple[Mapping[str, int], int, float, list[float]]:
        """:meth:`based` of the homeland's base with one more ``viking`` (V-27), once per kind."""
        b = self.plus.get(viking)
        if b is None:
            base = dict(self.base)
            base[viking] += 1
            if viking == SAILOR:  # the sailor majority, and sailing may start
                b = self.based(base)
            else:  # from based_here: one more eater, and sailing's term of the viking's row
                _base, eat, fixed, y = self.based_here()
                row = KIND_ROW[viking]
                b = (base, eat + 1, fixed + y[row] if base[viking] <= self.rooms[row] else fixed, y)
            self.plus[viking] = b
        return b

    def placed(self, row: int, col: int, token: str, b: tuple[Mapping[str, int], int, float, list[float]]) -> float:
        """``home_value(h.variant(row, col, token, base))`` less the frame's constant, ``b`` =
        :meth:`based` of ``base`` (``row`` 0 or ``col`` 0: no cell changes; else (row, col) is an
        empty cell)."""
        base, eat, v, y = b
        eat += self.eaters
        fish = self.fish
        if not col:
            row = 0
        elif row and token[-1] != "*":  # a tile with no viking: +0.15, nothing else in its column changes
            v += 0.15
            if base[ROW_KIND[row]] > self.rooms[row]:  # room for one more sailing viking of the row
                v += y[row]
        else:
            dv, df = self._delta(row, col, token)
            v += dv
            fish += df
            if row and token[0] != "X":
                eat += 1
        fed = fish * _FEEDS
        v += (fed - eat) * self.surplus if fed >= eat else -(eat - fed) * _SHORTFALL
        if row:
            t = token[0]
            return v + self._gain(row, col, t if t in "LR" else "M")
        return v + self.isl_v + self.n_open * self.open_v

    def _gain(self, row: int, col: int, cls: str) -> float:
        """The island and open-island terms with an island tile of edge class ``cls`` (L, R, or M
        for M and X: home_value reads them alike) at the empty cell (row, col); remembered."""
        key = (row, col, cls)
        g = self.gains.get(key)
        if g is None:
            r = self.rows[row]
            n = len(r)
            n_open = self.n_open
            if col >= n:  # the row's last tile: open islands (L, M, X)
                n_open += (cls != "R") - self.open[row]
            i = col - 1
            isl_v = self.isl_v
            if (cls == "L" or (0 < i <= n and r[i - 1] != EMPTY)) and (cls == "R" or (i + 1 < n and r[i + 1] != EMPTY)):
                # a new island may close through this cell (V-25; the row's islands stay as they are)
                r = list(r)
                while len(r) < col:
                    r.append(EMPTY)
                r[i] = cls
                new = row_islands(r)
                if new != self.isl[row]:
                    isl = list(self.isl)
                    isl[row] = new
                    isl_v = self._islands(isl)
            g = self.gains[key] = isl_v + n_open * self.open_v
        return g

    def best(self, cells: Sequence[tuple[int, int]], tile: str, vrow: int | None,
             b: tuple[Mapping[str, int], int, float, list[float]],
             b_here: tuple[Mapping[str, int], int, float, list[float]]) -> float:
        """The best :meth:`placed` of ``tile`` and its viking over ``cells`` (V-26: on the tile in
        the viking's row ``vrow``, base ``b_here``; elsewhere to the base, ``b``). A tile with no
        viking changes nothing in its column but +0.15: those cells are valued here at once."""
        base, eat, fixed, y = b
        eat += self.eaters
        fed = self.fish * _FEEDS
        fixed += ((fed - eat) * self.surplus if fed >= eat else -(eat - fed) * _SHORTFALL) + 0.15
        rooms = self.rooms
        gain = self._gain
        cls = tile[0] if tile[0] in "LR" else "M"
        best = -math.inf
        for row, col in cells:
            if row == vrow or not row:
                v = self.placed(row, col, tile + "*" if row else tile, b_here if row else b)
            else:
                v = fixed + gain(row, col, cls)
                if base[ROW_KIND[row]] > rooms[row]:  # room for one more sailing viking of the row
                    v += y[row]
            if v > best:
                best = v
        return best

    def _islands(self, isl: list[list[int]]) -> float:
        """The island terms (majorities and 0.8 an island) of the islands ``isl`` by row."""
        n = longest = 0
        for x in isl:
            if x:
                n += len(x)
                longest = max(longest, max(x))
        if not n:
            return 0.0
        v = self.isl_memo.get((n, longest))
        if v is None:
            sharp = self.sharp
            v = self.isl_memo[n, longest] = (_majority(n, self.opp_islands, _ISLANDS_VP, sharp)
                                             + _majority(longest, self.opp_longest, _LONGEST_VP, sharp)) + 0.8 * n
        return v

    def _rest(self, eaters: int, fishers: int, rooms: list[int], base: Mapping[str, int]) -> float:
        """home_value's terms outside the columns with the frame's tiles (a trip's homeland): food,
        sailing, the sailor majority, and the frame's islands and open islands."""
        eat = eaters + sum(base.values()) + self.buys_left
        fed = fishers * _FEEDS
        v = (fed - eat) * self.surplus if fed >= eat else -(eat - fed) * _SHORTFALL
        sailors = base[SAILOR]
        if sailors and self.major:
            v += self._sailing(base, rooms)
        return v + _majority(sailors + self.specials_sailors, self.opp_sailors, _SAILOR_VP, self.sharp) + (
            self.isl_v + self.n_open * self.open_v)


class _Sailing:
    """A sailor's trip under way on a :class:`_Frame` (V-34): the vikings moved so far onto empty
    tiles of the frame's homeland, each changed column's terms kept, so that valuing one more step
    redoes one column (no tile changes on a trip, so neither do the islands)."""

    __slots__ = ("fr", "v", "fish", "eaters", "rooms", "toks", "colv")

    def __init__(self, fr: _Frame) -> None:
        self.fr = fr
        self.v = 0.0
        self.fish = fr.fish
        self.eaters = fr.eaters
        self.rooms = list(fr.rooms)
        self.toks: dict[int, list[str]] = {}  # the changed columns' cells, by column index
        self.colv: dict[int, tuple[float, int]] = {}  # and their terms

    def _step(self, row: int, col: int) -> tuple[int, list[str], float, int, float, int]:
        fr = self.fr
        i = col - 1
        t = self.toks.get(i)
        if t is None:
            t = _tokens(fr.rows, i)
            old = fr.cols.get(i)
            if old is None:
                old = fr.cols[i] = _column(fr, *t)
            t = list(t)
        else:
            old = self.colv[i]
            t = list(t)
        t[row] += "*"
        nv, nf = _column(fr, *t)
        return i, t, nv - old[0], nf - old[1], nv, nf

    def value(self, base: Mapping[str, int], row: int = 0, col: int = 0) -> float:
        """The trip's homeland with ``base`` (and one more viking put at (row, col), if ``col``),
        less the frame's constant."""
        fr = self.fr
        v, fish, eaters, rooms = self.v, self.fish, self.eaters, self.rooms
        if col:
            _i, t, dv, df, _nv, _nf = self._step(row, col)
            v += dv
            fish += df
            if t[row][0] != "X":
                eaters += 1
            rooms = list(rooms)
            rooms[row] -= 1
        return v + fr._rest(eaters, fish, rooms, base)

    def add(self, row: int, col: int) -> None:
        """The trip puts a viking on the empty tile (row, col)."""
        i, t, dv, df, nv, nf = self._step(row, col)
        self.toks[i] = t
        self.colv[i] = (nv, nf)
        self.v += dv
        self.fish += df
        if t[row][0] != "X":
            self.eaters += 1
        self.rooms[row] -= 1


def _ctx_key(ctx: Context) -> tuple[Any, ...]:
    """What a frame reads of a context besides the purchases to come (``_Frame.rebuy``)."""
    return (ctx.major_left, ctx.small_left, ctx.last_round, ctx.opp_sailors, ctx.opp_islands, ctx.opp_longest)


def _frame_consts(major: int, small: int, last_round: bool, specials: list[str]) -> tuple[Any, ...]:
    """What a :class:`_Frame` reads of the scorings left and the special tiles (home_value's factors)."""
    keep = THREAT_LEFT if not last_round else 0.0
    gold_bonus = 3 + specials.count("goldsmith1") + 2 * specials.count("goldsmith2")
    scout1 = specials.count("scout1")
    g_yield = gold_bonus * (small + major) * GOLD_LATER
    noble_yield = (2 + specials.count("noble1")) * major
    ship_def = {s: amount * major * (GOLD_LATER if gold else 1.0) for s, (_d, amount, gold) in _SHIP.items()}
    ship_open = {s: (d, -amount * (0.2 if gold else 1.0)) for s, (d, amount, gold) in _SHIP.items()}
    sail_y = [0.0, 0.6 * (0.3 * major), 0.6 * noble_yield, 0.6 * (major * (1.5 + scout1)), 0.6 * g_yield, 0.0]
    return (keep, scout1, g_yield, noble_yield, keep * noble_yield, major, keep * g_yield, 0.3 * major, ship_def,
            ship_open, sail_y, specials.count("sailor"), _FEAST_SURPLUS if "feast" in specials else _SURPLUS,
            0.0 if last_round else 0.6)


_FRAME_CONSTS: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # by (major, small, last round, *specials): a few dozen
_NO_ISLANDS: list[int] = []
_NO_SAILING = [0.0] * 6


def _sailed(h: Homeland, trip: dict[str, Any] | None, a: Action, single: bool,
            st: _Sailing | None = None) -> dict[str, Any] | None:
    """The trip after ``a`` (``None``: it is over): a ``Sail`` moves its viking on ``h`` (and into
    ``st``'s columns); sail done / sail end stop the sailor under way, nothing moves (V-34)."""
    if type(a) is not A.Sail:
        return None
    trip, ends = sail_move(h, trip, a, single)
    if st is not None:
        st.add(a.row, a.col)
    return None if ends else trip


def _step_value(h: Homeland, b: Action, ctx: Context) -> float:
    """home_value after the trip's next step ``b`` (V-34): a ``Sail`` as ``sail_move`` on a copy
    would leave it (a trip under way: the viking leaves the base for its tile, no new sailor);
    sail done / sail end: the homeland as it is."""
    if type(b) is not A.Sail:
        return home_value(h, ctx)
    base = dict(h.base)
    base[ROW_KIND[b.row]] -= 1
    return home_value(h.variant(b.row, b.col, h.rows[b.row][b.col - 1] + "*", base), ctx)


def _settle(approx: Sequence[float], exact: Callable[[int], float]) -> int:
    """The index ``choose`` takes from the frames' values ``approx``: the only one within ``_TOL``
    of their best, else the first of the best ``exact`` values (``score_actions``' own) among those
    within it — the first of the best of ``score_actions`` either way (see
    :meth:`VikingsHeuristic.choose`)."""
    top = max(approx) - _TOL
    near = [i for i, x in enumerate(approx) if x >= top]
    if len(near) == 1:
        return near[0]
    best_i, best = -1, 0.0
    for i in near:
        val = exact(i)
        if best_i < 0 or val > best:
            best_i, best = i, val
    return best_i


def _tokens(rows: list[list[str]], i: int) -> list[str]:
    """The six cells of column index ``i`` (``EMPTY`` beyond a row's end)."""
    return [r[i] if i < len(r) else EMPTY for r in rows]


def _column(fr: _Frame, ship: str, w: str, n: str, s: str, g: str, f: str) -> tuple[float, int]:
    """home_value's terms of one column (its threat, ship, tiles and vikings) and its fed fishers."""
    if w[-1] == "*":  # V-30: a warrior defends the ship above (or guards against one to come)
        v = fr.w_guard if ship == EMPTY else fr.ship_def[ship[1]]
        d = 0
    else:
        v = 0.15 if w != EMPTY else 0.0
        if ship == EMPTY:
            d = 0
        else:
            d, sv = fr.ship_open[ship[1]]
            v += sv
    if n[-1] == "*":
        v += fr.yn_hit if d >= _N else fr.yn
    elif n != EMPTY:
        v += 0.15
    if s[-1] == "*":
        per = 1 + (1 if g[-1] == "*" else 0) + (1 if f[-1] == "*" else 0)
        v += (fr.keep if d >= _S else 1.0) * fr.ys * (per + fr.scout1)
    elif s != EMPTY:
        v += 0.15
    if g[-1] == "*":
        v += fr.yg_hit if d >= _G else fr.g_yield
    elif g != EMPTY:
        v += 0.15
    fish = 0
    if f[-1] == "*":
        if f[0] != "X" and d < _F:
            fish = 1
    elif f != EMPTY:
        v += 0.15
    return v, fish


# --------------------------------------------------------------------------- the heuristic player


class VikingsHeuristic(Player):
    level = "heuristic"
    game_id = "vikings"
    # the last purchase decision's homeland (a copy) and frames (by start row; 0: no start tile
    # pending), for the placement that follows (checked there: _kept_frames)
    _kept: tuple[Homeland, dict[int, _Frame]] | None = None

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """``argmax(legal, score_actions(view, legal))``, the same action (the first of the best).

        Issue 30: for a purchase, a placement and each step of a sailor's trip every candidate is
        first valued by a :class:`_Frame` of the homeland (home_value's terms by column: a few
        columns redone per candidate instead of a whole pass); only those within ``_TOL`` of the
        best of those values — usually one, then none — get their exact ``score_actions`` value,
        and the first of the best of these is taken. Any other is more than ``_TOL`` - 2 × the
        rounding below one of them, so it could not have been chosen
        (``tests/engine/test_vikings_choose.py``). The placement reuses the frames of the
        purchase before it when nothing they read has changed (``_kept_frames``)."""
        if len(legal) == 1:
            return legal[0]
        phase = view["phase"]
        if phase == "buy":
            return self._choose_buy(view, legal)
        if phase == "place":
            return self._choose_place(view, legal)
        if phase == "sail":
            return self._choose_sail(view, legal)
        scores = self.score_actions(view, legal)
        return argmax(list(legal), scores)

    def _choose_buy(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        seat = view["seat"]
        me = view["players"][seat]
        ctx = Context(view, seat)
        any_order = view["options"]["ships_any_order"]
        h = _reader(me).copy()  # its own copy: the frames are kept for the placement (_kept_frames)
        if h.start_pending:  # the start tile first (V-24): one frame per start cell, whole values
            by_row = {r: _Frame(_with_start(h, r), ctx) for r, _c in h.start_cells()}
            frames = list(by_row.values())
            consts = [fr.constant() for fr in frames]
        else:
            by_row = {0: _Frame(h, ctx)}
            frames = [by_row[0]]
            consts = [0.0]
        self._kept = (h, by_row)
        wheel = view["wheel"]
        gold = me["gold"]
        gold_now = ctx.gold_now
        # by combo: about its best placement's value; island tiles of one letter are valued alike
        # (home_value reads an island tile's letter only: its edges, islands, a building's X)
        approx: dict[tuple[str, str], float] = {}
        scores = []
        for a in cast("Sequence[A.Buy]", legal):
            combo = wheel[a.pos]
            tile, viking = combo["tile"], combo["viking"]
            key = (tile if tile[0] == "^" else tile[0], viking)
            val = approx.get(key)
            if val is None:
                vrow = KIND_ROW.get(viking)
                val = -math.inf
                for fr, k in zip(frames, consts, strict=True):
                    b = fr.based_plus(viking)
                    cells = fr.cells_for(tile, any_order)
                    if not cells:
                        x = fr.placed(0, 0, "", b) + k
                        if x > val:
                            val = x
                        continue
                    x = fr.best(cells, tile, vrow, b, fr.based_here() if vrow is not None else b) + k
                    if x > val:
                        val = x
                approx[key] = val
            from_gold = min(a.pos, gold)  # price_cost (V-13, V-16)
            scores.append(val - (from_gold * gold_now + (a.pos - from_gold)))
        exact: dict[tuple[str, str], float] = {}

        def buy_value(i: int) -> float:
            a = cast("A.Buy", legal[i])
            combo = wheel[a.pos]
            key = (combo["tile"], combo["viking"])
            val = exact.get(key)
            if val is None:
                val = exact[key] = best_placement_value(h, key[0], key[1], ctx, any_order)
            return val - price_cost(a.pos, gold, ctx)

        return legal[_settle(scores, buy_value)]

    def _choose_sail(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """``_sail_scores``' trips, each step of them and the trip chosen taken on the frame's values
        of the seat's homeland (exact values only near the best, as in :meth:`choose`)."""
        seat = view["seat"]
        ctx = Context(view, seat)
        self.rng.fork()  # as _sail_scores
        home = _reader(view["players"][seat])
        fr = _Frame(home, ctx)
        trip0 = view["trip"]
        single = bool(view["options"].get("single_sailor"))
        last = view["round"] == ROUNDS
        finals = []
        scores = []
        for a in legal:
            h = home.copy()
            trip = _trip_copy(trip0)
            st = _Sailing(fr)  # the trip's vikings so far
            trip = _sailed(h, trip, a, single, st)
            steps = 0
            while trip is not None and steps < 30:
                nxt = sail_actions(h, trip, single, last)
                if len(nxt) == 1:
                    b = nxt[0]
                else:
                    vals = []
                    here = None
                    for b in nxt:
                        if type(b) is A.Sail:
                            base = dict(h.base)
                            base[ROW_KIND[b.row]] -= 1
                            vals.append(st.value(base, b.row, b.col))
                        else:
                            if here is None:
                                here = st.value(h.base)
                            vals.append(here)
                    b = nxt[_settle(vals, lambda i: _step_value(h, nxt[i], ctx))]  # noqa: B023 (called here)
                trip = _sailed(h, trip, b, single, st)
                steps += 1
            finals.append(h)
            scores.append(st.value(h.base))
        return legal[_settle(scores, lambda i: home_value(finals[i], ctx))]

    def _choose_place(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        seat = view["seat"]
        me = view["players"][seat]
        h = _reader(me)
        ctx = Context(view, seat)
        pend = view["pending"]
        tile, viking = pend["tile"], pend["viking"]
        vrow = KIND_ROW.get(viking)
        on_tile = tile + "*"
        any_order = view["options"]["ships_any_order"]
        kept = self._kept_frames(h, ctx)
        if h.start_pending:
            scores = self._start_place_values(h, pend, legal, ctx, any_order, kept)
        else:
            fr = kept[0] if kept else _Frame(h, ctx)
            b_here, b_based = fr.based_here(), fr.based_plus(viking)
            scores = [fr.placed(a.row, a.col, on_tile, b_here) if a.row == vrow and not a.to_base
                      else fr.placed(a.row, a.col, tile, b_based) for a in cast("Sequence[A.Place]", legal)]
        return legal[_settle(scores, lambda i: self._place_score(h, pend, cast("A.Place | A.Start", legal[i]), ctx,
                                                                 any_order))]

    def _kept_frames(self, h: Homeland, ctx: Context) -> dict[int, _Frame] | None:
        """The frames the purchase decision kept, if they are of this homeland and context: after
        one's own purchase nothing but the purchases to come can have changed (``_Frame.rebuy``)."""
        kept, self._kept = self._kept, None
        if kept is None:
            return None
        home, frames = kept
        if (home.rows != h.rows or home.base != h.base or home.specials != h.specials
                or home.start_pending != h.start_pending):
            return None
        key = _ctx_key(ctx)
        for fr in frames.values():
            if fr.ctxkey != key:
                return None
            fr.rebuy(ctx.buys_left)
        return frames

    def _start_place_values(self, h: Homeland, pend: Mapping[str, Any], legal: Sequence[Action], ctx: Context,
                            any_order: bool, kept: dict[int, _Frame] | None = None) -> list[float]:
        """About ``_place_score`` of each action while the start tile is pending (V-24), from one
        frame per start cell (with its constant, so that frames compare; ``kept``: those of the
        purchase) and one of ``h``."""
        tile, viking = pend["tile"], pend["viking"]
        vrow = KIND_ROW.get(viking)
        on_tile = tile + "*"
        frames = kept if kept else {r: _Frame(_with_start(h, r), ctx) for r, _c in h.start_cells()}
        consts = {r: fr.constant() for r, fr in frames.items()}
        plain: _Frame | None = None  # h's own frame: a placement that leaves no start cell
        based = dict(h.base)
        based[viking] += 1
        out = []
        for a in legal:
            if type(a) is A.Start:
                fr = frames[a.row]
                if pend["placed"]:
                    val = fr.placed(0, 0, "", fr.based_here())
                else:
                    cells = fr.cells_for(tile, any_order)
                    b = fr.based_plus(viking)
                    val = fr.best(cells, tile, vrow, b, fr.based_here()) if cells else fr.placed(0, 0, "", b)
                out.append(val + consts[a.row])
                continue
            p = cast("A.Place", a)
            on = p.row == vrow and not p.to_base
            token = on_tile if on else tile
            starts = h.variant(p.row, p.col, token, None if on else based).start_cells()
            if not starts:
                if plain is None:
                    plain = _Frame(h, ctx)
                out.append(plain.placed(p.row, p.col, token, plain.based_here() if on else plain.based_plus(viking))
                           + plain.constant())
                continue
            val = -math.inf
            for r, _c in starts:
                fr = frames[r]
                x = fr.placed(p.row, p.col, token, fr.based_here() if on else fr.based_plus(viking)) + consts[r]
                if x > val:
                    val = x
            out.append(val)
        return out

    # one score per legal action, higher is better (also used by the search player to prune)
    def score_actions(self, view: Mapping[str, Any], legal: Sequence[Action]) -> list[float]:
        seat = view["seat"]
        phase = view["phase"]
        ctx = Context(view, seat)
        me = view["players"][seat]
        h = _reader(me)
        any_order = view["options"]["ships_any_order"]
        # the engine offers one kind of action per phase (casts name it; no cost in the search's loop)
        if phase == "buy":
            out = []
            best: dict[tuple[str, str], float] = {}  # the same combo at two positions: valued once
            for a in cast("Sequence[A.Buy]", legal):
                combo = view["wheel"][a.pos]
                key = (combo["tile"], combo["viking"])
                val = best.get(key)
                if val is None:
                    val = best[key] = best_placement_value(h, key[0], key[1], ctx, any_order)
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
        if isinstance(a, A.Start):
            x = h.copy()
            x.set(a.row, 1, START_TILE)
            x.start_pending = False
            if pend["placed"]:
                return home_value(x, ctx)
            return best_placement_value(x, tile, viking, ctx, any_order)
        on = KIND_ROW.get(viking) == a.row and not a.to_base
        if on:
            x = h.variant(a.row, a.col, tile + "*")
        else:
            based = dict(h.base)
            based[viking] += 1
            x = h.variant(a.row, a.col, tile, based)
        if x.start_pending:
            return max(home_value(_with_start(x, r), ctx) for r, _c in x.start_cells()) if x.start_cells() else \
                home_value(x, ctx)
        return home_value(x, ctx)

    def _sail_scores(self, view: Mapping[str, Any], legal: Sequence[Action], ctx: Context) -> list[float]:
        """Sailor trips (V-34): play each choice out greedily, on a copy of the seat's homeland.

        Only the seat's own homeland changes while its sailor is under way, so the trip is played
        with the engine's own sailing rules on that homeland alone (``sail_actions``/``sail_move``)
        rather than on a whole game rebuilt from the view (as up to 12896ee; the same values)."""
        seat = view["seat"]
        self.rng.fork()  # the RNG moves as when a game was rebuilt from the view for this
        home = _home(view["players"][seat])
        trip0 = view["trip"]
        single = bool(view["options"].get("single_sailor"))
        last = view["round"] == ROUNDS
        out = []
        for a in legal:
            h = home.copy()
            trip = _trip_copy(trip0)
            trip = _sailed(h, trip, a, single)
            steps = 0
            while trip is not None and steps < 30:
                nxt = sail_actions(h, trip, single, last)
                vals = []
                for b in nxt:
                    if type(b) is A.Sail:
                        h2 = h.copy()
                        sail_move(h2, _trip_copy(trip), b, single)
                        vals.append(home_value(h2, ctx))
                    else:
                        vals.append(home_value(h, ctx))
                b = argmax(nxt, vals)
                trip = _sailed(h, trip, b, single)
                steps += 1
            out.append(home_value(h, ctx))
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


def _trip_copy(trip: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if trip is None else {"kinds": list(trip["kinds"]), "mode": trip["mode"], "boat": trip["boat"]}


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


