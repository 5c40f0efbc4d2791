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
tiny values). Only as a safety net, a decision stops at ``3 × budget`` of wall-clock time.

Decisions whose engine continuation ``determinize`` cannot rebuild (Brian Boru's secondary actions,
extras, raids …) are left to the heuristic: they are short-term choices it values directly.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Action, Event, Game

from .base import Player

# Rollout decisions per second of budget (heuristic players, one core of the development machine).
DECISIONS_PER_SECOND = {"vikings": 1300, "brian-boru": 3000}
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
    ) -> None:
        super().__init__(seed)
        if budget <= 0:
            raise ValueError("budget must be more than 0 seconds")
        if not (horizon in ("round", "game") or (type(horizon) is int and horizon >= 0)):
            raise ValueError("horizon is 'round', 'game' or a number of rollout decisions (0 or more)")
        if top_k < 1:
            raise ValueError("top_k must be at least 1")
        self.game_id = game_id
        self.budget = budget
        self.max_rollouts = max_rollouts
        self.top_k = top_k
        self.horizon = horizon
        self.work = max(1, int(budget * DECISIONS_PER_SECOND[game_id]))
        self.heuristic = _heuristic(game_id, self.rng.next64())
        self.last_stats: dict[str, Any] = {}

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        legal = list(legal)
        if self.game_id == "brian-boru":
            self.heuristic.remember(view)
        if len(legal) == 1:
            return legal[0]
        scores = self.heuristic.score_actions(view, legal)
        ranked = sorted(range(len(legal)), key=lambda i: -scores[i])
        if self.game_id == "brian-boru" and legal[0].text.split(" ", 1)[0] not in BB_SEARCHED:  # its verb
            return legal[ranked[0]]
        cands = [legal[i] for i in ranked[: self.top_k]]
        if len(cands) == 1:
            return cands[0]
        seat = _seat(view)
        totals = [0.0] * len(cands)
        counts = [0] * len(cands)
        used = 0
        sweeps = 0
        start = time.perf_counter()
        deadline = start + 3 * self.budget
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
                value, steps = self._rollout(g, seat, max(0, cap), _new_round(events))
                totals[i] += value
                counts[i] += 1
                used += steps + 1
            sweeps += 1
            if time.perf_counter() > deadline:
                break
        means = [totals[i] / counts[i] if counts[i] else float("-inf") for i in range(len(cands))]
        best = 0
        for i in range(1, len(cands)):
            if means[i] > means[best] + 1e-9:
                best = i
        self.last_stats = {"sweeps": sweeps, "work": used, "means": means, "candidates": [str(a) for a in cands]}
        return cands[best]

    # -- per game

    def _determinize(self, view: Mapping[str, Any]) -> Game:
        if self.game_id == "vikings":
            from .vikings import determinize

            return determinize(view, self.rng)
        from .brianboru import determinize as bb_determinize

        return bb_determinize(view, self.rng, self.heuristic._played)

    def _rollout(self, g: Game, seat: int, cap: int, new_round: bool = False) -> tuple[float, int]:
        """Play on with heuristic players for at most ``cap`` decisions; return (value, decisions made).
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
        return _value(self.game_id, g, seat), steps


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


def _value(game_id: str, g: Any, seat: int) -> float:
    """Seat's expected final VP minus the best rival's (real VP once the game is over)."""
    if g.is_over:
        from .arena import final_vp

        vp = final_vp(g)
        win = 5.0 if seat in g.winners() else 0.0
        return vp[seat] - max(v for q, v in enumerate(vp) if q != seat) + win
    if game_id == "vikings":
        from .vikings import Context, home_value, purse_value

        view = g.view(None)
        vals = []
        for q in range(len(view["players"])):
            ctx = Context(view, q)
            p = view["players"][q]
            vals.append(purse_value(p["gold"], p["vp"], ctx) + home_value(g.homeland(q), ctx))
    else:
        from .brianboru import Board

        board = Board(g.view(None))
        vals = [board.projected(q) for q in range(board.n)]
    return vals[seat] - max(v for q, v in enumerate(vals) if q != seat)
