"""The analysis of a finished game (issue 31): CPU seconds of one core for a 4-player game.

    python bench/analysis.py [GAMES] [--game vikings|brian-boru] [--seed N]

For each game (Vikings and Brian Boru, 4 players) GAMES games (default 10) are played by seeded
computer players (``easy``, ``normal``, ``easy``, ``normal``: the mistakes of people, so the review
has choices off the search's short list to value a second time), then every seat is reviewed as a
person would be — every non-forced decision judged from that seat's view with the review's own fixed
work (:data:`engine.players.review.REVIEW_OPTIONS`), the margin curve — exactly what the host's job
does, in this one process (the host hands the same work to a worker in pieces). Printed per game:
the median and the largest CPU seconds (``time.process_time``) of one game's analysis, the decisions
judged per game, and the CPU milliseconds per decision. Target (issue 31): median at most 60 s.

CPU time, not wall-clock time: the machine is shared, and the question is how much of one core an
analysis takes.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.players import make_player  # noqa: E402
from engine.players.arena import NAMES, game_class  # noqa: E402
from engine.players.review import REVIEW_OPTIONS, curve, decisions, judge_moves, summarise  # noqa: E402

LEVELS = ("easy", "normal", "easy", "normal")
TARGET = 60.0


def played(game_id: str, seed: int) -> list[tuple[int, str]]:
    g = game_class(game_id).new(NAMES[:4], seed=seed)
    players = [make_player(game_id, lv, seed * 10 + s) for s, lv in enumerate(LEVELS)]
    moves: list[tuple[int, str]] = []
    while not g.is_over:
        s = g.acting_seats()[0]
        a = players[s].choose(g.view(s), g.legal_actions(s))
        g.apply(s, a)
        moves.append((s, str(a)))
    return moves


def analyse(game_id: str, seed: int, moves: list[tuple[int, str]]) -> dict[str, Any]:
    start = game_class(game_id).new(NAMES[:4], seed=seed)
    t = time.process_time()
    todo = decisions(start, moves, range(4))
    judged = judge_moves(game_id, start, moves, todo, options=REVIEW_OPTIONS)
    review = summarise(game_id, NAMES[:4], range(4), judged, curve(game_id, start, moves))
    cpu = time.process_time() - t
    not_best = sum(1 for d in judged if d.chosen != d.best)
    return {"cpu_s": cpu, "decisions": len(todo), "not_best": not_best,
            "accuracy": [round(s.accuracy or 0, 3) for s in review.seats]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench/analysis.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="?", type=int, default=10)
    ap.add_argument("--game", choices=("vikings", "brian-boru"), action="append")
    ap.add_argument("--seed", type=int, default=3100)
    args = ap.parse_args(argv)
    if args.games < 1:
        print("bench/analysis.py: GAMES must be at least 1", file=sys.stderr)
        return 2
    out: dict[str, Any] = {"python": platform.python_version(), "options": REVIEW_OPTIONS, "games": args.games}
    for game_id in args.game or ("vikings", "brian-boru"):
        runs = [analyse(game_id, args.seed + i, played(game_id, args.seed + i)) for i in range(args.games)]
        cpu = [r["cpu_s"] for r in runs]
        n = [r["decisions"] for r in runs]
        out[game_id] = {
            "median_cpu_s": round(statistics.median(cpu), 1), "max_cpu_s": round(max(cpu), 1),
            "median_decisions": statistics.median(n),
            "cpu_ms_per_decision": round(1000 * sum(cpu) / sum(n), 1),
            "not_best_share": round(sum(r["not_best"] for r in runs) / sum(n), 3),
            "within_target": statistics.median(cpu) <= TARGET,
        }
        print(game_id, json.dumps(out[game_id]), flush=True)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
