"""Decisions per CPU second of the heuristic players and random playouts, now against a commit (issue 30).

    python bench/players.py [--rounds N] [--games K] [--vs COMMIT] [--only TEXT]

For each game (Vikings and Brian Boru, 4 players, seeded) whole games through the public protocol,
the engine's ``new`` to the end:

* ``heuristic``: heuristic against heuristic — each step the acting seat's legal actions, and where
  there is a choice its ``view`` and the heuristic's ``choose``, then ``apply``; the figure is steps
  (decisions) per CPU second;
* ``heuristic-step``: the same with ``step`` (the unchecked apply for the players' own simulations);
* ``heuristic-live``: the way a rollout can run now: ``live_view`` (Brian Boru: the view whose towns
  and claims are shared while unchanged; Vikings has none: ``view``) and a quiet ``step`` (no events);
* ``random``: random playouts — ``legal_actions`` and ``apply`` of a seeded random choice;
* ``random-step``: the same with a quiet ``step`` (what a random playout runs: no events built).

Where the engine lacks ``step``, ``live_view`` or ``quiet`` (12896ee has none), that side runs
``apply``, ``view`` and an ordinary ``step``: the ratio is what a rollout gains.

``--vs COMMIT`` (e.g. 12896ee) exports ``engine/`` at COMMIT (``git archive``) into a temporary
directory and runs it in a second worker process beside a worker on this tree; the two take turns,
``--rounds`` times, each round the same K seeded games on both sides (the same games: the pinned
replays of ``tests/engine/test_pinned_games.py`` show both play them identically; a game is never
played twice by one worker), CPU time (``time.process_time``) measured inside each worker. Printed per
game and workload: the median rate of each side and the median of the per-round ratios now/then.
Without ``--vs`` only this tree. ``--only`` runs the workloads whose "game workload" name contains
the text (e.g. ``--only "brian-boru heuristic"``).
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["Astrid", "Bjorn", "Cnut", "Dagny"]
WORKLOADS = ("heuristic", "heuristic-step", "heuristic-live", "random", "random-step")


# --------------------------------------------------------------------------- the worker (either tree)


def _run(game_id: str, workload: str, seeds: list[int]) -> dict[str, float]:
    from engine.brianboru import BrianBoruGame
    from engine.core import Rng
    from engine.vikings import VikingsGame

    cls: Any = VikingsGame if game_id == "vikings" else BrianBoruGame
    steps = 0
    t = time.process_time()
    if workload.startswith("heuristic"):
        if game_id == "vikings":
            from engine.players.vikings import VikingsHeuristic as H
        else:
            from engine.players.brianboru import BrianBoruHeuristic as H  # type: ignore[assignment]
        for seed in seeds:
            g = cls.new(NAMES, seed=seed)
            fast = workload != "heuristic"
            apply = g.step if fast and hasattr(g, "step") else g.apply
            view = g.live_view if workload == "heuristic-live" and hasattr(g, "live_view") else g.view
            players = [H(seed * 10 + s) for s in range(4)]
            quiet = workload == "heuristic-live" and "quiet" in inspect.signature(apply).parameters
            while not g.is_over:
                s = g.acting_seats()[0]
                legal = g.legal_actions(s)
                a = legal[0] if len(legal) == 1 else players[s].choose(view(s), legal)
                if quiet:
                    apply(s, a, quiet=True)
                else:
                    apply(s, a)
                steps += 1
    else:
        for seed in seeds:
            g = cls.new(NAMES, seed=seed)
            chooser = Rng(seed * 7919 + 17)
            if workload == "random-step" and hasattr(g, "step"):
                quiet = "quiet" in inspect.signature(g.step).parameters
                step = g.step
                while not g.is_over:
                    s = g.acting_seats()[0]
                    legal = g.legal_actions(s)
                    if quiet:
                        step(s, legal[chooser.randbelow(len(legal))], quiet=True)
                    else:
                        step(s, legal[chooser.randbelow(len(legal))])
                    steps += 1
            else:
                while not g.is_over:
                    s = g.acting_seats()[0]
                    legal = g.legal_actions(s)
                    g.apply(s, legal[chooser.randbelow(len(legal))])
                    steps += 1
    return {"steps": steps, "cpu": time.process_time() - t}


def worker() -> None:
    """Read one JSON request a line (game, workload, seeds), answer one JSON line."""
    for line in sys.stdin:
        req = json.loads(line)
        print(json.dumps(_run(req["game"], req["workload"], req["seeds"])), flush=True)


# --------------------------------------------------------------------------- the driver


class Side:
    def __init__(self, path: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(path), PYTHONHASHSEED="0")  # the same string hashes on both sides
        self.proc = subprocess.Popen([sys.executable, "-c", "import runpy, sys; sys.argv = ['w', '--worker'];"
                                      f" runpy.run_path({str(Path(__file__))!r}, run_name='__main__')"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=str(path))

    def run(self, game: str, workload: str, seeds: list[int]) -> dict[str, float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"game": game, "workload": workload, "seeds": seeds}) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def export(commit: str, into: Path) -> Path:
    """``engine/`` as it was at ``commit``, unpacked under ``into``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "engine"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="turns each side takes (default 5)")
    ap.add_argument("--games", type=int, default=2, help="seeded games a workload plays in one turn (default 2)")
    ap.add_argument("--vs", default=None, help="a commit to compare with (e.g. 12896ee)")
    ap.add_argument("--only", default=None, help="run only the workloads whose 'game workload' name contains this")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker()
        return
    out: dict[str, Any] = {"machine": f"{platform.machine()} {platform.python_implementation()} "
                                      f"{platform.python_version()}", "rounds": args.rounds, "games": args.games}
    with tempfile.TemporaryDirectory(prefix="bench-players-") as tmp:
        sides = {"now": Side(ROOT)}
        if args.vs:
            sides["then"] = Side(export(args.vs, Path(tmp)))
            out["vs"] = args.vs
        try:
            for game in ("vikings", "brian-boru"):
                for w, workload in enumerate(WORKLOADS):
                    if args.only and args.only not in f"{game} {workload}":
                        continue
                    rates: dict[str, list[float]] = {name: [] for name in sides}
                    for r in range(args.rounds):
                        # new games for every workload and round: a worker never replays a game (the
                        # Brian Boru heuristic remembers values by position, which a replay would hit)
                        seeds = [10_000 * w + 1000 * r + k for k in range(args.games)]
                        order = list(sides) if r % 2 == 0 else list(reversed(sides))  # take turns going first
                        for name in order:
                            res = sides[name].run(game, workload, seeds)
                            rates[name].append(res["steps"] / res["cpu"])
                    row: dict[str, Any] = {f"{name}_steps_per_cpu_s": round(statistics.median(x))
                                           for name, x in rates.items()}
                    if "then" in rates:
                        ratios = [a / b for a, b in zip(rates["now"], rates["then"], strict=True)]
                        row["ratio_now_over_then"] = round(statistics.median(ratios), 2)
                    out[f"{game} {workload}"] = row
                    print(json.dumps({f"{game} {workload}": row}), file=sys.stderr, flush=True)
        finally:
            for side in sides.values():
                side.close()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
