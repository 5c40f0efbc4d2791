"""Seeded whole games whose logs are pinned (issue 30, item 3: faster decisions, same rules).

``play(case)`` plays one seeded game with heuristic and random seats through the public protocol
and returns its digest: the number of steps, a SHA-256 of every action and event in order, a
SHA-256 of every score list the heuristic seats computed (their exact floats, ``repr``), the
final VP, gold and winners, and a SHA-256 of the final state (``to_json``, RNG included). ``pinned_games.json`` holds the digests captured at 12896ee, before the
speed-up; ``test_pinned_games.py`` checks that the engines and the heuristic players still produce
exactly them. Regenerate only for a deliberate change of rules or of the heuristic:

    python -m tests.engine.pinned_games > tests/engine/pinned_games.json
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from typing import Any

from engine.brianboru import BrianBoruGame
from engine.core import Game
from engine.players.base import Player, RandomPlayer
from engine.players.brianboru import BrianBoruHeuristic
from engine.players.vikings import VikingsHeuristic
from engine.vikings import VikingsGame

NAMES = ["Astrid", "Bjorn", "Cnut", "Dagny", "Eirik"]

# (game, players, seed, options, seats: "h" heuristic / "r" random)
CASES: list[tuple[str, int, int, dict[str, Any] | None, str]] = [
    ("vikings", 4, 1, None, "hhhh"),
    ("vikings", 4, 2, None, "hhhh"),
    ("vikings", 3, 3, None, "hhh"),
    ("vikings", 2, 4, None, "hh"),
    ("vikings", 4, 5, {"advanced": True}, "hhhh"),
    ("vikings", 3, 6, {"advanced": True}, "hhr"),
    ("vikings", 4, 7, {"ships_any_order": False}, "hrhr"),
    ("vikings", 4, 8, None, "rrrr"),
    ("vikings", 4, 9, {"advanced": True}, "rrrr"),
    ("brian-boru", 4, 1, None, "hhhh"),
    ("brian-boru", 4, 2, None, "hhhh"),
    ("brian-boru", 3, 3, None, "hhh"),
    ("brian-boru", 5, 4, None, "hhhhh"),
    ("brian-boru", 4, 5, None, "hrhr"),
    ("brian-boru", 4, 6, None, "rrrr"),
    ("brian-boru", 5, 7, None, "rrrrr"),
]


def case_id(case: tuple[str, int, int, dict[str, Any] | None, str]) -> str:
    game, n, seed, options, seats = case
    return f"{game}-{n}p-seed{seed}-{seats}" + ("-" + "-".join(sorted(options)) if options else "")


def _player(game: str, kind: str, seed: int) -> Player:
    if kind == "r":
        return RandomPlayer(seed, game)
    return VikingsHeuristic(seed) if game == "vikings" else BrianBoruHeuristic(seed)


def play(case: tuple[str, int, int, dict[str, Any] | None, str]) -> dict[str, Any]:
    game_id, n, seed, options, seats = case
    cls: type[Game] = VikingsGame if game_id == "vikings" else BrianBoruGame
    g = cls.new(NAMES[:n], seed=seed, options=options)
    players = [_player(game_id, seats[s], 1000 * seed + s) for s in range(n)]
    log = hashlib.sha256()
    scores = hashlib.sha256()
    steps = 0
    while not g.is_over:
        s = g.acting_seats()[0]
        legal = g.legal_actions(s)
        p = players[s]
        view = g.view(s)
        if isinstance(p, (VikingsHeuristic, BrianBoruHeuristic)) and len(legal) > 1:
            twin = copy.deepcopy(p)  # the same seat's scores, without moving its RNG or memory
            if isinstance(twin, BrianBoruHeuristic):
                twin.remember(view)
            scores.update(repr(twin.score_actions(view, legal)).encode())
        a = p.choose(view, legal)
        events = g.apply(s, a)
        log.update(f"{s} {a.text}\n".encode())
        log.update(json.dumps([e.to_json() for e in events], sort_keys=True).encode())
        steps += 1
    final = g.view(None)
    players_view: list[Any] = final["players"]
    return {
        "steps": steps,
        "log": log.hexdigest(),
        "scores": scores.hexdigest(),
        "vp": [p["vp"] for p in players_view],
        "gold": [p.get("gold", p.get("coins")) for p in players_view],
        "winners": g.winners(),
        "state": hashlib.sha256(json.dumps(g.to_json(), sort_keys=True).encode()).hexdigest(),
    }


def main() -> None:
    out = {case_id(c): play(c) for c in CASES}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
