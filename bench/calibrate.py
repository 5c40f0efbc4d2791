"""Calibrate the searching levels' work measures to this machine (issue 30).

    python bench/ismcts.py calibrate GAME [--positions 60] [--seed 5005]

``hard`` (:mod:`engine.players.ismcts`) charges each part of an iteration a price in microseconds
(:data:`~engine.players.ismcts.COST_US`), and ``montecarlo`` (:mod:`engine.players.search`) a rate
of rollout decisions (:data:`~engine.players.search.DECISIONS_PER_SECOND`): fixed work, never the
clock, so that the same view and seed give the same choice. This measures what the prices should be:

* ``hard`` decides on ``--positions`` positions reached by heuristic play, twice (budgets 0.5 and
  0.25 s), counting what it charges for (deals, tree steps, leaves, random and heuristic rollout
  decisions by kind and by their number of legal actions) and timing the CPU each decision took;
  ``deal`` and ``random`` are timed alone (``costs``), the other prices are a least-squares fit of the
  CPU times to the counts (a price that comes out negative is dropped and the rest fitted again;
  kinds seen fewer than 50 times are priced as any decision). The fit's ratio of real to predicted
  time (median, 95th percentile, largest) says how well the model describes a decision.
* ``montecarlo`` decides on the same positions at 0.5 s; its rate is scaled so that the median
  searched decision takes :data:`TARGET` of its budget.

Printed: the suggested tables (prices × 1 / :data:`TARGET`, so that a decision's median stays under
its budget), as JSON.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from engine.players import make_player

TARGET = 0.87  # a decision's median CPU time, as a share of its budget
FIXED = ("deal", "random")  # timed alone
RARE = 50  # a kind seen fewer times is priced as any decision


def _solve(rows: list[list[float]], b: list[float]) -> list[float]:
    """Least squares by the normal equations (few unknowns, well scaled)."""
    n = len(rows[0])
    m = [[sum(r[i] * r[j] for r in rows) for j in range(n)] + [sum(r[i] * y for r, y in zip(rows, b))]
         for i in range(n)]
    for i in range(n):
        piv = max(range(i, n), key=lambda k: abs(m[k][i]))
        m[i], m[piv] = m[piv], m[i]
        if abs(m[i][i]) < 1e-12:
            m[i][i] = 1e-12
        for k in range(n):
            if k != i:
                f = m[k][i] / m[i][i]
                m[k] = [x - f * y for x, y in zip(m[k], m[i])]
    return [m[i][n] / m[i][i] for i in range(n)]


class _Counting(dict[str, float]):
    """The price table, counting what is looked up."""

    def __init__(self, base: dict[str, float], counts: dict[str, float]) -> None:
        super().__init__(base)
        self.counts = counts

    def __getitem__(self, key: str) -> float:
        self.counts[key] = self.counts.get(key, 0) + 1
        return float(dict.__getitem__(self, key))


def _hard_rows(game_id: str, pos: list[tuple[Any, Any]], budget: float, seed: int) -> list[dict[str, Any]]:
    out = []
    for j, (view, legal) in enumerate(pos):
        p: Any = make_player(game_id, "hard", seed + j, budget=budget, wall_limit=None)
        counts: dict[str, float] = {}
        p.cost = _Counting(p.cost, counts)
        priced = p._heuristic_cost

        def heuristic_cost(legal: Any, priced: Any = priced, counts: dict[str, float] = counts) -> float:
            kind = "h_" + legal[0].text.split(" ", 1)[0]
            counts["actions"] = counts.get("actions", 0) + len(legal)
            counts[kind] = counts.get(kind, 0) + 1
            return float(priced(legal))

        p._heuristic_cost = heuristic_cost
        t = time.process_time()
        p.choose(view, legal)
        cpu = time.process_time() - t
        counts.pop("heuristic", None)  # the lookups inside the priced call, counted above instead
        counts["per_action"] = counts.pop("actions", 0)
        out.append({"cpu_us": cpu * 1e6, "counts": counts})
    return out


def calibrate(game_id: str, count: int, seed: int) -> dict[str, Any]:
    from ismcts import costs, positions  # type: ignore[import-not-found]  # bench/ismcts.py

    from engine.players.search import DECISIONS_PER_SECOND

    pos = positions(game_id, count, seed)
    rows = _hard_rows(game_id, pos, 0.5, seed) + _hard_rows(game_id, pos, 0.25, seed + 1)
    alone = costs(game_id)
    fixed = {k: alone[k] for k in FIXED}
    seen: dict[str, float] = {}
    for r in rows:
        for k, v in r["counts"].items():
            if k.startswith("h_"):
                seen[k] = seen.get(k, 0) + v
    kinds = sorted(k for k, v in seen.items() if v >= RARE)
    names = ["tree", "leaf", "per_action", *kinds]
    active = list(names)
    while True:
        a = [[float(r["counts"].get(k, 0)) for k in active] for r in rows]
        b = [r["cpu_us"] - sum(r["counts"].get(k, 0) * v for k, v in fixed.items()) for r in rows]
        x = _solve(a, b)
        negative = [(v, k) for k, v in zip(active, x) if v < 0]
        if not negative:
            break
        active.remove(min(negative)[1])
    fitted = {**fixed, **dict(zip(active, x))}
    ratios = sorted(r["cpu_us"] / sum(r["counts"].get(k, 0) * v for k, v in fitted.items()) for r in rows)
    table = {"heuristic": 0.0, **{k.removeprefix("h_"): round(v / TARGET, 1) for k, v in fitted.items()}}
    # montecarlo: the median searched decision at 0.5 s
    mc = []
    for j, (view, legal) in enumerate(pos):
        mc_player: Any = make_player(game_id, "montecarlo", seed + j, budget=0.5, wall_limit=None)
        t = time.process_time()
        mc_player.choose(view, legal)
        cpu = time.process_time() - t
        if mc_player.last_stats:  # searched (a Brian Boru option is left to the heuristic)
            mc.append(cpu)
    rate = DECISIONS_PER_SECOND[game_id] * TARGET * 0.5 / statistics.median(mc)
    return {"game": game_id, "positions": count, "seed": seed, "decisions": len(rows),
            "fit_ratio": {"median": round(ratios[len(ratios) // 2], 2),
                          "p95": round(ratios[int(0.95 * len(ratios))], 2), "max": round(ratios[-1], 2)},
            "cost_us": table, "decisions_per_second": round(rate, -2)}
