"""The ``search`` level: determinized Monte Carlo with the heuristic as rollout policy (issue 8).

At a decision the heuristic ranks the legal actions and keeps the best ``top_k``. Then, sweep after
sweep, one full game consistent with the seat's view is drawn (``determinize``: the hidden stacks,
bag or hands filled from what is not visible) and every candidate is tried in that same world and
played on by heuristic players for every seat until the end of the round (``horizon="round"``), of
the game (``horizon="game"``) or for a number of decisions (``horizon=N``). The end position is valued as the seat's expected final VP minus the
best rival's, and the candidate with the best mean wins (ties go to the heuristic's order).

**Budget and replay.** A time budget measured on the clock would make the number of rollouts — and
so the choice — depend on the machine's load, and a game with computer players must replay
identically. The budget in seconds is therefore turned into a fixed amount of work: rollout
decisions, at ``DECISIONS_PER_SECOND`` (measured on the development machine, see
``docs/performance-players.md``); a sweep's rollouts share what is left of it equally, so a small
budget gives shorter rollouts rather than unequal ones. ``max_rollouts`` caps the sweeps (tests use
tiny values). Only as a safety net, a decision stops at ``wall_limit × budget`` of wall-clock time
(3 by default; ``None``: never, so that the result depends on the position and the seed alone, as
``/hint`` needs).

**Analysis.** :meth:`SearchPlayer.analyse` returns what the search found
(:class:`~engine.players.analysis.Analysis`: the choice, each candidate's mean VP margin and the
parts of it, the runner-up, one sentence of why); :meth:`SearchPlayer.choose` is its choice.

Decisions whose engine continuation ``determinize`` cannot rebuild (Brian Boru's secondary actions,
extras, raids …) are left to the heuristic: they are short-term choices it values directly.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.core import Action, Event, Game, Msg

from .analysis import Analysis, Candidate, heuristic_why, leaf, static, why
from .base import Player, check_search

Leaf = tuple[float, float, float, dict[str, float]]  # analysis.leaf: value, margin, rival, own parts

# Rollout decisions per second of budget (heuristic players, one core of the development machine),
# so that a decision's median CPU time is about 0.87 of its budget, as ``hard``'s (issue 30,
# docs/performance-players.md "Calibration"; 1,300 and 3,000 before: a quarter of the budget).
DECISIONS_PER_SECOND = {"vikings": 9800, "brian-boru": 9600}
BB_SEARCHED = frozenset({"keep", "active", "lead", "play"})


class SearchPlayer(Player):
    level = "search"

    def __init__(
        self,
        game_id: str,
        seed: int = 0,
        budget: float = 1.0,
        max_rollouts: int | None = None,
        top_k: int = 4,
        horizon: str | int = "round",
        wall_limit: float | None = 3.0,
    ) -> None:
        super().__init__(seed)
        check_search(budget, top_k, horizon, wall_limit, max_rollouts)
        self.game_id = game_id
        self.budget = budget
        self.max_rollouts = max_rollouts
        self.top_k = top_k
        self.horizon = horizon
        self.wall_limit = wall_limit
        self.work = max(1, int(budget * DECISIONS_PER_SECOND[game_id]))
        self.heuristic = _heuristic(game_id, self.rng.next64())
        self.last_stats: dict[str, Any] = {}

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        return self._search(view, legal).best

    def analyse(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Analysis:
        """What the search finds at this decision (issue 25, ``/hint``): the action :meth:`choose`
        would pick (the same, from the same seed), every candidate's mean margin and parts, the
        runner-up and one sentence of why. Where no rollout is played (a single legal action, or a
        Brian Boru decision left to the heuristic) the margin is the position's as it stands."""
        found = self._search(view, legal)
        if found.searched:
            return found
        margin, parts = static(self.game_id, view)
        cands = tuple(replace(c, margin=margin, parts=parts) for c in found.candidates)
        return replace(found, margin=margin, candidates=cands)

    def _search(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Analysis:
        legal = list(legal)
        if self.game_id == "brian-boru":
            self.heuristic.remember(view)
        if len(legal) == 1:
            return _unsearched(legal, [0.0], None)
        scores = self.heuristic.score_actions(view, legal)
        ranked = sorted(range(len(legal)), key=lambda i: -scores[i])
        if self.game_id == "brian-boru" and legal[0].text.split(" ", 1)[0] not in BB_SEARCHED:  # its verb
            order = [legal[i] for i in ranked]
            return _unsearched(order, [scores[i] for i in ranked], heuristic_why(scores[ranked[0]] - scores[ranked[1]]))
        cands = [legal[i] for i in ranked[: self.top_k]]
        if len(cands) == 1:
            return _unsearched(cands, [scores[ranked[0]]], None)
        seat = _seat(view)
        totals = [0.0] * len(cands)
        margins = [0.0] * len(cands)
        squares = [0.0] * len(cands)  # of the margins: their standard error
        rivals = [0.0] * len(cands)
        parts: list[dict[str, float]] = [{} for _ in cands]
        counts = [0] * len(cands)
        used = 0
        sweeps = 0
        start = time.perf_counter()
        deadline = start + self.wall_limit * self.budget if self.wall_limit is not None else None
        k = len(cands)
        while used < self.work and (self.max_rollouts is None or sweeps < self.max_rollouts):
            # every candidate of a sweep gets the same rollout length: what is left of the work, shared
            cap = (self.work - used) // k - 1
            if sweeps and cap < 1:
                break
            world = self._determinize(view)
            for i, a in enumerate(cands):
                g = world.copy()
                events = g.apply(seat, a)
                (value, margin, rival, own), steps = self._rollout(g, seat, max(0, cap), _new_round(events))
                totals[i] += value
                margins[i] += margin
                squares[i] += margin * margin
                rivals[i] += rival
                for key, x in own.items():
                    parts[i][key] = parts[i].get(key, 0.0) + x
                counts[i] += 1
                used += steps + 1
            sweeps += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        means = [totals[i] / counts[i] if counts[i] else float("-inf") for i in range(len(cands))]
        best = 0
        for i in range(1, len(cands)):
            if means[i] > means[best] + 1e-9:
                best = i
        self.last_stats = {"sweeps": sweeps, "work": used, "means": means, "candidates": [str(a) for a in cands]}
        tried = [Candidate(a, means[i], margins[i] / counts[i], rivals[i] / counts[i],
                           {key: x / counts[i] for key, x in parts[i].items()}, counts[i])
                 for i, a in enumerate(cands) if counts[i]]
        # best first, then the others by mean (ties: the heuristic's order, as the choice)
        tried.sort(key=lambda c: (c.action != cands[best], -c.value))
        return Analysis(cands[best], tried[0].margin, tuple(tried), True, why(tried[0], tried[1]) if len(tried) > 1
                        else None, sweeps, used, _stderr(margins[best], squares[best], counts[best]))

    # -- per game

    def _determinize(self, view: Mapping[str, Any]) -> Game:
        if self.game_id == "vikings":
            from .vikings import determinize

            return determinize(view, self.rng)
        from .brianboru import determinize as bb_determinize

        return bb_determinize(view, self.rng, self.heuristic._played)

    def _rollout(self, g: Game, seat: int, cap: int, new_round: bool = False) -> tuple[Leaf, int]:
        """Play on with heuristic players for at most ``cap`` decisions; return (the end position's
        :func:`~engine.players.analysis.leaf` value, decisions made).
        ``new_round``: the move just made began the next round (a ``round`` event)."""
        players: dict[int, Player] = {}
        steps = 0
        while not g.is_over:
            if self.horizon == "round" and new_round:
                break
            if steps >= cap or (type(self.horizon) is int and steps >= self.horizon):
                break
            s = g.acting_seats()[0]
            p = players.get(s)
            if p is None:
                p = players[s] = _heuristic(self.game_id, self.rng.next64())
            legal = g.legal_actions(s)
            a = legal[0] if len(legal) == 1 else p.choose(g.view(s), legal)
            new_round = _new_round(g.apply(s, a))
            steps += 1
        return leaf(self.game_id, g, seat), steps


def _stderr(total: float, squares: float, n: int) -> float | None:
    """The standard error of a mean from the sum and the sum of squares of ``n`` samples (None below 2)."""
    if n < 2:
        return None
    mean = total / n
    var = max(0.0, (squares - n * mean * mean) / (n - 1))
    return (var / n) ** 0.5


def _heuristic(game_id: str, seed: int) -> Any:
    if game_id == "vikings":
        from .vikings import VikingsHeuristic

        return VikingsHeuristic(seed)
    from .brianboru import BrianBoruHeuristic

    return BrianBoruHeuristic(seed)


def _seat(view: Mapping[str, Any]) -> int:
    return view["seat"]


def _new_round(events: Sequence[Event]) -> bool:
    """Whether these events begin a new round (both games announce it with a ``round`` event)."""
    return any(e.kind == "round" for e in events)


def _unsearched(order: Sequence[Action], scores: Sequence[float], reason: Msg | None) -> Analysis:
    """The heuristic's ranking as an analysis (no rollout; :meth:`SearchPlayer.analyse` adds the
    position's margin)."""
    cands = tuple(Candidate(a, s, 0.0, 0.0) for a, s in zip(order, scores))
    return Analysis(order[0], 0.0, cands[:2], False, reason)
