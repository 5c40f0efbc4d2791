"""A small ladder for the sample picture of ``renderer.ladder`` (issue 30), in the ladder's JSON.

A stand-in until ``meadhall arena --ladder GAME`` lands: seat-rotated games among the levels, each
game rated with openskill (winners first, the rest by final VP, as ``bot.host.ratings`` ranks), and
each pair's head-to-head share (a seat ahead of the other: won, or more VP; a tie counts half) with
its 95 % Wilson interval. Too few games to measure anything: it only feeds the picture.

    python docs/samples/ladder_sample.py --game vikings --games 8 --seed 3 --budget 0.05 \\
        --levels random,easy,normal,hard -o docs/samples/ladder-vikings.json
    python -m renderer.ladder docs/samples/ladder-vikings.json -o docs/samples/ladder-vikings.png
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
from pathlib import Path

from openskill.models import PlackettLuce

from engine.players import SEARCHING, canonical_level, make_player
from engine.players.arena import play_game


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def ladder(game_id: str, levels: list[str], games: int, seed: int, budget: float | None) -> dict:
    model = PlackettLuce()
    ratings = {lv: model.rating() for lv in levels}
    stats = {lv: {"games": 0, "wins": 0, "vp": 0, "decisions": 0, "seconds": 0.0} for lv in levels}
    ahead = {pair: 0.0 for pair in itertools.combinations(levels, 2)}
    n = len(levels)
    for i in range(games):
        seating = [levels[(s - i) % n] for s in range(n)]
        players = [make_player(game_id, lv, (seed * 1_000_003 + i * 101 + s) & 0xFFFFFFFF,
                               **({"budget": budget} if lv in SEARCHING and budget else {}))
                   for s, lv in enumerate(seating)]
        _game, rec = play_game(game_id, players, seed * 7919 + i)
        key = [(0 if s in rec.winners else 1, -rec.vp[s]) for s in range(n)]
        ranks = [1 + sum(1 for o in range(n) if key[o] < key[s]) for s in range(n)]
        new = model.rate([[ratings[lv]] for lv in seating], ranks=[float(r) for r in ranks])
        for s, lv in enumerate(seating):
            ratings[lv] = new[s][0]
            st = stats[lv]
            st["games"] += 1
            st["wins"] += s in rec.winners
            st["vp"] += rec.vp[s]
            st["decisions"] += rec.decisions[s]
            st["seconds"] += rec.seconds[s]
        where = {lv: s for s, lv in enumerate(seating)}
        for a, b in ahead:
            ka, kb = key[where[a]], key[where[b]]
            ahead[(a, b)] += 1.0 if ka < kb else 0.5 if ka == kb else 0.0
    out_levels = {lv: {"mu": round(r.mu, 2), "sigma": round(r.sigma, 2), "ordinal": round(r.ordinal(), 2),
                       "games": stats[lv]["games"], "wins": stats[lv]["wins"],
                       "mean_vp": round(stats[lv]["vp"] / games, 1),
                       "mean_decision_ms": round(1000 * stats[lv]["seconds"] / max(1, stats[lv]["decisions"]), 2)}
                  for lv, r in ratings.items()}
    pairs = []
    for (a, b), k in ahead.items():
        if out_levels[b]["mu"] > out_levels[a]["mu"]:  # the stronger one first
            a, b, k = b, a, games - k
        low, high = wilson(k, games)
        pairs.append({"a": a, "b": b, "games": games, "a_wins": k, "rate": round(k / games, 3),
                      "low": round(low, 3), "high": round(high, 3)})
    return {"game": game_id, "games": games, "seed": seed, "budget": budget, "levels": out_levels, "pairs": pairs}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="vikings")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--budget", type=float, default=None)
    ap.add_argument("--levels", default="random,easy,normal")
    ap.add_argument("-o", "--out", type=Path, required=True)
    args = ap.parse_args()
    levels = [canonical_level(x, internal=True) for x in args.levels.split(",")]
    args.out.write_text(json.dumps(ladder(args.game, levels, args.games, args.seed, args.budget), indent=1) + "\n")


if __name__ == "__main__":
    main()
