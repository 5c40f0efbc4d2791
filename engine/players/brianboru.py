"""Computer players for Brian Boru: the heuristic and ``determinize`` (issue 8).

The heuristic thinks in VP a sensible player expects at the end:

* a town is worth what it changes in its region — the claim token's points by how safely the seat
  would hold the majority (B-31), whether the region reaches its threshold, a new region for the
  region-count score (B-33.6) — plus what it denies the best rival;
* a card is played for the town when it is likely to win the trick (no unseen higher card of the
  town's colour or white in the hands still to play), else for its best secondary action; high cards
  are kept for the towns that matter (a card's worth for later tricks is its opportunity cost);
* secondary actions are valued by the races they feed: the marriage race (taking the revealed card),
  the church race (monasteries count 2, B-30), invaders against raids and for spoils (B-28, B-29).

Only ``view(seat)`` is read. Cards seen played in this round's tricks are remembered between calls
(public information the view does not list). :func:`determinize` builds a full
:class:`~engine.brianboru.BrianBoruGame` consistent with a view for the trick and draft decisions.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, cast

from engine.brianboru.data import DATA as D
from engine.brianboru.data import WHITE
from engine.brianboru.game import BrianBoruAction, BrianBoruGame
from engine.core import Action, Rng, SharedList

from .base import Player, argmax

T = len(D.town_names)
R = len(D.region_ids)
RC = D.region_count_points
COIN = 0.4  # VP worth of a coin (extras cost 2, expanding 5, the most coins 1 VP)
ALL_CARDS = frozenset(D.card_values)


# --------------------------------------------------------------------------- board model

_BOARDS: dict[tuple[Any, ...], tuple[list[list[int]], list[set[int]], dict[tuple[int, int], float]]] = {}
"""A board's counts, regions and remembered town_gain/town_value by what they depend on
(Board.__init__), shared by boards alike: read them, never change them (recount makes new ones)."""
_VALUES: dict[tuple[Any, ...], tuple[dict[int, float], dict[int, float], dict[int, float]]] = {}
"""Values.best_empty/best_secondary remembered by what they depend on (Values.__init__)."""


def _town_arrays(towns: Sequence[Mapping[str, Any]]) -> tuple[Any, ...]:
    """A view's towns as arrays (owner, -1 for none; Viking marker; monastery) and as tuples."""
    owner = [-1 if t["owner"] is None else t["owner"] for t in towns]
    viking = [t["viking"] for t in towns]
    monastery = [t["monastery"] for t in towns]
    return owner, viking, monastery, tuple(owner), tuple(viking), tuple(monastery)


def _claim_arrays(claims: Sequence[Mapping[str, Any]]) -> tuple[Any, ...]:
    """A view's claims as arrays (face up; owner, -1 for none) and as tuples."""
    up = [c["face_up"] for c in claims]
    owner = [-1 if c["owner"] is None else c["owner"] for c in claims]
    return up, owner, tuple(up), tuple(owner)


class Board:
    """The public position as arrays, built from a view (or a full game, for rollouts)."""

    __slots__ = ("n", "owner", "viking", "monastery", "claim_up", "claim_owner", "players", "support", "trade",
                 "battle", "round", "rounds", "counts", "regions_of", "active", "marriage", "_gains", "key")
    counts: list[list[int]]
    regions_of: list[set[int]]
    _gains: dict[tuple[int, int], float]
    key: tuple[Any, ...]

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.n = len(view["players"])
        towns = view["towns"]
        claims = view["claims"]
        # a live view's towns and claims are shared while unchanged: their arrays are read once
        arrays = getattr(towns, "board_arrays", None)
        if arrays is None:
            arrays = _town_arrays(towns)
            if type(towns) is SharedList:
                towns.board_arrays = arrays  # type: ignore[attr-defined]
        self.owner, self.viking, self.monastery, owner_key, viking_key, monastery_key = arrays
        arrays = getattr(claims, "board_arrays", None)
        if arrays is None:
            arrays = _claim_arrays(claims)
            if type(claims) is SharedList:
                claims.board_arrays = arrays  # type: ignore[attr-defined]
        self.claim_up, self.claim_owner, up_key, claim_owner_key = arrays
        self.players = view["players"]
        self.support = next((p["seat"] for p in self.players if p["princess"] == "support"), -1)
        self.trade = next((p["seat"] for p in self.players if p["princess"] == "trade"), -1)
        self.battle = view["battle"]
        self.round = view["round"]
        self.rounds = view["rounds"]
        at = view["active_town"]
        self.active = D.town_index[at] if at else -1
        self.marriage = view["marriage"]["revealed"]
        # what recount and town_gain/town_value compute depends on this much of the board only:
        # boards alike share what they computed (issue 30; the same numbers, computed once)
        key = (self.n, self.round, self.rounds, self.support, self.trade, owner_key, viking_key, monastery_key,
               up_key, claim_owner_key)
        self.key = key
        known = _BOARDS.get(key)
        if known is None:
            self.recount()
            if len(_BOARDS) >= 4096:
                _BOARDS.clear()
            _BOARDS[key] = (self.counts, self.regions_of, self._gains)
        else:
            self.counts, self.regions_of, self._gains = known

    def recount(self) -> None:
        n = self.n
        counts = [[0] * (n + 1) for _ in range(R)]
        regions_of: list[set[int]] = [set() for _ in range(n)]
        for t in range(T):
            o = self.owner[t]
            if o < 0:
                continue
            w = 2 if self.monastery[t] else 1
            r = D.town_region[t]
            if self.viking[t]:
                counts[r][self.support if self.support >= 0 else n] += w
                if self.trade >= 0:
                    regions_of[self.trade].add(r)
            else:
                counts[r][o] += w
                regions_of[o].add(r)
        self.counts = counts
        self.regions_of = regions_of
        # town_gain (region r ≥ 0), town_value (-1 - r) by seat: they depend on the town's region only
        self._gains = {}  # until recount

    # -- what a region and a town are worth to a seat

    def region_value(self, r: int, seat: int, c: list[int] | None = None) -> float:
        """Expected claim points of region ``r`` for ``seat`` (B-31, B-33.4/5)."""
        c = self.counts[r] if c is None else c
        m = c[seat]
        if m == 0:
            return 0.0
        best = max(c[:seat] + c[seat + 1:])  # the others, the Vikings (index n) included
        d = m - best
        holds = self.claim_owner[r] == seat
        left = self.rounds - self.round  # rounds still to change things after this one
        slope = 1.0 + 1.5 / (1 + left)
        p = 1.0 / (1.0 + math.exp(-slope * (d + (0.6 if holds else 0.0)) + 0.2))
        if d == 0 and self.claim_up[r] and not holds:
            p = max(p, 0.25)  # half the points on a tie at the end (B-33.5)
        total = sum(c)
        reach = 1.0 if (self.claim_up[r] or total >= D.thresholds[r]) else 0.45 + 0.5 * total / D.thresholds[r]
        return D.points[r] * p * reach

    def regions_score(self, k: int) -> float:
        k = max(0, min(k, R))
        nxt = RC[min(k + 1, R)]
        return RC[k] + 0.35 * (nxt - RC[k])  # a step towards the next band is worth something

    def town_gain(self, t: int, seat: int) -> float:
        """VP ``seat`` expects from one more disc on town ``t`` (a disc it controls)."""
        key = (D.town_region[t], seat)  # the value depends on the town's region only
        gain = self._gains.get(key)
        if gain is None:
            gain = self._gains[key] = self._town_gain(t, seat)
        return gain

    def _town_gain(self, t: int, seat: int) -> float:
        r = D.town_region[t]
        c = self.counts[r]
        before = self.region_value(r, seat, c)
        c2 = list(c)
        c2[seat] += 1
        after = self.region_value(r, seat, c2)
        gain = after - before
        k = len(self.regions_of[seat])
        if r not in self.regions_of[seat]:
            gain += self.regions_score(k + 1) - self.regions_score(k)
        # rivals in that region lose a little of their hold
        return gain + 0.35

    def town_value(self, t: int, seat: int) -> float:
        """Gain for ``seat`` plus what taking the town denies the best rival."""
        key = (-1 - D.town_region[t], seat)  # remembered beside town_gain (negative keys), by region too
        value = self._gains.get(key)
        if value is None:
            value = self._gains[key] = self._town_value(t, seat)
        return value

    def _town_value(self, t: int, seat: int) -> float:
        own = self.town_gain(t, seat)
        deny = max((self.town_gain(t, q) for q in range(self.n) if q != seat), default=0.0)
        return own + 0.5 * deny

    def loss(self, t: int, seat: int) -> float:
        """What ``seat`` loses if its town ``t`` stops counting for it."""
        r = D.town_region[t]
        c = self.counts[r]
        w = 2 if self.monastery[t] else 1
        c2 = list(c)
        c2[seat] -= w
        lost = self.region_value(r, seat, c) - self.region_value(r, seat, c2)
        if c2[seat] == 0 and not any(
            self.owner[x] == seat and not self.viking[x] and x != t for x in D.region_towns[r]
        ):
            k = len(self.regions_of[seat])
            lost += self.regions_score(k) - self.regions_score(k - 1)
        return lost + 0.35 * w

    def projected(self, seat: int) -> float:
        """VP ``seat`` can expect at the end from this position (the search's leaf value)."""
        p = self.players[seat]
        v = p["vp"] + p["renown"] + p["coins"] * COIN + p["church"] * 0.5 + p["invaders"] * 0.4
        v += sum(self.region_value(r, seat) for r in range(R))
        v += self.regions_score(len(self.regions_of[seat]))
        v += 0.6 * len(p["marriages"])
        return v


# --------------------------------------------------------------------------- symbol values


class Values:
    """What the symbols of an action (B-22) are worth to ``seat`` now."""

    def __init__(self, board: Board, seat: int) -> None:
        self.b = board
        self.seat = seat
        me = board.players[seat]
        self.me = me
        # the rivals' tops in one pass (issue 30: no generators; the same integers)
        top_track = max_inv_other = max_church_other = -1
        min_inv = me["invaders"]
        for p in board.players:
            inv = p["invaders"]
            if inv < min_inv:
                min_inv = inv
            if p["seat"] != seat:
                if p["track"] > top_track:
                    top_track = p["track"]
                if inv > max_inv_other:
                    max_inv_other = inv
                if p["church"] > max_church_other:
                    max_church_other = p["church"]
        self.top_track = 1 if top_track < 0 else top_track  # the defaults without rivals
        self.min_inv = min_inv
        self.max_inv_other = 0 if max_inv_other < 0 else max_inv_other
        self.max_church_other = 0 if max_church_other < 0 else max_church_other
        self.my_towns = [t for t in range(T) if board.owner[t] == seat and not board.viking[t]]
        # best_empty and best_secondary remembered by everything they read (issue 30): the board's
        # key, the seat, its own counters and the rivals' tops; values alike share them
        key = (board.key, seat, me["coins"], me["vp"], me["renown"], me["invaders"], me["church"], me["track"],
               self.top_track, self.min_inv, self.max_inv_other, self.max_church_other,
               None if board.marriage is None else board.marriage["id"], board.battle, board.active)
        memo = _VALUES.get(key)
        if memo is None:
            if len(_VALUES) >= 4096:
                _VALUES.clear()
            memo = _VALUES[key] = ({}, {}, {})
        self._empty_best: dict[int, float] = memo[0]
        self._secondary: dict[int, float] = memo[1]  # best_secondary by card (the board does not change)
        self._main: dict[int, float] = memo[2]  # main_value by card

    def best_empty(self, region: int | None = None) -> float:
        key = -1 if region is None else region
        if key not in self._empty_best:
            towns = range(T) if region is None else D.region_towns[region]
            vals = [self.b.town_gain(t, self.seat) for t in towns if self.b.owner[t] < 0]
            self._empty_best[key] = max(vals, default=0.0)
        return self._empty_best[key]

    def marriage_prize(self) -> float:
        m = self.b.marriage
        if m is None:
            return 0.0
        return 5.0 if m["id"] == D.princess_id else 3.5

    def unit(self, sym: str, have: int = 0) -> float:
        """Worth of one more church disc / invader / marriage step, ``have`` already gained in this action."""
        me = self.me
        if sym == "church":
            mine = me["church"] + have
            v = 0.45
            if mine + 1 > self.max_church_other:
                v += 0.5 if self.my_towns else 0.2
            if mine + 1 >= 4 and self.my_towns:
                v += 0.3
            return v
        if sym == "battle":
            if self.b.battle - have <= 0:
                return 0.0
            mine = me["invaders"] + have
            v = 0.35
            if mine <= self.min_inv and self.my_towns:
                v += min(2.0, min(self.b.loss(t, self.seat) for t in self.my_towns))
            if mine + 1 > self.max_inv_other:
                v += 0.4 + 0.2 * me["renown"]
            return v
        if sym == "marriage":
            pos = me["track"] + have
            if pos >= D.top_space:
                return 0.0
            v = 0.25
            if pos <= self.top_track < pos + 1:
                v += self.marriage_prize()
            return v
        return 0.0

    def symbols(self, symbols: Sequence[tuple[str, int, Any]], winner: bool = False) -> float:
        me = self.me
        v = 0.0
        coins = me["coins"]
        for name, k, arg in symbols:
            if name == "control":
                continue
            if name == "coin":
                v += COIN * k
                coins += k
            elif name == "pay":
                for _ in range(k):
                    if coins > 0:
                        coins -= 1
                        v -= COIN
                    elif me["vp"] > 0:
                        v -= min(2, me["vp"])  # B-23, [D-5]: with 1 VP the pay costs that 1 VP
            elif name == "renown":
                v += k * (1.0 + (0.3 if me["invaders"] >= self.max_inv_other else 0.0))
            elif name == "vp":
                v += k
            elif name in ("church", "battle", "marriage"):
                got = 0
                for _ in range(k):
                    v += self.unit(name, got)
                    got += 1
                extra = 0
                while coins >= 2 and extra < 4:  # extras while one is worth its 2 coins (unit is pure)
                    u = self.unit(name, got + extra)
                    if not u > 2 * COIN:
                        break
                    v += u - 2 * COIN
                    coins -= 2
                    extra += 1
            elif name == "expand":
                if coins >= 5:
                    best = max((self.b.town_gain(x, self.seat) for t in self.my_towns for x in D.neighbours[t]
                                if self.b.owner[x] < 0 and x != self.b.active), default=0.0)
                    if best > 5 * COIN:
                        v += best - 5 * COIN
                        coins -= 5
            elif name == "free":
                mine = [t for t in range(T) if self.b.viking[t] and self.b.owner[t] == self.seat]
                v += max((self.b.loss(t, self.seat) for t in mine), default=0.1)
            elif name == "any town":
                v += self.best_empty()
            elif name == "town in":
                v += self.best_empty(arg)
        return v

    def main_value(self, card: int) -> float:
        """``symbols`` of the card's main action (B-20, the trick's winner), remembered."""
        value = self._main.get(card)
        if value is None:
            value = self._main[card] = self.symbols(D.cards[card].main, winner=True)
        return value

    def best_secondary(self, card: int) -> float:
        best = self._secondary.get(card)
        if best is None:
            best = self._secondary[card] = max(self.symbols(s) for s in D.cards[card].secondary)
        return best


# --------------------------------------------------------------------------- the heuristic player


class BrianBoruHeuristic(Player):
    level = "heuristic"
    game_id = "brian-boru"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._round = -1
        self._trick_key: tuple = ()
        self._played: set[int] = set()  # cards seen played in this round's tricks (public)

    def remember(self, view: Mapping[str, Any]) -> None:
        if view["round"] != self._round:
            self._round = view["round"]
            self._played = set()
        for c in view["trick"]["cards"]:
            self._played.add(c["card"])

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        self.remember(view)
        if len(legal) == 1:
            return legal[0]
        return argmax(list(legal), self.score_actions(view, legal))

    def score_actions(self, view: Mapping[str, Any], legal: Sequence[Action],
                      played: set[int] | None = None) -> list[float]:
        legal = cast("Sequence[BrianBoruAction]", legal)  # what the Brian Boru engine offers (no cost)
        seat = view["seat"]
        b = Board(view)
        vals = Values(b, seat)
        kind = legal[0].verb
        if played is None:
            played = self._played
        if kind == "keep":
            hand = view["you"]["hand"]
            colours = frozenset(D.card_colour[c] for c in hand)
            terms: dict[int, float] = {}
            return [self._keep_score(a.args, hand, vals, view, colours, terms) for a in legal]
        if kind in ("lead", "play"):
            ctx = _TrickCtx(view, seat, played)
            return [self._card_score(a.args[0], b.active, ctx, vals) for a in legal]
        if kind == "active":
            ctx = _TrickCtx(view, seat, played)
            hand = view["you"]["hand"]
            out = []
            # a card's score for a town depends on the town's colour and region only (p_win, town_value)
            best: dict[tuple[int, int], float] = {}
            for a in legal:
                t = D.town_index[a.args[0]]
                col = D.town_colour[t]
                key = (col, D.town_region[t])
                score = best.get(key)
                if score is None:
                    cards = [c for c in hand if D.card_colour[c] in (col, WHITE)] or hand
                    score = best[key] = max(self._card_score(c, t, ctx, vals) for c in cards)
                out.append(score)
            return out
        if kind == "option":
            card = D.cards[view["pending"]["card"]]
            return [vals.symbols(card.secondary[a.args[0] - 1]) for a in legal]
        if kind == "extra":
            sym, base = view["pending"]["sym"], view["pending"]["base"]
            out = []
            for a in legal:
                k = a.args[0]
                v = sum(vals.unit(sym, base + i) for i in range(k)) - 2 * COIN * k
                out.append(v)
            return out
        if kind == "expand":
            return [0.0 if a.args[0] == "no" else b.town_value(D.town_index[a.args[0]], seat) - 5 * COIN
                    for a in legal]
        if kind == "town":
            return [b.town_value(D.town_index[a.args[0]], seat) for a in legal]
        if kind == "free":
            out = []
            for a in legal:
                t = D.town_index[a.args[0]]
                o = b.owner[t]
                out.append(b.loss(t, seat) if o == seat else -0.5 * b.loss(t, o))
            return out
        if kind == "raid":
            victim = view["pending"]["victim"]
            out = []
            for a in legal:
                t = D.town_index[a.args[0]]
                hurt = b.loss(t, victim)
                out.append(-hurt if victim == seat else hurt)
            return out
        if kind == "monastery":
            out = []
            for a in legal:
                t = D.town_index[a.args[0]]
                r = D.town_region[t]
                c2 = list(b.counts[r])
                c2[seat] += 1
                out.append(b.region_value(r, seat, c2) - b.region_value(r, seat))
            return out
        if kind == "princess":
            return [self._princess_score(a.args[0], b, seat) for a in legal]
        return [0.0] * len(legal)

    # -- the draft (B-14): strong cards win towns, the rest bring their best secondary action
    def _keep_score(self, pair: tuple[int, int], hand: list[int], vals: Values, view: Mapping[str, Any],
                    colours: frozenset[int] | None = None, terms: dict[int, float] | None = None) -> float:
        """``colours``: of the hand; ``terms``: a card's own worth, remembered over the pairs."""
        v = 0.0
        have = set(colours if colours is not None else (D.card_colour[c] for c in hand))
        if terms is None:
            terms = {}
        for c in pair:
            term = terms.get(c)
            if term is None:
                strength = (c / 25.0) ** 2
                white = D.card_colour[c] == WHITE
                term = terms[c] = 3.2 * strength + (0.8 if white else 0.0) + 0.45 * vals.best_secondary(c)
            v += term
            if D.card_colour[c] not in have:
                v += 0.3
                have.add(D.card_colour[c])
        return v

    # -- tricks (B-17 … B-20)
    def _card_score(self, card: int, town: int, ctx: _TrickCtx, vals: Values) -> float:
        p = ctx.p_win(card, town)
        b = vals.b
        lose = vals.best_secondary(card)
        if p > 0:
            gain = (b.town_value(town, vals.seat) if town >= 0 else 0.0) + 0.4  # + the marker, leading next
            win = gain + vals.main_value(card)
            v = p * win + (1 - p) * lose
        else:
            v = lose
        return v - ctx.keep_worth(card)

    def _princess_score(self, choice: str, b: Board, seat: int) -> float:
        if choice == "refuse":
            return 4.0
        vik = [t for t in range(T) if b.viking[t]]
        if choice == "support":
            v = 0.0
            for r in range(R):
                c = b.counts[r]
                c2 = list(c)
                c2[seat] += c2[b.n]
                c2[b.n] = 0
                v += b.region_value(r, seat, c2) - b.region_value(r, seat, c)
            return v
        regions = set(b.regions_of[seat]) | {D.town_region[t] for t in vik}
        k = len(b.regions_of[seat])
        return b.regions_score(len(regions)) - b.regions_score(k)


class _TrickCtx:
    """Who still plays in this trick and which cards they might hold (only what the view shows)."""

    def __init__(self, view: Mapping[str, Any], seat: int, played: set[int]) -> None:
        n = len(view["players"])
        trick = view["trick"]["cards"]
        self.trick = [(c["seat"], c["card"]) for c in trick]
        hand = set(view["you"]["hand"])
        self.hand = hand
        seen = hand | {c for _s, c in self.trick} | played | set(view["you"]["draft"])
        self.unseen = ALL_CARDS - seen
        to_play = n - len(trick) - 1
        first = view["leader"] if not trick else trick[0]["seat"]
        if not trick and view["pending"] and view["pending"]["kind"] in ("active", "lead"):
            first = seat
        played_seats = {s for s, _c in self.trick} | {seat}
        later = [(first + k) % n for k in range(n) if (first + k) % n not in played_seats][:to_play]
        self.cards_later = sum(view["players"][q]["hand_size"] for q in later)
        self.n_later = len(later)
        self.tricks_left = max(0, min(p["hand_size"] for p in view["players"] if p["seat"] == seat) - 1)
        self.active_town_free = view["active_town"] is None
        self._p: dict[tuple[int, int], float] = {}

    def p_win(self, card: int, town: int) -> float:
        """The chance that ``card`` wins the trick for ``town`` (it depends on the town's colour only)."""
        key = (card, D.town_colour[town] if town >= 0 else -1)
        p = self._p.get(key)
        if p is None:
            p = self._p[key] = self._p_win(card, town)
        return p

    def _p_win(self, card: int, town: int) -> float:
        if town >= 0:
            col = D.town_colour[town]

            def matches(c: int) -> bool:
                return D.card_colour[c] in (col, WHITE)
        else:
            def matches(c: int) -> bool:
                return True
        if self.trick and not matches(card):
            if not any(matches(c) for _s, c in self.trick) and card > max(c for _s, c in self.trick):
                pass  # [D-4] after a free lead with nothing matching, the highest card wins
            else:
                return 0.0
        if not matches(card) and not self.trick:
            return 0.0  # only after a free lead: leads unmatched, wins only if nobody matches
        if any(matches(c) and c > card for _s, c in self.trick):
            return 0.0
        if self.n_later == 0:
            return 1.0
        higher = sum(1 for c in self.unseen if c > card and matches(c))
        if higher == 0:
            return 1.0
        pool = max(1, len(self.unseen))
        share = min(1.0, self.cards_later / pool)
        p_none = (1 - share) ** higher
        return p_none + (1 - p_none) * 0.25  # a rival holding a higher card does not always spend it

    def keep_worth(self, card: int) -> float:
        """What the card would still be worth in a later trick of this round."""
        if self.tricks_left <= 1:
            return 0.0
        white = D.card_colour[card] == WHITE
        return min(1.0, (self.tricks_left - 1) / 2) * (2.2 * (card / 25.0) ** 2 + (0.5 if white else 0.0))


# --------------------------------------------------------------------------- determinize


def determinize(view: Mapping[str, Any], rng: Rng, played: set[int] | frozenset[int] = frozenset()) -> BrianBoruGame:
    """A full game consistent with ``view`` at a draft or trick decision (``keep``, ``active``, ``lead``,
    ``play``): other seats' hands and draft piles, the card set aside, the Viking deck and the marriage
    stack are drawn at random from the cards the view does not show. ``played`` = cards the seat saw
    played earlier in this round. Raises ``ValueError`` at other decisions (their engine continuation
    is not rebuilt)."""
    pend = view["pending"]
    if pend is None or pend["kind"] not in ("keep", "active", "lead", "play"):
        raise ValueError("determinize covers the draft and trick decisions only")
    me = view["seat"]
    n = len(view["players"])
    towns = view["towns"]
    trick = [[c["seat"], c["card"]] for c in view["trick"]["cards"]]
    hand_me = list(view["you"]["hand"])
    pile_me = list(view["you"]["draft"])
    seen = set(hand_me) | set(pile_me) | {c for _s, c in trick} | set(played)
    pool = sorted(ALL_CARDS - seen)
    rng.shuffle(pool)
    hands: list[list[int]] = [[] for _ in range(n)]
    piles: list[list[int]] = [[] for _ in range(n)]
    choice: list[Any] = [None] * n
    hands[me] = hand_me
    piles[me] = pile_me
    if view["you"]["choice"] is not None:
        choice[me] = list(view["you"]["choice"])
    for q in range(n):
        if q == me:
            continue
        p = view["players"][q]
        hands[q] = sorted(pool[: p["hand_size"]])
        del pool[: p["hand_size"]]
        piles[q] = sorted(pool[: p["draft_size"]])
        del pool[: p["draft_size"]]
        if p["chosen"]:
            choice[q] = piles[q][:2]
    k = D.deal[n]
    aside_n = 25 - n * k
    aside = pool[:aside_n]
    discard = pool[aside_n:]
    active = D.town_index[view["active_town"]] if view["active_town"] else -1
    free_lead = False
    if view["phase"] == "tricks" and trick:
        lead_card = trick[0][1]
        free_lead = active < 0 or D.card_colour[lead_card] not in (D.town_colour[active], WHITE)
    # the engine's continuation (its task stack, next task last)
    kind = pend["kind"]
    tasks: list[list] = []
    options: list[Any] = []
    if kind in ("active", "lead", "play"):
        leader = view["leader"]
        if kind == "active":
            tasks = [["lead_card"]]
            empty = [x for x in range(T) if towns[x]["owner"] is None]
            cols = {D.card_colour[c] for c in hand_me}
            options = empty if WHITE in cols else [x for x in empty if D.town_colour[x] in cols]
            if not options:
                options = empty
        elif kind == "lead":
            tasks = [["trick"], *[["play", (leader + j) % n] for j in range(n - 1, 0, -1)]]
            options = sorted(int(a.split()[1]) for a in view["you"]["legal"])
            free_lead = active < 0 or any(
                D.card_colour[c] not in (D.town_colour[active], WHITE) for c in options)
        else:
            done = len(trick)
            tasks = [["trick"], *[["play", (leader + j) % n] for j in range(n - 1, done, -1)]]
            options = list(hand_me)
    if kind == "keep":
        pending = {"kind": "keep", "seats": list(pend["seats"]), "rule": "B-14"}
    else:
        pending = {"kind": kind, "seat": pend["seat"], "options": options, "rule": pend.get("rule")}
    from .bbdeal import state  # the public state from the view, as the hard level's deal builds it

    return state(view, rng, (hands, piles, choice, aside, discard), free_lead=free_lead, tasks=tasks,
                 pending=pending, final=None)


def resample(game: BrianBoruGame, seat: int, rng: Rng) -> BrianBoruGame:
    """``game`` with what ``seat`` does not see dealt again at random, at any decision (issue 17's
    undo, where :func:`determinize` cannot rebuild the engine's continuation): the cards outside
    ``seat``'s view (other hands and draft piles, the card set aside, the discards) are permuted
    among themselves wherever they lie (so a draft choice stays within its pile), the Viking deck is
    shuffled and the marriage stack (the princess in place) drawn again from the cards not out in
    the open. Everything else — the engine's task stack included — is the real game's. Raises
    ``ValueError`` when the result does not show ``seat`` exactly the view the real game shows
    (then it cannot be trusted)."""
    s = game.to_json()
    view = game.view(seat)
    seen = set(view["you"]["hand"]) | set(view["you"]["draft"]) | {c["card"] for c in view["trick"]["cards"]}
    held = [c for zone in (*s["hand"], *s["pile"], s["aside"], s["discard"]) for c in zone]
    hidden = sorted(set(held) - seen)
    shuffled = list(hidden)
    rng.shuffle(shuffled)
    swap = dict(zip(hidden, shuffled, strict=True))

    def moved(cards: Sequence[int] | None) -> list[int] | None:
        return None if cards is None else [swap.get(c, c) for c in cards]

    s["hand"] = [moved(h) if q != seat else h for q, h in enumerate(s["hand"])]
    s["pile"] = [moved(p) if q != seat else p for q, p in enumerate(s["pile"])]
    s["choice"] = [moved(c) if q != seat else c for q, c in enumerate(s["choice"])]
    s["aside"], s["discard"] = moved(s["aside"]), moved(s["discard"])
    deck = list(s["viking_deck"])
    rng.shuffle(deck)
    s["viking_deck"] = deck
    stack, out = list(s["marriage_stack"]), list(s["marriage_out"])
    loose = [m for m in stack if m != D.princess_id] + out
    rng.shuffle(loose)
    s["marriage_stack"] = [m if m == D.princess_id else loose.pop() for m in stack]
    s["marriage_out"] = loose
    world = BrianBoruGame.from_json(s)
    if world.view(seat) != view:
        raise ValueError("the resampled game shows the seat another view")
    return world


def board_of_game(game: BrianBoruGame) -> Board:
    return Board(game.view(None))


__all__ = ["BrianBoruHeuristic", "Board", "Values", "determinize", "resample"]
