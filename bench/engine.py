"""Engine speed: random playouts per second and the mean cost of legal_actions() + apply.

    python bench/engine.py [SECONDS]

Vikings (4 players, basic game, and advanced) and Brian Boru (4 players). Each game is played by
a seeded random chooser through the public protocol; CPU time (``time.process_time``) of this
process is measured, so other processes disturb the figures less. One core.
"""

from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core import Rng  # noqa: E402
from engine.vikings import VikingsGame  # noqa: E402

NAMES = ["Astrid", "Bjorn", "Cnut", "Dagny"]


def bench_vikings(seconds: float = 3.0, options: dict | None = None) -> dict:
    games = steps = 0
    t0 = time.process_time()
    seed = 0
    while time.process_time() - t0 < seconds:
        g = VikingsGame.new(NAMES, seed=seed, options=options)
        chooser = Rng(seed * 7919 + 17)
        while not g.is_over:
            seat = g.turn
            actions = g.legal_actions(seat)
            g.apply(seat, actions[chooser.randbelow(len(actions))])
            steps += 1
        games += 1
        seed += 1
    dt = time.process_time() - t0
    return {
        "games": games,
        "games_per_second": round(games / dt, 1),
        "actions_per_game": round(steps / games, 1),
        "mean_legal_plus_apply_us": round(dt / steps * 1e6, 1),
    }


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    out = {
        "machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
        "vikings_basic_4p": bench_vikings(seconds),
        "vikings_advanced_4p": bench_vikings(seconds, {"advanced": True}),
    }
    try:
        from bench.bench_brianboru import bench_brianboru
    except ImportError:  # pragma: no cover - run from elsewhere
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench_brianboru import bench_brianboru
    out["brianboru_4p"] = bench_brianboru(seconds)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
