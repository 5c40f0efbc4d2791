"""Brian Boru engine speed: random 4-player games per second on one core.

``python bench/bench_brianboru.py [SECONDS]`` prints the figures; ``bench_brianboru(seconds)`` returns
them. Each game is played by a seeded random chooser through the public protocol
(``acting_seats()`` → ``legal_actions(seat)`` → ``apply(seat, action)``); CPU time is measured with
``time.process_time`` so other processes on the machine disturb the figure less (a busy machine still
lowers it: compare figures taken on an idle core).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.brianboru import BrianBoruGame  # noqa: E402
from engine.core import Rng  # noqa: E402

NAMES = ["Brian", "Mael", "Sitric", "Gormlaith"]


def play_one(seed: int, record: list | None = None) -> int:
    """Play one random 4-player game; return the number of actions (optionally record them)."""
    game = BrianBoruGame.new(NAMES, seed=seed)
    chooser = Rng(seed * 7919 + 17)
    steps = 0
    while not game.is_over:
        seats = game.acting_seats()
        seat = seats[0] if len(seats) == 1 else chooser.choice(seats)
        action = chooser.choice(game.legal_actions(seat))
        game.apply(seat, action)
        if record is not None:
            record.append((seat, action))
        steps += 1
    return steps


def bench_brianboru(seconds: float = 3.0) -> dict:
    """Play random 4-player games for about ``seconds`` of CPU time.

    Returns ``{"games_per_second", "mean_action_us", "games", "actions"}``: whole random games
    (set-up, ``legal_actions``, choice, ``apply``) per CPU second, and the mean time of one
    ``apply`` alone, measured by replaying recorded games without the chooser.
    """
    games = actions = 0
    start = time.process_time()
    while True:
        actions += play_one(games)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            break
    replays = []
    for seed in range(20):
        rec: list = []
        play_one(seed, rec)
        replays.append((seed, rec))
    spent = 0.0
    count = 0
    for seed, rec in replays:
        game = BrianBoruGame.new(NAMES, seed=seed)
        apply = game.apply
        t0 = time.process_time()
        for seat, action in rec:
            apply(seat, action)
        spent += time.process_time() - t0
        count += len(rec)
    return {
        "games_per_second": round(games / elapsed, 1),
        "mean_action_us": round(spent / count * 1e6, 2),
        "games": games,
        "actions": actions,
    }


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(json.dumps(bench_brianboru(secs)))
