"""The ``hard`` level: information-set Monte Carlo tree search (issue 30).

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012, *Information Set Monte Carlo Tree
Search*; the shape of OpenSpiel's ``open_spiel/python/algorithms/ismcts.py``): one tree over the
information sets of the searching seat — a node is the sequence of moves made since the decision,
every seat's moves included, as the seat would see them — and, at every iteration, a **new deal
consistent with the seat's view** (:func:`engine.vikings.determinize.determinize`: the tiles, bag and
special stacks left; :func:`engine.players.bbdeal.deal`: the cards, the draft memory included, the
Viking deck and the marriage stack). An iteration walks the tree in that deal, choosing at each node
by UCB1 over the moves *available in this deal*, with **availability counts** (a move's exploration
term counts the visits in which it could have been chosen, not the node's visits); it adds one node,
plays on with the rollout policy for at most ``horizon`` decisions (or to the round's end), and
values the end position for every seat (its expected final VP minus the best rival's, the value
:mod:`engine.players.analysis` describes). Each seat's moves in the tree are chosen for that seat's
value (max-n).

Every decision kind of both games is searched: the engine's continuation is public (``view["tasks"]``),
so a Brian Boru deal is rebuilt at a losing card's option, an extra, an expansion, a raid, a
monastery or the Princess as well as in the draft and the tricks.

**At the root** the heuristic orders the seat's moves and the search widens progressively
(progressive unpruning, Chaslot et al. 2008): the best ``top_k`` first, one more each time the root's
visits pass the next square, so a move the heuristic undervalues is found when the budget allows.
The choice is the root move visited most (ties: the better mean, then the heuristic's order).

**Budget and replay.** As :mod:`engine.players.search`: the budget in seconds is a fixed amount of
work, never the clock. Every iteration is charged the cost the development machine measured for what
it does (a deal, each decision of the rollout policy, the valuation: :data:`COST_US`), so the same
view and seed give the same choice; ``wall_limit × budget`` of wall-clock time is only a safety net
(``None``: never, as ``/hint`` needs).

**Rollouts.** ``rollout="heuristic"`` (the ``normal`` level's choices, the default) or ``"random"``
(uniform over the legal actions, no view built: about 18× cheaper a decision), or a number ``p``
between 0 and 1: the heuristic with probability ``p``, else random; to the round's end by default
(``horizon``). The heuristic's rollouts played stronger at the same budget in both games, though
they make ten times fewer iterations (``docs/performance-players.md``, issue 30).

**Progressive unpruning everywhere.** At a node's first visit the heuristic ranks the moves there
(from the moving seat's view of that deal); the node offers its best move, then one more each time
its visits pass the next square. Without it, the first visits of every reply were random moves —
a bought Vikings tile placed anywhere — and the search lost to the heuristic it is built on.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Action, Event, Game, Rng

from .analysis import WIN_BONUS, Analysis, Candidate, expected, static, why
from .base import Player, check_search

# What an iteration's parts cost on one core of the development machine, in microseconds; a busy
# machine takes longer but does the same work. A heuristic decision of a rollout costs ``heuristic``
# plus ``per_action`` for each legal action plus its kind's own price (the action's first word: a
# Vikings sailing is played out, a bid is cheap). Fitted by least squares to the CPU time of 120 of
# ``hard``'s decisions per game (``python bench/ismcts.py calibrate GAME``: ``deal`` and ``random``
# as timed alone, the rest fitted), divided by 0.87 so that a decision's median stays under its budget
# (docs/performance-players.md, "Calibration").
COST_US: dict[str, dict[str, float]] = {
    "vikings": {"deal": 96.4, "random": 16.9, "tree": 28.7, "leaf": 226.4, "heuristic": 0.0, "per_action": 12.4,
                "buy": 71.1, "sail": 169.8, "start": 189.0},
    "brian-boru": {"deal": 125.1, "random": 13.9, "tree": 56.5, "leaf": 116.5, "heuristic": 0.0, "per_action": 3.1,
                   "expand": 124.1, "extra": 25.2, "keep": 87.6, "lead": 121.6, "option": 100.8, "play": 97.1,
                   "princess": 20.4, "town": 4.7},
}
# per game: rollout policy, horizon, UCB constant (VP). Heuristic rollouts to the round's end played
# stronger per CPU second than random ones (docs/performance-players.md, issue 30)
DEFAULTS: dict[str, dict[str, Any]] = {
    "vikings": {"rollout": "heuristic", "horizon": "round", "c": 3.0},
    "brian-boru": {"rollout": "heuristic", "horizon": "round", "c": 3.0},
}


class _Node:
    """An information set of the searching seat: its moves' statistics, keyed by the action's text.
    ``stats[text] = [visits, total value of the seat that moved, availability]``; ``order``: the
    heuristic's rank of the moves, from the node's first visit (progressive unpruning)."""

    __slots__ = ("stats", "children", "order", "visits")

    def __init__(self) -> None:
        self.stats: dict[str, list[float]] = {}
        self.children: dict[str, _Node] = {}
        self.order: dict[str, int] | None = None
        self.visits = 0


class _RootStats:
    """What the analysis reports of a root move: the seat's margin, its square, the best rival's
    value and the parts of its own, summed over the iterations through the move."""

    __slots__ = ("margin", "squares", "rival", "parts")

    def __init__(self) -> None:
        self.margin = 0.0
        self.squares = 0.0
        self.rival = 0.0
        self.parts: dict[str, float] = {}


class ISMCTSPlayer(Player):
    level = "hard"

    def __init__(
        self,
        game_id: str,
        seed: int = 0,
        budget: float = 1.0,
        max_rollouts: int | None = None,
        top_k: int = 4,
        horizon: str | int | None = None,
        wall_limit: float | None = 3.0,
        rollout: str | float | None = None,
        c: float | None = None,
    ) -> None:
        super().__init__(seed)
        if game_id not in COST_US:
            raise ValueError(f"unknown game {game_id!r}")
        defaults = DEFAULTS[game_id]
        horizon = defaults["horizon"] if horizon is None else horizon
        check_search(budget, top_k, horizon, wall_limit, max_rollouts)
        rollout = defaults["rollout"] if rollout is None else rollout
        if isinstance(rollout, str):
            if rollout not in ("random", "heuristic"):
                raise ValueError("rollout is 'random', 'heuristic' or the heuristic's share (0 to 1)")
            share = 1.0 if rollout == "heuristic" else 0.0
        elif isinstance(rollout, (int, float)) and 0.0 <= float(rollout) <= 1.0:
            share = float(rollout)
        else:
            raise ValueError("rollout is 'random', 'heuristic' or the heuristic's share (0 to 1)")
        self.game_id = game_id
        self.budget = budget
        self.max_rollouts = max_rollouts
        self.top_k = top_k
        self.horizon = horizon
        self.wall_limit = wall_limit
        self.share = share
        self.c = defaults["c"] if c is None else float(c)
        self.work = budget * 1e6  # microseconds of the development machine's work
        self.cost = COST_US[game_id]
        from .heuristic import heuristic_player

        self.heuristic: Any = heuristic_player(game_id, self.rng.next64())
        self.last_stats: dict[str, Any] = {}

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        return self._search(view, legal).best

    def analyse(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Analysis:
        """What the search finds at this decision (``/hint``, the game analysis): the action
        :meth:`choose` would pick from the same seed, every root move tried (best first) with its
        mean margin and parts, the runner-up, one sentence of why and the margin's standard error.
        With a single legal action nothing is searched: the margin is the position's as it stands."""
        found = self._search(view, legal)
        if found.searched:
            return found
        margin, parts = static(self.game_id, view)
        cands = tuple(Candidate(c.action, c.value, margin, 0.0, parts) for c in found.candidates)
        return Analysis(found.best, margin, cands, False, found.why)

    # ------------------------------------------------------------------ the search

    def _search(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Analysis:
        legal = list(legal)
        if not legal:
            raise ValueError("choose() needs at least one legal action")
        if self.game_id == "brian-boru":
            self.heuristic.remember(view)
        if len(legal) == 1:
            return Analysis(legal[0], 0.0, (Candidate(legal[0], 0.0, 0.0, 0.0),), False, None)
        me = view["seat"]
        scores = self.heuristic.score_actions(view, legal)
        order = sorted(range(len(legal)), key=lambda i: -scores[i])
        ranked = [legal[i] for i in order]
        rank = {a.text: r for r, a in enumerate(ranked)}
        by_text = {a.text: a for a in legal}
        root = _Node()
        root_stats = {a.text: _RootStats() for a in ranked}
        used = 0.0
        iterations = 0
        start = time.perf_counter()
        deadline = start + self.wall_limit * self.budget if self.wall_limit is not None else None
        cost = self.cost
        # common random numbers: a root move's k-th visit plays in the k-th deal, the same for every root
        # move, so moves are compared in the same worlds (their difference, not the deals', decides)
        deals: list[Any] = []  # the root's deals, by visit
        base = self.rng.next64()
        # every one of the first top_k moves is tried once, however small the budget: an analysis then
        # values each of them (the game analysis asks for two: the best and the one played)
        must = min(len(ranked), self.top_k)
        while (used < self.work or iterations < must) and (self.max_rollouts is None or iterations < self.max_rollouts):
            # the root: progressive unpruning over the heuristic's order
            width = min(len(ranked), self.top_k + int(math.isqrt(iterations)) // 2)
            cands = ranked[:width]
            for a in cands:
                st = root.stats.get(a.text)
                if st is None:
                    st = root.stats[a.text] = [0.0, 0.0, 0.0]
                st[2] += 1
            untried = [a for a in cands if root.stats[a.text][0] == 0]
            first = untried[0] if untried else self._ucb(root, cands)
            k = int(root.stats[first.text][0])
            if k == len(deals):
                deals.append(self._deal(view, Rng(base + k)))
                used += cost["deal"]
            world = deals[k].copy()
            used += cost["tree"]
            path: list[tuple[_Node, str, int]] = [(root, first.text, me)]
            events = world.step(me, by_text[first.text])  # a legal action: the unchecked apply
            node: _Node | None = root.children.setdefault(first.text, _Node())
            steps, used_here = self._descend(world, node, path, events)
            used += used_here
            vals, margin, rival, parts = self._value(world, me)
            used += cost["leaf"]
            for nd, text, seat in path:
                st = nd.stats[text]
                st[0] += 1
                st[1] += vals[seat]
            rs = root_stats[first.text]
            rs.margin += margin
            rs.squares += margin * margin
            rs.rival += rival
            for key, x in parts.items():
                rs.parts[key] = rs.parts.get(key, 0.0) + x
            iterations += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        tried = [a for a in ranked if root.stats.get(a.text, [0.0])[0] > 0]

        def order_key(a: Action) -> tuple[float, float, int]:
            st = root.stats[a.text]
            return (-st[0], -st[1] / st[0], rank[a.text])

        tried.sort(key=order_key)
        best = tried[0]
        cands_out = []
        for a in tried:
            st, rs = root.stats[a.text], root_stats[a.text]
            v = st[0]
            cands_out.append(Candidate(a, st[1] / v, rs.margin / v, rs.rival / v,
                                       {p: x / v for p, x in rs.parts.items()}, int(v)))
        bs = root_stats[best.text]
        n_best = int(root.stats[best.text][0])
        self.last_stats = {"iterations": iterations, "work_us": used, "tried": len(tried), "width": len(ranked)}
        return Analysis(best, cands_out[0].margin, tuple(cands_out), True,
                        why(cands_out[0], cands_out[1]) if len(cands_out) > 1 else None,
                        iterations, int(used), _stderr(bs.margin, bs.squares, n_best))

    def _descend(self, world: Game, node: _Node | None, path: list[tuple[_Node, str, int]],
                 events: Sequence[Event]) -> tuple[int, float]:
        """Walk the tree in ``world`` from ``node`` (adding one node), then play the rollout; return
        (decisions, work)."""
        horizon = self.horizon
        cost = self.cost
        used = 0.0
        steps = 0
        new_round = _new_round(events)
        players: dict[int, Any] = {}
        sim: Any = world  # ``step``: each game's declared unchecked apply (``INFO.public``)
        step = sim.step  # every action here is one of ``legal_actions``
        see = _viewer(self.game_id, world)
        while not world.is_over:
            if new_round and horizon != "game":
                break
            if type(horizon) is int and steps >= horizon:
                break
            s = world.acting_seats()[0]
            legal = world.legal_actions(s)
            if node is not None:
                if len(legal) > 1:
                    # progressive unpruning: the heuristic's best moves first, one more as visits grow
                    if node.order is None:
                        scores = self._scores(world, s, legal)
                        node.order = {legal[i].text: r for r, i in
                                      enumerate(sorted(range(len(legal)), key=lambda i: -scores[i]))}
                        used += self._heuristic_cost(legal)
                    order = node.order
                    last = len(order)
                    legal = sorted(legal, key=lambda a: order.get(a.text, last))
                    legal = legal[: 1 + math.isqrt(node.visits) // 2]
                node.visits += 1
                stats = node.stats
                for x in legal:
                    st = stats.get(x.text)
                    if st is None:
                        st = stats[x.text] = [0.0, 0.0, 0.0]
                    st[2] += 1
                untried = [x for x in legal if stats[x.text][0] == 0]
                if untried:
                    a = untried[0]
                    path.append((node, a.text, s))
                    node = None  # the new node: from here on, the rollout
                else:
                    a = self._ucb(node, legal)
                    path.append((node, a.text, s))
                    node = node.children.setdefault(a.text, _Node())
                used += cost["tree"]
            elif len(legal) == 1:
                a = legal[0]
                used += cost["random"]
            elif self.share > 0.0 and (self.share >= 1.0 or self.rng.next64() < self.share * 2.0 ** 64):
                p = players.get(s)
                if p is None:
                    from .heuristic import heuristic_player

                    p = players[s] = heuristic_player(self.game_id, self.rng.next64())
                a = p.choose(see(s), legal)
                used += self._heuristic_cost(legal)
            else:
                a = legal[self.rng.randbelow(len(legal))]
                used += cost["random"]
            new_round = _new_round(step(s, a))
            steps += 1
        return steps, used

    def _heuristic_cost(self, legal: Sequence[Action]) -> float:
        """What a heuristic decision among ``legal`` costs (:data:`COST_US`): by the number of actions,
        and more for a kind it plays out (a Vikings sailing)."""
        cost = self.cost
        return cost["heuristic"] + cost["per_action"] * len(legal) + cost.get(legal[0].text.split(" ", 1)[0], 0.0)

    def _scores(self, world: Game, seat: int, legal: Sequence[Action]) -> list[float]:
        """The heuristic's scores of ``legal`` for ``seat`` in ``world`` (from that seat's view only)."""
        view = _viewer(self.game_id, world)(seat)
        if self.game_id == "brian-boru":
            played = {e["card"] for e in view.get("played", [])}
            return self.heuristic.score_actions(view, legal, played)
        return self.heuristic.score_actions(view, legal)

    def _ucb(self, node: _Node, legal: Sequence[Action]) -> Action:
        """UCB1 with availability counts (Cowling et al. 2012, §5.2): ties go to the first."""
        c = self.c
        best: Action | None = None
        best_v = -math.inf
        for a in legal:
            visits, total, avail = node.stats[a.text]
            v = total / visits + c * math.sqrt(math.log(max(avail, 1.0)) / visits)
            if v > best_v:
                best, best_v = a, v
        assert best is not None
        return best

    # ------------------------------------------------------------------ per game

    def _deal(self, view: Mapping[str, Any], rng: Rng) -> Game:
        if self.game_id == "vikings":
            from engine.vikings.determinize import determinize

            return determinize(view, rng)
        from .bbdeal import deal

        return deal(view, rng)

    def _value(self, g: Game, me: int) -> tuple[list[float], float, float, dict[str, float]]:
        """(every seat's value, the seat's margin, the best rival's value, the seat's parts)."""
        return values(self.game_id, g, me)


def values(game_id: str, g: Any, me: int) -> tuple[list[float], float, float, dict[str, float]]:
    """Every seat's value at a rollout's end — its expected final VP minus the best rival's, with
    :data:`~engine.players.analysis.WIN_BONUS` for a game won — and, for seat ``me``, its margin, the
    best rival's expected VP and the parts of its own (:func:`engine.players.analysis.leaf`'s terms)."""
    if g.is_over:
        from .analysis import final_vp

        vp = [float(x) for x in final_vp(g)]
        winners = set(g.winners())
        parts = {"vp": vp[me]}
        raw = vp
    else:
        raw, parts = expected(game_id, _viewer(game_id, g)(None), me, g.homeland if game_id == "vikings" else None)
        winners = set()
    n = len(raw)
    top = sorted(range(n), key=lambda q: -raw[q])[:2]
    vals = []
    for q in range(n):
        rival = raw[top[1]] if q == top[0] else raw[top[0]]
        vals.append(raw[q] - rival + (WIN_BONUS if q in winners else 0.0))
    rival_me = raw[top[1]] if me == top[0] else raw[top[0]]
    return vals, raw[me] - rival_me, rival_me, parts


def _stderr(total: float, squares: float, n: int) -> float | None:
    if n < 2:
        return None
    mean = total / n
    var = max(0.0, (squares - n * mean * mean) / (n - 1))
    return (var / n) ** 0.5


def _viewer(game_id: str, g: Any) -> Any:
    """The view a simulation reads: Brian Boru's ``live_view`` (the same content as ``view``, its towns
    and claims shared while unchanged: issue 30's speed-up), Vikings' ``view``."""
    return g.live_view if game_id == "brian-boru" else g.view


def _new_round(events: Sequence[Event]) -> bool:
    return any(e.kind == "round" for e in events)
